//! `citeproof._native`: the extension module behind the Python package `citeproof`.
//!
//! A thin shell, like the CLI and `citeproof serve`: the configuration is read the way
//! they read it ([`config`]), a [`Cleaner`] and a [`Validator`] are built once per
//! [`Engine`], and every call goes to [`citeproof::clean::clean_blocking`] or
//! [`citeproof::validate`]. Requests and results cross the boundary as JSON — the
//! same JSON as `POST /v1/clean` and `citeproof clean --format json` — and the Python
//! package turns them into dataclasses. The GIL is released while the library works;
//! errors become the exceptions of `citeproof.errors`, and a panic becomes a
//! `CiteproofError` instead of crossing into Python.

mod config;
mod requests;

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyType;
use serde_json::{Value, json};

use citeproof::clean::many::{clean_many, default_workers};
use citeproof::clean::{Article, CleanError, Cleaner, Metric, clean_blocking};
use citeproof::validate::{self, ValidateError, Validator, output};

/// The exceptions of `citeproof.errors`, by how bad input is told from a failure.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// The configuration (a file, a setting) is wrong.
    Config,
    /// A request is wrong: options, sources, articles, an empty query.
    InvalidInput,
    /// Anything else: a model that cannot be loaded, a runtime that cannot start.
    Failure,
}

/// An error on its way to Python.
#[derive(Debug)]
pub struct Failure {
    kind: Kind,
    message: String,
}

impl Failure {
    fn config(message: impl Into<String>) -> Failure {
        Failure {
            kind: Kind::Config,
            message: message.into(),
        }
    }

    fn invalid(message: impl Into<String>) -> Failure {
        Failure {
            kind: Kind::InvalidInput,
            message: message.into(),
        }
    }

    fn other(message: impl Into<String>) -> Failure {
        Failure {
            kind: Kind::Failure,
            message: message.into(),
        }
    }

    /// The exception class of `citeproof.errors` it becomes.
    fn class_name(&self) -> &'static str {
        match self.kind {
            Kind::Config => "ConfigError",
            Kind::InvalidInput => "InvalidInputError",
            Kind::Failure => "CiteproofError",
        }
    }

    /// As an item of a batch's results: `{"error": {"kind", "message"}}`.
    fn to_json(&self) -> Value {
        json!({"error": {"kind": self.class_name(), "message": self.message}})
    }

    fn into_py(self, py: Python<'_>) -> PyErr {
        let name = self.class_name();
        let class = py
            .import("citeproof.errors")
            .and_then(|m| m.getattr(name))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, self.message),
            // The package is incomplete: still say what went wrong.
            Err(_) => pyo3::exceptions::PyRuntimeError::new_err(self.message),
        }
    }
}

impl From<CleanError> for Failure {
    fn from(e: CleanError) -> Failure {
        if e.is_bad_request() {
            Failure::invalid(e.to_string())
        } else {
            Failure::other(e.to_string())
        }
    }
}

impl From<ValidateError> for Failure {
    fn from(e: ValidateError) -> Failure {
        if e.is_bad_request() {
            Failure::invalid(e.to_string())
        } else {
            Failure::other(e.to_string())
        }
    }
}

/// Run `work` without the GIL, turning a panic into an error.
fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, Failure> + Send,
) -> PyResult<T> {
    let outcome = py.detach(|| {
        citeproof::panics::catch(work).unwrap_or_else(|why| {
            Err(Failure::other(format!(
                "internal error (a bug in citeproof, please report it): {why}"
            )))
        })
    });
    outcome.map_err(|f| f.into_py(py))
}

/// The cleaner and validator of one configuration, shared by every call.
#[pyclass(frozen, module = "citeproof._native")]
struct Engine {
    cleaner: Cleaner,
    validator: Validator,
    /// What did not stop the set-up (an unreadable corpus record, a cache that could
    /// not be opened), for the Python package to pass on as warnings.
    warnings: Vec<String>,
    config_file: Option<PathBuf>,
}

#[pymethods]
impl Engine {
    /// `config`: a configuration file (as `--config`), else the nearest
    /// `citeproof.toml` from the current folder; `settings_json`: a JSON object of
    /// dotted configuration keys applied over it, as command-line flags are.
    #[new]
    #[pyo3(signature = (config=None, settings_json=None))]
    fn new(
        py: Python<'_>,
        config: Option<PathBuf>,
        settings_json: Option<String>,
    ) -> PyResult<Engine> {
        detached(py, move || {
            let configs = config::load(config, settings_json.as_deref())?;
            let resolved = configs.run();
            let (settings, warnings) = resolved
                .cleaner_settings()
                .map_err(|e| Failure::config(format!("{e:#}")))?;
            let defaults = resolved.validate_options();
            let cleaner = Cleaner::new(settings).map_err(|e| match e {
                CleanError::Options(why) => Failure::config(why),
                other => Failure::other(other.to_string()),
            })?;
            // Relevance is measured the way clean aligns (as `serve` sets it up).
            let validator = Validator::new(defaults, cleaner.aligner().clone());
            // Options are checked now, so a bad `[clean]` or `[validate]` section
            // fails here rather than on the first call.
            cleaner
                .settle(None)
                .map_err(|e| Failure::config(e.to_string()))?;
            validator
                .settle(None)
                .map_err(|e| Failure::config(e.to_string()))?;
            Ok(Engine {
                cleaner,
                validator,
                warnings,
                config_file: resolved.file.clone(),
            })
        })
    }

    /// Clean one answer: a `POST /v1/clean` body in, `{"cleaned", "report"}` out.
    fn clean(&self, py: Python<'_>, request_json: String) -> PyResult<String> {
        detached(py, || {
            let request = requests::clean_request(&request_json)?;
            let cleaned = clean_blocking(&self.cleaner, &request)?;
            serde_json::to_string(&cleaned).map_err(|e| Failure::other(e.to_string()))
        })
    }

    /// Clean many answers with `workers` threads (default: one per CPU) sharing this
    /// engine's resolver, cache and model: a JSON array of `POST /v1/clean` bodies in;
    /// out, a JSON array holding per request `{"ok": {"cleaned", "report"}}` or
    /// `{"error": {"kind", "message"}}`, in the order given.
    #[pyo3(signature = (requests_json, workers=None))]
    fn clean_many(
        &self,
        py: Python<'_>,
        requests_json: String,
        workers: Option<usize>,
    ) -> PyResult<String> {
        detached(py, || {
            let values: Vec<Value> = serde_json::from_str(&requests_json)
                .map_err(|e| Failure::invalid(format!("the requests are not a JSON array: {e}")))?;
            let parsed: Vec<Result<_, Failure>> = values
                .iter()
                .map(|v| requests::clean_request(&v.to_string()))
                .collect();
            let valid: Vec<_> = parsed
                .iter()
                .filter_map(|r| r.as_ref().ok())
                .cloned()
                .collect();
            let mut cleaned = clean_many(
                &self.cleaner,
                &valid,
                workers.unwrap_or_else(default_workers),
            )
            .into_iter();
            let mut out = Vec::with_capacity(parsed.len());
            for request in &parsed {
                let item = match request {
                    Err(failure) => failure.to_json(),
                    Ok(_) => match cleaned.next() {
                        Some(Ok(result)) => json!({"ok": result}),
                        Some(Err(e)) => Failure::from(e).to_json(),
                        None => Failure::other("not cleaned").to_json(),
                    },
                };
                out.push(item);
            }
            serde_json::to_string(&out).map_err(|e| Failure::other(e.to_string()))
        })
    }

    /// Validate articles: `{"query", "articles", "options"?}` in; out, the
    /// validations (`{"articles", "summary"}`) and, per article, what
    /// `validate-sources` adds to it (`validation_score`, `confidence_label`,
    /// `validation`).
    fn validate(&self, py: Python<'_>, request_json: String) -> PyResult<String> {
        detached(py, || {
            let request = requests::validate_request(&request_json)?;
            let validated = match self.cleaner.resolver() {
                // Identifier checks share the cleaner's clients, cache and runtime.
                Some(resolver) => self.cleaner.block_on(validate::validate(
                    &self.validator,
                    &request,
                    Some(resolver),
                ))??,
                None => validate::validate_blocking(&self.validator, &request, None)?,
            };
            let empty = Value::Object(Default::default());
            let annotations: Vec<Value> = validated
                .articles
                .iter()
                .map(|v| output::annotated(&empty, v))
                .collect();
            Ok(json!({ "validated": validated, "annotations": annotations }).to_string())
        })
    }

    /// Warnings of the set-up.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// The configuration file in use, if any.
    #[getter]
    fn config_file(&self) -> Option<PathBuf> {
        self.config_file.clone()
    }

    /// Whether a local sentence model is loaded (cosine similarity is available).
    #[getter]
    fn has_sentence_model(&self) -> bool {
        self.cleaner.aligner().model().is_some()
    }

    /// Whether references are resolved (open world) and identifiers checked.
    #[getter]
    fn resolves(&self) -> bool {
        self.cleaner.resolver().is_some()
    }

    /// How text is compared with articles (`embedded-lexical`, `all-MiniLM-L6-v2+lexical`).
    #[getter]
    fn alignment(&self) -> String {
        self.cleaner.aligner().describe(Metric::Score)
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(config_file={:?}, alignment={:?}, resolves={})",
            self.config_file,
            self.alignment(),
            self.resolves()
        )
    }
}

/// The fields of a retrieved article (MicroTraitLLM's `Article` and the extras
/// citeproof reads), as the library names them.
#[pyfunction]
fn article_fields() -> Vec<String> {
    match serde_json::to_value(Article::default()) {
        Ok(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

#[pymodule]
mod _native {
    #[pymodule_export]
    use super::{Engine, article_fields};

    #[pymodule_init]
    fn init(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
