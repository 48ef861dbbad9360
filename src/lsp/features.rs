//! The editor features (hover, completion, navigation, rename, symbols, links, code
//! actions): what the server advertises for them and which handler answers which
//! request. Every handler reads a [`View`] of the state after the pending edits
//! were checked, so positions always refer to the text the client has.

use lsp_server::{ErrorCode, Request, Response, ResponseError};
use lsp_types::request::{
    CodeActionRequest, CodeActionResolveRequest, Completion, DocumentLinkRequest,
    DocumentSymbolRequest, ExecuteCommand, GotoDefinition, HoverRequest, PrepareRenameRequest,
    References, Rename, Request as _, ResolveCompletionItem,
};
use lsp_types::{
    ClientCapabilities, CodeActionKind, CodeActionOptions, CodeActionProviderCapability,
    CompletionOptions, DocumentLinkOptions, ExecuteCommandOptions, ExecuteCommandParams,
    HoverProviderCapability, OneOf, RenameOptions, ServerCapabilities, WorkDoneProgressOptions,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::client::{Pending, refused};
use super::server::Server;
use super::view::View;
use super::zotero_edit::{ADD_COMMAND, AddArgs, REFRESH_COMMAND};
use super::{actions, completion, hover, links, navigation, rename, zotero_edit};

/// The code action kinds the server offers.
pub fn code_action_kinds() -> Vec<CodeActionKind> {
    vec![CodeActionKind::QUICKFIX, actions::fix_all_kind()]
}

/// The capabilities of the editor features (the server adds sync and encoding).
pub fn capabilities(_client: &ClientCapabilities) -> ServerCapabilities {
    ServerCapabilities {
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            resolve_provider: Some(true),
            trigger_characters: Some(completion::TRIGGERS.iter().map(|c| c.to_string()).collect()),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(code_action_kinds()),
            work_done_progress_options: WorkDoneProgressOptions::default(),
            resolve_provider: Some(true),
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![ADD_COMMAND.to_string(), REFRESH_COMMAND.to_string()],
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        ..ServerCapabilities::default()
    }
}

/// Answer a request of an editor feature; `None` when `request` is none of them.
pub fn request(server: &mut Server, request: &Request) -> Option<Response> {
    let Request { id, method, params } = request;
    let answer = match method.as_str() {
        HoverRequest::METHOD => run(server, method, params, hover::hover),
        Completion::METHOD => {
            // Typing does not wait for the check of the keystroke: completion reads
            // the buffer as it is and the entries of the last check.
            let uri =
                serde_json::from_value::<lsp_types::Uri>(params["textDocument"]["uri"].clone());
            if uri.is_ok_and(|uri| server.view().read(&uri).is_some()) {
                answer(server, method, params, completion::complete)
            } else {
                run(server, method, params, completion::complete)
            }
        }
        ResolveCompletionItem::METHOD => answer(server, method, params, completion::resolve),
        GotoDefinition::METHOD => run(server, method, params, navigation::definition),
        References::METHOD => run(server, method, params, navigation::references),
        DocumentSymbolRequest::METHOD => run(server, method, params, navigation::symbols),
        DocumentLinkRequest::METHOD => run(server, method, params, links::document_links),
        PrepareRenameRequest::METHOD => run(server, method, params, rename::prepare),
        Rename::METHOD => run(server, method, params, rename::rename),
        CodeActionRequest::METHOD => run(server, method, params, actions::code_actions),
        CodeActionResolveRequest::METHOD => run(server, method, params, actions::resolve),
        ExecuteCommand::METHOD => {
            server.refresh();
            execute(server, method, params)
        }
        _ => return None,
    };
    Some(Response {
        id: id.clone(),
        response_result: answer,
    })
}

/// Check what the client has changed, then answer: positions then refer to the
/// text the client has.
fn run<P: DeserializeOwned, R: Serialize>(
    server: &mut Server,
    method: &str,
    params: &serde_json::Value,
    handler: impl FnOnce(&View, P) -> Result<R, ResponseError>,
) -> Result<serde_json::Value, ResponseError> {
    server.refresh();
    answer(server, method, params, handler)
}

/// Call the handler on the parameters and the state as it is.
fn answer<P: DeserializeOwned, R: Serialize>(
    server: &mut Server,
    method: &str,
    params: &serde_json::Value,
    handler: impl FnOnce(&View, P) -> Result<R, ResponseError>,
) -> Result<serde_json::Value, ResponseError> {
    let params: P = serde_json::from_value(params.clone()).map_err(|e| ResponseError {
        code: ErrorCode::InvalidParams as i32,
        message: format!("invalid parameters for {method}: {e}"),
        data: None,
    })?;
    let view = server.view();
    let result = handler(&view, params)?;
    serde_json::to_value(result).map_err(|e| ResponseError {
        code: ErrorCode::InternalError as i32,
        message: format!("{method}: cannot serialise the result: {e}"),
        data: None,
    })
}

/// `workspace/executeCommand`: the Zotero commands. Adding an entry sends the edit
/// to the client with `workspace/applyEdit`.
fn execute(
    server: &mut Server,
    method: &str,
    params: &serde_json::Value,
) -> Result<serde_json::Value, ResponseError> {
    let invalid = |message: String| ResponseError {
        code: ErrorCode::InvalidParams as i32,
        message,
        data: None,
    };
    let params: ExecuteCommandParams = serde_json::from_value(params.clone())
        .map_err(|e| invalid(format!("invalid parameters for {method}: {e}")))?;
    match params.command.as_str() {
        REFRESH_COMMAND => {
            server.zotero.refresh();
            Ok(serde_json::Value::Null)
        }
        ADD_COMMAND => {
            let args: AddArgs = params
                .arguments
                .first()
                .and_then(|a| serde_json::from_value(a.clone()).ok())
                .ok_or_else(|| invalid(format!("{ADD_COMMAND} takes {{\"uri\", \"key\"}}")))?;
            let (label, edit) = {
                let view = server.view();
                let read = view
                    .read(&args.uri)
                    .ok_or_else(|| refused(format!("`{}` is not checked", args.uri.as_str())))?;
                let (name, edit) =
                    zotero_edit::add_entry(&view, read, &args.key).map_err(refused)?;
                (format!("Add `{}` from Zotero to {name}", args.key), edit)
            };
            let params = serde_json::json!({"label": label, "edit": edit});
            server.request_client("workspace/applyEdit", params, Pending::ApplyEdit);
            Ok(serde_json::Value::Null)
        }
        other => Err(invalid(format!("unknown command `{other}`"))),
    }
}
