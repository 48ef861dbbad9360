//! The one configuration of every property test in the repository: the unit tests
//! under `src/` use it as `crate::proptest_config`, the integration tests include this
//! file with `#[path = "../src/proptest_config.rs"]`.
//!
//! An ordinary run (`cargo test`, CI) is deterministic: every property test draws its
//! cases from the ChaCha generator with one fixed seed, after replaying the failures
//! recorded in its `*.proptest-regressions` file, so two runs on two machines test the
//! same inputs and pass or fail together. proptest lets its environment variables
//! (`PROPTEST_RNG_SEED`, `PROPTEST_CASES` …) override any configuration; set by hand
//! they change what runs, and CI (`.ci/run`) unsets them.
//!
//! Exploration searches new inputs: `CITEPROOF_PROPTEST_EXPLORE=N cargo test` draws
//! from random seeds (or `PROPTEST_RNG_SEED`, when set) and runs N times each test's
//! cases. A failure it finds is written to the test's regressions file: commit that
//! file, and every later run replays the case (README.md, "Run the tests").

use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// The seed of every deterministic run.
const SEED: u64 = 0x6369_7465_7072_6f6f;

/// The environment variable that turns exploration on; its value multiplies the cases.
pub const EXPLORE: &str = "CITEPROOF_PROPTEST_EXPLORE";

/// The configuration of a property test that runs `cases` cases in a deterministic run.
pub fn config(cases: u32) -> Config {
    match exploration_factor() {
        Some(factor) => Config {
            cases: cases.saturating_mul(factor),
            ..Config::default()
        },
        None => deterministic(cases),
    }
}

/// The seed and the generator fixed; everything else proptest's default.
fn deterministic(cases: u32) -> Config {
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(SEED),
        ..Config::default()
    }
}

/// `Some(factor)` when exploration is asked for (a positive whole number; anything
/// else in the variable is an error, not silently a deterministic run).
fn exploration_factor() -> Option<u32> {
    let value = std::env::var(EXPLORE).ok()?;
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    match value.parse::<u32>() {
        Ok(0) | Err(_) => {
            panic!("{EXPLORE}={value}: expected a positive whole number (the case multiplier)")
        }
        Ok(factor) => Some(factor),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ordinary_run_has_a_fixed_seed() {
        if std::env::var_os(EXPLORE).is_some() {
            return;
        }
        let config = config(7);
        assert_eq!(config.cases, 7);
        assert_eq!(config.rng_seed, RngSeed::Fixed(SEED));
        assert_eq!(config.rng_algorithm, RngAlgorithm::ChaCha);
    }
}
