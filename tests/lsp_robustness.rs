//! The language server under hostile input: 10,000 random edits (CJK, emoji,
//! combining marks, CRLF, edits at line ends and past them), every request and
//! notification with parameters of the wrong shape, and documents it never saw.
//! Nothing panics, every request gets one answer, and every range the server
//! sends is valid for the text of the version it names.

mod lsp_support;

use std::collections::HashMap;

use citeproof::lsp::Ending;
use lsp_support::{Client, local};
use serde_json::{Value, json};

/// A small deterministic generator (the same edits on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Pieces the edits insert: citations that come and go, CJK, emoji (surrogate
/// pairs in UTF-16), combining marks, CRLF and line feeds. (A lone carriage return
/// is not a line break for citeproof, whose line index is the CLI's: not inserted.)
const PIECES: &[&str] = &[
    "[@smith2020]",
    "[@nowhere]",
    "@jones",
    "[",
    "]",
    "@",
    ";",
    " ",
    "word",
    "研究表明",
    "😀",
    "👩‍🔬",
    "e\u{301}",
    "\u{308}",
    "\r\n",
    "\n",
    "[1]",
    "$x$",
    "<!--",
    "-->",
    "```\n",
    "\t",
    "é",
];

/// Lines of `text` as the protocol counts them (terminated by `\n`, `\r\n`, or —
/// as the server splits — only `\n`), with their UTF-16 lengths without the
/// terminator.
fn line_lengths(text: &str) -> Vec<usize> {
    text.split('\n')
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            line.encode_utf16().count()
        })
        .collect()
}

/// The byte offset of a UTF-16 position, clamped as the protocol says: past a
/// line's end is its end, past the last line is the end of the text, inside a
/// surrogate pair is the character's start. Written here independently of the
/// server's code.
fn offset(text: &str, line: usize, character: usize) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = if text[start..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units + c.len_utf16() > character {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

/// Whether a range is valid for `text`: lines exist, characters within the line,
/// never inside a surrogate pair, start before end.
fn check_range(text: &str, range: &Value) -> Result<(), String> {
    let lengths = line_lengths(text);
    let position = |p: &Value| -> Result<(usize, usize), String> {
        let line = p["line"].as_u64().ok_or("no line")? as usize;
        let character = p["character"].as_u64().ok_or("no character")? as usize;
        let length = *lengths
            .get(line)
            .ok_or(format!("line {line} past the end"))?;
        if character > length {
            return Err(format!("character {character} past line {line}'s {length}"));
        }
        let at = offset(text, line, character);
        let units: usize = {
            let line_start = offset(text, line, 0);
            text[line_start..at].encode_utf16().count()
        };
        if units != character {
            return Err(format!("position {line}:{character} is inside a character"));
        }
        Ok((line, character))
    };
    let start = position(&range["start"])?;
    let end = position(&range["end"])?;
    if start > end {
        return Err(format!("start {start:?} after end {end:?}"));
    }
    Ok(())
}

/// Every range of a `publishDiagnostics` (diagnostics, related places and fix
/// edits in the same document) against the text it names.
fn check_publish(publish: &Value, texts: &HashMap<i64, String>) {
    let version = publish["version"].as_i64().expect("a version");
    let text = &texts[&version];
    let uri = &publish["uri"];
    for d in publish["diagnostics"].as_array().unwrap() {
        check_range(text, &d["range"]).unwrap_or_else(|e| panic!("{e}: {d}\n{text:?}"));
        for related in d["relatedInformation"].as_array().into_iter().flatten() {
            if related["location"]["uri"] == *uri {
                check_range(text, &related["location"]["range"])
                    .unwrap_or_else(|e| panic!("{e}: {related}\n{text:?}"));
            }
        }
        for edit in d["data"]["fix"]["edits"].as_array().into_iter().flatten() {
            if edit["uri"] == *uri {
                check_range(text, &edit["edit"]["range"])
                    .unwrap_or_else(|e| panic!("{e}: {edit}\n{text:?}"));
            }
        }
    }
}

const START: &str = "---\nbibliography: refs.bib\n---\n# 研究\n\nSleep helps [@smith2020] 😀.\r\n\
                     Undefined [@nowhere] and e\u{301}té [@jones; @smith2020].\n\n\
                     <!-- citeproof: ignore[CP101] -->\nAlso [@nowhere].\n";

#[test]
fn ten_thousand_random_edits_keep_every_range_valid() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("refs.bib"),
        "@article{smith2020, title={Sleep}, author={Smith, J.}, year={2020}}\n",
    )
    .unwrap();
    let path = dir.path().join("paper.md");
    let uri = lsp_support::uri(&path);
    let mut client = Client::start(json!({}), local());
    client.open(&uri, "markdown", 1, START);
    let mut texts: HashMap<i64, String> = HashMap::from([(1, START.to_string())]);
    let mut text = START.to_string();
    let mut rng = Lcg(2024);
    let mut version = 1;
    let mut published = 0;
    for _batch in 0..100 {
        for _ in 0..100 {
            let lines = line_lengths(&text);
            let pick = |rng: &mut Lcg| {
                let line = rng.next(lines.len() + 2);
                let length = lines.get(line).copied().unwrap_or(0);
                (line, rng.next(length + 4))
            };
            let (mut a, mut b) = (pick(&mut rng), pick(&mut rng));
            if rng.next(3) == 0 {
                b = a;
            }
            if b < a {
                std::mem::swap(&mut a, &mut b);
            }
            let inserted: String = (0..rng.next(3))
                .map(|_| PIECES[rng.next(PIECES.len())])
                .collect();
            let start = offset(&text, a.0, a.1);
            let end = offset(&text, b.0, b.1).max(start);
            text.replace_range(start..end, &inserted);
            version += 1;
            texts.insert(version, text.clone());
            client.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version},
                       "contentChanges": [{"range": {
                           "start": {"line": a.0, "character": a.1},
                           "end": {"line": b.0, "character": b.1}},
                           "text": inserted}]}),
            );
        }
        let last = client.diagnostics_where(&uri, |_| true);
        // Publications of earlier versions of this batch, then the batch's last.
        let mut seen = vec![last];
        while seen.last().unwrap()["version"] != version {
            seen.push(client.diagnostics(&uri));
        }
        for publish in &seen {
            check_publish(publish, &texts);
            published += 1;
        }
    }
    assert!(published >= 100);
    // The server's text is the client's: a fresh server on the final text says
    // exactly the same.
    let mut fresh = Client::start(json!({}), local());
    fresh.open(&uri, "markdown", version as i32, &text);
    let expected = fresh.diagnostics(&uri);
    assert_eq!(fresh.shutdown(), Ending::Clean);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version + 1}, "contentChanges": []}),
    );
    let now = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["version"] == version + 1
    });
    assert_eq!(now["diagnostics"], expected["diagnostics"]);
    assert_eq!(client.shutdown(), Ending::Clean);
}

/// Parameters of every wrong shape.
fn bad_params() -> Vec<Value> {
    vec![
        Value::Null,
        json!(42),
        json!("text"),
        json!([]),
        json!({}),
        json!({"textDocument": 7}),
        json!({"textDocument": {"uri": "not a uri"}}),
        json!({"textDocument": {"uri": "file:///nowhere/unknown.md", "version": "x"},
               "contentChanges": [{"range": {"start": {"line": -1}}, "text": 5}]}),
        json!({"settings": {"citeproof": {"resolve": 17, "env": [1, 2]}}}),
        json!({"changes": [{"uri": "file:///x/citeproof.toml", "type": 99}]}),
    ]
}

#[test]
fn every_method_survives_parameters_of_the_wrong_shape() {
    let mut client = Client::start(json!({}), local());
    let notifications = [
        "initialized",
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/didSave",
        "textDocument/didClose",
        "workspace/didChangeConfiguration",
        "workspace/didChangeWatchedFiles",
        "workspace/didChangeWorkspaceFolders",
        "$/cancelRequest",
        "$/setTrace",
    ];
    let requests = [
        "textDocument/diagnostic",
        "citeproof/debug/panic",
        "workspace/symbol",
    ];
    for params in bad_params() {
        for method in notifications {
            client.notify(method, params.clone());
        }
        for method in requests {
            let response = client.request(method, params.clone());
            // Exactly one answer: a result or an error, never an internal error.
            if let Err(e) = &response.response_result {
                assert_ne!(e.code, -32603, "{method} {params}: {e:?}");
            }
        }
    }
    // A document the server never saw: an empty report, not an error.
    let report = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": "file:///never/opened.md"}}),
        )
        .response_result
        .unwrap();
    assert_eq!(report["items"], json!([]));
    // Still serving: an open document is checked.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("paper.md");
    let uri = lsp_support::uri(&path);
    client.open(&uri, "markdown", 1, "Undefined [@nowhere].\n");
    let found = client.diagnostics(&uri);
    assert_eq!(lsp_support::codes(&found), ["CP101"]);
    assert_eq!(client.shutdown(), Ending::Clean);
}
