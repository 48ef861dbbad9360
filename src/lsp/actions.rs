//! `textDocument/codeAction` and `codeAction/resolve`: every action is a
//! `WorkspaceEdit` computed here, so it works in any editor without client code.
//!
//! - each finding's own fix, from the diagnostic's `data` (safe fixes preferred);
//! - suppress the rule on the finding's line (see [`super::suppress_edit`]);
//! - turn the rule off for the project in `citeproof.toml` (see
//!   [`super::config_edit`]), computed on `codeAction/resolve` when the client can
//!   resolve edits, since it reads the configuration from disk;
//! - every safe fix of the file at once (`source.fixAll.citeproof`).

use std::collections::HashMap;

use lsp_server::ResponseError;
use lsp_types::{
    CodeAction, CodeActionDisabled, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionResponse, Diagnostic as LspDiagnostic, NumberOrString, Range, TextEdit, Uri,
};
use serde::{Deserialize, Serialize};

use super::client::refused;
use super::diagnostics::{DiagnosticData, FixData, SOURCE};
use super::documents::uri_to_path;
use super::edit::workspace_edit;
use super::view::View;
use super::{config_edit, suppress_edit};
use crate::diagnostic::Applicability;
use crate::rules::{self, Rule};

pub fn fix_all_kind() -> CodeActionKind {
    CodeActionKind::new("source.fixAll.citeproof")
}

/// What a lazily computed action carries to `codeAction/resolve`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
enum Pending {
    /// Turn a rule off in the project's configuration.
    RuleOff { uri: Uri, rule: String },
}

pub fn code_actions(
    view: &View,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>, ResponseError> {
    let uri = params.text_document.uri;
    let stored = stored(view, &uri);
    let asked: Vec<LspDiagnostic> = if params.context.diagnostics.is_empty() {
        stored
            .iter()
            .filter(|d| intersects(d.range, params.range))
            .cloned()
            .collect()
    } else {
        params
            .context
            .diagnostics
            .iter()
            .filter(|d| is_ours(d))
            .map(|d| with_data(d, &stored))
            .collect()
    };
    let only = params.context.only.as_deref();
    let mut actions: Vec<CodeAction> = Vec::new();
    if allowed(only, &CodeActionKind::QUICKFIX) {
        actions.extend(asked.iter().filter_map(|d| fix_action(view, d)));
        for (rule, diagnostics) in by_rule(&asked) {
            actions.extend(suppress_action(view, &uri, rule, &diagnostics));
            actions.extend(rule_off_action(view, &uri, rule, diagnostics));
        }
        actions.extend(super::accept_action::actions(view, &uri, &asked));
        actions.extend(super::zotero_edit::actions(
            view,
            &uri,
            params.range,
            &asked,
        ));
    }
    if allowed(only, &fix_all_kind()) {
        actions.extend(fix_all_action(view, &stored));
    }
    Ok(Some(
        actions
            .into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect(),
    ))
}

/// `codeAction/resolve`: fill in the edit of an action that left it for later.
pub fn resolve(view: &View, mut action: CodeAction) -> Result<CodeAction, ResponseError> {
    let Some(data) = action.data.take() else {
        return Ok(action);
    };
    let pending: Pending = serde_json::from_value(data)
        .map_err(|e| refused(format!("not an action of citeproof's: {e}")))?;
    match pending {
        Pending::RuleOff { uri, rule } => {
            let rule =
                rules::find(&rule).ok_or_else(|| refused(format!("unknown rule `{rule}`")))?;
            let edit = config_edit::edit(view, &uri_to_path(&uri), rule).map_err(refused)?;
            action.edit = Some(edit);
        }
    }
    Ok(action)
}

/// Whether an action of `kind` may be returned when the client asked for `only`.
fn allowed(only: Option<&[CodeActionKind]>, kind: &CodeActionKind) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))
        })
    })
}

fn intersects(a: Range, b: Range) -> bool {
    let before = |x: lsp_types::Position, y: lsp_types::Position| {
        (x.line, x.character) < (y.line, y.character)
    };
    !before(a.end, b.start) && !before(b.end, a.start)
}

fn is_ours(d: &LspDiagnostic) -> bool {
    match &d.source {
        Some(source) => source == SOURCE,
        None => matches!(&d.code, Some(NumberOrString::String(c)) if rules::find(c).is_some()),
    }
}

fn code(d: &LspDiagnostic) -> Option<&str> {
    match &d.code {
        Some(NumberOrString::String(c)) => Some(c),
        _ => None,
    }
}

/// The diagnostics the server published for a document: the union over every root.
fn stored(view: &View, uri: &Uri) -> Vec<LspDiagnostic> {
    let path = uri_to_path(uri);
    let mut out: Vec<LspDiagnostic> = Vec::new();
    for check in view.workspace.roots.values() {
        for d in check
            .diagnostics
            .get(&path)
            .into_iter()
            .flat_map(|l| l.iter())
        {
            if !out.contains(d) {
                out.push(LspDiagnostic::clone(d));
            }
        }
    }
    out
}

/// A diagnostic the client sent back, with its `data` restored from what was
/// published when the client dropped it.
fn with_data(d: &LspDiagnostic, stored: &[LspDiagnostic]) -> LspDiagnostic {
    if d.data.is_some() {
        return d.clone();
    }
    stored
        .iter()
        .find(|s| s.range == d.range && s.code == d.code && s.message == d.message)
        .cloned()
        .unwrap_or_else(|| d.clone())
}

fn fix_of(d: &LspDiagnostic) -> Option<FixData> {
    let data: DiagnosticData = serde_json::from_value(d.data.clone()?).ok()?;
    data.fix.filter(|f| !f.edits.is_empty())
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn fix_action(view: &View, d: &LspDiagnostic) -> Option<CodeAction> {
    let fix = fix_of(d)?;
    let title = match fix.applicability {
        Applicability::Safe => capitalised(&fix.description),
        Applicability::Unsafe => format!("{} (unsafe fix)", capitalised(&fix.description)),
        Applicability::DisplayOnly => format!("{} (suggestion)", capitalised(&fix.description)),
    };
    let edits = fix.edits.into_iter().map(|e| (e.uri, e.edit)).collect();
    Some(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(workspace_edit(view, edits)),
        is_preferred: Some(fix.applicability == Applicability::Safe),
        ..CodeAction::default()
    })
}

/// The asked-for diagnostics grouped by rule, in the order the rules first appear.
fn by_rule(diagnostics: &[LspDiagnostic]) -> Vec<(&'static Rule, Vec<LspDiagnostic>)> {
    let mut out: Vec<(&'static Rule, Vec<LspDiagnostic>)> = Vec::new();
    for d in diagnostics {
        let Some(rule) = code(d).and_then(rules::find) else {
            continue;
        };
        match out.iter_mut().find(|(r, _)| r.code == rule.code) {
            Some((_, list)) => list.push(d.clone()),
            None => out.push((rule, vec![d.clone()])),
        }
    }
    out
}

/// One suppression per line the rule reports on.
fn suppress_action(
    view: &View,
    uri: &Uri,
    rule: &'static Rule,
    diagnostics: &[LspDiagnostic],
) -> Vec<CodeAction> {
    let Some(read) = view.read(uri) else {
        return Vec::new();
    };
    let mut lines: HashMap<u32, Vec<LspDiagnostic>> = HashMap::new();
    for d in diagnostics {
        lines.entry(d.range.start.line).or_default().push(d.clone());
    }
    let mut lines: Vec<(u32, Vec<LspDiagnostic>)> = lines.into_iter().collect();
    lines.sort_by_key(|(line, _)| *line);
    lines
        .into_iter()
        .filter_map(|(_, on_line)| {
            let offset = view.offset(read, on_line[0].range.start);
            let suppress = suppress_edit::suppress(view, read, offset, rule)?;
            let edits = suppress
                .edits
                .into_iter()
                .map(|e| (uri.clone(), e))
                .collect();
            Some(CodeAction {
                title: suppress.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(on_line),
                edit: Some(workspace_edit(view, edits)),
                is_preferred: Some(false),
                ..CodeAction::default()
            })
        })
        .collect()
}

/// Whether the client fills in an action's edit through `codeAction/resolve`.
fn resolves_edits(view: &View) -> bool {
    view.client
        .text_document
        .as_ref()
        .and_then(|t| t.code_action.as_ref())
        .and_then(|c| c.resolve_support.as_ref())
        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"))
}

fn rule_off_action(
    view: &View,
    uri: &Uri,
    rule: &'static Rule,
    diagnostics: Vec<LspDiagnostic>,
) -> Option<CodeAction> {
    let document = uri_to_path(uri);
    let (config, exists) = config_edit::config_path(view, &document);
    let name = config
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| config.display().to_string());
    let title = if exists {
        format!(
            "Turn off {} ({}) for the project in {name}",
            rule.code, rule.name
        )
    } else {
        format!(
            "Turn off {} ({}) for the project (creates {name})",
            rule.code, rule.name
        )
    };
    let mut action = CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(diagnostics),
        is_preferred: Some(false),
        ..CodeAction::default()
    };
    if resolves_edits(view) {
        let pending = Pending::RuleOff {
            uri: uri.clone(),
            rule: rule.code.to_string(),
        };
        action.data = serde_json::to_value(pending).ok();
        return Some(action);
    }
    match config_edit::edit(view, &document, rule) {
        Ok(edit) => action.edit = Some(edit),
        // Shown greyed out with the reason where the client can; else left out.
        Err(reason) if view.shows_disabled_actions() => {
            action.disabled = Some(CodeActionDisabled { reason });
        }
        Err(_) => return None,
    }
    Some(action)
}

/// Every safe fix of the file whose edits do not overlap an earlier one's.
fn fix_all_action(view: &View, stored: &[LspDiagnostic]) -> Option<CodeAction> {
    let mut chosen: Vec<(Uri, TextEdit)> = Vec::new();
    let mut fixed = Vec::new();
    for d in stored {
        let Some(fix) = fix_of(d).filter(|f| f.applicability == Applicability::Safe) else {
            continue;
        };
        let clashes = fix.edits.iter().any(|e| {
            chosen.iter().any(|(uri, c)| {
                *uri == e.uri
                    && (intersects(c.range, e.edit.range) && !(touching(c.range, e.edit.range)))
            })
        });
        if clashes {
            continue;
        }
        chosen.extend(fix.edits.into_iter().map(|e| (e.uri, e.edit)));
        fixed.push(d.clone());
    }
    if fixed.is_empty() {
        return None;
    }
    Some(CodeAction {
        title: format!(
            "Apply every safe citeproof fix in this file ({})",
            fixed.len()
        ),
        kind: Some(fix_all_kind()),
        diagnostics: Some(fixed),
        edit: Some(workspace_edit(view, chosen)),
        ..CodeAction::default()
    })
}

/// Ranges that only meet at an end (neither empty): both edits can apply.
fn touching(a: Range, b: Range) -> bool {
    (a.end == b.start || b.end == a.start) && a.start != a.end && b.start != b.end
}
