//! The Kubernetes Indexed Job (deploy/kubernetes/citeproof-scan.yaml) maps each pod's
//! `JOB_COMPLETION_INDEX` to one `batch --shard` with its own output folder, and its
//! shards together are the whole scan: the pod command is run here as Kubernetes would
//! run it, once per index, with the real binary (a folder cache in place of the
//! database); the summaries read in index order equal one unsharded batch, a retried
//! pod resumes from its journal, and the merge Job (citeproof-merge.yaml) writes the
//! unsharded summary.

use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

fn manifest(name: &str) -> Yaml {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("deploy/kubernetes")
        .join(name);
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
    let job = manifest("citeproof-scan.yaml");
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
    // The Markdown fixtures as submissions, and a damaged PDF that cannot be checked.
    let submissions = tmp.path().join("submissions");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/markdown");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(&fixtures)
        .arg(&submissions)
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::write(submissions.join("damaged.pdf"), "%PDF-1.7 and nothing else").unwrap();
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
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        stderr
    };
    let read = |path: PathBuf| std::fs::read_to_string(&path).unwrap();
    run(None);
    let whole = read(results.join("whole/summary.jsonl"));
    assert!(
        whole.lines().count() >= shards,
        "the scan has a submission for every shard"
    );
    let mut joined = String::new();
    for index in 0..completions {
        run(Some(index));
        joined += &read(results.join(format!("shard-{index}/summary.jsonl")));
    }
    assert_eq!(joined, whole);

    // A retried pod resumes from its journal: nothing is checked again, and its
    // summary is the same.
    let first = read(results.join("shard-0/summary.jsonl"));
    let retry = run(Some(0));
    assert!(retry.contains("finished by an earlier run"), "{retry}");
    assert_eq!(read(results.join("shard-0/summary.jsonl")), first);

    // The merge Job, once the scan is complete: the unsharded summary, and totals.
    let merge = manifest("citeproof-merge.yaml");
    let container = &merge["spec"]["template"]["spec"]["containers"][0];
    let script = container["args"][0].as_str().unwrap();
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(script.replace("/results", results.to_str().unwrap()))
        .env("PATH", path_with_citeproof())
        .output()
        .unwrap();
    // 2: the damaged PDF could not be checked (its pod succeeded: its batch finished).
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read(results.join("merged/summary.jsonl")), whole);
    let totals: serde_json::Value =
        serde_json::from_str(&read(results.join("merged/totals.json"))).unwrap();
    assert_eq!(totals["complete"], true, "{totals}");
    assert_eq!(totals["shards"], shards, "{totals}");
    assert_eq!(totals["failed"], 1, "{totals}");
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
