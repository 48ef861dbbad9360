//! Where a reference list starts and where it ends. It starts at a heading
//! (`References`, `Bibliography`, `Literatur`, …) or, without one, at a run of entries
//! numbered from 1; it ends at the next heading set larger than the entries, at an
//! appendix, checklist or supplement heading, or at the next reference heading.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::layout::Placed;

/// A reference heading, spaces removed and lower-cased (small capitals come out as
/// `R EFERENCES`), with an optional section number or letter before it.
static HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:\d{1,2}|[ivxlc]{1,5}|[a-z])?\.?(?:references?|bibliography|literatur(?:verzeichnis)?|literaturecited|workscited|citedliterature|références(?:bibliographiques)?|bibliographie|referencias(?:bibliográficas)?|bibliografía|bibliografia|referências(?:bibliográficas)?|riferimentibibliografici|literatura|listofreferences|referencelist|参考文献):?$",
    )
    .expect("reference heading regex")
});

/// What follows a reference list and is not part of it.
static AFTER_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:[A-Z](?:\.\d+)*\.?\s+)?(?:appendix|appendices|supplementary|supplemental|checklist|neurips paper checklist|acknowledg|author contributions|biograph|about the authors?|index$|glossary|list of (?:figures|tables|symbols))",
    )
    .expect("after-list regex")
});

static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\D)(?:1[5-9]|20)\d\d(?:\D|$)").expect("year regex"));

static FIRST_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:\[1\]|1\.|\(1\))\s").expect("first label regex"));

/// Whether a line is a reference-list heading.
pub fn is_heading(text: &str) -> bool {
    if text.len() > 60 {
        return false;
    }
    let squeezed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    HEADING.is_match(&squeezed)
}

/// The reference lists of the document: for each, the index of its heading (if any)
/// and the range of lines (indices into `doc`) its entries occupy.
pub fn find(doc: &[Placed]) -> Vec<(Option<usize>, Range<usize>)> {
    let headings: Vec<usize> = (0..doc.len())
        .filter(|&i| !doc[i].furniture && is_heading(&doc[i].line.text))
        .collect();
    let mut out = Vec::new();
    for (k, &h) in headings.iter().enumerate() {
        let limit = headings.get(k + 1).copied().unwrap_or(doc.len());
        let end = list_end(doc, h + 1, limit);
        if looks_like_references(doc, h + 1..end) {
            out.push((Some(h), h + 1..end));
        }
    }
    if out.is_empty()
        && let Some(start) = numbered_run(doc)
    {
        let end = list_end(doc, start, doc.len());
        out.push((None, start..end));
    }
    out
}

/// The entries' size: the median size of the first lines after the start.
fn entry_size(doc: &[Placed], start: usize, limit: usize) -> f64 {
    let mut sizes: Vec<f64> = doc[start..limit]
        .iter()
        .filter(|p| !p.furniture)
        .take(15)
        .map(|p| p.line.size)
        .collect();
    if sizes.is_empty() {
        return 0.0;
    }
    sizes.sort_by(f64::total_cmp);
    sizes[sizes.len() / 2]
}

/// Where the list that starts at `start` ends (exclusive), at the latest at `limit`.
fn list_end(doc: &[Placed], start: usize, limit: usize) -> usize {
    let size = entry_size(doc, start, limit);
    for (i, p) in doc.iter().enumerate().take(limit).skip(start) {
        if p.furniture {
            continue;
        }
        let text = p.line.text.trim();
        let larger = p.line.size > size * 1.12 && text.chars().count() < 120;
        let after = text.chars().count() < 80 && !YEAR.is_match(text) && AFTER_LIST.is_match(text);
        if (larger || after) && i > start {
            return i;
        }
    }
    limit
}

/// A heading followed by a table of contents, or by nothing, is not a reference list:
/// most lines of a reference list carry a year.
fn looks_like_references(doc: &[Placed], range: Range<usize>) -> bool {
    let lines: Vec<&Placed> = doc[range].iter().filter(|p| !p.furniture).collect();
    if lines.is_empty() {
        return false;
    }
    let with_year = lines.iter().filter(|p| YEAR.is_match(&p.line.text)).count();
    with_year * 5 >= lines.len() || (lines.len() <= 3 && with_year >= 1)
}

/// Without a heading: the last line labelled `[1]`, `1.` or `(1)` at a column's left
/// edge that is followed by `2` and `3` within the next lines.
fn numbered_run(doc: &[Placed]) -> Option<usize> {
    let label_number = |text: &str| -> Option<u32> {
        let t = text.trim_start_matches(['[', '(']);
        let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
        let rest = &t[digits.len()..];
        (rest.starts_with(']') || rest.starts_with('.') || rest.starts_with(')'))
            .then(|| digits.parse().ok())
            .flatten()
    };
    (0..doc.len()).rev().find(|&i| {
        if doc[i].furniture || !FIRST_LABEL.is_match(&doc[i].line.text) {
            return false;
        }
        let mut expected = 2;
        for p in doc[i + 1..].iter().take(60) {
            if label_number(&p.line.text) == Some(expected) {
                expected += 1;
            }
        }
        expected > 3
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_in_their_spellings() {
        for h in [
            "References",
            "REFERENCES",
            "R EFERENCES",
            "7 References",
            "VII. REFERENCES",
            "Bibliography",
            "Literaturverzeichnis",
            "Literatur",
            "Références",
            "Works Cited",
            "References:",
        ] {
            assert!(is_heading(h), "{h}");
        }
        for h in [
            "References 23",
            "See the references below",
            "Referees",
            "Reference manager list",
        ] {
            assert!(!is_heading(h), "{h}");
        }
    }

    #[test]
    fn what_comes_after_a_list() {
        for t in [
            "Appendix",
            "A Appendix",
            "Appendix A: Proofs",
            "Supplementary Material",
            "NeurIPS Paper Checklist",
            "Acknowledgments",
        ] {
            assert!(AFTER_LIST.is_match(t), "{t}");
        }
        assert!(!AFTER_LIST.is_match("Smith, J. (2020). Deep learning."));
    }
}
