//! The index importers on real records (the recorded OpenAlex and Crossref bodies in
//! ../shared, written into dump files of the real shapes; the hand-checked DBLP
//! fixture), and builds from the fixtures in fixtures/index: merging, retraction
//! notices, incremental update, unchanged files skipped.

mod index_support;

use std::path::{Path, PathBuf};

use index_support::{fixture, gzip};

use citeproof::index::build::{BuildInputs, build};
use citeproof::index::sqlite::{SqliteStore, SqliteWriter};
use citeproof::index::title_engine;
use citeproof::index::{DumpSource, NoticeKind, Record, WorkStore, crossref, dblp, openalex};
use citeproof::model::IdScheme;
use citeproof::resolve::index_titles::title_candidates;

fn shared(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/api_responses")
        .join(rel);
    p.exists().then_some(p)
}

/// Read a file with an importer, collecting records and warnings.
fn read_with(read: citeproof::index::build::ReaderFn, path: &Path) -> (Vec<Record>, Vec<String>) {
    let mut records = Vec::new();
    let mut warnings = Vec::new();
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut stream = citeproof::index::input::open_stream(path, counter).unwrap();
    read(path, &mut *stream, &mut |r| records.push(r), &mut |w| {
        warnings.push(w)
    })
    .unwrap();
    (records, warnings)
}

#[test]
fn openalex_snapshot_line_of_the_recorded_work() {
    let Some(body) = shared("openalex/work_W2741809807.json") else {
        eprintln!("skipping: recorded OpenAlex work (../shared absent)");
        return;
    };
    // A snapshot line is the API's Work object on one line.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(body).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let part = dir
        .path()
        .join("data/works/updated_date=2025-06-11/part_000.gz");
    gzip(&part, &format!("{}\n", serde_json::to_string(&v).unwrap()));
    let (records, warnings) = read_with(openalex::read, &part);
    assert!(warnings.is_empty(), "{warnings:?}");
    let [r] = records.as_slice() else {
        panic!("one record: {records:?}")
    };
    assert_eq!(r.source, DumpSource::OpenAlex);
    assert_eq!(r.key, "W2741809807");
    assert_eq!(r.updated.as_deref(), Some("2025-06-11T00:03:37.532706"));
    let w = &r.work;
    assert_eq!(
        w.title,
        "The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles"
    );
    assert_eq!(w.doi.as_deref(), Some("10.7717/peerj.4375"));
    assert_eq!(w.pmid.as_deref(), Some("29456894"));
    assert_eq!(w.pmcid.as_deref(), Some("PMC5815332"));
    assert_eq!(w.year, Some(2018));
    assert_eq!(w.venue.as_deref(), Some("PeerJ"));
    assert_eq!(w.authors.len(), 9);
    assert_eq!(w.authors[0].family, "Piwowar");
    assert!(
        w.abstract_text
            .as_deref()
            .is_some_and(|a| a.starts_with("Despite growing interest in Open Access"))
    );
    assert!(!w.is_retracted);
}

#[test]
fn crossref_data_file_of_recorded_works_with_a_notice() {
    let (Some(a), Some(b)) = (
        shared("crossref/works_10.1038_srep16696.json"),
        shared("crossref/works_10.1371_journal.pone.0033693.json"),
    ) else {
        eprintln!("skipping: recorded Crossref works (../shared absent)");
        return;
    };
    let message = |p: &Path| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        v["message"].clone()
    };
    let notice = serde_json::json!({"DOI": "10.1038/srep99999", "title": ["Retraction Note: Single-molecule FRET studies"],
        "update-to": [{"DOI": "10.1038/SREP16696", "type": "retraction", "label": "Retraction"}]});
    // The public data file: one object with the items of one API page.
    let file = serde_json::json!({"items": [message(&a), notice, message(&b)]});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("0.json.gz");
    gzip(&path, &serde_json::to_string(&file).unwrap());
    let (records, warnings) = read_with(crossref::read, &path);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(records.len(), 3);
    let fret = &records[0];
    assert_eq!(fret.key, "10.1038/srep16696");
    assert_eq!(fret.updated.as_deref(), Some("2026-03-19T06:10:28Z"));
    assert_eq!(fret.work.authors.len(), 8);
    assert_eq!(fret.work.authors[0].family, "Tosatto");
    assert_eq!(fret.work.year, Some(2015));
    assert_eq!(fret.work.venue.as_deref(), Some("Scientific Reports"));
    assert!(fret.notices.is_empty());
    assert_eq!(records[1].notices.len(), 1);
    assert_eq!(records[1].notices[0].target_doi, "10.1038/srep16696");
    assert_eq!(records[1].notices[0].kind, NoticeKind::Retraction);
    assert_eq!(records[2].key, "10.1371/journal.pone.0033693");
    // A file cut short keeps what was read before and says where it stopped.
    let text = serde_json::to_string(&file).unwrap();
    let cut = dir.path().join("1.json.gz");
    gzip(&cut, &text[..text.len() * 2 / 3]);
    let (partial, warnings) = read_with(crossref::read, &cut);
    assert!(!partial.is_empty() && partial.len() < 3);
    assert!(warnings[0].contains("1.json.gz"), "{warnings:?}");
}

#[test]
fn dblp_fixture_is_read_as_hand_checked() {
    let (records, warnings) = read_with(dblp::read, &fixture("dblp.xml"));
    assert!(warnings.is_empty(), "{warnings:?}");
    let keys: Vec<&str> = records.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "journals/neco/HochreiterS97",
            "conf/cvpr/HeZRS16",
            "journals/corr/VaswaniSPUJGKP17",
            "conf/nips/GoodfellowPMXWOCB14",
            "journals/corr/abs-1412-6980",
            "phd/dnb/Groeger99"
        ]
    );
    let lstm = &records[0].work;
    assert_eq!(lstm.title, "Long Short-Term Memory");
    assert_eq!(lstm.authors[1].given.as_deref(), Some("Jürgen"));
    assert_eq!(lstm.authors[1].family, "Schmidhuber");
    assert_eq!(lstm.doi.as_deref(), Some("10.1162/neco.1997.9.8.1735"));
    assert_eq!(lstm.venue.as_deref(), Some("Neural Comput."));
    assert_eq!(lstm.year, Some(1997));
    assert_eq!(lstm.work_type.as_deref(), Some("Journal Articles"));
    assert_eq!(records[0].updated.as_deref(), Some("2023-08-28"));
    let resnet = &records[1].work;
    assert_eq!(resnet.doi.as_deref(), Some("10.1109/cvpr.2016.90"));
    assert_eq!(resnet.authors[1].family, "Zhang");
    assert_eq!(resnet.authors[3].given.as_deref(), Some("Jian"));
    assert_eq!(
        resnet.work_type.as_deref(),
        Some("Conference and Workshop Papers")
    );
    assert_eq!(resnet.venue.as_deref(), Some("CVPR"));
    let attention = &records[2].work;
    assert_eq!(attention.arxiv.as_deref(), Some("1706.03762"));
    assert_eq!(attention.authors[6].given.as_deref(), Some("Łukasz"));
    assert_eq!(
        attention.work_type.as_deref(),
        Some("Informal and Other Publications")
    );
    assert_eq!(records[3].work.doi, None);
    assert_eq!(records[4].work.arxiv.as_deref(), Some("1412.6980"));
    let thesis = &records[5].work;
    assert_eq!(thesis.title, "Zur Komplexität von Graphen2");
    assert_eq!(thesis.authors[0].family, "Gröger");
    assert_eq!(
        thesis.url.as_deref(),
        Some("https://dblp.org/rec/phd/dnb/Groeger99")
    );
    // A truncated dump keeps what was read and says where it stopped.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("dblp.xml")).unwrap();
    let cut = dir.path().join("dblp.xml.gz");
    gzip(&cut, &text[..text.len() / 2]);
    let (partial, warnings) = read_with(dblp::read, &cut);
    assert!(!partial.is_empty() && partial.len() < records.len());
    assert!(
        warnings.iter().any(|w| w.contains("dblp.xml.gz")),
        "{warnings:?}"
    );
}

/// The fixtures laid out as the real dumps are: OpenAlex partitions, a Crossref folder.
/// The dumps folder, written once: a rerun adds the update partition and leaves the
/// other files as they are (rewriting them could change their modification time and
/// make them "changed" to the incremental build).
fn dumps(dir: &Path, with_update: bool) -> BuildInputs {
    let works = dir.join("openalex/data/works");
    let gzip = |path: &Path, text: &str| {
        if !path.exists() {
            gzip(path, text);
        }
    };
    gzip(
        &works.join("updated_date=2024-01-01/part_000.gz"),
        &std::fs::read_to_string(fixture("openalex_2024-01.jsonl")).unwrap(),
    );
    if with_update {
        gzip(
            &works.join("updated_date=2024-06-01/part_000.gz"),
            &std::fs::read_to_string(fixture("openalex_2024-06.jsonl")).unwrap(),
        );
    }
    gzip(
        &dir.join("crossref/0.json.gz"),
        &std::fs::read_to_string(fixture("crossref.json")).unwrap(),
    );
    BuildInputs {
        openalex: vec![dir.join("openalex")],
        crossref: vec![dir.join("crossref")],
        dblp: vec![fixture("dblp.xml")],
        corpus: vec![],
        ..BuildInputs::default()
    }
}

#[test]
fn build_merges_dumps_knows_retractions_and_updates_incrementally() {
    let dumps_dir = tempfile::tempdir().unwrap();
    let index = tempfile::tempdir().unwrap();
    let inputs = dumps(dumps_dir.path(), false);
    let mut writer = SqliteWriter::open(index.path()).unwrap();
    let report = build(&mut writer, &inputs, &|_| {}).unwrap();
    assert_eq!(report.files, 3);
    assert_eq!(report.warnings, 1, "{:?}", report.first_warnings); // the line that is not JSON
    assert!(
        report
            .first_warnings
            .iter()
            .any(|w| w.contains("part_000.gz:5"))
    );
    let store = SqliteStore::open(index.path()).unwrap();
    // ResNet: OpenAlex and DBLP records merged by DOI.
    let resnet = store.by_id(IdScheme::Doi, "10.1109/cvpr.2016.90").unwrap();
    let sources: Vec<&str> = resnet.iter().map(|w| w.source.as_str()).collect();
    assert_eq!(sources, ["index:openalex", "index:dblp"]);
    assert_eq!(
        resnet[0].title,
        "Deep Residual Learning for Image Recogniton"
    );
    // The OpenAlex abstract is shared with the DBLP record.
    assert_eq!(
        resnet[1].abstract_text.as_deref(),
        Some("Deeper neural networks are more difficult to train.")
    );
    // The Transformer: the OpenAlex preprint (arXiv DOI) and DBLP's CoRR record by arXiv id.
    assert_eq!(store.by_id(IdScheme::Arxiv, "1706.03762").unwrap().len(), 2);
    // GANs: no identifier anywhere, merged on title + year + first author.
    let gans = title_candidates(&store, Some("Generative adversarial nets"), "", 5).unwrap();
    assert_eq!(gans.len(), 2, "{gans:?}");
    // The retraction notice in Crossref marks the OpenAlex record too.
    let cnn = store
        .by_id(IdScheme::Doi, "10.1088/1741-2552/ac4430")
        .unwrap();
    assert_eq!(cnn.len(), 2);
    assert!(cnn.iter().all(|w| w.is_retracted), "{cnn:?}");
    // A notice without a title of its own still counts.
    let lstm = store
        .by_id(IdScheme::Doi, "10.1162/neco.1997.9.8.1735")
        .unwrap();
    assert!(lstm.iter().all(|w| w.has_concern && !w.is_retracted));
    let stats = store.stats().unwrap();
    let count = |s: &str| {
        stats
            .records
            .iter()
            .find(|c| c.source == s)
            .unwrap()
            .records
    };
    assert_eq!(
        (count("openalex"), count("crossref"), count("dblp")),
        (4, 3, 6)
    );
    assert_eq!(stats.notices, 2);
    // LSTM, ResNet, Transformer, 1D CNN, its notice, GANs, Adam, thesis.
    assert_eq!(stats.works, 8);
    assert!(stats.built.is_some() && stats.bytes > 0);
    drop(store);

    // Rerun with a newer partition: only it is read; ResNet's record is replaced.
    let inputs = dumps(dumps_dir.path(), true);
    let report = build(&mut writer, &inputs, &|_| {}).unwrap();
    assert_eq!((report.files, report.files_unchanged), (1, 3));
    assert_eq!((report.replaced, report.added), (1, 0));
    let store = SqliteStore::open(index.path()).unwrap();
    let resnet = store.by_id(IdScheme::Doi, "10.1109/cvpr.2016.90").unwrap();
    assert_eq!(resnet.len(), 2);
    assert_eq!(
        resnet[0].title,
        "Deep Residual Learning for Image Recognition"
    );
    assert!(
        resnet[0]
            .abstract_text
            .as_deref()
            .unwrap()
            .ends_with("residual learning framework.")
    );
    let found = title_candidates(
        &store,
        Some("Deep residual learning for image recognition"),
        "",
        5,
    )
    .unwrap();
    assert!(
        found
            .iter()
            .any(|w| w.title == "Deep Residual Learning for Image Recognition")
    );
    assert_eq!(store.stats().unwrap().works, 8);
}

/// The records an index folder holds (its SQLite file read directly).
fn store_records(dir: &Path) -> u64 {
    rusqlite::Connection::open(dir.join("index.sqlite3"))
        .unwrap()
        .query_row("SELECT COUNT(*) FROM records", [], |r| r.get::<_, i64>(0))
        .unwrap() as u64
}

#[test]
fn a_title_index_of_an_older_build_is_indexed_again_by_the_next_build() {
    let dumps_dir = tempfile::tempdir().unwrap();
    let index = tempfile::tempdir().unwrap();
    let mut writer = SqliteWriter::open(index.path()).unwrap();
    build(&mut writer, &dumps(dumps_dir.path(), false), &|_| {}).unwrap();
    drop(writer);
    // An (empty) title index of the schema before word pairs, as an older build left.
    let titles = index.path().join(title_engine::FOLDER);
    std::fs::remove_dir_all(&titles).unwrap();
    std::fs::create_dir(&titles).unwrap();
    let mut schema = tantivy::schema::Schema::builder();
    let indexing = tantivy::schema::TextFieldIndexing::default()
        .set_tokenizer("whitespace")
        .set_index_option(tantivy::schema::IndexRecordOption::WithFreqs);
    schema.add_text_field(
        "words",
        tantivy::schema::TextOptions::default().set_indexing_options(indexing),
    );
    schema.add_u64_field("record", tantivy::schema::INDEXED | tantivy::schema::FAST);
    schema.add_i64_field("work", tantivy::schema::FAST);
    tantivy::Index::create_in_dir(&titles, schema.build()).unwrap();
    assert!(title_engine::lacks_pairs(index.path()).unwrap());
    let gans = |store: &SqliteStore| {
        title_candidates(store, Some("Generative adversarial nets"), "", 5)
            .unwrap()
            .len()
    };
    assert_eq!(gans(&SqliteStore::open(index.path()).unwrap()), 0);

    // A build without dumps brings the index up to date: every title indexed again,
    // the progress reported up to all the records.
    let reports = std::sync::Mutex::new(Vec::new());
    let mut writer = SqliteWriter::open_reporting(index.path(), &|p| {
        reports.lock().unwrap().push((p.done, p.total));
    })
    .unwrap();
    let records = store_records(index.path());
    assert!(records > 0);
    let reports = reports.into_inner().unwrap();
    assert_eq!(reports.first(), Some(&(0, records)));
    assert_eq!(reports.last(), Some(&(records, records)));
    let report = build(&mut writer, &BuildInputs::default(), &|_| {}).unwrap();
    drop(writer);
    assert_eq!(report.records(), 0);
    assert!(!title_engine::lacks_pairs(index.path()).unwrap());
    assert_eq!(gans(&SqliteStore::open(index.path()).unwrap()), 2);

    // Indexing them again was interrupted (its mark left, the titles gone): the next
    // build starts it again rather than leave the titles missing.
    rusqlite::Connection::open(index.path().join("index.sqlite3"))
        .unwrap()
        .execute(
            "INSERT INTO meta(key, value) VALUES ('titles_reindex_started', 'x')",
            [],
        )
        .unwrap();
    title_engine::remove(index.path()).unwrap();
    let mut writer = SqliteWriter::open(index.path()).unwrap();
    build(&mut writer, &BuildInputs::default(), &|_| {}).unwrap();
    drop(writer);
    assert_eq!(gans(&SqliteStore::open(index.path()).unwrap()), 2);
    // An index up to date is opened without indexing anything again.
    let reported = std::sync::atomic::AtomicBool::new(false);
    SqliteWriter::open_reporting(index.path(), &|_| {
        reported.store(true, std::sync::atomic::Ordering::Relaxed)
    })
    .unwrap();
    assert!(!reported.into_inner());
}

#[test]
fn an_older_record_does_not_replace_a_newer_one() {
    let dir = tempfile::tempdir().unwrap();
    let newer = dir.path().join("a/updated_date=2024-06-01/part_000.gz");
    gzip(
        &newer,
        &std::fs::read_to_string(fixture("openalex_2024-06.jsonl")).unwrap(),
    );
    let index = dir.path().join("index");
    let mut writer = SqliteWriter::open(&index).unwrap();
    build(
        &mut writer,
        &BuildInputs {
            openalex: vec![newer],
            ..BuildInputs::default()
        },
        &|_| {},
    )
    .unwrap();
    let older = dir.path().join("b/updated_date=2024-01-01/part_000.gz");
    gzip(
        &older,
        &std::fs::read_to_string(fixture("openalex_2024-01.jsonl")).unwrap(),
    );
    let report = build(
        &mut writer,
        &BuildInputs {
            openalex: vec![older],
            ..BuildInputs::default()
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!(report.kept, 1);
    let store = SqliteStore::open(&index).unwrap();
    let resnet = store.by_id(IdScheme::Doi, "10.1109/cvpr.2016.90").unwrap();
    assert_eq!(
        resnet[0].title,
        "Deep Residual Learning for Image Recognition"
    );
}

#[test]
fn opening_what_is_not_an_index_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = SqliteStore::open(dir.path()).unwrap_err().to_string();
    assert!(err.contains("citeproof index build"), "{err}");
    std::fs::write(dir.path().join("index.sqlite3"), "not a database").unwrap();
    assert!(SqliteStore::open(dir.path()).is_err());
}
