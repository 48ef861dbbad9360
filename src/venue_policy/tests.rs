use super::*;
use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Span};
use crate::rules::{REFERENCE_NOT_FOUND, UNUSED_ENTRY, WRONG_AUTHORS, WRONG_YEAR};

fn finding(rule: &'static Rule, kind: Option<MismatchKind>) -> Diagnostic {
    let mut d = Diagnostic::new(rule, FileId(0), Span::new(0, 1), "m");
    d.mismatch = kind;
    d
}

#[test]
fn builtin_profiles_separate_hallucinated_from_errors() {
    for name in BUILTIN_NAMES {
        let p = builtin(name).unwrap();
        assert_eq!(p.name, *name);
        assert!(p.source.is_some());
        let class = |d: &Diagnostic| p.class_name(d).map(str::to_string);
        assert_eq!(
            class(&finding(&REFERENCE_NOT_FOUND, None)).as_deref(),
            Some("hallucinated")
        );
        assert_eq!(
            class(&finding(&WRONG_AUTHORS, Some(MismatchKind::UnknownAuthors))).as_deref(),
            Some("hallucinated")
        );
        assert_eq!(
            class(&finding(&WRONG_AUTHORS, Some(MismatchKind::SwappedAuthors))).as_deref(),
            Some("error-to-report")
        );
        assert_eq!(
            class(&finding(&WRONG_YEAR, Some(MismatchKind::WrongYear))).as_deref(),
            Some("error-to-report")
        );
        assert_eq!(class(&finding(&UNUSED_ENTRY, None)), None);
        assert!(p.fails(&finding(&REFERENCE_NOT_FOUND, None)));
        assert!(!p.fails(&finding(&WRONG_YEAR, None)));
    }
    assert!(builtin("ICLR-2026").is_some());
    assert!(builtin("iclr-2019").is_none());
}

#[test]
fn user_profiles_extend_replace_and_fail() {
    let spec = PolicySpec {
        extends: Some("iclr-2026".into()),
        classes: vec![ClassSpec {
            name: "stale".into(),
            summary: None,
            fails: false,
            findings: vec!["CP209".into()],
        }],
        fail: Some(vec!["hallucinated".into(), "error-to-report".into()]),
        ..PolicySpec::default()
    };
    let p = spec.build("my-workshop").unwrap();
    assert_eq!(p.name, "my-workshop");
    assert_eq!(p.classes[0].name, "stale");
    assert_eq!(p.class_name(&finding(&WRONG_YEAR, None)), Some("stale"));
    assert!(p.fails(&finding(&WRONG_AUTHORS, Some(MismatchKind::SwappedAuthors))));
    let counts = p.counts(&[
        finding(&WRONG_YEAR, None),
        finding(&REFERENCE_NOT_FOUND, None),
    ]);
    assert_eq!(counts[0], ("stale", 1));
    assert!(counts.contains(&("hallucinated", 1)));
}

#[test]
fn bad_specs_are_named_errors() {
    let bad_rule = PolicySpec {
        classes: vec![ClassSpec {
            name: "x".into(),
            summary: None,
            fails: true,
            findings: vec!["CP999".into()],
        }],
        ..PolicySpec::default()
    };
    let err = bad_rule.build("mine").unwrap_err();
    assert!(
        err.contains("policy `mine`") && err.contains("CP999"),
        "{err}"
    );
    let bad_kind = FindingMatcher::parse("wrong-authors/sometimes").unwrap_err();
    assert!(bad_kind.contains("sometimes"), "{bad_kind}");
    let bad_base = PolicySpec {
        extends: Some("icml-1999".into()),
        ..PolicySpec::default()
    };
    assert!(bad_base.build("m").unwrap_err().contains("icml-1999"));
    let bad_fail = PolicySpec {
        extends: Some("icml-2026".into()),
        fail: Some(vec!["nothing".into()]),
        ..PolicySpec::default()
    };
    assert!(bad_fail.build("m").unwrap_err().contains("nothing"));
    assert!(PolicySpec::default().build("empty").is_err());
}

#[test]
fn matchers_print_as_written() {
    let m = FindingMatcher::parse("CP208/unknown-authors").unwrap();
    assert_eq!(m.to_string(), "wrong-authors/unknown-authors");
}
