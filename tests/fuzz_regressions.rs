//! Every input on which a fuzz target once found a crash (`fixtures/fuzz/<target>/`,
//! listed with its fix in docs/fuzzing.md), replayed through that target's own body
//! (fuzz/fuzz_targets/body/<target>.rs, included here as the target includes it):
//! each must pass the target's checks, never panic, overflow its stack or abort.

use std::path::Path;

#[path = "../fuzz/fuzz_targets/engine_panics.rs"]
mod engine_panics;
#[path = "../fuzz/fuzz_targets/spans.rs"]
mod spans;

#[path = "../fuzz/fuzz_targets/body/answer.rs"]
mod answer;
#[path = "../fuzz/fuzz_targets/body/archive.rs"]
mod archive;
#[path = "../fuzz/fuzz_targets/body/bbl.rs"]
mod bbl;
#[path = "../fuzz/fuzz_targets/body/bibtex.rs"]
mod bibtex;
#[path = "../fuzz/fuzz_targets/body/csljson.rs"]
mod csljson;
#[path = "../fuzz/fuzz_targets/body/docx.rs"]
mod docx;
#[path = "../fuzz/fuzz_targets/body/latex.rs"]
mod latex;
#[path = "../fuzz/fuzz_targets/body/markdown.rs"]
mod markdown;
#[path = "../fuzz/fuzz_targets/body/pdf.rs"]
mod pdf;
#[path = "../fuzz/fuzz_targets/body/refstring.rs"]
mod refstring;

/// The body of the fuzz target named `target`.
fn body(target: &str) -> Option<fn(&[u8])> {
    Some(match target {
        "answer" => answer::run,
        "archive" => archive::run,
        "bbl" => bbl::run,
        "bibtex" => bibtex::run,
        "csljson" => csljson::run,
        "docx" => docx::run,
        "latex" => latex::run,
        "markdown" => markdown::run,
        "pdf" => pdf::run,
        "refstring" => refstring::run,
        _ => return None,
    })
}

#[test]
fn every_fuzz_target_has_its_body_here() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
            .expect("fuzz/Cargo.toml");
    let targets: Vec<&str> = manifest
        .lines()
        .filter_map(|line| line.strip_prefix("name = \"")?.strip_suffix('"'))
        .filter(|name| *name != "citeproof-fuzz")
        .collect();
    assert!(targets.len() >= 10, "{targets:?}");
    for target in targets {
        assert!(
            body(target).is_some(),
            "no body for the fuzz target {target}: add it here"
        );
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
        let run = body(&name).unwrap_or_else(|| panic!("no body for the fuzz target {name}"));
        for input in std::fs::read_dir(&target).unwrap() {
            let input = input.unwrap().path();
            let data = std::fs::read(&input).unwrap();
            eprintln!("replaying {}", input.display());
            run(&data);
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no inputs under {}", root.display());
}
