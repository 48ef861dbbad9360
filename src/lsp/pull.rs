//! Pull diagnostics (`textDocument/diagnostic`), for clients that advertise them
//! with `workspace/diagnostic/refresh` support.
//!
//! Never twice: the server pushes (`publishDiagnostics`) until the client's first
//! pull; from then on it answers pulls only. At the switch it clears what it had
//! pushed, and afterwards asks the client to pull again
//! (`workspace/diagnostic/refresh`) when something changes that the client did not
//! edit itself — a background run's verdicts, a bibliography saved on disk. A pull
//! is answered at the end of its batch, on the checks of the edits before it; a
//! document's report carries the diagnostics of the files its roots read (the
//! `.bib`) as `relatedDocuments`.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use lsp_server::{ErrorCode, Request, Response};
use lsp_types::notification::PublishDiagnostics;
use lsp_types::request::{DocumentDiagnosticRequest, Request as _};
use lsp_types::{
    DiagnosticOptions, DiagnosticServerCapabilities, DocumentDiagnosticParams,
    PublishDiagnosticsParams,
};
use serde_json::{Value, json};

use super::client::{ClientCaps, Pending};
use super::documents::path_to_uri;
use super::server::Server;
use super::workspace::key;

/// The capability, when the client can pull.
pub fn provider(client: &ClientCaps) -> Option<DiagnosticServerCapabilities> {
    client.pull_diagnostics.then(|| {
        DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("citeproof".into()),
            // A `.bib` edit changes the diagnostics of the documents that read it.
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            ..DiagnosticOptions::default()
        })
    })
}

/// Whether a request is answered at the end of its batch.
pub fn is_deferred(server: &Server, request: &Request) -> bool {
    request.method == DocumentDiagnosticRequest::METHOD && !server.shutdown_requested
}

/// Answer a `textDocument/diagnostic`.
pub fn answer(server: &mut Server, request: Request) -> Response {
    let Request { id, params, .. } = request;
    let params: DocumentDiagnosticParams = match serde_json::from_value(params) {
        Ok(params) => params,
        Err(e) => {
            return Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                format!("invalid parameters for textDocument/diagnostic: {e}"),
            );
        }
    };
    // Only a client that was offered pulls switches to them; any other is
    // answered and still pushed to.
    if !server.pull.active && server.client.pull_diagnostics {
        server.start_pulling();
    }
    let file = key(&params.text_document.uri);
    let items = server.workspace.union_for(&file);
    // The other files the roots reading this one read, with what they report.
    let mut related = BTreeMap::new();
    for root in server.workspace.readers(&file) {
        for other in &server.workspace.roots[&root].files {
            if *other == file || related.contains_key(other) {
                continue;
            }
            related.insert(other.clone(), server.workspace.union_for(other));
        }
    }
    let related: serde_json::Map<String, Value> = related
        .into_iter()
        .filter_map(|(path, items)| {
            let uri = path_to_uri(&path)?;
            Some((
                uri.as_str().to_string(),
                json!({"kind": "full", "items": items}),
            ))
        })
        .collect();
    let result_id = result_id(&items, &related);
    if params.previous_result_id.as_deref() == Some(result_id.as_str()) {
        return Response::new_ok(id, json!({"kind": "unchanged", "resultId": result_id}));
    }
    let mut report = json!({"kind": "full", "resultId": result_id, "items": items});
    if !related.is_empty() {
        report["relatedDocuments"] = Value::Object(related);
    }
    Response::new_ok(id, report)
}

fn result_id(items: &[lsp_types::Diagnostic], related: &serde_json::Map<String, Value>) -> String {
    let mut hasher = DefaultHasher::new();
    serde_json::to_string(items)
        .unwrap_or_default()
        .hash(&mut hasher);
    Value::Object(related.clone()).to_string().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

impl Server {
    /// The client pulls: clear what was pushed, push no more.
    fn start_pulling(&mut self) {
        self.pull.active = true;
        for file in self.workspace.forget_published() {
            let open = self.documents.by_path(&file);
            let Some(uri) = open.map(|d| d.uri.clone()).or_else(|| path_to_uri(&file)) else {
                continue;
            };
            self.notify::<PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics: Vec::new(),
                version: open.map(|d| d.version),
            });
        }
        // What was known is still what will be pulled.
        let none = std::collections::HashSet::new();
        self.workspace.changes(&self.documents, &none, false);
    }

    /// Ask the client to pull again.
    pub(super) fn request_pull_refresh(&mut self) {
        self.request_client(
            "workspace/diagnostic/refresh",
            Value::Null,
            Pending::DiagnosticRefresh,
        );
    }
}
