//! How similar two titles are, and by which measure: the scores the title gate
//! (`gate.rs`) and the title index read.
//!
//! Similarity is the larger of two measures on folded titles (see `normalize`):
//! - word overlap: Dice coefficient over stop-word-filtered words, as DeepSciVerify
//!   does, where two words also match when they are spelling variants (`modelling`
//!   / `modeling`, `network` / `networks`);
//! - edit similarity: normalised Levenshtein over the whole folded title (strsim),
//!   which is what keeps short titles with a typo above the bar.
//!
//! Subtitles: a title that equals the other's main title (the part before `:`, a
//! spaced dash or `?`) is the same work cited with or without its subtitle. It scores
//! [`SUBTITLE_SIMILARITY`] when the shared main title has at least three content
//! words, which clears the default bar; a shorter main title (`BERT`) scores
//! [`SHORT_SUBTITLE_SIMILARITY`], which needs corroboration by an identifier or by
//! first author and year — or, in a reference that names no authors, by the year
//! with no disagreeing venue.

use serde::{Deserialize, Serialize};
use strsim::normalized_levenshtein;

use crate::resolve::normalize::{
    content_of_folded, content_words, fold, spelling_variant, split_subtitle,
    strip_retraction_prefix,
};

/// Score of a title that equals the other's main title of three or more content words.
pub const SUBTITLE_SIMILARITY: f64 = 0.9;
/// Score of a title that equals the other's short main title (`BERT: Pre-training …`).
pub const SHORT_SUBTITLE_SIMILARITY: f64 = 0.7;

/// Which measure decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateMethod {
    /// Equal once folded (case, accents, markup, punctuation, spacing).
    Exact,
    WordOverlap,
    EditDistance,
    /// One title is the other's main title.
    Subtitle,
    /// Close title accepted because an identifier or first author + year agree.
    Corroborated,
    /// No parsed title: the record's title appears in the raw reference.
    RawContainment,
    /// Only an identifier was cited, and the record carries it.
    Identifier,
}

/// Words of `a` matched one-to-one in `b`: exact matches first, then spelling variants.
pub fn matched_words(a: &[String], b: &[String]) -> usize {
    let mut used = vec![false; b.len()];
    let mut pending = Vec::new();
    let mut matched = 0;
    for w in a {
        match (0..b.len()).find(|&j| !used[j] && b[j] == *w) {
            Some(j) => {
                used[j] = true;
                matched += 1;
            }
            None => pending.push(w),
        }
    }
    for w in pending {
        if let Some(j) = (0..b.len()).find(|&j| !used[j] && spelling_variant(w, &b[j])) {
            used[j] = true;
            matched += 1;
        }
    }
    matched
}

/// Dice coefficient over content words with spelling-variant matching.
pub fn word_overlap(a: &str, b: &str) -> f64 {
    let (x, y) = (content_words(a), content_words(b));
    if x.is_empty() || y.is_empty() {
        return 0.0;
    }
    2.0 * matched_words(&x, &y) as f64 / (x.len() + y.len()) as f64
}

/// A title folded once, for comparing it with many others.
#[derive(Debug, Clone)]
pub struct PreparedTitle {
    folded: String,
    compact: String,
    content: Vec<String>,
    /// The main title before a subtitle separator: compact form and content words.
    main: Option<(String, Vec<String>)>,
}

impl PreparedTitle {
    pub fn new(title: &str) -> PreparedTitle {
        let title = strip_retraction_prefix(title).0;
        let folded = fold(title);
        let main = split_subtitle(title).map(|(main, _)| {
            let f = fold(main);
            (f.replace(' ', ""), content_of_folded(&f))
        });
        // `I` is a stop word as a pronoun but a number in `Part I`: keep it, so that
        // `Part I` and `Part II` differ by a word.
        let mut content = content_of_folded(&folded);
        if !content.iter().any(|w| w == "i") {
            content.extend(folded.split(' ').filter(|w| *w == "i").map(str::to_string));
        }
        PreparedTitle {
            compact: folded.replace(' ', ""),
            content,
            folded,
            main,
        }
    }
}

/// Similarity of a cited title and a record title, with the measure that gave it.
pub fn title_score(cited: &str, record: &str) -> (f64, GateMethod) {
    prepared_score(&PreparedTitle::new(cited), &PreparedTitle::new(record))
}

/// [`title_score`] of prepared titles.
pub fn prepared_score(cited: &PreparedTitle, record: &PreparedTitle) -> (f64, GateMethod) {
    let (fc, fr) = (&cited.folded, &record.folded);
    if fc.is_empty() || fr.is_empty() {
        return (0.0, GateMethod::WordOverlap);
    }
    if cited.compact == record.compact {
        return (1.0, GateMethod::Exact);
    }
    let (x, y) = (&cited.content, &record.content);
    let overlap = 2.0 * matched_words(x, y) as f64 / (x.len() + y.len()) as f64;
    let mut best = (overlap, GateMethod::WordOverlap);
    // Edit similarity cannot exceed the length ratio: skip it when that cannot win.
    // Nor may it bridge different numbers: `GPT-3` and `GPT-4`, `Part I` and `Part II`
    // are one character apart and different works.
    let (lc, lr) = (fc.chars().count(), fr.chars().count());
    if lc.min(lr) as f64 / lc.max(lr) as f64 > overlap && numbers(fc) == numbers(fr) {
        let edit = normalized_levenshtein(fc, fr);
        if edit > overlap {
            best = (edit, GateMethod::EditDistance);
        }
    }
    if let Some(score) = subtitle_score(cited, record)
        && score > best.0
    {
        best = (score, GateMethod::Subtitle);
    }
    best
}

/// The numbers of a folded title (digits and Roman numerals), sorted.
fn numbers(folded: &str) -> Vec<&str> {
    const ROMAN: &[&str] = &["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"];
    let mut out: Vec<&str> = folded
        .split(' ')
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || ROMAN.contains(w))
        .collect();
    out.sort_unstable();
    out
}

/// The score of a subtitle-only difference, if that is what separates the titles.
fn subtitle_score(cited: &PreparedTitle, record: &PreparedTitle) -> Option<f64> {
    let shared_main = |whole: &PreparedTitle, other: &PreparedTitle| -> Option<usize> {
        let (compact, m) = other.main.as_ref()?;
        let w = &whole.content;
        (*compact == whole.compact || (m.len() == w.len() && matched_words(m, w) == m.len()))
            .then_some(m.len())
    };
    let main_words = shared_main(cited, record).or_else(|| shared_main(record, cited))?;
    Some(if main_words >= 3 {
        SUBTITLE_SIMILARITY
    } else {
        SHORT_SUBTITLE_SIMILARITY
    })
}

/// Similarity of a cited title and a record title in [0, 1].
pub fn title_similarity(cited: &str, record: &str) -> f64 {
    title_score(cited, record).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::gate::GateThresholds;

    #[test]
    fn formatting_differences_are_exact() {
        for (a, b) in [
            (
                "{BERT}: Pre-training of Deep Bidirectional Transformers",
                "BERT: pre-training of deep bidirectional transformers",
            ),
            (
                r"\emph{In vivo} imaging of $\alpha$-synuclein",
                "In Vivo Imaging of α-Synuclein",
            ),
            (
                "Avalia{\\c{c}}{\\~a}o do senso comum",
                "Avaliação Do Senso Comum",
            ),
            ("Visual–Inertial Navigation", "Visual-inertial navigation"),
            ("<i>E. coli</i> growth", "E. coli growth"),
            (
                "A 1D CNN for motor imagery",
                "RETRACTED: A 1D CNN for motor imagery",
            ),
            (
                "Artificial intelligence in disease diagnosis",
                "RETRACTED ARTICLE: Artificial intelligence in disease diagnosis",
            ),
            ("Pretraining transformers", "Pre-training transformers"),
        ] {
            assert_eq!(title_score(a, b), (1.0, GateMethod::Exact), "{a} | {b}");
        }
    }

    #[test]
    fn short_titles_with_a_typo_pass_on_edit_distance() {
        let (score, method) = title_score("Atention is all you ned", "Attention is all you need");
        assert!(score >= 0.9, "{score}");
        assert_eq!(method, GateMethod::EditDistance);
    }

    #[test]
    fn different_numbers_are_not_typos() {
        assert!(title_similarity("GPT-4 technical report", "GPT-3 technical report") < 0.8);
        assert!(
            title_similarity(
                "Mechanics of solids, part I",
                "Mechanics of solids, part II"
            ) < 0.8
        );
        assert!(title_similarity("YOLOv4: optimal speed", "YOLOv3: optimal speed") < 0.8);
    }

    #[test]
    fn spelling_variants_count_as_overlap() {
        assert!(word_overlap("Modelling colour perception", "Modeling color perception") > 0.99);
        assert!(spelling_variant("networks", "network"));
        assert!(!spelling_variant("2019", "2018"));
        assert!(!spelling_variant("data", "date"));
    }

    #[test]
    fn subtitles_score_by_main_title_length() {
        let long = "Early warning signals: the charted and uncharted territories";
        assert_eq!(
            title_score("Early warning signals", long),
            (SUBTITLE_SIMILARITY, GateMethod::Subtitle)
        );
        let bert =
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding";
        assert_eq!(title_score("BERT", bert).1, GateMethod::Subtitle);
        assert!(title_similarity("BERT", bert) < GateThresholds::default().accept);
    }

    #[test]
    fn different_titles_score_low() {
        assert!(
            title_similarity(
                "Graph attention networks",
                "Deep residual learning for image recognition"
            ) < 0.3
        );
        assert!(title_similarity("Deep learning for semantic segmentation", "Deep learning") < 0.8);
    }
}
