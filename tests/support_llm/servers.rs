//! How real OpenAI-compatible servers take `response_format`, for the mock model
//! server: which forms each accepts and what it answers to the others, with the
//! status and body that server sends. The body marked "recorded" was captured from the
//! real server (llama-cpp-python 0.3.36, `python -m llama_cpp.server`); the others
//! follow each server's error format as its documentation and issues show it.

use serde_json::Value;

/// A model server's handling of `response_format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerKind {
    /// OpenAI and compatible hosted APIs: every form.
    #[default]
    OpenAi,
    /// llama.cpp's `llama-server`: `json_schema`, and `json_object` with or without a
    /// schema (turned into a grammar); an unknown type is a 400.
    LlamaServer,
    /// Ollama's `/v1` (0.5 and later): `json_schema` and `json_object`.
    Ollama,
    /// vLLM (0.5.5 and later): `json_schema` and `json_object`.
    Vllm,
    /// vLLM before `json_schema` support: `text` and `json_object` only; anything else
    /// is a 400 carrying pydantic's literal error in vLLM's error object.
    VllmWithoutJsonSchema,
    /// llama-cpp-python's server: `text` and `json_object` (with an optional schema);
    /// `json_schema` is a 500 naming the literal error of the request (recorded).
    LlamaCppPython,
    /// LM Studio: `json_schema` and `text`; `json_object` is a 400.
    LmStudio,
    /// An API with a JSON mode only that validates strictly: `json_schema` is a 400,
    /// a `json_object` with an extra `schema` field is a 400, a plain one is fine.
    JsonModeOnly,
    /// A server that knows no `response_format` and forbids unknown fields (FastAPI):
    /// any form is a 422 (pydantic's `extra_forbidden`).
    NoResponseFormat,
    /// A gateway that answers any `response_format` with a 415.
    UnsupportedMediaType,
}

/// The structured-output form of a chat request body.
pub fn mode_of(request: &Value) -> &'static str {
    let rf = &request["response_format"];
    match rf["type"].as_str() {
        None => "instructions",
        Some("json_schema") => "json_schema",
        Some("json_object") if rf.get("schema").is_some() => "json_object+schema",
        Some("json_object") => "json_object",
        Some("text") => "instructions",
        Some(_) => "other",
    }
}

/// llama-cpp-python 0.3.36's answer to `{"type": "json_schema"}` (recorded; the path
/// in the traceback line shortened).
pub const LLAMA_CPP_PYTHON_500: &str = r#"{"error":{"message":"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  File \"/venv/lib/python3.11/site-packages/llama_cpp/server/app.py\", line 376, in create_chat_completion\n    POST /v1/chat/completions","type":"internal_server_error","param":null,"code":null}}"#;

/// llama-server's answer to an unknown `response_format` type.
pub const LLAMA_SERVER_400: &str = r#"{"error":{"code":400,"message":"response_format type must be one of \"text\" or \"json_object\", but got: other","type":"invalid_request_error"}}"#;

const VLLM_400: &str = r#"{"object":"error","message":"[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}]","type":"BadRequestError","param":null,"code":400}"#;

const LM_STUDIO_400: &str = r#"{"error":"'response_format.type' must be 'json_schema' or 'text'"}"#;

const JSON_MODE_400_SCHEMA: &str = r#"{"error":{"message":"This response_format type is unavailable now","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}"#;

const JSON_MODE_400_EXTRA: &str = r#"{"error":{"message":"Additional properties are not allowed ('schema' was unexpected) - 'response_format'","type":"invalid_request_error","param":null,"code":null}}"#;

const FASTAPI_422: &str = r#"{"detail":[{"type":"extra_forbidden","loc":["body","response_format"],"msg":"Extra inputs are not permitted"}]}"#;

impl ServerKind {
    pub const ALL: [ServerKind; 10] = [
        ServerKind::OpenAi,
        ServerKind::LlamaServer,
        ServerKind::Ollama,
        ServerKind::Vllm,
        ServerKind::VllmWithoutJsonSchema,
        ServerKind::LlamaCppPython,
        ServerKind::LmStudio,
        ServerKind::JsonModeOnly,
        ServerKind::NoResponseFormat,
        ServerKind::UnsupportedMediaType,
    ];

    /// The form citeproof should end up using with this server.
    pub fn expected_mode(self) -> &'static str {
        match self {
            ServerKind::OpenAi
            | ServerKind::LlamaServer
            | ServerKind::Ollama
            | ServerKind::Vllm
            | ServerKind::LmStudio => "json_schema",
            ServerKind::VllmWithoutJsonSchema | ServerKind::LlamaCppPython => "json_object+schema",
            ServerKind::JsonModeOnly => "json_object",
            ServerKind::NoResponseFormat | ServerKind::UnsupportedMediaType => "instructions",
        }
    }

    /// The status and body this server answers `request` with when it refuses the
    /// request's `response_format`; `None` when it takes it.
    pub fn refusal(self, request: &Value) -> Option<(u16, String)> {
        let mode = mode_of(request);
        let refuse = |status: u16, body: &str| Some((status, body.to_string()));
        match (self, mode) {
            (_, "instructions") => None,
            (ServerKind::LlamaServer, "other") => refuse(400, LLAMA_SERVER_400),
            (ServerKind::OpenAi | ServerKind::LlamaServer | ServerKind::Ollama, _) => None,
            (ServerKind::Vllm, _) => None,
            (ServerKind::VllmWithoutJsonSchema, "json_schema" | "other") => refuse(400, VLLM_400),
            (ServerKind::VllmWithoutJsonSchema, _) => None,
            (ServerKind::LlamaCppPython, "json_schema" | "other") => {
                refuse(500, LLAMA_CPP_PYTHON_500)
            }
            (ServerKind::LlamaCppPython, _) => None,
            (ServerKind::LmStudio, "json_schema") => None,
            (ServerKind::LmStudio, _) => refuse(400, LM_STUDIO_400),
            (ServerKind::JsonModeOnly, "json_object") => None,
            (ServerKind::JsonModeOnly, "json_object+schema") => refuse(400, JSON_MODE_400_EXTRA),
            (ServerKind::JsonModeOnly, _) => refuse(400, JSON_MODE_400_SCHEMA),
            (ServerKind::NoResponseFormat, _) => refuse(422, FASTAPI_422),
            (ServerKind::UnsupportedMediaType, _) => refuse(415, "Unsupported Media Type"),
        }
    }
}
