//! The HTML report rendered by headless Chromium: the page's rendered text (its
//! `innerText`, which reflects CSS: hidden elements are missing, text-transform is
//! applied) must show the summary, every document and each citation with its claim,
//! record, verdict, evidence and links. Skips with a message when Chromium is absent
//! (`.ci/run` installs it). Set CITEPROOF_CHROMIUM to use another binary.

mod chromium_support;
mod output_support;

use std::path::Path;

use chromium_support::{chromium, run_chromium};
use citeproof::output::{self, Format, Report, text};
use citeproof::policy::FailOn;
use output_support::fixture;

fn unescape(text: &str) -> String {
    quick_xml::escape::unescape(text)
        .map(|c| c.into_owned())
        .unwrap_or_else(|_| text.to_string())
}

#[test]
fn html_report_renders_in_chromium_with_every_part_visible() {
    let Some(binary) = chromium() else {
        eprintln!(
            "skipping html_report_renders_in_chromium: no chromium binary found (apt-get install chromium)"
        );
        return;
    };
    let f = fixture();
    let fail_on = FailOn::default();
    let report = Report::new(&f.project, &f.diagnostics, &f.facts, &fail_on);
    let html = output::render(Format::Html, &report);
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    // A wrapper page reads the report's rendered text out of an iframe once it has
    // loaded; the report itself stays untouched (its CSP forbids scripts).
    let wrapper = dir.path().join("wrapper.html");
    std::fs::write(
        &wrapper,
        "<!DOCTYPE html><html><body>\
         <iframe id=\"r\" src=\"report.html\" style=\"width:1200px;height:900px\"></iframe>\
         <pre id=\"out\">NOT LOADED</pre><script>\
         document.getElementById('r').addEventListener('load', function () {\
           var d = document.getElementById('r').contentDocument;\
           document.getElementById('out').textContent = d ? 'RENDERED\\n' + d.body.innerText : 'NO ACCESS';\
         });</script></body></html>",
    )
    .unwrap();
    let dom = run_chromium(
        &binary,
        &dir.path().join("profile"),
        &[
            "--allow-file-access-from-files".into(),
            "--virtual-time-budget=10000".into(),
            "--dump-dom".into(),
            format!("file://{}", wrapper.display()),
        ],
    );
    let start = dom.find("<pre id=\"out\">").expect("wrapper in dumped DOM") + 14;
    let end = start + dom[start..].find("</pre>").expect("end of output");
    let rendered = unescape(&dom[start..end]);
    assert!(
        rendered.starts_with("RENDERED"),
        "report did not load: {rendered}"
    );

    let expected = [
        "citeproof report".to_string(),
        text::summary(&f.diagnostics),
        // Summary counts and documents.
        "errors".into(),
        "citations".into(),
        "paper.md".into(),
        "chapter.tex".into(),
        "answer.txt".into(),
        // A citation with its claim, record, verdict, evidence and links.
        "smith2020".into(),
        "Vitamin D supplementation prevented fractures.".into(),
        "Vitamin D and fractures in older adults".into(),
        "CONTRADICTS".into(),
        "supplementation did not reduce the incidence of fractures".into(),
        "doi:10.1000/vitd".into(),
        // Full-text evidence with its section and the open-access link.
        "a 40% reduction in freezing".into(),
        "Results".into(),
        "open-access copy".into(),
        // Resolution outcomes, the embedded backend's relation, findings.
        "verified".into(),
        "unverified".into(),
        "unrelated".into(),
        "undefined-citation".into(),
        "remove the entry `unused2018`".into(),
        // Document text is shown as text, not markup.
        "<angle> brackets".into(),
        // CSS applied: severities are upper-cased by the style sheet.
        "ERROR".into(),
    ];
    for want in &expected {
        assert!(
            rendered.contains(want.as_str()),
            "`{want}` is not on the rendered page:\n{rendered}"
        );
    }
    let paper = rendered.find("paper.md").unwrap();
    let chapter = rendered.find("chapter.tex").unwrap();
    assert!(paper < chapter, "documents out of order");

    // A screenshot, kept for people to look at (target/html-report.png).
    let shot = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/html-report.png");
    let _ = std::fs::remove_file(&shot);
    run_chromium(
        &binary,
        &dir.path().join("profile2"),
        &[
            "--window-size=1280,2400".into(),
            format!("--screenshot={}", shot.display()),
            format!("file://{}", page.display()),
        ],
    );
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(size > 20_000, "screenshot is {size} bytes");
}
