//! `citeproof index build|stats|check`, and `resolve`/`check` against the index (`--index`,
//! `--index-complete`, `CITEPROOF_INDEX`, `--shard`), as the real binary.

mod bin_support;
mod index_support;

use std::path::{Path, PathBuf};

use index_support::{fixture, gzip};
use std::process::Output;

use bin_support::citeproof;
use serde_json::Value;

fn ok(output: Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "exit {:?}: {stderr}",
        output.status
    );
    String::from_utf8(output.stdout).unwrap()
}

/// An index built from the fixtures by the binary.
fn built_index(dir: &Path) -> PathBuf {
    let oa = dir.join("dumps/openalex/data/works/updated_date=2024-06-01/part_000.gz");
    gzip(
        &oa,
        &std::fs::read_to_string(fixture("openalex_2024-06.jsonl")).unwrap(),
    );
    let old = dir.join("dumps/openalex/data/works/updated_date=2024-01-01/part_000.gz");
    gzip(
        &old,
        &std::fs::read_to_string(fixture("openalex_2024-01.jsonl")).unwrap(),
    );
    let index = dir.join("index");
    let output = citeproof()
        .args(["index", "build"])
        .arg(&index)
        .arg("--openalex")
        .arg(dir.join("dumps/openalex"))
        .arg("--crossref")
        .arg(fixture("crossref.json"))
        .arg("--dblp")
        .arg(fixture("dblp.xml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    ok(output);
    assert!(stderr.contains("imported 4 files"), "{stderr}");
    assert!(
        stderr.contains("part_000.gz:5"),
        "the line that is not JSON is named: {stderr}"
    );
    index
}

const REFS: &str = "\
He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. CVPR 2016.
Mattioli F, Porcaro C, Baldassarre G. A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface. J Neural Eng. 2021.
Smith J, Doe A. Quantum entanglement of bibliographic references in sparse lattices. Nature Physics. 2020.
Vaswani A, Shazeer N, Parmar N, et al. Attention is all you need. arXiv:1706.03762. 2017.
Hochreiter S, Schmidhuber J. Long short-term memory. Neural Computation. 2005;9(8):1735-1780. doi:10.1162/neco.1997.9.8.1735
Doe J. A study of nothing in particular. doi:10.5555/does-not-exist
";

fn statuses(jsonl: &str) -> Vec<(String, Value)> {
    jsonl
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["status"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

#[test]
fn build_stats_and_resolve_offline_against_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(dir.path());
    let stats: Value = serde_json::from_str(&ok(citeproof()
        .args(["index", "stats", "--json"])
        .arg(&index)
        .output()
        .unwrap()))
    .unwrap();
    assert_eq!(stats["works"], 8);
    assert_eq!(
        stats["records"][0],
        serde_json::json!({"source": "openalex", "records": 4})
    );
    assert!(stats["built"].as_str().is_some_and(|b| b.ends_with('Z')));
    let text = ok(citeproof()
        .args(["index", "stats"])
        .arg(&index)
        .output()
        .unwrap());
    assert!(
        text.contains("works    8") && text.contains("dblp      6"),
        "{text}"
    );

    let refs = dir.path().join("refs.txt");
    std::fs::write(&refs, REFS).unwrap();
    let out = ok(citeproof()
        .arg("resolve")
        .arg(&refs)
        .args(["--format", "jsonl", "--index-complete", "--index"])
        .arg(&index)
        .output()
        .unwrap());
    let got = statuses(&out);
    let names: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        names,
        [
            "verified",
            "retracted",
            "not_found",
            "verified",
            "miscited",
            "not_found"
        ],
        "{out}"
    );
    assert!(
        got[0].1["match"]["source"]
            .as_str()
            .unwrap()
            .starts_with("index:")
    );
    assert_eq!(
        got[0].1["sources_tried"],
        serde_json::json!([{"source": "index", "outcome": "found"}])
    );
    assert_eq!(got[4].1["fields_wrong"], serde_json::json!(["year"]));

    // The same through the environment and without --index-complete: absence is then
    // unknown (offline: no network source may be asked), never "not found".
    let out = ok(citeproof()
        .arg("resolve")
        .arg(&refs)
        .args(["--format", "jsonl"])
        .env("CITEPROOF_INDEX", &index)
        .output()
        .unwrap());
    let names: Vec<String> = statuses(&out).into_iter().map(|(s, _)| s).collect();
    assert_eq!(names[0], "verified");
    assert_eq!(names[2], "unverified");
}

#[test]
fn shards_concatenate_to_the_unsharded_output() {
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(dir.path());
    let refs = dir.path().join("refs.txt");
    std::fs::write(&refs, REFS).unwrap();
    let run = |shard: Option<&str>| {
        let mut command = citeproof();
        command
            .arg("resolve")
            .arg(&refs)
            .args(["--format", "jsonl", "--index-complete", "--index"])
            .arg(&index);
        if let Some(s) = shard {
            command.args(["--shard", s]);
        }
        ok(command.output().unwrap())
    };
    let whole = run(None);
    for n in [2, 4, 7] {
        let joined: String = (1..=n).map(|i| run(Some(&format!("{i}/{n}")))).collect();
        assert_eq!(joined, whole, "{n} shards");
    }
    let bad = citeproof()
        .arg("resolve")
        .arg(&refs)
        .args(["--shard", "3/2"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("3/2"));

    // `check` over many files: shards split the documents.
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    for (name, doi) in [
        ("a.md", "10.1109/cvpr.2016.90"),
        ("b.md", "10.5555/does-not-exist"),
        ("c.md", "10.1088/1741-2552/ac4430"),
    ] {
        std::fs::write(
            docs.join(name),
            format!("# {name}\n\nA claim [@doi:{doi}].\n"),
        )
        .unwrap();
    }
    let check = |shard: Option<&str>| {
        let mut command = citeproof();
        command
            .env_remove("CITEPROOF_NO_RESOLVE")
            .arg("check")
            .arg(&docs)
            .args([
                "--format",
                "jsonl",
                "--exit-zero",
                "--index-complete",
                "--index",
            ])
            .arg(&index);
        if let Some(s) = shard {
            command.args(["--shard", s]);
        }
        ok(command.output().unwrap())
    };
    let whole = check(None);
    assert!(whole.contains("CP202") && whole.contains("b.md"), "{whole}");
    let joined: String = (1..=3).map(|i| check(Some(&format!("{i}/3")))).collect();
    assert_eq!(joined, whole);
}

#[test]
fn index_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let out = citeproof()
        .args(["index", "build"])
        .arg(dir.path().join("i"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--openalex"));
    let refs = dir.path().join("refs.txt");
    std::fs::write(&refs, REFS).unwrap();
    let out = citeproof()
        .arg("resolve")
        .arg(&refs)
        .arg("--index")
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("citeproof index build"));
    let out = citeproof()
        .arg("resolve")
        .arg(&refs)
        .arg("--index-complete")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs an index"));
}

#[test]
fn a_truncated_dump_file_keeps_its_records_and_the_others_are_imported() {
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("oa/updated_date=2024-01-01/part_000.gz");
    let text = std::fs::read_to_string(fixture("openalex_2024-01.jsonl")).unwrap();
    gzip(&part, &text.repeat(50));
    // Cut the compressed file: the gzip stream ends in the middle.
    let bytes = std::fs::read(&part).unwrap();
    std::fs::write(&part, &bytes[..bytes.len() * 3 / 4]).unwrap();
    let index = dir.path().join("index");
    let output = citeproof()
        .args(["index", "build"])
        .arg(&index)
        .arg("--openalex")
        .arg(dir.path().join("oa"))
        .arg("--dblp")
        .arg(fixture("dblp.xml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("part_000.gz") && stderr.contains("records kept"),
        "{stderr}"
    );
    let stats: Value = serde_json::from_str(&ok(citeproof()
        .args(["index", "stats", "--json"])
        .arg(&index)
        .output()
        .unwrap()))
    .unwrap();
    let records = |i: usize| stats["records"][i]["records"].as_u64().unwrap();
    assert!(
        records(0) > 0,
        "what was read before the cut is kept: {stats}"
    );
    assert_eq!(records(2), 6, "the DBLP file is still imported: {stats}");
    // Only the complete file is marked imported: a rerun reads the cut one again.
    assert_eq!(stats["imports"].as_array().unwrap().len(), 1, "{stats}");
}

/// `citeproof index check` of a folder: its text report and exit status.
fn index_check(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = citeproof()
        .args(["index", "check"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn index_check_passes_a_built_index_and_names_each_broken_invariant() {
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(dir.path());
    // The fixtures replace records (a newer partition), so the merge rules' removals
    // are checked too.
    let (code, out, err) = index_check(&[index.as_os_str()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.ends_with("the index is sound\n"), "{out}");
    assert!(!out.contains("FAIL") && !out.contains("note"), "{out}");
    let (code, by_flag, _) = index_check(&["--index".as_ref(), index.as_os_str()]);
    assert_eq!((code, by_flag), (Some(0), out.clone()));
    let by_env = citeproof()
        .args(["index", "check"])
        .env("CITEPROOF_INDEX", &index)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&by_env.stdout), out);

    // Each invariant broken once, by hand.
    let db = rusqlite::Connection::open(index.join("index.sqlite3")).unwrap();
    db.execute_batch(
        "UPDATE ids SET work = work + 1000
             WHERE (scheme, value) = (SELECT scheme, value FROM ids ORDER BY value LIMIT 1);
         DELETE FROM ids WHERE (scheme, value) =
             (SELECT scheme, value FROM ids ORDER BY value DESC LIMIT 1);
         INSERT INTO title_keys(key, work, doi) VALUES (12345, 999999, NULL);
         UPDATE records SET work = work + 1000 WHERE id = (SELECT MAX(id) FROM records WHERE title <> '');
         UPDATE meta SET value = '999' WHERE key = 'notices';",
    )
    .unwrap();
    drop(db);
    let (code, out, _) = index_check(&[index.as_os_str()]);
    assert_eq!(code, Some(1), "{out}");
    for broken in [
        "FAIL every identifier points at a work one of whose records carries it",
        "FAIL every record's identifiers are looked up",
        "FAIL every title key points at a work with records",
        "FAIL the counts of the last build are the tables' counts",
        "FAIL the title index holds each record with title words once, with its work",
        "1 naming another work",
        "notices 999 recorded",
        "the index is broken",
    ] {
        assert!(out.contains(broken), "{broken}: {out}");
    }
    assert!(out.contains("ok   SQLite's integrity check"), "{out}");

    // A damaged file: SQLite's own check fails (and nothing panics).
    let file = index.join("index.sqlite3");
    let mut bytes = std::fs::read(&file).unwrap();
    let len = bytes.len();
    bytes[4096..len].fill(0xff);
    std::fs::write(&file, bytes).unwrap();
    let (code, out, err) = index_check(&[index.as_os_str()]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL SQLite's integrity check"), "{out}");
    assert!(out.contains("the file is damaged"), "{out}");

    let (code, _, err) = index_check(&[dir.path().join("none").as_os_str()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no index here"), "{err}");
    let (code, _, err) = index_check(&[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("which index?"), "{err}");
}
