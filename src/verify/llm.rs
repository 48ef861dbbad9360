//! A client for any OpenAI-compatible server (hosted APIs, Ollama, vLLM, llama.cpp):
//! `POST {base}/chat/completions` and `POST {base}/embeddings`, where the base URL
//! includes `/v1` as in the OpenAI SDKs.
//!
//! Requests go through [`crate::net`] (timeouts, retries on 429/5xx, body cap) after a
//! [`Limiter`] grant (rolling-window budget, concurrency cap); every request is
//! recorded in the [`UsageTracker`]. Structured output is negotiated per server and
//! model ([`super::structured`]): the best form the server accepts, remembered.

use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};
use url::Url;

use super::structured::{ModeBook, OutputMode, is_refusal, refusal_gist};
use super::usage::{BudgetExhausted, Limiter, Prices, UsageLimits, UsageTracker};
use crate::net::{HttpRequest, Net, NetError, Rate, RetryPolicy, SourceHandle, SourcePolicy};

/// Environment variable holding the API key unless another name is configured.
pub const DEFAULT_API_KEY_ENV: &str = "CITEPROOF_LLM_API_KEY";

/// One model endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    /// Everything before `/chat/completions` (e.g. `http://localhost:11434/v1`).
    pub base_url: String,
    pub model: String,
    /// Name of the environment variable that holds the API key (none: no key sent).
    pub api_key_env: Option<String>,
    /// Total time for one attempt.
    pub timeout: Duration,
    /// Transport retries (timeouts, 429, 5xx) per request.
    pub retry: RetryPolicy,
    /// Completion tokens asked for at most.
    pub max_tokens: u32,
    pub prices: Option<Prices>,
    pub limits: UsageLimits,
    /// Ask for structured output (negotiated: the best form the server accepts);
    /// `false`: instructions only.
    pub structured_output: bool,
}

/// Time for one request to a model server elsewhere, and to one on this machine
/// (a CPU-bound local model may take minutes for a long reply).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
pub const LOCAL_TIMEOUT: Duration = Duration::from_secs(300);
/// Requests in flight at once to a server elsewhere, and to one on this machine: local
/// servers (llama-cpp-python, Ollama, LM Studio) mostly answer one request at a time,
/// so more would only wait in their queue and time out there.
pub const DEFAULT_CONCURRENCY: usize = 4;
pub const LOCAL_CONCURRENCY: usize = 1;

/// Whether `base_url` names this machine (`localhost`, a loopback address).
pub fn is_local_server(base_url: &str) -> bool {
    match Url::parse(base_url.trim())
        .ok()
        .and_then(|u| u.host().map(|h| h.to_owned()))
    {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

impl ModelConfig {
    /// A model at `base_url`, with the defaults for a server elsewhere or, when the
    /// URL names this machine, for a local one ([`LOCAL_TIMEOUT`], [`LOCAL_CONCURRENCY`]).
    pub fn new(base_url: &str, model: &str) -> ModelConfig {
        let local = is_local_server(base_url);
        ModelConfig {
            base_url: base_url.trim().trim_end_matches('/').to_string(),
            model: model.to_string(),
            api_key_env: Some(DEFAULT_API_KEY_ENV.to_string()),
            timeout: if local {
                LOCAL_TIMEOUT
            } else {
                DEFAULT_TIMEOUT
            },
            retry: RetryPolicy {
                max_retries: 2,
                retry_timeouts: false,
                ..RetryPolicy::default()
            },
            max_tokens: 512,
            prices: None,
            limits: UsageLimits {
                max_concurrency: if local {
                    LOCAL_CONCURRENCY
                } else {
                    DEFAULT_CONCURRENCY
                },
                ..UsageLimits::default()
            },
            structured_output: true,
        }
    }

    /// `CITEPROOF_LLM_URL` and `CITEPROOF_LLM_MODEL` (both needed), read through `get`.
    pub fn from_env_with(get: impl Fn(&str) -> Option<String>) -> Option<ModelConfig> {
        let value = |k: &str| {
            get(k)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Some(ModelConfig::new(
            &value("CITEPROOF_LLM_URL")?,
            &value("CITEPROOF_LLM_MODEL")?,
        ))
    }
}

/// Why a model request gave no usable answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error(transparent)]
    Budget(#[from] BudgetExhausted),
    #[error("model server {}", describe_net(.0))]
    Net(#[from] NetError),
    #[error("model server answered HTTP {status}: {body}")]
    Status { status: u16, body: String },
    #[error("model server reply not understood: {0}")]
    Malformed(String),
    #[error("bad model configuration: {0}")]
    Config(String),
}

/// A chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    pub role: &'static str,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: "system",
            content: content.into(),
        }
    }

    pub fn user(content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: "user",
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> ChatMessage {
        ChatMessage {
            role: "assistant",
            content: content.into(),
        }
    }
}

/// The text of a chat reply and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// The message text; empty when the server sent none (`null` or absent).
    pub content: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// `stop`, `length` (cut off at `max_tokens`) …, when the server says.
    pub finish_reason: Option<String>,
}

/// A client for one model. Cheap to clone.
#[derive(Debug, Clone)]
pub struct LlmClient {
    config: ModelConfig,
    http: SourceHandle,
    chat_url: Url,
    embeddings_url: Url,
    api_key: Option<String>,
    limiter: Limiter,
    usage: UsageTracker,
    /// The structured-output form each server and model accepts.
    modes: ModeBook,
}

/// What one chat request came back with.
enum Sent {
    Reply(Completion),
    /// The server refused the `response_format` it was sent: status and body.
    Refused(u16, Value),
}

impl LlmClient {
    /// A client sharing `limiter` (the server's budget) and `usage` (the run's ledger).
    /// The API key is read from the configured environment variable now.
    pub fn new(
        net: &Net,
        config: ModelConfig,
        limiter: Limiter,
        usage: UsageTracker,
    ) -> Result<LlmClient, LlmError> {
        let parse = |path: &str| {
            Url::parse(&format!("{}{path}", config.base_url))
                .ok()
                .filter(|u| matches!(u.scheme(), "http" | "https"))
                .ok_or_else(|| LlmError::Config(format!("bad base URL `{}`", config.base_url)))
        };
        let chat_url = parse("/chat/completions")?;
        let embeddings_url = parse("/embeddings")?;
        let policy = SourcePolicy {
            // The rolling-window limiter governs the pace; this only caps bursts.
            rate: Rate {
                requests: 1000,
                per: Duration::from_secs(1),
                burst: 1000,
            },
            max_concurrency: config.limits.max_concurrency.max(1),
            timeout: config.timeout,
            retry: config.retry.clone(),
            max_body_bytes: 8 * 1024 * 1024,
            ..SourcePolicy::default()
        };
        let http = net.source(&format!("llm {}", config.base_url), policy);
        let api_key = config
            .api_key_env
            .as_deref()
            .and_then(|var| std::env::var(var).ok())
            .filter(|k| !k.trim().is_empty());
        Ok(LlmClient {
            config,
            http,
            chat_url,
            embeddings_url,
            api_key,
            limiter,
            usage,
            modes: ModeBook::default(),
        })
    }

    /// Share `modes` (the run's negotiated structured-output forms) with this client.
    pub fn with_modes(mut self, modes: ModeBook) -> LlmClient {
        self.modes = modes;
        self
    }

    pub fn model(&self) -> &str {
        &self.config.model
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    pub fn limiter(&self) -> &Limiter {
        &self.limiter
    }

    pub fn modes(&self) -> &ModeBook {
        &self.modes
    }

    fn request(&self, url: &Url, body: &Value) -> HttpRequest {
        let request = HttpRequest::post_json(url.clone(), body);
        match &self.api_key {
            Some(key) => request.header("authorization", &format!("Bearer {key}")),
            None => request,
        }
    }

    /// One POST under the limiter, recorded in the ledger. Returns the status and body.
    /// With `refusable`, a 5xx that refuses the structured-output request is final
    /// (a deterministic answer, not retried).
    async fn post(
        &self,
        url: &Url,
        body: &Value,
        estimate: u64,
        refusable: bool,
    ) -> Result<(u16, Value), LlmError> {
        let grant = self.limiter.acquire(estimate).await?;
        let request = self.request(url, body);
        let is_final = |r: &crate::net::HttpReply| refusable && is_refusal(r.status, &r.text());
        let reply = match self.http.send_unless(&request, is_final).await {
            Ok(reply) => reply,
            Err(e) => {
                self.usage
                    .record(&self.config.model, self.config.prices, None);
                return Err(e.into());
            }
        };
        let parsed: Option<Value> = serde_json::from_slice(&reply.body).ok();
        let tokens = parsed.as_ref().and_then(|v| v.get("usage")).map(|u| {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            (n("prompt_tokens"), n("completion_tokens"))
        });
        let ok = reply.status == 200 && parsed.is_some();
        let tokens = match (ok, tokens) {
            (true, Some(t)) => Some(t),
            (true, None) => Some((estimate, 0)),
            (false, _) => None,
        };
        grant.settle(tokens.map_or(estimate, |(p, c)| p + c));
        self.usage
            .record(&self.config.model, self.config.prices, tokens);
        match parsed {
            Some(v) if reply.status == 200 => Ok((200, v)),
            _ if reply.status == 200 => Err(LlmError::Malformed(format!(
                "not JSON: {}",
                snippet(&reply.text())
            ))),
            _ => Ok((
                reply.status,
                parsed.unwrap_or(Value::String(snippet(&reply.text()))),
            )),
        }
    }

    /// A chat completion at temperature 0. With `schema`, structured output is asked
    /// for in the best form this server and model accept (negotiated on first use,
    /// stepping down on each refusal, and remembered).
    pub async fn chat(
        &self,
        messages: &[ChatMessage],
        schema: Option<&Value>,
    ) -> Result<Completion, LlmError> {
        let Some(schema) = schema else {
            return match self.send_chat(messages, None).await? {
                Sent::Reply(c) => Ok(c),
                Sent::Refused(status, body) => Err(status_error(status, &body)),
            };
        };
        let first = if self.config.structured_output {
            OutputMode::JsonSchema
        } else {
            OutputMode::Instructions
        };
        let (base, model) = (&self.config.base_url, &self.config.model);
        loop {
            let mut slot = self.modes.lock(base, model, first).await;
            if let Some(mode) = slot.settled {
                // Known to work: send without holding the slot.
                drop(slot);
                let (status, body) = match self.send_chat(messages, Some((mode, schema))).await? {
                    Sent::Reply(c) => return Ok(c),
                    Sent::Refused(status, body) => (status, body),
                };
                // Refused now (the server changed): negotiate again from the next form.
                let mut slot = self.modes.lock(base, model, first).await;
                if slot.settled == Some(mode) {
                    slot.settled = None;
                    slot.remembered = false;
                    slot.refused.push((mode, refusal_gist(status, &body)));
                    slot.candidate = mode.next().ok_or_else(|| status_error(status, &body))?;
                }
                continue;
            }
            // Negotiating: the slot stays locked, so concurrent requests wait for the
            // outcome instead of each being refused.
            let mode = slot.candidate;
            match self.send_chat(messages, Some((mode, schema))).await? {
                Sent::Reply(c) => {
                    self.modes.settle(base, model, &mut slot, mode).await;
                    return Ok(c);
                }
                Sent::Refused(status, body) => {
                    slot.refused.push((mode, refusal_gist(status, &body)));
                    slot.candidate = mode.next().ok_or_else(|| status_error(status, &body))?;
                }
            }
        }
    }

    /// One chat request, with `response_format` in `format`'s form when given.
    async fn send_chat(
        &self,
        messages: &[ChatMessage],
        format: Option<(OutputMode, &Value)>,
    ) -> Result<Sent, LlmError> {
        let chars: usize = messages.iter().map(|m| m.content.len()).sum();
        let estimate = (chars / 4) as u64 + u64::from(self.config.max_tokens);
        let mut body = json!({
            "model": self.config.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": self.config.max_tokens,
        });
        let response_format = format.and_then(|(mode, schema)| mode.response_format(schema));
        let refusable = response_format.is_some();
        if let Some(rf) = response_format {
            body["response_format"] = rf;
        }
        let (status, reply) = self
            .post(&self.chat_url, &body, estimate, refusable)
            .await?;
        if status == 200 {
            return completion(&reply).map(Sent::Reply);
        }
        if refusable && is_refusal(status, &reply_text(&reply)) {
            return Ok(Sent::Refused(status, reply));
        }
        Err(status_error(status, &reply))
    }

    /// Embeddings of `inputs`, in order.
    pub async fn embed(&self, inputs: &[String]) -> Result<Vec<Vec<f32>>, LlmError> {
        let chars: usize = inputs.iter().map(String::len).sum();
        let body = json!({"model": self.config.model, "input": inputs});
        let (status, reply) = self
            .post(&self.embeddings_url, &body, (chars / 4) as u64, false)
            .await?;
        if status != 200 {
            return Err(status_error(status, &reply));
        }
        let data = reply
            .get("data")
            .and_then(Value::as_array)
            .ok_or_else(|| LlmError::Malformed("embeddings reply without `data`".into()))?;
        let mut out: Vec<(usize, Vec<f32>)> = Vec::with_capacity(data.len());
        for (i, item) in data.iter().enumerate() {
            let index = item
                .get("index")
                .and_then(Value::as_u64)
                .map_or(i, |n| n as usize);
            let vector = item
                .get("embedding")
                .and_then(Value::as_array)
                .ok_or_else(|| LlmError::Malformed("embedding without a vector".into()))?
                .iter()
                .map(|x| x.as_f64().map(|f| f as f32))
                .collect::<Option<Vec<f32>>>()
                .ok_or_else(|| LlmError::Malformed("embedding with a non-number".into()))?;
            out.push((index, vector));
        }
        out.sort_by_key(|(i, _)| *i);
        if out.len() != inputs.len() {
            return Err(LlmError::Malformed(format!(
                "{} embeddings for {} inputs",
                out.len(),
                inputs.len()
            )));
        }
        Ok(out.into_iter().map(|(_, v)| v).collect())
    }
}

/// The first choice's message text. A message without content (`null`, as small or
/// reasoning models sometimes send) is an empty text, for the caller to judge.
fn completion(reply: &Value) -> Result<Completion, LlmError> {
    let message = reply
        .pointer("/choices/0/message")
        .filter(|m| m.is_object())
        .ok_or_else(|| LlmError::Malformed("reply without choices[0].message".into()))?;
    let content = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let n = |k: &str| {
        reply
            .pointer(&format!("/usage/{k}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    Ok(Completion {
        content: content.to_string(),
        prompt_tokens: n("prompt_tokens"),
        completion_tokens: n("completion_tokens"),
        finish_reason: reply
            .pointer("/choices/0/finish_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// A reply body as text: the string itself, or the JSON.
fn reply_text(body: &Value) -> String {
    match body {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn status_error(status: u16, body: &Value) -> LlmError {
    LlmError::Status {
        status,
        body: snippet(&reply_text(body)),
    }
}

/// A transport failure in words: a server that keeps answering with an error status
/// is not "unreachable".
fn describe_net(e: &NetError) -> String {
    match e {
        NetError::Status { .. } | NetError::RetryAfterTooLong { .. } => format!("failed: {e}"),
        NetError::Timeout(d) => format!("did not answer in time: timed out after {d:?}"),
        other => format!("unreachable: {other}"),
    }
}

fn snippet(text: &str) -> String {
    let trimmed = text.trim();
    match trimmed.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &trimmed[..i]),
        None => trimmed.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_status_after_retries_is_not_unreachable() {
        let failed = LlmError::from(NetError::Status {
            status: 500,
            attempts: 3,
        });
        assert_eq!(
            failed.to_string(),
            "model server failed: HTTP 500 after 3 attempts"
        );
        let down = LlmError::from(NetError::Connect("refused".into()));
        assert!(down.to_string().starts_with("model server unreachable"));
        let slow = LlmError::from(NetError::Timeout(Duration::from_secs(300)));
        assert!(!slow.to_string().contains("unreachable"), "{slow}");
    }

    #[test]
    fn a_server_on_this_machine_gets_local_defaults() {
        for url in [
            "http://localhost:8080/v1",
            "http://127.0.0.1:11434/v1",
            "http://[::1]:8000/v1",
        ] {
            let c = ModelConfig::new(url, "m");
            assert_eq!(
                (c.timeout, c.limits.max_concurrency),
                (LOCAL_TIMEOUT, 1),
                "{url}"
            );
        }
        let remote = ModelConfig::new("https://api.openai.com/v1", "m");
        assert_eq!(
            (remote.timeout, remote.limits.max_concurrency),
            (DEFAULT_TIMEOUT, DEFAULT_CONCURRENCY)
        );
        assert!(!is_local_server("http://gpu-box:8000/v1"));
    }

    #[test]
    fn completion_text_and_tokens() {
        let reply = json!({
            "choices": [{"message": {"role": "assistant", "content": "{}"}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 3}
        });
        let c = completion(&reply).unwrap();
        assert_eq!(
            (c.content.as_str(), c.prompt_tokens, c.completion_tokens),
            ("{}", 12, 3)
        );
        assert!(completion(&json!({"choices": []})).is_err());
        let empty = json!({"choices": [{"message": {"role": "assistant", "content": null}, "finish_reason": "length"}]});
        let c = completion(&empty).unwrap();
        assert_eq!(
            (c.content.as_str(), c.finish_reason.as_deref()),
            ("", Some("length"))
        );
    }

    #[test]
    fn config_from_env_needs_url_and_model() {
        let env = |k: &str| match k {
            "CITEPROOF_LLM_URL" => Some("http://localhost:11434/v1/".to_string()),
            "CITEPROOF_LLM_MODEL" => Some("qwen2.5:7b".to_string()),
            _ => None,
        };
        let c = ModelConfig::from_env_with(env).unwrap();
        assert_eq!(c.base_url, "http://localhost:11434/v1");
        assert_eq!(c.api_key_env.as_deref(), Some(DEFAULT_API_KEY_ENV));
        assert!(ModelConfig::from_env_with(|_| None).is_none());
    }
}
