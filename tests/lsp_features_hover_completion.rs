//! Hover and completion of the language server (in-process over
//! `Connection::memory()`), with UTF-16 positions on lines that hold non-ASCII
//! text, unknown documents and positions past the end.

mod lsp_edit_support;
mod lsp_support;

use lsp_edit_support::{at, full_capabilities, local_only, position, project, read};
use lsp_support::{Client, complete, hover, labels, uri};
use serde_json::{Value, json};

#[test]
fn hover_on_a_citation_shows_its_entry() {
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let text = format!(
        "{}Cited by its DOI [@doi:10.1000/abc].\n",
        read(dir.path(), "paper.md")
    );
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    assert_eq!(
        client.initialize_result["capabilities"]["hoverProvider"],
        true
    );
    client.open(&paper_uri, "markdown", 1, &text);
    client.diagnostics(&paper_uri);
    // On the key, after an emoji and accented letters on the same line.
    let found = hover(&mut client, &paper_uri, at(&text, "smith2020", 4));
    assert_eq!(found["contents"]["kind"], "markdown");
    let value = found["contents"]["value"].as_str().unwrap();
    for part in [
        "**smith2020** · article · [refs.bib:1]",
        "*Deep nets for everything*",
        "John Smith, Anna Müller · 2020 · Journal of Nets",
        "[https://doi.org/10.1000/xyz123](<https://doi.org/10.1000/xyz123>)",
        "Not looked up: resolution is off",
    ] {
        assert!(value.contains(part), "`{part}` in {value}");
    }
    let start = text.find("smith2020").unwrap();
    assert_eq!(
        found["range"],
        json!({"start": position(&text, start), "end": position(&text, start + 9)})
    );
    // An undefined key says where it was looked for.
    let undefined = hover(&mut client, &paper_uri, at(&text, "jones1999", 0));
    let value = undefined["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("**jones1999**: no entry defines this key (looked for in `"),
        "{value}"
    );
    assert!(value.contains("refs.bib`"), "{value}");
    // An identifier cited inline links to its landing page.
    let inline = hover(&mut client, &paper_uri, at(&text, "doi:10.1000/abc", 5));
    let value = inline["contents"]["value"].as_str().unwrap();
    assert!(
        value
            .contains("cited by its identifier · [doi:10.1000/abc](<https://doi.org/10.1000/abc>)"),
        "{value}"
    );
    // Prose, an unknown document, a position past the end: nothing.
    assert!(hover(&mut client, &paper_uri, at(&text, "Gradient", 2)).is_null());
    assert!(
        hover(
            &mut client,
            "file:///nowhere/x.md",
            at(&text, "smith2020", 0)
        )
        .is_null()
    );
    assert!(
        hover(
            &mut client,
            &paper_uri,
            json!({"line": 999, "character": 3})
        )
        .is_null()
    );
    client.shutdown();
}

#[test]
fn hover_on_a_bibliography_entry_lists_where_it_is_cited() {
    let dir = project();
    let bib_uri = uri(&dir.path().join("refs.bib"));
    let bib = read(dir.path(), "refs.bib");
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    for (name, language) in [("paper.md", "markdown"), ("thesis.tex", "latex")] {
        let u = uri(&dir.path().join(name));
        client.open(&u, language, 1, &read(dir.path(), name));
        client.diagnostics(&u);
    }
    client.open(&bib_uri, "bibtex", 1, &bib);
    // Anywhere in the entry, here on its title.
    let found = hover(&mut client, &bib_uri, at(&bib, "Quantum gradient", 3));
    let value = found["contents"]["value"].as_str().unwrap();
    for part in [
        "**lee2023** · misc",
        "Kim Lee, Jae Park · 2023",
        "[arXiv:2301.01234](<https://arxiv.org/abs/2301.01234>)",
        "[PMID 12345678](<https://pubmed.ncbi.nlm.nih.gov/12345678/>)",
        "Cited 2 times:",
        "[paper.md:9]",
        "Gradient folding is a recent idea.",
        "[chapter.tex:2]",
    ] {
        assert!(value.contains(part), "`{part}` in {value}");
    }
    let unused = hover(&mut client, &bib_uri, at(&bib, "unused2021", 2));
    let value = unused["contents"]["value"].as_str().unwrap();
    assert!(value.contains("Not cited by any open document."), "{value}");
    // On a file the thesis reads.
    let thesis_uri = uri(&dir.path().join("thesis.tex"));
    let thesis = read(dir.path(), "thesis.tex");
    let file = hover(&mut client, &thesis_uri, at(&thesis, "\\input{chapter}", 8));
    let value = file["contents"]["value"].as_str().unwrap();
    assert!(
        value.starts_with("File `") && value.contains("chapter.tex"),
        "{value}"
    );
    client.shutdown();
}

#[test]
fn keys_complete_in_markdown_with_documentation_on_resolve() {
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let text = format!(
        "{}Smörgåsbord 🙂 [@mü] and [@fold] and @\n",
        read(dir.path(), "paper.md")
    );
    let mut client = Client::start_in(dir.path(), full_capabilities(), local_only());
    let capabilities = &client.initialize_result["capabilities"]["completionProvider"];
    assert_eq!(capabilities["resolveProvider"], true);
    assert!(
        capabilities["triggerCharacters"]
            .as_array()
            .unwrap()
            .contains(&json!("@"))
    );
    client.open(&paper_uri, "markdown", 1, &text);
    client.diagnostics(&paper_uri);
    // `mü` matches the author Müller (accents folded).
    let list = complete(&mut client, &paper_uri, at(&text, "[@mü]", 5));
    assert_eq!(list["isIncomplete"], false);
    assert_eq!(labels(&list), vec!["smith2020"]);
    let item = &list["items"][0];
    assert_eq!(
        item["detail"],
        "Smith, Müller (2020) Deep nets for everything"
    );
    assert!(item["filterText"].as_str().unwrap().contains("Müller"));
    assert!(item.get("documentation").is_none_or(Value::is_null));
    let start = text.find("[@mü]").unwrap() + 2;
    assert_eq!(
        item["textEdit"],
        json!({"range": {"start": position(&text, start), "end": position(&text, start + "mü".len())},
               "newText": "smith2020"})
    );
    let resolved = client
        .request("completionItem/resolve", item.clone())
        .response_result
        .unwrap();
    let doc = resolved["documentation"]["value"].as_str().unwrap();
    assert!(doc.contains("*Deep nets for everything*"), "{doc}");
    // A title word.
    let list = complete(&mut client, &paper_uri, at(&text, "[@fold]", 6));
    assert_eq!(labels(&list), vec!["lee2023"]);
    // A bare `@` at the end of a line: every entry, keys in order.
    let bare = text.rfind('@').unwrap() + 1;
    let list = complete(&mut client, &paper_uri, position(&text, bare));
    assert_eq!(labels(&list), vec!["lee2023", "smith2020", "unused2021"]);
    // Not in a citation; an unknown document; past the end.
    assert!(complete(&mut client, &paper_uri, at(&text, "Gradient", 3)).is_null());
    assert!(
        complete(
            &mut client,
            "file:///nowhere/x.md",
            json!({"line": 0, "character": 0})
        )
        .is_null()
    );
    assert!(
        complete(
            &mut client,
            &paper_uri,
            json!({"line": 500, "character": 0})
        )
        .is_null()
    );
    client.shutdown();
}

#[test]
fn keys_complete_in_latex_key_lists() {
    let dir = project();
    let thesis_uri = uri(&dir.path().join("thesis.tex"));
    let chapter_uri = uri(&dir.path().join("chapter.tex"));
    let chapter = format!(
        "{}More \\citep[see][p.~3]{{lee2023, }} and \\Citet*{{smith}}.\n",
        read(dir.path(), "chapter.tex")
    );
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    client.open(&thesis_uri, "latex", 1, &read(dir.path(), "thesis.tex"));
    client.open(&chapter_uri, "latex", 1, &chapter);
    client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == chapter_uri
    });
    // After the comma of a multi-key list, with optional arguments before it.
    let list = complete(&mut client, &chapter_uri, at(&chapter, "lee2023, }", 9));
    assert_eq!(labels(&list), vec!["lee2023", "smith2020", "unused2021"]);
    // Capitalised and starred; the whole key under the cursor is replaced.
    let list = complete(&mut client, &chapter_uri, at(&chapter, "{smith}", 3));
    assert_eq!(labels(&list), vec!["smith2020"]);
    let start = chapter.find("{smith}").unwrap() + 1;
    assert_eq!(
        list["items"][0]["textEdit"]["range"],
        json!({"start": position(&chapter, start), "end": position(&chapter, start + 5)})
    );
    // Not a citation command.
    assert!(complete(&mut client, &chapter_uri, at(&chapter, "section{Ça", 8)).is_null());
    client.shutdown();
}

#[test]
fn a_large_bibliography_is_matched_on_the_server_and_sent_in_part() {
    let dir = tempfile::tempdir().unwrap();
    let mut bib = String::new();
    for i in 0..300 {
        bib.push_str(&format!(
            "@article{{key{i}, title = {{Study number {i}}}, author = {{Author{i}, A.}}, year = {{2000}}}}\n"
        ));
    }
    std::fs::write(dir.path().join("big.bib"), bib).unwrap();
    let text = "---\nbibliography: big.bib\n---\nSee [@key12] and [@].\n";
    let paper = dir.path().join("paper.md");
    std::fs::write(&paper, text).unwrap();
    let paper_uri = uri(&paper);
    let mut client = Client::start_in(dir.path(), json!({}), local_only());
    client.open(&paper_uri, "markdown", 1, text);
    client.diagnostics(&paper_uri);
    let all = complete(&mut client, &paper_uri, at(text, "[@]", 2));
    assert_eq!(all["isIncomplete"], true);
    assert_eq!(all["items"].as_array().unwrap().len(), 100);
    let some = complete(&mut client, &paper_uri, at(text, "key12]", 5));
    assert_eq!(some["isIncomplete"], false);
    let mut got = labels(&some);
    got.sort();
    let mut expected: Vec<String> = std::iter::once("key12".to_string())
        .chain((120..130).map(|i| format!("key{i}")))
        .collect();
    expected.sort();
    assert_eq!(got, expected);
    client.shutdown();
}
