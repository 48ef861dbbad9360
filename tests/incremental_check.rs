//! The language server's check, kept up to date edit by edit (a checker with a
//! parse cache, so that an edit re-parses only the blocks it touches), reports
//! for random edit sequences exactly what a fresh check of the final texts
//! reports: the same documents read and the same findings.
//!
//! `CITEPROOF_SPLICE_CASES=N` sets the number of sequences per paper (the long
//! run: 10,000); CI runs the default.

#[path = "../src/proptest_config.rs"]
mod proptest_config;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use citeproof::config::Overrides;
use citeproof::diagnostic::Diagnostic;
use citeproof::fs::{Overlay, Vfs};
use citeproof::load::ParseCache;
use citeproof::load::Project;
use citeproof::pipeline::{CheckSetup, Checker, Learned, Recheck};
use citeproof::source::LineIndex;
use proptest::prelude::*;

const BIB: &str = "@article{smith2020,\n  author = {Smith, J. and Lee, K.},\n  title = {Sleep \
and memory},\n  journal = {Nature},\n  year = {2020},\n  doi = {10.1038/x1}\n}\n\n\
@article{lee2019,\n  author = {Lee, K.},\n  title = {Rest},\n  year = 2019\n}\n\n\
% citeproof: ignore[CP102]\n@book{unused2000,\n  title = {Never cited},\n  year = {2000}\n}\n\n\
@article{smith2020,\n  title = {A duplicate key}\n}\n\n@misc{url2021,\n  title = {Web},\n  \
url = {https://doi.org/10.1000/abc},\n  isbn = {978-0-00-000000-1}\n}\n";

const MARKDOWN: &str = "---\nbibliography: refs.bib\n---\n\n# Introduction\n\nSleep helps \
memory [@smith2020]. Rest matters [@lee2019; @missing2001].\n\nA paragraph with no \
citation.\n\n- a list [@url2021]\n- of items\n\n```\n[@incode]\n```\n\n\
<!-- citeproof: ignore[CP101] -->\nIgnored [@ignored1999].\n\nA note[^1] here.\n\n\
[^1]: The note cites [@smith2020].\n\n## More\n\nAs @lee2019 says, sleep [@smith2020, p. 3].\n";

const LATEX: &str = "\\documentclass{article}\n\\begin{document}\n\nSleep helps memory \
\\citep{smith2020}. Rest matters \\citet{lee2019,missing2001}.\n\nA paragraph with no \
citation.\n\n\\begin{verbatim}\n\\cite{incode}\n\\end{verbatim}\n\n% citeproof: \
ignore[CP101]\nIgnored \\cite{ignored1999}.\n\nA note\\footnote{Citing \\cite{url2021}.}.\n\n\
\\section{More}\nAs \\citeauthor{lee2019} says \\cite[p.~3]{smith2020}.\n\n\
\\bibliography{refs}\n\\end{document}\n";

const INSERTS: &[&str] = &[
    "x",
    " ",
    "\n",
    "\n\n",
    "[",
    "]",
    "{",
    "}",
    "@",
    "%",
    ",",
    "[@smith2020]",
    "[@new2022]",
    "\\cite{lee2019}",
    "\\cite{new2022}",
    "```\n",
    "<!--",
    "-->",
    "[^1]",
    "\\begin{verbatim}",
    "\\end{verbatim}",
    "@article{new2022,\n  title = {New},\n  year = 2022\n}\n",
    "title = {",
    "doi = {10.1/y},",
    "% citeproof: ignore[CP102]\n",
    "<!-- citeproof: disable[CP101] -->\n",
];

/// A checker of `paper` (and what it reads) over `overlay`: with `cache`, as the
/// language server keeps one; without, from scratch.
fn checker(paper: &Path, overlay: &Overlay, cache: Option<&Arc<ParseCache>>) -> Checker {
    let checker = Checker::new(CheckSetup {
        inputs: vec![paper.to_path_buf()],
        bibliographies: Vec::new(),
        overrides: Overrides::default(),
        fs: Vfs::new(overlay.clone()),
    })
    .expect("configuration");
    match cache {
        Some(cache) => checker.with_parse_cache(Arc::clone(cache)),
        None => checker,
    }
}

/// A check of `paper`: what was read and what was found.
fn check(
    paper: &Path,
    overlay: &Overlay,
    cache: Option<&Arc<ParseCache>>,
) -> (Project, Vec<Diagnostic>) {
    let checker = checker(paper, overlay, cache);
    let mut project = checker.load().expect("load");
    let checked = checker
        .replay(&mut project, &Learned::default())
        .expect("check");
    (project, checked.diagnostics)
}

fn shown(check: &(Project, Vec<Diagnostic>)) -> (String, String) {
    let texts: Vec<&str> = check.0.sources.files().iter().map(|f| &*f.text).collect();
    (
        format!("{:#?}\n{texts:?}", check.0.documents),
        format!("{:#?}", check.1),
    )
}

/// The language server's way: an edit of `path` is brought into the kept check
/// (moved, or spliced and checked again); any other is checked again through the
/// cache. Which way it took.
fn recheck(
    kept: &mut (Project, Vec<Diagnostic>),
    paper: &Path,
    path: &Path,
    text: &str,
    overlay: &Overlay,
    cache: &Arc<ParseCache>,
) -> Way {
    let checker = checker(paper, overlay, Some(cache));
    let learned = Learned::default();
    let index = LineIndex::new(text);
    let text: Arc<str> = Arc::from(text);
    let recheck = kept
        .0
        .sources
        .find(path)
        .and_then(|id| checker.recheck_edit(&mut kept.0, id, &text, &index, &learned));
    match recheck {
        Some(Recheck::Moved(edit)) => {
            edit.move_findings(&mut kept.1, true);
            Way::Moved
        }
        Some(Recheck::Spliced(checked)) => {
            kept.1 = checked.diagnostics;
            Way::Spliced
        }
        None => {
            *kept = check(paper, overlay, Some(cache));
            Way::Loaded
        }
    }
}

#[derive(Debug, PartialEq)]
enum Way {
    Moved,
    Spliced,
    Loaded,
}

fn apply(text: &str, at: f64, remove: usize, insert: &str) -> String {
    let mut start = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + remove).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{insert}{}", &text[..start], &text[end..])
}

/// Edit the paper or the bibliography (`in_bib`) edit by edit; after each edit the
/// cached check equals a fresh one.
fn run_sequence(
    paper_name: &str,
    paper_text: &str,
    edits: &[(bool, f64, usize, usize)],
) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir_path: PathBuf = citeproof::fs::normalize(dir.path());
    let paper = dir_path.join(paper_name);
    let bib = dir_path.join("refs.bib");
    std::fs::write(&paper, paper_text).expect("write");
    std::fs::write(&bib, BIB).expect("write");
    let mut overlay = Overlay::new(Vfs::disk());
    let mut texts = [paper_text.to_string(), BIB.to_string()];
    let cache = Arc::new(ParseCache::default());
    let moved_cache = Arc::new(ParseCache::default());
    check(&paper, &overlay, Some(&cache));
    let mut kept = check(&paper, &overlay, Some(&moved_cache));
    for &(in_bib, at, remove, insert) in edits {
        let which = usize::from(in_bib);
        texts[which] = apply(&texts[which], at, remove, INSERTS[insert % INSERTS.len()]);
        let path = if in_bib { &bib } else { &paper };
        overlay.set(path, Arc::from(texts[which].as_str()));
        let cached = shown(&check(&paper, &overlay, Some(&cache)));
        let fresh = shown(&check(&paper, &overlay, None));
        let way = recheck(
            &mut kept,
            &paper,
            path,
            &texts[which],
            &overlay,
            &moved_cache,
        );
        let moved = shown(&kept);
        prop_assert_eq!(
            &moved.0,
            &fresh.0,
            "documents after editing (kept check, {:?}):\n{}",
            way,
            texts[which]
        );
        prop_assert_eq!(
            &moved.1,
            &fresh.1,
            "findings after editing (kept check, {:?}):\n{}",
            way,
            texts[which]
        );
        prop_assert_eq!(
            &cached.0,
            &fresh.0,
            "documents after editing:\n{}",
            texts[which]
        );
        prop_assert_eq!(
            &cached.1,
            &fresh.1,
            "findings after editing:\n{}",
            texts[which]
        );
    }
    Ok(())
}

/// A kept check of the Markdown paper and its bibliography, edited as the
/// language server edits it. The paper has no suppression comment: one could
/// silence a retyped key's finding.
struct Editing {
    _dir: tempfile::TempDir,
    paper: PathBuf,
    bib: PathBuf,
    text: String,
    overlay: Overlay,
    cache: Arc<ParseCache>,
    kept: (Project, Vec<Diagnostic>),
}

impl Editing {
    fn new() -> Editing {
        let dir = tempfile::tempdir().expect("temp dir");
        let dir_path: PathBuf = citeproof::fs::normalize(dir.path());
        let paper = dir_path.join("paper.md");
        let bib = dir_path.join("refs.bib");
        let text = MARKDOWN.replace("<!-- citeproof: ignore[CP101] -->\n", "");
        std::fs::write(&paper, &text).expect("write");
        std::fs::write(&bib, BIB).expect("write");
        let overlay = Overlay::new(Vfs::disk());
        let cache = Arc::new(ParseCache::default());
        let kept = check(&paper, &overlay, Some(&cache));
        Editing {
            _dir: dir,
            paper,
            bib,
            text,
            overlay,
            cache,
            kept,
        }
    }

    /// Bring an edit of `path` (its new `text`) into the kept check, assert that
    /// it then equals a fresh check, and say which way the edit took.
    fn edit(&mut self, path: &Path, text: &str) -> Way {
        self.overlay.set(path, Arc::from(text));
        let way = recheck(
            &mut self.kept,
            &self.paper,
            path,
            text,
            &self.overlay,
            &self.cache,
        );
        assert_eq!(
            shown(&self.kept),
            shown(&check(&self.paper, &self.overlay, None)),
            "{way:?}"
        );
        way
    }

    /// The shared map of the kept index of the paper's entries.
    fn index(&self) -> Arc<std::collections::HashMap<String, usize>> {
        let doc = &self.kept.0.documents[0];
        let entries = doc.entries.kept(&doc.references).expect("indexed");
        Arc::clone(&entries.by_key)
    }
}

/// Typing in prose moves the kept check, and so does typing in a citation key
/// that links to nothing; typing in a key that links, a new citation or a new
/// entry is spliced in and checked again; each gives what a fresh check gives.
#[test]
fn prose_edits_move_the_kept_check_and_key_edits_are_spliced() {
    let mut e = Editing::new();
    let (paper, bib) = (e.paper.clone(), e.bib.clone());
    let prose = e.text.replace("Sleep helps", "Sleep surely helps");
    assert_eq!(e.edit(&paper, &prose), Way::Moved);
    // A key that linked to nothing and still does is retyped in place …
    let typed = prose.replace("@missing2001]", "@missing2002]");
    assert_eq!(e.edit(&paper, &typed), Way::Moved);
    // … one that linked is spliced and linked again, as is a new citation and a
    // sentence split in two.
    let key = typed.replace("[@lee2019;", "[@lee2019x;");
    assert_eq!(e.edit(&paper, &key), Way::Spliced);
    let cited = key.replace("A paragraph with no citation.", "A paragraph [@lee2019].");
    assert_eq!(e.edit(&paper, &cited), Way::Spliced);
    let split = cited.replace("Sleep surely helps memory", "Sleep. Surely it helps memory");
    assert_eq!(e.edit(&paper, &split), Way::Spliced);
    // An entry added to the bibliography is spliced into it.
    let entries = format!("{BIB}\n@book{{lee2019x,\n  title = {{Later}},\n  year = 2019\n}}\n");
    assert_eq!(e.edit(&bib, &entries), Way::Spliced);
    // A new bibliography request reads another file: loaded again.
    let requested = split.replace(
        "bibliography: refs.bib",
        "bibliography: [refs.bib, more.bib]",
    );
    assert_eq!(e.edit(&paper, &requested), Way::Loaded);
}

/// The index of a document's entries (keys, the entries' own findings) is made
/// once and kept while they do not change: a keystroke in the paper, moved or
/// spliced, keeps it (moved along with the footnotes the paper defines); an
/// entry added to the bibliography makes it again. Findings equal a fresh
/// check's after every edit.
#[test]
fn keystrokes_in_the_paper_keep_the_index_of_its_entries() {
    let mut e = Editing::new();
    let (paper, bib) = (e.paper.clone(), e.bib.clone());
    let first = e.index();
    let prose = e.text.replace("Sleep helps", "Sleep surely helps");
    assert_eq!(e.edit(&paper, &prose), Way::Moved);
    assert!(
        Arc::ptr_eq(&first, &e.index()),
        "a moved edit keeps the index"
    );
    let key = prose.replace("[@lee2019;", "[@lee2019x;");
    assert_eq!(e.edit(&paper, &key), Way::Spliced);
    assert!(
        Arc::ptr_eq(&first, &e.index()),
        "a spliced edit keeps the index"
    );
    let entries = format!("{BIB}\n@book{{lee2019x,\n  title = {{Later}},\n  year = 2019\n}}\n");
    assert_eq!(e.edit(&bib, &entries), Way::Spliced);
    let remade = e.index();
    assert!(
        !Arc::ptr_eq(&first, &remade),
        "a new entry makes the index again"
    );
    assert!(remade.contains_key("lee2019x"));
}

fn cases() -> u32 {
    std::env::var("CITEPROOF_SPLICE_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(24)
}

fn edits() -> impl Strategy<Value = Vec<(bool, f64, usize, usize)>> {
    proptest::collection::vec(
        (
            proptest::bool::weighted(0.3),
            0.0f64..1.0,
            0usize..10,
            0usize..64,
        ),
        1..8,
    )
}

proptest! {
    #![proptest_config(proptest_config::config(cases()))]

    #[test]
    fn markdown_edits_check_as_a_fresh_load_does(edits in edits()) {
        run_sequence("paper.md", MARKDOWN, &edits)?;
    }

    #[test]
    fn latex_edits_check_as_a_fresh_load_does(edits in edits()) {
        run_sequence("paper.tex", LATEX, &edits)?;
    }

    /// Without suppressions in the paper, retyped citation keys and new lines take
    /// the kept check's way too.
    #[test]
    fn markdown_edits_without_suppressions(edits in edits()) {
        let text = MARKDOWN.replace("<!-- citeproof: ignore[CP101] -->\n", "");
        run_sequence("paper.md", &text, &edits)?;
    }

    #[test]
    fn latex_edits_without_suppressions(edits in edits()) {
        let text = LATEX.replace("% citeproof: ignore[CP101]\n", "");
        run_sequence("paper.tex", &text, &edits)?;
    }
}
