//! Panics caught at the edges where one bad input must not cost the rest (a reader on
//! one file, one answer of a batch, one language-server request): run the work, and
//! turn a panic into its message for the error that takes its place.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What a panic said (`panic!("…")` gives a `&str` or a `String`).
pub fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Run `f`; a panic becomes `Err` with its message.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| message(payload.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_of_message_are_read() {
        assert_eq!(catch(|| 7), Ok(7));
        assert_eq!(catch(|| -> u8 { panic!("boom") }), Err("boom".to_string()));
        let n = 3;
        assert_eq!(
            catch(|| -> u8 { panic!("boom {n}") }),
            Err("boom 3".to_string())
        );
    }
}
