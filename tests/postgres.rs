//! The PostgreSQL backend against a real server started here (tests/pg_server): the
//! index built and read through `postgres://…` gives the same results as the SQLite
//! engine; four processes writing the resolution cache and four builds writing the
//! index, all at once, lose no update; the schema is migrated by citeproof and a newer
//! schema is refused; `citeproof index check` passes the index the builds wrote and
//! names a broken word count.

mod bin_support;
mod crash_support;
mod index_support;
mod pg_server;

use std::path::Path;

use index_support::{fixture, gzip};
use std::process::Output;

use bin_support::citeproof;
use citeproof::cache::{Cache, CacheConfig};
use pg_server::PgServer;
use serde_json::{Value, json};

fn ok(output: Output) -> (String, String) {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        output.status.success(),
        "exit {:?}: {stderr}",
        output.status
    );
    (String::from_utf8(output.stdout).unwrap(), stderr)
}

/// Write an OpenAlex partition of the fixtures into the dumps folder.
fn partition(dumps: &Path, date: &str) {
    let name = if date == "2024-01-01" {
        "openalex_2024-01.jsonl"
    } else {
        "openalex_2024-06.jsonl"
    };
    gzip(
        &dumps.join(format!(
            "openalex/data/works/updated_date={date}/part_000.gz"
        )),
        &std::fs::read_to_string(fixture(name)).unwrap(),
    );
}

fn build(index: &str, dumps: &Path) -> String {
    ok(citeproof()
        .args(["index", "build", index, "--openalex"])
        .arg(dumps.join("openalex"))
        .arg("--crossref")
        .arg(fixture("crossref.json"))
        .arg("--dblp")
        .arg(fixture("dblp.xml"))
        .output()
        .unwrap())
    .1
}

const REFS: &str = "\
He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. CVPR 2016.
Mattioli F, Porcaro C, Baldassarre G. A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface. J Neural Eng. 2021.
Smith J, Doe A. Quantum entanglement of bibliographic references in sparse lattices. Nature Physics. 2020.
Vaswani A, Shazeer N, Parmar N, et al. Attention is all you need. arXiv:1706.03762. 2017.
Hochreiter S, Schmidhuber J. Long short-term memory. Neural Computation. 2005;9(8):1735-1780. doi:10.1162/neco.1997.9.8.1735
Goodfellow I, et al. Generative adversarial nets. NeurIPS 2014.
Doe J. A study of nothing in particular. doi:10.5555/does-not-exist
";

/// What a resolution says, without timings.
fn outcomes(jsonl: &str) -> Vec<Value> {
    jsonl
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            json!([
                v["status"],
                v["match"]["title"],
                v["match"]["source"],
                v["fields_wrong"]
            ])
        })
        .collect()
}

fn resolve(refs: &Path, index: &str) -> Vec<Value> {
    let (out, _) = ok(citeproof()
        .arg("resolve")
        .arg(refs)
        .args([
            "--format",
            "jsonl",
            "--no-cache",
            "--index-complete",
            "--index",
            index,
        ])
        .output()
        .unwrap());
    outcomes(&out)
}

#[test]
fn index_in_postgres_resolves_as_the_embedded_engine() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = server.database("index_test");
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("dumps");
    partition(&dumps, "2024-01-01");
    let sqlite = dir.path().join("index");
    build(sqlite.to_str().unwrap(), &dumps);
    let stderr = build(&url, &dumps);
    assert!(stderr.contains("imported 3 files"), "{stderr}");
    // A newer partition: only it is read, and the changed work is replaced, as in SQLite.
    partition(&dumps, "2024-06-01");
    build(sqlite.to_str().unwrap(), &dumps);
    let stderr = build(&url, &dumps);
    assert!(
        stderr.contains("imported 1 files (3 unchanged") && stderr.contains("1 replaced"),
        "{stderr}"
    );

    let stats = |index: &str| -> Value {
        let (out, _) = ok(citeproof()
            .args(["index", "stats", "--json", index])
            .output()
            .unwrap());
        serde_json::from_str(&out).unwrap()
    };
    let (pg, embedded) = (stats(&url), stats(sqlite.to_str().unwrap()));
    assert_eq!(pg["works"], 8);
    for key in ["works", "records", "notices"] {
        assert_eq!(pg[key], embedded[key], "{key}");
    }
    assert!(
        pg["engine"].as_str().unwrap().contains("title-word"),
        "{pg}"
    );
    assert!(!pg["location"].as_str().unwrap().is_empty());

    let refs = dir.path().join("refs.txt");
    std::fs::write(&refs, REFS).unwrap();
    let from_pg = resolve(&refs, &url);
    let statuses: Vec<&Value> = from_pg.iter().map(|o| &o[0]).collect();
    assert_eq!(
        statuses,
        [
            "verified",
            "retracted",
            "not_found",
            "verified",
            "miscited",
            "verified",
            "not_found"
        ],
        "{from_pg:?}"
    );
    assert_eq!(from_pg, resolve(&refs, sqlite.to_str().unwrap()));
    assert_same_tables(&sqlite, &url);
    assert_same_conjunctive_titles(&sqlite, &url);

    // A database of schema version 1 (trigram titles) is migrated when opened: the
    // word counts are rebuilt from the records and titles are found as before.
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute(
            "DROP TABLE citeproof_index_words;
             DROP INDEX citeproof_index_records_title_words;
             CREATE INDEX citeproof_index_records_words
                 ON citeproof_index_records USING gin (words gin_trgm_ops);
             DELETE FROM citeproof_migrations WHERE component = 'index' AND version = 2",
        )
        .unwrap();
    assert_eq!(resolve(&refs, &url), from_pg);
    assert_same_tables(&sqlite, &url);
}

/// Both engines' conjunctive title search (titles carrying all of the rarest words)
/// finds the same works for every title of the index, whole and with its last word
/// dropped, and a title always finds its own work.
fn assert_same_conjunctive_titles(sqlite: &Path, url: &str) {
    use citeproof::resolve::index_titles::title_words;
    let embedded = citeproof::index::open(sqlite).unwrap();
    let pg = citeproof::index::open(Path::new(url)).unwrap();
    let db = rusqlite::Connection::open(sqlite.join("index.sqlite3")).unwrap();
    let titles = sqlite_rows(&db, "SELECT title FROM records");
    assert!(titles.len() >= 8, "{titles:?}");
    let works = |store: &dyn citeproof::index::store::WorkStore, words: &[String]| {
        let mut works: Vec<i64> = store
            .title_hits_with_all(words, 32)
            .unwrap()
            .iter()
            .map(|h| h.work)
            .collect();
        works.sort_unstable();
        works.dedup();
        works
    };
    for title in &titles {
        let title = title.trim_start_matches("Some(\"").trim_end_matches("\")");
        let mut words = title_words(title);
        let whole = works(pg.as_ref(), &words);
        assert!(!whole.is_empty(), "{title}");
        assert_eq!(whole, works(embedded.as_ref(), &words), "{title}");
        words.pop();
        assert_eq!(
            works(pg.as_ref(), &words),
            works(embedded.as_ref(), &words),
            "{title}"
        );
    }
}

/// Rows of a table as text, sorted (work ids included: both engines number works in
/// the order they are created).
fn sqlite_rows(db: &rusqlite::Connection, sql: &str) -> Vec<String> {
    let mut stmt = db.prepare(sql).unwrap();
    let columns = stmt.column_count();
    let mut rows: Vec<String> = stmt
        .query_map([], |r| {
            Ok((0..columns)
                .map(|i| format!("{:?}", r.get::<_, Option<String>>(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows.sort();
    rows
}

fn pg_rows(client: &mut postgres::Client, sql: &str) -> Vec<String> {
    let mut rows: Vec<String> = client
        .query(sql, &[])
        .unwrap()
        .iter()
        .map(|r| {
            (0..r.len())
                .map(|i| {
                    let value: Option<String> = r.get(i);
                    format!("{value:?}")
                })
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    rows.sort();
    rows
}

/// The PostgreSQL index holds the same records, works, identifiers, title keys and
/// notices as the SQLite one, and its title-word counts match its records.
fn assert_same_tables(sqlite: &Path, url: &str) {
    let db = rusqlite::Connection::open(sqlite.join("index.sqlite3")).unwrap();
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    for (table, columns) in [
        (
            "records",
            "source, key, work, updated, title, doi, arxiv, pmid, pmcid, flags",
        ),
        ("ids", "scheme, value, work"),
        ("title_keys", "key, work, doi"),
        ("notices", "doi, kind"),
    ] {
        let text_columns: Vec<String> = columns
            .split(", ")
            .map(|c| format!("CAST({c} AS TEXT)"))
            .collect();
        let select = |table: &str| format!("SELECT {} FROM {table}", text_columns.join(", "));
        let from_sqlite = sqlite_rows(&db, &select(table));
        let from_pg = pg_rows(&mut client, &select(&format!("citeproof_index_{table}")));
        assert_eq!(from_pg, from_sqlite, "{table}");
    }
    let counted = "SELECT word, CAST(COUNT(DISTINCT id) AS TEXT) FROM citeproof_index_records, \
         unnest(string_to_array(words, ' ')) AS word WHERE word <> '' GROUP BY word";
    let kept = "SELECT word, CAST(records AS TEXT) FROM citeproof_index_words WHERE records <> 0";
    let expected = pg_rows(&mut client, counted);
    assert!(!expected.is_empty());
    assert_eq!(pg_rows(&mut client, kept), expected);
}

/// One dump file in which a record is replaced by a newer version, then met again in
/// its older version, and records join works created earlier in the same file: the
/// batched writer applies the rules record after record, as SQLite does.
#[test]
fn a_batch_merges_and_replaces_within_itself_as_the_embedded_engine() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = server.database("batch_test");
    let dir = tempfile::tempdir().unwrap();
    let dumps = dir.path().join("dumps");
    let old = std::fs::read_to_string(fixture("openalex_2024-01.jsonl")).unwrap();
    let new = std::fs::read_to_string(fixture("openalex_2024-06.jsonl")).unwrap();
    gzip(
        &dumps.join("openalex/data/works/updated_date=2024-06-01/part_000.gz"),
        &format!(
            "{}\n{}\n{}\n",
            old.trim_end(),
            new.trim_end(),
            old.trim_end()
        ),
    );
    let sqlite = dir.path().join("index");
    let embedded = build(sqlite.to_str().unwrap(), &dumps);
    let from_pg = build(&url, &dumps);
    let counts = |stderr: &str| {
        stderr
            .lines()
            .find(|l| l.contains("replaced"))
            .and_then(|l| l.find(" kept").map(|end| l[..end].to_string()))
            .unwrap_or_default()
    };
    assert!(
        counts(&from_pg).contains(" replaced, ") && !counts(&from_pg).contains(" 0 replaced"),
        "{from_pg}"
    );
    assert_eq!(counts(&from_pg), counts(&embedded));
    assert_same_tables(&sqlite, &url);
}

#[test]
fn a_postgres_index_that_cannot_be_reached_is_a_clear_error() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = format!(
        "postgres://citeproof:secret@127.0.0.1:{}/missing_db",
        server.port
    );
    let out = citeproof().args(["index", "stats", &url]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("missing_db"), "{stderr}");
    assert!(
        !stderr.contains("secret"),
        "the password is hidden: {stderr}"
    );
}

const CHILD_URL: &str = "CITEPROOF_TEST_PG_CACHE_URL";
const CHILD_ID: &str = "CITEPROOF_TEST_PG_CACHE_WRITER";
const KEYS: usize = 400;

/// Not a test of its own: the body of a writer process spawned by
/// `four_processes_write_the_cache_and_the_index_at_once_and_lose_nothing`.
#[test]
fn cache_writer_process() {
    let (Ok(url), Ok(id)) = (std::env::var(CHILD_URL), std::env::var(CHILD_ID)) else {
        eprintln!("skipping: runs only as a child of the shared-cache test");
        return;
    };
    let cache = Cache::open(Path::new(&url)).unwrap();
    // Every writer writes the shared keys, in batches, interleaved with its own.
    for start in (0..KEYS).step_by(20) {
        let batch: Vec<(String, bool, Value)> = (start..start + 20)
            .flat_map(|i| {
                [
                    (format!("shared/{i}"), true, json!({"i": i})),
                    (
                        format!("own-{id}/{i}"),
                        i % 3 != 0,
                        json!({"writer": id, "i": i}),
                    ),
                ]
            })
            .collect();
        cache.put_many("crossref", &batch).unwrap();
    }
}

/// Builds of `citeproof index build` writing `url` at once: each imports 300 works of
/// its own and the 50 works every one of them holds.
fn concurrent_builds(dir: &Path, url: &str) -> Vec<std::process::Child> {
    ["a", "b", "c", "d"]
        .into_iter()
        .map(|id| {
            let file = dir.join(format!("part-{id}.jsonl"));
            let text = crash_support::corpus(id, 0, 300) + &crash_support::corpus("shared", 0, 50);
            std::fs::write(&file, text).unwrap();
            citeproof()
                .args(["index", "build", url, "--corpus"])
                .arg(&file)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect()
}

#[test]
fn four_processes_write_the_cache_and_the_index_at_once_and_lose_nothing() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = server.database("cache_test");
    let cache = Cache::open(Path::new(&url)).unwrap();
    assert_eq!(cache.journal_mode().unwrap(), "postgresql");
    cache
        .put(
            "s2",
            "arxiv/1706.03762",
            true,
            &json!({"title": "Attention"}),
        )
        .unwrap();
    let entry = cache.get("s2", "arxiv/1706.03762").unwrap().unwrap();
    assert!(entry.found);
    assert_eq!(entry.value["title"], "Attention");

    let dir = tempfile::tempdir().unwrap();
    let index_url = server.database("index_writers");
    let exe = std::env::current_exe().unwrap();
    let writers = ["a", "b", "c", "d"];
    let children: Vec<_> = writers
        .into_iter()
        .map(|id| {
            std::process::Command::new(&exe)
                .args(["--exact", "cache_writer_process", "--nocapture"])
                .env(CHILD_URL, &url)
                .env(CHILD_ID, id)
                .spawn()
                .unwrap()
        })
        .collect();
    let builds = concurrent_builds(dir.path(), &index_url);
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    for child in builds {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
    }
    // Every record of every build, the shared works once each.
    let (stats, _) = ok(citeproof()
        .args(["index", "stats", "--json", &index_url])
        .output()
        .unwrap());
    let stats: Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(stats["works"], 4 * 300 + 50, "{stats}");
    let mut client = postgres::Client::connect(&index_url, postgres::NoTls).unwrap();
    let records: i64 = client
        .query_one("SELECT COUNT(*) FROM citeproof_index_records", &[])
        .unwrap()
        .get(0);
    assert_eq!(records, 4 * 300 + 50);
    assert_index_check(&index_url, &mut client);

    let stats = cache.stats().unwrap();
    let crossref = stats
        .namespaces
        .iter()
        .find(|n| n.namespace == "crossref")
        .unwrap();
    assert_eq!(crossref.entries as usize, 5 * KEYS, "{stats:?}");
    assert_eq!(crossref.not_found as usize, 4 * KEYS.div_ceil(3));
    for id in writers {
        for i in [0, 1, KEYS / 2, KEYS - 1] {
            let entry = cache
                .get("crossref", &format!("own-{id}/{i}"))
                .unwrap()
                .unwrap();
            assert_eq!(entry.value, json!({"writer": id, "i": i}));
        }
    }

    // The command line reaches the same store through --cache-dir.
    let (out, _) = ok(citeproof()
        .args(["cache", "stats", "--json", "--cache-dir", &url])
        .output()
        .unwrap());
    let cli: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(cli["namespaces"].as_array().unwrap().len(), 2, "{cli}");
    assert_eq!(cache.clear(Some("crossref")).unwrap(), 5 * KEYS);
    assert!(cache.get("crossref", "shared/0").unwrap().is_none());
    assert!(cache.get("s2", "arxiv/1706.03762").unwrap().is_some());
}

/// `citeproof index check` of the index that four builds wrote at once: sound, every
/// invariant checked; then one word's count broken by hand, which it names.
fn assert_index_check(url: &str, client: &mut postgres::Client) {
    let (out, _) = ok(citeproof()
        .args(["index", "check", "--json", url])
        .output()
        .unwrap());
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["sound"], true, "{report:#}");
    assert_eq!(report["engine"], "postgres");
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 7, "{report:#}");
    assert!(findings.iter().all(|f| f["problems"] == 0), "{report:#}");
    client
        .execute(
            "UPDATE citeproof_index_words SET records = records + 1 \
             WHERE word = (SELECT MIN(word) FROM citeproof_index_words)",
            &[],
        )
        .unwrap();
    let out = citeproof().args(["index", "check", url]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL the words table counts the records carrying each title word"),
        "{text}"
    );
}

#[test]
fn schema_is_migrated_once_and_a_newer_one_is_refused() {
    let Some(server) = PgServer::start() else {
        return;
    };
    let url = server.database("migrate_test");
    let clock = citeproof::cache::system_clock();
    drop(Cache::open_with(Path::new(&url), CacheConfig::default(), clock.clone()).unwrap());
    drop(Cache::open_with(Path::new(&url), CacheConfig::default(), clock.clone()).unwrap());
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let versions: Vec<i32> = client
        .query(
            "SELECT version FROM citeproof_migrations WHERE component = 'cache'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, [1]);
    client
        .execute(
            "INSERT INTO citeproof_migrations(component, version) VALUES ('cache', 99)",
            &[],
        )
        .unwrap();
    let err = Cache::open_with(Path::new(&url), CacheConfig::default(), clock)
        .unwrap_err()
        .to_string();
    assert!(err.contains("newer than this citeproof"), "{err}");
}
