//! The report as JUnit XML (`check --format junit`), the format CI
//! dashboards read: one `testsuite` per file, one `testcase` per claim.
//!
//! Key decision: the mapping follows what the common JUnit readers accept
//! (the Jenkins schema, which GitLab, GitHub test-report actions and
//! Azure read too): REFUTED and REJECTED claims are `failure`s, ERROR claims
//! and file problems are `error`s, UNDECIDED claims are `skipped` (not
//! decided is neither a pass nor a failure). The verdict, rule and
//! fingerprint go into the element's text, not into attributes of their
//! own, so the document stays inside the schema.

use super::{ClaimReport, FileReport, Report, VerdictName};

/// The JUnit XML document of a report.
pub fn junit(report: &Report) -> String {
    let s = &report.summary;
    let failures = s.refuted + s.rejected;
    let seconds: f64 = report
        .files
        .iter()
        .flat_map(|f| &f.claims)
        .filter_map(|c| c.seconds)
        .fold(0.0, |a, b| a + b);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\" skipped=\"{}\" time=\"{seconds:.3}\">\n",
        escape(&report.tool),
        s.claims(),
        s.errors,
        s.undecided,
    ));
    for (i, file) in report.files.iter().enumerate() {
        suite(&mut out, i, file);
    }
    out.push_str("</testsuites>\n");
    out
}

/// One file's `testsuite`.
fn suite(out: &mut String, id: usize, file: &FileReport) {
    let count = |v: VerdictName| file.claims.iter().filter(|c| c.verdict == v).count();
    let failures = count(VerdictName::Refuted) + count(VerdictName::Rejected);
    let errors = count(VerdictName::Error) + file.errors.len();
    let seconds: f64 = file
        .claims
        .iter()
        .filter_map(|c| c.seconds)
        .fold(0.0, |a, b| a + b);
    out.push_str(&format!(
        "  <testsuite id=\"{id}\" name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{}\" time=\"{seconds:.3}\">\n",
        escape(&file.path),
        file.claims.len() + file.errors.len(),
        count(VerdictName::Undecided),
    ));
    for e in &file.errors {
        out.push_str(&format!(
            "    <testcase name=\"{}:{}: {}\" classname=\"{}\" time=\"0.000\">\n",
            escape(&file.path),
            e.line,
            escape(e.code),
            escape(&file.path),
        ));
        out.push_str(&format!(
            "      <error message=\"{}\" type=\"{}\"/>\n",
            escape(&e.message),
            escape(e.code)
        ));
        out.push_str("    </testcase>\n");
    }
    for claim in &file.claims {
        case(out, file, claim);
    }
    out.push_str("  </testsuite>\n");
}

/// One claim's `testcase`.
fn case(out: &mut String, file: &FileReport, claim: &ClaimReport) {
    out.push_str(&format!(
        "    <testcase name=\"{}: {}\" classname=\"{}\" time=\"{:.3}\"",
        escape(&claim.id),
        escape(&claim.statement),
        escape(&file.path),
        claim.seconds.unwrap_or(0.0),
    ));
    let text = format!(
        "{}:{}  {} by {} (fingerprint {})\n{}",
        file.path,
        claim.line,
        claim.verdict.word(),
        claim.rule,
        claim.fingerprint,
        claim.detail
    );
    let element = match claim.verdict {
        VerdictName::Verified => {
            out.push_str("/>\n");
            return;
        }
        VerdictName::Refuted | VerdictName::Rejected => "failure",
        VerdictName::Error => "error",
        VerdictName::Undecided => "skipped",
    };
    out.push_str(">\n");
    // The schema gives `skipped` a message but no type.
    let kind = match claim.verdict {
        VerdictName::Undecided => String::new(),
        v => format!(" type=\"{}\"", v.word()),
    };
    out.push_str(&format!(
        "      <{element} message=\"{}\"{kind}>{}</{element}>\n",
        escape(&claim.detail),
        escape(&text)
    ));
    out.push_str("    </testcase>\n");
}

/// Text made safe for an XML attribute or element: the five markup
/// characters escaped, and characters XML 1.0 forbids dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup_and_drops_forbidden_characters() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("x\u{1}y\nz"), "xy&#10;z");
    }
}
