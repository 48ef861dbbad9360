//! Identifier helpers of the mock: DOI normalisation, registration agencies, arXiv ids,
//! and the stable synthetic ids (S2 paperId, corpusId, OpenAlex W…) given to world works
//! that a service holds although the recorded data did not carry that service's id.
//!
//! Deliberately independent of `citeproof::parse::ids`: the mock must not share code with
//! the client it tests.

use std::sync::LazyLock;

use regex::Regex;
use sha2::{Digest, Sha256};

/// DOI prefixes registered with DataCite rather than Crossref (arXiv, Zenodo, figshare,
/// Dagstuhl LIPIcs/OASIcs, Cambridge Apollo, Dryad, OSF, ResearchGate, Mendeley Data,
/// Harvard Dataverse, GBIF, PANGAEA, ETH Research Collection, DANS).
const DATACITE_PREFIXES: &[&str] = &[
    "10.48550", "10.5281", "10.6084", "10.4230", "10.17863", "10.5061", "10.17605", "10.13140",
    "10.17632", "10.7910", "10.15468", "10.1594", "10.3929", "10.17026", "10.34740",
];

static ARXIV_NEW: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{4}\.\d{4,5})(v\d+)?$").expect("arXiv id regex"));
static ARXIV_OLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([a-z][a-z\-]*(?:\.[A-Za-z]{2})?/\d{7})(v\d+)?$").expect("old arXiv regex")
});

/// Registration agency of a DOI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agency {
    Crossref,
    DataCite,
}

pub fn agency(doi: &str) -> Agency {
    let prefix = doi.split('/').next().unwrap_or("");
    if DATACITE_PREFIXES.contains(&prefix) {
        Agency::DataCite
    } else {
        Agency::Crossref
    }
}

/// Lowercase bare DOI from a bare DOI, `doi:…` or a doi.org URL (already percent-decoded).
pub fn normalize_doi(raw: &str) -> String {
    let s = raw.trim();
    let lower = s.to_lowercase();
    for prefix in [
        "https://doi.org/",
        "http://doi.org/",
        "https://dx.doi.org/",
        "http://dx.doi.org/",
        "doi.org/",
        "doi:",
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            return rest.trim().to_string();
        }
    }
    lower
}

/// True for strings shaped like a DOI (`10.NNNN/…`).
pub fn looks_like_doi(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("10.") else {
        return false;
    };
    match rest.split_once('/') {
        Some((registrant, suffix)) => {
            !suffix.is_empty()
                && !registrant.is_empty()
                && registrant.chars().all(|c| c.is_ascii_digit() || c == '.')
        }
        None => false,
    }
}

/// The arXiv DataCite DOI of an arXiv id (`10.48550/arxiv.1706.03762`).
pub fn arxiv_doi(arxiv: &str) -> String {
    format!("10.48550/arxiv.{}", arxiv.to_lowercase())
}

/// Split a syntactically valid arXiv id into (id without version, version).
pub fn parse_arxiv(raw: &str) -> Option<(String, Option<u32>)> {
    let s = raw.trim();
    let s = s
        .strip_prefix("arXiv:")
        .or_else(|| s.strip_prefix("arxiv:"))
        .unwrap_or(s);
    let caps = ARXIV_NEW.captures(s).or_else(|| ARXIV_OLD.captures(s))?;
    let version = caps
        .get(2)
        .and_then(|v| v.as_str()[1..].parse::<u32>().ok());
    Some((caps[1].to_string(), version))
}

/// Year and month encoded in an arXiv id (`2305.11019` → 2023-05, `hep-th/9901001` → 1999-01).
pub fn arxiv_year_month(arxiv: &str) -> Option<(i32, u32)> {
    let digits = match arxiv.split_once('/') {
        Some((_, number)) => number,
        None => arxiv,
    };
    let yy: i32 = digits.get(0..2)?.parse().ok()?;
    let mm: u32 = digits.get(2..4)?.parse().ok()?;
    let year = if yy >= 91 { 1900 + yy } else { 2000 + yy };
    (1..=12).contains(&mm).then_some((year, mm))
}

/// `PMC123` from `PMC123`, `pmc123` or `123`.
pub fn normalize_pmcid(raw: &str) -> Option<String> {
    let s = raw.trim();
    let digits = if s.len() > 3 && s[..3].eq_ignore_ascii_case("pmc") {
        &s[3..]
    } else {
        s
    };
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("PMC{digits}"))
}

/// A stable 64-bit hash of some strings (SHA-256 based, so identical on every platform).
pub fn stable_hash(parts: &[&str]) -> u64 {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    let digest = hasher.finalize();
    u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Synthetic Semantic Scholar paperId (40 hex digits) for a world work without one.
pub fn synth_s2_id(world_id: &str) -> String {
    let digest = Sha256::digest(format!("s2-paper:{world_id}").as_bytes());
    digest.iter().take(20).map(|b| format!("{b:02x}")).collect()
}

/// Synthetic Semantic Scholar corpusId.
pub fn synth_corpus_id(world_id: &str) -> u64 {
    1_000_000 + stable_hash(&["s2-corpus", world_id]) % 280_000_000
}

/// Synthetic OpenAlex work id (`W9…`, ten digits, outside the range of the real ids we hold).
pub fn synth_openalex_id(world_id: &str) -> String {
    format!(
        "W9{:09}",
        stable_hash(&["openalex-work", world_id]) % 1_000_000_000
    )
}

/// Synthetic OpenAlex source id for a venue name.
pub fn synth_openalex_source(venue: &str) -> String {
    format!(
        "S9{:09}",
        stable_hash(&["openalex-source", venue]) % 1_000_000_000
    )
}

/// Synthetic OpenAlex author id for a name.
pub fn synth_openalex_author(name: &str) -> String {
    format!(
        "A9{:09}",
        stable_hash(&["openalex-author", name]) % 1_000_000_000
    )
}

/// Synthetic Semantic Scholar authorId for a name.
pub fn synth_s2_author(name: &str) -> String {
    format!(
        "{}",
        10_000 + stable_hash(&["s2-author", name]) % 3_000_000_000
    )
}
