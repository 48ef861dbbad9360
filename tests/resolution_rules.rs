//! Resolution diagnostics from resolved references: which rule fires for each
//! outcome, where, with what message, record and fix.

use citeproof::diagnostic::{Applicability, Diagnostic};
use citeproof::document::Document;
use citeproof::load::Project;
use citeproof::model::{
    Citation, CitationKind, FieldSpan, Person, RefFields, Reference, ReferenceOrigin, Span, Work,
};
use citeproof::resolve::mismatch::{Field, Mismatch, MismatchKind};
use citeproof::resolve::outcome::Status;
use citeproof::resolve::resolution::{Resolution, SourceTry, TryOutcome};
use citeproof::resolve::run::{ProjectResolution, ResolvedReference};
use citeproof::rules::resolution::diagnostics;
use citeproof::source::FileKind;

const BIB: &str = "@article{smith2020,\n  title = {Deep learning for things},\n  author = {Smith, John},\n  year = {2020},\n  journal = {Journal of Things}\n}\n";

/// Field positions of the one entry in [`BIB`].
fn field_spans() -> Vec<FieldSpan> {
    ["title", "author", "year", "journal"]
        .iter()
        .map(|name| {
            let start = BIB.find(&format!("{name} = ")).unwrap();
            let open = start + name.len() + 4;
            let close = open + BIB[open..].find('}').unwrap();
            FieldSpan {
                name: name.to_string(),
                value: Span::new(open, close),
                whole: Span::new(start, close + 1),
            }
        })
        .collect()
}

fn project() -> Project {
    let mut project = Project::default();
    let md = project.sources.add(
        "paper.md".into(),
        FileKind::Markdown,
        "As shown [@smith2020].\n",
    );
    let bib = project
        .sources
        .add("refs.bib".into(), FileKind::Bibtex, BIB);
    let reference = Reference {
        key: "smith2020".into(),
        origin: ReferenceOrigin::BibEntry,
        entry_type: Some("article".into()),
        file: bib,
        span: Span::new(0, BIB.len()),
        key_span: Some(Span::new(9, 18)),
        raw: BIB.into(),
        fields: RefFields {
            title: Some("Deep learning for things".into()),
            authors: vec![Person::new(Some("John"), "Smith")],
            year: Some(2020),
            venue: Some("Journal of Things".into()),
            ..RefFields::default()
        },
        field_spans: field_spans(),
    };
    let citation = Citation {
        key: "smith2020".into(),
        kind: CitationKind::Key,
        file: md,
        span: Span::new(12, 21),
        group_span: Span::new(10, 22),
        command: None,
        id: None,
        narrative: false,
        claim: None,
        reference: Some(0),
    };
    project.documents.push(Document {
        root: md,
        files: vec![md, bib],
        citations: vec![citation],
        references: vec![reference],
        ..Document::default()
    });
    project
}

fn record() -> Work {
    Work {
        source: "crossref".into(),
        title: "Deep learning for things".into(),
        authors: vec![Person::new(Some("John"), "Smith")],
        year: Some(2018),
        venue: Some("Journal of Things".into()),
        doi: Some("10.1234/things.2018".into()),
        ..Work::default()
    }
}

fn resolution(status: Status) -> Resolution {
    let mut r = Resolution::unresolvable();
    r.status = status;
    r.notes.clear();
    r.sources_tried = vec![SourceTry {
        source: "crossref".into(),
        outcome: TryOutcome::Found,
    }];
    r
}

fn run(resolution: Resolution) -> (Project, Vec<Diagnostic>) {
    let project = project();
    let resolved = ProjectResolution {
        entries: vec![ResolvedReference {
            document: 0,
            reference: 0,
            resolution,
        }],
        stats: Vec::new(),
    };
    let found = diagnostics(&project.sources, &project.documents, &resolved);
    (project, found)
}

fn codes(found: &[Diagnostic]) -> Vec<&str> {
    found.iter().map(|d| d.rule.code).collect()
}

fn apply(text: &str, d: &Diagnostic) -> String {
    let edit = &d.fix.as_ref().expect("a fix").edits[0];
    format!(
        "{}{}{}",
        &text[..edit.span.start],
        edit.replacement,
        &text[edit.span.end..]
    )
}

#[test]
fn a_wrong_year_is_reported_at_the_field_with_an_unsafe_fix_and_a_doi_hint() {
    let mut r = resolution(Status::Miscited);
    r.work = Some(record().into());
    r.fields_wrong = vec![Field::Year];
    r.mismatches = vec![Mismatch {
        field: Field::Year,
        kind: MismatchKind::WrongYear,
        cited: "2020".into(),
        record: "2018".into(),
        detail: "cited 2020, record 2018".into(),
    }];
    let (project, found) = run(r);
    assert_eq!(codes(&found), ["CP209", "CP212"]);
    let year = &found[0];
    assert_eq!(
        year.message,
        "`smith2020`: the year is 2020 but the record says 2018"
    );
    assert_eq!(
        project.sources.get(year.file).slice(year.span),
        "year = {2020}"
    );
    assert_eq!(year.record.as_ref().unwrap().year, Some(2018));
    assert_eq!(year.related.len(), 1, "the citing place");
    assert_eq!(
        year.fix.as_ref().unwrap().applicability,
        Applicability::Unsafe
    );
    assert!(apply(BIB, year).contains("year = {2018}"));
    let doi = &found[1];
    assert_eq!(
        doi.fix.as_ref().unwrap().applicability,
        Applicability::Unsafe
    );
    assert!(
        apply(BIB, doi)
            .contains("journal = {Journal of Things},\n  doi = {10.1234/things.2018}\n}")
    );
}

#[test]
fn a_verified_entry_without_a_doi_gets_a_safe_fix() {
    let mut r = resolution(Status::Verified);
    r.work = Some(record().into());
    let (_, found) = run(r);
    assert_eq!(codes(&found), ["CP212"]);
    assert_eq!(
        found[0].fix.as_ref().unwrap().applicability,
        Applicability::Safe
    );
}

#[test]
fn not_found_names_the_dead_identifier_and_the_work_it_names() {
    let mut r = resolution(Status::NotFound);
    r.sources_tried = ["crossref", "doi", "openalex", "s2"]
        .iter()
        .map(|s| SourceTry {
            source: s.to_string(),
            outcome: TryOutcome::NotFound,
        })
        .collect();
    r.unresolved = vec![(Field::Doi, "10.1234/nothing".into())];
    let (_, found) = run(r);
    assert_eq!(codes(&found), ["CP201"]);
    let message = &found[0].message;
    assert!(message.contains("crossref, doi, openalex, s2"), "{message}");
    assert!(
        message.contains("DOI 10.1234/nothing does not resolve"),
        "{message}"
    );
    assert!(found[0].fix.is_none() && found[0].record.is_none());
}

#[test]
fn a_conflation_names_both_works_and_fixes_the_identifier() {
    let mut r = resolution(Status::Miscited);
    r.work = Some(record().into());
    r.identifier_work = Some(Work {
        title: "Another paper entirely".into(),
        authors: vec![Person::new(Some("Ann"), "Other")],
        year: Some(2011),
        ..Work::default()
    });
    r.fields_wrong = vec![Field::Doi];
    r.mismatches = vec![Mismatch {
        field: Field::Doi,
        kind: MismatchKind::IdentifierNamesAnotherWork,
        cited: "10.1234/other".into(),
        record: "10.1234/things.2018".into(),
        detail: String::new(),
    }];
    let (_, found) = run(r);
    assert_eq!(codes(&found), ["CP205", "CP212"]);
    let message = &found[0].message;
    assert!(
        message.contains(
            "DOI 10.1234/other names another work, \"Another paper entirely\" (Other, 2011)"
        ),
        "{message}"
    );
    assert!(
        message.contains("the cited work's is DOI 10.1234/things.2018"),
        "{message}"
    );
}

#[test]
fn retraction_concern_and_unverified() {
    let mut r = resolution(Status::Retracted);
    r.work = Some(
        Work {
            is_retracted: true,
            doi: None,
            ..record()
        }
        .into(),
    );
    r.expression_of_concern = true;
    let (_, found) = run(r);
    assert_eq!(codes(&found), ["CP202", "CP203"]);
    assert!(found[0].message.contains("cites a retracted work"));
    let mut unverified = resolution(Status::Unverified);
    unverified.sources_tried[0].outcome = TryOutcome::Failed;
    unverified.failures = vec!["crossref: timed out after 30s".into()];
    let (_, found) = run(unverified);
    assert_eq!(codes(&found), ["CP211"]);
    assert!(
        found[0].message.contains("crossref: timed out after 30s"),
        "{}",
        found[0].message
    );
    let mut offline = resolution(Status::Unverified);
    offline.sources_tried[0].outcome = TryOutcome::Offline;
    let (_, found) = run(offline);
    assert!(found[0].message.contains("offline"), "{}", found[0].message);
    // A reference with nothing to look up yields no resolution finding.
    let (_, found) = run(Resolution::unresolvable());
    assert!(found.is_empty());
}
