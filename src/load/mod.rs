//! Reading a project from disk: expanding directories, reading files safely, parsing
//! each with the right parser, following includes and bibliography requests, and
//! grouping everything into [`Document`]s. The only part of parsing that touches the
//! filesystem.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::diagnostic::input;
use crate::document::{Document, FileLink};
use crate::fs::Vfs;
use crate::model::{BibliographyRequest, FileId, Span};
use crate::parse::{self, ParseOptions, Parsed};
use crate::read;
use crate::source::{FileKind, SourceMap};

mod parse_cache;
pub use parse_cache::ParseCache;

/// How to load a project.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    pub parse: ParseOptions,
    /// Bibliography files given on the command line (`--bib`); every document uses them.
    pub bibliographies: Vec<PathBuf>,
    /// Which files found in searched folders are read (files named directly always are).
    pub filter: crate::walk::PathFilter,
    /// Where files are read: the disk, or the disk under the editor's open buffers.
    pub fs: Vfs,
    /// Parses kept from earlier loads (a language server re-checks on every edit;
    /// the files that did not change are not parsed again).
    pub parse_cache: Option<Arc<ParseCache>>,
    /// Which accepted-works files are read (none by default; see [`crate::accept`]).
    pub accepted: crate::accept::Lookup,
    /// Whether the documents' own suppression comments hide findings
    /// (`ignore-inline-suppressions`).
    pub inline_suppressions: crate::suppress::InlineSuppressions,
}

/// Everything read in one run.
#[derive(Debug, Default)]
pub struct Project {
    pub sources: SourceMap,
    pub documents: Vec<Document>,
    /// Problems not tied to one document (a command-line path that does not exist).
    pub problems: Vec<Diagnostic>,
    /// Works confirmed real by hand, whose not-found findings are not reported.
    pub accepted: crate::accept::Accepted,
    /// Whether the documents' own suppression comments hide findings.
    pub inline_suppressions: crate::suppress::InlineSuppressions,
}

/// Read the given files and directories into documents. Never fails: unreadable
/// inputs become `unreadable-file` diagnostics and the rest is still loaded.
pub fn load(inputs: &[PathBuf], options: &LoadOptions) -> Project {
    // Archives are opened first: their files are read from memory, under the
    // archive's path, and each archive stands for its main document.
    let mounted = read::archive::mount::mount(inputs, &options.fs, options.parse.max_file_size);
    let with_archives;
    let options = match mounted.fs {
        Some(fs) => {
            with_archives = LoadOptions {
                fs,
                ..options.clone()
            };
            &with_archives
        }
        None => options,
    };
    let inputs = &mounted.inputs;
    let mut loader = Loader {
        project: Project::default(),
        options,
        parsed: HashMap::new(),
        defined_cites: Vec::new(),
    };
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut found_bibs: Vec<PathBuf> = Vec::new();
    let mut explicit_bibs: Vec<PathBuf> = options.bibliographies.clone();
    for input in inputs {
        if options.fs.is_dir(input) {
            for path in options
                .fs
                .supported_files(input)
                .into_iter()
                .filter(|p| options.filter.accepts(p))
            {
                match options.fs.kind(&path) {
                    Some(kind) if kind.is_document() => roots.push(path),
                    Some(FileKind::Bibtex) => found_bibs.push(path),
                    _ => {}
                }
            }
        } else {
            match options.fs.kind(input) {
                Some(FileKind::Bibtex | FileKind::CslJson | FileKind::Bbl) => {
                    explicit_bibs.push(input.clone())
                }
                _ => roots.push(input.clone()),
            }
        }
    }
    for group in crate::walk::group_manubot(roots, |p| options.fs.is_file(p)) {
        let bibs: Vec<PathBuf> = explicit_bibs
            .iter()
            .chain(&group.bibliographies)
            .cloned()
            .collect();
        loader.load_document(&group.parts, &bibs);
    }
    loader.drop_included_roots();
    // Bibliographies no document uses are checked on their own.
    let used: HashSet<FileId> = loader
        .project
        .documents
        .iter()
        .flat_map(|d| d.files.iter().copied())
        .collect();
    let standalone: Vec<PathBuf> = if loader.project.documents.is_empty() {
        explicit_bibs.into_iter().chain(found_bibs).collect()
    } else {
        found_bibs
    };
    for (path, why) in mounted.failures {
        let shown = path.to_string_lossy().into_owned();
        let id = loader
            .project
            .sources
            .add(path, FileKind::Text, String::new());
        let problem = input::unreadable_file(id, Span::default(), &shown, &why);
        loader.project.problems.push(problem);
    }
    for path in standalone {
        if loader
            .project
            .sources
            .find(&path)
            .is_some_and(|id| used.contains(&id))
        {
            continue;
        }
        loader.load_document(&[path], &[]);
    }
    loader.read_accepted();
    loader.project.inline_suppressions = options.inline_suppressions;
    loader.project
}

struct Loader<'a> {
    project: Project,
    options: &'a LoadOptions,
    /// Parses of the files several documents may use (bibliographies, LaTeX files
    /// that other documents include), so that each is parsed once.
    parsed: HashMap<FileId, Parsed>,
    /// Citation commands the current document defines (`\newcommand{\mycite}…`);
    /// the files it includes are parsed knowing them.
    defined_cites: Vec<String>,
}

impl Loader<'_> {
    /// Load one document made of `parts` (several only for Manubot content folders).
    fn load_document(&mut self, parts: &[PathBuf], extra_bibs: &[PathBuf]) {
        let Some(root) = self.read(&parts[0], None) else {
            return;
        };
        let mut doc = Document {
            root,
            ..Document::default()
        };
        self.defined_cites.clear();
        let base_dir = parent_dir(&parts[0]);
        let mut stack = Vec::new();
        self.add_file(&mut doc, root, &base_dir, &mut stack);
        for part in &parts[1..] {
            if let Some(id) = self.read(part, None) {
                self.add_file(&mut doc, id, &base_dir, &mut stack);
            }
        }
        let requests = std::mem::take(&mut doc.bibliographies);
        for request in &requests {
            let dir = match request.at {
                Some((file, _)) => parent_dir(&self.project.sources.get(file).path),
                None => base_dir.clone(),
            };
            self.add_bibliography(&mut doc, &dir, request);
        }
        for path in extra_bibs {
            let request = BibliographyRequest {
                path: path.to_string_lossy().into_owned(),
                at: None,
            };
            self.add_bibliography(&mut doc, Path::new(""), &request);
        }
        doc.bibliographies = requests;
        if self.project.sources.get(root).kind == FileKind::Latex {
            doc.cite_commands = self.options.parse.cite_commands.clone();
            doc.cite_commands.extend(self.defined_cites.iter().cloned());
        }
        self.project.documents.push(doc);
    }

    /// Merge one file's parse into the document and follow its includes.
    /// The accepted-works files that apply to the loaded documents: their works join
    /// the project, and what is wrong in them its problems.
    fn read_accepted(&mut self) {
        let project = &mut self.project;
        let starts: Vec<PathBuf> = project
            .documents
            .iter()
            .map(|d| project.sources.get(d.root).path.clone())
            .collect();
        let (accepted, problems) = crate::accept::Accepted::read_into(
            &self.options.accepted,
            &*self.options.fs,
            &starts,
            &mut project.sources,
        );
        project.accepted = accepted;
        project.problems.extend(problems);
    }

    fn add_file(&mut self, doc: &mut Document, id: FileId, base: &Path, stack: &mut Vec<FileId>) {
        if doc.files.contains(&id) && stack.contains(&id) {
            return;
        }
        doc.files.push(id);
        stack.push(id);
        let parsed = self.parse(id);
        self.defined_cites
            .extend(parsed.cite_commands.iter().cloned());
        let includes = parsed.includes.clone();
        merge(doc, parsed);
        let here = parent_dir(&self.project.sources.get(id).path);
        for include in includes {
            let candidates = include_candidates(&include.path, base, &here);
            let found = candidates
                .iter()
                .find(|p| self.options.fs.is_file(p))
                .cloned();
            let Some(path) = found else {
                let shown = candidates[0].to_string_lossy().into_owned();
                doc.problems.push(input::unreadable_file(
                    id,
                    include.at,
                    &shown,
                    &format!("not found (\\{} at this place)", include.command),
                ));
                continue;
            };
            if let Some(existing) = self.project.sources.find(&path)
                && stack.contains(&existing)
            {
                doc.problems.push(input::include_cycle(
                    id,
                    include.at,
                    &path.to_string_lossy(),
                ));
                continue;
            }
            if let Some(child) = self.read(&path, Some((id, include.at, &mut doc.problems))) {
                doc.file_links.push(FileLink {
                    file: id,
                    span: include.at,
                    target: child,
                });
                self.add_file(doc, child, base, stack);
            }
        }
        stack.pop();
    }

    fn add_bibliography(&mut self, doc: &mut Document, dir: &Path, request: &BibliographyRequest) {
        let written = Path::new(&request.path);
        let mut candidates = vec![dir.join(written)];
        if written.extension().is_none() {
            candidates.push(dir.join(format!("{}.bib", request.path)));
        }
        let found = candidates
            .iter()
            .find(|p| self.options.fs.is_file(p))
            .cloned()
            // A `--bib` file is read as named; a document's request may fall back.
            .or_else(|| request.at.and_then(|_| self.built_bibliography(doc)));
        let id = match (found, request.at) {
            (Some(path), Some((file, span))) => {
                self.read(&path, Some((file, span, &mut doc.problems)))
            }
            (Some(path), None) => self.read(&path, None),
            (None, Some((file, span))) => {
                let shown = candidates.last().map(|p| p.to_string_lossy().into_owned());
                doc.problems.push(input::unreadable_file(
                    file,
                    span,
                    &shown.unwrap_or_default(),
                    "bibliography file not found",
                ));
                None
            }
            // A command-line bibliography that does not exist is reported on itself.
            (None, None) => self.read(&candidates[0], None),
        };
        let Some(id) = id else {
            return;
        };
        if let Some((file, span)) = request.at {
            doc.file_links.push(FileLink {
                file,
                span,
                target: id,
            });
        }
        if doc.files.contains(&id) {
            return;
        }
        doc.files.push(id);
        let parsed = self.parse(id);
        merge(doc, parsed);
    }

    /// The `.bbl` a LaTeX build left next to the document's main file
    /// (`paper.bbl` for `paper.tex`), read when a requested `.bib` is absent: arXiv
    /// sources ship the `.bbl` only.
    fn built_bibliography(&self, doc: &Document) -> Option<PathBuf> {
        let root = self.project.sources.get(doc.root);
        if root.kind != FileKind::Latex {
            return None;
        }
        let bbl = root.path.with_extension("bbl");
        self.options.fs.is_file(&bbl).then_some(bbl)
    }

    /// Read and register a file. Problems go to `at` (the requesting place) when
    /// given, else to the file itself (registered with empty text).
    fn read(
        &mut self,
        path: &Path,
        at: Option<(FileId, Span, &mut Vec<Diagnostic>)>,
    ) -> Option<FileId> {
        if let Some(id) = self.project.sources.find(path) {
            return Some(id);
        }
        let declared = self.options.fs.kind(path);
        let registered =
            match self.fetch(path, declared) {
                Ok(Content::Text(kind, text)) => {
                    Ok(self.project.sources.add(path.to_path_buf(), kind, text))
                }
                Ok(Content::Binary(kind, bytes)) => {
                    let id = self
                        .project
                        .sources
                        .add(path.to_path_buf(), kind, String::new());
                    match read::convert(kind, id, &bytes) {
                        Ok(converted) => {
                            let sources = &mut self.project.sources;
                            sources.set_converted(id, converted.text, converted.locations);
                            let mut parsed = converted.parsed;
                            let shown = path.to_string_lossy();
                            parsed.problems.extend(converted.unread.iter().map(|why| {
                                input::unreadable_file(id, Span::default(), &shown, why)
                            }));
                            self.parsed.insert(id, parsed);
                            Ok(id)
                        }
                        Err(why) => Err((Some(id), why)),
                    }
                }
                Err(why) => Err((None, why)),
            };
        let (registered, why) = match registered {
            Ok(id) => return Some(id),
            Err(failure) => failure,
        };
        let shown = path.to_string_lossy().into_owned();
        match at {
            Some((file, span, problems)) => {
                problems.push(input::unreadable_file(file, span, &shown, &why))
            }
            None => {
                let id = registered.unwrap_or_else(|| {
                    let kind = declared.unwrap_or(FileKind::Text);
                    let sources = &mut self.project.sources;
                    sources.add(path.to_path_buf(), kind, String::new())
                });
                self.project.problems.push(input::unreadable_file(
                    id,
                    Span::default(),
                    &shown,
                    &why,
                ));
            }
        }
        None
    }

    /// A file's content and the kind it is read as: by its extension, or by its
    /// first bytes when the extension names no kind (a PDF saved as `paper`) or
    /// names a text kind the bytes are not (a PDF saved as `paper.txt`).
    fn fetch(&self, path: &Path, declared: Option<FileKind>) -> Result<Content, String> {
        let fs = &self.options.fs;
        let max_size = self.options.parse.max_file_size;
        match declared {
            Some(kind) if kind.is_binary() => fs
                .read_bytes(path, max_size)
                .map(|b| Content::Binary(kind, b)),
            Some(kind) => fs
                .read_shared(path, max_size)
                .map(|text| Content::Text(kind, text))
                .or_else(|why| {
                    let bytes = fs.read_bytes(path, max_size).map_err(|_| why.clone())?;
                    read::sniff_kind(&bytes)
                        .map(|kind| Content::Binary(kind, bytes))
                        .ok_or(why)
                }),
            None => {
                let bytes = fs.read_bytes(path, max_size)?;
                match read::sniff_kind(&bytes) {
                    Some(kind) => Ok(Content::Binary(kind, bytes)),
                    None => crate::walk::decode_text(bytes)
                        .map(|t| Content::Text(FileKind::Text, t.into())),
                }
            }
        }
    }

    fn parse(&mut self, id: FileId) -> Parsed {
        let file = self.project.sources.get(id);
        if file.kind == FileKind::Latex && !self.defined_cites.is_empty() {
            // Parsed for this document's own citation commands: not shared.
            let mut options = self.options.parse.clone();
            options
                .cite_commands
                .extend(self.defined_cites.iter().cloned());
            return self.parse_with(id, &options);
        }
        if let Some(parsed) = self.parsed.get(&id) {
            return parsed.clone();
        }
        let parsed = self.parse_with(id, &self.options.parse);
        // Only bibliographies and LaTeX files (included by other documents) are asked
        // for again; a copy of every other parse would cost time for nothing.
        if !matches!(file.kind, FileKind::Markdown | FileKind::Text) {
            self.parsed.insert(id, parsed.clone());
        }
        parsed
    }

    /// Parse one file with `options`, through the parse cache when there is one.
    fn parse_with(&self, id: FileId, options: &ParseOptions) -> Parsed {
        let file = self.project.sources.get(id);
        if let Some(cache) = self.options.parse_cache.as_deref()
            && !file.kind.is_binary()
        {
            return cache.parse(id, file, options);
        }
        match file.kind {
            FileKind::Markdown => parse::markdown::parse(id, &file.text, options),
            FileKind::Latex => parse::latex::parse(id, &file.text, options),
            FileKind::Bibtex => parse::bibtex::parse(id, &file.text, options),
            FileKind::Text => parse::answer::parse(id, &file.text, options),
            FileKind::CslJson => parse::csljson::parse(id, &file.text, options),
            FileKind::Bbl => parse::bbl::parse(id, &file.text, options),
            // Converted files are parsed by their reader when read (see `read`); one
            // that could not be read has no text and nothing to find.
            FileKind::Pdf | FileKind::Docx | FileKind::Odt => Parsed::default(),
        }
    }

    /// A LaTeX file that another document includes is not a document of its own.
    fn drop_included_roots(&mut self) {
        let included: HashSet<FileId> = self
            .project
            .documents
            .iter()
            .flat_map(|d| d.files.iter().skip(1).copied())
            .collect();
        self.project
            .documents
            .retain(|d| !included.contains(&d.root));
    }
}

/// What a file holds, by the kind it is read as.
enum Content {
    /// Shared with the view that held it (an editor's buffer).
    Text(FileKind, Arc<str>),
    /// Bytes for a converter ([`read::convert`]).
    Binary(FileKind, Vec<u8>),
}

/// Append one file's parse to a document, re-basing claim indices.
fn merge(doc: &mut Document, parsed: Parsed) {
    let claim_base = doc.claims.len();
    doc.citations
        .extend(parsed.citations.into_iter().map(|mut citation| {
            citation.claim = citation.claim.map(|c| c + claim_base);
            citation
        }));
    doc.claims.extend(parsed.claims);
    doc.references.extend(parsed.references);
    doc.suppressions.extend(parsed.suppressions);
    doc.bibliographies.extend(parsed.bibliographies);
    doc.problems.extend(parsed.problems);
}

fn parent_dir(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Where `\input{path}` may live: TeX resolves against the main file's folder; we
/// also accept the including file's folder. `.tex` is added when missing.
pub(crate) fn include_candidates(written: &str, base: &Path, here: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [base, here] {
        if Path::new(written).extension().is_none() {
            out.push(dir.join(format!("{written}.tex")));
        }
        out.push(dir.join(written));
        out.push(dir.join(format!("{written}.tex")));
    }
    out.dedup();
    out
}
