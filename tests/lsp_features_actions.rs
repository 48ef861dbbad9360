//! Code actions of the language server (in-process over `Connection::memory()`):
//! each action's `WorkspaceEdit`, applied as a client applies it, gives the
//! expected text, and the finding it answers is gone from the next diagnostics.

mod lsp_edit_support;
mod lsp_support;

use lsp_edit_support::{
    apply, apply_to_disk, at, codes_at_lines, full_capabilities, local_only, project, read,
};
use lsp_support::{Client, codes, uri};
use serde_json::{Value, json};

fn change_all(client: &Client, uri: &str, version: i32, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version},
               "contentChanges": [{"text": text}]}),
    );
}

/// The published diagnostic of `code`.
fn diagnostic(published: &Value, code: &str) -> Value {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("a {code} diagnostic in {published}"))
        .clone()
}

fn actions(
    client: &mut Client,
    uri: &str,
    diagnostics: Vec<Value>,
    only: Option<Value>,
) -> Vec<Value> {
    let range = diagnostics.first().map(|d| d["range"].clone()).unwrap_or(
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
    );
    let mut context = json!({"diagnostics": diagnostics});
    if let Some(only) = only {
        context["only"] = only;
    }
    let response = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": context}),
    );
    response
        .response_result
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn titled<'a>(actions: &'a [Value], start: &str) -> &'a Value {
    actions
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with(start))
        .unwrap_or_else(|| panic!("an action `{start}…` in {actions:#?}"))
}

/// The edits of one document in a workspace edit.
fn edits_of(edit: &Value, uri: &str) -> Vec<Value> {
    if let Some(changes) = edit["changes"].as_object() {
        return changes[uri].as_array().unwrap().clone();
    }
    edit["documentChanges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["textDocument"]["uri"] == uri)
        .flat_map(|c| c["edits"].as_array().unwrap().clone())
        .collect()
}

/// A copy of the project with the paper and its bibliography open.
fn paper_and_bibliography() -> (tempfile::TempDir, Client) {
    let dir = project();
    let client = Client::start_in(dir.path(), full_capabilities(), local_only());
    client.open(
        &uri(&dir.path().join("paper.md")),
        "markdown",
        1,
        &read(dir.path(), "paper.md"),
    );
    client.open(
        &uri(&dir.path().join("refs.bib")),
        "bibtex",
        1,
        &read(dir.path(), "refs.bib"),
    );
    (dir, client)
}

/// The diagnostics published for a version of a document.
fn versioned(client: &mut Client, uri: &str, version: i32) -> Value {
    client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["version"] == version
    })
}

#[test]
fn markdown_suppression_and_turning_a_rule_off_for_the_project() {
    let dir = project();
    let paper = dir.path().join("paper.md");
    let paper_uri = uri(&paper);
    let text = read(dir.path(), "paper.md");
    let mut client = Client::start_in(dir.path(), full_capabilities(), local_only());
    assert!(
        client.initialize_result["capabilities"]["codeActionProvider"]["resolveProvider"] == true
    );
    client.open(&paper_uri, "markdown", 1, &text);
    let published = client.diagnostics(&paper_uri);
    let undefined = diagnostic(&published, "CP101");
    // UTF-16: the line holds an emoji (two units) and accented letters before the key.
    assert_eq!(undefined["range"]["start"], at(&text, "jones1999", 0));

    let found = actions(&mut client, &paper_uri, vec![undefined.clone()], None);
    let suppress = titled(&found, "Suppress CP101 (undefined-citation) on this line");
    assert_eq!(suppress["kind"], "quickfix");
    let suppressed = apply(&text, &edits_of(&suppress["edit"], &paper_uri));
    assert_eq!(
        suppressed,
        text.replace(
            "@jones1999].",
            "@jones1999]. <!-- citeproof: ignore[CP101] -->"
        )
    );
    change_all(&client, &paper_uri, 2, &suppressed);
    let after = client.diagnostics(&paper_uri);
    assert_eq!(after["version"], 2);
    assert!(codes(&after).is_empty(), "{after}");

    // Without the comment the finding is back.
    change_all(&client, &paper_uri, 3, &text);
    assert_eq!(codes(&client.diagnostics(&paper_uri)), vec!["CP101"]);

    // Turning the rule off: the client resolves the edit, which creates the file.
    let off = titled(
        &found,
        "Turn off CP101 (undefined-citation) for the project (creates citeproof.toml)",
    );
    assert!(off.get("edit").is_none_or(Value::is_null), "{off}");
    let resolved = client
        .request("codeAction/resolve", off.clone())
        .response_result
        .unwrap();
    let written = apply_to_disk(&resolved["edit"]);
    let config = dir.path().join("citeproof.toml");
    assert_eq!(
        written[&config],
        "[rules]\nCP101 = \"off\" # undefined-citation\n"
    );
    // The next check reads the new configuration, which silences the rule.
    change_all(&client, &paper_uri, 4, &text);
    let later = client.diagnostics(&paper_uri);
    assert_eq!(later["version"], 4);
    assert!(codes(&later).is_empty(), "{later}");
    client.shutdown();
}

#[test]
fn bibliography_fixes_apply_and_clear_their_findings() {
    let (dir, mut client) = paper_and_bibliography();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let bib = read(dir.path(), "refs.bib");
    let published = versioned(&mut client, &bib_uri, 1);
    let mut found = codes_at_lines(&published);
    found.sort();
    assert_eq!(
        found,
        vec![("CP102".to_string(), 8), ("CP108".to_string(), 5)]
    );

    // The safe fix of a DOI written as a URL: preferred.
    let doi_as_url = diagnostic(&published, "CP108");
    let found = actions(&mut client, &bib_uri, vec![doi_as_url.clone()], None);
    let fix = found
        .iter()
        .find(|a| a["isPreferred"] == true)
        .expect("a preferred fix");
    assert_eq!(fix["kind"], "quickfix");
    let fixed = apply(&bib, &edits_of(&fix["edit"], &bib_uri));
    assert_eq!(
        fixed,
        bib.replace(
            "url = {https://doi.org/10.1000/xyz123}",
            "doi = {10.1000/xyz123}"
        )
    );
    change_all(&client, &bib_uri, 2, &fixed);
    let after = versioned(&mut client, &bib_uri, 2);
    assert_eq!(codes(&after), vec!["CP102"]);

    // The unsafe fix of an unused entry: offered, not preferred; removes the entry.
    let unused = diagnostic(&after, "CP102");
    let found = actions(&mut client, &bib_uri, vec![unused], None);
    let remove = found
        .iter()
        .find(|a| a["title"].as_str().unwrap().ends_with("(unsafe fix)"))
        .expect("the unsafe fix");
    assert_eq!(remove["isPreferred"], false);
    let removed = apply(&fixed, &edits_of(&remove["edit"], &bib_uri));
    let entry_start = fixed.find("@article{unused2021").unwrap();
    let entry_end = fixed.find("@misc{lee2023").unwrap();
    assert_eq!(
        removed,
        format!("{}{}", &fixed[..entry_start], &fixed[entry_end..])
    );
    change_all(&client, &bib_uri, 3, &removed);
    let last = versioned(&mut client, &bib_uri, 3);
    assert!(codes(&last).is_empty(), "{last}");
    client.shutdown();
}

#[test]
fn a_finding_inside_a_bibtex_entry_is_suppressed_around_the_entry() {
    let (dir, mut client) = paper_and_bibliography();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let bib = read(dir.path(), "refs.bib");
    let published = versioned(&mut client, &bib_uri, 1);
    // The client dropped `data`: the server finds the published diagnostic again.
    let mut doi_as_url = diagnostic(&published, "CP108");
    doi_as_url.as_object_mut().unwrap().remove("data");
    let found = actions(&mut client, &bib_uri, vec![doi_as_url], None);
    assert!(found.iter().any(|a| a["isPreferred"] == true), "{found:#?}");
    let suppress = titled(
        &found,
        "Suppress CP108 (doi-as-url) for the entry `smith2020`",
    );
    let suppressed = apply(&bib, &edits_of(&suppress["edit"], &bib_uri));
    let entry_end = bib.find("}\n\n@article{unused2021").unwrap() + 2;
    let expected = format!(
        "% citeproof: disable[CP108]\n{}% citeproof: enable[CP108]\n{}",
        &bib[..entry_end],
        &bib[entry_end..]
    );
    assert_eq!(suppressed, expected);
    change_all(&client, &bib_uri, 2, &suppressed);
    let after = versioned(&mut client, &bib_uri, 2);
    assert_eq!(codes(&after), vec!["CP102"], "{after}");
    client.shutdown();
}

#[test]
fn latex_suppression_is_a_comment_line_above() {
    let dir = project();
    let thesis_uri = uri(&dir.path().join("thesis.tex"));
    let chapter_uri = uri(&dir.path().join("chapter.tex"));
    let chapter = read(dir.path(), "chapter.tex");
    let mut client = Client::start_in(dir.path(), full_capabilities(), local_only());
    client.open(&thesis_uri, "latex", 1, &read(dir.path(), "thesis.tex"));
    client.open(&chapter_uri, "latex", 1, &chapter);
    let published = versioned(&mut client, &chapter_uri, 1);
    let ghost = diagnostic(&published, "CP101");
    assert_eq!(ghost["range"]["start"], at(&chapter, "ghost2000", 0));
    let found = actions(&mut client, &chapter_uri, vec![ghost], None);
    let suppress = titled(&found, "Suppress CP101");
    let suppressed = apply(&chapter, &edits_of(&suppress["edit"], &chapter_uri));
    assert_eq!(
        suppressed,
        chapter.replace(
            "Nobody defined",
            "% citeproof: ignore[CP101]\nNobody defined"
        )
    );
    change_all(&client, &chapter_uri, 2, &suppressed);
    let after = versioned(&mut client, &chapter_uri, 2);
    assert!(codes(&after).is_empty(), "{after}");
    client.shutdown();
}

#[test]
fn an_existing_configuration_is_edited_in_place_and_only_filters_kinds() {
    let dir = project();
    let config = dir.path().join("citeproof.toml");
    let before = "# project settings\nfail-on = \"warning\"\n\n[rules]\nunused-entry = \"warning\" # noisy\n";
    std::fs::write(&config, before).unwrap();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let bib_uri = uri(&dir.path().join("refs.bib"));
    // A client with plain `changes` and no resolution of edits.
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    client.open(&paper_uri, "markdown", 1, &read(dir.path(), "paper.md"));
    let published = client.diagnostics(&bib_uri);
    let unused = diagnostic(&published, "CP102");
    assert_eq!(unused["severity"], 2, "the configured severity: warning");
    let found = actions(&mut client, &bib_uri, vec![unused.clone()], None);
    let off = titled(
        &found,
        "Turn off CP102 (unused-entry) for the project in citeproof.toml",
    );
    let written = apply_to_disk(&off["edit"]);
    assert_eq!(
        written[&config],
        before.replace("unused-entry = \"warning\"", "unused-entry = \"off\"")
    );
    // `only`: the source action alone; quick fixes left out.
    let fix_all = actions(
        &mut client,
        &bib_uri,
        vec![unused],
        Some(json!(["source.fixAll"])),
    );
    assert_eq!(fix_all.len(), 1, "{fix_all:#?}");
    assert_eq!(fix_all[0]["kind"], "source.fixAll.citeproof");
    let fixed = apply(
        &read(dir.path(), "refs.bib"),
        &edits_of(&fix_all[0]["edit"], &bib_uri),
    );
    assert!(fixed.contains("doi = {10.1000/xyz123}"), "{fixed}");
    assert!(
        fixed.contains("@article{unused2021"),
        "unsafe fixes are not applied"
    );
    // An unknown document has no actions.
    let none = actions(&mut client, "file:///nowhere/x.md", vec![], None);
    assert!(none.is_empty());
    client.shutdown();
}
