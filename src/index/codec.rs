//! Engine-neutral encodings of the index's records, shared by the SQLite and PostgreSQL
//! engines: authors as one string, abstracts deflated, flag bits, source and notice
//! codes, the words a title is searched by, and the rule for replacing a record.

use std::io::{Read, Write};

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use super::merge::folded_title;
use super::{DumpSource, NoticeKind};
use crate::model::{Person, Work};
use crate::resolve::normalize::content_of_folded;

pub(crate) const FLAG_RETRACTED: i64 = 1;
pub(crate) const FLAG_CONCERN: i64 = 2;

/// A record's flag bits.
pub(crate) fn flags_of(work: &Work) -> i64 {
    (if work.is_retracted { FLAG_RETRACTED } else { 0 })
        | if work.has_concern { FLAG_CONCERN } else { 0 }
}

pub(crate) fn source_code(source: DumpSource) -> i64 {
    DumpSource::ALL
        .iter()
        .position(|s| *s == source)
        .unwrap_or(0) as i64
}

pub(crate) fn source_of(code: i64) -> DumpSource {
    DumpSource::ALL
        .get(usize::try_from(code).unwrap_or(0))
        .copied()
        .unwrap_or(DumpSource::Corpus)
}

pub(crate) fn notice_code(kind: NoticeKind) -> i64 {
    match kind {
        NoticeKind::Retraction => 1,
        NoticeKind::Concern => 2,
    }
}

pub(crate) fn notice_kind(code: i64) -> NoticeKind {
    if code == 2 {
        NoticeKind::Concern
    } else {
        NoticeKind::Retraction
    }
}

/// The words a title is searched by: folded content words.
pub(crate) fn indexed_words(title: &str) -> String {
    content_of_folded(&folded_title(title)).join(" ")
}

/// Whether a record dated `new` may replace one dated `old` (undated records replace).
pub(crate) fn is_newer_or_same(new: Option<&str>, old: Option<&str>) -> bool {
    match (new, old) {
        (Some(new), Some(old)) => new >= old,
        _ => true,
    }
}

/// The work's flags and abstract shared by all its records: a retraction known to
/// one dump (or named by a notice about any of its DOIs) holds for the work, whatever
/// record is chosen. `notices_of` gives the notices naming a DOI.
pub(crate) fn share_across_records(
    works: &mut [Work],
    mut notices_of: impl FnMut(&str) -> Result<Vec<NoticeKind>, super::IndexError>,
) -> Result<(), super::IndexError> {
    let mut retracted = works.iter().any(|w| w.is_retracted);
    let mut concern = works.iter().any(|w| w.has_concern);
    let mut dois: Vec<String> = works.iter().filter_map(|w| w.doi.clone()).collect();
    dois.sort_unstable();
    dois.dedup();
    for doi in dois {
        for kind in notices_of(&doi)? {
            match kind {
                NoticeKind::Retraction => retracted = true,
                NoticeKind::Concern => concern = true,
            }
        }
    }
    let shared_abstract = works.iter().find_map(|w| w.abstract_text.clone());
    for w in works.iter_mut() {
        w.is_retracted |= retracted;
        w.has_concern |= concern;
        if w.abstract_text.is_none() {
            w.abstract_text = shared_abstract.clone();
        }
    }
    Ok(())
}

/// Authors as one string: `given \x1f family`, separated by `\x1e`.
pub(crate) fn encode_authors(authors: &[Person]) -> String {
    let mut out = String::new();
    for (i, p) in authors.iter().enumerate() {
        if i > 0 {
            out.push('\u{1e}');
        }
        out.push_str(p.given.as_deref().unwrap_or(""));
        out.push('\u{1f}');
        out.push_str(&p.family);
    }
    out
}

pub(crate) fn decode_authors(text: &str) -> Vec<Person> {
    text.split('\u{1e}')
        .filter(|s| !s.is_empty())
        .map(|p| {
            let (given, family) = p.split_once('\u{1f}').unwrap_or(("", p));
            Person::new(Some(given), family)
        })
        .collect()
}

pub(crate) fn deflate(text: &str) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(text.as_bytes());
    encoder.finish().unwrap_or_default()
}

pub(crate) fn inflate(bytes: &[u8]) -> Option<String> {
    let mut text = String::new();
    DeflateDecoder::new(bytes).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The current time, UTC, RFC 3339 (seconds).
pub(crate) fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    httpdate_rfc3339(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, proleptic
/// Gregorian).
fn httpdate_rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_and_abstracts_round_trip() {
        let people = vec![
            Person::new(Some("Ada"), "Lovelace"),
            Person::new(None, "WHO"),
        ];
        assert_eq!(decode_authors(&encode_authors(&people)), people);
        assert!(decode_authors("").is_empty());
        let text = "An abstract about graphs. ".repeat(20);
        let packed = deflate(&text);
        assert!(packed.len() < text.len());
        assert_eq!(inflate(&packed).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(httpdate_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(httpdate_rfc3339(1_709_251_199), "2024-02-29T23:59:59Z");
    }
}
