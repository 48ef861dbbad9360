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
/// gutter, each band's left column before its right one.
pub fn reading_order(mut lines: Vec<Line>) -> Vec<(Line, u8)> {
    sort_top_down(&mut lines);
    let Some(gutter) = gutter(&lines) else {
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
        let end = start + lines[start..].iter().take_while(|l| (l.y - y).abs() <= tol).count();
        lines[start..end].sort_by(|a, b| a.x0.total_cmp(&b.x0));
        start = end;
    }
}

/// The x of a two-column page's gutter: a vertical strip in the middle third of the
/// text that few lines cross, with enough lines on each side of it.
fn gutter(lines: &[Line]) -> Option<f64> {
    if lines.len() < 8 {
        return None;
    }
    let left = lines.iter().map(|l| l.x0).fold(f64::INFINITY, f64::min);
    let right = lines.iter().map(|l| l.x1).fold(f64::NEG_INFINITY, f64::max);
    let width = right - left;
    if !(width > 50.0) {
        return None;
    }
    let crossing = |x: f64| lines.iter().filter(|l| l.x0 < x && l.x1 > x).count();
    let mut best: Option<(usize, f64, f64)> = None; // (crossings, distance from middle, x)
    let middle = left + width / 2.0;
    let mut x = left + 0.3 * width;
    while x <= left + 0.7 * width {
        let c = crossing(x);
        let candidate = (c, (x - middle).abs(), x);
        if best.is_none_or(|b| (c, candidate.1) < (b.0, b.1)) {
            best = Some(candidate);
        }
        x += 1.0;
    }
    let (crossings, _, x) = best?;
    // Centre the cut in the empty strip around x.
    let mut lo = x;
    while lo - 1.0 > left && crossing(lo - 1.0) <= crossings {
        lo -= 1.0;
    }
    let mut hi = x;
    while hi + 1.0 < right && crossing(hi + 1.0) <= crossings {
        hi += 1.0;
    }
    let cut = (lo + hi) / 2.0;
    let on_left = lines.iter().filter(|l| l.x1 <= cut).count();
    let on_right = lines.iter().filter(|l| l.x0 >= cut).count();
    let sides = on_left + on_right;
    // Full lines of each column reach near the gutter: ragged short lines of a single
    // column page do not make a gutter.
    let reach = lines.iter().filter(|l| l.x1 <= cut && l.x1 > cut - 0.15 * width).count();
    (on_left >= 4 && on_right >= 4 && crossings * 4 <= sides && reach >= 3).then_some(cut)
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
            if is_page_number(text) || (n_pages >= 2 && seen.get(&shape(text)).copied().unwrap_or(0) >= needed) {
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
        .filter(|(_, p)| top.iter().chain(&bottom).any(|y| (p.line.y - y).abs() < 1.0))
        .map(|(i, _)| i)
        .collect()
}

/// A line's text with digits, case and spacing out of the way.
fn shape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c.is_ascii_digit() { '#' } else { c.to_ascii_lowercase() })
        .collect()
}

/// `12`, `- 12 -`, `Page 3`, `3 of 10`, `xiv`.
fn is_page_number(text: &str) -> bool {
    let t = text.trim().trim_matches(|c: char| c == '-' || c == '–' || c == '—' || c.is_whitespace());
    let t = t.strip_prefix("Page ").or_else(|| t.strip_prefix("page ")).unwrap_or(t);
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
        let order: Vec<String> = reading_order(lines).into_iter().map(|(l, _)| l.text).collect();
        assert_eq!(order[0], "Title across both columns");
        assert_eq!(order[1..7], ["L0", "L1", "L2", "L3", "L4", "L5"]);
        assert_eq!(order[7], "R0");
    }

    #[test]
    fn one_column_stays_one_column() {
        let lines: Vec<Line> = (0..12)
            .map(|k| line(72.0, if k % 3 == 2 { 300.0 } else { 540.0 }, 100.0 + 12.0 * k as f64, "x"))
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
                    lines.push(line(72.0, 540.0, 100.0 + 12.0 * k as f64, &format!("{} body {k}", ["alpha", "beta", "gamma", "delta"][p - 1])));
                }
                lines.push(line(300.0, 310.0, 760.0, &p.to_string()));
                lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, line)| Placed { line, number: i as u32 + 1, column: 0, furniture: false })
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
