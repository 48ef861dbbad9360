//! The SQLite cache: lifetimes under an injected clock, version invalidation, recovery
//! from a broken file, WAL mode, sharing between connections, stats and clearing.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use citeproof::cache::{CACHE_FILE, Cache, CacheConfig, Cached, Clock, default_dir_from};
use citeproof::model::{Person, Work};
use serde_json::json;

const DAY: i64 = 24 * 3600;

fn clock_at(start: i64) -> (Arc<AtomicI64>, Clock) {
    let now = Arc::new(AtomicI64::new(start));
    let reader = now.clone();
    (now, Arc::new(move || reader.load(Ordering::SeqCst)))
}

fn open(dir: &Path, config: CacheConfig, clock: Clock) -> Cache {
    Cache::open_with(dir, config, clock).expect("open cache")
}

#[test]
fn found_lives_thirty_days_and_not_found_one_day() {
    let dir = tempfile::tempdir().unwrap();
    let (now, clock) = clock_at(1_700_000_000);
    let cache = open(dir.path(), CacheConfig::default(), clock);
    cache
        .put("crossref", "doi/10.1000/a", true, &json!({"title": "A"}))
        .unwrap();
    cache
        .put("crossref", "doi/10.1000/b", false, &json!(null))
        .unwrap();

    now.fetch_add(DAY - 1, Ordering::SeqCst);
    assert!(
        cache
            .get("crossref", "doi/10.1000/a")
            .unwrap()
            .unwrap()
            .found
    );
    assert!(
        !cache
            .get("crossref", "doi/10.1000/b")
            .unwrap()
            .unwrap()
            .found
    );

    now.fetch_add(1, Ordering::SeqCst);
    assert!(
        cache.get("crossref", "doi/10.1000/b").unwrap().is_none(),
        "not-found expired after a day"
    );
    assert!(cache.get("crossref", "doi/10.1000/a").unwrap().is_some());

    now.fetch_add(29 * DAY - 1, Ordering::SeqCst);
    assert_eq!(
        cache
            .get("crossref", "doi/10.1000/a")
            .unwrap()
            .unwrap()
            .value,
        json!({"title": "A"})
    );
    now.fetch_add(1, Ordering::SeqCst);
    assert!(
        cache.get("crossref", "doi/10.1000/a").unwrap().is_none(),
        "found expired after 30 days"
    );
}

#[test]
fn lifetimes_are_configurable() {
    let dir = tempfile::tempdir().unwrap();
    let (now, clock) = clock_at(0);
    let config = CacheConfig {
        found_ttl: Duration::from_secs(10),
        not_found_ttl: Duration::from_secs(5),
        ..CacheConfig::default()
    };
    let cache = open(dir.path(), config, clock);
    cache.put("s2", "a", true, &json!(1)).unwrap();
    cache.put("s2", "b", false, &json!(null)).unwrap();
    now.store(5, Ordering::SeqCst);
    assert!(cache.get("s2", "a").unwrap().is_some());
    assert!(cache.get("s2", "b").unwrap().is_none());
    now.store(10, Ordering::SeqCst);
    assert!(cache.get("s2", "a").unwrap().is_none());
    let stats = cache.stats().unwrap();
    assert_eq!(
        (stats.namespaces[0].entries, stats.namespaces[0].stale),
        (0, 2)
    );
    assert_eq!(cache.purge().unwrap(), 2);
}

#[test]
fn failures_live_fifteen_minutes_and_not_at_all_when_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let (now, clock) = clock_at(1_000);
    let cache = open(dir.path(), CacheConfig::default(), clock.clone());
    cache
        .put_failures("crossref", &[("doi/10.1000/a".into(), "HTTP 503".into())])
        .unwrap();
    let entry = cache.get("crossref", "doi/10.1000/a").unwrap().unwrap();
    assert!(entry.failed && !entry.found, "{entry:?}");
    assert_eq!(
        cache.get_as::<Work>("crossref", "doi/10.1000/a").unwrap(),
        Some(Cached::Failed("HTTP 503".into()))
    );
    let stats = cache.stats().unwrap();
    assert_eq!(
        (stats.namespaces[0].failed, stats.namespaces[0].entries),
        (1, 1)
    );
    now.fetch_add(15 * 60 - 1, Ordering::SeqCst);
    assert!(cache.get("crossref", "doi/10.1000/a").unwrap().is_some());
    now.fetch_add(1, Ordering::SeqCst);
    assert!(
        cache.get("crossref", "doi/10.1000/a").unwrap().is_none(),
        "a failure is asked again after fifteen minutes"
    );
    assert_eq!(cache.purge().unwrap(), 1);
    // A definite answer replaces a remembered failure.
    cache
        .put_as::<Work>("crossref", "doi/10.1000/b", &Cached::Failed("reset".into()))
        .unwrap();
    cache
        .put_as::<Work>("crossref", "doi/10.1000/b", &Cached::NotFound)
        .unwrap();
    assert_eq!(
        cache.get_as::<Work>("crossref", "doi/10.1000/b").unwrap(),
        Some(Cached::NotFound)
    );
    // A lifetime of zero (`--retry-unverified`) neither reads nor writes failures.
    let retry = open(
        dir.path(),
        CacheConfig {
            failed_ttl: Duration::ZERO,
            ..CacheConfig::default()
        },
        clock,
    );
    cache
        .put_failures("s2", &[("title:x".into(), "timed out".into())])
        .unwrap();
    assert!(retry.get("s2", "title:x").unwrap().is_none());
    retry
        .put_failures("s2", &[("title:y".into(), "timed out".into())])
        .unwrap();
    assert!(cache.get("s2", "title:y").unwrap().is_none());
}

#[test]
fn a_logic_version_bump_invalidates_old_entries() {
    let dir = tempfile::tempdir().unwrap();
    let (_, clock) = clock_at(1_000);
    let v1 = CacheConfig {
        logic_version: 1,
        ..CacheConfig::default()
    };
    let old = open(dir.path(), v1.clone(), clock.clone());
    old.put("openalex", "doi/10.1000/x", true, &json!({"t": 1}))
        .unwrap();
    drop(old);

    let v2 = CacheConfig {
        logic_version: 2,
        ..CacheConfig::default()
    };
    let new = open(dir.path(), v2, clock.clone());
    assert!(new.get("openalex", "doi/10.1000/x").unwrap().is_none());
    assert_eq!(new.stats().unwrap().namespaces[0].stale, 1);
    new.put("openalex", "doi/10.1000/x", true, &json!({"t": 2}))
        .unwrap();
    assert_eq!(
        new.get("openalex", "doi/10.1000/x").unwrap().unwrap().value,
        json!({"t": 2})
    );
    drop(new);
    // And the old version no longer sees the new entry.
    let old_again = open(dir.path(), v1, clock);
    assert!(
        old_again
            .get("openalex", "doi/10.1000/x")
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_schema_change_recreates_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    cache.put("arxiv", "1706.03762", true, &json!({})).unwrap();
    drop(cache);
    let conn = rusqlite::Connection::open(dir.path().join(CACHE_FILE)).unwrap();
    conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema'", [])
        .unwrap();
    drop(conn);
    let cache = Cache::open(dir.path()).unwrap();
    assert!(cache.get("arxiv", "1706.03762").unwrap().is_none());
    assert_eq!(cache.stats().unwrap().entries(), 0);
    assert!(cache.warnings().is_empty());
}

#[test]
fn a_corrupted_file_is_moved_aside_and_recreated_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(CACHE_FILE);
    std::fs::write(
        &path,
        b"this is not a database, just some bytes that happen to be here".repeat(100),
    )
    .unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    assert_eq!(cache.warnings().len(), 1);
    let warning = &cache.warnings()[0];
    assert!(warning.contains("moved it to"), "{warning}");
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{CACHE_FILE}.corrupt-"))
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert!(warning.contains(&*aside[0].file_name().to_string_lossy()));
    cache
        .put("doi", "10.1000/y", true, &json!({"ok": true}))
        .unwrap();
    assert!(cache.get("doi", "10.1000/y").unwrap().is_some());
    // A healthy file opens without warnings.
    drop(cache);
    assert!(Cache::open(dir.path()).unwrap().warnings().is_empty());
}

#[test]
fn wal_mode_and_two_connections_share_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let cli = Cache::open(dir.path()).unwrap();
    let lsp = Cache::open(dir.path()).unwrap();
    assert_eq!(cli.journal_mode().unwrap(), "wal");
    cli.put("crossref", "k1", true, &json!("from cli")).unwrap();
    assert!(dir.path().join(format!("{CACHE_FILE}-wal")).exists());
    assert_eq!(
        lsp.get("crossref", "k1").unwrap().unwrap().value,
        json!("from cli")
    );
    lsp.put("crossref", "k2", false, &json!(null)).unwrap();
    assert!(!cli.get("crossref", "k2").unwrap().unwrap().found);

    // Writers in two threads over two connections: the busy timeout serialises them.
    let writers: Vec<_> = [cli.clone(), lsp.clone()]
        .into_iter()
        .enumerate()
        .map(|(w, cache)| {
            std::thread::spawn(move || {
                for i in 0..200 {
                    cache
                        .put("s2", &format!("{w}/{i}"), true, &json!(i))
                        .unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let s2 = cli
        .stats()
        .unwrap()
        .namespaces
        .into_iter()
        .find(|n| n.namespace == "s2")
        .unwrap();
    assert_eq!(s2.entries, 400);
}

#[test]
fn stats_and_clear() {
    let dir = tempfile::tempdir().unwrap();
    let (now, clock) = clock_at(100);
    let cache = open(dir.path(), CacheConfig::default(), clock);
    cache
        .put_many(
            "crossref",
            &[
                ("a".into(), true, json!(1)),
                ("b".into(), true, json!(2)),
                ("c".into(), false, json!(null)),
            ],
        )
        .unwrap();
    now.store(200, Ordering::SeqCst);
    cache
        .put("verdict", "claim/1", true, &json!({"label": "SUPPORTS"}))
        .unwrap();
    let stats = cache.stats().unwrap();
    assert!(stats.size_bytes > 0);
    assert_eq!(stats.entries(), 4);
    let crossref = &stats.namespaces[0];
    assert_eq!(
        (
            crossref.namespace.as_str(),
            crossref.found,
            crossref.not_found,
            crossref.oldest,
            crossref.newest
        ),
        ("crossref", 2, 1, Some(100), Some(100))
    );
    assert_eq!(
        (
            stats.namespaces[1].namespace.as_str(),
            stats.namespaces[1].newest
        ),
        ("verdict", Some(200))
    );

    assert_eq!(cache.clear(Some("crossref")).unwrap(), 3);
    assert!(cache.get("crossref", "a").unwrap().is_none());
    assert!(cache.get("verdict", "claim/1").unwrap().is_some());
    assert_eq!(cache.clear(None).unwrap(), 1);
    assert_eq!(cache.stats().unwrap().entries(), 0);
}

#[test]
fn typed_entries_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    let work = Work {
        source: "crossref".into(),
        title: "A title".into(),
        authors: vec![Person::new(Some("Ana"), "de la Cruz")],
        year: Some(2019),
        doi: Some("10.1000/a".into()),
        is_retracted: true,
        ..Work::default()
    };
    cache
        .put_as("crossref", "doi/10.1000/a", &Cached::Found(work.clone()))
        .unwrap();
    cache
        .put_as::<Work>("crossref", "doi/10.1000/b", &Cached::NotFound)
        .unwrap();
    assert_eq!(
        cache.get_as::<Work>("crossref", "doi/10.1000/a").unwrap(),
        Some(Cached::Found(work))
    );
    assert_eq!(
        cache.get_as::<Work>("crossref", "doi/10.1000/b").unwrap(),
        Some(Cached::NotFound)
    );
    assert_eq!(
        cache.get_as::<Work>("crossref", "doi/10.1000/c").unwrap(),
        None
    );
}

#[tokio::test]
async fn async_access_runs_off_the_runtime_threads() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::open(dir.path()).unwrap();
    cache
        .put_many_async("pubmed", vec![("pmid/1".into(), true, json!({"t": 1}))])
        .await
        .unwrap();
    let entry = cache.get_async("pubmed", "pmid/1").await.unwrap().unwrap();
    assert_eq!(entry.value, json!({"t": 1}));
}

#[test]
fn the_directory_follows_the_environment_override() {
    assert_eq!(
        default_dir_from(Some("/tmp/cp-cache".into())),
        Some("/tmp/cp-cache".into())
    );
    let platform = default_dir_from(None);
    if let Some(dir) = platform {
        assert!(dir.ends_with("citeproof"), "{dir:?}");
    }
    assert_eq!(default_dir_from(Some("".into())), default_dir_from(None));
}
