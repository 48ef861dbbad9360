//! Build `src/parse/refstring/given_names.txt`, the given-name list the reference-string
//! parser consults to tell a full name (`Michel Dagenais`) from the start of a title
//! (`Sexual Consent`). Built from the tuning data only: the authors of the world of
//! works in `../shared/data/world/works.jsonl`. A name is kept when at least two works
//! have an author whose given names start with it.
//!
//! ```text
//! cargo run --example refstring_lexicon
//! ```

use std::collections::BTreeMap;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let works = root.join("../shared/data/world/works.jsonl");
    let Ok(text) = std::fs::read_to_string(&works) else {
        eprintln!("skipping: {} absent", works.display());
        return;
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines() {
        let Ok(work) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let mut seen = std::collections::BTreeSet::new();
        for author in work["authors"].as_array().into_iter().flatten() {
            let Some(first) = author["given"]
                .as_str()
                .and_then(|g| g.split_whitespace().next())
            else {
                continue;
            };
            let letters = first.chars().filter(|c| c.is_alphabetic()).count();
            let plain = first.chars().all(|c| c.is_alphabetic() || c == '-');
            if letters >= 2
                && plain
                && first.starts_with(char::is_uppercase)
                && !first.chars().skip(1).all(char::is_uppercase)
            {
                seen.insert(first.to_lowercase());
            }
        }
        for name in seen {
            *counts.entry(name).or_default() += 1;
        }
    }
    let names: Vec<&str> = counts
        .iter()
        .filter(|(_, n)| **n >= 2)
        .map(|(k, _)| k.as_str())
        .collect();
    let out = root.join("src/parse/refstring/given_names.txt");
    std::fs::write(&out, names.join("\n") + "\n").expect("write the given-name list");
    println!("{} given names written to {}", names.len(), out.display());
}
