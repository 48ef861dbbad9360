//! Parses kept from one load to the next (the language server's edits).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::model::FileId;
use crate::parse::{self, ParseOptions, Parsed};
use crate::source::{FileKind, SourceFile};

/// Parses of earlier loads, by file id and path: reused when the text, the kind
/// and the options are the same (a byte comparison: cheaper than parsing, and
/// never wrong), brought up to date by re-parsing only the blocks an edit touched
/// when only the text changed ([`parse::splice`]). File ids follow load order, so
/// a load of the same root in the same order finds its files again.
#[derive(Debug, Default)]
pub struct ParseCache {
    entries: Mutex<HashMap<(FileId, PathBuf), CachedParse>>,
}

#[derive(Debug)]
struct CachedParse {
    kind: FileKind,
    options: ParseOptions,
    text: Arc<str>,
    outlined: parse::splice::Outlined,
}

/// Most parses kept; past it the cache starts again (a session with many roots
/// would otherwise keep every file it ever read).
const PARSE_CACHE_ENTRIES: usize = 512;

impl ParseCache {
    /// The parse of a text file: the kept one when the text is the same, the kept
    /// one brought up to date when an earlier text of the file was parsed, else a
    /// whole parse; kept for the next load.
    pub(super) fn parse(&self, id: FileId, file: &SourceFile, options: &ParseOptions) -> Parsed {
        let key = (id, file.path.clone());
        let kept = self.entries.lock().ok().and_then(|mut e| e.remove(&key));
        let (text, outlined) = match kept {
            Some(kept) if kept.kind == file.kind && kept.options == *options => {
                if same_text(&kept.text, &file.text) {
                    let parsed = kept.outlined.parsed.clone();
                    self.keep(key, kept);
                    return parsed;
                }
                let outlined = parse::splice::update(
                    file.kind,
                    id,
                    &kept.text,
                    kept.outlined,
                    &file.text,
                    options,
                );
                (file.text.clone(), outlined)
            }
            _ => (
                file.text.clone(),
                parse::splice::parse_whole(file.kind, id, &file.text, options),
            ),
        };
        let parsed = outlined.parsed.clone();
        self.keep(
            key,
            CachedParse {
                kind: file.kind,
                options: options.clone(),
                text,
                outlined,
            },
        );
        parsed
    }

    /// Bring the kept parse of a text file from `old` (the text the caller read)
    /// up to `text`, as a load would, and return the window the edit changed (see
    /// [`parse::splice::Window`]); an unchanged text gives an empty window. `None`
    /// when the kept parse is not one of `old` with these options (another root
    /// may have brought it up to date already) or the file had to be parsed whole.
    pub fn update_window(
        &self,
        id: FileId,
        path: &Path,
        kind: FileKind,
        old: &Arc<str>,
        text: &Arc<str>,
        options: &ParseOptions,
    ) -> Option<parse::splice::Window> {
        if same_text(old, text) {
            let end = text.len();
            return Some(parse::splice::Window {
                change: parse::splice::Change {
                    start: end,
                    old_end: end,
                    new_end: end,
                },
                old: Parsed::default(),
                new: Parsed::default(),
            });
        }
        let key = (id, path.to_path_buf());
        let kept = self.entries.lock().ok()?.remove(&key)?;
        if kept.kind != kind || kept.options != *options || !same_text(&kept.text, old) {
            self.keep(key, kept);
            return None;
        }
        let (outlined, window) =
            parse::splice::update_window(kind, id, &kept.text, kept.outlined, text, options);
        self.keep(
            key,
            CachedParse {
                kind,
                options: options.clone(),
                text: text.clone(),
                outlined,
            },
        );
        window
    }

    fn keep(&self, key: (FileId, PathBuf), parse: CachedParse) {
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        if entries.len() >= PARSE_CACHE_ENTRIES {
            entries.clear();
        }
        entries.insert(key, parse);
    }
}

/// Whether two texts are the same: the same shared text (an edit's text kept by
/// the project and by this cache), or equal bytes.
fn same_text(a: &Arc<str>, b: &Arc<str>) -> bool {
    Arc::ptr_eq(a, b) || **a == **b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markdown(cache: &ParseCache, text: &str) -> Parsed {
        let file = SourceFile::new(
            FileId(0),
            PathBuf::from("/p.md"),
            FileKind::Markdown,
            text.to_string(),
        );
        cache.parse(FileId(0), &file, &ParseOptions::default())
    }

    #[test]
    fn a_window_is_given_only_from_the_text_the_caller_read() {
        let cache = ParseCache::default();
        let (a, b, c) = (
            "Intro.\n\nSleep [@x].\n",
            "Intro.\n\nSleep well [@x].\n",
            "Intro!\n\nSleep well [@x].\n",
        );
        markdown(&cache, a);
        let options = ParseOptions::default();
        let update = |old: &str, new: &str| {
            cache.update_window(
                FileId(0),
                Path::new("/p.md"),
                FileKind::Markdown,
                &Arc::from(old),
                &Arc::from(new),
                &options,
            )
        };
        let window = update(a, b).expect("spliced");
        assert_eq!(window.old.citations.len(), window.new.citations.len());
        assert_eq!(window.change.start, "Intro.\n\nSleep ".len());
        // The kept parse is now of `b`: a caller that read `a` gets nothing.
        assert!(update(a, c).is_none());
        assert!(update(b, c).is_some());
        // An unchanged text is an empty window.
        let same = update(c, c).expect("unchanged");
        assert!(same.old.citations.is_empty() && same.new.citations.is_empty());
    }
}
