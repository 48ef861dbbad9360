//! A project with findings of every kind, built in memory (documents, citations,
//! references, claims and suppressions written out by hand) and run through the real
//! linking, link rules, verification rules and suppression code. The renderers'
//! snapshot tests and the HTML browser test share it.

#![allow(dead_code)]

use citeproof::check;
use citeproof::diagnostic::Diagnostic;
use citeproof::document::Document;
use citeproof::load::Project;
use citeproof::model::{
    Citation, CitationKind, Claim, FieldSpan, FileId, Person, RefFields, Reference,
    ReferenceOrigin, Span, Suppression, SuppressionKind, Work,
};
use citeproof::pipeline;
use citeproof::report::{CitationFacts, Facts};
use citeproof::resolve::mismatch::{Field, Mismatch, MismatchKind};
use citeproof::resolve::outcome::Status;
use citeproof::resolve::resolution::{Resolution, SourceTry, TryOutcome};
use citeproof::resolve::run::{ProjectResolution, ResolvedReference};
use citeproof::rules::{Family, RULES, input, verification};
use citeproof::source::{FileKind, SourceMap};
use citeproof::verify::Relation;
use citeproof::verify::verdict::{Label, PassageRef, Stage, TextFormat, Verdict};

pub const PAPER: &str = include_str!("../../fixtures/ci/formats/paper.md");

pub const BIB: &str = include_str!("../../fixtures/ci/formats/refs.bib");

pub const CHAPTER: &str = include_str!("../../fixtures/ci/formats/chapter.tex");

pub const ANSWER: &str = include_str!("../../fixtures/ci/formats/answer.txt");

/// Byte span of the `n`-th occurrence of `needle` in `text`.
pub fn find(text: &str, needle: &str, n: usize) -> Span {
    let start = text
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` #{n} not in fixture"))
        .0;
    Span::new(start, start + needle.len())
}

fn person(given: &str, family: &str) -> Person {
    Person::new(Some(given), family)
}

/// One BibTeX entry of [`BIB`] with its fields and field spans.
fn entry(file: FileId, key: &str, n: usize, fields: RefFields) -> Reference {
    let head = find(BIB, &format!("{{{key},"), n);
    let end = BIB[head.start..]
        .find("\n}\n")
        .map(|i| head.start + i + 2)
        .unwrap_or(BIB.len());
    let start = BIB[..head.start].rfind('@').unwrap();
    let raw = &BIB[start..end];
    let mut field_spans = Vec::new();
    for name in ["title", "author", "year", "url", "doi"] {
        if let Some(i) = raw.find(&format!("  {name} = {{")) {
            let whole_start = start + i + 2;
            let value_start = whole_start + name.len() + 4;
            let value_end = value_start + BIB[value_start..].find("}").unwrap();
            field_spans.push(FieldSpan {
                name: name.to_string(),
                value: Span::new(value_start, value_end),
                whole: Span::new(whole_start, value_end + 1),
            });
        }
    }
    Reference {
        key: key.to_string(),
        origin: ReferenceOrigin::BibEntry,
        entry_type: Some(BIB[start + 1..head.start].to_string()),
        file,
        span: Span::new(start, end),
        key_span: Some(Span::new(head.start + 1, head.end - 1)),
        raw: raw.to_string(),
        fields,
        field_spans,
    }
}

fn fields(
    title: &str,
    authors: &[(&str, &str)],
    year: Option<i32>,
    doi: Option<&str>,
) -> RefFields {
    RefFields {
        title: Some(title.to_string()),
        authors: authors.iter().map(|(g, f)| person(g, f)).collect(),
        year,
        doi: doi.map(str::to_string),
        ..RefFields::default()
    }
}

/// A pandoc citation `[@key]` of [`PAPER`] in its sentence (the `n`-th occurrence).
fn pandoc(doc: &mut Document, file: FileId, key: &str, n: usize) {
    let group = find(PAPER, &format!("[@{key}]"), n);
    let line_start = PAPER[..group.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = group.end + PAPER[group.end..].find('\n').unwrap_or(0);
    let sentence = &PAPER[line_start..line_end];
    let text = sentence.replace(&format!(" [@{key}]"), "");
    doc.claims.push(Claim {
        file,
        span: Span::new(line_start, line_end),
        text,
    });
    doc.citations.push(Citation {
        key: key.to_string(),
        kind: CitationKind::Key,
        file,
        span: Span::new(group.start + 2, group.end - 1),
        group_span: group,
        command: Some("pandoc".into()),
        id: None,
        narrative: false,
        claim: Some(doc.claims.len() - 1),
        reference: None,
    });
}

fn suppression(file: FileId, comment: &str, rules: &[&str]) -> Suppression {
    Suppression {
        file,
        span: find(PAPER, comment, 0),
        kind: SuppressionKind::Ignore,
        rules: rules.iter().map(|r| r.to_string()).collect(),
    }
}

fn work(source: &str, title: &str, authors: &[(&str, &str)], year: i32, doi: &str) -> Work {
    Work {
        source: source.into(),
        title: title.into(),
        authors: authors.iter().map(|(g, f)| person(g, f)).collect(),
        year: Some(year),
        venue: Some("Journal of Examples".into()),
        doi: Some(doi.into()),
        ..Work::default()
    }
}

fn verdict(label: Label, stage: Stage, rationale: &str, evidence: Option<&str>) -> Verdict {
    Verdict {
        label,
        stage,
        rationale: rationale.into(),
        evidence: evidence.map(str::to_string),
        passage: None,
        model: Some("judge-small".into()),
        confidence: Some(0.9),
        unverifiable: None,
        notes: Vec::new(),
    }
}

/// A resolution with `status` and `work`, as if Crossref had been asked.
fn resolution(status: Status, work: Option<Work>) -> Resolution {
    let mut r = Resolution::unresolvable();
    r.notes.clear();
    r.status = status;
    r.work = work.map(std::sync::Arc::new);
    let outcome = match status {
        Status::NotFound => TryOutcome::NotFound,
        Status::Unverified => TryOutcome::Failed,
        _ => TryOutcome::Found,
    };
    r.sources_tried.push(SourceTry {
        source: "crossref".into(),
        outcome,
    });
    r
}

fn mismatch(field: Field, kind: MismatchKind, cited: &str, record: &str, detail: &str) -> Mismatch {
    Mismatch {
        field,
        kind,
        cited: cited.into(),
        record: record.into(),
        detail: detail.into(),
    }
}

/// Miscited, with these mismatches.
fn miscited(work: Work, mismatches: Vec<Mismatch>) -> Resolution {
    let mut r = resolution(Status::Miscited, Some(work));
    r.fields_wrong = mismatches.iter().map(|m| m.field).collect();
    r.mismatches = mismatches;
    r
}

/// One resolution per reference that gives every resolution rule a finding:
/// `(document, reference)` indices as in [`fixture`].
fn resolutions(walker: &Work, smith: &Work, lee: &Work, kim: &Work) -> Vec<ResolvedReference> {
    let mut kim_concern = resolution(Status::Verified, Some(kim.clone()));
    kim_concern.expression_of_concern = true;
    let mut old = resolution(Status::Unverified, None);
    old.failures.push("crossref: timed out after 30s".into());
    let mut retracted = work(
        "crossref",
        "RETRACTED: A second entry under the same key",
        &[("Ann", "Smith")],
        2021,
        "10.1000/second",
    );
    retracted.is_retracted = true;
    let mood = Work {
        pmid: Some("222".into()),
        venue: Some("Mood Research".into()),
        ..work(
            "pubmed",
            "Exercise and mood",
            &[("J.", "Doe")],
            2019,
            "10.1000/mood",
        )
    };
    let mut mood_resolution = miscited(
        mood,
        vec![
            mismatch(Field::Year, MismatchKind::WrongYear, "2020", "2019", ""),
            mismatch(
                Field::Venue,
                MismatchKind::WrongVenue,
                "Journal of Mood",
                "Mood Research",
                "",
            ),
            mismatch(Field::Pmid, MismatchKind::WrongIdentifier, "111", "222", ""),
        ],
    );
    mood_resolution
        .unresolved
        .push((Field::Doi, "10.1000/mood.2020".into()));
    let mut nobody_resolution = miscited(
        work(
            "crossref",
            "An item nobody ever cites",
            &[("R.", "Roe")],
            2019,
            "10.1000/roe",
        ),
        vec![
            mismatch(
                Field::Title,
                MismatchKind::NearMissTitle,
                "An item nobody cites",
                "An item nobody ever cites",
                "missing from the cited title: ever",
            ),
            mismatch(
                Field::Doi,
                MismatchKind::IdentifierNamesAnotherWork,
                "10.1000/sleep.2017",
                "10.1000/roe",
                "",
            ),
        ],
    );
    nobody_resolution.identifier_work = Some(walker.clone());
    let vitd = miscited(
        smith.clone(),
        vec![mismatch(
            Field::Authors,
            MismatchKind::PartialAuthorList,
            "Smith, Ann",
            "Smith, Ann; Jones, Bo",
            "1 of 2 authors listed without \"et al.\"",
        )],
    );
    [
        (0, 0, resolution(Status::Verified, Some(walker.clone()))),
        (0, 1, resolution(Status::Verified, Some(smith.clone()))),
        (0, 2, resolution(Status::Retracted, Some(retracted))),
        (0, 3, vitd),
        (0, 4, resolution(Status::Verified, Some(lee.clone()))),
        (0, 5, kim_concern),
        (0, 6, old),
        (0, 7, resolution(Status::NotFound, None)),
        (2, 0, mood_resolution),
        (2, 1, nobody_resolution),
    ]
    .into_iter()
    .map(|(document, reference, resolution)| ResolvedReference {
        document,
        reference,
        resolution,
    })
    .collect()
}

/// The fixture: a linked project, its diagnostics (suppressions applied, sorted)
/// and what resolution and verification learned.
pub struct Fixture {
    pub project: Project,
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
}

/// Build the fixture; `prefix` is put before the paper (to test line shifts).
pub fn fixture() -> Fixture {
    let mut sources = SourceMap::new();
    let paper = sources.add("paper.md".into(), FileKind::Markdown, PAPER);
    let bib = sources.add("refs.bib".into(), FileKind::Bibtex, BIB);
    let chapter = sources.add("chapter.tex".into(), FileKind::Latex, CHAPTER);
    let answer = sources.add("answer.txt".into(), FileKind::Text, ANSWER);

    let mut doc = Document {
        root: paper,
        files: vec![paper, bib],
        ..Document::default()
    };
    for (key, n) in [
        ("walker2017", 0),
        ("smith2020", 0),
        ("missing2021", 0),
        ("ghost2020", 0),
        ("lee2019", 0),
        ("kim2021", 0),
        ("old1962", 0),
        ("walker2017", 1),
    ] {
        pandoc(&mut doc, paper, key, n);
    }
    doc.references = vec![
        {
            let mut r = entry(
                bib,
                "walker2017",
                0,
                fields("Why We Sleep", &[("Matthew", "Walker")], Some(2017), None),
            );
            r.fields.url = Some("https://doi.org/10.1000/sleep.2017".into());
            r
        },
        entry(
            bib,
            "smith2020",
            0,
            fields(
                "Vitamin D and fractures in older adults",
                &[("Ann", "Smith"), ("Bo", "Jones")],
                Some(2020),
                Some("10.1000/vitd"),
            ),
        ),
        entry(
            bib,
            "smith2020",
            1,
            fields(
                "A second entry under the same key",
                &[("Ann", "Smith")],
                Some(2021),
                None,
            ),
        ),
        entry(
            bib,
            "vitd",
            0,
            fields(
                "Vitamin D and Fractures in Older Adults",
                &[("Ann", "Smith")],
                Some(2020),
                Some("10.1000/vitd"),
            ),
        ),
        entry(
            bib,
            "lee2019",
            0,
            fields(
                "Galaxy rotation curves",
                &[("Chen", "Lee")],
                Some(2019),
                None,
            ),
        ),
        entry(
            bib,
            "kim2021",
            0,
            fields(
                "Sleep deprivation and fear memory",
                &[("Dae", "Kim")],
                Some(2021),
                None,
            ),
        ),
        entry(
            bib,
            "old1962",
            0,
            fields("An old monograph", &[], Some(1962), None),
        ),
        entry(
            bib,
            "unused2018",
            0,
            fields(
                "Never cited anywhere",
                &[("Nora", "Nobody")],
                Some(2018),
                None,
            ),
        ),
    ];
    doc.suppressions = vec![
        suppression(paper, "<!-- citeproof: ignore[CP101] -->", &["CP101"]),
        suppression(
            paper,
            "<!-- citeproof: ignore[unused-entry] -->",
            &["unused-entry"],
        ),
        suppression(paper, "<!-- citeproof: ignore[CP999] -->", &["CP999"]),
    ];
    doc.problems.push(input::malformed_entry(
        bib,
        Span::new(find(BIB, "{Unbalanced braces,", 0).start, BIB.len()),
        Some("broken"),
        "the brace opened here is never closed",
    ));

    let mut tex = Document {
        root: chapter,
        files: vec![chapter],
        ..Document::default()
    };
    tex.problems.push(input::unreadable_file(
        chapter,
        find(CHAPTER, "\\input{missing}", 0),
        "missing.tex",
        "not found (\\input at this place)",
    ));
    tex.problems.push(input::include_cycle(
        chapter,
        find(CHAPTER, "\\input{chapter}", 0),
        "chapter.tex",
    ));
    tex.problems.push(input::unterminated(
        chapter,
        find(CHAPTER, "{walker2017", 0),
        "brace group of \\cite",
    ));

    let mut llm = Document {
        root: answer,
        files: vec![answer],
        ..Document::default()
    };
    for (marker, sentence) in [
        ("1", "Exercise improves mood [1]."),
        ("3", "It also helps sleep [3]."),
    ] {
        let s = find(ANSWER, sentence, 0);
        llm.claims.push(Claim {
            file: answer,
            span: s,
            text: sentence.replace(&format!(" [{marker}]"), ""),
        });
        let m = find(ANSWER, &format!("[{marker}]"), 0);
        llm.citations.push(Citation {
            key: marker.into(),
            kind: CitationKind::Numeric,
            file: answer,
            span: Span::new(m.start + 1, m.end - 1),
            group_span: m,
            command: None,
            id: None,
            narrative: false,
            claim: Some(llm.claims.len() - 1),
            reference: None,
        });
    }
    for (number, line) in [
        (
            "1",
            "1. Doe, J. (2020). Exercise and mood. Journal of Mood, 3, 1-10.",
        ),
        (
            "2",
            "2. Roe, R. (2019). An item nobody cites. Sleep Journal, 4, 5-6.",
        ),
    ] {
        let span = find(ANSWER, line, 0);
        llm.references.push(Reference {
            key: number.into(),
            origin: ReferenceOrigin::ReferenceList,
            entry_type: None,
            file: answer,
            span,
            key_span: Some(Span::new(span.start, span.start + 1)),
            raw: line.into(),
            fields: RefFields::default(),
            field_spans: Vec::new(),
        });
    }

    let mut project = Project {
        sources,
        documents: vec![doc, tex, llm],
        problems: Vec::new(),
        ..Project::default()
    };
    check::link_all(&mut project);
    let mut found = check::local_findings(&project);

    // What resolution and verification learned, and the findings they give.
    let mut facts = Facts::new();
    let doc = &project.documents[0];
    let by_key = |key: &str| doc.citations.iter().find(|c| c.key == key).unwrap();
    let reference_of = |key: &str| &doc.references[by_key(key).reference.unwrap()];
    let claim_of = |key: &str| &doc.claims[by_key(key).claim.unwrap()];
    let walker = work(
        "crossref",
        "Why We Sleep",
        &[("Matthew", "Walker")],
        2017,
        "10.1000/sleep.2017",
    );
    let smith = work(
        "openalex",
        "Vitamin D and fractures in older adults",
        &[("Ann", "Smith"), ("Bo", "Jones")],
        2020,
        "10.1000/vitd",
    );
    let lee = work(
        "s2",
        "Galaxy rotation curves",
        &[("Chen", "Lee")],
        2019,
        "10.1000/galaxy",
    );
    let mut kim = work(
        "crossref",
        "Sleep deprivation and fear memory",
        &[("Dae", "Kim")],
        2021,
        "10.1000/fear",
    );
    kim.oa_url = Some("https://example.org/kim2021.pdf".into());
    // What resolution concluded, through the real resolution rules and facts.
    let resolved = ProjectResolution {
        entries: resolutions(&walker, &smith, &lee, &kim),
        stats: Vec::new(),
    };
    found.extend(citeproof::rules::resolution::diagnostics(
        &project.sources,
        &project.documents,
        &resolved,
    ));
    pipeline::record_resolutions(&project, &resolved, &mut facts);
    let supports = verdict(
        Label::Supports,
        Stage::Abstract,
        "the abstract states it",
        Some("sleep loss impairs consolidation"),
    );
    let contradicts = verdict(
        Label::Contradicts,
        Stage::Abstract,
        "the trial found no effect on fractures",
        Some("supplementation did not reduce the incidence of fractures"),
    );
    let mut full_text = verdict(
        Label::Supports,
        Stage::FullText,
        "the results section reports it",
        Some("a 40% reduction in freezing"),
    );
    full_text.passage = Some(PassageRef {
        source: "https://example.org/kim2021.pdf".into(),
        origin: "oa_url".into(),
        format: TextFormat::Pdf,
        section: Some("Results".into()),
        offset: 1234,
        text: "Mice deprived of five hours of sleep showed a 40% reduction in freezing.".into(),
    });
    let unverifiable = Verdict::unverifiable(
        Stage::Abstract,
        citeproof::verify::verdict::Unverifiable::NoEvidence,
        "",
    );
    for (key, verdict, work) in [
        ("walker2017", &supports, Some(&walker)),
        ("smith2020", &contradicts, Some(&smith)),
        ("kim2021", &full_text, Some(&kim)),
        ("old1962", &unverifiable, None),
    ] {
        let citation = by_key(key);
        facts.set_citation(
            citation,
            CitationFacts {
                verdict: Some(verdict.clone()),
                relation: None,
            },
        );
        found.extend(verification::from_verdict(
            citation,
            claim_of(key),
            work,
            verdict,
        ));
    }
    let lee_citation = by_key("lee2019");
    facts.set_citation(
        lee_citation,
        CitationFacts {
            verdict: None,
            relation: Some(Relation::Unrelated),
        },
    );
    found.extend(verification::from_relation(
        lee_citation,
        claim_of("lee2019"),
        Some(&lee),
        Relation::Unrelated,
        Some("rotation curves of spiral galaxies"),
        &[],
        None,
    ));
    // The second citation of walker2017 makes a claim its full text does not state.
    let second = &doc.citations[7];
    let unsupported = verdict(
        Label::NotEnoughInfo,
        Stage::FullText,
        "the passages discuss adolescents only",
        None,
    );
    facts.set_citation(
        second,
        CitationFacts {
            verdict: Some(unsupported.clone()),
            relation: None,
        },
    );
    found.extend(verification::from_verdict(
        second,
        &doc.claims[second.claim.unwrap()],
        Some(&walker),
        &unsupported,
    ));
    // Rules this fixture has no real producer for yet (a family added later) still
    // appear once, with their summary as the message, so every rule is rendered.
    let produced: Vec<&str> = found.iter().map(|d| d.rule.code).collect();
    for rule in RULES.iter().filter(|r| !produced.contains(&r.code)) {
        // Suppression comments produce their own; an invalid accepted-works record
        // and an ignored suppression (a chair's run) have no comment here to come from.
        if matches!(rule.family, Family::Meta) && !["CP903", "CP904"].contains(&rule.code) {
            continue;
        }
        let reference = reference_of("smith2020");
        found.push(
            Diagnostic::new(
                rule,
                reference.file,
                reference.key_span.unwrap(),
                rule.summary,
            )
            .with_key(&reference.key)
            .with_record(smith.clone()),
        );
    }
    let diagnostics = check::finish(&project, found);
    Fixture {
        project,
        diagnostics,
        facts,
    }
}

/// Rules that appear in the fixture's diagnostics.
pub fn rules_covered(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.rule.code).collect();
    codes.sort();
    codes.dedup();
    codes
}

/// Every rule code of the table.
pub fn all_rules() -> Vec<&'static str> {
    RULES.iter().map(|r| r.code).collect()
}
