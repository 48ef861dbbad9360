//! What the client said it can do, and the requests the server sends it
//! (`window/workDoneProgress/create`, `workspace/configuration`,
//! `client/registerCapability`, `workspace/diagnostic/refresh`): each gets an id
//! and is remembered until its response comes back. Also what the server tells
//! it about its own state: whether diagnostics are pulled, a request refused.

use std::collections::HashMap;
use std::path::PathBuf;

use lsp_server::{ErrorCode, Request, RequestId, ResponseError};
use lsp_types::InitializeParams;
use serde_json::Value;

use super::documents::uri_to_path;

/// The client's capabilities the server acts on.
#[derive(Debug, Clone, Default)]
pub struct ClientCaps {
    /// `window.workDoneProgress`: background work is reported with `$/progress`.
    pub work_done_progress: bool,
    /// `textDocument.diagnostic` with `workspace.diagnostics.refreshSupport`: the
    /// client can pull diagnostics and be told to pull again.
    pub pull_diagnostics: bool,
    /// `workspace.configuration`: settings are pulled.
    pub configuration: bool,
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`.
    pub watch_files: bool,
}

impl ClientCaps {
    /// Read from the `capabilities` of `initialize` as sent (lsp-types spells
    /// `workspace.diagnostics` as `diagnostic`, so the JSON is read directly).
    pub fn from_json(capabilities: &Value) -> ClientCaps {
        let on =
            |pointer: &str| capabilities.pointer(pointer).and_then(Value::as_bool) == Some(true);
        ClientCaps {
            work_done_progress: on("/window/workDoneProgress"),
            pull_diagnostics: capabilities
                .pointer("/textDocument/diagnostic")
                .is_some_and(Value::is_object)
                && on("/workspace/diagnostics/refreshSupport"),
            configuration: on("/workspace/configuration"),
            watch_files: on("/workspace/didChangeWatchedFiles/dynamicRegistration"),
        }
    }
}

/// The workspace folders of the session (`workspaceFolders`, else `rootUri`).
#[allow(deprecated)] // `root_uri` is what older clients send.
pub fn workspace_folders(params: &InitializeParams) -> Vec<PathBuf> {
    match &params.workspace_folders {
        Some(folders) if !folders.is_empty() => {
            folders.iter().map(|f| uri_to_path(&f.uri)).collect()
        }
        _ => params.root_uri.iter().map(uri_to_path).collect(),
    }
}

/// What a server-to-client request was for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// `workspace/configuration` for the `citeproof` section.
    Configuration,
    /// `window/workDoneProgress/create` for this token.
    ProgressToken(String),
    /// `client/registerCapability` (watched files).
    Register,
    /// `workspace/diagnostic/refresh`.
    DiagnosticRefresh,
    /// `workspace/applyEdit` (an entry added from Zotero).
    ApplyEdit,
}

/// Requests sent to the client and not yet answered.
#[derive(Debug, Default)]
pub struct Outgoing {
    next: u64,
    pending: HashMap<RequestId, Pending>,
}

impl Outgoing {
    /// A request to send, remembered as `what`.
    pub fn request(&mut self, method: &str, params: serde_json::Value, what: Pending) -> Request {
        self.next += 1;
        let id = RequestId::from(format!("citeproof/{}", self.next));
        self.pending.insert(id.clone(), what);
        Request::new(id, method.to_string(), params)
    }

    /// What the response with this id answers (`None`: not ours, or answered).
    pub fn answered(&mut self, id: &RequestId) -> Option<Pending> {
        self.pending.remove(id)
    }
}

/// Whether pulls are in use, and whether a refresh request is out.
#[derive(Debug, Default)]
pub struct PullState {
    /// The client has pulled: the server no longer pushes.
    pub active: bool,
}

/// A request that was understood but cannot be carried out; the message says why.
pub fn refused(message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: ErrorCode::RequestFailed as i32,
        message: message.into(),
        data: None,
    }
}
