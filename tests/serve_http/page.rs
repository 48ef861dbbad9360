//! The page at `GET /` of the real `citeproof serve`, in headless Chromium: a link
//! carrying a document (`#kind=…&text=…`) fills the form, the page posts it to
//! `/v1/check` and shows the HTML report with the summary. Skips with a message when
//! Chromium is absent (`.ci/run` installs it). Set CITEPROOF_CHROMIUM to use another
//! binary.

use crate::chromium_support::{chromium, run_chromium};
use crate::serve_support::{Server, local_env};

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
    let dom = run_chromium(
        &binary,
        &dir.path().join("profile"),
        &[
            "--virtual-time-budget=15000".into(),
            "--dump-dom".into(),
            format!("{}/#{fragment}", server.base),
        ],
    );
    assert!(
        dom.contains("Checked: "),
        "the page never showed a summary:\n{dom}"
    );
    assert!(
        dom.contains("class=\"failing\""),
        "undefined citations fail:\n{dom}"
    );
    let frame = dom.find("<iframe").expect("the report frame");
    let report = &dom[frame..];
    for want in [
        "srcdoc=",
        "citeproof report",
        "smith2020",
        "jones2019",
        "undefined-citation",
    ] {
        assert!(
            report.contains(want),
            "`{want}` is not in the report frame:\n{report}"
        );
    }
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("\"POST /v1/check HTTP/1.1\" 200"), "{log}");
}
