//! Every kind of work: books, theses, RFCs, packages, pages, standards and legal texts
//! resolved against the mock world's catalogue, index, registries and web — the real
//! ones never accused, the made-up ones caught where a source can tell.

use serde_json::{Value, json};

use crate::helpers::{Run, citeproof, findings, write_lines};
use crate::support::{MockConfig, MockWorld, Source, Work};

fn work(value: Value) -> Work {
    serde_json::from_value(value).expect("world record")
}

/// Real works that no scholarly index holds, each only where its kind lives.
fn world() -> MockWorld {
    MockWorld::start(MockConfig::works(vec![
        work(
            json!({"id": "k-bishop", "title": "Pattern Recognition and Machine Learning",
            "authors": [{"given": "Christopher M.", "family": "Bishop"}], "year": 2006,
            "type": "book", "publisher": "Springer", "isbn": ["9780387310732"],
            "held_by": ["openlibrary"]}),
        ),
        work(
            json!({"id": "k-esl", "title": "The Elements of Statistical Learning: Data Mining, Inference, and Prediction",
            "authors": [{"given": "Trevor", "family": "Hastie"}, {"given": "Robert", "family": "Tibshirani"}, {"given": "Jerome", "family": "Friedman"}],
            "year": 2001, "editions": [2009], "type": "book", "publisher": "Springer",
            "isbn": ["9780387848570"], "held_by": ["openlibrary"]}),
        ),
        work(
            json!({"id": "k-rfc2119", "title": "Key words for use in RFCs to Indicate Requirement Levels",
            "authors": [{"given": "Scott", "family": "Bradner"}], "year": 1997, "type": "rfc",
            "rfc": 2119, "held_by": ["rfc"]}),
        ),
        work(
            json!({"id": "k-sklearn", "title": "scikit-learn", "authors": [], "year": 2010,
            "type": "software", "abstract": "A set of python modules for machine learning and data mining",
            "package": {"registry": "pypi", "name": "scikit-learn",
                        "releases": [["0.9", "2011-09-21"], ["1.3.2", "2023-10-23"]]},
            "held_by": ["pypi"]}),
        ),
        work(
            json!({"id": "k-alammar", "title": "The Illustrated Transformer",
            "authors": [{"given": "Jay", "family": "Alammar"}], "year": 2018, "type": "web_page",
            "venue": "Jay Alammar's blog",
            "page": {"url": "https://jalammar.github.io/illustrated-transformer/", "status": 200},
            "held_by": ["web"]}),
        ),
        work(
            json!({"id": "k-gone", "title": "Understanding LSTM Networks",
            "authors": [{"given": "Christopher", "family": "Olah"}], "year": 2015, "type": "web_page",
            "page": {"url": "https://colah.example.org/posts/2015-08-Understanding-LSTMs/",
                     "status": 404, "archived": "20160101000000"},
            "held_by": ["web", "wayback"]}),
        ),
        work(json!({"id": "k-walled", "title": "Site behind a bot check",
            "authors": [], "year": 2020, "type": "web_page",
            "page": {"url": "https://walled.example.org/notes", "status": 0},
            "held_by": ["web"]})),
    ]))
}

/// `citeproof resolve FILE --format jsonl` without a cache.
fn resolve_jsonl(world: &MockWorld, input: &std::path::Path) -> Run {
    citeproof(
        Some(world),
        &[
            "resolve",
            input.to_str().unwrap(),
            "--format",
            "jsonl",
            "--no-cache",
        ],
    )
}

const REAL_BIB: &[&str] = &[
    "@book{bishop2006, author = {Bishop, Christopher M.}, title = {Pattern Recognition and Machine Learning}, publisher = {Springer}, year = {2006}, isbn = {978-0-387-31073-2}}",
    "@book{hastie2009, author = {Hastie, Trevor and Tibshirani, Robert and Friedman, Jerome}, title = {The Elements of Statistical Learning}, edition = {2}, publisher = {Springer}, year = {2009}}",
    "@phdthesis{nash1950, author = {Nash, John F.}, title = {Non-Cooperative Games}, school = {Princeton University}, year = {1950}}",
    "@misc{rfc2119, author = {Bradner, Scott}, title = {Key words for use in {RFCs} to Indicate Requirement Levels}, howpublished = {RFC 2119}, year = {1997}, url = {https://www.rfc-editor.org/rfc/rfc2119}}",
    "@software{sklearn, title = {scikit-learn: Machine Learning in Python}, version = {1.3.2}, year = {2023}, url = {https://pypi.org/project/scikit-learn/}}",
    "@misc{alammar2018, author = {Alammar, Jay}, title = {The Illustrated Transformer}, year = {2018}, url = {https://jalammar.github.io/illustrated-transformer/}, urldate = {2024-05-01}}",
    "@online{olah2015, author = {Olah, Christopher}, title = {Understanding {LSTM} Networks}, year = {2015}, url = {https://colah.example.org/posts/2015-08-Understanding-LSTMs/}}",
    "@misc{gdpr, title = {Regulation (EU) 2016/679 of the European Parliament and of the Council (General Data Protection Regulation)}, year = {2016}}",
    "@standard{iso27001, title = {Information security management systems -- Requirements}, organization = {ISO/IEC}, number = {27001:2013}, year = {2013}}",
];

#[test]
fn real_works_of_every_kind_are_never_accused() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let bib = write_lines(dir.path(), "refs.bib", REAL_BIB);
    let cache = dir.path().join("cache");
    let args = [
        "check",
        bib.to_str().unwrap(),
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    let run = citeproof(Some(&world), &args);
    let found = findings(&run.stdout);
    let accusations: Vec<&(String, String)> = found
        .iter()
        .filter(|(code, _)| {
            matches!(
                code.as_str(),
                "CP201" | "CP204" | "CP205" | "CP207" | "CP208" | "CP209" | "CP210"
            )
        })
        .collect();
    assert!(accusations.is_empty(), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        run.code, 0,
        "warnings do not fail CI: {}\n{}",
        run.stdout, run.stderr
    );
    // Works no source holds are named for what they are, with where to confirm them.
    let not_indexed: Vec<&str> = found
        .iter()
        .filter(|(code, _)| code == "CP213")
        .map(|(_, key)| key.as_str())
        .collect();
    assert_eq!(
        not_indexed,
        ["nash1950", "gdpr", "iso27001"],
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("is a thesis"), "{}", run.stdout);
    assert!(
        run.stdout.contains("university's repository"),
        "{}",
        run.stdout
    );
    // Each kind was looked up where it lives.
    for source in [
        Source::OpenLibrary,
        Source::Rfc,
        Source::Pypi,
        Source::Web,
        Source::Wayback,
    ] {
        assert!(world.request_count(source) > 0, "{source:?} not asked");
    }
    // A warm rerun asks nothing.
    world.clear_requests();
    let warm = citeproof(Some(&world), &args);
    assert_eq!(warm.stdout, run.stdout);
    assert_eq!(world.total_requests(), 0);
}

#[test]
fn made_up_works_are_caught_where_a_complete_authority_can_tell() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let bib = write_lines(
        dir.path(),
        "refs.bib",
        &[
            "@misc{rfc99421, author = {Bradner, Scott}, title = {Requirement Levels for Autonomous Agents}, howpublished = {RFC 99421}, year = {2024}}",
            "@misc{rfcother, author = {Bradner, Scott}, title = {Guidelines for Writing Agent Protocols}, howpublished = {RFC 2119}, year = {1997}}",
            "@software{ghost, title = {torchprune: Structured Pruning for PyTorch}, version = {2.1.0}, url = {https://pypi.org/project/torchprune-ultra/}, year = {2023}}",
            "@software{oldsk, title = {scikit-learn}, version = {9.4.1}, url = {https://pypi.org/project/scikit-learn/}, year = {2023}}",
            "@book{badisbn, author = {Bishop, Christopher M.}, title = {Pattern Recognition and Machine Learning}, publisher = {Springer}, year = {2006}, isbn = {978-0-387-31073-3}}",
            "@book{otherisbn, author = {Bishop, Christopher M.}, title = {Neural Reasoning in Graphical Worlds}, publisher = {Springer}, year = {2019}, isbn = {9780387310732}}",
            "@misc{noisedata, author = {Nguyen, T. and Patel, R.}, title = {Urban Noise Complaints}, howpublished = {UCI Machine Learning Repository [Dataset]}, doi = {10.24432/C5Q99Z}, year = {2019}}",
        ],
    );
    let cache = dir.path().join("cache");
    let run = citeproof(
        Some(&world),
        &[
            "check",
            bib.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
        ],
    );
    let mut found = findings(&run.stdout);
    found.sort();
    for expected in [
        ("CP201", "rfc99421"),
        ("CP205", "rfcother"),
        ("CP201", "ghost"),
        ("CP214", "oldsk"),
        ("CP109", "badisbn"),
        ("CP205", "otherisbn"),
        ("CP201", "noisedata"),
    ] {
        assert!(
            found
                .iter()
                .any(|(c, k)| c == expected.0 && k == expected.1),
            "{expected:?} missing from {found:?}\n{}",
            run.stdout
        );
    }
    // A dataset's absence proves nothing, but a DOI that was never issued does.
    assert!(
        run.stdout.contains("10.24432/c5q99z was never issued"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("RFC 99421 was never issued"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("PyPI has no package named torchprune-ultra"),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 1);
}

#[test]
fn a_page_that_cannot_be_read_establishes_nothing() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let bib = write_lines(
        dir.path(),
        "refs.bib",
        &[
            "@misc{walled, author = {Doe, Jane}, title = {Notes on Robust Crawling}, year = {2020}, url = {https://walled.example.org/notes}}",
            "@misc{gone, author = {Roe, Richard}, title = {A Page That Is Gone}, year = {2021}, url = {https://gone.example.org/page}}",
        ],
    );
    let run = resolve_jsonl(&world, &bib);
    let lines = run.lines();
    assert_eq!(lines.len(), 2, "{}\n{}", run.stdout, run.stderr);
    let walled = &lines[0];
    assert_eq!(walled["status"], "unverified", "{walled}");
    let landing = walled["sources_tried"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["source"] == "landing")
        .expect("the page was asked");
    assert_eq!(landing["outcome"], "failed");
    // 404 with no copy anywhere: a page is gone, never concluded fabricated.
    let gone = &lines[1];
    assert_eq!(gone["status"], "not_indexed", "{gone}");
    assert!(
        gone["notes"].to_string().contains("holds no copy"),
        "{gone}"
    );
}

#[test]
fn resolve_reports_each_works_kind() {
    let world = world();
    let dir = tempfile::tempdir().unwrap();
    let bib = write_lines(dir.path(), "refs.bib", REAL_BIB);
    let run = resolve_jsonl(&world, &bib);
    let kinds: Vec<(String, String, String)> = run
        .lines()
        .iter()
        .map(|l| {
            (
                l["id"].as_str().unwrap_or("").to_string(),
                l["kind"].as_str().unwrap_or("null").to_string(),
                l["status"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected = [
        ("bishop2006", "book", "verified"),
        ("hastie2009", "book", "verified"),
        ("nash1950", "thesis", "not_indexed"),
        ("rfc2119", "rfc", "verified"),
        ("sklearn", "software", "verified"),
        ("alammar2018", "web_page", "verified"),
        ("olah2015", "web_page", "verified"),
        ("gdpr", "legal", "not_indexed"),
        ("iso27001", "standard", "not_indexed"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(kinds, expected, "{}", run.stdout);
    let olah = &run.lines()[6];
    let notes = olah["notes"].to_string();
    assert!(
        notes.contains("Wayback Machine holds a copy from 2016"),
        "{olah}"
    );
}
