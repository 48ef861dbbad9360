//! Glyphs into lines: consecutive glyphs of the content stream on one baseline make a
//! line; spaces come from the gaps between glyphs (TeX draws no space glyphs), accents
//! drawn over their letter are put back on it, ligatures are spelled out.

use unicode_normalization::UnicodeNormalization;

use super::glyphs::{Glyph, Page};

/// One line of text as drawn on a page.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub page: u32,
    pub x0: f64,
    pub x1: f64,
    /// Baseline of the line's main text, down from the page's top.
    pub y: f64,
    /// The main text's size (the largest glyph's).
    pub size: f64,
    pub text: String,
    /// Characters at the start drawn smaller and raised: a superscript label (`¹²`).
    pub raised_prefix: usize,
    /// The words' extents, in order, each with the byte where it starts in `text`
    /// (words are separated by one space).
    pub words: Vec<Word>,
}

/// Where one word of a line lies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Word {
    pub x0: f64,
    pub x1: f64,
    pub start: usize,
    /// The largest glyph's size.
    pub size: f64,
}

impl Line {
    /// The part of the line left of `x` and the part right of it, when `x` falls
    /// between two of its words.
    pub fn split_at_gap(&self, x: f64) -> Option<(Line, Line)> {
        let k = self.words.iter().position(|w| w.x0 >= x)?;
        if k == 0 || self.words[k - 1].x1 > x {
            return None;
        }
        let cut = self.words[k].start;
        let left_text = self.text[..cut].trim_end().to_string();
        let left_words = self.words[..k].to_vec();
        let right_words: Vec<Word> = self.words[k..]
            .iter()
            .map(|w| Word {
                start: w.start - cut,
                ..*w
            })
            .collect();
        let right_text = self.text[cut..].to_string();
        // Each part keeps the size of its own words (a heading beside a column line).
        let left = Line {
            x1: self.words[k - 1].x1,
            size: words_size(&left_words, &left_text).unwrap_or(self.size),
            text: left_text,
            words: left_words,
            ..self.clone()
        };
        let right = Line {
            x0: self.words[k].x0,
            size: words_size(&right_words, &right_text).unwrap_or(self.size),
            text: right_text,
            raised_prefix: 0,
            words: right_words,
            ..self.clone()
        };
        Some((left, right))
    }
}

/// A gap wider than this many ems between two glyphs on one baseline is not a space
/// inside a line but a jump to other text (another column, a table cell).
const MAX_GAP_EM: f64 = 2.5;
/// A gap wider than this many ems is a space between words.
const SPACE_EM: f64 = 0.15;

/// The lines of one page, in content-stream order.
pub fn page_lines(page: &Page) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let mut builder: Option<Builder> = None;
    for glyph in &page.glyphs {
        if glyph.is_space() {
            if let Some(b) = builder.as_mut() {
                b.pending_space = true;
            }
            continue;
        }
        if let Some(b) = builder.as_mut()
            && b.accepts(glyph)
        {
            b.push(glyph);
            continue;
        }
        if let Some(b) = builder.take() {
            lines.extend(b.finish(page.number));
        }
        builder = Some(Builder::start(glyph));
    }
    if let Some(b) = builder {
        lines.extend(b.finish(page.number));
    }
    merge_fragments(lines)
}

struct Builder {
    text: String,
    x0: f64,
    x1: f64,
    last_x0: f64,
    last_x1: f64,
    /// Baseline of the line so far (the first glyph's; a raised start is fixed later).
    y: f64,
    size: f64,
    pending_space: bool,
    /// Size, baseline and character count of each glyph, for the raised prefix.
    parts: Vec<(f64, f64, usize)>,
    /// The extent and largest size of each space-separated word of `text`.
    boxes: Vec<(f64, f64, f64)>,
}

impl Builder {
    fn start(g: &Glyph) -> Builder {
        Builder {
            text: g.text.clone(),
            x0: g.x0,
            x1: g.x1,
            last_x0: g.x0,
            last_x1: g.x1,
            y: g.y,
            size: g.size,
            pending_space: false,
            parts: vec![(g.size, g.y, g.text.chars().count())],
            boxes: vec![(g.x0, g.x1, g.size)],
        }
    }

    fn accepts(&self, g: &Glyph) -> bool {
        let em = self.size.max(g.size);
        (g.y - self.y).abs() <= 0.6 * em
            && g.x0 >= self.last_x0 - 0.2 * em
            && g.x0 - self.last_x1 <= MAX_GAP_EM * em
    }

    fn push(&mut self, g: &Glyph) {
        let em = self.size.max(g.size);
        let gap = g.x0 - self.last_x1;
        let overlaps = g.x0 < self.last_x1 - 0.3 * (self.last_x1 - self.last_x0).max(0.1 * em);
        if overlaps && compose_accent(&mut self.text, &g.text) {
            self.last_x1 = self.last_x1.max(g.x1);
            if let Some(b) = self.boxes.last_mut() {
                b.1 = b.1.max(g.x1);
            }
            return;
        }
        if self.pending_space || gap > SPACE_EM * g.size.min(self.size) {
            if !self.text.ends_with(' ') {
                self.text.push(' ');
                self.boxes.push((g.x0, g.x1, g.size));
            }
            // A space is never inside a raised label: mark it with a zero-size part.
            self.parts.push((0.0, g.y, 0));
        }
        self.pending_space = false;
        if g.size > self.size {
            self.size = g.size;
        }
        self.parts.push((g.size, g.y, g.text.chars().count()));
        self.text.push_str(&g.text);
        if let Some(b) = self.boxes.last_mut() {
            b.0 = b.0.min(g.x0);
            b.1 = b.1.max(g.x1);
            b.2 = b.2.max(g.size);
        }
        self.x0 = self.x0.min(g.x0);
        self.x1 = self.x1.max(g.x1);
        self.last_x0 = g.x0;
        self.last_x1 = g.x1;
    }

    fn finish(self, page: u32) -> Option<Line> {
        let (text, words) = self.words();
        if text.is_empty() {
            return None;
        }
        // The main size: the one most characters are set in (an invisible glyph of a
        // heading's size, a big operator, does not make the line a heading).
        let size = main_size(&self.parts).unwrap_or(self.size);
        let main = self.parts.iter().find(|p| p.0 >= 0.87 * size);
        let y = main.map_or(self.y, |p| p.1);
        let raised =
            |p: &&(f64, f64, usize)| p.0 > 0.0 && p.0 < 0.87 * size && p.1 < y - 0.15 * size;
        let prefix_parts = self.parts.iter().take_while(raised).count();
        let followed = self.parts.len() > prefix_parts;
        let raised_prefix = if followed {
            self.parts[..prefix_parts].iter().map(|p| p.2).sum()
        } else {
            0
        };
        Some(Line {
            page,
            x0: self.x0,
            x1: self.x1,
            y,
            size,
            text,
            raised_prefix,
            words,
        })
    }

    /// The text tidied word by word, and where each word lies. A glyph that spells a
    /// space itself makes the words and the boxes disagree: then the line is one box.
    fn words(&self) -> (String, Vec<Word>) {
        let raw: Vec<&str> = self.text.split(' ').collect();
        let mut text = String::new();
        let mut words = Vec::new();
        if raw.len() != self.boxes.len() {
            let text = tidy_text(&self.text);
            let words = vec![Word {
                x0: self.x0,
                x1: self.x1,
                start: 0,
                size: self.size,
            }];
            return (text, words);
        }
        for (w, &(x0, x1, size)) in raw.iter().zip(&self.boxes) {
            let w = tidy_text(w);
            if w.is_empty() {
                continue;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            words.push(Word {
                x0,
                x1,
                start: text.len(),
                size,
            });
            text.push_str(&w);
        }
        (text, words)
    }
}

/// The size most characters of these words are set in.
fn words_size(words: &[Word], text: &str) -> Option<f64> {
    let parts: Vec<(f64, f64, usize)> = words
        .iter()
        .enumerate()
        .map(|(k, w)| {
            let end = words.get(k + 1).map_or(text.len(), |n| n.start);
            (
                w.size,
                0.0,
                text.get(w.start..end)
                    .map_or(0, |t| t.trim().chars().count()),
            )
        })
        .collect();
    main_size(&parts)
}

/// The size that most characters of a line are set in (to a tenth of a point).
fn main_size(parts: &[(f64, f64, usize)]) -> Option<f64> {
    let mut counts: Vec<(i64, usize)> = Vec::new();
    for &(size, _, chars) in parts.iter().filter(|p| p.0 > 0.0) {
        let key = (size * 10.0).round() as i64;
        match counts.iter_mut().find(|c| c.0 == key) {
            Some(c) => c.1 += chars,
            None => counts.push((key, chars)),
        }
    }
    counts
        .iter()
        .max_by_key(|c| (c.1, c.0))
        .map(|c| c.0 as f64 / 10.0)
}

/// Put a spacing accent drawn over its letter back on it (`¨` + `o`, or `o` + `¨`, the
/// way Computer Modern fonts set `\"o`). True when `next` was consumed.
fn compose_accent(text: &mut String, next: &str) -> bool {
    let mut next_chars = next.chars();
    let (Some(n), None) = (next_chars.next(), next_chars.next()) else {
        return false;
    };
    let Some(prev) = text.chars().next_back() else {
        return false;
    };
    if let Some(mark) = combining(n)
        && prev.is_alphabetic()
    {
        text.push(mark);
        return true;
    }
    if let Some(mark) = combining(prev)
        && n.is_alphabetic()
    {
        text.pop();
        text.push(n);
        text.push(mark);
        return true;
    }
    false
}

/// The combining mark for a spacing accent glyph.
fn combining(c: char) -> Option<char> {
    Some(match c {
        '\u{a8}' => '\u{308}',
        '\u{b4}' => '\u{301}',
        '`' | '\u{2cb}' => '\u{300}',
        '^' | '\u{2c6}' => '\u{302}',
        '~' | '\u{2dc}' => '\u{303}',
        '\u{b8}' => '\u{327}',
        '\u{2c7}' => '\u{30c}',
        '\u{2d8}' => '\u{306}',
        '\u{2da}' => '\u{30a}',
        '\u{af}' | '\u{2c9}' => '\u{304}',
        '\u{2d9}' => '\u{307}',
        '\u{2dd}' => '\u{30b}',
        '\u{2db}' => '\u{328}',
        _ => return None,
    })
}

/// Ligatures spelled out, accents composed, spaces collapsed.
pub fn tidy_text(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() || c == '\u{a0}' {
            space = !out.is_empty();
            continue;
        }
        if matches!(c, '\u{ad}' | '\u{200b}' | '\u{feff}') || c.is_control() {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        if ('\u{fb00}'..='\u{fb06}').contains(&c) {
            out.extend(std::iter::once(c).nfkc());
        } else {
            out.push(c);
        }
    }
    if out.is_ascii() {
        out
    } else {
        out.nfc().collect()
    }
}

/// Pieces of one visual line that the content stream drew apart (a formula, a footnote
/// mark, a link drawn later) joined: same baseline, touching or a space apart.
fn merge_fragments(mut lines: Vec<Line>) -> Vec<Line> {
    let mut k = 0;
    while k < lines.len() {
        let partner = (0..lines.len()).find(|&j| {
            j != k && {
                let (a, b) = (&lines[k], &lines[j]);
                let em = a.size.max(b.size);
                (a.y - b.y).abs() <= 0.25 * em && b.x0 >= a.x1 - 0.1 * em && b.x0 - a.x1 <= 0.8 * em
            }
        });
        match partner {
            Some(j) => {
                let b = lines.remove(j);
                let k = if j < k { k - 1 } else { k };
                let a = &mut lines[k];
                let sep = if b.x0 - a.x1 > SPACE_EM * a.size {
                    " "
                } else {
                    ""
                };
                let offset = a.text.len() + sep.len();
                if sep.is_empty() {
                    // The fragment continues the last word.
                    if let (Some(last), Some(first)) = (a.words.last_mut(), b.words.first()) {
                        last.x1 = first.x1;
                    }
                    a.words.extend(b.words.iter().skip(1).map(|w| Word {
                        start: w.start + offset,
                        ..*w
                    }));
                } else {
                    a.words.extend(b.words.iter().map(|w| Word {
                        start: w.start + offset,
                        ..*w
                    }));
                }
                // The longer piece's size and baseline are the line's.
                let b_longer = b.text.len() > a.text.len();
                a.text = format!("{}{sep}{}", a.text, b.text);
                a.x1 = b.x1;
                if b_longer {
                    a.size = b.size;
                    a.y = b.y;
                }
            }
            None => k += 1,
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(x0: f64, y: f64, size: f64, text: &str) -> Glyph {
        let width = 0.5 * size * text.chars().count() as f64;
        Glyph {
            x0,
            x1: x0 + width,
            y,
            size,
            text: text.to_string(),
        }
    }

    fn page(glyphs: Vec<Glyph>) -> Page {
        Page {
            number: 1,
            glyphs,
            rotated: 0,
        }
    }

    #[test]
    fn gaps_become_spaces_and_baselines_lines() {
        let p = page(vec![
            glyph(100.0, 100.0, 10.0, "ab"),
            glyph(110.0, 100.0, 10.0, "c"),
            glyph(118.0, 100.0, 10.0, "de"),
            glyph(100.0, 112.0, 10.0, "next"),
        ]);
        let lines = page_lines(&p);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["abc de", "next"]);
    }

    #[test]
    fn a_column_jump_starts_a_new_line() {
        let p = page(vec![
            glyph(100.0, 100.0, 10.0, "left"),
            glyph(320.0, 100.0, 10.0, "right"),
        ]);
        assert_eq!(page_lines(&p).len(), 2);
    }

    #[test]
    fn raised_small_label_is_a_prefix() {
        let p = page(vec![
            glyph(100.0, 96.0, 6.0, "12"),
            glyph(107.0, 100.0, 9.0, "Smith"),
        ]);
        let lines = page_lines(&p);
        assert_eq!(lines[0].text, "12 Smith");
        assert_eq!(lines[0].raised_prefix, 2);
        assert_eq!(lines[0].y, 100.0);
    }

    #[test]
    fn accents_and_ligatures() {
        let p = page(vec![
            glyph(100.0, 100.0, 10.0, "G"),
            glyph(105.0, 100.0, 10.0, "\u{a8}"),
            glyph(105.5, 100.0, 10.0, "o"),
            glyph(110.5, 100.0, 10.0, "del \u{fb01}eld"),
        ]);
        assert_eq!(page_lines(&p)[0].text, "Gödel field");
    }
}
