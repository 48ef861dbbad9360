//! The PDF reader catches the panics of the engine it wraps (`pdf-extract`, `lopdf`)
//! and reports them as `PdfError::Panicked`: by design, a malformed PDF is an error
//! naming the file, not a crash. libFuzzer's panic hook aborts on every panic, caught
//! or not, so a target over that reader lets the panics raised inside dependencies
//! unwind to the reader's catch; a panic in citeproof's own code still aborts and is
//! a finding.

use std::sync::Once;

/// Install, once, a panic hook that passes over panics raised in a dependency's
/// source (cargo keeps crates.io sources under `registry/src/`, git ones under
/// `git/checkouts/`, wherever `CARGO_HOME` is) and hands every other panic to
/// libFuzzer's hook.
pub fn tolerate() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_dependency = info.location().is_some_and(|at| {
                at.file().contains("/registry/src/") || at.file().contains("/git/checkouts/")
            });
            if !in_dependency {
                fuzzer_hook(info);
            }
        }));
    });
}
