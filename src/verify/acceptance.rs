//! Whether a downloaded text may stand in for the cited work's full text: long enough,
//! not an erratum / correction / retraction notice / publisher's note, and plausibly the
//! cited work (its title matches the record's).

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::extract::Extracted;
use crate::resolve::normalize::content_words;
use crate::resolve::title_score::title_similarity;

/// Why a text is not accepted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotAccepted {
    #[error("a {0}, not the article")]
    Notice(String),
    #[error("too short: {chars} characters, fewer than the {min} required")]
    TooShort { chars: usize, min: usize },
    #[error("apparently another work (title {found:?}, similarity {similarity:.2})")]
    OtherWork { found: String, similarity: f64 },
}

/// Declared article types that are notices about another article.
const NOTICE_TYPES: &[(&str, &str)] = &[
    ("retraction", "retraction notice"),
    ("expression-of-concern", "expression of concern"),
    ("expression of concern", "expression of concern"),
    ("correction", "correction notice"),
    ("erratum", "erratum"),
    ("corrigendum", "corrigendum"),
    ("addendum", "addendum"),
    ("publisher's note", "publisher's note"),
    ("publisher’s note", "publisher's note"),
    ("removal", "removal notice"),
];

static NOTICE_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\W*(?:erratum|corrigendum|addendum|correction(?:\s+(?:to|notice|for)\b|\s*[:\-–])|(?:author|publisher)(?:'s|’s)?\s+correction|retraction(?:\s+(?:note|notice|of|for)\b|\s*[:\-–])|notice\s+of\s+retraction|retracted\s*(?:article)?\s*:|publisher(?:'s|’s)\s+note|expression\s+of\s+concern|editorial\s+expression\s+of\s+concern)",
    )
    .expect("notice title regex")
});

static NOTICE_OPENING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:this article was originally published with an? (?:error|mistake)|an amendment to this (?:paper|article) has been published|the (?:original )?(?:version of this )?(?:article|paper) (?:unfortunately )?contained an? (?:error|mistake)|this article has been retracted|the publisher regrets|the authors? regrets? (?:that|an error)|in the original (?:publication|version) of this article)",
    )
    .expect("notice opening regex")
});

/// Characters of the text's start searched for a notice's opening sentence.
const OPENING_CHARS: usize = 600;
/// Characters of the text's start searched for the cited title when the document names
/// no title of its own (PDF).
const HEAD_CHARS: usize = 3000;

/// What the document is when it is a notice rather than an article. A cited work whose
/// own title is a notice (someone cites an erratum) is taken as it is.
pub fn notice_kind(doc: &Extracted, cited_title: &str) -> Option<String> {
    if NOTICE_TITLE.is_match(cited_title) {
        return None;
    }
    for declared in &doc.declared_type {
        let d = declared.to_lowercase();
        if let Some((_, kind)) = NOTICE_TYPES.iter().find(|(t, _)| d.contains(t)) {
            return Some((*kind).to_string());
        }
    }
    if let Some(title) = &doc.title
        && let Some(m) = NOTICE_TITLE.find(title)
    {
        return Some(
            m.as_str()
                .trim()
                .trim_end_matches([':', '-', '–'])
                .trim()
                .to_lowercase(),
        );
    }
    let opening: String = doc.text.chars().take(OPENING_CHARS).collect();
    NOTICE_OPENING
        .is_match(&opening)
        .then(|| "correction notice".to_string())
}

/// Share of the cited title's words found in `text`.
fn containment(title: &str, text: &str) -> f64 {
    let wanted: HashSet<String> = content_words(title).into_iter().collect();
    if wanted.is_empty() {
        return 1.0;
    }
    let have: HashSet<String> = content_words(text).into_iter().collect();
    wanted.intersection(&have).count() as f64 / wanted.len() as f64
}

/// Accept `doc` as the full text of the work titled `cited_title`, or say why not.
pub fn accept(
    doc: &Extracted,
    cited_title: &str,
    min_chars: usize,
    min_similarity: f64,
) -> Result<(), NotAccepted> {
    if let Some(kind) = notice_kind(doc, cited_title) {
        return Err(NotAccepted::Notice(kind));
    }
    let chars = doc.text.chars().count();
    if chars < min_chars {
        return Err(NotAccepted::TooShort {
            chars,
            min: min_chars,
        });
    }
    if cited_title.trim().is_empty() {
        return Ok(());
    }
    let head: String = doc.text.chars().take(HEAD_CHARS).collect();
    let in_head = containment(cited_title, &head);
    match &doc.title {
        Some(found) => {
            let similarity = title_similarity(cited_title, found);
            // A page title may carry the site's name or a subtitle: the cited title
            // inside it, or at the top of the text, also counts.
            if similarity >= min_similarity
                || containment(cited_title, found) >= 0.9
                || in_head >= 0.9
            {
                Ok(())
            } else {
                Err(NotAccepted::OtherWork {
                    found: found.clone(),
                    similarity,
                })
            }
        }
        None if in_head >= 0.8 => Ok(()),
        None => Err(NotAccepted::OtherWork {
            found: head.chars().take(80).collect::<String>().trim().to_string(),
            similarity: in_head,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(title: Option<&str>, text: &str, declared: &[&str]) -> Extracted {
        Extracted {
            title: title.map(str::to_string),
            text: text.to_string(),
            sections: Vec::new(),
            declared_type: declared.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn notices_by_type_title_and_opening() {
        let long = "x ".repeat(2000);
        assert_eq!(
            notice_kind(&doc(None, &long, &["correction"]), "A study").as_deref(),
            Some("correction notice")
        );
        assert!(notice_kind(&doc(Some("Erratum: A study"), &long, &[]), "A study").is_some());
        assert!(
            notice_kind(
                &doc(Some("Retraction Note: A study"), &long, &[]),
                "A study"
            )
            .is_some()
        );
        assert!(notice_kind(&doc(Some("Publisher's Note"), &long, &[]), "A study").is_some());
        let opening =
            format!("This article was originally published with an error in table 2. {long}");
        assert!(notice_kind(&doc(None, &opening, &[]), "A study").is_some());
        // A paper about error correction is not a correction notice.
        assert!(
            notice_kind(
                &doc(Some("Correction of errors in qubits"), &long, &[]),
                "x"
            )
            .is_none()
        );
        // Boilerplate further down an article is not a notice.
        let springer = format!("{long} Publisher's Note: Springer Nature remains neutral.");
        assert!(notice_kind(&doc(Some("A study"), &springer, &[]), "A study").is_none());
        // Someone citing the erratum itself gets the erratum.
        assert!(
            notice_kind(
                &doc(Some("Erratum: A study"), &long, &[]),
                "Erratum: A study"
            )
            .is_none()
        );
    }

    #[test]
    fn length_and_title_checks() {
        let text = format!("Sleep and memory in mice\n\n{}", "words ".repeat(500));
        let title = "Sleep and memory in mice";
        assert!(accept(&doc(Some(title), &text, &[]), title, 2000, 0.6).is_ok());
        assert!(accept(&doc(None, &text, &[]), title, 2000, 0.6).is_ok());
        assert!(matches!(
            accept(&doc(Some(title), "short", &[]), title, 2000, 0.6),
            Err(NotAccepted::TooShort { chars: 5, .. })
        ));
        let other = format!(
            "Deep learning for protein folding\n\n{}",
            "words ".repeat(500)
        );
        assert!(matches!(
            accept(
                &doc(Some("Deep learning for protein folding"), &other, &[]),
                title,
                2000,
                0.6
            ),
            Err(NotAccepted::OtherWork { .. })
        ));
        assert!(matches!(
            accept(&doc(None, &other, &[]), title, 2000, 0.6),
            Err(NotAccepted::OtherWork { .. })
        ));
    }
}
