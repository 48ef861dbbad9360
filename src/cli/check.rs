//! `citeproof check`: run the rules and report.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use citeproof::config::{ConfigSet, Overrides};
use citeproof::zotero::{self, Bibliography};

use super::InputArgs;
use super::session::{ReportArgs, Session};
use super::stage_args::StageArgs;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub stages: StageArgs,
    /// Check the Zotero library (or the collection named or keyed COLLECTION) as a
    /// bibliography, read from Zotero 7's local API while Zotero runs; each finding
    /// names its item's zotero:// URI.
    #[arg(long, value_name = "COLLECTION", num_args = 0..=1, default_missing_value = "")]
    pub zotero: Option<String>,
    /// Where Zotero listens [default: $CITEPROOF_ZOTERO_URL, else the configuration's
    /// `[sources.zotero] url`, else http://localhost:23119].
    #[arg(long, value_name = "URL", requires = "zotero")]
    pub zotero_url: Option<String>,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let zotero = match &args.zotero {
        Some(collection) => {
            let url = match &args.zotero_url {
                Some(url) => url.clone(),
                None => configured_zotero(&args)?.url,
            };
            Some(read_zotero(
                &url,
                Some(collection.as_str()).filter(|c| !c.is_empty()),
            )?)
        }
        None => None,
    };
    Session::new(&args.input, &args.report, &args.stages, zotero)?.run()
}

/// The Zotero settings of the run's configuration (the environment included).
fn configured_zotero(args: &CheckArgs) -> anyhow::Result<zotero::ZoteroSettings> {
    let mut overrides = Overrides::from_process_env();
    overrides.config_file = args.report.exit_policy.config.clone();
    let first = args.input.paths.first().map(PathBuf::as_path);
    Ok(ConfigSet::load(first, overrides)?.run().zotero())
}

/// The library as a BibTeX text standing at `zotero/<library or collection>.bib`
/// under the working folder (in memory only).
fn read_zotero(url: &str, collection: Option<&str>) -> anyhow::Result<(PathBuf, Bibliography)> {
    let (base, library) = zotero::read_library(Some(url), collection)?;
    let name = collection.unwrap_or("library");
    eprintln!(
        "citeproof: read {} item(s) of the Zotero {} from {base}",
        library.len(),
        match collection {
            Some(c) => format!("collection `{c}`"),
            None => "library".to_string(),
        }
    );
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = std::env::current_dir()?
        .join("zotero")
        .join(format!("{slug}.bib"));
    let title = match collection {
        Some(c) => format!("Zotero collection `{c}`"),
        None => "Zotero library".to_string(),
    };
    Ok((path, Bibliography::new(&library, &title)))
}
