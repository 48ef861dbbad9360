//! The built-in profiles: the reference criteria ICLR, NeurIPS and ICML published for
//! their 2026 editions, as docs/policies.md describes them (with the pages they were
//! published on). The three venues draw the same line: a reference to a work that does
//! not exist, with badly wrong authors or in a venue that does not exist is
//! *hallucinated* (grounds for desk rejection); a real work cited with a wrong venue,
//! year, identifier or title is an *error to report* to the authors.

use super::{FindingMatcher, PolicyClass, VenuePolicy};

/// The names `--policy` accepts without configuration.
pub const BUILTIN_NAMES: &[&str] = &["iclr-2026", "neurips-2026", "icml-2026"];

/// Hallucinated: the work does not exist, its identifier names nothing or another
/// work, or its authors are not the work's at all.
const HALLUCINATED: &[&str] = &[
    "reference-not-found",
    "identifier-not-found",
    "identifier-names-another-work",
    "wrong-authors/unknown-authors",
    "wrong-authors/placeholder-authors",
];

/// Errors to report: a real work cited with a wrong field.
const ERRORS: &[&str] = &[
    "wrong-venue",
    "wrong-identifier",
    "wrong-year",
    "wrong-authors",
    "wrong-title",
    "wrong-version",
    "retracted-work",
];

/// What the record could not settle either way: a human looks.
const NEEDS_CHECK: &[&str] = &["reference-unverified", "work-not-indexed"];

fn matchers(list: &[&str]) -> Vec<FindingMatcher> {
    list.iter()
        .map(|m| FindingMatcher::parse(m).expect("built-in matchers name known rules"))
        .collect()
}

fn profile(name: &str, title: &str, source: &str) -> VenuePolicy {
    VenuePolicy {
        name: name.into(),
        title: title.into(),
        source: Some(source.into()),
        classes: vec![
            PolicyClass {
                name: "hallucinated".into(),
                summary: "the cited work does not exist, its authors are badly wrong, or its \
                          venue does not exist: grounds for desk rejection"
                    .into(),
                fails: true,
                findings: matchers(HALLUCINATED),
            },
            PolicyClass {
                name: "error-to-report".into(),
                summary: "a real work cited with a wrong venue, arXiv id, year, title or \
                          authors: reported to the authors for correction"
                    .into(),
                fails: false,
                findings: matchers(ERRORS),
            },
            PolicyClass {
                name: "needs-check".into(),
                summary: "the scholarly record could not settle the reference: a person checks it"
                    .into(),
                fails: false,
                findings: matchers(NEEDS_CHECK),
            },
        ],
    }
}

/// A built-in profile by name (`iclr-2026`, `neurips-2026`, `icml-2026`).
pub fn builtin(name: &str) -> Option<VenuePolicy> {
    let name = name.trim().to_ascii_lowercase();
    Some(match name.as_str() {
        "iclr-2026" => profile(
            "iclr-2026",
            "ICLR 2026 reference criteria",
            "https://blog.iclr.cc/2025/08/26/policies-on-large-language-model-usage-at-iclr-2026/",
        ),
        "neurips-2026" => profile(
            "neurips-2026",
            "NeurIPS 2026 reference criteria",
            "https://neurips.cc/Conferences/2026/LLM",
        ),
        "icml-2026" => profile(
            "icml-2026",
            "ICML 2026 reference criteria",
            "https://icml.cc/Conferences/2026/AuthorInstructions",
        ),
        _ => return None,
    })
}
