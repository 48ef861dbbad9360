//! OpenReview's API v2: `GET /notes/search?term=…&content=title&source=forum` (title
//! search over submissions) and `GET /notes?id=…` (one forum by its id). A note's
//! `content` fields are `{"value": …}` objects (API v2; API v1 wrote plain values,
//! which are read too).
//!
//! A submission's `venueid` says what became of it: `ICLR.cc/2025/Conference` (accepted,
//! `venue` "ICLR 2025 Poster"), `…/Rejected_Submission`, `…/Withdrawn_Submission`,
//! `…/Desk_Rejected_Submission`, or `…/Submission` (under review, "Submitted to ICLR
//! 2026"). A record that was not accepted carries [`NotAccepted`]: cited as a paper of
//! that venue, it is a wrong venue, not a verified paper.

use serde_json::Value;

use super::json::{parse_body, status_error};
use super::text::{finish, split_name, year_in};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceSettings};
use crate::model::{NotAccepted, SubmissionOutcome, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// Where a forum is read by people.
const FORUM_URL: &str = "https://openreview.net/forum?id=";

#[derive(Debug, Clone)]
pub struct OpenReviewClient {
    ep: Endpoint,
}

impl OpenReviewClient {
    pub fn new(net: &Net, settings: SourceSettings) -> OpenReviewClient {
        OpenReviewClient {
            ep: Endpoint::new(net, settings),
        }
    }

    pub fn settings(&self) -> &SourceSettings {
        &self.ep.settings
    }

    /// `GET /notes/search?term=TITLE&type=terms&content=title&group=all&source=forum`.
    pub async fn search(&self, title: &str, rows: usize) -> Result<Vec<Work>, SourceError> {
        if title.trim().is_empty() {
            return Ok(Vec::new());
        }
        let limit = rows.to_string();
        let url = self.ep.url(
            "/notes/search",
            &[
                ("term", title.trim()),
                ("type", "terms"),
                ("content", "title"),
                ("group", "all"),
                ("source", "forum"),
                ("limit", limit.as_str()),
            ],
        )?;
        parse_notes(&self.ep.send(HttpRequest::get(url)).await?)
    }

    /// `GET /notes?id=ID`: one forum (a submission).
    pub async fn lookup(&self, id: &str) -> LookupResult {
        let url = self.ep.url("/notes", &[("id", id)])?;
        let works = parse_notes(&self.ep.send(HttpRequest::get(url)).await?)?;
        Ok(works
            .into_iter()
            .next()
            .map_or(Lookup::NotFound, Lookup::Found))
    }
}

/// The reply to `/notes` or `/notes/search`: `{"notes": […], "count": n}`. OpenReview
/// answers an unknown id with 404 `NotFoundError` (and a hidden one with 403): both
/// are "no such public note".
pub fn parse_notes(reply: &HttpReply) -> Result<Vec<Work>, SourceError> {
    if matches!(reply.status, 403 | 404) {
        let v = parse_body(reply)?;
        let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
        if matches!(
            name,
            "NotFoundError" | "ForbiddenError" | "Not Found" | "Forbidden"
        ) {
            return Ok(Vec::new());
        }
        return Err(status_error(reply));
    }
    if reply.status != 200 {
        return Err(status_error(reply));
    }
    let v = parse_body(reply)?;
    let notes = v
        .get("notes")
        .and_then(Value::as_array)
        .ok_or_else(|| SourceError::Malformed("OpenReview reply without notes".into()))?;
    Ok(notes.iter().filter_map(work_from_note).collect())
}

/// A content field: `{"value": x}` (API v2) or `x` (API v1).
fn field<'a>(note: &'a Value, name: &str) -> Option<&'a Value> {
    let v = note.get("content")?.get(name)?;
    Some(v.get("value").unwrap_or(v))
}

fn text(note: &Value, name: &str) -> Option<String> {
    field(note, name)
        .and_then(Value::as_str)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Presentation labels OpenReview appends to an accepted paper's venue.
const PRESENTATION: &[&str] = &[
    "poster",
    "oral",
    "spotlight",
    "spotlight poster",
    "notable top 5%",
    "notable top 25%",
    "notable-top-5%",
    "notable-top-25%",
    "accept",
    "conference",
    "main conference",
];

/// `ICLR 2024 poster` → `ICLR 2024`.
fn venue_of_record(venue: &str) -> String {
    let mut v = venue.trim().to_string();
    loop {
        let lower = v.to_lowercase();
        let Some(label) = PRESENTATION
            .iter()
            .find(|l| lower.ends_with(&format!(" {l}")))
        else {
            return v;
        };
        v.truncate(v.len() - label.len() - 1);
        v = v.trim_end().to_string();
    }
}

/// What the `venueid` (or, for older notes, the `venue` text) says of a submission
/// that was not accepted, and the venue it went to.
pub fn decision(venueid: Option<&str>, venue: Option<&str>) -> Option<NotAccepted> {
    let id = venueid.unwrap_or_default();
    let last = id.rsplit('/').next().unwrap_or_default();
    let venue_text = venue.unwrap_or_default();
    let lower = venue_text.to_lowercase();
    let outcome = match last {
        "Rejected_Submission" => SubmissionOutcome::Rejected,
        "Withdrawn_Submission" => SubmissionOutcome::Withdrawn,
        "Desk_Rejected_Submission" => SubmissionOutcome::DeskRejected,
        "Submission" | "Under_Review" => SubmissionOutcome::UnderReview,
        _ if lower.contains("withdrawn") => SubmissionOutcome::Withdrawn,
        _ if lower.contains("desk rejected") => SubmissionOutcome::DeskRejected,
        _ if lower.starts_with("submitted to") => SubmissionOutcome::UnderReview,
        _ => return None,
    };
    Some(NotAccepted {
        outcome,
        submitted_to: submitted_to(id, venue_text),
    })
}

/// `ICLR.cc/2025/Conference/Rejected_Submission` → `ICLR 2025`; without a venue id,
/// the venue text without `Submitted to` and the decision words.
fn submitted_to(venueid: &str, venue: &str) -> String {
    let parts: Vec<&str> = venueid.split('/').collect();
    let name = parts.first().map(|p| {
        p.trim_end_matches(".cc")
            .trim_end_matches(".org")
            .trim_end_matches(".net")
    });
    let year = parts
        .iter()
        .find(|p| p.len() == 4 && p.bytes().all(|b| b.is_ascii_digit()));
    match (name.filter(|n| !n.is_empty()), year) {
        (Some(name), Some(year)) => format!("{name} {year}"),
        (Some(name), None) => name.to_string(),
        _ => {
            let v = venue.trim();
            let v = v
                .strip_prefix("Submitted to ")
                .or_else(|| v.strip_prefix("submitted to "))
                .unwrap_or(v);
            let mut out = v.to_string();
            for tail in [
                " Conference Withdrawn Submission",
                " Withdrawn Submission",
                " Conference Desk Rejected Submission",
                " Desk Rejected Submission",
            ] {
                if let Some(stripped) = out.strip_suffix(tail) {
                    out = stripped.to_string();
                }
            }
            out
        }
    }
}

/// A milliseconds-since-epoch date's year (`pdate`, `cdate`).
fn epoch_ms_year(v: Option<&Value>) -> Option<i32> {
    let ms = v?.as_i64()?;
    let days = ms.div_euclid(86_400_000);
    // Civil year from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    i32::try_from(yoe + era * 400 + i64::from(month <= 2)).ok()
}

/// One note (a forum's submission) as a [`Work`].
pub fn work_from_note(note: &Value) -> Option<Work> {
    let title = text(note, "title")?;
    let id = note
        .get("forum")
        .or_else(|| note.get("id"))
        .and_then(Value::as_str)?;
    let venue = text(note, "venue");
    let venueid = text(note, "venueid");
    let not_accepted = decision(venueid.as_deref(), venue.as_deref());
    let year = venue
        .as_deref()
        .and_then(year_in)
        .or_else(|| venueid.as_deref().and_then(year_in))
        .or_else(|| epoch_ms_year(note.get("pdate")))
        .or_else(|| epoch_ms_year(note.get("cdate")));
    let authors = field(note, "authors")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .map(split_name)
                .collect()
        })
        .unwrap_or_default();
    let work = Work {
        source: "openreview".into(),
        title,
        authors,
        year,
        // A submission that was not accepted has no venue of record.
        venue: match &not_accepted {
            None => venue.as_deref().map(venue_of_record),
            Some(_) => None,
        },
        work_type: Some(
            if not_accepted.is_some() {
                "submission"
            } else {
                "proceedings-article"
            }
            .into(),
        ),
        url: Some(format!("{FORUM_URL}{id}")),
        abstract_text: text(note, "abstract"),
        not_accepted,
        ..Work::default()
    };
    Some(finish(work))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepted_rejected_withdrawn_and_under_review() {
        let note = |venue: &str, venueid: &str| {
            json!({"id": "abc", "forum": "abc", "pdate": 1_700_000_000_000_i64, "content": {
                "title": {"value": "A Paper"}, "authors": {"value": ["Ada Lovelace", "Alan Turing"]},
                "venue": {"value": venue}, "venueid": {"value": venueid}}})
        };
        let accepted =
            work_from_note(&note("ICLR 2024 poster", "ICLR.cc/2024/Conference")).unwrap();
        assert_eq!(accepted.venue.as_deref(), Some("ICLR 2024"));
        assert_eq!(accepted.year, Some(2024));
        assert!(accepted.not_accepted.is_none());
        assert_eq!(
            accepted.url.as_deref(),
            Some("https://openreview.net/forum?id=abc")
        );
        let rejected = work_from_note(&note(
            "Submitted to ICLR 2025",
            "ICLR.cc/2025/Conference/Rejected_Submission",
        ))
        .unwrap();
        let na = rejected.not_accepted.unwrap();
        assert_eq!(na.outcome, SubmissionOutcome::Rejected);
        assert_eq!(na.submitted_to, "ICLR 2025");
        assert_eq!(rejected.venue, None);
        let withdrawn = work_from_note(&note(
            "ICLR 2025 Conference Withdrawn Submission",
            "ICLR.cc/2025/Conference/Withdrawn_Submission",
        ))
        .unwrap();
        assert_eq!(
            withdrawn.not_accepted.unwrap().outcome,
            SubmissionOutcome::Withdrawn
        );
        let desk = decision(
            Some("NeurIPS.cc/2025/Conference/Desk_Rejected_Submission"),
            None,
        )
        .unwrap();
        assert_eq!(
            (desk.outcome, desk.submitted_to.as_str()),
            (SubmissionOutcome::DeskRejected, "NeurIPS 2025")
        );
        let review = decision(None, Some("Submitted to ICLR 2026")).unwrap();
        assert_eq!(
            (review.outcome, review.submitted_to.as_str()),
            (SubmissionOutcome::UnderReview, "ICLR 2026")
        );
        assert!(
            decision(
                Some("TMLR"),
                Some("Transactions on Machine Learning Research")
            )
            .is_none()
        );
    }

    #[test]
    fn api_v1_plain_values_and_epoch_years() {
        let note = json!({"id": "x1", "cdate": 1_546_300_800_000_i64, "content": {
            "title": "Old Paper", "authors": ["Grace Hopper"], "venue": "ICLR 2019 Conference Blind Submission"}});
        let w = work_from_note(&note).unwrap();
        assert_eq!(w.title, "Old Paper");
        assert_eq!(w.year, Some(2019));
        assert_eq!(
            epoch_ms_year(Some(&json!(1_546_300_800_000_i64))),
            Some(2019)
        );
    }

    #[test]
    fn replies_and_errors() {
        let ok = HttpReply::new(
            200,
            Some("application/json"),
            r#"{"notes": [], "count": 0}"#,
        );
        assert!(parse_notes(&ok).unwrap().is_empty());
        let missing = HttpReply::new(
            404,
            Some("application/json"),
            r#"{"name": "NotFoundError", "message": "The Note abc was not found", "status": 404}"#,
        );
        assert!(parse_notes(&missing).unwrap().is_empty());
        let html = HttpReply::new(404, Some("text/html"), "<html>nginx</html>");
        assert!(parse_notes(&html).is_err());
        let garbled = HttpReply::new(200, Some("application/json"), r#"{"count": 1}"#);
        assert!(matches!(
            parse_notes(&garbled),
            Err(SourceError::Malformed(_))
        ));
    }
}
