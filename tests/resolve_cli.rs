//! `citeproof resolve` and `citeproof cache`, run as the real binary against the mock
//! scholarly world (tests/support) with its fixture works.

mod bin_support;
mod support;

#[path = "resolve_cli/cascade.rs"]
mod cascade;
#[path = "resolve_cli/check.rs"]
mod check;
#[path = "resolve_cli/failures.rs"]
mod failures;
#[path = "resolve_cli/helpers.rs"]
mod helpers;
#[path = "resolve_cli/kinds.rs"]
mod kinds;
#[path = "resolve_cli/local.rs"]
mod local;
#[path = "resolve_cli/platforms.rs"]
mod platforms;
