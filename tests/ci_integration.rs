//! The GitHub Action and the pre-commit hook: their files parse, say what the docs
//! promise, and the action's check step runs the real binary with its inputs.

mod cli_support;

use std::path::Path;
use std::process::Command;

use cli_support::Project;
use yaml_rust2::{Yaml, YamlLoader};

fn load(name: &str) -> Yaml {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

/// Run the action's check step as GitHub would: bash, inputs in INPUT_* variables,
/// the installed binary on PATH.
fn run_check_step(p: &Project, inputs: &[(&str, &str)]) -> (i32, String) {
    let action = load("action.yml");
    let steps = action["runs"]["steps"].as_vec().unwrap();
    let step = steps
        .iter()
        .find(|s| s["name"].as_str() == Some("Check citations"))
        .unwrap();
    assert_eq!(step["shell"].as_str(), Some("bash"));
    let script = step["run"].as_str().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_citeproof")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("bash");
    Project::local(&mut command)
        .args(["-c", script])
        .current_dir(p.dir.path())
        .env("PATH", path);
    for name in ["INPUT_PATHS", "INPUT_CONFIG", "INPUT_FAIL_ON", "INPUT_ARGS"] {
        command.env(name, "");
    }
    for (name, value) in inputs {
        command.env(name, value);
    }
    let out = command.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn action_is_composite_with_the_documented_inputs() {
    let action = load("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    for input in ["paths", "config", "fail-on", "args"] {
        assert!(
            action["inputs"][input]["description"].as_str().is_some(),
            "input {input}"
        );
    }
    for input in ["cache", "build-from-source", "release-url"] {
        assert!(
            action["inputs"][input]["description"].as_str().is_some(),
            "input {input}"
        );
    }
    // The install step runs the action's own script (played end to end by
    // tests/install_release.rs): the release binary, then the wheel, then cargo on request.
    let install = action["runs"]["steps"][0]["run"].as_str().unwrap();
    assert!(install.contains("$GITHUB_ACTION_PATH/scripts/action-install.sh"));
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/action-install.sh"),
    )
    .unwrap();
    for step in [
        "scripts/install.sh",
        "pip install",
        "cargo install --locked",
        "GITHUB_PATH",
    ] {
        assert!(script.contains(step), "{step}");
    }
    let cache = &action["runs"]["steps"][1];
    assert_eq!(cache["uses"].as_str(), Some("actions/cache@v4"));
    assert!(cache["with"]["key"].as_str().unwrap().contains("**/*.bib"));
}

#[test]
fn action_check_step_annotates_and_fails_on_errors() {
    let p = Project::copy();
    let (code, out) = run_check_step(&p, &[("INPUT_PATHS", ".")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("::error file=paper.md,line=9,"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("citeproof: Found "));
}

#[test]
fn action_inputs_reach_the_command() {
    let p = Project::copy();
    p.write("strict.toml", "[rules]\nundefined-citation = \"off\"\n");
    let (code, out) = run_check_step(
        &p,
        &[
            ("INPUT_PATHS", "paper.md refs.bib"),
            ("INPUT_CONFIG", "strict.toml"),
            ("INPUT_FAIL_ON", "CP108"),
        ],
    );
    assert_eq!(code, 1, "CP108 fails the step: {out}");
    assert!(!out.contains("CP101"), "{out}");
    assert!(!out.contains("thesis"), "paths input ignored: {out}");
    let (code, out) = run_check_step(
        &p,
        &[("INPUT_PATHS", "thesis.tex"), ("INPUT_ARGS", "--exit-zero")],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("nobody2020"));
}

#[test]
fn pre_commit_hook_runs_the_whole_project_once() {
    let hooks = load(".pre-commit-hooks.yaml");
    let hook = &hooks[0];
    assert_eq!(hook["id"].as_str(), Some("citeproof"));
    assert_eq!(hook["entry"].as_str(), Some("citeproof check"));
    assert_eq!(hook["language"].as_str(), Some("rust"));
    assert_eq!(hook["pass_filenames"].as_bool(), Some(false));
    assert_eq!(hook["require_serial"].as_bool(), Some(true));
    let files = regex::Regex::new(hook["files"].as_str().unwrap()).unwrap();
    for name in ["paper.md", "thesis.tex", "refs.bib", "citeproof.toml"] {
        assert!(files.is_match(name), "{name}");
    }
    assert!(!files.is_match("main.rs"));
}
