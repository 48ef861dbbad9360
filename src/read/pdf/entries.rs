//! A reference list's lines into entries. Where hyperref left a `cite.<key>`
//! destination at each entry, those are the boundaries; otherwise the labels (`[12]`,
//! `12.`, a raised `12`) numbered in sequence, the hanging indent, or the space between
//! entries. Lines of one entry that cross columns and pages are joined.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::annotations::CiteAnchor;
use super::layout::Placed;

/// `[12]`, `[Smi99]`, `[Smith et al. 2020]`.
static BRACKET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[([^\]\[]{1,40})\]\s*").expect("bracket label"));
/// `12.`, `12)`, `(12)`.
static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\(?(\d{1,4})[.)]\s+").expect("numbered label"));
/// `12 Smith`: a bare number before the entry.
static BARE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,4})\s+\S").expect("bare label"));

/// One entry: the indices of its lines in the document, its label and its key.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub lines: Vec<usize>,
    pub label: Option<String>,
    /// Characters of the first line that are the label, to leave out of the text.
    pub label_len: usize,
    pub key: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Style {
    Bracket,
    Numbered,
    Raised,
    Bare,
    Unlabelled,
}

/// The label of a line in the given style, and how many characters it takes.
fn label_of(p: &Placed, style: Style) -> Option<(String, usize)> {
    let text = p.line.text.as_str();
    match style {
        Style::Bracket => BRACKET
            .captures(text)
            .map(|c| (c[1].to_string(), c[0].chars().count())),
        Style::Numbered => NUMBERED
            .captures(text)
            .map(|c| (c[1].to_string(), c[0].chars().count())),
        Style::Raised => {
            let prefix: String = text.chars().take(p.line.raised_prefix).collect();
            (!prefix.is_empty() && prefix.chars().all(|c| c.is_ascii_digit()))
                .then_some((prefix, p.line.raised_prefix))
        }
        Style::Bare => BARE
            .captures(text)
            .map(|c| (c[1].to_string(), c[1].chars().count())),
        Style::Unlabelled => None,
    }
}

fn style_of(first: &Placed) -> Style {
    [Style::Raised, Style::Bracket, Style::Numbered, Style::Bare]
        .into_iter()
        .find(|&s| label_of(first, s).is_some())
        .unwrap_or(Style::Unlabelled)
}

/// The left edge of the list's lines in each page's column.
fn edges(doc: &[Placed], lines: &[usize]) -> HashMap<(u32, u8), f64> {
    let mut edges: HashMap<(u32, u8), f64> = HashMap::new();
    for &i in lines {
        let p = &doc[i];
        let e = edges
            .entry((p.line.page, p.column))
            .or_insert(f64::INFINITY);
        *e = e.min(p.line.x0);
    }
    edges
}

/// Split the list's lines (indices into `doc`, furniture left out) into entries.
pub fn split(doc: &[Placed], lines: &[usize], anchors: &[CiteAnchor]) -> Vec<Entry> {
    let Some(&first) = lines.first() else {
        return Vec::new();
    };
    let style = style_of(&doc[first]);
    let edge = edges(doc, lines);
    let at_edge = |i: usize, tol: f64| {
        let p = &doc[i];
        p.line.x0 <= edge[&(p.line.page, p.column)] + tol * p.line.size
    };
    let anchored = anchor_lines(doc, lines, anchors);
    let starts: Vec<bool> = if anchored.len() >= 2 {
        lines.iter().map(|i| anchored.contains_key(i)).collect()
    } else {
        match style {
            Style::Unlabelled => unlabelled_starts(doc, lines, &at_edge),
            _ => labelled_starts(doc, lines, style, &at_edge),
        }
    };
    let mut entries: Vec<Entry> = Vec::new();
    for (k, &i) in lines.iter().enumerate() {
        if starts[k] || entries.is_empty() {
            let (label, label_len) = match label_of(&doc[i], style) {
                Some((l, n)) => (Some(l), n),
                None => (None, 0),
            };
            entries.push(Entry {
                lines: vec![i],
                label,
                label_len,
                key: anchored.get(&i).cloned(),
            });
        } else if let Some(e) = entries.last_mut() {
            e.lines.push(i);
        }
    }
    entries
}

/// Each destination's entry line: the first list line below the destination in the
/// column that holds it (hyperref raises the destination about a line above the entry).
fn anchor_lines(doc: &[Placed], lines: &[usize], anchors: &[CiteAnchor]) -> HashMap<usize, String> {
    let mut out: HashMap<usize, String> = HashMap::new();
    for a in anchors {
        let (Some(ay), ax) = (a.y, a.x) else { continue };
        let best = lines
            .iter()
            .copied()
            .filter(|&i| {
                let l = &doc[i].line;
                l.page == a.page
                    && l.y > ay + 0.25 * l.size
                    // At the entry's start: its label, or the text after a wide label.
                    && ax.is_none_or(|x| x >= l.x0 - 2.0 * l.size && x <= l.x0 + 5.0 * l.size)
            })
            .min_by(|&i, &j| doc[i].line.y.total_cmp(&doc[j].line.y));
        if let Some(i) = best {
            out.entry(i).or_insert_with(|| a.key.clone());
        }
    }
    out
}

/// Labelled entries: a label at the column's edge, numbers in sequence.
fn labelled_starts(
    doc: &[Placed],
    lines: &[usize],
    style: Style,
    at_edge: &dyn Fn(usize, f64) -> bool,
) -> Vec<bool> {
    let mut previous: Option<u32> = None;
    lines
        .iter()
        .map(|&i| {
            let Some((label, _)) = label_of(&doc[i], style) else {
                return false;
            };
            match label.parse::<u32>() {
                Ok(n) => {
                    let next = previous.is_none_or(|p| n == p + 1);
                    let plausible = previous.is_none_or(|p| n > p && n <= p + 3) && at_edge(i, 0.3);
                    let start = (next && at_edge(i, 1.5)) || plausible;
                    if start {
                        previous = Some(n);
                    }
                    start
                }
                // Alphabetic labels: any at the edge.
                Err(_) => at_edge(i, 0.3),
            }
        })
        .collect()
}

/// Entries without labels (author–year): a hanging indent when the list has one, else
/// the extra space between entries, else a line that ends a sentence followed by one
/// that starts with a name.
fn unlabelled_starts(
    doc: &[Placed],
    lines: &[usize],
    at_edge: &dyn Fn(usize, f64) -> bool,
) -> Vec<bool> {
    let indented = lines.iter().filter(|&&i| !at_edge(i, 0.5)).count();
    if indented * 10 >= lines.len() && indented > 0 {
        return lines.iter().map(|&i| at_edge(i, 0.5)).collect();
    }
    // The pitch between consecutive lines of one column.
    let pitch = |a: usize, b: usize| {
        let (p, q) = (&doc[a], &doc[b]);
        (p.line.page == q.line.page && p.column == q.column).then_some(q.line.y - p.line.y)
    };
    let mut pitches: Vec<f64> = lines
        .windows(2)
        .filter_map(|w| pitch(w[0], w[1]))
        .filter(|d| *d > 0.0)
        .collect();
    pitches.sort_by(f64::total_cmp);
    let usual = pitches.get(pitches.len() / 4).copied().unwrap_or(0.0);
    let gapped = usual > 0.0 && pitches.iter().any(|&d| d > 1.25 * usual);
    let mut starts = vec![true];
    for w in lines.windows(2) {
        let start = match pitch(w[0], w[1]) {
            Some(d) if gapped => d > 1.25 * usual,
            _ => sentence_then_name(&doc[w[0]].line.text, &doc[w[1]].line.text),
        };
        starts.push(start);
    }
    starts
}

static NAME_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\p{Lu}[\p{L}'’-]+(?: [\p{Lu}][\p{L}'’-]+)?,\s?\p{Lu}|\p{Lu}[\p{L}'’-]+ \p{Lu}\.|\p{Lu}\.\s?(?:\p{Lu}\.\s?)?\p{Lu}[\p{L}'’-]+)")
        .expect("name start regex")
});

/// A capitalised start with the year soon after it: `World Health Organization (2020)`,
/// `Smith J, Lee K. 2019.`
static YEAR_SOON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\p{Lu}[^()]{0,80}?(?:\((?:1[5-9]|20)\d\d[a-z]?\)|[.,] (?:1[5-9]|20)\d\d[a-z]?\.)")
        .expect("year-soon regex")
});

fn sentence_then_name(previous: &str, next: &str) -> bool {
    previous.trim_end().ends_with('.') && (NAME_START.is_match(next) || YEAR_SOON.is_match(next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::pdf::lines::Line;

    fn placed(x0: f64, y: f64, text: &str) -> Placed {
        Placed {
            line: Line {
                page: 1,
                x0,
                x1: 300.0,
                y,
                size: 10.0,
                text: text.to_string(),
                raised_prefix: 0,
                words: Vec::new(),
            },
            number: 1,
            column: 0,
            furniture: false,
        }
    }

    fn texts(doc: &[Placed], entries: &[Entry]) -> Vec<String> {
        entries
            .iter()
            .map(|e| {
                e.lines
                    .iter()
                    .map(|&i| doc[i].line.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .collect()
    }

    #[test]
    fn bracket_labels_with_indented_continuations() {
        let doc = vec![
            placed(72.0, 100.0, "[1] A. Smith, “Title one,” in Proc. X, 2020."),
            placed(86.0, 112.0, "[Online]. Available: https://x.org"),
            placed(72.0, 124.0, "[2] B. Jones, “Title two,” 2021."),
        ];
        let entries = split(&doc, &[0, 1, 2], &[]);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].label.as_deref(), Some("1"));
        assert_eq!(entries[1].lines, [2]);
    }

    #[test]
    fn hanging_indent_without_labels() {
        let doc = vec![
            placed(72.0, 100.0, "Smith, A. 2020. A title that goes on"),
            placed(82.0, 112.0, "and on. Journal 3."),
            placed(72.0, 124.0, "Jones, B. 2021. Another."),
        ];
        let entries = split(&doc, &[0, 1, 2], &[]);
        assert_eq!(
            texts(&doc, &entries),
            [
                "Smith, A. 2020. A title that goes on | and on. Journal 3.",
                "Jones, B. 2021. Another."
            ]
        );
        assert_eq!(entries[0].label, None);
    }

    #[test]
    fn space_between_flush_entries() {
        let doc = vec![
            placed(72.0, 100.0, "Smith, A. 2020. A title that goes on"),
            placed(72.0, 112.0, "and on. Journal 3."),
            placed(72.0, 128.0, "Jones, B. 2021. Another."),
        ];
        assert_eq!(split(&doc, &[0, 1, 2], &[]).len(), 2);
    }

    #[test]
    fn anchors_decide_when_present() {
        let doc = vec![
            placed(72.0, 100.0, "Smith, A. 2020. Title."),
            placed(72.0, 112.0, "Jones, B. 2021. Another."),
        ];
        let anchors = vec![
            CiteAnchor {
                key: "smith".into(),
                page: 1,
                x: Some(72.0),
                y: Some(90.0),
            },
            CiteAnchor {
                key: "jones".into(),
                page: 1,
                x: Some(72.0),
                y: Some(102.0),
            },
        ];
        let entries = split(&doc, &[0, 1], &anchors);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].key.as_deref(), Some("jones"));
    }
}
