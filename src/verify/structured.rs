//! Structured output, negotiated with each model server.
//!
//! Servers differ in the `response_format` they take: OpenAI, vLLM, Ollama, LM Studio
//! and llama.cpp's `llama-server` take a JSON schema; llama-cpp-python's server takes
//! only `text` and `json_object` (with an optional `schema`, which it turns into a
//! grammar) and answers anything else with a 500 naming the request's validation
//! error; some hosted APIs take only a plain `json_object`. So the client asks in the
//! best form first and steps down when the server refuses ([`OutputMode`]):
//! `json_schema` → `json_object` with the schema → `json_object` → instructions only.
//!
//! A refusal ([`is_refusal`]) is a 400/415/422 (unless it names another cause, such as
//! the context length), or a 5xx whose body names the structured-output request or a
//! validation error of it. It is deterministic: the next form is asked at once, never
//! the same one again. The form that worked is remembered per server and model, for
//! the run and in the cache ([`ModeBook`]), and reported once ([`ModeReport`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cache::Cache;

/// Cache namespace of the negotiated modes.
pub const MODE_NAMESPACE: &str = "llm-output-mode";

/// How structured output is asked for, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OutputMode {
    /// `{"type": "json_schema", "json_schema": {"name", "strict", "schema"}}` (OpenAI).
    #[serde(rename = "json_schema")]
    JsonSchema,
    /// `{"type": "json_object", "schema": …}`: llama.cpp's servers turn the schema into
    /// a grammar; others may refuse the extra field.
    #[serde(rename = "json_object+schema")]
    JsonObjectSchema,
    /// `{"type": "json_object"}`: any JSON object.
    #[serde(rename = "json_object")]
    JsonObject,
    /// No `response_format`; the system prompt asks for the JSON object.
    #[serde(rename = "instructions")]
    Instructions,
}

impl OutputMode {
    pub const ALL: [OutputMode; 4] = [
        OutputMode::JsonSchema,
        OutputMode::JsonObjectSchema,
        OutputMode::JsonObject,
        OutputMode::Instructions,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OutputMode::JsonSchema => "json_schema",
            OutputMode::JsonObjectSchema => "json_object+schema",
            OutputMode::JsonObject => "json_object",
            OutputMode::Instructions => "instructions",
        }
    }

    pub fn parse(text: &str) -> Option<OutputMode> {
        OutputMode::ALL
            .into_iter()
            .find(|m| m.as_str() == text.trim())
    }

    /// The next form to ask in when this one is refused.
    pub fn next(self) -> Option<OutputMode> {
        match self {
            OutputMode::JsonSchema => Some(OutputMode::JsonObjectSchema),
            OutputMode::JsonObjectSchema => Some(OutputMode::JsonObject),
            OutputMode::JsonObject => Some(OutputMode::Instructions),
            OutputMode::Instructions => None,
        }
    }

    /// The `response_format` of a request asking for `schema` in this form.
    pub fn response_format(self, schema: &Value) -> Option<Value> {
        match self {
            OutputMode::JsonSchema => Some(json!({
                "type": "json_schema",
                "json_schema": {"name": "verdict", "strict": true, "schema": schema},
            })),
            OutputMode::JsonObjectSchema => Some(json!({"type": "json_object", "schema": schema})),
            OutputMode::JsonObject => Some(json!({"type": "json_object"})),
            OutputMode::Instructions => None,
        }
    }
}

impl fmt::Display for OutputMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Words that tie an error body to the structured-output request.
const FORMAT_WORDS: [&str; 14] = [
    "response_format",
    "response format",
    "json_schema",
    "json_object",
    "structured output",
    "guided_json",
    "grammar",
    "literal_error",
    "input should be",
    "validation error",
    "extra_forbidden",
    "extra inputs are not permitted",
    "unrecognized request argument",
    "additional properties are not allowed",
];

/// Words of a 400 about something else, which no other form would cure.
const OTHER_CAUSES: [&str; 8] = [
    "context length",
    "context window",
    "maximum context",
    "too long",
    "too many tokens",
    "max_tokens",
    "api key",
    "not found",
];

/// Whether a reply with `status` and `body`, to a request that asked for structured
/// output, refuses the way it was asked: a 415; a 400 or 422 unless its body names
/// another cause; a 5xx whose body names the structured-output request or a
/// validation error of the request.
pub fn is_refusal(status: u16, body: &str) -> bool {
    let text = body.to_ascii_lowercase();
    let names_format = FORMAT_WORDS.iter().any(|w| text.contains(w));
    match status {
        415 => true,
        400 | 422 => names_format || !OTHER_CAUSES.iter().any(|w| text.contains(w)),
        500..=599 => names_format,
        _ => false,
    }
}

/// The gist of a refusal for a report: the error message when the body has one.
pub fn refusal_gist(status: u16, body: &Value) -> String {
    let message = ["/error/message", "/message", "/detail", "/error"]
        .iter()
        .find_map(|p| body.pointer(p).and_then(Value::as_str))
        .map(str::to_string)
        .unwrap_or_else(|| match body {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let short = match one_line.char_indices().nth(160) {
        Some((i, _)) => format!("{}…", &one_line[..i]),
        None => one_line,
    };
    format!("HTTP {status}: {short}")
}

/// What a run learnt about one server and model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModeReport {
    pub base_url: String,
    pub model: String,
    pub mode: OutputMode,
    /// Taken from the cache (negotiated in an earlier run) rather than negotiated now.
    pub remembered: bool,
    /// The forms refused on the way, each with the server's reason.
    pub refused: Vec<(OutputMode, String)>,
}

impl fmt::Display for ModeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "structured output for {} at {}: {}",
            self.model, self.base_url, self.mode
        )?;
        if self.remembered {
            write!(f, " (negotiated in an earlier run, from the cache)")?;
        }
        for (mode, why) in &self.refused {
            write!(f, "; {mode} refused ({why})")?;
        }
        if !self.refused.is_empty() {
            write!(f, "; remembered for this server and model")?;
        }
        Ok(())
    }
}

/// The state of one server and model.
#[derive(Debug)]
pub struct Slot {
    /// The form known to work, once one has.
    pub settled: Option<OutputMode>,
    /// The form to try while none is settled.
    pub candidate: OutputMode,
    /// The cache was consulted.
    pub loaded: bool,
    pub remembered: bool,
    pub refused: Vec<(OutputMode, String)>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    mode: OutputMode,
    #[serde(default)]
    refused: Vec<(OutputMode, String)>,
}

type SlotHandle = Arc<tokio::sync::Mutex<Slot>>;

/// The negotiated modes of a run, per server and model, backed by the cache. The
/// slot of a server is held while its first request negotiates, so concurrent
/// requests wait for the outcome instead of each being refused. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct ModeBook {
    cache: Option<Cache>,
    slots: Arc<Mutex<HashMap<(String, String), SlotHandle>>>,
    /// What was settled, per server and model.
    settled: Arc<Mutex<BTreeMap<(String, String), ModeReport>>>,
}

impl ModeBook {
    pub fn new(cache: Option<Cache>) -> ModeBook {
        ModeBook {
            cache,
            ..ModeBook::default()
        }
    }

    fn key(base_url: &str, model: &str) -> String {
        super::cached::digest_key(&json!([base_url, model]))
    }

    /// The slot of `base_url` and `model`, locked, with what the cache remembers read
    /// in on first use. `first` is where negotiation starts when nothing is known.
    pub async fn lock(
        &self,
        base_url: &str,
        model: &str,
        first: OutputMode,
    ) -> tokio::sync::OwnedMutexGuard<Slot> {
        let handle = {
            let mut slots = self.slots.lock().expect("mode book lock");
            slots
                .entry((base_url.to_string(), model.to_string()))
                .or_insert_with(|| {
                    Arc::new(tokio::sync::Mutex::new(Slot {
                        settled: None,
                        candidate: first,
                        loaded: false,
                        remembered: false,
                        refused: Vec::new(),
                    }))
                })
                .clone()
        };
        let mut slot = handle.lock_owned().await;
        if !slot.loaded {
            slot.loaded = true;
            let key = ModeBook::key(base_url, model);
            if let Some(stored) =
                super::cached::cached::<Stored>(self.cache.as_ref(), MODE_NAMESPACE, &key).await
            {
                slot.settled = Some(stored.mode);
                slot.candidate = stored.mode;
                slot.remembered = true;
                slot.refused = stored.refused;
                self.report(base_url, model, &slot);
            }
        }
        slot
    }

    fn report(&self, base_url: &str, model: &str, slot: &Slot) {
        let Some(mode) = slot.settled else {
            return;
        };
        let report = ModeReport {
            base_url: base_url.to_string(),
            model: model.to_string(),
            mode,
            remembered: slot.remembered,
            refused: slot.refused.clone(),
        };
        self.settled
            .lock()
            .expect("mode book lock")
            .insert((base_url.to_string(), model.to_string()), report);
    }

    /// Remember that `mode` worked (in the slot and in the cache).
    pub async fn settle(&self, base_url: &str, model: &str, slot: &mut Slot, mode: OutputMode) {
        slot.settled = Some(mode);
        slot.candidate = mode;
        self.report(base_url, model, slot);
        let stored = Stored {
            mode,
            refused: slot.refused.clone(),
        };
        super::cached::store(
            self.cache.as_ref(),
            MODE_NAMESPACE,
            ModeBook::key(base_url, model),
            &stored,
        )
        .await;
    }

    /// What the run learnt, one report per server and model that settled.
    pub fn reports(&self) -> Vec<ModeReport> {
        let settled = self.settled.lock().expect("mode book lock");
        settled.values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA_CPP_PYTHON: &str = r#"{"error":{"message":"[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}]","type":"internal_server_error"}}"#;

    #[test]
    fn refusals_by_status_and_body() {
        assert!(is_refusal(500, LLAMA_CPP_PYTHON));
        assert!(!is_refusal(500, "CUDA error: out of memory"));
        assert!(!is_refusal(503, "model overloaded"));
        assert!(is_refusal(
            400,
            r#"{"error":{"message":"Unsupported parameter: 'response_format' of type json_schema"}}"#
        ));
        assert!(is_refusal(400, ""));
        assert!(is_refusal(
            422,
            r#"{"detail":[{"type":"extra_forbidden"}]}"#
        ));
        assert!(is_refusal(415, "unsupported media type"));
        assert!(!is_refusal(
            400,
            "This model's maximum context length is 4096 tokens"
        ));
        assert!(!is_refusal(404, "response_format"));
        assert!(!is_refusal(401, "invalid api key"));
    }

    #[test]
    fn the_ladder_steps_down_to_instructions() {
        let mut mode = OutputMode::JsonSchema;
        let mut seen = vec![mode.as_str()];
        while let Some(next) = mode.next() {
            mode = next;
            seen.push(mode.as_str());
        }
        assert_eq!(
            seen,
            [
                "json_schema",
                "json_object+schema",
                "json_object",
                "instructions"
            ]
        );
        let schema = json!({"type": "object"});
        assert_eq!(
            OutputMode::JsonObjectSchema.response_format(&schema),
            Some(json!({"type": "json_object", "schema": {"type": "object"}}))
        );
        assert_eq!(OutputMode::Instructions.response_format(&schema), None);
        for m in OutputMode::ALL {
            assert_eq!(OutputMode::parse(m.as_str()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), m.as_str());
        }
    }

    #[test]
    fn the_gist_is_the_error_message_on_one_line() {
        let body: Value = serde_json::from_str(LLAMA_CPP_PYTHON).unwrap();
        let gist = refusal_gist(500, &body);
        assert!(
            gist.starts_with("HTTP 500: [{'type': 'literal_error'"),
            "{gist}"
        );
        assert!(gist.chars().count() < 180, "{gist}");
        assert_eq!(
            refusal_gist(422, &Value::String("bad\n request".into())),
            "HTTP 422: bad request"
        );
    }

    #[tokio::test]
    async fn a_settled_mode_is_kept_in_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path()).unwrap();
        let book = ModeBook::new(Some(cache.clone()));
        {
            let mut slot = book.lock("http://h/v1", "m", OutputMode::JsonSchema).await;
            assert_eq!((slot.settled, slot.remembered), (None, false));
            slot.refused
                .push((OutputMode::JsonSchema, "HTTP 500: no".into()));
            book.settle("http://h/v1", "m", &mut slot, OutputMode::JsonObjectSchema)
                .await;
        }
        let reports = book.reports();
        assert_eq!(reports.len(), 1);
        assert!(!reports[0].remembered);
        assert!(
            reports[0].to_string().contains("json_schema refused"),
            "{}",
            reports[0]
        );
        let again = ModeBook::new(Some(cache));
        let slot = again.lock("http://h/v1", "m", OutputMode::JsonSchema).await;
        assert_eq!(slot.settled, Some(OutputMode::JsonObjectSchema));
        assert!(slot.remembered);
        drop(slot);
        let other = again
            .lock("http://h/v1", "other", OutputMode::JsonSchema)
            .await;
        assert_eq!(other.settled, None);
    }
}
