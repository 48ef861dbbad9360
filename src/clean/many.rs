//! Many answers cleaned by one cleaner: its resolver, cache, HTTP clients and sentence
//! model are shared, and `workers` threads take the answers in turn, so alignment runs
//! in parallel on the CPUs while network waits overlap. Each answer gets its own result
//! in the order given; one that fails (or hits a bug) loses nothing of the others.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{CleanError, CleanRequest, Cleaned, Cleaner, clean_blocking};

/// Workers when the caller does not say: one per CPU.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Clean every request with `workers` threads (at least one, at most one per request).
/// Not from inside a tokio runtime (see [`clean_blocking`]).
pub fn clean_many(
    cleaner: &Cleaner,
    requests: &[CleanRequest],
    workers: usize,
) -> Vec<Result<Cleaned, CleanError>> {
    let workers = workers.clamp(1, requests.len().max(1));
    let next = AtomicUsize::new(0);
    let take = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(request) = requests.get(i) else {
                return done;
            };
            done.push((i, clean_one(cleaner, request)));
        }
    };
    let mut results: Vec<Option<Result<Cleaned, CleanError>>> =
        requests.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers).map(|_| scope.spawn(take)).collect();
        let mut finished = take();
        for handle in handles {
            // `clean_one` catches panics, so a worker always returns its results.
            finished.extend(handle.join().unwrap_or_default());
        }
        for (i, result) in finished {
            results[i] = Some(result);
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(CleanError::Runtime("not cleaned".into()))))
        .collect()
}

fn clean_one(cleaner: &Cleaner, request: &CleanRequest) -> Result<Cleaned, CleanError> {
    crate::panics::catch(|| clean_blocking(cleaner, request)).unwrap_or_else(|why| {
        Err(CleanError::Runtime(format!(
            "internal error (a bug in citeproof, please report it): {why}"
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::CleanerSettings;

    fn offline_cleaner() -> Cleaner {
        Cleaner::new(CleanerSettings::default()).expect("the default cleaner builds")
    }

    fn request(answer: &str) -> CleanRequest {
        CleanRequest {
            answer: answer.to_string(),
            ..CleanRequest::default()
        }
    }

    #[test]
    fn results_come_back_in_order_and_equal_one_by_one_cleaning() {
        let cleaner = offline_cleaner();
        let requests: Vec<CleanRequest> = (0..9)
            .map(|i| {
                request(&format!(
                    "Claim number {i} is made here [1].\n\nReferences:\n[1] Doe J. A study of {i} things. 2020."
                ))
            })
            .collect();
        let many = clean_many(&cleaner, &requests, 4);
        assert_eq!(many.len(), requests.len());
        for (request, result) in requests.iter().zip(&many) {
            let one = clean_blocking(&cleaner, request).unwrap();
            let got = result.as_ref().unwrap();
            assert_eq!(
                serde_json::to_value(got).unwrap(),
                serde_json::to_value(&one).unwrap()
            );
        }
    }

    #[test]
    fn a_bad_request_fails_alone() {
        let cleaner = offline_cleaner();
        let mut bad = request("Text [1].");
        bad.options = Some(crate::clean::CleanOptions {
            threshold: Some(7.0),
            ..Default::default()
        });
        let results = clean_many(
            &cleaner,
            &[request("Fine [1]."), bad, request("Also fine.")],
            2,
        );
        assert!(results[0].is_ok() && results[2].is_ok());
        assert!(results[1].as_ref().is_err_and(CleanError::is_bad_request));
    }

    #[test]
    fn no_requests_no_results() {
        assert!(clean_many(&offline_cleaner(), &[], 8).is_empty());
    }
}
