//! Navigation and edits of the language server (in-process over
//! `Connection::memory()`): definition, references across the workspace folder
//! (closed documents included), rename with prepareRename and its refusals,
//! document symbols and document links.

mod lsp_edit_support;
mod lsp_support;

use lsp_edit_support::{apply_to_disk, at, local_only, path_of, position, project, read};
use lsp_support::{Client, codes, uri};
use serde_json::{Value, json};

fn request(client: &mut Client, method: &str, params: Value) -> Result<Value, (i32, String)> {
    client
        .request(method, params)
        .response_result
        .map_err(|e| (e.code, e.message))
}

fn at_doc(uri: &str, position: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": position})
}

fn range_of(text: &str, needle: &str) -> Value {
    let start = text.find(needle).unwrap();
    json!({"start": position(text, start), "end": position(text, start + needle.len())})
}

/// (file name, range) of each location.
fn places(locations: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = locations
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let path = path_of(l["uri"].as_str().unwrap());
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                l["range"].clone(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn definition_goes_to_entries_and_files() {
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let thesis_uri = uri(&dir.path().join("thesis.tex"));
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let (paper, thesis, bib) = (
        read(dir.path(), "paper.md"),
        read(dir.path(), "thesis.tex"),
        read(dir.path(), "refs.bib"),
    );
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    client.open(&paper_uri, "markdown", 1, &paper);
    client.open(&thesis_uri, "latex", 1, &thesis);
    client.diagnostics(&paper_uri);
    let to_entry = request(
        &mut client,
        "textDocument/definition",
        at_doc(&paper_uri, at(&paper, "lee2023", 3)),
    )
    .unwrap();
    assert_eq!(to_entry["uri"], bib_uri);
    assert_eq!(to_entry["range"], range_of(&bib, "lee2023"));
    let zero = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}});
    for (doc, text, needle, target) in [
        (&thesis_uri, &thesis, "\\input{chapter}", "chapter.tex"),
        (&thesis_uri, &thesis, "refs}", "refs.bib"),
        (&paper_uri, &paper, "refs.bib", "refs.bib"),
    ] {
        let to_file = request(
            &mut client,
            "textDocument/definition",
            at_doc(doc, at(text, needle, 2)),
        )
        .unwrap();
        assert_eq!(to_file["uri"], uri(&dir.path().join(target)), "{needle}");
        assert_eq!(to_file["range"], zero);
    }
    // Nothing to go to.
    for (doc, position) in [
        (&paper_uri, at(&paper, "jones1999", 1)),
        (&paper_uri, at(&paper, "Gradient", 1)),
        (&paper_uri, json!({"line": 900, "character": 0})),
    ] {
        let none = request(
            &mut client,
            "textDocument/definition",
            at_doc(doc, position),
        );
        assert!(none.unwrap().is_null());
    }
    client.shutdown();
}

#[test]
fn references_cover_closed_documents_of_the_workspace() {
    let dir = project();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let paper_uri = uri(&dir.path().join("paper.md"));
    let (paper, bib, chapter) = (
        read(dir.path(), "paper.md"),
        read(dir.path(), "refs.bib"),
        read(dir.path(), "chapter.tex"),
    );
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    // Only the bibliography and the paper are open; the thesis and its chapter are not.
    client.open(&paper_uri, "markdown", 1, &paper);
    client.open(&bib_uri, "bibtex", 1, &bib);
    client.diagnostics(&paper_uri);
    let params = |include: bool| {
        json!({"textDocument": {"uri": bib_uri}, "position": at(&bib, "lee2023", 0),
               "context": {"includeDeclaration": include}})
    };
    let found = request(&mut client, "textDocument/references", params(true)).unwrap();
    assert_eq!(
        places(&found),
        vec![
            ("chapter.tex".to_string(), range_of(&chapter, "lee2023")),
            ("paper.md".to_string(), range_of(&paper, "lee2023")),
            ("refs.bib".to_string(), range_of(&bib, "lee2023")),
        ]
    );
    let without = request(&mut client, "textDocument/references", params(false)).unwrap();
    assert_eq!(without.as_array().unwrap().len(), 2);
    // From a citation: the same entry, its four citations in three files.
    let from_citation = request(
        &mut client,
        "textDocument/references",
        json!({"textDocument": {"uri": paper_uri}, "position": at(&paper, "smith2020", 0),
               "context": {"includeDeclaration": false}}),
    )
    .unwrap();
    let files: Vec<String> = places(&from_citation).into_iter().map(|p| p.0).collect();
    assert_eq!(
        files,
        vec!["chapter.tex", "paper.md", "paper.md", "thesis.tex"]
    );
    // An undefined key: its own uses.
    let undefined = request(
        &mut client,
        "textDocument/references",
        json!({"textDocument": {"uri": paper_uri}, "position": at(&paper, "jones1999", 2),
               "context": {"includeDeclaration": true}}),
    )
    .unwrap();
    assert_eq!(
        places(&undefined),
        vec![("paper.md".to_string(), range_of(&paper, "jones1999"))]
    );
    client.shutdown();
}

#[test]
fn rename_changes_the_key_everywhere_and_refuses_what_is_not_a_key() {
    let dir = project();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let paper_uri = uri(&dir.path().join("paper.md"));
    let paper = read(dir.path(), "paper.md");
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    assert_eq!(
        client.initialize_result["capabilities"]["renameProvider"]["prepareProvider"],
        true
    );
    client.open(&paper_uri, "markdown", 1, &paper);
    client.diagnostics(&paper_uri);
    let prepared = request(
        &mut client,
        "textDocument/prepareRename",
        at_doc(&paper_uri, at(&paper, "smith2020", 5)),
    )
    .unwrap();
    assert_eq!(
        prepared,
        json!({"range": range_of(&paper, "smith2020"), "placeholder": "smith2020"})
    );
    for (position, why) in [
        (
            at(&paper, "jones1999", 1),
            "no bibliography entry defines `jones1999`",
        ),
        (at(&paper, "Gradient", 1), "nothing to rename here"),
        (at(&paper, "refs.bib", 1), "this names a file"),
    ] {
        let (code, message) = request(
            &mut client,
            "textDocument/prepareRename",
            at_doc(&paper_uri, position),
        )
        .unwrap_err();
        assert_eq!(code, -32803);
        assert!(message.contains(why), "{message}");
    }
    let rename = |name: &str| {
        json!({"textDocument": {"uri": paper_uri}, "position": at(&paper, "smith2020", 1),
               "newName": name})
    };
    let (_, bad) = request(&mut client, "textDocument/rename", rename("a key")).unwrap_err();
    assert!(bad.contains("not a valid citation key"), "{bad}");
    let (_, taken) = request(&mut client, "textDocument/rename", rename("lee2023")).unwrap_err();
    assert!(taken.contains("already the key of an entry in"), "{taken}");

    let edit = request(&mut client, "textDocument/rename", rename("smith2020a")).unwrap();
    let before: Vec<(String, String)> = ["paper.md", "refs.bib", "thesis.tex", "chapter.tex"]
        .iter()
        .map(|n| (n.to_string(), read(dir.path(), n)))
        .collect();
    let written = apply_to_disk(&edit);
    assert_eq!(written.len(), 4, "{edit}");
    for (name, old) in &before {
        let new = read(dir.path(), name);
        assert_eq!(new, old.replace("smith2020", "smith2020a"), "{name}");
    }
    // The renamed project is consistent: the bibliography defines the new key.
    client.open(&bib_uri, "bibtex", 1, &read(dir.path(), "refs.bib"));
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": paper_uri, "version": 2},
               "contentChanges": [{"text": read(dir.path(), "paper.md")}]}),
    );
    let after = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == paper_uri && p["version"] == 2
    });
    assert_eq!(codes(&after), vec!["CP101"], "only jones1999: {after}");
    client.shutdown();
}

#[test]
fn symbols_and_links_of_a_bibliography_and_of_documents() {
    let dir = project();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let thesis_uri = uri(&dir.path().join("thesis.tex"));
    let bib = read(dir.path(), "refs.bib");
    let mut client = Client::start_in(
        dir.path(),
        json!({"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": true}}}),
        local_only(),
    );
    client.open(&bib_uri, "bibtex", 1, &bib);
    client.open(&thesis_uri, "latex", 1, &read(dir.path(), "thesis.tex"));
    let symbols = request(
        &mut client,
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": bib_uri}}),
    )
    .unwrap();
    let symbols = symbols.as_array().unwrap();
    let names: Vec<&str> = symbols
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["smith2020", "unused2021", "lee2023"]);
    assert_eq!(symbols[0]["detail"], "article · Deep nets for everything");
    assert_eq!(symbols[2]["selectionRange"], range_of(&bib, "lee2023"));
    assert_eq!(symbols[2]["range"]["start"], at(&bib, "@misc{lee2023", 0));

    let links = request(
        &mut client,
        "textDocument/documentLink",
        json!({"textDocument": {"uri": bib_uri}}),
    )
    .unwrap();
    let targets: Vec<(&str, Value)> = links
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["target"].as_str().unwrap(), l["range"].clone()))
        .collect();
    assert_eq!(
        targets,
        vec![
            (
                "https://doi.org/10.1000/xyz123",
                range_of(&bib, "https://doi.org/10.1000/xyz123")
            ),
            (
                "https://arxiv.org/abs/2301.01234",
                range_of(&bib, "2301.01234")
            ),
            (
                "https://pubmed.ncbi.nlm.nih.gov/12345678/",
                range_of(&bib, "12345678")
            ),
        ]
    );
    let thesis_links = request(
        &mut client,
        "textDocument/documentLink",
        json!({"textDocument": {"uri": thesis_uri}}),
    )
    .unwrap();
    let targets: Vec<String> = thesis_links
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let path = path_of(l["target"].as_str().unwrap());
            path.file_name().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    assert_eq!(targets, vec!["chapter.tex", "refs.bib"]);
    // An unknown document.
    let none = request(
        &mut client,
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nowhere/refs.bib"}}),
    )
    .unwrap();
    assert!(none.is_null());
    client.shutdown();
}

#[test]
fn rename_follows_the_entries_that_inherit_from_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let bib = "@proceedings{conf2020,\n  title = {Proceedings of the Conference},\n  year = {2020}\n}\n\n\
               @inproceedings{part2020,\n  title = {A part},\n  author = {Part, Pat},\n  crossref = {conf2020}\n}\n\n\
               @inproceedings{other2020,\n  title = {Another part},\n  author = {Other, O.},\n  xdata = {base, conf2020}\n}\n";
    let text = "---\nbibliography: refs.bib\n---\nSee [@part2020; @other2020; @conf2020].\n";
    std::fs::write(dir.path().join("refs.bib"), bib).unwrap();
    std::fs::write(dir.path().join("paper.md"), text).unwrap();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    client.open(&paper_uri, "markdown", 1, text);
    client.diagnostics(&paper_uri);
    let edit = request(
        &mut client,
        "textDocument/rename",
        json!({"textDocument": {"uri": paper_uri}, "position": at(text, "conf2020", 2),
               "newName": "conf"}),
    )
    .unwrap();
    apply_to_disk(&edit);
    assert_eq!(
        read(dir.path(), "refs.bib"),
        bib.replace("conf2020", "conf")
    );
    assert_eq!(
        read(dir.path(), "paper.md"),
        text.replace("conf2020", "conf")
    );
    client.shutdown();
}
