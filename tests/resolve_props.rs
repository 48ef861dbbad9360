//! Property tests: the resolver's handling of user text never panics, and the
//! reference-string title anchoring keeps its promises on arbitrary input.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

use citeproof::model::Work;
use citeproof::resolve::corpus::Corpus;
use citeproof::resolve::gate::GateThresholds;
use citeproof::resolve::landing::page_work;
use citeproof::resolve::query::RefQuery;
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    // Letters, digits, punctuation, LaTeX and markup characters, non-ASCII.
    proptest::string::string_regex(r"[A-Za-z0-9 .,;:()\[\]{}\\\x22'&<>/\-–—αéü\n]{0,160}").unwrap()
}

proptest! {
    #![proptest_config(crate::proptest_config::config(300))]

    #[test]
    fn queries_judge_and_compare_any_text(raw in text(), title in text()) {
        let q = RefQuery::from_string(&raw);
        let _ = q.cited_ids();
        let _ = (q.title_query(), q.bibliographic_query(), q.landing_url());
        let work = Work { title: title.clone(), ..Work::default() };
        let t = GateThresholds::default();
        let decision = q.judge(&work, &t);
        prop_assert!((0.0..=1.0).contains(&decision.similarity));
        let fields = q.fields_for(&work, &t);
        // The title compared is always one the text carries or the parsed one.
        if let Some(compared) = &fields.title {
            prop_assert!(
                Some(compared) == q.fields.title.as_ref() || !compared.is_empty()
            );
        }
    }

    #[test]
    fn a_string_containing_a_record_title_verbatim_compares_that_title(
        before in "[A-Z][a-z]{2,8}, [A-Z]\\. \\(20[0-2][0-9]\\)\\. ",
        title in "[A-Z][a-z]{3,9}( [a-z]{3,9}){3,8}",
        after in "\\. [A-Z][a-z]{3,9} [A-Z][a-z]{3,9}\\.",
    ) {
        let raw = format!("{before}{title}{after}");
        let q = RefQuery::from_string(&raw);
        let work = Work { title: title.clone(), ..Work::default() };
        let t = GateThresholds::default();
        prop_assert!(q.judge(&work, &t).accepted, "{raw}");
        let fields = q.fields_for(&work, &t);
        prop_assert_eq!(fields.title.as_deref(), Some(title.as_str()));
    }

    #[test]
    fn landing_pages_never_panic(html in text()) {
        let page = format!("<html><head><meta name=\"citation_title\" content=\"{html}\"></head></html>");
        let _ = page_work(&page);
        let _ = page_work(&html);
    }
}

#[test]
fn corpus_lines_of_any_shape_are_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpus.jsonl");
    std::fs::write(
        &path,
        "{\"title\": \"Real work\"}\n[1,2]\n{\"title\": 5}\n\u{1}garbage\n{\"authors\": []}\n",
    )
    .unwrap();
    let (corpus, warnings) = Corpus::load(&[path]).unwrap();
    assert_eq!(corpus.len(), 1);
    assert_eq!(warnings.len(), 4, "{warnings:?}");
    let binary = dir.path().join("binary.jsonl");
    std::fs::write(&binary, b"{\"title\": \"x\"}\n\0\0\0").unwrap();
    let error = Corpus::load(&[binary]).unwrap_err().to_string();
    assert!(error.contains("binary.jsonl"), "{error}");
}
