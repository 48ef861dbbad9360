//! The four figures of the reference-string evaluation and the normalisation they
//! compare under: titles and family names are NFKD-normalised, accents dropped,
//! lowercased, every run of non-alphanumerics made one space and trimmed; name
//! suffixes (jr, sr, ii, iii, iv) are dropped from family names. Two PDF text-layer
//! artefacts that some gold strings copy from the raw text are undone on both sides,
//! since the parser is asked to undo them: a line-break hyphen between lowercase word
//! parts (`un- certain` = `uncertain`) and the broken `ff` ligature `↵`.
#![allow(dead_code)]

use citeproof::model::RefFields;
use unicode_normalization::UnicodeNormalization;

use super::refstring_gold::Case;

pub fn normalize_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    let s = undo_pdf_breaks(s);
    for c in s.nfkd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

/// `un- certain` → `uncertain`, `a↵ects` → `affects` (see the module comment).
fn undo_pdf_breaks(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let broken = c == '-'
            && i > 0
            && chars[i - 1].is_lowercase()
            && chars.get(i + 1) == Some(&' ')
            && chars.get(i + 2).is_some_and(|n| n.is_lowercase());
        if broken {
            i += 2;
            continue;
        }
        if c == '↵' {
            out.push_str("ff");
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

pub fn normalize_family(s: &str) -> String {
    let n = normalize_text(s);
    let words: Vec<&str> = n
        .split(' ')
        .filter(|w| !matches!(*w, "jr" | "sr" | "ii" | "iii" | "iv"))
        .collect();
    words.join(" ")
}

/// Counts behind the four figures.
#[derive(Debug, Default, Clone, Copy)]
pub struct Scores {
    pub refs: usize,
    pub title_hit: usize,
    pub title_n: usize,
    pub fam_tp: usize,
    pub fam_fp: usize,
    pub fam_fn: usize,
    pub year_hit: usize,
    pub year_n: usize,
    pub doi_hit: usize,
    pub doi_n: usize,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

impl Scores {
    pub fn title(&self) -> f64 {
        ratio(self.title_hit, self.title_n)
    }
    pub fn family_f1(&self) -> f64 {
        ratio(2 * self.fam_tp, 2 * self.fam_tp + self.fam_fp + self.fam_fn)
    }
    pub fn year(&self) -> f64 {
        ratio(self.year_hit, self.year_n)
    }
    pub fn doi(&self) -> f64 {
        ratio(self.doi_hit, self.doi_n)
    }

    /// Add one parsed case; returns which fields missed (title, authors, year, doi).
    pub fn add(&mut self, case: &Case, got: &RefFields) -> [bool; 4] {
        self.refs += 1;
        let mut miss = [false; 4];
        if let Some(t) = &case.title {
            self.title_n += 1;
            let ok = got.title.as_deref().map(normalize_text) == Some(normalize_text(t));
            self.title_hit += ok as usize;
            miss[0] = !ok;
        }
        if let Some(gold) = &case.families {
            let mut left: Vec<&String> = gold.iter().collect();
            let mut fp = 0;
            for p in &got.authors {
                let f = normalize_family(&p.family);
                match left.iter().position(|g| **g == f) {
                    Some(i) => {
                        left.swap_remove(i);
                        self.fam_tp += 1;
                    }
                    None => fp += 1,
                }
            }
            self.fam_fp += fp;
            self.fam_fn += left.len();
            miss[1] = fp > 0 || !left.is_empty();
        }
        if let Some(y) = case.year {
            self.year_n += 1;
            let ok = got.year == Some(y);
            self.year_hit += ok as usize;
            miss[2] = !ok;
        }
        if let Some(d) = &case.doi {
            self.doi_n += 1;
            let ok = got.doi.as_deref() == Some(d.as_str());
            self.doi_hit += ok as usize;
            miss[3] = !ok;
        }
        miss
    }
}
