//! The edits `clean` makes, case by case: only markers change, groups and ranges are
//! edited, spaces go with removed markers, numbers are renumbered by first
//! appearance and the reference list follows.

use citeproof::clean::edit::{self, Fate, Note};
use citeproof::clean::read::{self, Reading};
use citeproof::clean::{CleanOptions, Numbering, Settled};
use citeproof::settle::Settle;

/// Apply fates chosen by number: numbers in `remove` are removed, in `mark` marked.
fn edit_with(answer: &str, remove: &[u32], mark: &[u32], options: &CleanOptions) -> String {
    let reading = read::read(answer, None, None, Numbering::Auto);
    edit_reading(answer, &reading, remove, mark, options).answer
}

fn edit_reading(
    answer: &str,
    reading: &Reading,
    remove: &[u32],
    mark: &[u32],
    options: &CleanOptions,
) -> edit::Edited {
    let fates: Vec<Fate> = reading
        .cites
        .iter()
        .map(|c| match c.number {
            Some(n) if remove.contains(&n) => Fate::Remove,
            Some(n) if mark.contains(&n) => Fate::Mark,
            _ => Fate::Keep,
        })
        .collect();
    let notes: Vec<Note> = fates
        .iter()
        .map(|_| Note {
            status: "retracted",
            reason: "the article was retracted".into(),
        })
        .collect();
    let settled = Settled::from_layers([options]).unwrap();
    edit::apply(answer, None, reading, &fates, &settled, &notes)
}

fn removed(answer: &str, remove: &[u32]) -> String {
    edit_with(answer, remove, &[], &CleanOptions::default())
}

const LIST: &str = "\n\nReferences:\n[1] One.\n[2] Two.\n[3] Three.\n[4] Four.\n";

fn body(answer: &str) -> &str {
    answer.split("\n\nReferences:").next().unwrap()
}

#[test]
fn nothing_removed_changes_nothing() {
    for answer in [
        format!("A [1]. B [2, 3]. C [1-4].{LIST}"),
        format!("A[1][2]. B [3] [4].{LIST}"),
    ] {
        assert_eq!(removed(&answer, &[]), answer);
    }
}

#[test]
fn a_removed_marker_takes_the_space_before_it() {
    let got = removed(
        &format!("Sleep improves [2]. Exercise helps [1].{LIST}"),
        &[2],
    );
    assert_eq!(body(&got), "Sleep improves. Exercise helps [1].");
    let got = removed(&format!("As shown [2] in trials [1].{LIST}"), &[2]);
    assert_eq!(body(&got), "As shown in trials [1].");
    let got = removed(&format!("Glued[2], then [1].{LIST}"), &[2]);
    assert_eq!(body(&got), "Glued, then [1].");
}

#[test]
fn groups_lose_numbers_not_brackets() {
    let got = removed(&format!("A [1, 3]. B [2].{LIST}"), &[3]);
    assert_eq!(body(&got), "A [1]. B [2].");
    let got = removed(&format!("A [3, 1]. B [2].{LIST}"), &[3]);
    // 1 first appears in the group, 2 after: numbers are 1 and 2 already.
    assert_eq!(body(&got), "A [1]. B [2].");
    let got = removed(&format!("A [1;3]. B [2].{LIST}"), &[1]);
    assert_eq!(body(&got), "A [1]. B [2].");
    let got = removed(&format!("A [1, 3].{LIST}"), &[1, 3]);
    assert_eq!(got, "A.\n");
}

#[test]
fn ranges_are_recomputed() {
    let got = removed(&format!("A [1-4].{LIST}"), &[2]);
    assert_eq!(body(&got), "A [1-3].");
    let got = removed(&format!("A [1–4].{LIST}"), &[3]);
    assert_eq!(body(&got), "A [1–3].");
    let got = removed(&format!("A [2]. B [1-3].{LIST}"), &[3]);
    // 2 → 1, 1 → 2: the range holds 2 and 1, no longer a run.
    assert_eq!(body(&got), "A [1]. B [2, 1].");
    let got = removed(&format!("A [1-3]. B [4].{LIST}"), &[1, 2, 3]);
    assert_eq!(body(&got), "A. B [1].");
}

#[test]
fn adjacent_markers_keep_their_own_spacing() {
    let got = removed(&format!("A [1][2][3].{LIST}"), &[1]);
    assert_eq!(body(&got), "A [1][2].");
    let got = removed(&format!("A [1] [2] [3].{LIST}"), &[1, 2]);
    assert_eq!(body(&got), "A [1].");
    let got = removed(&format!("A [1] [2] [3].{LIST}"), &[2]);
    assert_eq!(body(&got), "A [1] [2].");
    let got = removed(&format!("Quake[1][2].{LIST}"), &[1, 2]);
    assert_eq!(got, "Quake.\n");
}

#[test]
fn renumbering_follows_first_appearance_and_the_list_follows() {
    let answer = format!("A [3]. B [1]. C [3, 4].{LIST}");
    let got = removed(&answer, &[4]);
    assert_eq!(
        got,
        "A [1]. B [2]. C [1].\n\nReferences:\n[1] Three.\n[2] One.\n"
    );
}

#[test]
fn list_entries_keep_their_own_form() {
    let answer = "Claim [2]. Other [3].\n\nSources:\n1. Smith J. One. 2020.\n2) Lee K. Two.\n   Wrapped line.\n3. Kim L. Three.\n";
    let got = removed(answer, &[3]);
    assert_eq!(
        got,
        "Claim [1]. Other.\n\nSources:\n1) Lee K. Two.\n   Wrapped line.\n"
    );
}

#[test]
fn a_list_with_nothing_kept_goes_with_its_title() {
    let got = removed(&format!("Claim [1].{LIST}"), &[1, 2, 3, 4]);
    assert_eq!(got, "Claim.\n");
    let got = removed("Claim [1].\n\n[1] https://a.org/x\n", &[1]);
    assert_eq!(got, "Claim.\n");
}

#[test]
fn line_start_markers_and_parentheses() {
    let got = removed(
        &format!("[1] Claim first.\nThen (see [2]) and ([3]).{LIST}"),
        &[1, 3],
    );
    assert_eq!(body(&got), "Claim first.\nThen (see [1]) and.");
}

#[test]
fn marks_and_their_notes() {
    let options = CleanOptions::default();
    let got = edit_with(&format!("A [1, 2]. B [2].{LIST}"), &[], &[2], &options);
    assert_eq!(
        got,
        "A [1, 2†]. B [2†].\n\nReferences:\n[1] One.\n[2] Two.\n\n[2†] the article was retracted\n"
    );
    let custom = CleanOptions {
        mark_format: Some("{n}*".into()),
        mark_note: Some(String::new()),
        ..CleanOptions::default()
    };
    let got = edit_with(&format!("A [1-3].{LIST}"), &[], &[2], &custom);
    assert_eq!(body(&got), "A [1, 2*, 3].");
}

#[test]
fn renumbering_can_be_turned_off() {
    let options = CleanOptions {
        renumber: Some(false),
        ..CleanOptions::default()
    };
    let got = edit_with(&format!("A [3]. B [1, 2].{LIST}"), &[2], &[], &options);
    assert_eq!(got, "A [3]. B [1].\n\nReferences:\n[1] One.\n[3] Three.\n");
}

#[test]
fn footnotes_author_year_and_identifiers() {
    let answer = "Sleep helps[^1]. Also (Smith et al., 2020; Lee, 2018) agree. \
                  A cohort (doi:10.1093/sleep/zsaa071) found more.\n\n\
                  [^1]: Smith J. Sleep. 2020.\n\n\
                  References:\n- Smith, J. (2020). Sleep and memory. Nature.\n- Lee, K. (2018). Sleep. Cell.\n";
    let reading = read::read(answer, None, None, Numbering::Auto);
    let keys: Vec<&str> = reading
        .cites
        .iter()
        .map(|c| c.citation.key.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "^1",
            "Smith et al., 2020",
            "Lee, 2018",
            "doi:10.1093/sleep/zsaa071"
        ]
    );
    let fates = vec![Fate::Remove, Fate::Keep, Fate::Remove, Fate::Remove];
    let notes: Vec<Note> = fates
        .iter()
        .map(|_| Note {
            status: "not_found",
            reason: String::new(),
        })
        .collect();
    let settled = Settled::from_layers([&CleanOptions::default()]).unwrap();
    let got = edit::apply(answer, None, &reading, &fates, &settled, &notes).answer;
    assert_eq!(
        got,
        "Sleep helps. Also (Smith et al., 2020) agree. A cohort found more.\n\n\
         References:\n- Smith, J. (2020). Sleep and memory. Nature.\n"
    );
}

#[test]
fn a_separate_reference_list_is_rewritten_on_its_own() {
    let answer = "A [2]. B [1].";
    let references = "References:\n[1] One.\n[2] Two.\n[3] Three.\n";
    let reading = read::read(answer, Some(references), None, Numbering::Auto);
    let fates = vec![Fate::Keep, Fate::Keep];
    let notes = vec![
        Note {
            status: "valid",
            reason: String::new(),
        };
        2
    ];
    let settled = Settled::from_layers([&CleanOptions::default()]).unwrap();
    let got = edit::apply(answer, Some(references), &reading, &fates, &settled, &notes);
    assert_eq!(got.answer, "A [1]. B [2].");
    assert_eq!(
        got.references.as_deref(),
        Some("References:\n[1] Two.\n[2] One.\n")
    );
    assert_eq!((got.references_kept, got.references_removed), (2, 1));
}
