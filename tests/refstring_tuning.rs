//! Regression floors for the reference-string parser on the tuning data in `../shared`
//! (anystyle core.xml, the GROBID files, bench/refs_dev.jsonl, the Crossref artificial
//! APA/IEEE pairs). Each floor sits a little under the figure measured with
//! `cargo run --release --example refstring_eval -- --tuning-only`, so a change that
//! loses accuracy fails here. The held-out anystyle gold.xml is never read.

#[path = "../examples/support/refstring_gold.rs"]
mod refstring_gold;
#[path = "../examples/support/refstring_scores.rs"]
mod refstring_scores;

use citeproof::parse::refstring::parse;
use refstring_gold::Case;
use refstring_scores::Scores;

/// (name, title, family F1, year, DOI) floors; `None` where the file has too few cases.
type Floors = (&'static str, f64, f64, f64, Option<f64>);

fn score(cases: &[Case]) -> Scores {
    let mut s = Scores::default();
    for c in cases {
        s.add(c, &parse(&c.raw));
    }
    s
}

fn check(name: &str, cases: Option<Vec<Case>>, floors: Floors, failures: &mut Vec<String>) {
    let Some(cases) = cases else {
        failures.push(format!("{name}: could not be read"));
        return;
    };
    let s = score(&cases);
    let (_, title, fam, year, doi) = floors;
    let mut below = |what: &str, got: f64, floor: f64| {
        if got.is_nan() || got < floor {
            failures.push(format!("{name}: {what} {got:.3} < floor {floor:.3}"));
        }
    };
    below("title", s.title(), title);
    below("family F1", s.family_f1(), fam);
    below("year", s.year(), year);
    if let Some(d) = doi {
        below("DOI", s.doi(), d);
    }
    eprintln!(
        "{name}: title {:.3} famF1 {:.3} year {:.3} doi {:.3}",
        s.title(),
        s.family_f1(),
        s.year(),
        s.doi()
    );
}

#[test]
fn tuning_figures_stay_above_their_floors() {
    let shared = refstring_gold::shared_dir();
    if !shared.is_dir() {
        eprintln!("skipping: reference-string tuning data (../shared absent)");
        return;
    }
    let rs = shared.join("data/reference_strings");
    let mut failures = Vec::new();
    let files: &[Floors] = &[
        ("anystyle/core.xml", 0.89, 0.95, 0.98, Some(0.95)),
        ("grobid/citations.xml", 0.88, 0.97, 0.98, None),
        (
            "grobid/evaluation-citation-arXive.org.tei.xml",
            0.79,
            0.89,
            0.97,
            Some(0.9),
        ),
        (
            "grobid/evaluation-citation-inspire-hep-journals.tei.xml",
            0.63,
            0.90,
            0.98,
            None,
        ),
        (
            "grobid/bioRxiv-ids.training.references.tei.xml",
            0.88,
            0.92,
            0.96,
            Some(0.98),
        ),
        (
            "grobid/raw_ref_corrected.training.references.tei.xml",
            0.67,
            0.87,
            0.95,
            None,
        ),
    ];
    for floors in files {
        let path = rs.join(floors.0);
        let cases = if floors.0.starts_with("anystyle") {
            refstring_gold::anystyle(&path)
        } else {
            refstring_gold::grobid(&path)
        };
        check(floors.0, cases, *floors, &mut failures);
    }
    let dev = refstring_gold::refs_dev(
        &shared.join("bench/refs_dev.jsonl"),
        &shared.join("data/world/works.jsonl"),
    );
    check(
        "refs_dev",
        dev,
        ("refs_dev", 0.95, 0.95, 0.99, Some(0.99)),
        &mut failures,
    );
    let rm = shared.join("data/reference_matching");
    match refstring_gold::crossref_pairs(
        &rm.join("crossref_artificial_apa_2500.json"),
        &rm.join("crossref_artificial_ieee_2500.json"),
    ) {
        Some((apa, ieee)) => {
            check(
                "crossref apa",
                Some(apa),
                ("apa", 0.86, 0.98, 0.99, None),
                &mut failures,
            );
            check(
                "crossref ieee",
                Some(ieee),
                ("ieee", 0.95, 0.97, 0.99, None),
                &mut failures,
            );
        }
        None => failures.push("crossref artificial pairs: could not be read".into()),
    }
    assert!(failures.is_empty(), "below floor:\n{}", failures.join("\n"));
}
