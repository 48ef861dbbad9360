//! The LaTeX parser on fixtures of every syntax it reads.

use citeproof::model::{CitationKind, FileId};
use citeproof::parse::{self, ParseOptions, Parsed};

fn parse(text: &str) -> Parsed {
    parse::latex::parse(FileId(0), text, &ParseOptions::default())
}

fn fixture(path: &str) -> String {
    let full = format!("{}/fixtures/latex/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn debug_natbib() {
    let text = fixture("natbib/paper.tex");
    let p = parse(&text);
    for c in &p.citations {
        println!("{:?} {:?} {:?} claim={:?}", c.key, &text[c.span.start..c.span.end], c.command, c.claim.map(|i| &p.claims[i].text));
        assert_eq!(c.kind, CitationKind::Key);
    }
    println!("{:#?}", p.bibliographies);
    println!("{:#?}", p.suppressions);
    println!("{:#?}", p.problems);
}
