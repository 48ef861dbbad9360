//! `citeproof config`: the effective configuration, one `key = value` per line, each
//! with where it came from. Secrets are never printed: for API keys only the name of
//! the variable and whether it is set.

use std::path::Path;

use super::Resolved;
use super::origin::Origin;
use crate::resolve::sources::SourceName;

/// Render the effective configuration; paths are shown relative to `cwd` when under it.
pub fn render(resolved: &Resolved, cwd: &Path) -> String {
    let show_origin = |origin: &Origin| match origin {
        Origin::File(path) => path
            .strip_prefix(cwd)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| path.display().to_string()),
        other => other.to_string(),
    };
    let mut out = String::new();
    match &resolved.file {
        Some(path) => out.push_str(&format!(
            "# configuration file: {}\n",
            show_origin(&Origin::File(path.clone()))
        )),
        None => out.push_str("# no configuration file found: defaults, environment and flags\n"),
    }
    let settings = resolved.sources_settings();
    let mut lines: Vec<(String, String)> = Vec::new();
    for (key, (value, origin)) in &resolved.flat {
        let mut note = show_origin(origin);
        if key.ends_with(".api-key-env") {
            let set = value
                .as_str()
                .is_some_and(|var| resolved.env_value(var).is_some());
            note.push_str(if set {
                "; variable set"
            } else {
                "; variable not set"
            });
        }
        lines.push((format!("{key} = {value}"), note));
    }
    for name in SourceName::ALL {
        let s = settings.get(name);
        let prefix = format!("sources.{}", name.as_str());
        if !resolved.flat.contains_key(&format!("{prefix}.rate-limit")) {
            let rate = s.effective_rate();
            let per = rate.per.as_secs_f64();
            let written = if per == 1.0 {
                format!("{}/s", rate.requests)
            } else {
                format!("{}/{}s", rate.requests, per)
            };
            lines.push((
                format!("{prefix}.rate-limit = \"{written}\""),
                "default: the service's published limit".to_string(),
            ));
        }
        if !resolved
            .flat
            .contains_key(&format!("{prefix}.max-concurrency"))
        {
            lines.push((
                format!("{prefix}.max-concurrency = {}", s.policy().max_concurrency),
                "default".to_string(),
            ));
        }
    }
    // These two defaults depend on where the model server is (see `ModelConfig::new`).
    let local = (
        crate::verify::llm::LOCAL_TIMEOUT,
        crate::verify::llm::LOCAL_CONCURRENCY,
    );
    let remote = (
        crate::verify::llm::DEFAULT_TIMEOUT,
        crate::verify::llm::DEFAULT_CONCURRENCY,
    );
    if !resolved.flat.contains_key("verify.timeout") {
        lines.push((
            format!("verify.timeout = \"{}s\"", remote.0.as_secs()),
            format!(
                "default; {}s for a model server on this machine",
                local.0.as_secs()
            ),
        ));
    }
    if !resolved.flat.contains_key("verify.max-concurrency") {
        lines.push((
            format!("verify.max-concurrency = {}", remote.1),
            format!("default; {} for a model server on this machine", local.1),
        ));
    }
    lines.sort();
    let width = lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    for (line, note) in lines {
        out.push_str(&format!("{line:<width$}  # {note}\n"));
    }
    out.push_str(&embedding_model_line(resolved));
    if resolved.verify_config().is_none() {
        out.push_str(
            "# no model configured: set [verify] url and model, or CITEPROOF_LLM_URL and \
             CITEPROOF_LLM_MODEL, to verify claims with a model\n",
        );
    }
    out
}

/// Which sentence-embedding model is in use (configured, found in the standard place,
/// or none) and what the embedded backend does with it.
fn embedding_model_line(resolved: &Resolved) -> String {
    let scoring = resolved
        .flat
        .get("verify.scoring")
        .and_then(|(v, _)| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "hybrid".to_string());
    let (dir, how) = match resolved.embedding_model() {
        Some((dir, true)) => (dir, "found in the cache directory"),
        Some((dir, false)) => (dir, "verify.local-embedding-model"),
        None => {
            let place = resolved.standard_model_dir().map_or(String::new(), |p| {
                format!(
                    " (looked in {}; scripts/fetch-embedding-model.sh puts it there)",
                    p.display()
                )
            });
            return format!(
                "# sentence-embedding model: none{place}: the embedded backend scores lexically\n"
            );
        }
    };
    format!(
        "# sentence-embedding model: {} ({how}): the embedded backend scores {scoring}, \
         passages are ranked with it\n",
        dir.display()
    )
}
