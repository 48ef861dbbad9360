//! What a batch writes in its output folder besides the journal: each submission's
//! reports (`reports/<id>.json`, `reports/<id>.html`, by the `check` emitters) and
//! the summary (`summary.jsonl`, `summary.csv`), each written whole under a temporary
//! name and renamed, so a killed run never leaves half a file under the real name.

use std::path::{Path, PathBuf};

use crate::output::{self, Format, Report};

use super::summary::{Status, SubmissionLine};

pub const REPORTS_DIR: &str = "reports";
pub const SUMMARY_JSONL: &str = "summary.jsonl";
pub const SUMMARY_CSV: &str = "summary.csv";

/// Write `text` to `path` by way of a temporary file in the same folder.
pub fn write_whole(path: &Path, text: &[u8]) -> anyhow::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let partial = path.with_file_name(name);
    std::fs::write(&partial, text)
        .and_then(|_| std::fs::rename(&partial, path))
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))
}

/// The reports of one submission, in the output folder's `reports/`.
pub fn write_reports(out: &Path, id: &str, report: &Report) -> anyhow::Result<()> {
    for (format, extension) in [(Format::Json, "json"), (Format::Html, "html")] {
        let path = report_path(out, id, extension);
        write_whole(&path, output::render(format, report).as_bytes())?;
    }
    Ok(())
}

pub fn report_path(out: &Path, id: &str, extension: &str) -> PathBuf {
    out.join(REPORTS_DIR).join(format!("{id}.{extension}"))
}

/// `summary.jsonl` and `summary.csv` of `lines` (in the order given).
pub fn write_summaries(out: &Path, lines: &[SubmissionLine]) -> anyhow::Result<()> {
    let mut jsonl = String::new();
    for line in lines {
        jsonl.push_str(&serde_json::to_string(line)?);
        jsonl.push('\n');
    }
    write_whole(&out.join(SUMMARY_JSONL), jsonl.as_bytes())?;
    write_whole(&out.join(SUMMARY_CSV), &csv_text(lines)?)
}

/// One row per submission; one `count_<name>` column per count name met in any line
/// (the policy's classes, or the severities), in the order first met.
fn csv_text(lines: &[SubmissionLine]) -> anyhow::Result<Vec<u8>> {
    let mut count_names: Vec<&str> = Vec::new();
    for line in lines {
        for (name, _) in &line.counts.0 {
            if !count_names.contains(&name.as_str()) {
                count_names.push(name);
            }
        }
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "id",
        "path",
        "status",
        "error",
        "references",
        "findings",
        "failing",
    ];
    let count_columns: Vec<String> = count_names.iter().map(|n| format!("count_{n}")).collect();
    header.extend(count_columns.iter().map(String::as_str));
    header.extend(["worst", "evidence"]);
    writer.write_record(&header)?;
    for line in lines {
        let mut row = vec![
            line.id.clone(),
            line.path.clone(),
            match line.status {
                Status::Ok => "ok",
                Status::Failed => "failed",
            }
            .to_string(),
            line.error.clone().unwrap_or_default(),
            line.references.to_string(),
            line.findings.to_string(),
            line.failing.to_string(),
        ];
        for name in &count_names {
            row.push(
                line.counts
                    .0
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, c)| c.to_string())
                    .unwrap_or_default(),
            );
        }
        let worst: Vec<String> = line
            .worst
            .iter()
            .map(|w| {
                let class = w.policy_class.as_deref().unwrap_or(&w.severity);
                format!("{} {} ({class}) {}: {}", w.rule, w.name, w.place, w.message)
            })
            .collect();
        row.push(worst.join(" | "));
        let evidence: Vec<&str> = line
            .worst
            .iter()
            .flat_map(|w| w.evidence.iter().map(String::as_str))
            .collect();
        row.push(evidence.join(" "));
        writer.write_record(&row)?;
    }
    writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::summary::{Counts, WorstFinding};

    #[test]
    fn csv_columns_cover_every_count_and_quote_what_needs_it() {
        let mut ok = SubmissionLine::failed("a", "subs/a.zip", String::new());
        ok.status = Status::Ok;
        ok.error = None;
        ok.references = 3;
        ok.findings = 1;
        ok.failing = true;
        ok.counts = Counts(vec![("hallucinated".into(), 1), ("unclassed".into(), 0)]);
        ok.worst = vec![WorstFinding {
            rule: "CP201".into(),
            name: "reference-not-found".into(),
            severity: "error".into(),
            policy_class: Some("hallucinated".into()),
            fails: true,
            place: "main.tex:3:1".into(),
            key: Some("smith".into()),
            message: "no source has \"X, Y\"".into(),
            evidence: vec!["https://doi.org/10.1/x".into()],
        }];
        let failed = SubmissionLine::failed("b", "subs/b.pdf", "cannot read, really".into());
        let text = String::from_utf8(csv_text(&[ok, failed]).unwrap()).unwrap();
        assert_eq!(
            text,
            "id,path,status,error,references,findings,failing,count_hallucinated,count_unclassed,\
             worst,evidence\n\
             a,subs/a.zip,ok,,3,1,true,1,0,\"CP201 reference-not-found (hallucinated) main.tex:3:1: \
             no source has \"\"X, Y\"\"\",https://doi.org/10.1/x\n\
             b,subs/b.pdf,failed,\"cannot read, really\",0,0,false,,,,\n"
        );
    }
}
