//! The user's Zotero library in the language server, read off the main loop.
//!
//! One thread asks Zotero for the whole library (items, Better BibTeX keys and its
//! BibTeX export) when the settings name a Zotero, on `citeproof.zotero.refresh`,
//! and again every [`REFRESH_EVERY`]; the first ask is the probe (a short connect
//! timeout). What it read, with each item's words prepared for completion, is
//! swapped in behind a mutex the request handlers only clone an `Arc` from, so a
//! keystroke never waits for Zotero. When Zotero does not answer there is no
//! library and no Zotero feature; nothing is shown to the user (the log says why),
//! and nothing is retried before the next refresh.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use lsp_server::{Message, Notification};
use lsp_types::{LogMessageParams, MessageType};

use super::completion_index::Matchable;
use crate::zotero::{Client, Library, ZoteroError, ZoteroSettings};

/// How often the library is read again while the server runs.
pub const REFRESH_EVERY: Duration = Duration::from_secs(5 * 60);

/// How long one read of the library may take (a large library is many pages).
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// The notification that tells the client what was read (for status lines and
/// tests): `{url, available, items}`.
pub const STATUS_NOTIFICATION: &str = "citeproof/zotero";

/// A library as the editor features use it: the items and their prepared words.
pub struct ZoteroIndex {
    pub library: Library,
    /// Per item of the library, in order.
    pub words: Vec<Matchable>,
}

impl ZoteroIndex {
    pub fn new(library: Library) -> ZoteroIndex {
        let words = library
            .items()
            .iter()
            .map(|keyed| {
                let families: Vec<&str> = keyed
                    .item
                    .authors()
                    .iter()
                    .map(|c| c.family.as_str())
                    .collect();
                let title = Some(keyed.item.title.as_str()).filter(|t| !t.is_empty());
                Matchable::new(&keyed.key, &families, title)
            })
            .collect();
        ZoteroIndex { library, words }
    }
}

enum Command {
    Configure(ZoteroSettings),
    Refresh,
}

/// The library last read, and the thread that reads it.
#[derive(Default)]
pub struct Zotero {
    current: Arc<Mutex<Option<Arc<ZoteroIndex>>>>,
    commands: Option<Sender<Command>>,
    settings: Option<ZoteroSettings>,
}

impl Zotero {
    /// The library last read; `None` while Zotero is off or not answering.
    pub fn index(&self) -> Option<Arc<ZoteroIndex>> {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Use these settings: a different Zotero (or one turned on or off) is read
    /// again in the background; the same settings change nothing.
    pub fn configure(&mut self, settings: ZoteroSettings, client: &Sender<Message>) {
        if self.settings.as_ref() == Some(&settings) {
            return;
        }
        self.settings = Some(settings.clone());
        if settings.enabled == Some(false) {
            *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
            if self.commands.is_none() {
                // Off from the start: no thread at all.
                return;
            }
        }
        let commands = match &self.commands {
            Some(commands) => commands.clone(),
            None => {
                let (commands, queue) = unbounded();
                let current = self.current.clone();
                let client = client.clone();
                let started = std::thread::Builder::new()
                    .name("citeproof-zotero".into())
                    .spawn(move || worker(queue, current, client));
                if started.is_err() {
                    return;
                }
                self.commands = Some(commands.clone());
                commands
            }
        };
        let _ = commands.send(Command::Configure(settings));
    }

    /// Read the library again now (`citeproof.zotero.refresh`).
    pub fn refresh(&self) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(Command::Refresh);
        }
    }

    /// End of the session: the thread ends after what it is doing.
    pub fn stop(&mut self) {
        self.commands.take();
    }
}

fn worker(
    queue: Receiver<Command>,
    current: Arc<Mutex<Option<Arc<ZoteroIndex>>>>,
    client: Sender<Message>,
) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    let mut settings: Option<ZoteroSettings> = None;
    loop {
        let first = match queue.recv_timeout(REFRESH_EVERY) {
            Ok(command) => command,
            Err(RecvTimeoutError::Timeout) => Command::Refresh,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        // Commands that queued meanwhile are one read, with the latest settings.
        for command in std::iter::once(first).chain(queue.try_iter()) {
            if let Command::Configure(s) = command {
                settings = Some(s);
            }
        }
        let Some(settings) = &settings else {
            continue;
        };
        if settings.enabled == Some(false) {
            *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
            continue;
        }
        let read = Client::new(Some(&settings.url), READ_TIMEOUT)
            .map(|zotero| runtime.block_on(async { Library::read(&zotero).await }));
        let read = read.and_then(|r| r);
        let (log, status) = match read {
            Ok(library) => {
                let items = library.len();
                *current.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(Arc::new(ZoteroIndex::new(library)));
                (
                    (
                        MessageType::INFO,
                        format!("Zotero: read {items} item(s) from {}", settings.url),
                    ),
                    serde_json::json!({"url": settings.url, "available": true, "items": items}),
                )
            }
            Err(e) => {
                let unreachable = matches!(e, ZoteroError::Unreachable { .. });
                if unreachable {
                    // Zotero is not running: no Zotero features until it answers.
                    *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                // Told in the log only; a warning when Zotero was asked for.
                let kind = if settings.enabled == Some(true) {
                    MessageType::WARNING
                } else {
                    MessageType::INFO
                };
                let kept = if unreachable {
                    "Zotero features are off"
                } else {
                    "the library read before is kept"
                };
                let kept_items = current
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
                    .map(|index| index.library.len());
                (
                    (kind, format!("Zotero: {e}; {kept}")),
                    serde_json::json!({"url": settings.url, "available": kept_items.is_some(),
                                       "items": kept_items.unwrap_or(0), "reason": e.to_string()}),
                )
            }
        };
        let log = LogMessageParams {
            typ: log.0,
            message: log.1,
        };
        let _ = client.send(Message::Notification(Notification::new(
            "window/logMessage".into(),
            log,
        )));
        let _ = client.send(Message::Notification(Notification::new(
            STATUS_NOTIFICATION.into(),
            status,
        )));
    }
}
