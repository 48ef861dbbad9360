//! Measure the PDF reader (`citeproof::read::pdf::read`) and the Word reader
//! (`citeproof::read::docx::convert_docx`) on documents whose bibliography is known: the
//! corpus that `scripts/pdf-bench.sh OUT` typesets (or any folder with `NAME.pdf` or
//! `NAME.docx`, `NAME.bib` and a `manifest.tsv` whose rows are name, style, columns,
//! hyperref and format, `pdf` or `docx`). Gold: the titles of the `.bib` entries the
//! document cites (all of them, in that corpus).
//!
//! ```text
//! scripts/pdf-bench.sh /tmp/pdf-bench
//! cargo run --release --example pdf_bench -- /tmp/pdf-bench            # the tables
//! cargo run --release --example pdf_bench -- /tmp/pdf-bench --misses   # and what went wrong
//! cargo run --release --example pdf_bench -- --speed FILE.pdf [RUNS]   # pages/s, peak memory
//! cargo run --release --example pdf_bench -- --dump FILE.pdf            # the lines as placed
//! ```
//!
//! Per document: `found` — gold entries whose title is in the text layer that exactly
//! one extracted reference holds (with the first author's family name; a reference
//! holding two titles is two merged entries and counts for neither); `title≥.9` — of those, the share whose parsed title is within
//! 0.9 title similarity of the gold title; `spurious` — extracted references that hold no
//! gold title, per 100 extracted; `linked` — citation links in the body whose
//! `cite.<key>` is the key of an extracted reference (hyperref PDFs), else numeric
//! markers `[n]` in the body whose number is an extracted label.
//!
//! Word files (pandoc's: the citations are text, with hyperlinks to the entries, not
//! reference-manager fields): the references are those the converted document's parse
//! holds, with the title the parse gave them; the text layer is every `<w:t>` run of
//! `word/document.xml`; `linked` — citations the reader found in the body (by the prose
//! scanners, or from a numbered hyperlink to an entry) that `citeproof::link::link`
//! connects to an extracted reference, per 100 citations the Markdown source
//! (`NAME.md`, else the citations found) writes: each `@key` of a `[@…]` group; a
//! range `[5]–[7]` found counts as its three numbers. A marker the reader does not
//! recognise is a miss; whether a link reaches the *right* entry is not checked.
//! `pages/s` is `—` for Word files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use citeproof::document::Document;
use citeproof::link;
use citeproof::model::FileId;
use citeproof::parse::{ParseOptions, Parsed, bibtex, refstring};
use citeproof::read::docx;
use citeproof::read::pdf::{self, PdfLayout};
use citeproof::read::zipped::Zipped;
use citeproof::resolve::title_score::title_similarity;

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
            if self.seconds > 0.0 && self.pages > 0 {
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

/// One extracted reference: its text, its parsed title, and where it is (for `--misses`).
struct Extracted {
    text: String,
    title: String,
    place: String,
}

/// What a reader made of one document, in the terms the figures need.
struct Reading {
    references: Vec<Extracted>,
    /// The document's text read without the reader under test, squeezed: the gold
    /// titles not in it are left out of `found`.
    layer: String,
    /// Citation markers counted, and those that reach an extracted reference.
    markers: usize,
    linked: usize,
    /// Markers found that reach no extracted reference, as written (for `--misses`).
    unlinked: Vec<String>,
    pages: u32,
    seconds: f64,
}

/// The PDF reader (`read::pdf::read`); the text layer by `pdf-extract`.
fn read_pdf(path: &Path) -> Result<Reading, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let layout = pdf::read(&bytes).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let layer = squeeze(&pdf_extract::extract_text_from_mem(&bytes).unwrap_or_default());
    let references = layout
        .references
        .iter()
        .map(|r| Extracted {
            title: refstring::parse(&r.text).title.unwrap_or_default(),
            text: r.text.clone(),
            place: format!("p{} l{}", r.first.0, r.first.1),
        })
        .collect();
    let (markers, linked) = markers_linked(&layout);
    Ok(Reading {
        references,
        layer,
        markers,
        linked,
        unlinked: Vec::new(),
        pages: layout.pages,
        seconds,
    })
}

/// The Word reader (`read::docx::convert_docx`): the references its parse holds
/// (their text is their span of the converted text, their title the parsed field);
/// the text layer is every `<w:t>` run of `word/document.xml`.
fn read_docx(path: &Path, source: &Path) -> Result<Reading, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let converted = docx::convert_docx(FileId(0), &bytes)?;
    let seconds = start.elapsed().as_secs_f64();
    let text = &converted.text;
    let references = converted
        .parsed
        .references
        .iter()
        .map(|r| Extracted {
            text: text
                .get(r.span.start..r.span.end)
                .unwrap_or(&r.raw)
                .to_string(),
            title: r.fields.title.clone().unwrap_or_default(),
            place: converted
                .locations
                .locate(text, r.span.start)
                .map_or_else(|| format!("byte {}", r.span.start), |l| l.to_string()),
        })
        .collect();
    let (linked, unlinked) = docx_linked(&converted.parsed);
    let markers = std::fs::read_to_string(source)
        .map(|md| citations_written(&md))
        .unwrap_or(converted.parsed.citations.len());
    Ok(Reading {
        references,
        layer: squeeze(&word_text(&bytes)?),
        markers,
        linked,
        unlinked,
        pages: 0,
        seconds,
    })
}

/// The text of a Word file's main part, tags dropped, the five XML entities decoded.
fn word_text(bytes: &[u8]) -> Result<String, String> {
    let mut zip = Zipped::open(bytes)?;
    let xml = zip
        .read("word/document.xml", 1 << 28)?
        .ok_or("no word/document.xml")?;
    let xml = String::from_utf8_lossy(&xml);
    let run = regex::Regex::new(r"<w:t(?:\s[^>]*)?>([^<]*)</w:t>").expect("run regex");
    let text: String = run.captures_iter(&xml).map(|c| c[1].to_string()).collect();
    Ok(text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&"))
}

/// Citations the Markdown source writes: every `@key` of a `[@a; @b]` group.
fn citations_written(markdown: &str) -> usize {
    let group = regex::Regex::new(r"\[@[^\]]*\]").expect("group regex");
    group
        .find_iter(markdown)
        .map(|g| g.as_str().matches('@').count())
        .sum()
}

/// Citations the reader found in the body that `link::link` connects to one of the
/// references it extracted (numbers to labels, author–year to first author and year,
/// keys of reference-manager fields to their items); and those it does not, as written.
fn docx_linked(parsed: &Parsed) -> (usize, Vec<String>) {
    let mut doc = Document {
        citations: parsed.citations.clone(),
        references: parsed.references.clone(),
        ..Document::default()
    };
    let extracted = doc.references.len();
    link::link(&mut doc);
    let (linked, unlinked): (Vec<_>, Vec<_>) = doc
        .citations
        .iter()
        .partition(|c| c.reference.is_some_and(|r| r < extracted));
    (
        linked.len(),
        unlinked.iter().map(|c| c.key.clone()).collect(),
    )
}

/// The figures of one document read by its reader.
fn measure(reading: Result<Reading, String>, path: &Path, bib: &Path, misses: bool) -> Tally {
    let reading = match reading {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return Tally {
                docs: 1,
                ..Tally::default()
            };
        }
    };
    let refs: Vec<String> = reading
        .references
        .iter()
        .map(|r| squeeze(&r.text))
        .collect();
    let gold = gold_entries(bib);
    let titles: Vec<String> = gold.iter().map(|(t, _)| t.clone()).collect();
    let mut t = Tally {
        docs: 1,
        gold: titles.len(),
        extracted: refs.len(),
        markers: reading.markers,
        markers_linked: reading.linked,
        pages: reading.pages,
        seconds: reading.seconds,
        ..Tally::default()
    };
    let gold_keys: Vec<String> = titles.iter().map(|g| squeeze(g)).collect();
    let holds =
        |r: &str, g: usize| r.contains(gold_keys[g].as_str()) && r.contains(gold[g].1.as_str());
    let holds_gold: Vec<usize> = refs
        .iter()
        .map(|r| (0..gold.len()).filter(|&g| holds(r, g)).count())
        .collect();
    for (g, (title, key)) in titles.iter().zip(&gold_keys).enumerate() {
        if !reading.layer.contains(key.as_str()) {
            if misses {
                println!("  not in the text layer: {title}");
            }
            continue;
        }
        t.in_layer += 1;
        let holders: Vec<usize> = (0..refs.len()).filter(|&k| holds(&refs[k], g)).collect();
        if holders.len() == 1 && holds_gold[holders[0]] == 1 {
            t.found_once += 1;
            let parsed = &reading.references[holders[0]].title;
            let sim = title_similarity(parsed, title);
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
                let r = &reading.references[h];
                let text: String = r.text.chars().take(160).collect();
                println!("      {}: {text}…", r.place);
            }
        }
    }
    t.spurious = holds_gold.iter().filter(|&&n| n == 0).count();
    if misses {
        for (k, r) in reading.references.iter().enumerate() {
            if holds_gold[k] == 0 {
                println!("  spurious {}: {}", r.place, r.text);
            }
        }
        if reading.markers > reading.linked {
            println!(
                "  markers: {} of {} linked",
                reading.linked, reading.markers
            );
        }
        for key in &reading.unlinked {
            println!("  marker not linked: {key:?}");
        }
    }
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
    let mut by_style: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut totals: BTreeMap<String, Tally> = BTreeMap::new();
    println!("| document | {COLUMNS}");
    println!("|---{RULE}");
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let name = cols[0];
        let style = cols.get(1).copied().unwrap_or(name);
        let format = cols.get(4).copied().unwrap_or("pdf");
        if misses {
            println!("{name} ({format}):");
        }
        let file = |ext: &str| dir.join(format!("{name}.{ext}"));
        let (path, reading) = match format {
            "docx" => (file("docx"), read_docx(&file("docx"), &file("md"))),
            _ => (file("pdf"), read_pdf(&file("pdf"))),
        };
        let t = measure(reading, &path, &file("bib"), misses);
        println!("{}", t.row(&format!("{name} ({format})")));
        by_style
            .entry((format.to_string(), style.to_string()))
            .or_default()
            .add(&t);
        totals.entry(format.to_string()).or_default().add(&t);
    }
    for (format, total) in &totals {
        println!();
        println!("| {format}: style | {COLUMNS}");
        println!("|---{RULE}");
        for ((_, style), t) in by_style.iter().filter(|((f, _), _)| f == format) {
            println!("{}", t.row(style));
        }
        println!("{}", total.row("**all**"));
    }
}

/// The figures' columns (after the first), and the table rule for them.
const COLUMNS: &str = "docs | gold | in text layer | found once % | title ≥ 0.9 % | spurious per 100 | markers linked % | pages/s |";
const RULE: &str = "|---|---|---|---|---|---|---|---|";
