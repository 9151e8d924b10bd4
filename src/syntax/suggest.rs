//! "Did you mean": the one place that picks, among the names that would
//! have been accepted, the one a misspelled word most likely meant.
//!
//! Key decision: the distance is the optimal string alignment distance
//! (Damerau-Levenshtein without repeated edits of a substring, from
//! `strsim`), compared case-insensitively, because the typos it should catch
//! are one or two dropped, doubled, swapped or wrong letters (`winer`,
//! `serch`, `crma`, `proof-sequense`). A candidate is offered only within a
//! third of the word's length (at least one edit), and never when the edit
//! would replace the whole word: `P` is not a misspelling of `L`, however
//! close they are. Ties go to the candidate listed first, so callers list
//! the most common names first.
//!
//! It knows nothing about which names exist: each caller passes the
//! candidates it would have accepted (keywords for the parser, declared
//! names for the elaborator).

/// The candidate closest to `word`, if one is close enough to be the
/// likely intent; `None` for the word itself (nothing to suggest) and when
/// every candidate is too far.
pub fn closest<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let word_lower = word.to_lowercase();
    let word_len = word_lower.chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            return None;
        }
        let distance = strsim::osa_distance(&word_lower, &candidate.to_lowercase());
        let longest = word_len.max(candidate.chars().count());
        let close_enough = distance <= allowed_edits(word_len) && distance < longest;
        if close_enough && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The edits a word of `len` characters may be away from what it meant: a
/// third of its length, and one for short words (`D2` for `D`).
fn allowed_edits(len: usize) -> usize {
    (len / 3).max(1)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn typical_typos_find_their_word() {
        let statements = ["grundy", "outcome", "winner", "loser", "threshold"];
        assert_eq!(closest("winer", statements), Some("winner"));
        assert_eq!(closest("grundi", statements), Some("grundy"));
        assert_eq!(closest("Grundy", statements), Some("grundy"));
        let methods = ["search", "table", "proof-sequence", "priority"];
        assert_eq!(closest("serch", methods), Some("search"));
        assert_eq!(closest("proof-sequense", methods), Some("proof-sequence"));
        assert_eq!(closest("crma", ["nim", "cram", "juvavum"]), Some("cram"));
        assert_eq!(closest("D2", ["L", "D"]), Some("D"));
    }

    #[test]
    fn unrelated_words_get_no_suggestion() {
        assert_eq!(closest("magic", ["search", "table", "cards"]), None);
        assert_eq!(closest("P", ["L"]), None);
        assert_eq!(closest("chess", ["nim", "cram", "kayles"]), None);
        assert_eq!(closest("anything", std::iter::empty()), None);
    }

    #[test]
    fn the_word_itself_and_ties() {
        // A word that is a candidate needs no suggestion.
        assert_eq!(closest("cram", ["cram", "crm"]), None);
        // Ties go to the first candidate listed.
        assert_eq!(closest("ab", ["a", "b"]), Some("a"));
    }
}
