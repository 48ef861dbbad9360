//! crates.io: `GET /api/v1/crates/{name}` → `crate` (name, description) and
//! `versions` (`num`, `created_at`); 404 = `{"errors": [{"detail": "… does not exist"}]}`.

use super::{dated, package_work, parse_reply};
use crate::model::Registry;
use crate::net::HttpReply;
use crate::resolve::sources::json::{list, str_of};
use crate::resolve::sources::{LookupResult, SourceError};

pub fn parse_crate(reply: &HttpReply) -> LookupResult {
    parse_reply(reply, |v| {
        let krate = v
            .get("crate")
            .ok_or_else(|| SourceError::Malformed("crates.io reply without crate".into()))?;
        let name = str_of(krate.get("name"))
            .or_else(|| str_of(krate.get("id")))
            .ok_or_else(|| SourceError::Malformed("crate without a name".into()))?;
        let versions = list(v.get("versions"))
            .iter()
            .filter_map(|r| Some((str_of(r.get("num"))?, str_of(r.get("created_at")))));
        Ok(package_work(
            Registry::Crates,
            &name,
            str_of(krate.get("description")),
            format!("https://crates.io/crates/{name}"),
            dated(versions),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::sources::Lookup;
    use serde_json::json;

    #[test]
    fn a_crate_and_its_absence() {
        let body = json!({"crate": {"id": "serde", "name": "serde", "description": "A serialization framework"},
            "versions": [{"num": "1.0.0", "created_at": "2017-04-20T00:00:00+00:00"}, {"num": "0.1.0", "created_at": "2014-12-05T20:20:39+00:00"}]});
        let reply = HttpReply::new(200, None, body.to_string().into_bytes());
        let Ok(Lookup::Found(w)) = parse_crate(&reply) else {
            panic!("crate not read")
        };
        assert_eq!((w.title.as_str(), w.year), ("serde", Some(2014)));
        let missing = HttpReply::new(
            404,
            None,
            br#"{"errors":[{"detail":"crate `nope` does not exist"}]}"#.to_vec(),
        );
        assert_eq!(parse_crate(&missing), Ok(Lookup::NotFound));
    }
}
