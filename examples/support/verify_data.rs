//! Loading the claim-verification benchmarks in ../shared/data/claim_verification
//! for the verification examples (tables generator and evaluation).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// One claim with the evidence of the work it cites.
#[derive(Debug, Clone)]
pub struct Item {
    pub claim: String,
    /// Identifier of the evidence document.
    pub doc: String,
    /// Identifier of the cited work the evidence comes from: swaps never pair a claim
    /// with evidence from the work it cites.
    pub work: String,
    /// The evidence document as a list of sentences.
    pub evidence: Vec<String>,
    /// The evidence document's title, when the dataset has one.
    pub title: Option<String>,
    /// Indices of gold evidence sentences (empty when the claim has none).
    pub gold: Vec<usize>,
}

/// ../shared/data/claim_verification, when present.
pub fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/claim_verification");
    dir.is_dir().then_some(dir)
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn sentences_of(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Remove Citation-Integrity markers (`<|cit|>`, `<|multi_cit|>`, `<|other_cit|>`)
/// together with the brackets that hold them, as a parser removes citation markers.
pub fn strip_markers(claim: &str) -> String {
    static BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\[[^\[\]]*<\|[a-z_]+\|>[^\[\]]*\]|\([^()]*<\|[a-z_]+\|>[^()]*\)")
            .expect("regex")
    });
    static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<\|[a-z_]+\|>").expect("regex"));
    let without = BRACKETED.replace_all(claim, " ");
    let without = MARKER.replace_all(&without, " ");
    citeproof::parse::sentence::claim_text(&without)
}

impl Item {
    /// What the verifier sees of the cited work: its title (when known) and its text.
    pub fn work_text(&self) -> Vec<String> {
        self.title.iter().chain(&self.evidence).cloned().collect()
    }
}

/// The cited work of a Citation-Integrity evidence document. The dataset collects
/// citations to 100 cited papers, one evidence document per citation, and numbers the
/// documents of one cited paper in its own block of a thousand (train, dev and test
/// hold 70, 10 and 20 blocks). Documents of one block often share sentences (33 % of
/// pairs in train, 44 % in dev), documents of different blocks practically never
/// (1 pair in 2 million in train, none in dev): a swap within a block would pair a
/// claim with another excerpt of the very paper it cites.
pub fn citation_integrity_work(doc_id: u64) -> String {
    format!("ci-{}", doc_id / 1000)
}

/// Citation-Integrity split (`train`, `dev`, `test`): claims with their cited evidence.
pub fn citation_integrity(dir: &Path, split: &str) -> Vec<Item> {
    let base = dir.join("citation_integrity");
    let corpus: HashMap<String, Vec<String>> = read_jsonl(&base.join("corpus.jsonl"))
        .iter()
        .map(|d| (d["doc_id"].to_string(), sentences_of(&d["abstract"])))
        .collect();
    let mut items = Vec::new();
    for claim in read_jsonl(&base.join(format!("claims_{split}.jsonl"))) {
        let text = strip_markers(claim["claim"].as_str().unwrap_or_default());
        for doc in claim["cited_doc_ids"].as_array().into_iter().flatten() {
            let work = citation_integrity_work(doc.as_u64().unwrap_or_default());
            let doc = doc.to_string();
            let Some(evidence) = corpus.get(&doc) else {
                continue;
            };
            let mut gold = Vec::new();
            for set in claim["evidence"][&doc].as_array().into_iter().flatten() {
                gold.extend(
                    set["sentences"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|i| i.as_u64().map(|i| i as usize)),
                );
            }
            items.push(Item {
                claim: text.clone(),
                doc,
                work,
                evidence: evidence.clone(),
                title: None,
                gold,
            });
        }
    }
    items
}

/// Check-COVID split (`train`, `dev`, `test` = composed + extracted): claims with the
/// abstract they were written against.
pub fn check_covid(dir: &Path, split: &str) -> Vec<Item> {
    let base = dir.join("check_covid");
    let corpus: HashMap<String, (Vec<String>, Option<String>)> =
        read_jsonl(&base.join("corpus.json"))
            .iter()
            .map(|d| {
                let title = d["title"].as_str().filter(|t| !t.trim().is_empty());
                (
                    d["cord_id"].as_str().unwrap_or_default().to_string(),
                    (sentences_of(&d["abstract"]), title.map(str::to_string)),
                )
            })
            .collect();
    let files: &[&str] = match split {
        "train" => &["covidCheck_train_composed+extracted.json"],
        "dev" => &["covidCheck_dev_composed+extracted.json"],
        "test" => &[
            "covidCheck_test_composed.json",
            "covidCheck_test_extracted.json",
        ],
        other => panic!("unknown split {other}"),
    };
    let mut items = Vec::new();
    for file in files {
        for claim in read_jsonl(&base.join(file)) {
            let doc = claim["cord_id"].as_str().unwrap_or_default().to_string();
            let Some((evidence, title)) = corpus.get(&doc) else {
                continue;
            };
            let gold = claim["evidence_set"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["sent_index"].as_u64().map(|i| i as usize))
                .collect();
            items.push(Item {
                claim: claim["claim"]
                    .as_str()
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
                work: doc.clone(),
                doc,
                evidence: evidence.clone(),
                title: title.clone(),
                gold,
            });
        }
    }
    items
}

/// The evidence column of HealthVer dev (tuning data), for the background table.
pub fn healthver_dev_evidence(dir: &Path) -> Vec<String> {
    let path = dir.join("healthver/healthver_dev.csv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let rows = parse_csv(&text);
    let column = rows
        .first()
        .and_then(|h| h.iter().position(|c| c == "evidence"))
        .expect("evidence column");
    rows.iter()
        .skip(1)
        .filter_map(|r| r.get(column).cloned())
        .collect()
}

/// A small RFC 4180 reader: quoted fields, doubled quotes, newlines inside quotes.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A deterministic permutation (splitmix64-driven Fisher–Yates).
pub fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The order in which an item's sentences are given to a ranker: a shuffle seeded by
/// the claim, so that ties never favour the gold sentence (Citation-Integrity lists it
/// first). `order[j]` is the evidence index of the `j`-th passage.
pub fn sentence_order(item: &Item, seed: u64) -> Vec<usize> {
    let seed = item
        .claim
        .bytes()
        .fold(seed, |h, b| h.rotate_left(5) ^ u64::from(b));
    shuffled(item.evidence.len(), seed)
}

/// For every item, the index of another item whose evidence it is swapped with:
/// a seeded shuffle, stepping on past items that cite the same work (a random other
/// work, not a nearest neighbour).
pub fn swap_partners(items: &[Item], seed: u64) -> Vec<usize> {
    let order = shuffled(items.len(), seed);
    (0..items.len())
        .map(|i| {
            let mut at = order[i];
            let mut step = 0;
            while items[at].work == items[i].work && step < items.len() {
                at = (at + 1) % items.len();
                step += 1;
            }
            at
        })
        .collect()
}

/// The items with distinct (claim, evidence document) pairs, first of each kept.
/// Check-COVID lists many claims twice against the same abstract (a SUPPORT or REFUTE
/// line and a NOTENOUGHINFO line with other evidence sentences: 207 dev lines hold 139
/// distinct pairs); the swap test judges each pair once.
pub fn distinct_pairs(items: &[Item]) -> Vec<Item> {
    let mut seen = std::collections::HashSet::new();
    items
        .iter()
        .filter(|i| seen.insert((i.claim.clone(), i.doc.clone())))
        .cloned()
        .collect()
}
