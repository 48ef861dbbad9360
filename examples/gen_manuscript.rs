//! Writes a synthetic manuscript for timing `citeproof check`: a Markdown paper whose
//! sentences cite N BibTeX entries (default 600), with a few findings of the local
//! kinds (undefined keys, unused entries, DOIs written as URLs, missing years), and
//! `works.jsonl`, the cited works in the world schema, so that the mock world
//! (`examples/mockworld.rs --world OUT_DIR/works.jsonl`) can resolve every entry.
//!
//! cargo run --release --example gen_manuscript -- OUT_DIR [N]

#[path = "support/lcg.rs"]
mod lcg;

use std::fmt::Write as _;
use std::path::PathBuf;

use lcg::Lcg;

const TOPICS: &[&str] = &[
    "sleep",
    "memory",
    "vitamin D",
    "fractures",
    "transformers",
    "attention",
    "galaxies",
    "CRISPR",
    "gene expression",
    "climate models",
    "soil carbon",
    "protein folding",
];
const VERBS: &[&str] = &["improves", "reduces", "predicts", "explains", "accelerates"];
const FAMILIES: &[&str] = &[
    "Smith", "Lee", "García", "Müller", "Okafor", "Tanaka", "Kowalski", "Dubois", "Rossi",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().expect("usage: gen_manuscript OUT_DIR [N]"));
    let n: usize = args
        .next()
        .map(|a| a.parse().expect("N is a number"))
        .unwrap_or(600);
    let mut rng = Lcg(42);
    let mut bib = String::new();
    let mut works = String::new();
    let mut paper =
        String::from("---\ntitle: A synthetic review\nbibliography: refs.bib\n---\n\n# Review\n\n");
    for i in 0..n {
        let key = format!("ref{i:04}");
        let topic = TOPICS[rng.next(TOPICS.len())];
        let other = TOPICS[rng.next(TOPICS.len())];
        let family = FAMILIES[rng.next(FAMILIES.len())];
        let year = 1990 + rng.next(35);
        let _ = writeln!(bib, "@article{{{key},");
        let _ = writeln!(bib, "  title = {{On {topic} and {other}: study {i}}},");
        let _ = writeln!(bib, "  author = {{{family}, A. and Second, B.}},");
        let _ = writeln!(bib, "  journal = {{Journal of {topic}}},");
        if i % 97 != 0 {
            let _ = writeln!(bib, "  year = {{{year}}},");
        }
        if i % 50 == 0 {
            let _ = writeln!(bib, "  url = {{https://doi.org/10.5555/{key}}}");
        } else {
            let _ = writeln!(bib, "  doi = {{10.5555/{key}}}");
        }
        bib.push_str("}\n\n");
        let work = serde_json::json!({
            "id": format!("g{i:05}"), "doi": format!("10.5555/{key}"), "arxiv": null,
            "pmid": null, "pmcid": null, "s2": null, "openalex": null, "dblp": null,
            "title": format!("On {topic} and {other}: study {i}"),
            "authors": [{"given": "A.", "family": family}, {"given": "B.", "family": "Second"}],
            "year": year, "venue": format!("Journal of {topic}"), "type": "article",
            "abstract": null, "is_retracted": false, "oa_url": null, "full_text_file": null,
            "sources": ["crossref", "openalex", "semantic_scholar"],
        });
        let _ = writeln!(works, "{work}");
        // Every entry but a few is cited, some twice, some next to an undefined key.
        if i % 113 == 5 {
            continue;
        }
        let verb = VERBS[rng.next(VERBS.len())];
        let extra = if i % 150 == 7 {
            format!("; @missing{i}")
        } else {
            String::new()
        };
        let _ = writeln!(
            paper,
            "Work on {topic} {verb} what we know of {other} [@{key}{extra}]."
        );
        if i % 10 == 9 {
            paper.push('\n');
        }
    }
    std::fs::create_dir_all(&out).expect("output folder");
    std::fs::write(out.join("refs.bib"), bib).expect("refs.bib");
    std::fs::write(out.join("paper.md"), paper).expect("paper.md");
    std::fs::write(out.join("works.jsonl"), works).expect("works.jsonl");
    println!("wrote {} with {n} references", out.display());
}
