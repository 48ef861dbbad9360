//! What a clean run may be told: thresholds, the policy per status, how marks are
//! written and how markers are renumbered. [`CleanOptions`] is plain data (every
//! field optional, unknown fields an error) so that the configuration file, the
//! command line, an HTTP request body and the Python bindings all say the same thing;
//! layers of it are settled into one [`Settled`] set of values per run.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::CleanError;
use crate::settle::{Layer, Settle, set};

/// What to do with a citation of some status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Delete the marker (and the reference entry when no kept marker names it).
    Remove,
    /// Keep the marker with a mark (`[3]` → `[3†]`) and a note at the end.
    Mark,
    /// Leave the marker as it is (renumbered with the others).
    Keep,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Remove => "remove",
            Action::Mark => "mark",
            Action::Keep => "keep",
        }
    }
}

impl FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Action, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "remove" => Ok(Action::Remove),
            "mark" => Ok(Action::Mark),
            "keep" => Ok(Action::Keep),
            _ => Err(format!("`{s}` is not an action (remove, mark or keep)")),
        }
    }
}

/// How the citing text is compared with the article's title and abstract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// The embedded backend's calibrated score in [0, 1]: lexical evidence, with the
    /// local sentence model's similarities combined in when one is configured.
    Score,
    /// The cosine similarity of the sentence model's embeddings of the context and of
    /// title + abstract (MicroTraitLLM's measure; needs a local sentence model).
    Cosine,
}

impl Metric {
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Score => "score",
            Metric::Cosine => "cosine",
        }
    }
}

impl FromStr for Metric {
    type Err = String;
    fn from_str(s: &str) -> Result<Metric, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "score" => Ok(Metric::Score),
            "cosine" => Ok(Metric::Cosine),
            _ => Err(format!("`{s}` is not a metric (score or cosine)")),
        }
    }
}

/// Named sets of settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// MicroTraitLLM's citation check: cosine similarity of the 200 characters on
    /// either side of the marker with title + abstract, valid from 0.6 (and no
    /// comparison with the other articles).
    Microtrait,
}

impl Preset {
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Microtrait => "microtrait",
        }
    }

    /// The options the preset stands for.
    pub fn options(self) -> CleanOptions {
        match self {
            Preset::Microtrait => CleanOptions {
                metric: Some(Metric::Cosine),
                threshold: Some(0.6),
                context: Some(Context::Window),
                window: Some(200),
                swap_margin: Some(1.0),
                ..CleanOptions::default()
            },
        }
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Preset, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "microtrait" | "microtraitllm" => Ok(Preset::Microtrait),
            _ => Err(format!("`{s}` is not a preset (microtrait)")),
        }
    }
}

/// Which text around a marker is compared with the article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Context {
    /// The sentence that carries the marker, markers removed.
    Sentence,
    /// `window` characters on either side of the marker, as written.
    Window,
}

impl Context {
    pub fn as_str(self) -> &'static str {
        match self {
            Context::Sentence => "sentence",
            Context::Window => "window",
        }
    }
}

impl FromStr for Context {
    type Err = String;
    fn from_str(s: &str) -> Result<Context, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "sentence" => Ok(Context::Sentence),
            "window" => Ok(Context::Window),
            _ => Err(format!("`{s}` is not a context (sentence or window)")),
        }
    }
}

/// What a marker's number refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Numbering {
    /// The reference list when there is one; else, with sources, the n-th source.
    Auto,
    /// Always the reference list (a number without an entry is an orphan).
    References,
    /// The n-th source of the request (1-based), whatever the reference list says.
    Sources,
}

impl Numbering {
    pub fn as_str(self) -> &'static str {
        match self {
            Numbering::Auto => "auto",
            Numbering::References => "references",
            Numbering::Sources => "sources",
        }
    }
}

impl FromStr for Numbering {
    type Err = String;
    fn from_str(s: &str) -> Result<Numbering, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Numbering::Auto),
            "references" => Ok(Numbering::References),
            "sources" => Ok(Numbering::Sources),
            _ => Err(format!(
                "`{s}` is not a numbering (auto, references or sources)"
            )),
        }
    }
}

/// Settings of one clean run. Every field is optional: what is left out comes from
/// the layer below (the configuration's `[clean]` section, then the built-in
/// defaults). A `preset` is applied before the other fields of the same layer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CleanOptions {
    pub preset: Option<Preset>,
    pub metric: Option<Metric>,
    /// Similarity below which a found article is a `mismatch` (0–1): the judge's
    /// support (`score`) or the cosine. Without one, the threshold fitted for the
    /// metric and scoring mode in use.
    pub threshold: Option<f64>,
    /// Support below which a found article is `doubtful` (`score` metric; 0–1, at
    /// least the threshold). Without one, the threshold fitted for the scoring mode.
    pub doubt_threshold: Option<f64>,
    pub context: Option<Context>,
    /// Characters on either side of the marker for `context = window`.
    pub window: Option<usize>,
    /// Whether the judge compares each citing sentence with the answer's other
    /// articles (the sources, or the other references) for a rival: 1 turns the
    /// comparison off, any other value (0–1) leaves it on. Kept for configurations
    /// written before the shared judge, whose fitted model weighs the rival itself.
    pub swap_margin: Option<f64>,
    /// Action for citations whose work is not among the sources or does not exist.
    pub not_found: Option<Action>,
    /// Action for citations whose article is not about the citing text.
    pub mismatch: Option<Action>,
    /// Action for citations whose article the judge doubts, without the confidence
    /// to call it a mismatch.
    pub doubtful: Option<Action>,
    /// Action for citations of retracted articles.
    pub retracted: Option<Action>,
    /// Action for citations that could not be checked (a source failed).
    pub unverified: Option<Action>,
    /// Action for citations of works that no source asked has, where those sources
    /// hold the work's kind (a book, a thesis, software …) only partly.
    pub not_indexed: Option<Action>,
    /// How a marked number is written; `{n}` is the number (default `{n}†`).
    pub mark_format: Option<String>,
    /// The note added at the end for each marked reference; `{marker}`, `{n}`,
    /// `{status}` and `{reason}` are filled in; empty for none.
    pub mark_note: Option<String>,
    /// Renumber the kept markers 1..k by first appearance (default true).
    pub renumber: Option<bool>,
    pub numbering: Option<Numbering>,
}

/// The built-in defaults.
pub const DEFAULT_MARK_FORMAT: &str = "{n}†";
pub const DEFAULT_MARK_NOTE: &str = "[{marker}] {reason}";
pub const DEFAULT_WINDOW: usize = 200;
/// The cosine threshold used without one (MicroTraitLLM's).
pub const DEFAULT_COSINE_THRESHOLD: f64 = 0.6;
/// The swap margin used without one (fitted on the development answers).
pub const DEFAULT_SWAP_MARGIN: f64 = 0.3;

/// The policy: one action per status that can lose a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Policy {
    pub not_found: Action,
    pub mismatch: Action,
    pub doubtful: Action,
    pub retracted: Action,
    pub unverified: Action,
    pub not_indexed: Action,
}

impl Default for Policy {
    /// Remove `not_found` and `mismatch`, mark `retracted`, keep `doubtful`,
    /// `unverified` and `not_indexed` (precision first: only a confident judge removes;
    /// a real book is never removed for being absent from the indexes).
    fn default() -> Policy {
        Policy {
            not_found: Action::Remove,
            mismatch: Action::Remove,
            doubtful: Action::Keep,
            retracted: Action::Mark,
            unverified: Action::Keep,
            not_indexed: Action::Keep,
        }
    }
}

/// Options with every value decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settled {
    pub metric: Metric,
    /// `None`: the fitted threshold of the scorer in use.
    pub threshold: Option<f64>,
    /// `None`: the fitted doubt threshold of the scorer in use.
    pub doubt_threshold: Option<f64>,
    pub context: Context,
    pub window: usize,
    pub swap_margin: f64,
    pub policy: Policy,
    pub mark_format: String,
    pub mark_note: String,
    pub renumber: bool,
    pub numbering: Numbering,
}

impl Default for Settled {
    fn default() -> Settled {
        Settled {
            metric: Metric::Score,
            threshold: None,
            doubt_threshold: None,
            context: Context::Sentence,
            window: DEFAULT_WINDOW,
            swap_margin: DEFAULT_SWAP_MARGIN,
            policy: Policy::default(),
            mark_format: DEFAULT_MARK_FORMAT.to_string(),
            mark_note: DEFAULT_MARK_NOTE.to_string(),
            renumber: true,
            numbering: Numbering::Auto,
        }
    }
}

impl Layer for CleanOptions {
    fn preset(&self) -> Option<CleanOptions> {
        self.preset.map(Preset::options)
    }
}

impl Settle for Settled {
    type Layer = CleanOptions;
    type Error = CleanError;

    fn apply(&mut self, o: &CleanOptions) {
        if let Some(m) = o.metric {
            self.metric = m;
            // A threshold is on one metric's scale: changing the metric drops a
            // threshold set for another one unless this layer sets both.
            if o.threshold.is_none() {
                self.threshold = None;
                self.doubt_threshold = None;
            }
        }
        if let Some(t) = o.threshold {
            self.threshold = Some(t);
        }
        if let Some(t) = o.doubt_threshold {
            self.doubt_threshold = Some(t);
        }
        set(&mut self.context, o.context);
        set(&mut self.window, o.window);
        set(&mut self.swap_margin, o.swap_margin);
        set(&mut self.policy.not_found, o.not_found);
        set(&mut self.policy.mismatch, o.mismatch);
        set(&mut self.policy.doubtful, o.doubtful);
        set(&mut self.policy.retracted, o.retracted);
        set(&mut self.policy.unverified, o.unverified);
        set(&mut self.policy.not_indexed, o.not_indexed);
        if let Some(f) = &o.mark_format {
            self.mark_format.clone_from(f);
        }
        if let Some(n) = &o.mark_note {
            self.mark_note.clone_from(n);
        }
        set(&mut self.renumber, o.renumber);
        set(&mut self.numbering, o.numbering);
    }

    fn check(&self) -> Result<(), CleanError> {
        if let Some(t) = self.threshold
            && !(0.0..=1.0).contains(&t)
        {
            return Err(CleanError::Options(format!(
                "threshold {t} is not between 0 and 1"
            )));
        }
        if let Some(t) = self.doubt_threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(CleanError::Options(format!(
                    "doubt_threshold {t} is not between 0 and 1"
                )));
            }
            if self.threshold.is_some_and(|r| r > t) {
                return Err(CleanError::Options(format!(
                    "doubt_threshold {t} is below the threshold {}",
                    self.threshold.unwrap_or_default()
                )));
            }
        }
        if !(0.0..=1.0).contains(&self.swap_margin) {
            return Err(CleanError::Options(format!(
                "swap_margin {} is not between 0 and 1",
                self.swap_margin
            )));
        }
        if !self.mark_format.contains("{n}") {
            return Err(CleanError::Options(format!(
                "mark_format `{}` has no `{{n}}` for the number",
                self.mark_format
            )));
        }
        if self.mark_format.contains(['[', ']', '\n']) {
            return Err(CleanError::Options(format!(
                "mark_format `{}` may not contain brackets or line breaks",
                self.mark_format
            )));
        }
        if self.window == 0 {
            return Err(CleanError::Options("window must be at least 1".into()));
        }
        Ok(())
    }
}

impl Settled {
    /// A number written with the mark.
    pub fn marked(&self, label: &str) -> String {
        self.mark_format.replace("{n}", label)
    }
}

/// Which outcomes make `citeproof clean` exit with 1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FailOn {
    pub removed: bool,
    pub marked: bool,
    pub statuses: Vec<super::report::Status>,
}

impl FailOn {
    /// Parse items: `removed`, `marked`, `any` (removed or marked), `none`, or a
    /// status (`not_found`, `mismatch`, `doubtful`, `retracted`, `unverified`, `not_indexed`), comma-separated
    /// or repeated.
    pub fn parse_items<'a>(items: impl IntoIterator<Item = &'a str>) -> Result<FailOn, String> {
        use super::report::Status;
        let mut out = FailOn::default();
        for item in items
            .into_iter()
            .flat_map(|i| i.split(','))
            .map(str::trim)
            .filter(|i| !i.is_empty())
        {
            match item.to_ascii_lowercase().replace('-', "_").as_str() {
                "removed" => out.removed = true,
                "marked" => out.marked = true,
                "any" => (out.removed, out.marked) = (true, true),
                "none" => {}
                "not_found" => out.statuses.push(Status::NotFound),
                "mismatch" => out.statuses.push(Status::Mismatch),
                "doubtful" => out.statuses.push(Status::Doubtful),
                "retracted" => out.statuses.push(Status::Retracted),
                "unverified" => out.statuses.push(Status::Unverified),
                "not_indexed" => out.statuses.push(Status::NotIndexed),
                _ => {
                    return Err(format!(
                        "unknown fail-on item `{item}` (expected removed, marked, any, none, \
                         not_found, mismatch, doubtful, retracted, unverified or not_indexed)"
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Whether a report fails the run.
    pub fn fails(&self, report: &super::report::CleanReport) -> bool {
        use super::report::Taken;
        report.citations.iter().any(|c| {
            (self.removed && c.action == Taken::Removed)
                || (self.marked && c.action == Taken::Marked)
                || self.statuses.contains(&c.status)
        })
    }
}

impl fmt::Display for FailOn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<&str> = Vec::new();
        if self.removed {
            items.push("removed");
        }
        if self.marked {
            items.push("marked");
        }
        items.extend(self.statuses.iter().map(|s| s.as_str()));
        if items.is_empty() {
            items.push("none");
        }
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_apply_in_order_and_presets_first() {
        let config = CleanOptions {
            threshold: Some(0.3),
            mismatch: Some(Action::Mark),
            ..CleanOptions::default()
        };
        let request = CleanOptions {
            preset: Some(Preset::Microtrait),
            ..CleanOptions::default()
        };
        let s = Settled::from_layers([&config, &request]).unwrap();
        assert_eq!(s.metric, Metric::Cosine);
        assert_eq!(s.threshold, Some(0.6));
        assert_eq!(s.context, Context::Window);
        assert_eq!(s.policy.mismatch, Action::Mark);
        let own = CleanOptions {
            preset: Some(Preset::Microtrait),
            threshold: Some(0.5),
            ..CleanOptions::default()
        };
        assert_eq!(Settled::from_layers([&own]).unwrap().threshold, Some(0.5));
    }

    #[test]
    fn changing_the_metric_drops_a_threshold_of_the_other_scale() {
        let config = CleanOptions {
            preset: Some(Preset::Microtrait),
            ..CleanOptions::default()
        };
        let request = CleanOptions {
            metric: Some(Metric::Score),
            ..CleanOptions::default()
        };
        let s = Settled::from_layers([&config, &request]).unwrap();
        assert_eq!((s.metric, s.threshold), (Metric::Score, None));
    }

    #[test]
    fn bad_values_are_errors_and_unknown_fields_too() {
        let bad = CleanOptions {
            threshold: Some(1.5),
            ..CleanOptions::default()
        };
        assert!(Settled::from_layers([&bad]).is_err());
        let bad = CleanOptions {
            mark_format: Some("*".into()),
            ..CleanOptions::default()
        };
        assert!(Settled::from_layers([&bad]).is_err());
        let err = serde_json::from_str::<CleanOptions>(r#"{"treshold": 0.5}"#).unwrap_err();
        assert!(err.to_string().contains("treshold"), "{err}");
        let o: CleanOptions =
            serde_json::from_str(r#"{"mismatch": "keep", "preset": "microtrait"}"#).unwrap();
        assert_eq!(o.mismatch, Some(Action::Keep));
    }

    #[test]
    fn fail_on_items() {
        let f = FailOn::parse_items(["removed", "retracted"]).unwrap();
        assert!(f.removed && !f.marked);
        assert_eq!(f.to_string(), "removed,retracted");
        assert!(FailOn::parse_items(["sometimes"]).is_err());
        assert_eq!(FailOn::parse_items(["none"]).unwrap(), FailOn::default());
    }
}
