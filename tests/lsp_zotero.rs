//! The user's Zotero library in the language server, against the mock of Zotero 7's
//! local API and Better BibTeX: completion offers the keys Zotero has and the .bib
//! lacks (after the .bib's own, labelled), hover shows the Zotero item, the quick
//! fix and the completion's command add a parseable entry to the .bib; with Zotero
//! down there is no Zotero item and nothing is shown to the user.

mod lsp_edit_support;
mod lsp_support;
mod support;

use lsp_edit_support::{apply_to_disk, at, full_capabilities, position, project, read};
use lsp_support::{Client, complete, hover, labels, uri};
use serde_json::{Value, json};
use support::zotero::{MockItem, MockZotero};

fn library() -> MockZotero {
    let items = vec![
        MockItem::residual_learning(),
        // Also in refs.bib: never offered again.
        MockItem::article(
            "SMITH020",
            Some("smith2020"),
            "Deep nets for everything",
            &[("Smith", "John")],
            "2020",
            "Journal of Nets",
        ),
        // No Better BibTeX key: the key pinned in `extra`, BibTeX written by citeproof.
        MockItem::article(
            "NASH1950",
            None,
            "Equilibrium points in n-person games",
            &[("Nash", "John F.")],
            "1950-01-15",
            "Proceedings of the National Academy of Sciences",
        )
        .with("extra", "Citation Key: nash1950equilibrium".into())
        .with("DOI", "10.1073/pnas.36.1.48".into()),
    ];
    MockZotero::start(items, Vec::new())
}

/// Settings for a server that reads the Zotero at `url` when it answers (the
/// default: `enabled` unset).
fn with_zotero(url: &str) -> Value {
    json!({"citeproof": {"resolve": "off",
        "env": {"CITEPROOF_ZOTERO_URL": url, "CITEPROOF_ZOTERO": ""}}})
}

fn hover_text(client: &mut Client, uri: &str, position: Value) -> String {
    let found = hover(client, uri, position);
    found["contents"]["value"].as_str().unwrap().to_string()
}

/// The code actions offered with the cursor at `position`, no diagnostics sent.
fn actions_at(client: &mut Client, uri: &str, position: Value) -> Vec<Value> {
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": position, "end": position},
                   "context": {"diagnostics": []}}),
        )
        .response_result
        .unwrap();
    actions.as_array().unwrap().clone()
}

fn paper_text(dir: &std::path::Path) -> String {
    format!(
        "{}Residual learning [@he].\nGames [@nash1950equilibrium].\nSee also @\n",
        read(dir, "paper.md")
    )
}

#[test]
fn zotero_keys_complete_hover_and_are_added_to_the_bib() {
    let zotero = library();
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let text = paper_text(dir.path());
    let mut client = Client::start_in(dir.path(), full_capabilities(), with_zotero(&zotero.url()));
    let commands = &client.initialize_result["capabilities"]["executeCommandProvider"]["commands"];
    assert!(
        commands
            .as_array()
            .unwrap()
            .contains(&json!("citeproof.zotero.add")),
        "{commands}"
    );
    let status = client.notification("citeproof/zotero", |p| p["available"] == true);
    assert_eq!(status["items"], 3, "{status}");
    client.open(&paper_uri, "markdown", 1, &text);
    client.diagnostics(&paper_uri);

    // A bare `@`: the .bib's keys, then Zotero's that the .bib lacks.
    let bare = text.rfind('@').unwrap() + 1;
    let list = complete(&mut client, &paper_uri, position(&text, bare));
    assert_eq!(
        labels(&list),
        vec![
            "lee2023",
            "smith2020",
            "unused2021",
            "he2016deep",
            "nash1950equilibrium"
        ]
    );
    let items = list["items"].as_array().unwrap();
    for item in &items[..3] {
        assert!(item.get("labelDetails").is_none_or(Value::is_null));
    }
    let he = &items[3];
    assert_eq!(he["labelDetails"]["description"], "Zotero");
    assert!(
        he["detail"]
            .as_str()
            .unwrap()
            .starts_with("Zotero · He, Zhang (2016) Deep Residual"),
        "{he}"
    );
    assert!(
        items[2]["sortText"].as_str().unwrap() < he["sortText"].as_str().unwrap(),
        "Zotero's keys sort after the .bib's: {list:#}"
    );
    assert_eq!(he["command"]["command"], "citeproof.zotero.add");
    assert_eq!(
        he["command"]["arguments"][0],
        json!({"uri": paper_uri, "key": "he2016deep"})
    );
    let resolved = client
        .request("completionItem/resolve", he.clone())
        .response_result
        .unwrap();
    let doc = resolved["documentation"]["value"].as_str().unwrap();
    assert!(
        doc.contains("*Deep Residual Learning for Image Recognition*"),
        "{doc}"
    );
    assert!(
        doc.contains("zotero://select/library/items/HE2016AA"),
        "{doc}"
    );
    // A prefix: an author's name.
    let list = complete(&mut client, &paper_uri, at(&text, "[@he]", 4));
    assert_eq!(labels(&list), vec!["he2016deep"]);

    // Hover on a key the .bib lacks shows the Zotero item; on one it has, both.
    let hover = hover_text(&mut client, &paper_uri, at(&text, "nash1950equilibrium", 2));
    for part in [
        "no entry defines this key",
        "**nash1950equilibrium** · in your Zotero library",
        "zotero://select/library/items/NASH1950",
        "*Equilibrium points in n-person games*",
        "John F. Nash · 1950 · Proceedings of the National Academy of Sciences",
        "https://doi.org/10.1073/pnas.36.1.48",
    ] {
        assert!(hover.contains(part), "`{part}` in {hover}");
    }
    let hover = hover_text(&mut client, &paper_uri, at(&text, "smith2020", 3));
    assert!(hover.contains("[refs.bib:1]"), "{hover}");
    assert!(
        hover.contains("zotero://select/library/items/SMITH020"),
        "{hover}"
    );

    // The quick fix on the undefined key adds citeproof's BibTeX of the item.
    let actions = actions_at(&mut client, &paper_uri, at(&text, "nash1950equilibrium", 0));
    let action = actions
        .iter()
        .find(|a| a["title"] == "Add `nash1950equilibrium` from Zotero to refs.bib")
        .unwrap_or_else(|| panic!("no Zotero action in {actions:#?}"))
        .clone();
    let written = apply_to_disk(&action["edit"]);
    let bib = &written[&dir.path().join("refs.bib")];
    let parsed = citeproof::parse::bibtex::parse(
        citeproof::model::FileId(0),
        bib,
        &citeproof::parse::ParseOptions::default(),
    );
    let keys: Vec<&str> = parsed.references.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(
        keys,
        vec!["smith2020", "unused2021", "lee2023", "nash1950equilibrium"]
    );
    let nash = &parsed.references[3];
    assert_eq!(nash.fields.year, Some(1950));
    assert_eq!(
        nash.fields.title.as_deref(),
        Some("Equilibrium points in n-person games")
    );
    assert_eq!(nash.fields.doi.as_deref(), Some("10.1073/pnas.36.1.48"));
    assert!(parsed.problems.is_empty(), "{:?}\n{bib}", parsed.problems);

    // The completion's command: Better BibTeX's own export, sent as applyEdit.
    let done = client.request(
        "workspace/executeCommand",
        json!({"command": "citeproof.zotero.add",
               "arguments": [{"uri": paper_uri, "key": "he2016deep"}]}),
    );
    assert_eq!(done.response_result.unwrap(), Value::Null);
    let apply = client.server_request("workspace/applyEdit");
    assert_eq!(
        apply.params["label"],
        "Add `he2016deep` from Zotero to refs.bib"
    );
    let written = apply_to_disk(&apply.params["edit"]);
    let bib = &written[&dir.path().join("refs.bib")];
    assert!(
        bib.contains("@article{he2016deep,\n  title = {{Deep Residual Learning"),
        "{bib}"
    );
    let parsed = citeproof::parse::bibtex::parse(
        citeproof::model::FileId(0),
        bib,
        &citeproof::parse::ParseOptions::default(),
    );
    assert_eq!(parsed.references.len(), 5, "{bib}");
    assert_eq!(parsed.references[4].fields.year, Some(2016));
    // Asked again, the entry is there: refused with the reason.
    let again = client.request(
        "workspace/executeCommand",
        json!({"command": "citeproof.zotero.add",
               "arguments": [{"uri": paper_uri, "key": "he2016deep"}]}),
    );
    let error = again.response_result.expect_err("refused");
    assert!(error.message.contains("already in refs.bib"), "{error:?}");
    let asked = zotero.requests();
    assert!(
        asked
            .iter()
            .any(|r| r == "/better-bibtex/json-rpc item.export"),
        "{asked:?}"
    );
    client.shutdown();
}

#[test]
fn zotero_down_means_no_zotero_items_and_nothing_shown() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let text = paper_text(dir.path());
    let mut client = Client::start_in(
        dir.path(),
        full_capabilities(),
        with_zotero(&format!("http://127.0.0.1:{port}")),
    );
    let status = client.notification("citeproof/zotero", |_| true);
    assert_eq!(status["available"], false, "{status}");
    assert!(
        status["reason"]
            .as_str()
            .unwrap()
            .contains("Zotero is not reachable"),
        "{status}"
    );
    client.open(&paper_uri, "markdown", 1, &text);
    client.diagnostics(&paper_uri);
    let bare = text.rfind('@').unwrap() + 1;
    let list = complete(&mut client, &paper_uri, position(&text, bare));
    assert_eq!(labels(&list), vec!["lee2023", "smith2020", "unused2021"]);
    let hover = hover_text(&mut client, &paper_uri, at(&text, "nash1950equilibrium", 2));
    assert!(!hover.contains("Zotero"), "{hover}");
    let actions = actions_at(&mut client, &paper_uri, at(&text, "nash1950equilibrium", 0));
    assert!(
        actions
            .iter()
            .all(|a| !a["title"].as_str().unwrap().contains("Zotero")),
        "{actions:#?}"
    );
    client.roundtrip();
    assert!(client.take_notifications("window/showMessage").is_empty());
    let logged = client.take_notifications("window/logMessage");
    let zotero_log = logged
        .iter()
        .find(|l| l["message"].as_str().unwrap().starts_with("Zotero: "))
        .unwrap_or_else(|| panic!("{logged:#?}"));
    assert_eq!(
        zotero_log["type"], 3,
        "information, not an error: {zotero_log}"
    );
    client.shutdown();
}

#[test]
fn zotero_off_by_setting_is_never_asked() {
    let zotero = library();
    let dir = project();
    let paper_uri = uri(&dir.path().join("paper.md"));
    let text = paper_text(dir.path());
    let mut client = Client::start_in(
        dir.path(),
        full_capabilities(),
        json!({"citeproof": {"resolve": "off", "zotero": false, "zoteroUrl": zotero.url()}}),
    );
    client.open(&paper_uri, "markdown", 1, &text);
    client.diagnostics(&paper_uri);
    let bare = text.rfind('@').unwrap() + 1;
    let list = complete(&mut client, &paper_uri, position(&text, bare));
    assert_eq!(labels(&list), vec!["lee2023", "smith2020", "unused2021"]);
    client.roundtrip();
    assert!(zotero.requests().is_empty(), "{:?}", zotero.requests());
    client.shutdown();
}
