//! Extraction throughput next to the bare parsers it builds on.
//!
//! Inputs are built by concatenating the repository's fixtures (and the real
//! manuscripts in ../shared when present) up to a few megabytes per format.
//! Run: `cargo bench --bench extract`; divan prints bytes/s per benchmark.

#[path = "support/corpus.rs"]
mod corpus;

use std::fs;
use std::path::Path;
use std::sync::LazyLock;

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};
use divan::Bencher;
use divan::counter::BytesCount;

fn main() {
    divan::main();
}

static MARKDOWN: LazyLock<String> = LazyLock::new(corpus::markdown);
static LATEX: LazyLock<String> = LazyLock::new(corpus::latex);
/// Only files the biblatex crate parses, so both parsers read the same entries (a
/// file with a malformed entry or an undefined macro stops its parse; the
/// crossref cycle in fixtures/bibtex/edge/ overflows its stack).
/// The biblatex crate also refuses duplicate keys, so every repetition of the
/// inputs gets its own keys.
static BIBTEX: LazyLock<String> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = [
        root.join("fixtures/bibtex"),
        root.join("fixtures/latex"),
        root.join("../shared/data/manuscripts"),
        root.join("../shared/bench/docs"),
    ];
    let texts: Vec<String> = corpus::files(&roots, &["bib"])
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .filter(|t| biblatex::Bibliography::parse(t).is_ok())
        .collect();
    assert!(!texts.is_empty(), "no BibTeX inputs");
    let head = regex::Regex::new(r"(?m)^(\s*@([A-Za-z]+)\s*[{(]\s*)([^,\s]+)").expect("entry head");
    let parent = regex::Regex::new(r"(?i)((?:crossref|xdata)\s*=\s*\{)([^}]*)\}").expect("parent");
    let mut out = String::with_capacity(corpus::TARGET_BYTES + (1 << 20));
    let mut copy = 0;
    while out.len() < corpus::TARGET_BYTES {
        for text in &texts {
            copy += 1;
            let renamed = head.replace_all(text, |c: &regex::Captures<'_>| {
                match c[2].to_ascii_lowercase().as_str() {
                    "string" | "comment" | "preamble" => c[0].to_string(),
                    _ => format!("{}{}-{copy}", &c[1], &c[3]),
                }
            });
            let renamed = parent.replace_all(&renamed, |c: &regex::Captures<'_>| {
                let keys: Vec<String> = c[2]
                    .split(',')
                    .map(|k| format!("{}-{copy}", k.trim()))
                    .collect();
                format!("{}{}}}", &c[1], keys.join(","))
            });
            out.push_str(&renamed);
            out.push_str("\n\n");
        }
    }
    let parsed = biblatex::Bibliography::parse(&out).map(|b| b.len());
    assert!(
        parsed.is_ok(),
        "the biblatex crate must read the whole input: {parsed:?}"
    );
    out
});

fn markdown_options() -> pulldown_cmark::Options {
    use pulldown_cmark::Options;
    Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TABLES
        | Options::ENABLE_MATH
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

#[divan::bench]
fn markdown_pulldown_cmark_bare(bencher: Bencher) {
    let input = &*MARKDOWN;
    bencher.counter(BytesCount::of_str(input)).bench(|| {
        pulldown_cmark::Parser::new_ext(input, markdown_options())
            .into_offset_iter()
            .count()
    });
}

#[divan::bench]
fn markdown_citeproof_extract(bencher: Bencher) {
    let input = &*MARKDOWN;
    let options = ParseOptions::default();
    bencher.counter(BytesCount::of_str(input)).bench(|| {
        parse::markdown::parse(FileId(0), input, &options)
            .citations
            .len()
    });
}

#[divan::bench]
fn latex_citeproof_extract(bencher: Bencher) {
    let input = &*LATEX;
    let options = ParseOptions::default();
    bencher.counter(BytesCount::of_str(input)).bench(|| {
        parse::latex::parse(FileId(0), input, &options)
            .citations
            .len()
    });
}

#[divan::bench]
fn bibtex_biblatex_bare(bencher: Bencher) {
    let input = &*BIBTEX;
    bencher.counter(BytesCount::of_str(input)).bench(|| {
        biblatex::Bibliography::parse(input)
            .map(|b| b.len())
            .unwrap_or(0)
    });
}

#[divan::bench]
fn bibtex_citeproof_extract(bencher: Bencher) {
    let input = &*BIBTEX;
    let options = ParseOptions::default();
    bencher.counter(BytesCount::of_str(input)).bench(|| {
        parse::bibtex::parse(FileId(0), input, &options)
            .references
            .len()
    });
}
