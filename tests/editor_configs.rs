//! The editor configurations in editors/ against the server: every setting they send
//! is one `citeproof lsp` knows (an unknown one would be ignored with a warning), and
//! they start the server and name the languages the way the READMEs say. The
//! end-to-end tests (editor_neovim, editor_node, editor_emacs) run the configurations
//! themselves; Helix and VS Code cannot run here, so their files are checked here.

mod editor_support;

use citeproof::lsp::{ResolveWhen, Settings};
use editor_support::repo_path;
use serde_json::{Value, json};

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo_path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The server reads `value`'s `citeproof` section without complaint.
fn server_accepts(value: &Value) -> Settings {
    let (settings, unknown) =
        Settings::from_value(value).unwrap_or_else(|e| panic!("the server rejects {value}: {e}"));
    assert!(
        unknown.is_empty(),
        "unknown to the server: {unknown:?} in {value}"
    );
    settings
}

#[test]
fn helix_starts_the_server_for_markdown_latex_and_bibtex_with_known_settings() {
    let text = read("editors/helix/languages.toml");
    let config: toml::Value = toml::from_str(&text).expect("languages.toml is TOML");
    let server = &config["language-server"]["citeproof"];
    assert_eq!(server["command"].as_str(), Some("citeproof"));
    assert_eq!(
        server["args"].as_array().unwrap(),
        &vec![toml::Value::from("lsp")]
    );
    let settings: Value = serde_json::to_value(&server["config"]).unwrap();
    assert!(settings.get("citeproof").is_some(), "{settings}");
    assert_eq!(server_accepts(&settings).resolve, ResolveWhen::OnSave);
    // The commented-out settings are valid too, once uncommented.
    let uncommented: toml::Value = toml::from_str(
        &text
            .replace("# verify", "verify")
            .replace("# offline", "offline")
            .replace("# configFile", "configFile")
            .replace("# env", "env"),
    )
    .expect("uncommented languages.toml is TOML");
    let all = serde_json::to_value(&uncommented["language-server"]["citeproof"]["config"]).unwrap();
    let settings = server_accepts(&all);
    assert_eq!(
        (settings.verify, settings.offline),
        (Some(true), Some(true))
    );
    assert_eq!(settings.env["CITEPROOF_MAILTO"], "you@example.org");

    let languages = config["language"].as_array().unwrap();
    for name in ["markdown", "latex", "bibtex"] {
        let language = languages
            .iter()
            .find(|l| l["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("no [[language]] {name}"));
        let servers = language["language-servers"].as_array().unwrap();
        assert!(servers.contains(&toml::Value::from("citeproof")), "{name}");
        // The default server of the language is kept next to citeproof.
        assert!(servers.len() >= 2, "{name} keeps its usual server");
    }
}

/// A value of each type a VS Code setting's schema allows.
fn samples(schema: &Value) -> Vec<Value> {
    if let Some(values) = schema["enum"].as_array() {
        return values.clone();
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    types
        .into_iter()
        .map(|t| match t {
            "boolean" => json!(true),
            "string" => json!("/tmp/citeproof.toml"),
            "object" => json!({"CITEPROOF_MAILTO": "you@example.org"}),
            "null" => Value::Null,
            other => panic!("a setting of type {other}"),
        })
        .collect()
}

#[test]
fn vscode_settings_are_the_servers_and_the_extension_has_its_command() {
    let manifest: Value = serde_json::from_str(&read("editors/vscode/package.json")).unwrap();
    let properties = manifest["contributes"]["configuration"]["properties"]
        .as_object()
        .expect("settings");
    // The extension's own settings; every other one goes to the server.
    let client_only = [
        "citeproof.server.path",
        "citeproof.server.args",
        "citeproof.trace.server",
    ];
    for key in client_only {
        assert!(properties.contains_key(key), "{key}");
    }
    let server_keys: Vec<&str> = properties
        .keys()
        .filter(|k| !client_only.contains(&k.as_str()))
        .map(|k| k.strip_prefix("citeproof.").expect("under citeproof."))
        .collect();
    for required in ["resolve", "verify", "offline", "env"] {
        assert!(server_keys.contains(&required), "citeproof.{required}");
    }
    for key in &server_keys {
        let schema = &properties[&format!("citeproof.{key}")];
        let values = samples(schema);
        assert!(!values.is_empty(), "{key}");
        for value in values {
            // null means "not set": the extension leaves the key out.
            if value.is_null() {
                continue;
            }
            server_accepts(&json!({ "citeproof": { *key: value } }));
        }
    }
    assert_eq!(
        properties["citeproof.resolve"]["enum"],
        json!(["onSave", "off"])
    );
    assert_eq!(
        properties["citeproof.trace.server"]["enum"],
        json!(["off", "messages", "verbose"])
    );

    let commands = manifest["contributes"]["commands"].as_array().unwrap();
    assert!(
        commands
            .iter()
            .any(|c| c["command"] == "citeproof.restartServer" && c["title"] == "Restart server"),
        "{commands:?}"
    );
    let activation: Vec<&str> = manifest["activationEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for language in ["markdown", "quarto", "latex", "bibtex", "plaintext"] {
        assert!(
            activation.contains(&format!("onLanguage:{language}").as_str()),
            "{language}"
        );
        // The same languages are in the document selector.
        assert!(
            read("editors/vscode/src/settings.ts").contains(&format!("'{language}'")),
            "{language} in DOCUMENT_SELECTOR"
        );
    }
    assert!(
        manifest["dependencies"]["vscode-languageclient"].is_string(),
        "built on vscode-languageclient"
    );
}
