//! Lines into reading order: the columns of each page found from the gutter that no
//! line crosses, running headers, footers and page numbers found by what repeats at the
//! top and bottom of the pages, and every line numbered on its page.

use std::collections::HashMap;

use super::lines::Line;

/// A line in reading order.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub line: Line,
    /// 1-based on its page, in reading order, running headers and footers counted.
    pub number: u32,
    /// 0 for the left (or only) column, 1 for the right one.
    pub column: u8,
    /// A running header, footer or page number.
    pub furniture: bool,
}

/// The lines of one page in reading order: bands separated by the lines that cross the
/// gutter, each band's left column before its right one. A line that the content
/// stream ran across the gutter (two columns' lines on one baseline, a narrow gutter)
/// is cut there first.
pub fn reading_order(mut lines: Vec<Line>) -> Vec<(Line, u8)> {
    sort_top_down(&mut lines);
    let Some((gutter, lines)) = split_columns(&lines) else {
        return lines.into_iter().map(|l| (l, 0)).collect();
    };
    let mut out = Vec::with_capacity(lines.len());
    let mut left: Vec<Line> = Vec::new();
    let mut right: Vec<Line> = Vec::new();
    let flush = |out: &mut Vec<(Line, u8)>, left: &mut Vec<Line>, right: &mut Vec<Line>| {
        out.extend(left.drain(..).map(|l| (l, 0)));
        out.extend(right.drain(..).map(|l| (l, 1)));
    };
    for line in lines {
        if line.x1 <= gutter {
            left.push(line);
        } else if line.x0 >= gutter {
            right.push(line);
        } else {
            flush(&mut out, &mut left, &mut right);
            out.push((line, 0));
        }
    }
    flush(&mut out, &mut left, &mut right);
    out
}

/// Top to bottom; lines on one baseline left to right.
fn sort_top_down(lines: &mut [Line]) {
    lines.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut start = 0;
    while start < lines.len() {
        let y = lines[start].y;
        let tol = 0.3 * lines[start].size.max(1.0);
        let end = start
            + lines[start..]
                .iter()
                .take_while(|l| (l.y - y).abs() <= tol)
                .count();
        lines[start..end].sort_by(|a, b| a.x0.total_cmp(&b.x0));
        start = end;
    }
}

/// A word of `line` covers `x`.
fn covers(line: &Line, x: f64) -> bool {
    line.x0 < x && line.x1 > x && line.words.iter().any(|w| w.x0 < x && w.x1 > x)
}

/// A two-column page's gutter and its lines with those cut that ran across it: the
/// vertical strip in the middle of the text that the fewest words cover, when enough
/// lines lie on each side of it.
fn split_columns(lines: &[Line]) -> Option<(f64, Vec<Line>)> {
    if lines.len() < 8 {
        return None;
    }
    let left = lines.iter().map(|l| l.x0).fold(f64::INFINITY, f64::min);
    let right = lines.iter().map(|l| l.x1).fold(f64::NEG_INFINITY, f64::max);
    let width = right - left;
    // Also false for a NaN width.
    if width.partial_cmp(&50.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    // A page number centred under the gutter must not hide it.
    let coverage = |x: f64| {
        lines
            .iter()
            .filter(|l| covers(l, x) && !is_page_number(&l.text))
            .count()
    };
    let middle = left + width / 2.0;
    let mut best: Option<(usize, f64, f64)> = None; // (coverage, distance from middle, x)
    let mut x = left + 0.3 * width;
    while x <= left + 0.7 * width {
        let c = coverage(x);
        if best.is_none_or(|b| (c, (x - middle).abs()) < (b.0, b.1)) {
            best = Some((c, (x - middle).abs(), x));
        }
        x += 1.0;
    }
    let (least, _, x) = best?;
    // Centre the cut in the strip as little covered as x.
    let (mut lo, mut hi) = (x, x);
    while lo - 1.0 > left && coverage(lo - 1.0) <= least {
        lo -= 1.0;
    }
    while hi + 1.0 < right && coverage(hi + 1.0) <= least {
        hi += 1.0;
    }
    let cut = (lo + hi) / 2.0;
    let mut out = Vec::with_capacity(lines.len() + 8);
    for line in lines {
        match (line.x0 < cut && line.x1 > cut)
            .then(|| line.split_at_gap(cut))
            .flatten()
        {
            Some((l, r)) => {
                out.push(l);
                out.push(r);
            }
            None => out.push(line.clone()),
        }
    }
    let on_left = out.iter().filter(|l| l.x1 <= cut).count();
    let on_right = out.iter().filter(|l| l.x0 >= cut).count();
    let crossing = out.len() - on_left - on_right;
    // Full lines of each column reach near the gutter: ragged short lines of a single
    // column page do not make a gutter.
    let reach = out
        .iter()
        .filter(|l| l.x1 <= cut && l.x1 > cut - 0.15 * width)
        .count();
    let split = lines.len() < out.len();
    let two = on_left >= 4 && on_right >= 4 && crossing * 4 <= on_left + on_right && reach >= 3;
    // Cutting lines needs a clear majority of column lines, not a few chance gaps.
    (two && (!split || crossing * 8 <= on_left + on_right)).then_some((cut, out))
}

/// Running headers, footers and page numbers: among the two topmost and two
/// bottommost lines of each page, those whose text (digits aside) comes back on at
/// least two pages and on 40 % of them, and lone page numbers.
pub fn mark_furniture(pages: &mut [Vec<Placed>]) {
    let n_pages = pages.len();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let candidates: Vec<Vec<usize>> = pages.iter().map(|p| edge_lines(p)).collect();
    for (page, idx) in pages.iter().zip(&candidates) {
        let mut keys: Vec<String> = idx.iter().map(|&i| shape(&page[i].line.text)).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            *seen.entry(k).or_default() += 1;
        }
    }
    let needed = 2.max((n_pages as f64 * 0.4).ceil() as usize);
    for (page, idx) in pages.iter_mut().zip(&candidates) {
        for &i in idx {
            let text = &page[i].line.text;
            if is_page_number(text)
                || (n_pages >= 2 && seen.get(&shape(text)).copied().unwrap_or(0) >= needed)
            {
                page[i].furniture = true;
            }
        }
    }
}

/// The indices of the two topmost and two bottommost baselines' lines.
fn edge_lines(page: &[Placed]) -> Vec<usize> {
    let mut ys: Vec<f64> = page.iter().map(|p| p.line.y).collect();
    ys.sort_by(f64::total_cmp);
    ys.dedup_by(|a, b| (*a - *b).abs() < 1.0);
    if ys.len() < 3 {
        return Vec::new();
    }
    let top: Vec<f64> = ys.iter().take(2).copied().collect();
    let bottom: Vec<f64> = ys.iter().rev().take(2).copied().collect();
    page.iter()
        .enumerate()
        .filter(|(_, p)| {
            top.iter()
                .chain(&bottom)
                .any(|y| (p.line.y - y).abs() < 1.0)
        })
        .map(|(i, _)| i)
        .collect()
}

/// A line's text with digits, case and spacing out of the way.
fn shape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            if c.is_ascii_digit() {
                '#'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// `12`, `- 12 -`, `Page 3`, `3 of 10`, `xiv`.
fn is_page_number(text: &str) -> bool {
    let t = text
        .trim()
        .trim_matches(|c: char| c == '-' || c == '–' || c == '—' || c.is_whitespace());
    let t = t
        .strip_prefix("Page ")
        .or_else(|| t.strip_prefix("page "))
        .unwrap_or(t);
    let digits = |s: &str| !s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit());
    if digits(t) {
        return true;
    }
    if let Some((a, b)) = t.split_once(" of ") {
        return digits(a.trim()) && digits(b.trim());
    }
    let roman = t.to_ascii_lowercase();
    !roman.is_empty() && roman.len() <= 6 && roman.bytes().all(|b| b"ivxlc".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(x0: f64, x1: f64, y: f64, text: &str) -> Line {
        Line {
            page: 1,
            x0,
            x1,
            y,
            size: 10.0,
            text: text.to_string(),
            raised_prefix: 0,
            words: vec![super::super::lines::Word {
                x0,
                x1,
                start: 0,
                size: 10.0,
            }],
        }
    }

    #[test]
    fn two_columns_read_left_then_right_below_a_spanning_title() {
        let mut lines = vec![line(72.0, 540.0, 60.0, "Title across both columns")];
        for k in 0..6 {
            let y = 100.0 + 12.0 * k as f64;
            lines.push(line(300.0 + 20.0, 540.0, y, &format!("R{k}")));
            lines.push(line(72.0, 295.0, y, &format!("L{k}")));
        }
        let order: Vec<String> = reading_order(lines)
            .into_iter()
            .map(|(l, _)| l.text)
            .collect();
        assert_eq!(order[0], "Title across both columns");
        assert_eq!(order[1..7], ["L0", "L1", "L2", "L3", "L4", "L5"]);
        assert_eq!(order[7], "R0");
    }

    #[test]
    fn lines_run_across_a_narrow_gutter_are_cut() {
        use crate::read::pdf::lines::Word;
        let mut lines = Vec::new();
        for k in 0..8 {
            let y = 100.0 + 12.0 * k as f64;
            let mut l = line(72.0, 540.0, y, &format!("left{k} right{k}"));
            let cut = l.text.find(" right").unwrap() + 1;
            l.words = vec![
                Word {
                    x0: 72.0,
                    x1: 300.0,
                    start: 0,
                    size: 10.0,
                },
                Word {
                    x0: 310.0,
                    x1: 540.0,
                    start: cut,
                    size: 10.0,
                },
            ];
            lines.push(l);
        }
        let order: Vec<String> = reading_order(lines)
            .into_iter()
            .map(|(l, _)| l.text)
            .collect();
        assert_eq!(order[0], "left0");
        assert_eq!(order[7], "left7");
        assert_eq!(order[8], "right0");
    }

    #[test]
    fn one_column_stays_one_column() {
        let lines: Vec<Line> = (0..12)
            .map(|k| {
                line(
                    72.0,
                    if k % 3 == 2 { 300.0 } else { 540.0 },
                    100.0 + 12.0 * k as f64,
                    "x",
                )
            })
            .collect();
        assert!(reading_order(lines).iter().all(|(_, c)| *c == 0));
    }

    #[test]
    fn page_numbers() {
        assert!(is_page_number("12"));
        assert!(is_page_number("– 3 –"));
        assert!(is_page_number("Page 3 of 10"));
        assert!(is_page_number("xiv"));
        assert!(!is_page_number("Results"));
        assert!(!is_page_number("2020."));
    }

    #[test]
    fn repeated_headers_are_furniture() {
        let mut pages: Vec<Vec<Placed>> = (1..=4)
            .map(|p| {
                let mut lines = vec![line(72.0, 540.0, 40.0, "Journal of Things, Vol. 3")];
                for k in 0..5 {
                    lines.push(line(
                        72.0,
                        540.0,
                        100.0 + 12.0 * k as f64,
                        &format!("{} body {k}", ["alpha", "beta", "gamma", "delta"][p - 1]),
                    ));
                }
                lines.push(line(300.0, 310.0, 760.0, &p.to_string()));
                lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, line)| Placed {
                        line,
                        number: i as u32 + 1,
                        column: 0,
                        furniture: false,
                    })
                    .collect()
            })
            .collect();
        mark_furniture(&mut pages);
        for page in &pages {
            assert!(page[0].furniture && page[6].furniture);
            assert!(page[1..6].iter().all(|p| !p.furniture));
        }
    }
}
