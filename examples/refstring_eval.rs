//! Measure the reference-string parser (`citeproof::parse::refstring::parse`) on the
//! annotated datasets in `../shared`: normalised-title exact match, author family-name
//! F1 (micro), year accuracy and DOI exact match, per file, plus throughput.
//!
//! ```text
//! cargo run --release --example refstring_eval                 # every file
//! cargo run --release --example refstring_eval -- --file PATH  # one anystyle/GROBID file
//! cargo run --release --example refstring_eval -- --misses N   # also print N misses per file
//! cargo run --release --example refstring_eval -- --tuning-only  # leave the held-out file out
//! ```
//!
//! Tuning files: anystyle core.xml, the GROBID files, bench/refs_dev.jsonl and the
//! Crossref artificial APA/IEEE pairs. anystyle gold.xml is held out: report only.
//! Gold definitions are documented in `examples/support/refstring_gold.rs`.

#[path = "support/refstring_gold.rs"]
mod refstring_gold;
#[path = "support/refstring_scores.rs"]
mod refstring_scores;

use std::path::{Path, PathBuf};
use std::time::Instant;

use citeproof::parse::refstring::parse;
use refstring_gold::Case;
use refstring_scores::Scores;

fn load(path: &Path) -> Option<Vec<Case>> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".tei.xml") || name == "citations.xml" {
        refstring_gold::grobid(path)
    } else {
        refstring_gold::anystyle(path)
    }
}

fn datasets(shared: &Path, only: Option<&Path>, tuning_only: bool) -> Vec<(String, Vec<Case>)> {
    if let Some(p) = only {
        return load(p)
            .map(|c| vec![(p.display().to_string(), c)])
            .unwrap_or_default();
    }
    let rs = shared.join("data/reference_strings");
    let mut out = Vec::new();
    for f in [
        "anystyle/core.xml",
        "grobid/citations.xml",
        "grobid/evaluation-citation-arXive.org.tei.xml",
        "grobid/evaluation-citation-inspire-hep-journals.tei.xml",
        "grobid/bioRxiv-ids.training.references.tei.xml",
        "grobid/raw_ref_corrected.training.references.tei.xml",
    ] {
        if let Some(c) = load(&rs.join(f)) {
            out.push((f.to_string(), c));
        }
    }
    if let Some(c) = refstring_gold::refs_dev(
        &shared.join("bench/refs_dev.jsonl"),
        &shared.join("data/world/works.jsonl"),
    ) {
        out.push(("bench/refs_dev.jsonl".into(), c));
    }
    let rm = shared.join("data/reference_matching");
    if let Some((apa, ieee)) = refstring_gold::crossref_pairs(
        &rm.join("crossref_artificial_apa_2500.json"),
        &rm.join("crossref_artificial_ieee_2500.json"),
    ) {
        out.push(("crossref_artificial_apa_2500".into(), apa));
        out.push(("crossref_artificial_ieee_2500".into(), ieee));
    }
    if tuning_only {
        return out;
    }
    if let Some(c) = load(&rs.join("anystyle/gold.xml")) {
        out.push(("anystyle/gold.xml (HELD OUT)".into(), c));
    }
    out
}

fn fmt(x: f64, n: usize) -> String {
    if n == 0 {
        "    –".into()
    } else {
        format!("{x:.3}")
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let only = arg("--file").map(PathBuf::from);
    let misses: usize = arg("--misses").and_then(|n| n.parse().ok()).unwrap_or(0);
    let shared = refstring_gold::shared_dir();
    if only.is_none() && !shared.is_dir() {
        eprintln!("skipping: {} absent", shared.display());
        return;
    }
    let sets = datasets(
        &shared,
        only.as_deref(),
        args.iter().any(|a| a == "--tuning-only"),
    );
    if sets.is_empty() {
        eprintln!("skipping: no dataset could be read");
        return;
    }
    println!(
        "{:<58} {:>5} {:>6} {:>6} {:>6} {:>6}   (n title/authors/year/doi)",
        "file", "refs", "title", "famF1", "year", "doi"
    );
    let mut all_refs = Vec::new();
    for (name, cases) in &sets {
        let mut s = Scores::default();
        let mut shown = 0;
        for c in cases {
            let got = parse(&c.raw);
            let miss = s.add(c, &got);
            if shown < misses && miss.iter().any(|m| *m) && !name.contains("HELD OUT") {
                shown += 1;
                println!("MISS {miss:?}\n  raw:   {}", c.raw);
                println!(
                    "  gold:  title={:?} fam={:?} year={:?} doi={:?}",
                    c.title, c.families, c.year, c.doi
                );
                let fam: Vec<&str> = got.authors.iter().map(|p| p.family.as_str()).collect();
                println!(
                    "  got:   title={:?} fam={:?} year={:?} doi={:?} venue={:?}",
                    got.title, fam, got.year, got.doi, got.venue
                );
            }
        }
        println!(
            "{:<58} {:>5} {:>6} {:>6} {:>6} {:>6}   ({}/{}/{}/{})",
            name,
            s.refs,
            fmt(s.title(), s.title_n),
            fmt(s.family_f1(), s.fam_tp + s.fam_fn + s.fam_fp),
            fmt(s.year(), s.year_n),
            fmt(s.doi(), s.doi_n),
            s.title_n,
            s.fam_tp + s.fam_fn,
            s.year_n,
            s.doi_n
        );
        all_refs.extend(cases.iter().map(|c| c.raw.clone()));
    }
    // Throughput over every string read, repeated until at least two seconds have
    // passed. CPU time is reported beside wall time: on a shared machine the wall
    // clock also counts the time other processes held the core.
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut parsed = 0usize;
    while start.elapsed().as_secs_f64() < 2.0 {
        for r in &all_refs {
            std::hint::black_box(parse(std::hint::black_box(r)));
        }
        parsed += all_refs.len();
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(b, a)| b - a);
    println!(
        "throughput: {:.0} references/s wall ({} parses in {:.2} s, single thread){}",
        parsed as f64 / secs,
        parsed,
        secs,
        cpu.filter(|c| *c > 0.0)
            .map(|c| format!(
                "; {:.0} references/s of CPU time ({c:.2} s)",
                parsed as f64 / c
            ))
            .unwrap_or_default()
    );
}

/// User + system CPU time of this process from `/proc/self/stat` (Linux), in seconds.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
