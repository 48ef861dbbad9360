//! Shared helpers for the parser tests: fixtures, the invariants every parse must
//! keep (spans on character boundaries, keys that are what the span says), the
//! binary, and the real data in ../shared.
#![allow(dead_code)]

#[path = "../bin_support/mod.rs"]
mod bin_support;

use std::path::{Path, PathBuf};

use citeproof::model::{Citation, CitationKind, FileId, ReferenceOrigin, Span};
use citeproof::parse::{ParseOptions, Parsed};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixture(relative: &str) -> String {
    let path = root().join("fixtures").join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A path under ../shared, or `None` (with a printed reason) when it is absent.
pub fn shared(relative: &str) -> Option<PathBuf> {
    let path = root().join("../shared").join(relative);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipped: {} is absent (../shared not available)",
            path.display()
        );
        None
    }
}

pub fn markdown(text: &str) -> Parsed {
    citeproof::parse::markdown::parse(FileId(0), text, &ParseOptions::default())
}

pub fn answer(text: &str) -> Parsed {
    citeproof::parse::answer::parse(FileId(0), text, &ParseOptions::default())
}

pub fn csljson(text: &str) -> Parsed {
    citeproof::parse::csljson::parse(FileId(0), text, &ParseOptions::default())
}

pub fn slice(text: &str, span: Span) -> &str {
    &text[span.start..span.end]
}

/// Keys of the citations, in order.
pub fn keys(parsed: &Parsed) -> Vec<&str> {
    parsed.citations.iter().map(|c| c.key.as_str()).collect()
}

pub fn find<'p>(parsed: &'p Parsed, key: &str) -> &'p Citation {
    parsed
        .citations
        .iter()
        .find(|c| c.key == key)
        .unwrap_or_else(|| panic!("no citation `{key}` in {:?}", keys(parsed)))
}

/// The claim text of the citation with `key`.
pub fn claim_of<'p>(parsed: &'p Parsed, key: &str) -> &'p str {
    let c = find(parsed, key);
    &parsed.claims[c.claim.unwrap_or_else(|| panic!("`{key}` has no claim"))].text
}

fn valid(text: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

/// What every parse must hold, whatever the input: spans inside the text and on
/// character boundaries, a citation's span spelling its key (a numeric range spells
/// the range), its group covering it, claim indices in range, and a reference's
/// span spelling its raw text and its key span its key.
pub fn check_invariants(text: &str, parsed: &Parsed) {
    for c in &parsed.citations {
        assert!(
            valid(text, c.span),
            "citation span {:?} in {text:?}",
            c.span
        );
        assert!(valid(text, c.group_span), "group span {:?}", c.group_span);
        assert!(c.group_span.covers(c.span), "{c:?}");
        let written = slice(text, c.span);
        let range = c.kind == CitationKind::Numeric && written.contains(['-', '–', '—']);
        if !range {
            assert_eq!(written, c.key, "{c:?} in {text:?}");
        }
        if let Some(claim) = c.claim {
            assert!(claim < parsed.claims.len());
        }
    }
    for claim in &parsed.claims {
        assert!(valid(text, claim.span), "claim span {:?}", claim.span);
        assert!(!claim.text.contains('\u{FFFC}'), "{:?}", claim.text);
    }
    for r in &parsed.references {
        assert!(valid(text, r.span), "reference span {:?}", r.span);
        if r.origin != ReferenceOrigin::Inline {
            assert_eq!(slice(text, r.span), r.raw, "{r:?}");
        }
        if let Some(key_span) = r.key_span {
            assert!(valid(text, key_span));
            assert!(r.span.covers(key_span));
            assert_eq!(slice(text, key_span), r.key);
        }
    }
    for s in &parsed.suppressions {
        assert!(valid(text, s.span));
    }
    for p in &parsed.problems {
        assert!(valid(text, p.span), "problem span {:?}", p.span);
    }
}

/// Run the binary; returns stdout and the exit code.
pub fn citeproof(args: &[&str]) -> (String, i32) {
    let out = bin_support::citeproof()
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run citeproof");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `citeproof extract` as JSON.
pub fn extract(paths: &[&str]) -> serde_json::Value {
    let mut args = vec!["extract"];
    args.extend_from_slice(paths);
    let (stdout, code) = citeproof(&args);
    assert_eq!(code, 0, "{stdout}");
    serde_json::from_str(&stdout).expect("extract JSON")
}

/// The `(code, line)` of every diagnostic `citeproof check` prints for `paths`.
pub fn check_codes(paths: &[&str]) -> Vec<(String, u32)> {
    let mut args = vec!["check"];
    args.extend_from_slice(paths);
    let (stdout, _) = citeproof(&args);
    let mut out = Vec::new();
    let mut lines = stdout.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(code) = line
            .split_once('[')
            .filter(|(severity, _)| matches!(*severity, "error" | "warning" | "hint" | "info"))
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(code, _)| code.to_string())
        else {
            continue;
        };
        let at = lines.next().unwrap_or_default();
        let line_no = at
            .rsplit(':')
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        out.push((code, line_no));
    }
    out
}
