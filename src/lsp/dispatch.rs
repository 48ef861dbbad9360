//! Which handler answers which method. Requests get exactly one response: a result,
//! an error naming what was wrong with the parameters, or MethodNotFound.

use lsp_server::{ErrorCode, Notification, Request, Response};
use lsp_types::MessageType;
use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidChangeWatchedFiles,
    DidChangeWorkspaceFolders, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Initialized, Notification as _,
};
use lsp_types::request::{Request as _, Shutdown};
use serde::de::DeserializeOwned;

use super::server::Server;
use super::workspace;

/// A request whose handler panics, enabled only by [`super::server::DEBUG_PANIC_ENV`].
const DEBUG_PANIC: &str = "citeproof/debug/panic";

/// Parameters of a request or notification, or the error that names what is wrong.
fn params<P: DeserializeOwned>(method: &str, value: serde_json::Value) -> Result<P, String> {
    serde_json::from_value(value).map_err(|e| format!("invalid parameters for {method}: {e}"))
}

/// Answer one request.
pub fn request(server: &mut Server, request: Request) -> Response {
    let Request { id, method, .. } = &request;
    if server.shutdown_requested {
        return Response::new_err(
            id.clone(),
            ErrorCode::InvalidRequest as i32,
            format!("{method}: the server is shutting down"),
        );
    }
    if let Some(response) = super::features::request(server, &request) {
        return response;
    }
    match method.as_str() {
        Shutdown::METHOD => {
            server.shutdown_requested = true;
            server.resolution.stop();
            Response::new_ok(id.clone(), ())
        }
        DEBUG_PANIC if server.debug_panic => {
            panic!("citeproof/debug/panic was asked to panic")
        }
        _ => Response::new_err(
            id.clone(),
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {method}"),
        ),
    }
}

/// Handle one notification; a malformed one is logged and otherwise ignored.
pub fn notification(server: &mut Server, notification: Notification) {
    let Notification {
        method,
        params: value,
    } = notification;
    let outcome: Result<(), String> = match method.as_str() {
        DidOpenTextDocument::METHOD => params(&method, value).map(|p| did_open(server, p)),
        DidChangeTextDocument::METHOD => params(&method, value).map(|p| did_change(server, p)),
        DidSaveTextDocument::METHOD => params(&method, value).map(|p| did_save(server, p)),
        DidCloseTextDocument::METHOD => params(&method, value).map(|p| did_close(server, p)),
        DidChangeConfiguration::METHOD => {
            params::<lsp_types::DidChangeConfigurationParams>(&method, value)
                .map(|p| server.configuration_changed(&p.settings))
        }
        Initialized::METHOD => {
            server.initialized();
            Ok(())
        }
        DidChangeWatchedFiles::METHOD => {
            params(&method, value).map(|p| server.watched_files_changed(p))
        }
        DidChangeWorkspaceFolders::METHOD => {
            params(&method, value).map(|p| server.workspace_folders_changed(p))
        }
        // `initialized`, `$/cancelRequest` (taken by the main loop), `$/setTrace`,
        // and notifications we do not use.
        _ => Ok(()),
    };
    if let Err(why) = outcome {
        server.log(MessageType::ERROR, why);
    }
}

fn did_open(server: &mut Server, p: lsp_types::DidOpenTextDocumentParams) {
    let doc = p.text_document;
    let path = server
        .documents
        .open(doc.uri, &doc.language_id, doc.version, doc.text)
        .path
        .clone();
    server.mark_changed(&path);
    // A new buffer may be a file another document names (and found missing).
    server.mark_all_dirty();
    server.edited.insert(path.clone());
    server.resolution.want(&path);
}

fn did_change(server: &mut Server, p: lsp_types::DidChangeTextDocumentParams) {
    let encoding = server.encoding;
    let uri = p.text_document.uri;
    let changed =
        server
            .documents
            .change(&uri, p.text_document.version, p.content_changes, encoding);
    let Some(doc) = changed else {
        server.log(
            MessageType::WARNING,
            format!("change of a document that is not open: {}", uri.as_str()),
        );
        return;
    };
    let path = doc.path.clone();
    server.mark_changed(&path);
    server.edited.insert(path);
}

fn did_save(server: &mut Server, p: lsp_types::DidSaveTextDocumentParams) {
    let path = workspace::key(&p.text_document.uri);
    server.mark_changed(&path);
    server.resolution.want(&path);
}

fn did_close(server: &mut Server, p: lsp_types::DidCloseTextDocumentParams) {
    if let Some(doc) = server.documents.close(&p.text_document.uri) {
        // The roots that read it now read the file on disk; itself no longer a
        // root, and the open files it read may become roots of their own.
        server.mark_changed(&doc.path);
        server.mark_all_dirty();
    }
}
