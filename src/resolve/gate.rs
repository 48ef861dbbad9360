//! The title-similarity gate: a candidate record is accepted as the cited work only
//! when its title is close enough to the cited title (see `title_score.rs` for the
//! measures), corroborated where it is close but not close enough, or, when no
//! title was parsed, when its title appears in the raw reference string.

use serde::{Deserialize, Serialize};

use crate::model::{RefFields, Work};
use crate::resolve::authors::first_author_agrees;
use crate::resolve::compare::years_agree;
use crate::resolve::container::is_container_of;
use crate::resolve::identifiers::identifiers_agree;
use crate::resolve::normalize::{decode_latex, fold, strip_markup, strip_retraction_prefix, words};
use crate::resolve::title_score::{GateMethod, title_score};
use crate::resolve::venues::{VenueMatch, compare_venues};

/// Bars a candidate must clear.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GateThresholds {
    /// Title similarity that accepts a candidate on its title alone.
    pub accept: f64,
    /// Lower bar when an identifier, or the first author and the year, agree.
    pub corroborated: f64,
    /// Words of the candidate's title that may be missing from, or interrupted in, a
    /// raw reference string (fewer for short titles: none up to three words, one up
    /// to eight).
    pub raw_max_missing: usize,
}

impl Default for GateThresholds {
    fn default() -> GateThresholds {
        GateThresholds {
            accept: 0.8,
            corroborated: 0.5,
            raw_max_missing: 2,
        }
    }
}

/// The gate's verdict on one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GateDecision {
    pub accepted: bool,
    /// Title similarity in [0, 1] (for raw containment: the share of the record's
    /// title words found in order).
    pub similarity: f64,
    pub method: GateMethod,
}

/// Whether something other than the title ties the reference to the record: an
/// identifier both give, or the first author and the year.
pub fn corroborated(fields: &RefFields, work: &Work) -> bool {
    identifiers_agree(fields, work)
        || (first_author_agrees(&fields.authors, &work.authors) && years_agree(fields, work))
}

/// A cited title that is the record's short main title, or the reverse (`ProtT3` for
/// `ProtT3: Protein-to-Text Generation …`), in a reference that names no authors: the
/// year is all there is to tie them, and it agrees (both given), and the venues do not
/// differ. With authors, the first author must agree instead ([`corroborated`]).
fn main_title_corroborated(fields: &RefFields, work: &Work) -> bool {
    let venues_differ = match (fields.venue.as_deref(), work.venue.as_deref()) {
        (Some(cited), Some(record)) => compare_venues(cited, record) == VenueMatch::Different,
        _ => false,
    };
    fields.authors.is_empty()
        && fields.year.is_some()
        && work.year.is_some()
        && years_agree(fields, work)
        && !venues_differ
}

/// A title that is close but not equal names another work when nothing else agrees:
/// the first author and the year both differ (`Preference learning with Gaussian
/// processes`, 2005, Chu — cited as `Learning inconsistent preferences with Gaussian
/// processes`, 2022, Chau). An identifier in common overrules this.
fn contradicted(fields: &RefFields, work: &Work) -> bool {
    let knowable = !fields.authors.is_empty()
        && !work.authors.is_empty()
        && fields.year.is_some()
        && work.year.is_some();
    knowable
        && !identifiers_agree(fields, work)
        && !first_author_agrees(&fields.authors, &work.authors)
        && !years_agree(fields, work)
}

/// Decide whether `work` is the work the reference cites: its title passes, and it is
/// not the container (volume, journal, book) the cited work appeared in.
pub fn accept(
    fields: &RefFields,
    raw: &str,
    work: &Work,
    thresholds: &GateThresholds,
) -> GateDecision {
    let mut decision = accept_title(fields, raw, work, thresholds);
    decision.accepted &= !is_container_of(fields, work, decision.method);
    decision
}

/// The title part of [`accept`].
fn accept_title(
    fields: &RefFields,
    raw: &str,
    work: &Work,
    thresholds: &GateThresholds,
) -> GateDecision {
    let title = fields.title.as_deref().filter(|t| !fold(t).is_empty());
    let Some(title) = title else {
        let (similarity, accepted) = title_in_raw(raw, &work.title, thresholds.raw_max_missing);
        return GateDecision {
            accepted,
            similarity,
            method: GateMethod::RawContainment,
        };
    };
    let (similarity, method) = title_score(title, &work.title);
    if similarity >= thresholds.accept {
        return GateDecision {
            accepted: method == GateMethod::Exact || !contradicted(fields, work),
            similarity,
            method,
        };
    }
    let accepted = similarity >= thresholds.corroborated
        && (corroborated(fields, work)
            || (method == GateMethod::Subtitle && main_title_corroborated(fields, work)));
    GateDecision {
        accepted,
        similarity,
        method: if accepted {
            GateMethod::Corroborated
        } else {
            method
        },
    }
}

/// A raw reference string as words, each flagged when punctuation (not just spaces
/// or a joining hyphen) separates it from the previous word; prepared once to test
/// many titles against it.
#[derive(Debug, Clone)]
pub struct RawWords(Vec<(String, bool)>);

impl RawWords {
    pub fn new(raw: &str) -> RawWords {
        RawWords(raw_words(raw))
    }
}

fn raw_words(raw: &str) -> Vec<(String, bool)> {
    let text = strip_markup(&decode_latex(raw));
    let mut out = Vec::new();
    let mut chunk = String::new();
    let mut gap_break = true;
    let mut gap_space = false;
    let flush = |chunk: &mut String, gap_break: &mut bool, out: &mut Vec<(String, bool)>| {
        if chunk.is_empty() {
            return;
        }
        for (k, w) in fold(chunk).split(' ').filter(|w| !w.is_empty()).enumerate() {
            out.push((w.to_string(), k == 0 && *gap_break));
        }
        chunk.clear();
        *gap_break = false;
    };
    for c in text.chars() {
        let joining_dash = matches!(c, '-' | '‐' | '‑' | '–' | '/');
        if c.is_alphanumeric()
            || matches!(c, '\'' | '’' | '&')
            || (joining_dash && !gap_space && !chunk.is_empty())
        {
            if joining_dash {
                chunk.push(' ');
            } else {
                chunk.push(c);
            }
            gap_space = false;
            continue;
        }
        flush(&mut chunk, &mut gap_break, &mut out);
        if c.is_whitespace() {
            gap_space = true;
        } else {
            gap_break = true;
        }
    }
    flush(&mut chunk, &mut gap_break, &mut out);
    out
}

/// Whether a record's title appears in a raw reference string: its words in order,
/// at most a few missing or interrupted, bounded by punctuation on both sides (so a
/// short title inside a longer cited title does not count). Returns the share of
/// title words found and the verdict.
pub fn title_in_raw(raw: &str, title: &str, max_missing: usize) -> (f64, bool) {
    title_in_raw_words(&RawWords::new(raw), title, max_missing)
}

/// [`title_in_raw`] against a prepared raw string.
pub fn title_in_raw_words(raw: &RawWords, title: &str, max_missing: usize) -> (f64, bool) {
    let (share, ok, _) = raw_match(raw, title, max_missing);
    (share, ok)
}

/// The words of a raw reference string that carry a record's title, when
/// [`title_in_raw`] finds it there: the title as the reference writes it (folded),
/// with whatever words it changed, added or dropped.
pub fn title_window_in_raw(raw: &RawWords, title: &str, max_missing: usize) -> Option<String> {
    let (_, ok, window) = raw_match(raw, title, max_missing);
    let (first, last) = window.filter(|_| ok)?;
    Some(
        raw.0[first..=last]
            .iter()
            .map(|(w, _)| w.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The best window of `raw` for `title`: share of title words found, whether it
/// passes, and the window's first and last word.
fn raw_match(
    raw: &RawWords,
    title: &str,
    max_missing: usize,
) -> (f64, bool, Option<(usize, usize)>) {
    let raw = &raw.0;
    let title_words = words(strip_retraction_prefix(title).0);
    let t = title_words.len();
    if t == 0 {
        return (0.0, false, None);
    }
    let allowed = match t {
        0..=3 => 0,
        4..=8 => 1.min(max_missing),
        _ => max_missing,
    };
    let mut best = (0.0, false, None);
    for start in 0..raw.len() {
        if !title_words
            .iter()
            .take(allowed + 1)
            .any(|w| *w == raw[start].0)
        {
            continue;
        }
        let end = raw.len().min(start + t + allowed);
        let (lcs, first, last) = lcs_span(&title_words, &raw[start..end]);
        if lcs == 0 {
            continue;
        }
        let (first, last) = (start + first, start + last);
        let missing = t - lcs;
        let extra = (last - first + 1) - lcs;
        let bounded = raw[first].1 && raw.get(last + 1).is_none_or(|w| w.1);
        let share = lcs as f64 / t as f64;
        let ok = t >= 2 && missing <= allowed && extra <= allowed && bounded;
        if (ok, share) > (best.1, best.0) {
            best = (share, ok, Some((first, last)));
        }
    }
    best
}

/// Longest common subsequence of `title` and `window`, with the window positions of
/// its first and last matched words.
fn lcs_span(title: &[String], window: &[(String, bool)]) -> (usize, usize, usize) {
    let (n, m) = (title.len(), window.len());
    let mut dp = vec![vec![0usize; m + 1]; n + 1];
    for i in 0..n {
        for j in 0..m {
            dp[i + 1][j + 1] = if title[i] == window[j].0 {
                dp[i][j] + 1
            } else {
                dp[i][j + 1].max(dp[i + 1][j])
            };
        }
    }
    let (mut i, mut j) = (n, m);
    let (mut first, mut last) = (0, 0);
    let mut seen_last = false;
    // Prefer dropping trailing window words, so the match ends as early as it can.
    while i > 0 && j > 0 {
        if dp[i][j - 1] == dp[i][j] {
            j -= 1;
        } else if title[i - 1] == window[j - 1].0 && dp[i][j] == dp[i - 1][j - 1] + 1 {
            if !seen_last {
                last = j - 1;
                seen_last = true;
            }
            first = j - 1;
            i -= 1;
            j -= 1;
        } else {
            i -= 1;
        }
    }
    (dp[n][m], first, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;
    use crate::resolve::title_score::*;

    #[test]
    fn a_short_main_title_without_authors_is_tied_by_the_year() {
        let record = Work {
            title: "ProtT3: Protein-to-Text Generation for Text-based Protein Understanding".into(),
            year: Some(2024),
            venue: Some("Annual Meeting of the Association for Computational Linguistics".into()),
            ..Work::default()
        };
        let cited = |year: i32, venue: &str| RefFields {
            title: Some("ProtT3".into()),
            year: Some(year),
            venue: Some(venue.into()),
            ..RefFields::default()
        };
        let t = GateThresholds::default();
        let same = cited(
            2024,
            "Annual Meeting of the Association for Computational Linguistics",
        );
        assert!(accept(&same, "", &record, &t).accepted);
        assert!(accept(&cited(2024, "arXiv.org"), "", &record, &t).accepted);
        // Another year, or another venue, is another work.
        let other_year = cited(
            2015,
            "Annual Meeting of the Association for Computational Linguistics",
        );
        assert!(!accept(&other_year, "", &record, &t).accepted);
        assert!(!accept(&cited(2024, "Nature"), "", &record, &t).accepted);
        // With authors, the first author decides.
        let mut with_authors = same.clone();
        with_authors.authors = vec![crate::model::Person::new(Some("A."), "Nobody")];
        assert!(!accept(&with_authors, "", &record, &t).accepted);
    }

    fn fields(title: Option<&str>, first: (&str, &str), year: i32) -> RefFields {
        RefFields {
            title: title.map(str::to_string),
            authors: vec![Person::new(Some(first.0), first.1)],
            year: Some(year),
            ..RefFields::default()
        }
    }

    fn work(title: &str, first: (&str, &str), year: i32) -> Work {
        Work {
            title: title.into(),
            authors: vec![Person::new(Some(first.0), first.1)],
            year: Some(year),
            ..Work::default()
        }
    }

    #[test]
    fn near_miss_needs_corroboration() {
        let record = work(
            "Early warning signals: the charted and uncharted territories",
            ("Carl", "Boettiger"),
            2013,
        );
        let t = GateThresholds::default();
        let cited = "Initial warning signs: the charted and unknown territories";
        let right = fields(Some(cited), ("C.", "Boettiger"), 2013);
        let decision = accept(&right, "", &record, &t);
        assert!(decision.accepted, "{decision:?}");
        assert_eq!(decision.method, GateMethod::Corroborated);
        let wrong_author = fields(Some(cited), ("A.", "Turing"), 2013);
        assert!(!accept(&wrong_author, "", &record, &t).accepted);
        let wrong_year = fields(Some(cited), ("C.", "Boettiger"), 2019);
        assert!(!accept(&wrong_year, "", &record, &t).accepted);
    }

    #[test]
    fn raw_containment_needs_the_title_bounded_by_punctuation() {
        let raw = "Turing, A. Checking a large routine. (1989).";
        assert!(title_in_raw(raw, "Checking a large routine", 2).1);
        let raw = "**Deep Learning for Semantic Segmentation** - Lee et al., CVPR (2023).";
        assert!(!title_in_raw(raw, "Deep learning", 2).1);
        let raw = "[3] A. B, \u{201c}Rao-Blackwellized particle filters for mapping,\u{201d} in Proc. X, 2011.";
        assert!(title_in_raw(raw, "Rao–Blackwellized Particle Filters for Mapping", 2).1);
        // The title's last word recurs just after it: the match must end at the first.
        let raw = "[19] F. Johns, \u{201c}Digital humanitarian mapping and the limits of imagination in international law,\u{201d} Law Crit, 2023.";
        assert!(
            title_in_raw(
                raw,
                "Digital Humanitarian Mapping and the Limits of Imagination in International Law",
                2
            )
            .1
        );
        let raw = "[3] A. B, \u{201c}Rao-Blackwellized particle filters for mapping,\u{201d} in Proc. X, 2011.";
        assert!(title_in_raw(raw, "Rao–Blackwellized Particle Filters for Mapping", 2).1);
        // One word of a long title missing is tolerated.
        let raw = "Smith J. Revisiting deep models for tabular data. NeurIPS. 2021.";
        assert!(title_in_raw(raw, "Revisiting deep learning models for tabular data", 2).1);
        assert!(!title_in_raw(raw, "Revisiting models", 2).1);
        let no_title = RefFields::default();
        let record = work("Checking a large routine", ("Alan", "Turing"), 1949);
        let decision = accept(
            &no_title,
            "Turing, A. Checking a large routine. (1989).",
            &record,
            &GateThresholds::default(),
        );
        assert!(decision.accepted);
        assert_eq!(decision.method, GateMethod::RawContainment);
    }
}
