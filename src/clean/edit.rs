//! Editing the answer: only markers change. A removed number leaves its group
//! (`[1, 3]` → `[1]`), a removed group takes the space before it (or after it, at the
//! start of a line) and the parentheses it was alone in, kept numbers are renumbered
//! 1..k by first appearance with ranges recomputed, and the reference list is
//! rewritten to exactly the kept entries in the new order, each as written with only
//! its number changed. Every other byte is copied.

use std::collections::HashMap;

use crate::model::{CitationKind, FileId, ReferenceOrigin, Span};
use crate::parse::reflist;

use super::options::Settled;
use super::read::{ANSWER_FILE, REFERENCES_FILE, Reading, Target};

/// What happens to one citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    Keep,
    Remove,
    Mark,
}

/// The note written at the end for a marked reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub status: &'static str,
    pub reason: String,
}

/// The edited texts and what the edit did.
#[derive(Debug, Clone, PartialEq)]
pub struct Edited {
    pub answer: String,
    /// The rewritten separate reference list, when one was given.
    pub references: Option<String>,
    /// Each citation's number in the edited answer (numeric markers that stay).
    pub new_numbers: Vec<Option<u32>>,
    pub references_kept: usize,
    pub references_removed: usize,
}

/// One replacement: `span` of the original becomes `text`.
type Edit = (Span, String);

/// Apply `fates` (one per citation of `reading`) to the answer and the reference list.
/// `notes` gives, per citation, the note for a marked one.
pub fn apply(
    answer: &str,
    references: Option<&str>,
    reading: &Reading,
    fates: &[Fate],
    settled: &Settled,
    notes: &[Note],
) -> Edited {
    let new_numbers = renumber(reading, fates, settled.renumber);
    let mut edits: Vec<Edit> = Vec::new();
    let constructs = constructs(answer, reading, fates, &new_numbers, settled);
    edits.extend(cluster_edits(answer, &constructs));
    let kept_refs = kept_references(reading, fates, &new_numbers, settled.renumber);
    let (list_edits, refs_text, kept, removed) =
        list_edits(answer, references, reading, &kept_refs, settled.renumber);
    edits.extend(list_edits);
    edits.extend(footnote_edits(answer, reading, fates));
    let mut out = splice(answer, edits);
    append_notes(&mut out, reading, fates, &new_numbers, settled, notes);
    Edited {
        answer: out,
        references: refs_text,
        new_numbers,
        references_kept: kept,
        references_removed: removed,
    }
}

/// New numbers by first appearance of the kept and marked numeric citations (their
/// own numbers when renumbering is off).
fn renumber(reading: &Reading, fates: &[Fate], renumber: bool) -> Vec<Option<u32>> {
    let mut map: HashMap<u32, u32> = HashMap::new();
    reading
        .cites
        .iter()
        .zip(fates)
        .map(|(cite, fate)| {
            let old = cite.number?;
            if *fate == Fate::Remove {
                return None;
            }
            if !renumber {
                return Some(old);
            }
            let next = map.len() as u32 + 1;
            Some(*map.entry(old).or_insert(next))
        })
        .collect()
}

/// A citation construct's fate as text: `extent` (what disappears when it is
/// removed) becomes `render`, or nothing.
#[derive(Debug, Clone)]
struct Construct {
    extent: Span,
    render: Option<String>,
}

/// The constructs of the answer with what each becomes.
fn constructs(
    text: &str,
    reading: &Reading,
    fates: &[Fate],
    numbers: &[Option<u32>],
    settled: &Settled,
) -> Vec<Construct> {
    let suffix = settled.marked("");
    let mut out = Vec::new();
    let mut i = 0;
    while i < reading.cites.len() {
        let group = reading.cites[i].citation.group_span;
        let mut j = i;
        while j < reading.cites.len() && reading.cites[j].citation.group_span == group {
            j += 1;
        }
        let members: Vec<usize> = (i..j).collect();
        out.push(construct(
            text, reading, fates, numbers, settled, &suffix, group, &members,
        ));
        i = j;
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn construct(
    text: &str,
    reading: &Reading,
    fates: &[Fate],
    numbers: &[Option<u32>],
    settled: &Settled,
    suffix: &str,
    group: Span,
    members: &[usize],
) -> Construct {
    let first = &reading.cites[members[0]].citation;
    let all_removed = members.iter().all(|&m| fates[m] == Fate::Remove);
    let any_marked = members.iter().any(|&m| fates[m] == Fate::Mark);
    let written = &text[group.start..group.end];
    // A narrative author–year citation is prose with a year in parentheses: only
    // the parenthetical is the marker.
    if first.kind == CitationKind::AuthorYear && first.narrative {
        let open = written.rfind('(').map_or(group.start, |o| group.start + o);
        let extent = Span::new(open, group.end);
        let paren = &text[extent.start..extent.end];
        let render = match (all_removed, any_marked) {
            (true, _) => None,
            (false, true) => Some(match paren.strip_suffix(')') {
                Some(inner) => format!("{inner}{suffix})"),
                None => format!("{paren}{suffix}"),
            }),
            (false, false) => Some(paren.to_string()),
        };
        return Construct { extent, render };
    }
    if all_removed {
        return Construct {
            extent: group,
            render: None,
        };
    }
    // A footnote marker or a bare identifier is one piece: a mark goes after it.
    let bare = first.kind == CitationKind::Footnote || first.span == group;
    if bare {
        let render = if any_marked {
            format!("{written}{suffix}")
        } else {
            written.to_string()
        };
        return Construct {
            extent: group,
            render: Some(render),
        };
    }
    // A group of pieces: numbers, ranges, author–year items, keys.
    let mut pieces: Vec<(Span, Vec<usize>)> = Vec::new();
    for &m in members {
        let span = reading.cites[m].citation.span;
        match pieces.last_mut() {
            Some((s, ms)) if *s == span => ms.push(m),
            _ => pieces.push((span, vec![m])),
        }
    }
    let separator = separator(text, &pieces).unwrap_or(", ");
    let mut rendered: Vec<(Span, Option<String>)> = Vec::new();
    for (span, ms) in &pieces {
        let piece = &text[span.start..span.end];
        let new = if first.kind == CitationKind::Numeric {
            numeric_piece(piece, ms, reading, fates, numbers, settled, separator)
        } else if ms.iter().all(|&m| fates[m] == Fate::Remove) {
            None
        } else if ms.iter().any(|&m| fates[m] == Fate::Mark) {
            Some(format!("{piece}{suffix}"))
        } else {
            Some(piece.to_string())
        };
        rendered.push((*span, new));
    }
    // Kept pieces keep the separator written before them; the first kept piece
    // takes the place of the group's first piece.
    let mut out = text[group.start..pieces[0].0.start].to_string();
    let mut prev_end: Option<usize> = None;
    let mut first_kept = true;
    for (span, new) in &rendered {
        if let Some(new) = new {
            if !first_kept && let Some(end) = prev_end {
                out.push_str(&text[end..span.start]);
            }
            out.push_str(new);
            first_kept = false;
        }
        prev_end = Some(span.end);
    }
    let last = pieces.last().expect("a group has pieces").0;
    out.push_str(&text[last.end..group.end]);
    Construct {
        extent: group,
        render: Some(out),
    }
}

/// The separator the group writes between its first two pieces.
fn separator<'t>(text: &'t str, pieces: &[(Span, Vec<usize>)]) -> Option<&'t str> {
    let (a, b) = (pieces.first()?.0, pieces.get(1)?.0);
    Some(&text[a.end..b.start])
}

/// A numeric piece (`3` or `2-5`) rewritten: kept numbers renumbered, a range
/// recomputed from its kept numbers (runs of consecutive new numbers stay ranges,
/// written with the range's own dash), marked numbers written with the mark.
fn numeric_piece(
    piece: &str,
    members: &[usize],
    reading: &Reading,
    fates: &[Fate],
    numbers: &[Option<u32>],
    settled: &Settled,
    separator: &str,
) -> Option<String> {
    let kept: Vec<(u32, bool)> = members
        .iter()
        .filter(|&&m| fates[m] != Fate::Remove)
        .filter_map(|&m| numbers[m].map(|n| (n, fates[m] == Fate::Mark)))
        .collect();
    if kept.is_empty() {
        return None;
    }
    if members.len() == 1 {
        let (n, marked) = kept[0];
        let unchanged = reading.cites[members[0]].number == Some(n) && !marked;
        return Some(if unchanged {
            piece.to_string()
        } else if marked {
            settled.marked(&n.to_string())
        } else {
            n.to_string()
        });
    }
    let dash = range_dash(piece);
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < kept.len() {
        let (start, marked) = kept[k];
        if marked {
            parts.push(settled.marked(&start.to_string()));
            k += 1;
            continue;
        }
        let mut end = start;
        while k + 1 < kept.len() && !kept[k + 1].1 && kept[k + 1].0 == end + 1 {
            end += 1;
            k += 1;
        }
        parts.push(if end > start {
            format!("{start}{dash}{end}")
        } else {
            start.to_string()
        });
        k += 1;
    }
    let whole_range_unchanged = kept.len() == members.len()
        && members
            .iter()
            .zip(&kept)
            .all(|(&m, (n, marked))| reading.cites[m].number == Some(*n) && !marked);
    Some(if whole_range_unchanged {
        piece.to_string()
    } else {
        parts.join(separator)
    })
}

/// The dash of a range as written, with the spaces around it (`-`, `–`, ` – `).
fn range_dash(piece: &str) -> &str {
    let digits_end = piece
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(piece.len());
    let rest = &piece[digits_end..];
    let dash_end = rest
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(rest.len());
    if dash_end == 0 {
        "-"
    } else {
        &rest[..dash_end]
    }
}

/// Edits for the constructs that change. Constructs separated only by spaces or
/// tabs form a cluster; the kept ones keep the gap written before them, and the
/// first kept one takes the cluster's leading gap. A cluster removed whole takes
/// the space before it, the parentheses it was alone in, and at the start of a line
/// the space after it.
fn cluster_edits(text: &str, constructs: &[Construct]) -> Vec<Edit> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < constructs.len() {
        let mut j = i + 1;
        while j < constructs.len()
            && is_horizontal_space(&text[constructs[j - 1].extent.end..constructs[j].extent.start])
        {
            j += 1;
        }
        out.extend(cluster_edit(text, &constructs[i..j]));
        i = j;
    }
    out
}

fn is_horizontal_space(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Horizontal space right before `at`.
fn space_before(text: &str, at: usize) -> usize {
    at - text[..at].trim_end_matches([' ', '\t']).len()
}

fn cluster_edit(text: &str, cluster: &[Construct]) -> Option<Edit> {
    let changed = cluster
        .iter()
        .any(|c| c.render.as_deref() != Some(&text[c.extent.start..c.extent.end]));
    if !changed {
        return None;
    }
    let any_removed = cluster.iter().any(|c| c.render.is_none());
    let first = cluster[0].extent;
    let last = cluster[cluster.len() - 1].extent;
    if !any_removed {
        // Each construct is edited in place.
        let mut out = String::new();
        let mut at = first.start;
        for c in cluster {
            out.push_str(&text[at..c.extent.start]);
            out.push_str(c.render.as_deref().unwrap_or(""));
            at = c.extent.end;
        }
        return Some((Span::new(first.start, last.end), out));
    }
    let kept: Vec<&Construct> = cluster.iter().filter(|c| c.render.is_some()).collect();
    if kept.is_empty() {
        return Some(whole_removal(text, first.start, last.end));
    }
    let lead = space_before(text, first.start);
    let mut out = text[first.start - lead..first.start].to_string();
    let mut prev_end: Option<usize> = None;
    for c in cluster {
        if let Some(render) = &c.render {
            if let Some(end) = prev_end.filter(|_| out.len() > lead) {
                out.push_str(&text[end..c.extent.start]);
            }
            out.push_str(render);
        }
        prev_end = Some(c.extent.end);
    }
    Some((Span::new(first.start - lead, last.end), out))
}

/// Removing `[start, end)` whole: with the parentheses around it when it is all
/// they hold, the space before it, or at the start of a line the space after it.
fn whole_removal(text: &str, mut start: usize, mut end: usize) -> Edit {
    let before = text[..start].trim_end_matches([' ', '\t']);
    let after = text[end..].trim_start_matches([' ', '\t']);
    if before.ends_with('(') && after.starts_with(')') {
        start = before.len() - 1;
        end = text.len() - after.len() + 1;
    }
    let lead = space_before(text, start);
    let at_line_start = text[..start - lead].is_empty() || text[..start - lead].ends_with('\n');
    if at_line_start {
        let trail = text[end..].len() - text[end..].trim_start_matches([' ', '\t']).len();
        return (Span::new(start - lead, end + trail), String::new());
    }
    (Span::new(start - lead, end), String::new())
}

/// Reference-list entries (index into `reading.references`) that a kept or marked
/// citation names, each with its new number: in new-number order, then the entries
/// named only without a number in the order they are first cited (in the order
/// written when renumbering is off).
fn kept_references(
    reading: &Reading,
    fates: &[Fate],
    numbers: &[Option<u32>],
    renumber: bool,
) -> Vec<(usize, Option<u32>)> {
    let mut out: Vec<(usize, Option<u32>)> = Vec::new();
    for ((cite, fate), number) in reading.cites.iter().zip(fates).zip(numbers) {
        let Target::Reference(r) = cite.target else {
            continue;
        };
        if *fate == Fate::Remove || reading.references[r].origin != ReferenceOrigin::ReferenceList {
            continue;
        }
        match out.iter_mut().find(|(k, _)| *k == r) {
            Some((_, slot)) => {
                if slot.is_none() {
                    *slot = *number;
                }
            }
            None => out.push((r, *number)),
        }
    }
    if renumber {
        out.sort_by_key(|(_, n)| n.unwrap_or(u32::MAX));
    } else {
        out.sort_by_key(|(r, _)| reading.references[*r].span.start);
    }
    out
}

/// Edits of the answer's own reference list; the rewritten separate list; entries
/// kept and removed.
fn list_edits(
    answer: &str,
    references: Option<&str>,
    reading: &Reading,
    kept: &[(usize, Option<u32>)],
    renumber: bool,
) -> (Vec<Edit>, Option<String>, usize, usize) {
    let mut edits = Vec::new();
    let mut separate = None;
    let mut total = 0;
    for (file, text) in [(ANSWER_FILE, Some(answer)), (REFERENCES_FILE, references)] {
        let Some(text) = text else { continue };
        let entries: Vec<usize> = entries_of(reading, file);
        total += entries.len();
        let kept_here: Vec<(usize, Option<u32>)> = kept
            .iter()
            .copied()
            .filter(|(r, _)| reading.references[*r].file == file)
            .collect();
        let list = rewrite_list(
            text,
            reading,
            &entries,
            &kept_here,
            renumber,
            file == ANSWER_FILE,
        );
        if file == ANSWER_FILE {
            edits.extend(list);
        } else {
            separate = Some(splice(text, list));
        }
    }
    (edits, separate, kept.len(), total - kept.len())
}

/// The reference-list entries of one file, in the order written.
fn entries_of(reading: &Reading, file: FileId) -> Vec<usize> {
    let mut entries: Vec<usize> = (0..reading.references.len())
        .filter(|&r| {
            let reference = &reading.references[r];
            reference.file == file && reference.origin == ReferenceOrigin::ReferenceList
        })
        .collect();
    entries.sort_by_key(|&r| reading.references[r].span.start);
    entries
}

/// The list rewritten: the kept entries fill the first slots of the list in their
/// new order, with the text between those slots; each entry's number becomes its new
/// number. With no entry kept the list goes, with its title in the answer.
fn rewrite_list(
    text: &str,
    reading: &Reading,
    entries: &[usize],
    kept: &[(usize, Option<u32>)],
    renumber: bool,
    in_answer: bool,
) -> Vec<Edit> {
    let (Some(&first), Some(&last)) = (entries.first(), entries.last()) else {
        return Vec::new();
    };
    let region = Span::new(
        reading.references[first].span.start,
        reading.references[last].span.end,
    );
    if kept.is_empty() {
        return vec![(drop_list(text, region, in_answer), String::new())];
    }
    let mut out = String::new();
    for (k, &(r, number)) in kept.iter().enumerate() {
        if k > 0 {
            let gap = Span::new(
                reading.references[entries[k - 1]].span.end,
                reading.references[entries[k]].span.start,
            );
            out.push_str(&text[gap.start..gap.end]);
        }
        out.push_str(&entry_text(text, reading, r, number.filter(|_| renumber)));
    }
    if out == text[region.start..region.end] {
        return Vec::new();
    }
    vec![(region, out)]
}

/// An entry as written, its number replaced by `number` when it has one.
fn entry_text(text: &str, reading: &Reading, r: usize, number: Option<u32>) -> String {
    let reference = &reading.references[r];
    let written = &text[reference.span.start..reference.span.end];
    match (reference.key_span, number) {
        (Some(key), Some(n)) if reference.key.parse::<u32>().is_ok() => {
            let (a, b) = (
                key.start - reference.span.start,
                key.end - reference.span.start,
            );
            format!("{}{n}{}", &written[..a], &written[b..])
        }
        _ => written.to_string(),
    }
}

/// The span to delete when a whole list goes: with its section title just above
/// it, and in the answer the blank lines before them.
fn drop_list(text: &str, region: Span, in_answer: bool) -> Span {
    let mut start = region.start;
    let above = text[..start].trim_end();
    let line_start = above.rfind('\n').map_or(0, |i| i + 1);
    let title = above[line_start..].trim();
    if !title.is_empty() && title.len() <= 60 && reflist::is_section_title(title) {
        start = line_start;
    }
    if in_answer {
        start = text[..start].trim_end().len();
    }
    Span::new(start, region.end)
}

/// Footnote definitions whose every citation was removed.
fn footnote_edits(text: &str, reading: &Reading, fates: &[Fate]) -> Vec<Edit> {
    let mut out = Vec::new();
    for (r, reference) in reading.references.iter().enumerate() {
        if reference.origin != ReferenceOrigin::Footnote || reference.file != ANSWER_FILE {
            continue;
        }
        let mut cited = false;
        let mut kept = false;
        for (cite, fate) in reading.cites.iter().zip(fates) {
            if cite.target == Target::Reference(r) {
                cited = true;
                kept |= *fate != Fate::Remove;
            }
        }
        if cited && !kept {
            let line_start = text[..reference.span.start]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let mut end = text[reference.span.end..]
                .find('\n')
                .map_or(text.len(), |i| reference.span.end + i + 1);
            // Alone between blank lines: the blank lines after it go too.
            if text[..line_start].ends_with("\n\n") {
                end += text[end..].len() - text[end..].trim_start_matches(['\n', '\r']).len();
            }
            out.push((Span::new(line_start, end), String::new()));
        }
    }
    out
}

/// Notes for marked citations at the end of the answer, one per marked reference.
fn append_notes(
    out: &mut String,
    reading: &Reading,
    fates: &[Fate],
    numbers: &[Option<u32>],
    settled: &Settled,
    notes: &[Note],
) {
    if settled.mark_note.trim().is_empty() {
        return;
    }
    let mut seen: Vec<(Target, Option<u32>)> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for (i, cite) in reading.cites.iter().enumerate() {
        if fates[i] != Fate::Mark || seen.contains(&(cite.target, numbers[i])) {
            continue;
        }
        seen.push((cite.target, numbers[i]));
        let label = match numbers[i] {
            Some(n) => n.to_string(),
            None => cite.citation.key.clone(),
        };
        let marker = settled.marked(&label);
        lines.push(
            settled
                .mark_note
                .replace("{marker}", &marker)
                .replace("{n}", &label)
                .replace("{status}", notes[i].status)
                .replace("{reason}", &notes[i].reason),
        );
    }
    if lines.is_empty() {
        return;
    }
    let body_len = out.trim_end_matches(['\n', '\r']).len();
    let ending = out[body_len..].to_string();
    out.truncate(body_len);
    out.push_str("\n\n");
    out.push_str(&lines.join("\n"));
    out.push_str(if ending.is_empty() { "" } else { &ending });
}

/// `text` with the edits applied (they must not overlap).
fn splice(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|(span, _)| (span.start, span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, replacement) in edits {
        debug_assert!(span.start >= at, "overlapping edits at {}", span.start);
        if span.start < at {
            continue;
        }
        out.push_str(&text[at..span.start]);
        out.push_str(&replacement);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}
