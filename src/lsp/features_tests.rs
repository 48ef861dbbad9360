//! The editor features on what resolution and verification learned: a root
//! checked with the network stages against a local corpus (offline, no server),
//! as the background check will store it, then hover and code actions on it. Each
//! resolution fix is applied to the bibliography and the project checked again:
//! the finding it answers is gone.

use std::path::{Path, PathBuf};

use lsp_types::{
    ClientCapabilities, CodeActionContext, CodeActionOrCommand, CodeActionParams,
    Diagnostic as LspDiagnostic, HoverContents, HoverParams, NumberOrString,
    TextDocumentIdentifier, TextDocumentPositionParams, Uri,
};

use super::documents::{Documents, path_to_uri};
use super::encoding::Encoding;
use super::settings::Settings;
use super::view::View;
use super::workspace::{self, Workspace};
use super::{actions, hover};
use crate::fs::Vfs;
use crate::pipeline::{CheckSetup, Checker};

struct Setup {
    dir: tempfile::TempDir,
    documents: Documents,
    workspace: Workspace,
    settings: Settings,
    client: ClientCapabilities,
}

impl Setup {
    fn new(files: &[(&str, &str)]) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        Setup {
            dir,
            documents: Documents::default(),
            workspace: Workspace::default(),
            settings: Settings::default(),
            client: ClientCapabilities::default(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        crate::fs::normalize(&self.dir.path().join(name))
    }

    fn uri(&self, name: &str) -> Uri {
        path_to_uri(&self.path(name)).unwrap()
    }

    fn open(&mut self, name: &str, version: i32, text: &str) {
        let language = if name.ends_with(".bib") {
            "bibtex"
        } else {
            "markdown"
        };
        self.documents
            .open(self.uri(name), language, version, text.to_string());
    }

    /// Check a root with every stage its configuration asks for.
    fn check(&mut self, root: &str) {
        let root = self.path(root);
        let checker = Checker::new(CheckSetup {
            inputs: vec![root.clone()],
            bibliographies: Vec::new(),
            overrides: self.settings.overrides().unwrap(),
            fs: Vfs::new(self.documents.buffers().snapshot()),
        })
        .unwrap();
        let stages = checker.stages().unwrap().stages;
        assert!(stages.resolve.is_some(), "the configuration resolves");
        let (project, checked) = checker.run(&stages).unwrap();
        let policy = checker.fail_on().venue;
        let check = workspace::root_check(
            project,
            checked,
            Encoding::Utf16,
            vec![root.clone()],
            policy,
            None,
            workspace::Reuse::SameTexts,
        );
        self.workspace.set_root(root, check);
    }

    fn view(&self) -> View<'_> {
        View {
            documents: &self.documents,
            workspace: &self.workspace,
            encoding: Encoding::Utf16,
            client: &self.client,
            folders: &[],
            settings: &self.settings,
            zotero: None,
        }
    }

    fn diagnostics(&self, name: &str) -> Vec<LspDiagnostic> {
        let path = self.path(name);
        self.workspace
            .roots
            .values()
            .flat_map(|c| {
                c.diagnostics
                    .get(&path)
                    .map(|l| {
                        l.iter()
                            .map(|d| LspDiagnostic::clone(d))
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
            })
            .collect()
    }

    fn hover(&self, name: &str, text: &str, needle: &str) -> String {
        let offset = text.find(needle).unwrap() + 1;
        let source = self.documents.by_path(&self.path(name)).unwrap();
        let position = Encoding::Utf16.position(text, &source.index, offset);
        let params = HoverParams {
            text_document_position_params: TextDocumentPositionParams {
                text_document: TextDocumentIdentifier::new(self.uri(name)),
                position,
            },
            work_done_progress_params: Default::default(),
        };
        match hover::hover(&self.view(), params)
            .unwrap()
            .unwrap()
            .contents
        {
            HoverContents::Markup(m) => m.value,
            other => panic!("markdown expected: {other:?}"),
        }
    }
}

fn demo(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/demo")
            .join(name),
    )
    .unwrap()
}

const OFFLINE: &str = "[resolve]\noffline = true\ncorpora = [\"corpus.jsonl\"]\ncorpus-complete = true\n\n[cache]\nenabled = false\n";

fn code(d: &LspDiagnostic) -> &str {
    match &d.code {
        Some(NumberOrString::String(c)) => c,
        _ => "",
    }
}

/// `text` with the edits of a fix (all in one document) applied.
fn apply(text: &str, edits: &[lsp_types::TextEdit]) -> String {
    let index = crate::source::LineIndex::new(text);
    let mut spans: Vec<_> = edits
        .iter()
        .map(|e| {
            (
                Encoding::Utf16.span(text, &index, e.range),
                e.new_text.clone(),
            )
        })
        .collect();
    spans.sort_by_key(|(s, _)| s.start);
    let mut out = text.to_string();
    for (span, new) in spans.into_iter().rev() {
        out.replace_range(span.start..span.end, &new);
    }
    out
}

#[test]
fn hover_shows_what_resolution_learned() {
    let mut setup = Setup::new(&[
        ("paper.md", &demo("paper.md")),
        ("refs.bib", &demo("refs.bib")),
        ("corpus.jsonl", &demo("corpus.jsonl")),
        ("citeproof.toml", OFFLINE),
    ]);
    let (paper, bib) = (demo("paper.md"), demo("refs.bib"));
    setup.open("paper.md", 1, &paper);
    setup.open("refs.bib", 1, &bib);
    setup.check("paper.md");
    let wrong_year = setup.hover("paper.md", &paper, "@ioffe2017");
    for part in [
        "**Miscited**",
        "**Record** (corpus)",
        "Sergey Ioffe, Christian Szegedy · 2015",
    ] {
        assert!(wrong_year.contains(part), "`{part}` in {wrong_year}");
    }
    let retracted = setup.hover("paper.md", &paper, "@mattioli2021");
    assert!(retracted.contains("**Retraction notice**"), "{retracted}");
    let fabricated = setup.hover("paper.md", &paper, "@lee2023");
    assert!(fabricated.contains("**Not found**"), "{fabricated}");
    let verified = setup.hover("refs.bib", &bib, "he2016");
    for part in [
        "**Verified**",
        "[doi:10.1109/cvpr.2016.90](<https://doi.org/10.1109/cvpr.2016.90>)",
        "Cited 1 time:",
    ] {
        assert!(verified.contains(part), "`{part}` in {verified}");
    }
}

#[test]
fn every_resolution_fix_applies_and_clears_its_finding() {
    let mut setup = Setup::new(&[
        ("paper.md", &demo("paper.md")),
        ("refs.bib", &demo("refs.bib")),
        ("corpus.jsonl", &demo("corpus.jsonl")),
        ("citeproof.toml", OFFLINE),
    ]);
    setup.open("paper.md", 1, &demo("paper.md"));
    let mut bib = demo("refs.bib");
    setup.open("refs.bib", 1, &bib);
    setup.check("paper.md");
    let fixable: Vec<(String, String)> = setup
        .diagnostics("refs.bib")
        .iter()
        .filter(|d| d.data.as_ref().is_some_and(|v| v.get("fix").is_some()))
        .map(|d| (code(d).to_string(), d.message.clone()))
        .collect();
    let codes: Vec<&str> = fixable.iter().map(|(c, _)| c.as_str()).collect();
    for wanted in ["CP207", "CP209", "CP212"] {
        assert!(codes.contains(&wanted), "{wanted} has a fix: {fixable:?}");
    }
    let mut version = 1;
    for (wanted, message) in fixable {
        let d = setup
            .diagnostics("refs.bib")
            .into_iter()
            .find(|d| code(d) == wanted && d.message == message)
            .unwrap_or_else(|| panic!("{wanted} still reported before its fix"));
        let params = CodeActionParams {
            text_document: TextDocumentIdentifier::new(setup.uri("refs.bib")),
            range: d.range,
            context: CodeActionContext {
                diagnostics: vec![d.clone()],
                only: None,
                trigger_kind: None,
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let found = actions::code_actions(&setup.view(), params)
            .unwrap()
            .unwrap();
        let fix = found
            .into_iter()
            .filter_map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => Some(a),
                _ => None,
            })
            .find(|a| {
                a.diagnostics
                    .as_ref()
                    .is_some_and(|ds| ds == &vec![d.clone()])
                    && !a.title.starts_with("Suppress")
                    && !a.title.starts_with("Turn off")
            })
            .unwrap_or_else(|| panic!("a fix for {wanted}"));
        assert_eq!(fix.is_preferred, Some(wanted == "CP212"), "{}", fix.title);
        let edits: Vec<(Uri, Vec<lsp_types::TextEdit>)> =
            fix.edit.unwrap().changes.unwrap().into_iter().collect();
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].0, setup.uri("refs.bib"));
        let new = apply(&bib, &edits[0].1);
        if wanted == "CP209" {
            assert_eq!(new, bib.replacen("= {2017}", "= {2015}", 1));
        }
        bib = new;
        version += 1;
        setup.open("refs.bib", version, &bib);
        setup.check("paper.md");
        assert!(
            !setup
                .diagnostics("refs.bib")
                .iter()
                .any(|d| code(d) == wanted && d.message == message),
            "{wanted} is gone once fixed"
        );
    }
    assert!(bib.contains("doi = {10.1109/cvpr.2016.90}"), "{bib}");
}

#[test]
fn hover_shows_the_claim_check() {
    let he = demo("corpus.jsonl")
        .lines()
        .find(|l| l.contains("10.1109/cvpr.2016.90"))
        .unwrap()
        .replace(
            "\"is_retracted\": false}",
            "\"is_retracted\": false, \"abstract\": \"Deeper neural networks are more difficult \
             to train. We present a residual learning framework to ease the training of \
             networks that are substantially deeper than those used previously.\"}",
        );
    let paper = "---\nbibliography: refs.bib\n---\nA residual learning framework eases the \
                 training of substantially deeper neural networks [@he2016].\n";
    let config = format!(
        "{OFFLINE}\n[verify]\nenabled = true\nembedded = true\nscoring = \"lexical\"\nfull-text = false\n"
    );
    let bib = demo("refs.bib");
    let mut setup = Setup::new(&[
        ("paper.md", paper),
        ("refs.bib", &bib),
        ("corpus.jsonl", &he),
        ("citeproof.toml", &config),
    ]);
    setup.open("paper.md", 1, paper);
    setup.check("paper.md");
    let text = setup.hover("paper.md", paper, "@he2016");
    assert!(text.contains("**Claim check (offline): "), "{text}");
    assert!(text.contains("**Verified**"), "{text}");
}
