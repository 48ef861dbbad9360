use super::*;

fn line(id: &str, failing: bool, hallucinated: usize) -> SubmissionLine {
    let mut line = SubmissionLine::failed(id, &format!("subs/{id}"), String::new());
    line.status = Status::Ok;
    line.error = None;
    line.references = 10;
    line.findings = hallucinated + 1;
    line.failing = failing;
    line.policy = Some("iclr-2026".into());
    line.counts = Counts(vec![
        ("hallucinated".into(), hallucinated),
        ("unclassed".into(), 1),
    ]);
    line
}

/// An output folder of shard `shard` holding `lines` (no summary when `None`).
fn shard_dir(
    root: &Path,
    name: &str,
    shard: &str,
    ids: &[&str],
    lines: Option<&[SubmissionLine]>,
) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join(REPORTS_DIR)).unwrap();
    Manifest {
        shard: Some(shard.into()),
        batch_submissions: 4,
        settings: "same".into(),
        submissions: ids.iter().map(|s| s.to_string()).collect(),
    }
    .write(&dir)
    .unwrap();
    if let Some(lines) = lines {
        files::write_summaries(&dir, lines).unwrap();
        for l in lines {
            std::fs::write(
                files::report_path(&dir, &l.id, "json"),
                format!("\"{}\"", l.id),
            )
            .unwrap();
        }
    }
    dir
}

#[test]
fn shards_merge_into_the_whole_batch_with_totals_and_reports() {
    let root = tempfile::tempdir().unwrap();
    let (a, b, c, d) = (
        line("a", true, 1),
        line("b", false, 0),
        line("c", false, 0),
        line("d", true, 2),
    );
    // Given out of order: the merge is by id.
    let two = shard_dir(
        root.path(),
        "two",
        "2/2",
        &["c", "d"],
        Some(&[c.clone(), d.clone()]),
    );
    let one = shard_dir(
        root.path(),
        "one",
        "1/2",
        &["a", "b"],
        Some(&[a.clone(), b.clone()]),
    );
    let merged = merge(&[two, one]).unwrap();
    assert_eq!(merged.lines, vec![a, b, c, d]);
    let t = &merged.totals;
    assert!(t.complete, "{t:?}");
    assert_eq!(
        (t.shards, t.submissions, t.checked, t.failing),
        (2, 4, 4, 2)
    );
    assert_eq!((t.references, t.findings), (40, 7));
    assert_eq!(
        t.counts,
        Counts(vec![("hallucinated".into(), 3), ("unclassed".into(), 4)])
    );
    assert_eq!(t.policy.as_deref(), Some("iclr-2026"));

    let out = root.path().join("merged");
    merged.write(&out).unwrap();
    let summary = std::fs::read_to_string(out.join(SUMMARY_JSONL)).unwrap();
    assert_eq!(summary.lines().count(), 4);
    assert_eq!(
        std::fs::read_to_string(files::report_path(&out, "d", "json")).unwrap(),
        "\"d\""
    );
    let totals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(TOTALS_FILE)).unwrap()).unwrap();
    assert_eq!(totals["complete"], true);
    assert_eq!(totals["counts"]["hallucinated"], 3);
    // A merged folder is a whole batch: it merges again, alone, to itself.
    let again = merge(&[out]).unwrap();
    assert!(again.totals.complete, "{:?}", again.totals);
    assert_eq!(again.lines, merged.lines);
}

#[test]
fn missing_duplicate_and_unfinished_shards_are_named() {
    let root = tempfile::tempdir().unwrap();
    let one = shard_dir(
        root.path(),
        "one",
        "1/3",
        &["a"],
        Some(&[line("a", false, 0)]),
    );
    let again = shard_dir(
        root.path(),
        "again",
        "1/3",
        &["a"],
        Some(&[line("a", false, 0)]),
    );
    let three = shard_dir(root.path(), "three", "3/3", &["c", "d"], None);
    let merged = merge(&[one, again, three.clone()]).unwrap();
    let t = &merged.totals;
    assert!(!t.complete);
    assert_eq!(t.missing_shards, ["2/3"]);
    assert_eq!(t.duplicate_shards, ["1/3"]);
    assert_eq!(t.duplicate_submissions, ["a"]);
    assert_eq!(t.unfinished, [three.display().to_string()]);
    assert_eq!(merged.lines.len(), 1, "a duplicate is kept once");
}

#[test]
fn a_summary_that_lacks_a_submission_or_shards_of_other_runs_are_reported() {
    let root = tempfile::tempdir().unwrap();
    let one = shard_dir(
        root.path(),
        "one",
        "1/2",
        &["a", "b"],
        Some(&[line("a", false, 0)]),
    );
    let two = shard_dir(
        root.path(),
        "two",
        "2/2",
        &["c", "d"],
        Some(&[line("c", false, 0), line("d", false, 0)]),
    );
    let mut other = Manifest::read(&two).unwrap();
    other.settings = "different".into();
    other.write(&two).unwrap();
    let merged = merge(&[one, two.clone()]).unwrap();
    let t = &merged.totals;
    assert!(!t.complete);
    assert_eq!(t.missing_submissions, ["b"]);
    assert_eq!(t.mismatches.len(), 1, "{:?}", t.mismatches);
    assert!(
        t.mismatches[0].contains(&two.display().to_string()),
        "{:?}",
        t.mismatches
    );

    let err = merge(&[root.path().join("nowhere")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("batch.json"), "{err}");
    std::fs::write(two.join(SUMMARY_JSONL), "{not json\n").unwrap();
    let err = merge(&[two]).unwrap_err().to_string();
    assert!(
        err.contains("summary.jsonl") && err.contains("line 1"),
        "{err}"
    );
}
