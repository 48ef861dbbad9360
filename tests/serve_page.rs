//! The page at `GET /` of the real `citeproof serve`, in headless Chromium: a link
//! carrying a document (`#kind=…&text=…`) fills the form, the page posts it to
//! `/v1/check` and shows the HTML report with the summary. Skips with a message when
//! Chromium is absent (`.ci/run` installs it). Set CITEPROOF_CHROMIUM to use another
//! binary.

mod serve_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serve_support::{Server, local_env};

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CITEPROOF_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        .iter()
        .flat_map(|name| {
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
                .map(move |dir| dir.join(name))
                .collect::<Vec<_>>()
        })
        .find(|p| p.is_file())
}

/// The DOM of `url` after its scripts ran, from headless Chromium (with a deadline).
fn dump_dom(binary: &Path, profile: &Path, url: &str) -> String {
    let mut child = Command::new(binary)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
            "--virtual-time-budget=15000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("chromium can be waited on").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("chromium output");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_page_checks_a_pasted_document_and_shows_the_report() {
    let Some(binary) = chromium() else {
        eprintln!(
            "skipping the_page_checks_a_pasted_document: no chromium binary found (apt-get install chromium)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &local_env(), &[]);
    let document = "# Notes\n\nA claim [@smith2020] and another [@jones2019].\n";
    let fragment: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("kind", "markdown")
        .append_pair("text", document)
        .finish();
    let dom = dump_dom(
        &binary,
        &dir.path().join("profile"),
        &format!("{}/#{fragment}", server.base),
    );
    assert!(dom.contains("Checked: "), "the page never showed a summary:\n{dom}");
    assert!(dom.contains("class=\"failing\""), "undefined citations fail:\n{dom}");
    let frame = dom.find("<iframe").expect("the report frame");
    let report = &dom[frame..];
    for want in ["srcdoc=", "citeproof report", "smith2020", "jones2019", "undefined-citation"] {
        assert!(report.contains(want), "`{want}` is not in the report frame:\n{report}");
    }
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("\"POST /v1/check HTTP/1.1\" 200"), "{log}");
}
