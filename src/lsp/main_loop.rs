//! The main loop: one thread owns the state and waits on two channels — the
//! client's messages and the background worker's events. Client messages are read
//! in batches: a batch is everything that has arrived (a batch of edits alone
//! waits a millisecond for the request a keystroke triggers); `$/cancelRequest`s in it
//! cancel the requests they name before those are handled, edits to one document
//! coalesce, and at the end of the batch the changed roots are checked locally,
//! their diagnostics published, pulls answered and background runs started.
//! Nothing on this thread waits for the network.

use std::collections::HashSet;

use crossbeam_channel::select;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    InitializeParams, MessageType, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};
use serde_json::Value;

use super::background::Event;
use super::client::{ClientCaps, Pending};
use super::server::{Server, catch};
use super::{dispatch, features, pull};

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `shutdown` then `exit`: exit status 0.
    Clean,
    /// `exit` without `shutdown`, or the client went away: exit status 1.
    Abrupt,
}

/// How long a batch of edits waits for the request that may follow them.
const FOLLOW_UP: std::time::Duration = std::time::Duration::from_millis(1);

/// How long the client must pause typing before the lists of files that are not
/// open, held back while it typed, are published.
const PAUSE: std::time::Duration = std::time::Duration::from_millis(100);

/// The requests that a keystroke triggers: their answers do not wait for the
/// lists held back while the client types.
fn keeps_typing_pace(method: &str) -> bool {
    use lsp_types::request::{Completion, Request as _, ResolveCompletionItem};
    method == Completion::METHOD || method == ResolveCompletionItem::METHOD
}

/// Run a session on a connection: the initialize handshake, then the main loop.
pub fn serve(connection: Connection) -> anyhow::Result<Ending> {
    let (id, params) = match connection.initialize_start() {
        Ok(start) => start,
        // `exit` before `initialize`, or the client went away.
        Err(_) => return Ok(Ending::Abrupt),
    };
    let client = ClientCaps::from_json(params.get("capabilities").unwrap_or(&Value::Null));
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
    let mut server = Server::new(&connection, &params, client);
    if let Some(options) = &params.initialization_options {
        server.apply_settings(options);
    }
    server.configure_zotero();
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
    let ending = server.main_loop();
    server.resolution.stop();
    server.zotero.stop();
    Ok(ending)
}

impl Server {
    fn capabilities(&self) -> ServerCapabilities {
        ServerCapabilities {
            position_encoding: Some(self.encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            diagnostic_provider: pull::provider(&self.client),
            ..features::capabilities(&self.client_capabilities)
        }
    }

    fn main_loop(&mut self) -> Ending {
        loop {
            let pause = match self.held {
                true => crossbeam_channel::after(PAUSE),
                false => crossbeam_channel::never(),
            };
            select! {
                recv(self.receiver) -> message => {
                    let Ok(first) = message else {
                        return Ending::Abrupt;
                    };
                    let mut batch = vec![first];
                    batch.extend(self.receiver.try_iter());
                    self.await_follow_up(&mut batch);
                    if let Some(ending) = self.on_batch(batch) {
                        return ending;
                    }
                }
                recv(self.events) -> event => match event {
                    Ok(event) => {
                        self.on_event(event);
                        let more: Vec<Event> = self.events.try_iter().collect();
                        for event in more {
                            self.on_event(event);
                        }
                    }
                    // The worker is gone (it only ends with the session).
                    Err(_) => self.events = crossbeam_channel::never(),
                },
                recv(pause) -> _ => {
                    self.publish_held();
                    continue;
                }
            }
            self.after_batch();
        }
    }

    /// A batch of nothing but edits: the request a keystroke triggers (completion)
    /// is sent right after its `didChange`; wait [`FOLLOW_UP`] for it, so that it
    /// is answered from the buffer before the check of the keystroke instead of
    /// after it.
    fn await_follow_up(&self, batch: &mut Vec<Message>) {
        let only_edits = batch
            .iter()
            .all(|m| matches!(m, Message::Notification(n) if n.method == "textDocument/didChange"));
        if only_edits && let Ok(next) = self.receiver.recv_timeout(FOLLOW_UP) {
            batch.push(next);
            batch.extend(self.receiver.try_iter());
        }
    }

    /// Handle one batch of client messages; `Some` when the session ends.
    fn on_batch(&mut self, batch: Vec<Message>) -> Option<Ending> {
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
                    return Some(if self.shutdown_requested {
                        Ending::Clean
                    } else {
                        Ending::Abrupt
                    });
                }
                Message::Notification(n) => self.on_notification(n),
                Message::Response(response) => self.on_response(response),
            }
        }
        None
    }

    /// The end of a batch: local checks of what changed, publication, deferred
    /// answers, background runs.
    fn after_batch(&mut self) {
        self.refresh();
        self.answer_deferred();
        self.start_background();
        self.edited.clear();
    }

    fn on_response(&mut self, response: Response) {
        let Some(what) = self.outgoing.answered(&response.id) else {
            return;
        };
        match (what, response.response_result) {
            (Pending::Configuration, Ok(result)) => {
                // One item asked for: the `citeproof` section (null when unset).
                let section = result.get(0).cloned().unwrap_or(Value::Null);
                if !section.is_null() {
                    self.apply_settings(&section);
                }
            }
            (Pending::ProgressToken(token), Err(error)) => {
                self.resolution.progress_refused(&token);
                self.log(
                    MessageType::WARNING,
                    format!("the client refused a progress token: {}", error.message),
                );
            }
            (what, Err(error)) => self.log(
                MessageType::WARNING,
                format!(
                    "the client answered {what:?} with an error: {}",
                    error.message
                ),
            ),
            _ => {}
        }
    }

    pub(super) fn on_request(&mut self, request: Request) {
        if pull::is_deferred(self, &request) {
            // Answered on the batch's checks, at its end.
            self.deferred.push(request);
            return;
        }
        let id = request.id.clone();
        let method = request.method.clone();
        let outcome = catch(|| dispatch::request(self, request));
        // Whatever came before a request has been published by its answer, except
        // for the requests that keep pace with typing.
        if !keeps_typing_pace(&method) {
            self.publish_held();
        }
        self.answer(id, &method, outcome);
    }

    /// Send a handler's answer; a handler that panicked is logged and answered
    /// with an internal error.
    fn answer(&self, id: RequestId, method: &str, outcome: Result<Response, String>) {
        let response = outcome.unwrap_or_else(|why| {
            let message = format!("internal error handling {method}: {why}");
            self.log(MessageType::ERROR, message.clone());
            Response::new_err(id, ErrorCode::InternalError as i32, message)
        });
        self.respond(response);
    }

    /// Answer the requests kept for the end of the batch.
    fn answer_deferred(&mut self) {
        for request in std::mem::take(&mut self.deferred) {
            let id = request.id.clone();
            let method = request.method.clone();
            let outcome = catch(|| pull::answer(self, request));
            self.answer(id, &method, outcome);
        }
    }

    fn on_notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        if let Err(why) = catch(|| dispatch::notification(self, notification)) {
            self.log(
                MessageType::ERROR,
                format!("internal error handling {method}: {why}"),
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
