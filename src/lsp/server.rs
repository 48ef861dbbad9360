//! The main loop: one thread owns the state and reads the client's messages in
//! batches. A batch is everything that has arrived; `$/cancelRequest`s in it cancel
//! the requests they name before those are handled, edits to one document coalesce,
//! and the local diagnostics of every changed root are published once at the end
//! of the batch. Nothing on this thread waits for the network.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{LogMessage, PublishDiagnostics};
use lsp_types::{
    InitializeParams, LogMessageParams, MessageType, PublishDiagnosticsParams, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use serde_json::Value;

use super::documents::Documents;
use super::encoding::Encoding;
use super::settings::Settings;
use super::workspace::{self, Workspace};
use crate::pipeline::Stages;
use crate::source::FileKind;

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `shutdown` then `exit`: exit status 0.
    Clean,
    /// `exit` without `shutdown`, or the client went away: exit status 1.
    Abrupt,
}

/// Everything the main loop owns.
pub struct Server {
    pub(super) sender: Sender<Message>,
    receiver: Receiver<Message>,
    pub(super) documents: Documents,
    pub(super) encoding: Encoding,
    pub(super) settings: Settings,
    pub(super) workspace: Workspace,
    pub(super) shutdown_requested: bool,
    /// What the client can do (code action literals and resolution, file creation).
    pub(super) client: lsp_types::ClientCapabilities,
    /// The workspace folders the client opened: searched for the documents that
    /// cite an entry (references, rename) and where a new `citeproof.toml` goes.
    pub(super) folders: Vec<PathBuf>,
    /// Roots whose local diagnostics must be recomputed at the end of the batch.
    dirty: BTreeSet<PathBuf>,
}

/// Run a session on a connection: the initialize handshake, then the main loop.
pub fn serve(connection: Connection) -> anyhow::Result<Ending> {
    let (id, params) = match connection.initialize_start() {
        Ok(start) => start,
        // `exit` before `initialize`, or the client went away.
        Err(_) => return Ok(Ending::Abrupt),
    };
    let params: InitializeParams = match serde_json::from_value(params) {
        Ok(params) => params,
        Err(e) => {
            let response = Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                format!("invalid initialize parameters: {e}"),
            );
            connection.sender.send(response.into())?;
            return Ok(Ending::Abrupt);
        }
    };
    let encoding = Encoding::negotiate(&params.capabilities);
    let mut server = Server {
        sender: connection.sender.clone(),
        receiver: connection.receiver.clone(),
        documents: Documents::default(),
        encoding,
        settings: Settings::default(),
        workspace: Workspace::default(),
        shutdown_requested: false,
        client: params.capabilities.clone(),
        folders: super::features::workspace_folders(&params),
        dirty: BTreeSet::new(),
    };
    if let Some(options) = &params.initialization_options {
        server.apply_settings(options);
    }
    let result = serde_json::json!({
        "capabilities": server.capabilities(),
        "serverInfo": ServerInfo {
            name: "citeproof".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    // Not lsp-server's `initialize_finish`: it ends the session when anything but
    // `initialized` comes next; `initialized` is one more notification here.
    connection
        .sender
        .send(Response::new_ok(id, result).into())?;
    Ok(server.main_loop())
}

impl Server {
    fn capabilities(&self) -> ServerCapabilities {
        ServerCapabilities {
            position_encoding: Some(self.encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Kind(
                TextDocumentSyncKind::INCREMENTAL,
            )),
            ..super::features::capabilities(&self.client)
        }
    }

    fn main_loop(&mut self) -> Ending {
        while let Ok(first) = self.receiver.recv() {
            let mut batch = vec![first];
            batch.extend(self.receiver.try_iter());
            let cancelled = cancelled_ids(&batch);
            for message in batch {
                match message {
                    Message::Request(request) if cancelled.contains(&request.id) => {
                        self.respond(Response::new_err(
                            request.id,
                            ErrorCode::RequestCanceled as i32,
                            "cancelled by the client".into(),
                        ));
                    }
                    Message::Request(request) => self.on_request(request),
                    Message::Notification(n) if n.method == "exit" => {
                        return if self.shutdown_requested {
                            Ending::Clean
                        } else {
                            Ending::Abrupt
                        };
                    }
                    Message::Notification(n) => self.on_notification(n),
                    Message::Response(_) => {}
                }
            }
            self.refresh_local();
        }
        Ending::Abrupt
    }

    pub(super) fn respond(&self, response: Response) {
        // The client went away: the loop ends when the receiver closes.
        let _ = self.sender.send(response.into());
    }

    pub(super) fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let _ = self
            .sender
            .send(Notification::new(N::METHOD.to_string(), params).into());
    }

    pub(super) fn log(&self, kind: MessageType, message: impl Into<String>) {
        self.notify::<LogMessage>(LogMessageParams {
            typ: kind,
            message: message.into(),
        });
    }

    /// Read settings; an invalid value is logged and the previous settings kept.
    pub(super) fn apply_settings(&mut self, value: &Value) {
        match Settings::from_value(value) {
            Ok((settings, unknown)) => {
                if !unknown.is_empty() {
                    self.log(
                        MessageType::WARNING,
                        format!("unknown citeproof settings ignored: {}", unknown.join(", ")),
                    );
                }
                self.settings = settings;
                self.mark_all_dirty();
            }
            Err(e) => self.log(
                MessageType::ERROR,
                format!("invalid citeproof settings, previous ones kept: {e}"),
            ),
        }
    }

    /// A file changed (an edit, a save, a file watched on disk): recompute the
    /// roots that read it.
    pub(super) fn mark_changed(&mut self, path: &std::path::Path) {
        for root in self.workspace.roots_reading(path) {
            self.dirty.insert(root);
        }
    }

    pub(super) fn mark_all_dirty(&mut self) {
        let roots: Vec<PathBuf> = self.workspace.roots.keys().cloned().collect();
        self.dirty.extend(roots);
        let open: Vec<PathBuf> = self.documents.iter().map(|d| d.path.clone()).collect();
        self.dirty.extend(open);
    }

    /// Whether an open document is checked as a root of its own: documents always;
    /// a bibliography only when no open document reads it.
    fn is_root(&self, path: &std::path::Path) -> bool {
        let Some(doc) = self.documents.by_path(path) else {
            return false;
        };
        match doc.kind {
            // Never read by another document.
            FileKind::Markdown | FileKind::Text => true,
            // A bibliography or an `\input` file is checked within the documents
            // that read it; alone only when no open document does.
            FileKind::Latex | FileKind::Bibtex | FileKind::CslJson => {
                !self.workspace.read_by_other_root(path)
            }
        }
    }

    /// Local diagnostics of every dirty root, published where they changed.
    pub(super) fn refresh_local(&mut self) {
        if self.dirty.is_empty() {
            return;
        }
        let dirty = std::mem::take(&mut self.dirty);
        // Documents first, so that bibliographies they read are not checked alone.
        let (documents, others): (Vec<PathBuf>, Vec<PathBuf>) = dirty.into_iter().partition(|p| {
            self.documents
                .by_path(p)
                .is_some_and(|d| d.kind.is_document())
        });
        for root in documents.into_iter().chain(others) {
            if !self.is_root(&root) {
                self.workspace.remove_root(&root);
                continue;
            }
            match workspace::check_root(&root, &self.documents, &self.settings, &Stages::default())
            {
                Ok((project, checked)) => {
                    let check = workspace::root_check(project, checked, self.encoding);
                    self.workspace.set_root(root, check);
                }
                Err(e) => self.log(
                    MessageType::ERROR,
                    format!("cannot check `{}`: {e:#}", root.display()),
                ),
            }
        }
        // A file that became part of another root's check is no root of its own.
        let stale: Vec<PathBuf> = self
            .workspace
            .roots
            .keys()
            .filter(|root| !self.is_root(root))
            .cloned()
            .collect();
        for root in stale {
            self.workspace.remove_root(&root);
        }
        for publish in self.workspace.changes(&self.documents) {
            self.notify::<PublishDiagnostics>(PublishDiagnosticsParams {
                uri: publish.uri,
                diagnostics: publish.diagnostics,
                version: publish.version,
            });
        }
    }

    pub(super) fn on_request(&mut self, request: Request) {
        let id = request.id.clone();
        let method = request.method.clone();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::dispatch::request(self, request)
        }));
        let response = match outcome {
            Ok(response) => response,
            Err(panic) => {
                let why = panic_text(&panic);
                self.log(
                    MessageType::ERROR,
                    format!("internal error handling {method}: {why}"),
                );
                Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    format!("internal error handling {method}: {why}"),
                )
            }
        };
        self.respond(response);
    }

    fn on_notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::dispatch::notification(self, notification)
        }));
        if let Err(panic) = outcome {
            self.log(
                MessageType::ERROR,
                format!("internal error handling {method}: {}", panic_text(&panic)),
            );
        }
    }
}

/// The requests a batch cancels.
fn cancelled_ids(batch: &[Message]) -> HashSet<RequestId> {
    batch
        .iter()
        .filter_map(|m| match m {
            Message::Notification(n) if n.method == "$/cancelRequest" => {
                let id = n.params.get("id")?;
                serde_json::from_value::<RequestId>(id.clone()).ok()
            }
            _ => None,
        })
        .collect()
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
