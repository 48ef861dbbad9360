//! The `[clean]` section: how `citeproof clean` (and the HTTP service and Python
//! bindings over the same library call) judges and edits LLM answers, and from the
//! merged configuration to a [`CleanerSettings`].

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::Resolved;
use super::origin::Origin;
use super::values::{Fraction, string_or_list};
use crate::clean::CleanerSettings;
use crate::clean::options::{
    Action, CleanOptions, Context, FailOn, Metric, Numbering, Preset, Settled,
};

/// `[clean]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CleanSection {
    /// Named settings applied before the other keys (`microtrait`).
    pub preset: Option<Preset>,
    /// `score` (the embedded backend's calibrated score) or `cosine`.
    pub metric: Option<Metric>,
    /// Similarity below which a found article is a mismatch (the judge's support, or
    /// the cosine).
    pub threshold: Option<Fraction>,
    /// Support below which a found article is doubtful (`score` metric).
    pub doubt_threshold: Option<Fraction>,
    /// `sentence` or `window`.
    pub context: Option<Context>,
    /// Characters on either side of the marker for `context = "window"`.
    pub window: Option<u32>,
    /// 1 turns off the comparison with the answer's other articles (rivals).
    pub swap_margin: Option<Fraction>,
    /// `remove`, `mark` or `keep`, per status.
    pub not_found: Option<Action>,
    pub mismatch: Option<Action>,
    pub doubtful: Option<Action>,
    pub retracted: Option<Action>,
    pub unverified: Option<Action>,
    pub not_indexed: Option<Action>,
    /// How a marked number is written (`{n}†`).
    pub mark_format: Option<String>,
    /// The note at the end per marked reference (`""` for none).
    pub mark_note: Option<String>,
    pub renumber: Option<bool>,
    /// `auto`, `references` or `sources`.
    pub numbering: Option<Numbering>,
    /// Outcomes that make `citeproof clean` exit with 1.
    pub fail_on: Option<CleanFailOnValue>,
}

/// `fail-on` of `[clean]`: `removed`, `marked`, `any`, `none` or statuses, as a
/// comma-separated string or a list.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanFailOnValue {
    pub written: String,
    pub value: FailOn,
}

impl Serialize for CleanFailOnValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.written)
    }
}

impl<'de> Deserialize<'de> for CleanFailOnValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = string_or_list(d, "outcomes as a string or a list of strings")?;
        let value =
            FailOn::parse_items(items.iter().map(String::as_str)).map_err(de::Error::custom)?;
        Ok(CleanFailOnValue {
            written: value.to_string(),
            value,
        })
    }
}

/// The `[clean]` defaults as TOML, for the defaults layer (`citeproof config` shows
/// them). The threshold has no default: it depends on the scoring in use.
pub(super) fn defaults_text() -> String {
    let s = Settled::default();
    let quote = |t: &str| toml::Value::String(t.to_string()).to_string();
    format!(
        "[clean]\nmetric = \"{}\"\ncontext = \"{}\"\nwindow = {}\nswap-margin = {}\n\
         not-found = \"{}\"\n\
         mismatch = \"{}\"\ndoubtful = \"{}\"\nretracted = \"{}\"\nunverified = \"{}\"\nnot-indexed = \"{}\"\n\
         mark-format = {}\n\
         mark-note = {}\nrenumber = {}\nnumbering = \"{}\"\nfail-on = \"none\"\n",
        s.metric.as_str(),
        s.context.as_str(),
        s.window,
        s.swap_margin,
        s.policy.not_found.as_str(),
        s.policy.mismatch.as_str(),
        s.policy.doubtful.as_str(),
        s.policy.retracted.as_str(),
        s.policy.unverified.as_str(),
        s.policy.not_indexed.as_str(),
        quote(&s.mark_format),
        quote(&s.mark_note),
        s.renumber,
        s.numbering.as_str(),
    )
}

impl Resolved {
    fn clean_section(&self) -> CleanSection {
        self.config.clean.clone().unwrap_or_default()
    }

    /// The `[clean]` options set by a file, the environment or a flag (the built-in
    /// defaults are left to [`Settled`], so that they do not undo a preset).
    pub fn clean_options(&self) -> CleanOptions {
        let c = self.clean_section();
        let set = |key: &str| {
            !matches!(
                self.origin(&format!("clean.{key}")),
                None | Some(Origin::Default)
            )
        };
        CleanOptions {
            preset: c.preset.filter(|_| set("preset")),
            metric: c.metric.filter(|_| set("metric")),
            threshold: c.threshold.map(|f| f.0).filter(|_| set("threshold")),
            doubt_threshold: c
                .doubt_threshold
                .map(|f| f.0)
                .filter(|_| set("doubt-threshold")),
            context: c.context.filter(|_| set("context")),
            window: c.window.map(|w| w as usize).filter(|_| set("window")),
            swap_margin: c.swap_margin.map(|f| f.0).filter(|_| set("swap-margin")),
            not_found: c.not_found.filter(|_| set("not-found")),
            mismatch: c.mismatch.filter(|_| set("mismatch")),
            doubtful: c.doubtful.filter(|_| set("doubtful")),
            retracted: c.retracted.filter(|_| set("retracted")),
            unverified: c.unverified.filter(|_| set("unverified")),
            not_indexed: c.not_indexed.filter(|_| set("not-indexed")),
            mark_format: c.mark_format.filter(|_| set("mark-format")),
            mark_note: c.mark_note.filter(|_| set("mark-note")),
            renumber: c.renumber.filter(|_| set("renumber")),
            numbering: c.numbering.filter(|_| set("numbering")),
        }
    }

    /// Outcomes that make `citeproof clean` exit with 1 (default: none).
    pub fn clean_fail_on(&self) -> FailOn {
        self.clean_section()
            .fail_on
            .map(|f| f.value)
            .unwrap_or_default()
    }

    /// Everything a [`crate::clean::Cleaner`] needs: the `[clean]` options, resolution
    /// unless it is off (`[resolve] enabled`), and the `[verify]` model settings.
    /// Also returns warnings that do not stop a run (a corpus record that could not be
    /// read, a cache that could not be opened).
    pub fn cleaner_settings(&self) -> anyhow::Result<(CleanerSettings, Vec<String>)> {
        let mut warnings = Vec::new();
        let resolve = if self.resolve_enabled() {
            let setup = self.resolve_options()?;
            warnings.extend(setup.warnings);
            Some(setup.options)
        } else {
            None
        };
        Ok((
            CleanerSettings {
                defaults: self.clean_options(),
                resolve,
                verify: Some(self.verify_settings()?),
                accepted: crate::accept::Accepted::default(),
            },
            warnings,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigFile, Overrides};
    use crate::settle::Settle;

    #[test]
    fn the_section_reads_and_rejects_unknown_keys() {
        let file: ConfigFile = toml::from_str(
            "[clean]\npreset = \"microtrait\"\nthreshold = 0.5\nmismatch = \"mark\"\n\
             fail-on = [\"removed\", \"retracted\"]\n",
        )
        .unwrap();
        let clean = file.clean.unwrap();
        assert_eq!(clean.preset, Some(Preset::Microtrait));
        assert_eq!(clean.mismatch, Some(Action::Mark));
        assert_eq!(clean.fail_on.unwrap().written, "removed,retracted");
        let err = toml::from_str::<ConfigFile>("[clean]\ntreshold = 0.5\n").unwrap_err();
        assert!(err.to_string().contains("treshold"), "{err}");
        let err = toml::from_str::<ConfigFile>("[clean]\nmismatch = \"delete\"\n").unwrap_err();
        assert!(err.to_string().contains("delete"), "{err}");
        let err = toml::from_str::<ConfigFile>("[clean]\nthreshold = 2.0\n").unwrap_err();
        assert!(err.to_string().contains("between 0 and 1"), "{err}");
    }

    #[test]
    fn defaults_do_not_undo_a_preset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("citeproof.toml");
        std::fs::write(
            &path,
            "[clean]\npreset = \"microtrait\"\nretracted = \"remove\"\n",
        )
        .unwrap();
        let resolved =
            Resolved::build(&crate::fs::Disk, Some(&path), &Overrides::default()).unwrap();
        let options = resolved.clean_options();
        assert_eq!(options.metric, None);
        assert_eq!(options.context, None);
        let settled = Settled::from_layers([&options]).unwrap();
        assert_eq!(settled.metric, Metric::Cosine);
        assert_eq!(settled.context, Context::Window);
        assert_eq!(settled.policy.retracted, Action::Remove);
        assert_eq!(resolved.clean_fail_on(), FailOn::default());
    }
}
