//! "Turn this rule off for the project": set the rule to `off` under `[rules]` of
//! the `citeproof.toml` that applies to the document (the one `citeproof check`
//! would read), or create one in the workspace folder. The file is edited with
//! toml_edit, so its comments, order and other keys stay as they are, and the
//! result is read back as a configuration before it is offered: an edit never
//! makes the configuration invalid.

use std::path::{Path, PathBuf};

use lsp_types::{TextEdit, WorkspaceEdit};

use super::edit::{can_create_files, create_file, workspace_edit};
use super::view::View;
use crate::config::ConfigFile;
use crate::config::layers::{FILE_NAMES, discover};
use crate::fs::FileSystem;
use crate::model::Span;
use crate::rules::Rule;
use crate::source::LineIndex;

/// Configuration files larger than this are not edited.
const MAX_SIZE: u64 = 1 << 20;

/// The configuration file of a document, and whether it exists yet.
pub fn config_path(view: &View, document: &Path) -> (PathBuf, bool) {
    let fs = view.documents.buffers().snapshot();
    if let Some(file) = &view.settings.config_file {
        return (file.clone(), fs.is_file(file));
    }
    let dir = document.parent().unwrap_or(Path::new("/"));
    if let Ok(Some(found)) = discover(&fs, dir) {
        return (found, true);
    }
    // None yet: at the top of the workspace folder that holds the document.
    let folder = view
        .folders
        .iter()
        .filter(|f| document.starts_with(f))
        .max_by_key(|f| f.components().count())
        .map(PathBuf::as_path)
        .unwrap_or(dir);
    (folder.join(FILE_NAMES[0]), false)
}

/// `text` with `rule` set to `off`: an existing key that names the rule (by code or
/// name) keeps its place; otherwise the code is added, with the name as a comment.
pub fn turn_off(text: &str, rule: &Rule) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e| format!("citeproof.toml is not valid TOML: {e}"))?;
    // A comment cannot go inside `rules = { … }`.
    let inline = doc
        .get("rules")
        .is_some_and(toml_edit::Item::is_inline_table);
    let rules = doc
        .entry("rules")
        .or_insert_with(toml_edit::table)
        .as_table_like_mut()
        .ok_or("`rules` in citeproof.toml is not a table")?;
    let existing = rules
        .iter()
        .map(|(key, _)| key.to_string())
        .find(|key| crate::rules::find(key).is_some_and(|r| r.code == rule.code));
    match existing {
        Some(key) => {
            if let Some(item) = rules.get_mut(&key) {
                let suffix = item
                    .as_value()
                    .and_then(|v| v.decor().suffix())
                    .and_then(|s| s.as_str())
                    .map(str::to_string);
                let mut value = toml_edit::Value::from("off");
                if let Some(suffix) = suffix {
                    value.decor_mut().set_suffix(suffix);
                }
                *item = toml_edit::Item::Value(value);
            }
        }
        None => {
            let mut value = toml_edit::Value::from("off");
            if !inline {
                value.decor_mut().set_suffix(format!(" # {}", rule.name));
            }
            rules.insert(rule.code, toml_edit::Item::Value(value));
        }
    }
    let out = doc.to_string();
    // Read back exactly as every run reads it.
    toml::from_str::<ConfigFile>(&out)
        .map_err(|e| format!("citeproof.toml cannot take the change: {}", e.message()))?;
    Ok(out)
}

/// The bytes of `old` that differ from `new` and what replaces them: one edit that
/// leaves the rest of an open buffer (and the cursor in it) alone.
fn smallest_edit(old: &str, new: &str) -> (Span, String) {
    let prefix = old
        .char_indices()
        .zip(new.chars())
        .find(|((_, a), b)| a != b)
        .map_or(old.len().min(new.len()), |((i, _), _)| i);
    let prefix = (0..=prefix)
        .rev()
        .find(|&i| old.is_char_boundary(i) && new.is_char_boundary(i))
        .unwrap_or(0);
    let max_suffix = (old.len() - prefix).min(new.len() - prefix);
    let suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let suffix = (0..=suffix)
        .rev()
        .find(|&n| old.is_char_boundary(old.len() - n) && new.is_char_boundary(new.len() - n))
        .unwrap_or(0);
    (
        Span::new(prefix, old.len() - suffix),
        new[prefix..new.len() - suffix].to_string(),
    )
}

/// The edit that turns `rule` off for the project of `document`; the error says
/// why it cannot be made.
pub fn edit(view: &View, document: &Path, rule: &Rule) -> Result<WorkspaceEdit, String> {
    let (path, exists) = config_path(view, document);
    let uri = view
        .uri_of(&path)
        .ok_or_else(|| format!("`{}` has no file URI", path.display()))?;
    if !exists {
        if !can_create_files(view) {
            return Err(format!(
                "the editor cannot create files: create `{}` with `[rules]` `{} = \"off\"`",
                path.display(),
                rule.code
            ));
        }
        let text = turn_off("", rule)?;
        return Ok(create_file(view, uri, text));
    }
    let old = view
        .documents
        .buffers()
        .read_text(&path, MAX_SIZE)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let new = turn_off(&old, rule)?;
    let (span, replacement) = smallest_edit(&old, &new);
    let range = view.encoding.range(&old, &LineIndex::new(&old), span);
    Ok(workspace_edit(
        view,
        vec![(uri, TextEdit::new(range, replacement))],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{UNDEFINED_CITATION, UNUSED_ENTRY};

    #[test]
    fn adds_a_rules_table_keeping_everything_else() {
        let text = "# my project\nfail-on = \"warning\"\n\n[resolve]\noffline = true # no net\n";
        let out = turn_off(text, &UNDEFINED_CITATION).unwrap();
        assert!(out.starts_with(text), "{out}");
        assert!(
            out.ends_with("[rules]\nCP101 = \"off\" # undefined-citation\n"),
            "{out}"
        );
        let config: ConfigFile = toml::from_str(&out).unwrap();
        assert_eq!(config.rules.unwrap().len(), 1);
    }

    #[test]
    fn replaces_the_key_that_names_the_rule_in_place() {
        let text = "[rules]\nunused-entry = \"warning\" # noisy\nCP101 = \"error\"\n";
        let out = turn_off(text, &UNUSED_ENTRY).unwrap();
        assert_eq!(
            out,
            "[rules]\nunused-entry = \"off\" # noisy\nCP101 = \"error\"\n"
        );
        let inline = "rules = { CP101 = \"hint\" }\n";
        let out = turn_off(inline, &UNUSED_ENTRY).unwrap();
        let config: ConfigFile = toml::from_str(&out).unwrap();
        assert_eq!(config.rules.unwrap().len(), 2, "{out}");
    }

    #[test]
    fn refuses_what_would_be_invalid() {
        assert!(turn_off("rules = 3\n", &UNUSED_ENTRY).is_err());
        assert!(turn_off("[rules\n", &UNUSED_ENTRY).is_err());
        // An unknown key elsewhere: the file is already invalid, and stays so.
        let err = turn_off("colour = \"blue\"\n", &UNUSED_ENTRY).unwrap_err();
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn smallest_edit_keeps_common_ends() {
        let (span, text) = smallest_edit("a = 1\nb = 2\n", "a = 1\nc = 3\nb = 2\n");
        assert_eq!((span, text.as_str()), (Span::new(6, 6), "c = 3\n"));
        let (span, text) = smallest_edit("é", "è");
        assert_eq!((span, text.as_str()), (Span::new(0, 2), "è"));
        let (span, text) = smallest_edit("", "x");
        assert_eq!((span, text.as_str()), (Span::new(0, 0), "x"));
    }
}
