//! Crash safety, proven by killing the real binary: `index build` killed with SIGKILL
//! mid-import resumes and loses nothing it committed; a build on a full disk stops
//! with a clear error and resumes; a process killed while writing the SQLite cache
//! leaves it sound with every committed entry; `serve` killed under load restarts at
//! once on a sound cache with no half-written rows. (Four processes writing one
//! PostgreSQL cache and index at once: tests/postgres_writers.rs.)

mod bin_support;
mod crash_support;
mod serve_support;
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bin_support::BIN;
use crash_support::{corpus, integrity, kill_9, poll, record_keys, records_now};

/// Two corpus files: `a` (4,000 works, committed and marked imported when it ends)
/// and `b` (24,000: a commit after its first 16,000, then 8,000 more before it ends).
fn dumps(dir: &Path) -> (PathBuf, PathBuf) {
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&a, corpus("a", 0, 4_000)).unwrap();
    std::fs::write(&b, corpus("b", 0, 24_000)).unwrap();
    (a, b)
}

fn build_command(index: &Path, a: &Path, b: &Path) -> Command {
    let mut command = Command::new(BIN);
    bin_support::isolate(&mut command);
    command
        .args(["index", "build"])
        .arg(index)
        .arg("--corpus")
        .arg(a)
        .arg("--corpus")
        .arg(b);
    command
}

fn build_ok(index: &Path, a: &Path, b: &Path) -> String {
    let out = build_command(index, a, b).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// `citeproof index check` of an index folder: exit 0 and its report, which says
/// whether a build was left unfinished.
fn index_check(index: &Path) -> serde_json::Value {
    let out = Command::new(BIN)
        .args(["index", "check", "--json"])
        .arg(index)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    assert_eq!(report["sound"], true, "{report:#}");
    report
}

/// A finished build's index: SQLite's own check, the identifiers, title keys and
/// counts, and the title index naming exactly the records that have titles (none
/// lost, none left over from a transaction that never committed), all without a
/// problem.
fn assert_sound(index: &Path) {
    let report = index_check(index);
    assert!(report["unfinished_build"].is_null(), "{report:#}");
    let findings = report["findings"].as_array().unwrap();
    assert!(findings.len() >= 6, "{report:#}");
    for finding in findings {
        assert_eq!(finding["problems"], 0, "{report:#}");
    }
}

/// A killed build's index: sound, and known to be unfinished.
fn assert_sound_unfinished(index: &Path) {
    let report = index_check(index);
    assert!(report["unfinished_build"].is_string(), "{report:#}");
    let integrity = &report["findings"][0];
    assert_eq!(integrity["problems"], 0, "{report:#}");
}

/// The same index as a build that was never interrupted.
fn assert_complete(index: &Path, reference: &Path) {
    assert_sound(index);
    let keys = record_keys(index);
    assert_eq!(keys.len(), 28_000);
    assert_eq!(keys, record_keys(reference));
    let stats = |dir: &Path| {
        let out = Command::new(BIN)
            .args(["index", "stats", "--json"])
            .arg(dir)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["works"].clone()
    };
    assert_eq!(stats(index), stats(reference));
}

#[test]
fn a_killed_index_build_keeps_what_it_committed_and_the_next_build_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = dumps(dir.path());
    let reference = dir.path().join("reference");
    build_ok(&reference, &a, &b);

    let index = dir.path().join("index");
    let mut child = build_command(&index, &a, &b)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the commit in the middle of `b`, then kill the build before it ends.
    let mid_file = poll(600, || {
        records_now(&index) >= 20_000 || child.try_wait().unwrap().is_some()
    });
    assert!(mid_file, "the build never committed 20,000 records");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the build ended before it could be killed"
    );
    kill_9(&mut child);

    assert_sound_unfinished(&index);
    let committed = record_keys(&index);
    assert!(committed.len() >= 20_000, "{}", committed.len());
    let stderr = build_ok(&index, &a, &b);
    assert!(
        stderr.contains("imported 1 files (1 unchanged since the last build skipped)"),
        "`a` was committed as imported, `b` is read again: {stderr}"
    );
    let after = record_keys(&index);
    assert!(committed.is_subset(&after), "a committed record was lost");
    assert_complete(&index, &reference);
}

#[test]
fn a_full_disk_stops_the_build_with_a_clear_error_and_the_index_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = dumps(dir.path());
    let reference = dir.path().join("reference");
    build_ok(&reference, &a, &b);

    // A file-size limit stands in for a full disk: with SIGXFSZ ignored (as the shell
    // hands it on), a write past it fails with EFBIG, as one on a full disk fails with
    // ENOSPC. 2 MiB is well short of the finished index.
    let index = dir.path().join("index");
    let script = format!(
        "trap '' XFSZ; ulimit -f 4096; exec \"$0\" index build '{}' --corpus '{}' --corpus '{}'",
        index.display(),
        a.display(),
        b.display()
    );
    let mut command = Command::new("sh");
    bin_support::isolate(&mut command);
    let out = command.args(["-c", &script, BIN]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("the build of {} stopped", index.display()))
            && stderr.contains("is the disk full")
            && stderr.contains("run the same `citeproof index build` again to resume"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_sound_unfinished(&index);
    let committed = record_keys(&index);
    build_ok(&index, &a, &b);
    assert!(committed.is_subset(&record_keys(&index)));
    assert_complete(&index, &reference);
}

const CACHE_CHILD_DIR: &str = "CITEPROOF_TEST_CRASH_CACHE_DIR";
const BATCH: usize = 50;

fn entry_value(batch: usize, j: usize) -> serde_json::Value {
    serde_json::json!({"batch": batch, "j": j, "title": "x".repeat(300)})
}

/// Not a test of its own: the body of the process
/// `a_process_killed_while_writing_the_cache_leaves_it_sound` kills. It writes
/// batches of entries in one transaction each and says which batch committed.
#[test]
fn cache_writer_child() {
    let Ok(dir) = std::env::var(CACHE_CHILD_DIR) else {
        eprintln!("skipping: runs only as a child of the cache crash test");
        return;
    };
    use std::io::Write;
    let cache = citeproof::cache::Cache::open(Path::new(&dir)).unwrap();
    let mut out = std::io::stdout();
    for batch in 0.. {
        let entries: Vec<(String, bool, serde_json::Value)> = (0..BATCH)
            .map(|j| (format!("k{batch}/{j}"), j % 4 != 0, entry_value(batch, j)))
            .collect();
        cache.put_many("crossref", &entries).unwrap();
        writeln!(out, "committed {batch}").unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn a_process_killed_while_writing_the_cache_leaves_it_sound_with_every_commit() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "cache_writer_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CACHE_CHILD_DIR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut last = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("committed ") {
            last = Some(n.parse::<usize>().unwrap());
            if last >= Some(200) {
                break;
            }
        }
    }
    // Killed in the middle of writing (it never stops on its own).
    kill_9(&mut child);
    let last = last.expect("the writer committed batches");
    let db = dir.path().join(citeproof::cache::CACHE_FILE);
    assert_eq!(integrity(&db), "ok");
    let cache = citeproof::cache::Cache::open(dir.path()).unwrap();
    for batch in 0..=last {
        for j in 0..BATCH {
            let entry = cache
                .get("crossref", &format!("k{batch}/{j}"))
                .unwrap()
                .unwrap_or_else(|| panic!("committed entry k{batch}/{j} lost"));
            assert_eq!(entry.found, j % 4 != 0);
            assert_eq!(entry.value, entry_value(batch, j));
        }
    }
    // Every row is a whole batch's: a transaction is all or nothing.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows as usize % BATCH, 0, "{rows} rows");
    assert!(rows as usize >= (last + 1) * BATCH);
}

/// The cache's rows, each parsed: a half-written row would not be JSON.
fn assert_whole_rows(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT key, value FROM entries").unwrap();
    let rows: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!rows.is_empty(), "the load wrote the cache");
    for (key, value) in rows {
        serde_json::from_str::<serde_json::Value>(&value)
            .unwrap_or_else(|e| panic!("row {key} is not whole JSON ({e}): {value}"));
    }
}

#[test]
fn serve_killed_under_load_restarts_at_once_on_a_sound_cache() {
    use serde_json::json;
    use serve_support::{Server, request, world_env};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use support::{MockConfig, MockWorld, Source};

    const DOI_REFERENCE: &str = "Oliveira AL. A blueprint for conscious machines. PNAS. 2022. \
                                 doi:10.1073/pnas.2205971119";
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let env = world_env(world.env());
    let server = Server::start(dir.path(), &env, &[]);
    let first = server.post("/v1/resolve", &json!({"references": [DOI_REFERENCE]}));
    assert_eq!(
        first.json()["results"][0]["status"],
        "verified",
        "{}",
        first.body
    );

    // Eight clients resolving distinct references (every one a cache write).
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..8)
        .map(|c| {
            let (url, stop, answered) = (
                format!("{}/v1/resolve", server.base),
                stop.clone(),
                answered.clone(),
            );
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let body = json!({"references": [
                        format!("Doe J. A study numbered {c}-{n}. 2021. doi:10.9999/load.{c}.{n}")
                    ]});
                    let ok = request(
                        &url,
                        "POST",
                        Some(body.to_string().into_bytes()),
                        &[("content-type", "application/json")],
                    );
                    if ok.is_ok_and(|r| r.status == 200) {
                        answered.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    assert!(
        poll(120, || answered.load(Ordering::Relaxed) >= 40),
        "the load was never answered"
    );
    let pid = server.pid();
    let status = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
    drop(server);

    let db = dir.path().join(".cache").join(citeproof::cache::CACHE_FILE);
    assert_eq!(integrity(&db), "ok");
    assert_whole_rows(&db);
    // The restarted server answers (Server::start polls /healthz with a deadline) and
    // serves what was cached before the kill without asking the sources again.
    let before = world.request_count(Source::Crossref);
    let again = Server::start(dir.path(), &env, &[]);
    let r = again.post("/v1/resolve", &json!({"references": [DOI_REFERENCE]}));
    assert_eq!(r.json()["results"][0]["status"], "verified", "{}", r.body);
    assert_eq!(
        world.request_count(Source::Crossref),
        before,
        "answered from the cache"
    );
    let metrics = again.get("/metrics").unwrap().body;
    let hits: f64 = metrics
        .lines()
        .filter(|l| l.starts_with("citeproof_cache_lookups_total") && l.contains("\"hit\""))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert!(hits >= 1.0, "{metrics}");
}
