//! The state the main loop owns (see `main_loop.rs`), and how it talks to the
//! client: responses, notifications, its own requests, log and shown messages.
//! Each concern's state is a type of its own file, none of which knows the
//! server; the files that act on a concern add `impl Server` blocks.

use std::collections::HashSet;
use std::path::PathBuf;

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{LogMessage, ShowMessage};
use lsp_types::{InitializeParams, LogMessageParams, MessageType, ShowMessageParams};
use serde_json::Value;

use super::background::Event;
use super::client::{ClientCaps, Outgoing, Pending, PullState, workspace_folders};
use super::documents::Documents;
use super::encoding::Encoding;
use super::kept::Roots;
use super::runs::Resolution;
use super::settings::Settings;
use super::workspace::Workspace;
use super::zotero::Zotero;

/// The environment variable that enables `citeproof/debug/panic`, a request whose
/// handler panics: for testing that a panicking handler is answered, logged and
/// survived. Unset, the method does not exist.
pub const DEBUG_PANIC_ENV: &str = "CITEPROOF_LSP_DEBUG_PANIC";

/// Everything the main loop owns.
pub struct Server {
    pub(super) sender: Sender<Message>,
    pub(super) receiver: Receiver<Message>,
    pub(super) events: Receiver<Event>,
    pub(super) documents: Documents,
    pub(super) encoding: Encoding,
    pub(super) settings: Settings,
    pub(super) workspace: Workspace,
    pub(super) shutdown_requested: bool,
    pub(super) client: ClientCaps,
    /// Everything the client said it can do, for the editor features (workspace
    /// edits with file creation, code action resolution, hierarchical symbols).
    pub(super) client_capabilities: lsp_types::ClientCapabilities,
    pub(super) outgoing: Outgoing,
    pub(super) folders: Vec<PathBuf>,
    /// Which roots are checked, their checkers, and what changed since.
    pub(super) roots: Roots,
    /// Background runs, their progress, and what they learned.
    pub(super) resolution: Resolution,
    /// Pull diagnostics (`textDocument/diagnostic`) in use, and what was answered.
    pub(super) pull: PullState,
    /// Requests answered after the batch's checks (diagnostic pulls).
    pub(super) deferred: Vec<Request>,
    /// Documents the client edited in this batch.
    pub(super) edited: HashSet<PathBuf>,
    /// Changed lists of files that are not open, held back while the client
    /// types (published at a pause or before the answer to a request).
    pub(super) held: bool,
    /// Errors already shown to the user (each is shown once until it goes away).
    pub(super) shown: HashSet<String>,
    pub(super) debug_panic: bool,
    /// The user's Zotero library, read in the background.
    pub(super) zotero: Zotero,
}

impl Server {
    /// The state of a session that `initialize` opened with `params`.
    pub(super) fn new(
        connection: &Connection,
        params: &InitializeParams,
        client: ClientCaps,
    ) -> Server {
        let (events_tx, events) = unbounded();
        Server {
            sender: connection.sender.clone(),
            receiver: connection.receiver.clone(),
            events,
            documents: Documents::default(),
            encoding: Encoding::negotiate(&params.capabilities),
            settings: Settings::default(),
            workspace: Workspace::default(),
            shutdown_requested: false,
            client,
            client_capabilities: params.capabilities.clone(),
            outgoing: Outgoing::default(),
            folders: workspace_folders(params),
            roots: Roots::default(),
            resolution: Resolution::new(events_tx),
            pull: PullState::default(),
            deferred: Vec::new(),
            edited: HashSet::new(),
            held: false,
            shown: HashSet::new(),
            debug_panic: std::env::var_os(DEBUG_PANIC_ENV).is_some_and(|v| v == "1"),
            zotero: Zotero::default(),
        }
    }

    pub(super) fn respond(&self, response: Response) {
        // The client went away: the loop ends when the receiver closes.
        let _ = self.sender.send(response.into());
    }

    pub(super) fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.notify_with(N::METHOD, params);
    }

    /// Send a notification whose parameters are another type that serialises as
    /// the method's (one that borrows what it sends).
    pub(super) fn notify_with(&self, method: &str, params: impl serde::Serialize) {
        let _ = self
            .sender
            .send(Notification::new(method.to_string(), params).into());
    }

    /// Send a request to the client; its response is matched by `what`.
    pub(super) fn request_client(&mut self, method: &str, params: Value, what: Pending) {
        let request = self.outgoing.request(method, params, what);
        let _ = self.sender.send(request.into());
    }

    pub(super) fn log(&self, kind: MessageType, message: impl Into<String>) {
        self.notify::<LogMessage>(LogMessageParams {
            typ: kind,
            message: message.into(),
        });
    }

    /// Show an error to the user once (logged every time); shown again only after
    /// it went away (see `refresh`).
    pub(super) fn show_once(&mut self, kind: MessageType, message: String) {
        self.log(kind, message.clone());
        if self.shown.insert(message.clone()) {
            self.notify::<ShowMessage>(ShowMessageParams { typ: kind, message });
        }
    }

    /// Read settings; an invalid value is logged and the previous settings kept.
    /// New settings re-check every root and start their background runs again.
    pub(super) fn apply_settings(&mut self, value: &Value) {
        match Settings::from_value(value) {
            Ok((settings, unknown)) => {
                if !unknown.is_empty() {
                    self.log(
                        MessageType::WARNING,
                        format!("unknown citeproof settings ignored: {}", unknown.join(", ")),
                    );
                }
                if settings == self.settings {
                    return;
                }
                self.settings = settings;
                self.configure_zotero();
                self.roots.forget_checkers();
                self.resolution.new_generation();
                self.mark_all_dirty();
                self.resolution.want_all();
            }
            Err(e) => self.log(
                MessageType::ERROR,
                format!("invalid citeproof settings, previous ones kept: {e}"),
            ),
        }
    }
}

/// Run `f`, turning a panic into its message: a bug in one handler costs one
/// answer, never the session.
pub(super) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    crate::panics::catch(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message() {
        let caught = catch(|| -> u8 { panic!("handler bug at {}", 42) });
        let fine = catch(|| 7);
        assert_eq!(caught, Err("handler bug at 42".to_string()));
        assert_eq!(fine, Ok(7));
    }
}
