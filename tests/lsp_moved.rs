//! Keystrokes are brought into the root's last check in place: those that only
//! move what the paper holds (prose typed, a citation key typed that links to
//! nothing) move it, those that change it (a linked key retyped, a citation added,
//! a sentence split) are spliced in and checked again. After each, the diagnostics
//! the server publishes for the paper and its bibliography are those a server that
//! opens the final text publishes.

mod lsp_support;

use std::collections::HashMap;
use std::path::Path;

use lsp_support::{Client, local, uri};
use serde_json::{Value, json};

const BIB: &str = "@article{smith2020,\n  author = {Smith, J.},\n  title = {Sleep and memory},\n  \
journal = {Nature},\n  year = {2020}\n}\n\n@book{unused2000,\n  title = {Never cited},\n  \
year = {2000}\n}\n\n@misc{url2021,\n  title = {Web},\n  year = 2021,\n  \
url = {https://doi.org/10.1000/abc}\n}\n";

const PAPER: &str = "---\nbibliography: refs.bib\n---\n\n# Introduction\n\nSleep helps \
memory [@smith2020]. Rest matters [@missing2001].\n\nA paragraph with no citation.\n\n\
As shown by [@sm\n\nThe end [@url2021].\n";

/// The diagnostics published for the paper after its latest change, and the
/// latest published for every other file.
fn published(client: &mut Client, paper: &Path) -> HashMap<String, Value> {
    let own = client.diagnostics(&uri(paper));
    client.roundtrip();
    let mut out: HashMap<String, Value> = client
        .latest_diagnostics()
        .into_iter()
        .map(|(uri, p)| (uri, p["diagnostics"].clone()))
        .collect();
    out.insert(uri(paper), own["diagnostics"].clone());
    out
}

fn fresh(paper: &Path, text: &str) -> (Value, Value) {
    let mut client = Client::start(json!({}), local());
    client.open(&uri(paper), "markdown", 1, text);
    let found = published(&mut client, paper);
    let bib = uri(&paper.with_file_name("refs.bib"));
    (
        found[&uri(paper)].clone(),
        found.get(&bib).cloned().unwrap_or(Value::Null),
    )
}

#[test]
fn keystrokes_publish_what_a_fresh_check_does() {
    let dir = tempfile::tempdir().unwrap();
    let dir_path = citeproof::fs::normalize(dir.path());
    std::fs::write(dir_path.join("refs.bib"), BIB).unwrap();
    let paper = dir_path.join("paper.md");
    std::fs::write(&paper, PAPER).unwrap();
    let mut client = Client::start(json!({}), local());
    client.open(&uri(&paper), "markdown", 1, PAPER);
    let bib = uri(&dir_path.join("refs.bib"));
    let mut last_bib = published(&mut client, &paper).get(&bib).cloned();
    let mut text = PAPER.to_string();
    let edits: &[(&str, &str)] = &[
        ("Sleep helps", "Sleep surely helps"),
        ("[@sm\n", "[@smi\n"),
        ("[@smi\n", "[@smit\n"),
        ("no citation.", "no\ncitation at all."),
        ("[@missing2001]", "[@missing2002]"),
        ("# Introduction", "# Intro"),
        ("[@smit\n", "[@smith2020]\n"),
        ("memory [@smith2020].", "memory [@smith2x020]."),
        ("The end [@url2021].", "The end [@url2021; @unused2000]."),
        ("Rest matters", "Rest. It matters"),
        ("memory [@smith2x020].", "memory [@smith2020]."),
    ];
    for (version, (from, to)) in edits.iter().enumerate() {
        text = text.replacen(from, to, 1);
        client.replace(&uri(&paper), version as i32 + 2, &text);
        let found = published(&mut client, &paper);
        let (paper_fresh, bib_fresh) = fresh(&paper, &text);
        assert_eq!(found[&uri(&paper)], paper_fresh, "after `{to}`:\n{text}");
        if let Some(bib_found) = found.get(&bib) {
            last_bib = Some(bib_found.clone());
        }
        assert_eq!(
            last_bib.clone().unwrap_or(Value::Null),
            bib_fresh,
            "after `{to}`"
        );
    }
}
