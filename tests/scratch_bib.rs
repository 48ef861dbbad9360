use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};
#[test]
fn dump() {
    for f in [
        "entries",
        "strings",
        "crossref",
        "names",
        "identifiers",
        "malformed",
    ] {
        let text = std::fs::read_to_string(format!("fixtures/bibtex/{f}.bib")).unwrap();
        let p = parse::bibtex::parse(FileId(0), &text, &ParseOptions::default());
        println!("==== {f}");
        for r in &p.references {
            println!(
                "{} [{:?}] {}",
                r.key,
                r.entry_type,
                serde_json::to_string(&r.fields).unwrap()
            );
        }
        for d in &p.problems {
            println!(
                "PROBLEM {:?} {:?} {}",
                d.span,
                &text[d.span.start..d.span.end],
                d.message
            );
        }
        println!(
            "biblatex: {:?}",
            biblatex::Bibliography::parse(&text)
                .map(|b| b.len())
                .map_err(|e| e.to_string())
        );
    }
}
