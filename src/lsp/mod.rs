//! The language server (`citeproof lsp`): the editor's setting of citeproof.
//!
//! Built on lsp-server and lsp-types. One main loop owns the state ([`server`]);
//! requests and notifications are routed in [`dispatch`]; open documents and their
//! incremental edits live in [`documents`], positions are converted in the
//! negotiated encoding in [`encoding`]; every check is the library's configured
//! check ([`crate::pipeline::Checker`]) reading the open buffers over the disk, so
//! the editor reports exactly what `citeproof check` reports ([`workspace`]).

mod accept_action;
mod actions;
mod background;
mod buffers;
mod client;
mod completion;
mod completion_context;
mod completion_index;
mod config_edit;
mod diagnostics;
mod dispatch;
mod documents;
mod edit;
mod encoding;
mod features;
#[cfg(test)]
mod features_tests;
mod hover;
mod kept;
mod links;
mod main_loop;
mod moved;
mod navigation;
mod pull;
mod refresh;
mod rename;
mod render;
mod resolution;
mod roots;
mod runs;
mod scan;
mod server;
mod settings;
mod setup;
mod suppress_edit;
pub mod transport;
mod view;
mod workspace;
mod zotero;
mod zotero_edit;

pub use diagnostics::{DiagnosticData, FileEdit, FixData};
pub use encoding::Encoding;
pub use main_loop::{Ending, serve};
pub use refresh::INVALID_CONFIGURATION;
pub use server::DEBUG_PANIC_ENV;
pub use settings::{ResolveWhen, Settings};

/// Serve on standard input and output until the client says `exit` or goes away.
pub fn serve_stdio() -> anyhow::Result<Ending> {
    let (connection, threads) = transport::stdio();
    let ending = serve(connection)?;
    // The reader stops after `exit`; when the client vanished it reports why.
    if let Err(e) = threads.join()
        && ending == Ending::Clean
    {
        eprintln!("citeproof lsp: {e}");
    }
    Ok(ending)
}
