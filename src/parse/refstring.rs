//! PLACEHOLDER: implemented by the reference-string parser task.

use crate::model::RefFields;

/// Parse one formatted reference string into fields.
pub fn parse(raw: &str) -> RefFields {
    let _ = raw;
    RefFields::default()
}
