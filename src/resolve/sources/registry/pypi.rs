//! PyPI's JSON API: `GET /pypi/{name}/json` → `info` (name, summary, project URL)
//! and `releases` (version → files with their `upload_time`); 404 = no such project.

use serde_json::Value;

use super::{dated, package_work, parse_reply};
use crate::model::Registry;
use crate::net::HttpReply;
use crate::resolve::sources::json::str_of;
use crate::resolve::sources::{LookupResult, SourceError};

pub fn parse_pypi(reply: &HttpReply) -> LookupResult {
    parse_reply(reply, |v| {
        let info = v
            .get("info")
            .ok_or_else(|| SourceError::Malformed("PyPI reply without info".into()))?;
        let name = str_of(info.get("name"))
            .ok_or_else(|| SourceError::Malformed("PyPI project without a name".into()))?;
        // A release is dated by its earliest file; one without files has no date.
        let releases = v
            .get("releases")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(version, files)| {
                let first = files
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|f| str_of(f.get("upload_time")))
                    .min();
                (version.clone(), first)
            });
        let url = str_of(info.get("project_url"))
            .unwrap_or_else(|| format!("https://pypi.org/project/{name}/"));
        Ok(package_work(
            Registry::Pypi,
            &name,
            str_of(info.get("summary")),
            url,
            dated(releases),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::sources::Lookup;
    use serde_json::json;

    #[test]
    fn a_project_and_its_absence() {
        let body = json!({"info": {"name": "scikit-learn", "summary": "A set of python modules for machine learning",
            "project_url": "https://pypi.org/project/scikit-learn/"},
            "releases": {"0.9": [{"upload_time": "2011-09-21T16:47:32"}], "1.3.2": [{"upload_time": "2023-10-23T17:00:00"}], "0.1": []}});
        let reply = HttpReply::new(200, None, body.to_string().into_bytes());
        let Ok(Lookup::Found(w)) = parse_pypi(&reply) else {
            panic!("project not read")
        };
        assert_eq!(w.title, "scikit-learn");
        assert_eq!(w.year, Some(2011));
        assert_eq!(w.releases.len(), 3);
        let missing = HttpReply::new(404, None, b"{\"message\": \"Not Found\"}".to_vec());
        assert_eq!(parse_pypi(&missing), Ok(Lookup::NotFound));
        let html = HttpReply::new(404, None, b"<html>proxy</html>".to_vec());
        assert!(parse_pypi(&html).is_err());
    }
}
