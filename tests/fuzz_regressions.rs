//! Every input on which a fuzz target once found a crash (`fixtures/fuzz/<target>/`,
//! listed with its fix in docs/fuzzing.md), replayed through that target's reader or
//! parser: each must give an answer (a result or an error), never a panic, a stack
//! overflow or an abort.

use std::path::Path;

use citeproof::model::FileId;
use citeproof::parse::{self, ParseOptions};
use citeproof::read;

/// What the fuzz target `target` does with its input (fuzz/fuzz_targets/<target>.rs),
/// less the libFuzzer harness.
fn replay(target: &str, data: &[u8]) {
    let text = std::str::from_utf8(data).ok();
    let options = ParseOptions::default();
    let parser = match target {
        "pdf" => {
            let _ = read::pdf::read(data);
            return;
        }
        "docx" => {
            let _ = read::docx::convert_docx(FileId(0), data);
            let _ = read::docx::convert_odt(FileId(0), data);
            return;
        }
        "refstring" => {
            if let Some(text) = text {
                let _ = parse::refstring::parse(text);
            }
            return;
        }
        "markdown" => parse::markdown::parse,
        "latex" => parse::latex::parse,
        "bibtex" => parse::bibtex::parse,
        "bbl" => parse::bbl::parse,
        "csljson" => parse::csljson::parse,
        "answer" => parse::answer::parse,
        other => panic!("no replay for the fuzz target {other}: add it here"),
    };
    if let Some(text) = text {
        let _ = parser(FileId(0), text, &options);
    }
}

#[test]
fn every_recorded_crash_input_gives_an_answer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let mut replayed = 0;
    for target in std::fs::read_dir(&root).expect("fixtures/fuzz") {
        let target = target.unwrap().path();
        if !target.is_dir() {
            continue;
        }
        let name = target.file_name().unwrap().to_string_lossy().into_owned();
        for input in std::fs::read_dir(&target).unwrap() {
            let input = input.unwrap().path();
            let data = std::fs::read(&input).unwrap();
            eprintln!("replaying {}", input.display());
            replay(&name, &data);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no inputs under {}", root.display());
}
