//! Measure the PDF reader (`citeproof::read::pdf::read`) on PDFs whose bibliography is
//! known: the corpus that `scripts/pdf-bench.sh OUT` typesets (or any folder with
//! `NAME.pdf`, `NAME.bib` and a `manifest.tsv`). Gold: the titles of the `.bib` entries
//! the document cites (all of them, in that corpus).
//!
//! ```text
//! scripts/pdf-bench.sh /tmp/pdf-bench
//! cargo run --release --example pdf_bench -- /tmp/pdf-bench            # the table
//! cargo run --release --example pdf_bench -- /tmp/pdf-bench --misses   # and what went wrong
//! cargo run --release --example pdf_bench -- --speed FILE.pdf [RUNS]   # pages/s, peak memory
//! cargo run --release --example pdf_bench -- --dump FILE.pdf            # the lines as placed
//! ```
//!
//! Per document: `found` — gold entries whose title is in the text layer that exactly
//! one extracted reference holds (with the first author's family name) (a reference holding two titles is two merged entries
//! and counts for neither); `title≥.9` — of those, the share whose parsed title is within
//! 0.9 title similarity of the gold title; `spurious` — extracted references that hold no
//! gold title, per 100 extracted; `linked` — citation links in the body whose
//! `cite.<key>` is the key of an extracted reference (hyperref PDFs), else numeric
//! markers `[n]` in the body whose number is an extracted label.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use citeproof::model::FileId;
use citeproof::parse::{ParseOptions, bibtex, refstring};
use citeproof::read::pdf::{self, PdfLayout};
use citeproof::resolve::gate::title_similarity;

fn squeeze(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[derive(Default, Clone)]
struct Tally {
    docs: usize,
    gold: usize,
    in_layer: usize,
    found_once: usize,
    title_ok: usize,
    extracted: usize,
    spurious: usize,
    markers: usize,
    markers_linked: usize,
    pages: u32,
    seconds: f64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.docs += o.docs;
        self.gold += o.gold;
        self.in_layer += o.in_layer;
        self.found_once += o.found_once;
        self.title_ok += o.title_ok;
        self.extracted += o.extracted;
        self.spurious += o.spurious;
        self.markers += o.markers;
        self.markers_linked += o.markers_linked;
        self.pages += o.pages;
        self.seconds += o.seconds;
    }

    fn row(&self, name: &str) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "—".to_string()
            } else {
                format!("{:.1}", 100.0 * a as f64 / b as f64)
            }
        };
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.docs,
            self.gold,
            self.in_layer,
            pct(self.found_once, self.in_layer),
            pct(self.title_ok, self.found_once),
            pct(self.spurious, self.extracted),
            pct(self.markers_linked, self.markers),
            if self.seconds > 0.0 {
                format!("{:.0}", self.pages as f64 / self.seconds)
            } else {
                "—".into()
            },
        )
    }
}

/// The title of each entry and the squeezed last word of its first author's family
/// name (`Deep Learning` is the title of two works here; the name tells them apart).
fn gold_entries(bib: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(bib).unwrap_or_else(|e| panic!("{}: {e}", bib.display()));
    bibtex::parse(FileId(0), &text, &ParseOptions::default())
        .references
        .into_iter()
        .filter_map(|r| {
            let family = r
                .fields
                .authors
                .first()
                .map(|p| p.family.clone())
                .unwrap_or_default();
            let last = family
                .split_whitespace()
                .next_back()
                .unwrap_or("")
                .to_string();
            Some((r.fields.title?, squeeze(&last)))
        })
        .collect()
}

fn measure(pdf_path: &Path, bib: &Path, misses: bool) -> Tally {
    let bytes = std::fs::read(pdf_path).expect("read PDF");
    let start = Instant::now();
    let layout = match pdf::read(&bytes) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{}: {e}", pdf_path.display());
            return Tally {
                docs: 1,
                ..Tally::default()
            };
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let layer = squeeze(&pdf_extract::extract_text_from_mem(&bytes).unwrap_or_default());
    let refs: Vec<String> = layout.references.iter().map(|r| squeeze(&r.text)).collect();
    let gold = gold_entries(bib);
    let titles: Vec<String> = gold.iter().map(|(t, _)| t.clone()).collect();
    let mut t = Tally {
        docs: 1,
        gold: titles.len(),
        extracted: refs.len(),
        pages: layout.pages,
        seconds,
        ..Tally::default()
    };
    let mut holds_gold = vec![0usize; refs.len()];
    let gold_keys: Vec<String> = titles.iter().map(|g| squeeze(g)).collect();
    let holds =
        |r: &str, g: usize| r.contains(gold_keys[g].as_str()) && r.contains(gold[g].1.as_str());
    for (k, r) in refs.iter().enumerate() {
        holds_gold[k] = (0..gold.len()).filter(|&g| holds(r, g)).count();
    }
    for (g, (title, key)) in titles.iter().zip(&gold_keys).enumerate() {
        if !layer.contains(key.as_str()) {
            if misses {
                println!("  not in the text layer: {title}");
            }
            continue;
        }
        t.in_layer += 1;
        let holders: Vec<usize> = (0..refs.len()).filter(|&k| holds(&refs[k], g)).collect();
        if holders.len() == 1 && holds_gold[holders[0]] == 1 {
            t.found_once += 1;
            let parsed = refstring::parse(&layout.references[holders[0]].text)
                .title
                .unwrap_or_default();
            let sim = title_similarity(&parsed, title);
            if sim >= 0.9 {
                t.title_ok += 1;
            } else if misses {
                println!("  title {sim:.2}: {parsed:?} for {title:?}");
            }
        } else if misses {
            println!(
                "  found {} times{}: {title}",
                holders.len(),
                if holders.len() == 1 { " (merged)" } else { "" }
            );
            for &h in &holders {
                let text: String = layout.references[h].text.chars().take(160).collect();
                println!(
                    "      p{} l{}: {text}…",
                    layout.references[h].first.0, layout.references[h].first.1
                );
            }
        }
    }
    t.spurious = holds_gold.iter().filter(|&&n| n == 0).count();
    if misses {
        for (k, r) in layout.references.iter().enumerate() {
            if holds_gold[k] == 0 {
                println!("  spurious p{} l{}: {}", r.first.0, r.first.1, r.text);
            }
        }
    }
    let (markers, linked) = markers_linked(&layout);
    t.markers = markers;
    t.markers_linked = linked;
    t
}

/// Citation links into the list (or numeric markers) and how many reach an entry.
fn markers_linked(layout: &PdfLayout) -> (usize, usize) {
    let keys: Vec<&str> = layout
        .references
        .iter()
        .filter_map(|r| r.key.as_deref())
        .collect();
    let cite_links: Vec<&str> = layout
        .links
        .iter()
        .filter_map(|l| l.dest_key.as_deref())
        .collect();
    if !cite_links.is_empty() {
        let linked = cite_links.iter().filter(|k| keys.contains(k)).count();
        return (cite_links.len(), linked);
    }
    let labels: Vec<&str> = layout
        .references
        .iter()
        .filter_map(|r| r.label.as_deref())
        .collect();
    let marker = regex::Regex::new(r"\[(\d{1,3}(?:\s*[,–-]\s*\d{1,3})*)\]").expect("marker regex");
    let (mut all, mut linked) = (0, 0);
    for line in &layout.body {
        for c in marker.captures_iter(&line.text) {
            for n in c[1].split([',', '–', '-']).map(str::trim) {
                all += 1;
                linked += usize::from(labels.contains(&n));
            }
        }
    }
    (all, linked)
}

fn speed(path: &Path, runs: usize) {
    let bytes = std::fs::read(path).expect("read PDF");
    let start = Instant::now();
    let mut pages = 0;
    let mut refs = 0;
    for _ in 0..runs {
        let layout = pdf::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        pages += layout.pages;
        refs = layout.references.len();
    }
    let secs = start.elapsed().as_secs_f64();
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    println!(
        "{}: {} bytes, {} pages, {refs} references; {:.1} pages/s ({:.3} s per read, {runs} runs); peak resident memory {peak}",
        path.display(),
        bytes.len(),
        pages / runs as u32,
        pages as f64 / secs,
        secs / runs as f64,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--dump") {
        let path = PathBuf::from(args.get(1).expect("--dump FILE.pdf"));
        match pdf::dump(&std::fs::read(&path).expect("read PDF")) {
            Ok(lines) => print!("{lines}"),
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
        return;
    }
    if args.first().map(String::as_str) == Some("--speed") {
        let path = PathBuf::from(args.get(1).expect("--speed FILE.pdf [RUNS]"));
        let runs = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
        speed(&path, runs);
        return;
    }
    let dir = PathBuf::from(args.first().expect("usage: pdf_bench DIR [--misses]"));
    let misses = args.iter().any(|a| a == "--misses");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("DIR/manifest.tsv");
    let mut by_style: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    println!(
        "| document | docs | gold | in text layer | found once % | title ≥ 0.9 % | spurious per 100 | markers linked % | pages/s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let name = cols[0];
        let style = cols.get(1).copied().unwrap_or(name);
        if misses {
            println!("{name}:");
        }
        let t = measure(
            &dir.join(format!("{name}.pdf")),
            &dir.join(format!("{name}.bib")),
            misses,
        );
        println!("{}", t.row(name));
        by_style.entry(style.to_string()).or_default().add(&t);
        total.add(&t);
    }
    println!();
    println!(
        "| style | docs | gold | in text layer | found once % | title ≥ 0.9 % | spurious per 100 | markers linked % | pages/s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (style, t) in &by_style {
        println!("{}", t.row(style));
    }
    println!("{}", total.row("**all**"));
}
