//! A fixed amount of extraction work on the benchmark's inputs, for profilers whose
//! instruction counts are repeatable where wall-clock times on a shared machine are
//! not:
//!
//! ```text
//! cargo build --release --example extract_profile
//! valgrind --tool=callgrind --toggle-collect='*extract_profile::measured*' \
//!     target/release/examples/extract_profile markdown 1 2
//! ```
//!
//! One unmeasured parse of the input comes first, so that what is counted in
//! `measured` is the steady state (compiled regexes, loaded lexicons), as in the
//! benchmark's repeated runs.
//!
//! Arguments: the input (`markdown`, `markdown-bare` for pulldown-cmark alone,
//! `refstrings` for the reference-list items of the Markdown input alone, `latex`),
//! how many times to parse it, and how many megabytes of the benchmark input to use
//! (default: all of it, as `cargo bench --bench extract` reads it).

#[path = "../benches/support/corpus.rs"]
mod corpus;

use citeproof::model::{FileId, ReferenceOrigin};
use citeproof::parse::{self, ParseOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("markdown", String::as_str);
    let times: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let megabytes: Option<usize> = args.get(2).and_then(|a| a.parse().ok());
    let mut input = match which {
        "latex" => corpus::latex(),
        _ => corpus::markdown(),
    };
    if let Some(mb) = megabytes {
        let mut end = (mb << 20).min(input.len());
        while !input.is_char_boundary(end) {
            end -= 1;
        }
        input.truncate(end);
    }
    let options = ParseOptions::default();
    if which == "refstrings" {
        // One reference-list item a line, as the Markdown parser reads them.
        let parsed = parse::markdown::parse(FileId(0), &input, &options);
        input = parsed
            .references
            .iter()
            .filter(|r| r.origin == ReferenceOrigin::ReferenceList)
            .map(|r| r.raw.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
            .collect();
    }
    let warm = once(which, &input, &options);
    let started = std::time::Instant::now();
    let total = measured(which, &input, &options, times);
    let per_parse = started.elapsed() / times.max(1) as u32;
    println!(
        "{which}: {} bytes x {times}: {total} (warm-up {warm}), {per_parse:?} per parse",
        input.len()
    );
}

#[inline(never)]
fn measured(which: &str, input: &str, options: &ParseOptions, times: usize) -> usize {
    (0..times).map(|_| once(which, input, options)).sum()
}

fn once(which: &str, input: &str, options: &ParseOptions) -> usize {
    match which {
        "refstrings" => input
            .lines()
            .map(|line| parse::refstring::parse(line).authors.len())
            .sum(),
        "markdown-bare" => pulldown_cmark::Parser::new_ext(input, parse::markdown::options())
            .into_offset_iter()
            .count(),
        "latex" => parse::latex::parse(FileId(0), input, options)
            .citations
            .len(),
        _ => parse::markdown::parse(FileId(0), input, options)
            .citations
            .len(),
    }
}
