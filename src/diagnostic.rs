//! Diagnostics: what every rule produces and every emitter renders.

pub mod input;
pub mod rule;

use rule::Rule;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::model::{FileId, Span, Work};
pub use crate::severity::Severity;

/// Whether a fix may be applied without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Shown to the user but never applied automatically.
    DisplayOnly,
    /// Applied with `--unsafe-fixes`: it changes what the document says.
    Unsafe,
    /// Applied by `--fix`: it cannot change meaning.
    Safe,
}

impl Applicability {
    /// The serialised name (`safe`, `unsafe`, `display-only`).
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
            Applicability::DisplayOnly => "display-only",
        }
    }

    /// What a reader is told about a fix: its kind and the flags that apply it.
    pub fn label(self) -> &'static str {
        match self {
            Applicability::Safe => "fix (applied by --fix)",
            Applicability::Unsafe => "unsafe fix (--fix --unsafe-fixes)",
            Applicability::DisplayOnly => "suggestion",
        }
    }
}

/// One text replacement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub replacement: String,
}

/// A suggested change that resolves a diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// Imperative, e.g. "replace the year with 2019".
    pub description: String,
    pub edits: Vec<Edit>,
}

/// A secondary place that explains a diagnostic (the first definition of a duplicate key …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Related {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

/// One finding at one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub rule: &'static Rule,
    /// The rule's default severity until configuration overrides it.
    pub severity: Severity,
    pub message: String,
    pub file: FileId,
    pub span: Span,
    pub fix: Option<Fix>,
    pub related: Vec<Related>,
    /// The citation key or marker, or the reference key, the finding is about.
    pub key: Option<String>,
    /// The resolved record the finding compares against.
    pub record: Option<Arc<Work>>,
    /// For a wrong field, what kind of error it is (venue policies tell badly wrong
    /// authors from a misspelt name by it).
    pub mismatch: Option<crate::model::MismatchKind>,
}

impl Diagnostic {
    /// A diagnostic with the rule's default severity. Rule families build these; the
    /// message text of each rule lives in its family's module.
    pub fn new(rule: &'static Rule, file: FileId, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.severity,
            message: message.into(),
            file,
            span,
            fix: None,
            related: Vec::new(),
            key: None,
            record: None,
            mismatch: None,
        }
    }

    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn with_related(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Related {
            file,
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_record(mut self, work: impl Into<Arc<Work>>) -> Self {
        self.record = Some(work.into());
        self
    }

    /// Every file it places something in: its own, related places', fix edits'
    /// (with repeats).
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        let related = self.related.iter().map(|r| r.file);
        let edits = self.fix.iter().flat_map(|f| f.edits.iter().map(|e| e.file));
        std::iter::once(self.file).chain(related).chain(edits)
    }

    /// Sort key: file, position, then rule code.
    pub fn sort_key(&self) -> (FileId, usize, usize, &'static str) {
        (self.file, self.span.start, self.span.end, self.rule.code)
    }
}
