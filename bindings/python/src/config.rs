//! The configuration of an [`crate::Engine`], read as the CLI reads it: a file given
//! (`--config`) or the nearest `citeproof.toml` / `.citeproof.toml` from the current
//! folder, then the `CITEPROOF_*` environment, then the caller's settings — dotted
//! keys (`{"resolve.enabled": false}`) in the place command-line flags take.

use std::path::{Path, PathBuf};

use citeproof::config::layers::from_keys;
use citeproof::config::{ConfigSet, Layer, Origin, Overrides};
use serde_json::Value;

use crate::Failure;

/// Load the configuration of a run.
pub fn load(config: Option<PathBuf>, settings_json: Option<&str>) -> Result<ConfigSet, Failure> {
    if let Some(path) = &config
        && !path.is_file()
    {
        return Err(Failure::config(format!(
            "config: no such file `{}`",
            path.display()
        )));
    }
    let mut overrides = Overrides::from_process_env();
    overrides.config_file = config;
    overrides.cli = match settings_json {
        Some(json) => settings_layers(json)?,
        None => Vec::new(),
    };
    ConfigSet::load(Some(Path::new(".")), overrides).map_err(|e| Failure::config(format!("{e:#}")))
}

/// One layer per setting, so an error names the key.
fn settings_layers(json: &str) -> Result<Vec<Layer>, Failure> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| Failure::config(format!("settings: {e}")))?;
    let Value::Object(map) = value else {
        return Err(Failure::config(
            "settings: expected a mapping of dotted configuration keys to values",
        ));
    };
    map.into_iter()
        .map(|(key, value)| {
            let name = format!("settings[{key:?}]");
            if value.is_null() {
                return Err(Failure::config(format!(
                    "{name}: None is not a configuration value (leave the key out instead)"
                )));
            }
            let value: toml::Value = serde_json::from_value(value)
                .map_err(|e| Failure::config(format!("{name}: {e}")))?;
            from_keys(Origin::Cli(name.clone()), vec![(key, value)])
                .map_err(|e| Failure::config(format!("{name}: {e}")))
        })
        .collect()
}
