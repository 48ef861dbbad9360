//! `citeproof serve --listen ADDR:PORT`: the HTTP service. A thin shell: flags become
//! configuration layers, the configuration of the current folder (or `--config`)
//! becomes one [`citeproof::serve::Service`], and [`citeproof::serve::serve`] runs it
//! until SIGTERM or Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

use citeproof::clean::Cleaner;
use citeproof::config::Overrides;
use citeproof::config::serve::ListenAddr;
use citeproof::serve::{Listeners, Service, ServiceSetup, serve, shutdown_signal};
use citeproof::verify::backend::Backend;

use super::stage_args::{StageArgs, command_config};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on [default: 127.0.0.1:8080; config: serve.listen].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Use this configuration file (default: the nearest one to the current folder).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Largest request body (`2M`) [config: serve.max-body-size].
    #[arg(long, value_name = "SIZE")]
    pub max_body_size: Option<String>,
    /// Largest body of `POST /v1/check`, whose documents may be uploaded PDFs, Word
    /// files or bundles (`32M`) [config: serve.max-upload-size].
    #[arg(long, value_name = "SIZE")]
    pub max_upload_size: Option<String>,
    /// Longest a request may take (`120s`) [config: serve.request-timeout].
    #[arg(long, value_name = "DURATION")]
    pub request_timeout: Option<String>,
    /// Requests handled at once [config: serve.max-concurrency].
    #[arg(long, value_name = "N")]
    pub max_concurrency: Option<u32>,
    /// Requests waiting for a slot; beyond, 503 with Retry-After [config: serve.max-queue].
    #[arg(long, value_name = "N")]
    pub max_queue: Option<u32>,
    /// No access log on standard error [config: serve.access-log = false].
    #[arg(long)]
    pub no_access_log: bool,
    /// Serve `/healthz` and `/metrics` on this address only, not on `--listen`
    /// [config: serve.admin-listen].
    #[arg(long, value_name = "ADDR:PORT")]
    pub admin_listen: Option<String>,
    /// Bearer tokens, one per line: every `/v1/` request then needs `Authorization:
    /// Bearer TOKEN` (also `CITEPROOF_SERVE_TOKENS`, comma-separated)
    /// [config: serve.tokens-file].
    #[arg(long, value_name = "FILE")]
    pub tokens_file: Option<PathBuf>,
    /// Requests one token may make (`10/s`, `600/min`); beyond, 429
    /// [config: serve.token-rate-limit].
    #[arg(long, value_name = "RATE")]
    pub token_rate_limit: Option<String>,
    /// Requests one token may have in flight at once; beyond, 429
    /// [config: serve.token-concurrency].
    #[arg(long, value_name = "N")]
    pub token_concurrency: Option<u32>,
    /// An origin whose pages may call the service from a browser (repeatable; `*` for
    /// any) [config: serve.cors-origins; default: none].
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    #[command(flatten)]
    pub stages: StageArgs,
}

impl ServeArgs {
    fn layers(&self) -> anyhow::Result<Vec<citeproof::config::Layer>> {
        let mut layers = super::stage_args::Layers::default();
        if let Some(listen) = &self.listen {
            ListenAddr::parse(listen).map_err(|e| anyhow::anyhow!("--listen: {e}"))?;
            layers.set("--listen", "serve.listen", listen.trim())?;
        }
        if let Some(size) = &self.max_body_size {
            layers.set("--max-body-size", "serve.max-body-size", size.as_str())?;
        }
        if let Some(size) = &self.max_upload_size {
            layers.set("--max-upload-size", "serve.max-upload-size", size.as_str())?;
        }
        if let Some(timeout) = &self.request_timeout {
            layers.set(
                "--request-timeout",
                "serve.request-timeout",
                timeout.as_str(),
            )?;
        }
        if let Some(n) = self.max_concurrency {
            layers.set("--max-concurrency", "serve.max-concurrency", i64::from(n))?;
        }
        if let Some(n) = self.max_queue {
            layers.set("--max-queue", "serve.max-queue", i64::from(n))?;
        }
        if self.no_access_log {
            layers.set("--no-access-log", "serve.access-log", false)?;
        }
        if let Some(admin) = &self.admin_listen {
            ListenAddr::parse(admin).map_err(|e| anyhow::anyhow!("--admin-listen: {e}"))?;
            layers.set("--admin-listen", "serve.admin-listen", admin.trim())?;
        }
        if let Some(file) = &self.tokens_file {
            layers.set_path("--tokens-file", "serve.tokens-file", file)?;
        }
        if let Some(rate) = &self.token_rate_limit {
            layers.set(
                "--token-rate-limit",
                "serve.token-rate-limit",
                rate.as_str(),
            )?;
        }
        if let Some(n) = self.token_concurrency {
            layers.set(
                "--token-concurrency",
                "serve.token-concurrency",
                i64::from(n),
            )?;
        }
        if !self.cors_origins.is_empty() {
            let origins: Vec<toml::Value> = self
                .cors_origins
                .iter()
                .map(|o| toml::Value::String(o.clone()))
                .collect();
            layers.set("--cors-origin", "serve.cors-origins", origins)?;
        }
        let mut all = layers.0;
        all.extend(self.stages.layers()?);
        Ok(all)
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let cli = args.layers()?;
    let configs = command_config(Path::new("."), args.config.clone(), cli.clone())?;
    let config = configs.run();
    let settings = config.serve_settings()?;
    let (cleaner_settings, warnings) = config.cleaner_settings()?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let verify_settings = if config.resolve_enabled() && config.verify_enabled() {
        Some(config.verify_settings()?)
    } else {
        if config.verify_enabled() {
            eprintln!("warning: claims are not verified: resolution is off");
        }
        None
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the service's runtime")?;
    runtime.block_on(async move {
        let cleaner = Cleaner::new(cleaner_settings)?;
        let verify = match (&verify_settings, cleaner.resolver()) {
            (Some(settings), Some(resolver)) => Some(Backend::build(
                resolver.net(),
                settings,
                Some(resolver.sources().clone()),
                resolver.options().cache.clone(),
            )?),
            _ => None,
        };
        // Each check reads the same configuration the service was started with.
        let mut overrides = Overrides::from_process_env();
        overrides.config_file = config.file.clone();
        overrides.cli = cli;
        let service = Service::new(ServiceSetup {
            settings: settings.clone(),
            cleaner,
            validate: config.validate_options(),
            overrides,
            verify,
        })?;
        let listener = tokio::net::TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("cannot listen on {}", settings.listen))?;
        let address = listener.local_addr()?;
        let admin = match settings.admin_listen {
            Some(admin) => Some(
                tokio::net::TcpListener::bind(admin)
                    .await
                    .with_context(|| format!("cannot listen on {admin} (admin-listen)"))?,
            ),
            None => None,
        };
        eprintln!(
            "citeproof serve: listening on http://{address} (resolution {}, {} at once, {} waiting, {})",
            if service.cleaner.resolver().is_some() { "on" } else { "off" },
            settings.max_concurrency,
            settings.max_queue,
            match settings.tokens.len() {
                0 => "no tokens: open to anyone who reaches it".to_string(),
                1 => "1 bearer token".to_string(),
                n => format!("{n} bearer tokens"),
            },
        );
        if let Some(admin) = &admin {
            eprintln!(
                "citeproof serve: health and metrics on http://{}",
                admin.local_addr()?
            );
        }
        let listeners = Listeners {
            main: listener,
            admin,
        };
        serve(listeners, service, shutdown_signal()).await?;
        eprintln!("citeproof serve: stopped");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
