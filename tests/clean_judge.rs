//! The shared judge inside `clean`: each occurrence of a citation is judged on its
//! own sentence and carries its evidence; a doubt below the judge's confidence is
//! `doubtful`, kept by default and marked by policy.

use citeproof::clean::{
    Action, CleanOptions, CleanRequest, Cleaner, Status, Taken, clean_blocking,
};
use serde_json::json;

fn request(answer: &str, options: Option<CleanOptions>) -> CleanRequest {
    let sources = json!([
        {
            "doi": "10.1000/sleep",
            "title": "Exercise training improves sleep quality in older adults",
            "abstract": "This systematic review found that exercise training improved sleep \
                         quality in older adults with sleep problems, as measured by the \
                         Pittsburgh Sleep Quality Index in 12 randomised trials."
        },
        {
            "doi": "10.1000/resnet",
            "title": "Deep residual learning for image recognition",
            "abstract": "We present a residual learning framework to ease the training of deep \
                         neural networks. A 152-layer ResNet reaches 3.57% top-5 error on the \
                         ImageNet test set."
        }
    ]);
    CleanRequest {
        answer: answer.to_string(),
        sources: Some(serde_json::from_value(sources).unwrap()),
        options,
        ..CleanRequest::default()
    }
}

#[test]
fn one_reference_is_judged_at_each_of_its_sentences() {
    let answer = "A 152-layer ResNet reaches 3.57% top-5 error on ImageNet [2]. Exercise \
                  training improved sleep quality in older adults across 12 randomised \
                  trials [2].\n";
    let cleaned = clean_blocking(&Cleaner::default(), &request(answer, None)).unwrap();
    let c = &cleaned.report.citations;
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].status, Status::Valid, "{:?}", c[0]);
    assert_eq!(c[1].status, Status::Mismatch, "{:?}", c[1]);
    assert_eq!(c[1].action, Taken::Removed);
    // The right occurrence: the figures of its sentence are in the article.
    let e = c[0].evidence.as_ref().expect("evidence");
    assert!(e.found.iter().any(|t| t == "3.57%"), "{e:?}");
    assert!(e.passage.as_deref().unwrap().contains("152-layer"), "{e:?}");
    // The wrong one: the rival source holds the sentence and its figures.
    let e = c[1].evidence.as_ref().expect("evidence");
    let rival = e.rival.as_ref().expect("rival");
    assert_eq!(rival.name, "source 1");
    assert!(e.missing.iter().any(|t| t == "randomised"), "{e:?}");
    assert!(c[1].reason.contains("source 1"), "{}", c[1].reason);
    assert_eq!(
        cleaned.cleaned,
        "A 152-layer ResNet reaches 3.57% top-5 error on ImageNet [1]. Exercise training \
         improved sleep quality in older adults across 12 randomised trials.\n"
    );
}

#[test]
fn doubtful_citations_are_kept_by_default_and_marked_by_policy() {
    let answer = "Residual networks ease the training of deep networks [2].\n";
    // Every citation doubtful, none confidently wrong.
    let doubt_all = CleanOptions {
        threshold: Some(0.0),
        doubt_threshold: Some(1.0),
        ..CleanOptions::default()
    };
    let cleaned = clean_blocking(
        &Cleaner::default(),
        &request(answer, Some(doubt_all.clone())),
    )
    .unwrap();
    let c = &cleaned.report.citations[0];
    assert_eq!(
        (c.status, c.action),
        (Status::Doubtful, Taken::Kept),
        "{c:?}"
    );
    assert_eq!(cleaned.report.summary.doubtful, 1);
    let mark = CleanOptions {
        doubtful: Some(Action::Mark),
        mark_format: Some("{n}?".into()),
        mark_note: Some(String::new()),
        ..doubt_all
    };
    let cleaned = clean_blocking(&Cleaner::default(), &request(answer, Some(mark))).unwrap();
    assert_eq!(
        cleaned.cleaned,
        "Residual networks ease the training of deep networks [1?].\n"
    );
    // A doubt threshold below the removal threshold is refused.
    let bad = CleanOptions {
        threshold: Some(0.5),
        doubt_threshold: Some(0.2),
        ..CleanOptions::default()
    };
    let err = clean_blocking(&Cleaner::default(), &request(answer, Some(bad))).unwrap_err();
    assert!(err.to_string().contains("doubt_threshold"), "{err}");
}
