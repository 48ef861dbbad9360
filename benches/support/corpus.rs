//! The large inputs of the extraction benchmark (`benches/extract.rs`) and of the
//! profiling driver (`examples/extract_profile.rs`): the repository's fixtures and
//! the real manuscripts in ../shared (when present) concatenated up to a few
//! megabytes per format.

use std::fs;
use std::path::{Path, PathBuf};

pub const TARGET_BYTES: usize = 8 << 20;

/// Every file with one of `extensions` under the given roots, except those in
/// `edge/` folders: half-typed inputs whose unclosed constructs would run on into
/// the next file of a concatenation and turn it into something no one writes.
pub fn files(roots: &[PathBuf], extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending: Vec<PathBuf> = roots.iter().filter(|r| r.exists()).cloned().collect();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "edge") {
                continue;
            }
            if let Ok(entries) = fs::read_dir(&path) {
                pending.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Concatenate the inputs, `separator` after each, until `TARGET_BYTES`.
pub fn corpus(subdirs: &[&str], extensions: &[&str], separator: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots: Vec<PathBuf> = subdirs
        .iter()
        .map(|d| root.join("fixtures").join(d))
        .collect();
    roots.push(root.join("../shared/data/manuscripts"));
    roots.push(root.join("../shared/bench/docs"));
    let texts: Vec<String> = files(&roots, extensions)
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .collect();
    assert!(!texts.is_empty(), "no inputs for {extensions:?}");
    let mut out = String::with_capacity(TARGET_BYTES + (1 << 20));
    while out.len() < TARGET_BYTES {
        for text in &texts {
            out.push_str(text);
            out.push_str(separator);
        }
    }
    out
}

/// The Markdown input: fixtures/markdown, fixtures/answers and the Markdown in ../shared.
/// Documents are separated by a level-1 heading: LLM answers end in a reference
/// section opened by a "Sources:" line, which only a heading closes; without one it
/// would take the next answer's prose for reference-list text.
pub fn markdown() -> String {
    corpus(&["markdown", "answers"], &["md"], "\n\n# Next document\n\n")
}

/// The LaTeX input: fixtures/latex and the LaTeX in ../shared.
pub fn latex() -> String {
    corpus(&["latex"], &["tex"], "\n\n")
}
