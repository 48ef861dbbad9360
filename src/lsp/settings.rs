//! The server's settings: `initializationOptions` and `workspace/configuration`
//! under `citeproof`. They become configuration layers over `citeproof.toml` and the
//! environment, exactly as the CLI's flags do, so `citeproof.toml` means the same
//! in the editor as in CI.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use crate::config::layers::from_keys;
use crate::config::{Layer, Origin, Overrides};

/// The keys of the `citeproof` section.
const KNOWN: &[&str] = &[
    "resolve",
    "verify",
    "offline",
    "configFile",
    "env",
    "zotero",
    "zoteroUrl",
    "policy",
];

/// When the cited works are looked up in the scholarly record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", from = "ResolveSetting")]
pub enum ResolveWhen {
    /// Local rules only: no network.
    Off,
    /// When a document is opened and when it is saved (never per keystroke).
    #[default]
    OnSave,
}

/// `"off"`, `"onSave"` (also `"onOpenAndSave"`, `"on"`), or a boolean.
#[derive(Deserialize)]
#[serde(untagged)]
enum ResolveSetting {
    Switch(bool),
    Named(ResolveName),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum ResolveName {
    Off,
    #[serde(alias = "onOpenAndSave", alias = "on")]
    OnSave,
}

impl From<ResolveSetting> for ResolveWhen {
    fn from(setting: ResolveSetting) -> ResolveWhen {
        match setting {
            ResolveSetting::Switch(false) | ResolveSetting::Named(ResolveName::Off) => {
                ResolveWhen::Off
            }
            ResolveSetting::Switch(true) | ResolveSetting::Named(ResolveName::OnSave) => {
                ResolveWhen::OnSave
            }
        }
    }
}

/// What the editor sets.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub resolve: ResolveWhen,
    /// Verify claims against the resolved works (CP301–CP305).
    pub verify: Option<bool>,
    /// Cache and local corpora only.
    pub offline: Option<bool>,
    /// A configuration file used for every document instead of discovery.
    pub config_file: Option<PathBuf>,
    /// Environment variables as the CLI honours them (`CITEPROOF_CROSSREF_URL` …),
    /// over the server process's own environment.
    pub env: HashMap<String, String>,
    /// Zotero features on or off (`[sources.zotero] enabled`; unset: on when
    /// Zotero answers).
    pub zotero: Option<bool>,
    /// Where Zotero listens (`[sources.zotero] url`).
    pub zotero_url: Option<String>,
    /// The venue policy diagnostics are classified by (`policy`: `iclr-2026` …).
    pub policy: Option<String>,
}

impl Settings {
    /// Read the `citeproof` section of a settings object (or the object itself when
    /// it has no such section). Keys it does not know are returned, to be reported.
    pub fn from_value(value: &Value) -> Result<(Settings, Vec<String>), String> {
        let section = value.get("citeproof").unwrap_or(value);
        if section.is_null() {
            return Ok((Settings::default(), Vec::new()));
        }
        let unknown = section
            .as_object()
            .map(|o| {
                o.keys()
                    .filter(|k| !KNOWN.contains(&k.as_str()))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let settings = serde_json::from_value(section.clone()).map_err(|e| e.to_string())?;
        Ok((settings, unknown))
    }

    /// Whether a settings object is the `citeproof` section itself (sent without
    /// the section name): it has one of the section's keys.
    pub fn looks_like_section(value: &Value) -> bool {
        value
            .as_object()
            .is_some_and(|o| KNOWN.iter().any(|k| o.contains_key(*k)))
    }

    /// The process environment under the settings' own, with the settings as
    /// configuration layers.
    pub fn overrides(&self) -> anyhow::Result<Overrides> {
        let mut overrides = Overrides::from_process_env();
        overrides
            .env
            .extend(self.env.iter().map(|(k, v)| (k.clone(), v.clone())));
        overrides.config_file = self.config_file.clone();
        overrides.cli = self.layers()?;
        Ok(overrides)
    }

    fn layers(&self) -> anyhow::Result<Vec<Layer>> {
        let mut entries: Vec<(&str, &str, toml::Value)> = Vec::new();
        if self.resolve == ResolveWhen::Off {
            entries.push(("citeproof.resolve", "resolve.enabled", false.into()));
        }
        if let Some(verify) = self.verify {
            entries.push(("citeproof.verify", "verify.enabled", verify.into()));
        }
        if let Some(offline) = self.offline {
            entries.push(("citeproof.offline", "resolve.offline", offline.into()));
        }
        if let Some(zotero) = self.zotero {
            entries.push(("citeproof.zotero", "sources.zotero.enabled", zotero.into()));
        }
        if let Some(url) = &self.zotero_url {
            entries.push((
                "citeproof.zoteroUrl",
                "sources.zotero.url",
                url.clone().into(),
            ));
        }
        if let Some(policy) = &self.policy {
            entries.push(("citeproof.policy", "policy", policy.clone().into()));
        }
        entries
            .into_iter()
            .map(|(setting, key, value)| {
                from_keys(
                    Origin::Editor(setting.to_string()),
                    vec![(key.to_string(), value)],
                )
                .map_err(|e| anyhow::anyhow!("{setting}: {e}"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_become_layers_and_unknown_keys_are_named() {
        let (s, unknown) = Settings::from_value(&json!({"citeproof": {
            "resolve": "off", "verify": true, "colour": "blue", "zotero": false,
            "policy": "iclr-2026", "env": {"CITEPROOF_OFFLINE": "1"}
        }}))
        .unwrap();
        assert_eq!(s.resolve, ResolveWhen::Off);
        assert_eq!(unknown, vec!["colour".to_string()]);
        let overrides = s.overrides().unwrap();
        assert_eq!(overrides.cli.len(), 4);
        assert_eq!(overrides.cli[3].config.policy.as_deref(), Some("iclr-2026"));
        assert_eq!(overrides.env["CITEPROOF_OFFLINE"], "1");
        assert!(Settings::from_value(&json!({"resolve": 3})).is_err());
    }
}
