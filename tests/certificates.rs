//! Every shipped certificate is VERIFIED, and its reports are snapshotted.

mod common;

#[test]
fn every_shipped_certificate_verifies() {
    let outcome = common::check(&["certificates"]);
    let report = &outcome.report;
    let not_verified: Vec<String> = report
        .files
        .iter()
        .flat_map(|f| f.claims.iter().map(move |c| (f, c)))
        .filter(|(_, c)| c.verdict != gamecert::report::VerdictName::Verified)
        .map(|(f, c)| format!("{}: {} {:?} {}", f.path, c.id, c.verdict, c.detail))
        .collect();
    assert!(
        not_verified.is_empty(),
        "not verified:\n{}",
        not_verified.join("\n")
    );
    assert!(
        report.files.iter().all(|f| f.errors.is_empty()),
        "file errors: {:?}",
        report.files
    );
    assert!(
        report.summary.verified >= 190,
        "certificates went missing: {}",
        report.summary.verified
    );
    insta::assert_snapshot!("certificates-human", report.to_human());
    insta::assert_snapshot!("certificates-json", report.to_json());
}

/// Every file of the grammar's examples parses without error.
#[test]
fn grammar_examples_parse() {
    let grammar = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/grammar/gamecert.ebnf"
    ))
    .expect("grammar");
    let mut examples = 0;
    for block in grammar.split("(* example").skip(1) {
        let body = block.split_once(":\n").map(|(_, b)| b).unwrap_or("");
        let body = body.split("*)").next().unwrap_or("");
        let parsed = gamecert::syntax::parse_file(body);
        assert!(
            parsed.errors.is_empty(),
            "example does not parse: {:?}\n{body}",
            parsed.errors
        );
        for claim in gamecert::elaborate::claims(&parsed) {
            assert!(claim.explicit.is_ok(), "example does not elaborate: {body}");
        }
        examples += 1;
    }
    assert!(examples >= 5, "the grammar lost its examples");
}
