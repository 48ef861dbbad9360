//! Fingerprints that identify a finding across edits, and baseline files built from
//! them.
//!
//! A fingerprint hashes what a finding is about — rule, file, key, the text under the
//! span and the text of its line — but no line number or column, so findings keep
//! their fingerprints when lines are inserted above them. Findings that would hash the
//! same (one citation written twice on identical lines) are told apart by their order.
//! The same fingerprints are used by SARIF `partialFingerprints` and GitLab reports.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;

/// Version of the fingerprint recipe; a new recipe must get a new number.
pub const FINGERPRINT_VERSION: u32 = 1;

/// One fingerprint per diagnostic, in the diagnostics' order (hex, 32 characters).
pub fn fingerprints(sources: &SourceMap, diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut seen: HashMap<[u8; 32], u32> = HashMap::new();
    diagnostics
        .iter()
        .map(|d| {
            let base = base_hash(sources, d);
            let n = seen.entry(base).or_insert(0);
            *n += 1;
            let mut hasher = Sha256::new();
            hasher.update(base);
            hasher.update(n.to_le_bytes());
            hex(&hasher.finalize()[..16])
        })
        .collect()
}

fn base_hash(sources: &SourceMap, d: &Diagnostic) -> [u8; 32] {
    let file = sources.get(d.file);
    let collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = file
        .index
        .line_span(&file.text, file.index.line_of(d.span.start));
    let mut hasher = Sha256::new();
    for part in [
        d.rule.code,
        &file.display_path(),
        d.key.as_deref().unwrap_or(""),
        &collapse(file.slice(d.span)),
        &collapse(file.slice(line)),
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    hasher.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A baseline file: the findings a project accepted when it adopted citeproof.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<BaselineEntry>,
}

/// One accepted finding; only `fingerprint` is used for matching, the rest is for
/// people reading the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    pub fingerprint: String,
    pub code: String,
    pub file: String,
    pub message: String,
}

impl Baseline {
    pub fn from_diagnostics(sources: &SourceMap, diagnostics: &[Diagnostic]) -> Baseline {
        let findings = diagnostics
            .iter()
            .zip(fingerprints(sources, diagnostics))
            .map(|(d, fingerprint)| BaselineEntry {
                fingerprint,
                code: d.rule.code.to_string(),
                file: sources.get(d.file).display_path(),
                message: d.message.clone(),
            })
            .collect();
        Baseline {
            version: FINGERPRINT_VERSION,
            findings,
        }
    }

    pub fn read(path: &Path) -> anyhow::Result<Baseline> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read baseline `{}`: {e}", path.display()))?;
        let baseline: Baseline = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "`{}` is not a citeproof baseline (line {}, column {}): {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        if baseline.version != FINGERPRINT_VERSION {
            anyhow::bail!(
                "baseline `{}` has version {}, this citeproof writes version {FINGERPRINT_VERSION}; \
                 write it again with --write-baseline",
                path.display(),
                baseline.version
            );
        }
        Ok(baseline)
    }

    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("cannot write baseline `{}`: {e}", path.display()))
    }

    /// Keep only the diagnostics the baseline does not hold. Returns them and how
    /// many were dropped.
    pub fn filter(
        &self,
        sources: &SourceMap,
        diagnostics: Vec<Diagnostic>,
    ) -> (Vec<Diagnostic>, usize) {
        let mut known: HashMap<&str, usize> = HashMap::new();
        for entry in &self.findings {
            *known.entry(entry.fingerprint.as_str()).or_insert(0) += 1;
        }
        let prints = fingerprints(sources, &diagnostics);
        let before = diagnostics.len();
        let kept: Vec<Diagnostic> = diagnostics
            .into_iter()
            .zip(&prints)
            .filter(|(_, print)| match known.get_mut(print.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .map(|(d, _)| d)
            .collect();
        let dropped = before - kept.len();
        (kept, dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::rule::UNDEFINED_CITATION;
    use crate::model::{FileId, Span};
    use crate::source::FileKind;

    fn undefined(sources: &SourceMap, file: FileId, needle: &str, nth: usize) -> Diagnostic {
        let text = &sources.get(file).text;
        let marker = format!("@{needle}");
        let start = text.match_indices(&marker).nth(nth).unwrap().0;
        Diagnostic::new(
            &UNDEFINED_CITATION,
            file,
            Span::new(start, start + marker.len()),
            format!("undefined citation key `{needle}`"),
        )
        .with_key(needle)
    }

    fn map(text: &str) -> (SourceMap, FileId) {
        let mut sources = SourceMap::new();
        let id = sources.add("paper.md".into(), FileKind::Markdown, text);
        (sources, id)
    }

    #[test]
    fn fingerprints_survive_line_shifts_and_tell_twins_apart() {
        let (before, f) = map("Intro.\nAs shown [@a].\nAs shown [@a].\nOther [@b].\n");
        let (after, g) = map("New line.\n\nIntro.\nAs shown [@a].\nAs shown [@a].\nOther [@b].\n");
        let prints_before = fingerprints(
            &before,
            &[
                undefined(&before, f, "a", 0),
                undefined(&before, f, "a", 1),
                undefined(&before, f, "b", 0),
            ],
        );
        let prints_after = fingerprints(
            &after,
            &[
                undefined(&after, g, "a", 0),
                undefined(&after, g, "a", 1),
                undefined(&after, g, "b", 0),
            ],
        );
        assert_eq!(prints_before, prints_after);
        assert_ne!(prints_before[0], prints_before[1]);
        assert_eq!(prints_before[0].len(), 32);
    }

    #[test]
    fn baseline_drops_known_findings_only() {
        let (old, f) = map("See [@a].\n");
        let baseline = Baseline::from_diagnostics(&old, &[undefined(&old, f, "a", 0)]);
        let (new, g) = map("Preface.\nSee [@a].\nAnd [@c].\n");
        let (kept, dropped) = baseline.filter(
            &new,
            vec![undefined(&new, g, "a", 0), undefined(&new, g, "c", 0)],
        );
        assert_eq!(dropped, 1);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].key.as_deref(), Some("c"));
    }

    #[test]
    fn baseline_round_trips_and_rejects_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let (sources, f) = map("See [@a].\n");
        let path = dir.path().join("baseline.json");
        let baseline = Baseline::from_diagnostics(&sources, &[undefined(&sources, f, "a", 0)]);
        baseline.write(&path).unwrap();
        assert_eq!(Baseline::read(&path).unwrap(), baseline);
        std::fs::write(&path, "{\"version\": 1, \"extra\": []}").unwrap();
        let err = Baseline::read(&path).unwrap_err().to_string();
        assert!(err.contains("not a citeproof baseline"), "{err}");
    }
}
