//! Property tests of `clean`'s edits: for arbitrary answers (prose, markers in every
//! layout, ranges, orphans, look-alikes that are no markers) and any subset of
//! citations to remove, the cleaned answer is the original with only those markers
//! edited, and every kept marker names the same reference as before.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

use proptest::prelude::*;

use citeproof::clean::edit::{self, Fate, Note};
use citeproof::clean::read::{self, Reading, Target};
use citeproof::clean::{
    Article, CleanOptions, CleanRequest, Cleaner, Numbering, Settled, Status, clean_blocking,
};
use citeproof::settle::Settle;

const WORDS: &[&str] = &[
    "sleep", "quality", "improves", "with", "exercise", "in", "older", "adults", "the", "effect",
    "is", "larger", "for", "aerobic", "training", "cohort", "studies", "mRNA", "H2O", "COVID-19",
    "shows", "é", "naïve", "über",
];

/// How a sentence's markers are written.
#[derive(Debug, Clone)]
enum Layout {
    /// ` [a]`
    Spaced(u32),
    /// `[a]` glued to the last word (only numbers that have an entry).
    Glued(u32),
    /// ` [a, b, …]` or ` [a;b]`
    Group(Vec<u32>, &'static str),
    /// ` [a-b]` with a dash of some kind
    Range(u32, u32, &'static str),
    /// ` [a][b]` or ` [a] [b]`
    Adjacent(Vec<u32>, &'static str),
}

#[derive(Debug, Clone)]
struct Sentence {
    words: Vec<&'static str>,
    layout: Layout,
    /// A look-alike that is no marker: inline code or an index glued to a word
    /// with no entry.
    decoy: Option<&'static str>,
    end: &'static str,
}

fn layout(n: u32) -> impl Strategy<Value = Layout> {
    let any = 1..=n + 2; // numbers past the list are orphans
    let listed = 1..=n;
    prop_oneof![
        any.clone().prop_map(Layout::Spaced),
        listed.clone().prop_map(Layout::Glued),
        (
            prop::collection::vec(any.clone(), 2..4),
            prop::sample::select(vec![", ", ",", "; "])
        )
            .prop_map(|(v, s)| Layout::Group(v, s)),
        (
            listed.clone(),
            1..=3u32,
            prop::sample::select(vec!["-", "–", "—"])
        )
            .prop_map(move |(a, len, d)| Layout::Range(a, (a + len).min(n.max(a + 1)), d)),
        (
            prop::collection::vec(any, 2..4),
            prop::sample::select(vec!["", " "])
        )
            .prop_map(|(v, s)| Layout::Adjacent(v, s)),
    ]
}

fn sentence(n: u32) -> impl Strategy<Value = Sentence> {
    (
        prop::collection::vec(prop::sample::select(WORDS), 1..6),
        layout(n),
        prop::option::weighted(
            0.2,
            prop::sample::select(vec![" see `x[1]`", " read array[99]"]),
        ),
        prop::sample::select(vec![".", ",", ";", "!"]),
    )
        .prop_map(|(words, layout, decoy, end)| Sentence {
            words,
            layout,
            decoy,
            end,
        })
}

fn markers(layout: &Layout) -> String {
    let list = |v: &[u32], sep: &str| v.iter().map(u32::to_string).collect::<Vec<_>>().join(sep);
    match layout {
        Layout::Spaced(a) => format!(" [{a}]"),
        Layout::Glued(a) => format!("[{a}]"),
        Layout::Group(v, sep) => format!(" [{}]", list(v, sep)),
        Layout::Range(a, b, dash) => format!(" [{a}{dash}{b}]"),
        Layout::Adjacent(v, sep) => format!(
            " {}",
            v.iter()
                .map(|x| format!("[{x}]"))
                .collect::<Vec<_>>()
                .join(sep)
        ),
    }
}

/// An answer: sentences (a paragraph break now and then), then the list.
fn answer() -> impl Strategy<Value = (String, u32)> {
    (1..7u32)
        .prop_flat_map(|n| {
            (
                Just(n),
                prop::collection::vec((sentence(n), prop::bool::weighted(0.2)), 1..8),
                prop::sample::select(vec!["[{k}] ", "{k}. "]),
            )
        })
        .prop_map(|(n, sentences, item)| {
            let mut text = String::new();
            for (i, (s, paragraph)) in sentences.iter().enumerate() {
                if i > 0 {
                    text.push_str(if *paragraph { "\n\n" } else { " " });
                }
                let mut words = s.words.join(" ");
                if let Some(first) = words.get(..1) {
                    words = first.to_uppercase() + &words[1..];
                }
                text.push_str(&words);
                text.push_str(&markers(&s.layout));
                if let Some(decoy) = s.decoy {
                    text.push_str(decoy);
                }
                text.push_str(s.end);
            }
            text.push_str("\n\nReferences:\n");
            for k in 1..=n {
                text.push_str(&item.replace("{k}", &k.to_string()));
                text.push_str(&format!(
                    "Author{k} A. Title number {k} on sleep. 2020. doi:10.1234/ref.{k}\n"
                ));
            }
            (text, n)
        })
}

/// The body (before the list) with every marker the parser reads, and the spaces
/// before it, taken out.
fn prose_without_markers(text: &str) -> String {
    let reading = read::read(text, None, None, Numbering::Auto);
    let body_end = text.find("\n\nReferences:").unwrap_or(text.len());
    let mut groups: Vec<(usize, usize)> = reading
        .cites
        .iter()
        .map(|c| (c.citation.group_span.start, c.citation.group_span.end))
        .collect();
    groups.dedup();
    let mut out = String::new();
    let mut at = 0;
    for (start, end) in groups {
        let lead = text[..start].len() - text[..start].trim_end_matches([' ', '\t']).len();
        out.push_str(&text[at..(start - lead).max(at)]);
        at = end;
    }
    out.push_str(&text[at.min(body_end)..body_end]);
    // A list dropped whole leaves the answer's final line break.
    out.trim_end_matches('\n').to_string()
}

/// The reference each marker names, by its entry's text without the number: one per
/// citation in body order (`None` for orphans).
fn named_entries(text: &str) -> Vec<Option<String>> {
    let reading = read::read(text, None, None, Numbering::Auto);
    reading
        .cites
        .iter()
        .map(|c| match c.target {
            Target::Reference(r) => Some(entry_body(&reading, r)),
            _ => None,
        })
        .collect()
}

fn entry_body(reading: &Reading, r: usize) -> String {
    let raw = &reading.references[r].raw;
    raw.split_once(' ')
        .map_or(raw.clone(), |(_, rest)| rest.to_string())
}

/// The numbers of the markers in body order.
fn numbers(text: &str) -> Vec<u32> {
    read::read(text, None, None, Numbering::Auto)
        .cites
        .iter()
        .filter_map(|c| c.number)
        .collect()
}

/// Check the properties for an original, its cleaned form and the citations kept.
fn check(original: &str, cleaned: &str, kept: &[bool]) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        prose_without_markers(original),
        prose_without_markers(cleaned),
        "only markers may change:\n{}\n---\n{}",
        original,
        cleaned
    );
    let before = named_entries(original);
    let expected: Vec<Option<String>> = before
        .iter()
        .zip(kept)
        .filter(|(_, k)| **k)
        .map(|(e, _)| e.clone())
        .collect();
    prop_assert_eq!(
        named_entries(cleaned),
        expected,
        "{}\n---\n{}",
        original,
        cleaned
    );
    let mut seen: Vec<u32> = Vec::new();
    for n in numbers(cleaned) {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
    let first_appearance: Vec<u32> = (1..=seen.len() as u32).collect();
    let mut sorted = seen.clone();
    sorted.sort_unstable();
    prop_assert_eq!(sorted, first_appearance, "numbers are 1..k: {}", cleaned);
    prop_assert!(!cleaned.contains("[]") && !cleaned.contains("[,") && !cleaned.contains(", ]"));
    for punct in [" .", " ,", " ;", " !"] {
        prop_assert_eq!(
            original.matches(punct).count(),
            cleaned.matches(punct).count(),
            "no space before punctuation: {}",
            cleaned
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config::config(512))]

    #[test]
    fn only_the_chosen_markers_change((text, _n) in answer(), seed in any::<u64>()) {
        let reading = read::read(&text, None, None, Numbering::Auto);
        // Any subset of the citations: bit k of the seed (cycled) removes citation k.
        let fates: Vec<Fate> = (0..reading.cites.len())
            .map(|k| if seed.rotate_left(k as u32 % 64) & 1 == 1 { Fate::Remove } else { Fate::Keep })
            .collect();
        let notes = vec![Note { status: "valid", reason: String::new() }; fates.len()];
        let settled = Settled::from_layers([&CleanOptions::default()]).unwrap();
        let cleaned = edit::apply(&text, None, &reading, &fates, &settled, &notes).answer;
        let kept: Vec<bool> = fates.iter().map(|f| *f == Fate::Keep).collect();
        check(&text, &cleaned, &kept)?;
        if fates.iter().all(|f| *f == Fate::Keep) && numbers(&text) == numbers(&cleaned) {
            let body = |t: &str| t.split("\n\nReferences:").next().unwrap_or("").to_string();
            prop_assert_eq!(body(&cleaned), body(&text));
        }
    }

    #[test]
    fn cleaning_against_sources_removes_exactly_the_unretrieved((text, n) in answer(), retrieved in any::<u8>()) {
        // Sources: the references whose bit is set; everything else is not found.
        let sources: Vec<Article> = (1..=n)
            .filter(|k| retrieved >> (k - 1) & 1 == 1)
            .map(|k| Article {
                doi: Some(format!("10.1234/ref.{k}")),
                title: Some(format!("Title number {k} on sleep")),
                ..Article::default()
            })
            .collect();
        let request = CleanRequest {
            answer: text.clone(),
            sources: Some(sources),
            options: Some(CleanOptions { threshold: Some(0.0), ..CleanOptions::default() }),
            ..CleanRequest::default()
        };
        let cleaned = clean_blocking(&Cleaner::default(), &request).unwrap();
        let reading = read::read(&text, None, None, Numbering::Auto);
        let kept: Vec<bool> = reading
            .cites
            .iter()
            .map(|c| c.number.is_some_and(|k| k <= n && retrieved >> (k - 1) & 1 == 1))
            .collect();
        for (entry, keep) in cleaned.report.citations.iter().zip(&kept) {
            prop_assert_eq!(entry.status != Status::NotFound, *keep, "{:?}", entry);
        }
        check(&text, &cleaned.cleaned, &kept)?;
    }
}
