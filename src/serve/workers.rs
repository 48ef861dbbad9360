//! The threads the requests' work runs on: as many as requests may run at once
//! (`max-concurrency`), started with the service and kept for its life.
//!
//! Why not tokio's blocking pool: it starts a thread whenever none is idle and lets
//! an idle one go after ten seconds, so under a steady load a few dozen threads come
//! and go. The parsers' per-thread state follows the threads: the regex crate keeps a
//! matching cache per thread that uses a pattern at once (its lazy DFA grows to a
//! few MiB), the stemmer a memo per thread. With a thread per slot that state is
//! bounded by `max-concurrency` and stays warm; with the blocking pool the service's
//! resident memory rose by a quarter over a 30-minute soak (docs/serve.md, Soak).

use crossbeam_channel::Sender;

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that run the requests' work; clones share them.
#[derive(Debug, Clone)]
pub struct Workers {
    jobs: Sender<Job>,
}

impl Workers {
    /// `count` threads (at least one), each inside `runtime`'s context, so the work
    /// can wait on the network with `runtime.block_on` as it could on the blocking
    /// pool. The threads end when the `Workers` is dropped and their jobs are done.
    pub fn start(count: usize, runtime: tokio::runtime::Handle) -> std::io::Result<Workers> {
        let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
        for i in 0..count.max(1) {
            let queue = queue.clone();
            let runtime = runtime.clone();
            std::thread::Builder::new()
                .name(format!("citeproof-work-{i}"))
                .spawn(move || {
                    let _context = runtime.enter();
                    for job in queue {
                        job();
                    }
                })?;
        }
        Ok(Workers { jobs })
    }

    /// Run `work` on one of the threads and wait for its result; a panic in it is
    /// caught (the thread goes on) and returned as its message.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, String> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = answer.send(crate::panics::catch(work));
        });
        self.jobs
            .send(job)
            .map_err(|_| "the service's workers have stopped".to_string())?;
        match answered.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => Err(format!("it panicked: {panic}")),
            Err(_) => Err("its worker ended before it answered".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime")
    }

    #[test]
    fn work_runs_on_the_same_named_threads_inside_the_runtime() {
        let rt = runtime();
        let workers = Workers::start(2, rt.handle().clone()).expect("workers");
        let names: std::collections::BTreeSet<String> = rt.block_on(async {
            let mut names = std::collections::BTreeSet::new();
            for _ in 0..50 {
                let name = workers
                    .run(|| {
                        // The runtime's context is entered: a timer can be awaited.
                        let handle = tokio::runtime::Handle::current();
                        handle.block_on(tokio::time::sleep(std::time::Duration::ZERO));
                        std::thread::current().name().unwrap_or("").to_string()
                    })
                    .await
                    .expect("answer");
                names.insert(name);
            }
            names
        });
        assert!(!names.is_empty() && names.len() <= 2, "{names:?}");
        assert!(
            names.iter().all(|n| n.starts_with("citeproof-work-")),
            "{names:?}"
        );
    }

    #[test]
    fn a_panic_is_an_error_and_the_thread_goes_on() {
        let rt = runtime();
        let workers = Workers::start(1, rt.handle().clone()).expect("workers");
        rt.block_on(async {
            let failed = workers
                .run(|| -> u32 { panic!("a parser bug") })
                .await
                .expect_err("the panic");
            assert!(failed.contains("a parser bug"), "{failed}");
            assert_eq!(workers.run(|| 7).await, Ok(7));
        });
    }
}
