//! What the crash tests share: generated corpora for `index build`, killing a process
//! with SIGKILL, and reading an index or cache (SQLite's `PRAGMA integrity_check`, the
//! records' keys); an index's own check is `citeproof index check`.

#![allow(dead_code)] // Each test file uses a part.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::json;

/// `count` works in the corpus (world) schema, numbered from `first`, with DOIs
/// `10.5555/{prefix}.{n}` and distinct titles.
pub fn corpus(prefix: &str, first: usize, count: usize) -> String {
    const WORDS: [&str; 12] = [
        "lattice", "entropy", "cortex", "protein", "glacier", "network", "quantum", "soil",
        "enzyme", "orbit", "market", "language",
    ];
    let mut out = String::new();
    for n in first..first + count {
        let title = format!(
            "On the {} of {} in {} systems, study {prefix} {n}",
            WORDS[n % 12],
            WORDS[(n / 12) % 12],
            WORDS[(n / 144) % 12]
        );
        let work = json!({
            "id": format!("{prefix}{n}"), "doi": format!("10.5555/{prefix}.{n}"),
            "title": title, "authors": [{"given": "A.", "family": format!("Author{}", n % 97)}],
            "year": 1990 + (n % 35), "venue": "Journal of Tests", "type": "article",
            "abstract": null, "is_retracted": false,
        });
        out.push_str(&work.to_string());
        out.push('\n');
    }
    out
}

/// SIGKILL: the process gets no chance to clean up.
pub fn kill_9(child: &mut Child) {
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("wait");
    assert!(!status.success(), "killed, not finished: {status:?}");
}

/// Poll `done` every 20 ms until it holds; false when `seconds` pass first.
pub fn poll(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// `PRAGMA integrity_check` of an SQLite file: "ok" when sound.
pub fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("open the database");
    conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
        .expect("integrity_check")
}

/// The records' (source, key) in an index folder's SQLite file.
pub fn record_keys(index: &Path) -> BTreeSet<String> {
    let conn = rusqlite::Connection::open_with_flags(
        index.join("index.sqlite3"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the index");
    let mut stmt = conn.prepare("SELECT key FROM records").expect("query");
    stmt.query_map([], |r| r.get::<_, String>(0))
        .expect("rows")
        .map(|k| k.expect("key"))
        .collect()
}

/// How many records an index's SQLite file holds now (0 while it has none, or no table).
pub fn records_now(index: &Path) -> usize {
    let Ok(conn) = rusqlite::Connection::open_with_flags(
        index.join("index.sqlite3"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    ) else {
        return 0;
    };
    conn.query_row("SELECT COUNT(*) FROM records", [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| n as usize)
}
