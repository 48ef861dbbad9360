//! The Kubernetes Indexed Job (deploy/kubernetes/citeproof-scan.yaml) maps each pod's
//! `JOB_COMPLETION_INDEX` to one `--shard`, and its shards together are the whole scan:
//! the pod command is run here as Kubernetes would run it, once per index, with the
//! real binary (a folder cache in place of the database), and the reports read in index
//! order equal one unsharded run.

use std::path::Path;
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

fn manifest() -> Yaml {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/deploy/kubernetes/citeproof-scan.yaml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

fn env_value(container: &Yaml, name: &str) -> Option<Yaml> {
    container["env"]
        .as_vec()?
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
        .cloned()
}

#[test]
fn every_index_checks_its_shard_and_the_shards_make_the_whole_scan() {
    let job = manifest();
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_i64().expect("completions") as usize;
    let container = &spec["template"]["spec"]["containers"][0];
    let shards: usize = env_value(container, "SHARDS").expect("SHARDS")["value"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(shards, completions, "SHARDS must equal completions");
    for shared in ["CITEPROOF_CACHE_DIR", "CITEPROOF_INDEX"] {
        let from = env_value(container, shared).unwrap_or_else(|| panic!("{shared} is set"));
        assert!(
            !from["valueFrom"]["secretKeyRef"].is_badvalue(),
            "{shared} comes from the database secret"
        );
    }
    assert_eq!(container["command"][0].as_str(), Some("/bin/sh"));
    let script = container["args"][0].as_str().unwrap();

    // The pod's script, on this machine: the fixtures as the submissions.
    let tmp = tempfile::tempdir().unwrap();
    let submissions = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/markdown");
    let results = tmp.path().join("results");
    std::fs::create_dir_all(&results).unwrap();
    let local = script
        .replace("/work/submissions", submissions.to_str().unwrap())
        .replace("/results", results.to_str().unwrap());
    let run = |index: Option<usize>| {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(match index {
                Some(_) => local.clone(),
                None => local
                    .replace(r#"--shard "$((JOB_COMPLETION_INDEX + 1))/$SHARDS""#, "")
                    .replace("shard-$JOB_COMPLETION_INDEX", "whole"),
            })
            .env("PATH", path_with_citeproof())
            .env("SHARDS", shards.to_string())
            .env("CITEPROOF_CACHE_DIR", tmp.path().join("cache"))
            .env_remove("CITEPROOF_INDEX")
            .env("CITEPROOF_NO_RESOLVE", "1")
            .env("CITEPROOF_OFFLINE", "1");
        if let Some(i) = index {
            command.env("JOB_COMPLETION_INDEX", i.to_string());
        }
        let out = command.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(None);
    let whole = std::fs::read_to_string(results.join("whole.jsonl")).unwrap();
    assert!(
        whole.lines().count() > shards,
        "the scan finds something to shard"
    );
    let mut joined = String::new();
    for index in 0..completions {
        run(Some(index));
        joined += &std::fs::read_to_string(results.join(format!("shard-{index}.jsonl"))).unwrap();
    }
    assert_eq!(joined, whole);
}

/// PATH with the binary under test first, as the image has `citeproof` on its PATH.
fn path_with_citeproof() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_citeproof")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}
