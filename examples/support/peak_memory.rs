//! Peak resident memory of this process (Linux `/proc/self/status` `VmHWM`), and a
//! reset of the peak (`/proc/self/clear_refs`), so each phase of a benchmark reports
//! its own peak.
#![allow(dead_code)]

/// The peak resident set since start or the last [`reset_peak`], in MiB.
pub fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Start measuring a new peak (the current resident set becomes the peak).
pub fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// "peak 123 MiB" (or "peak ?" where the platform does not say).
pub fn peak_text() -> String {
    peak_rss_mib().map_or("peak memory ?".to_string(), |m| {
        format!("peak memory {m:.0} MiB")
    })
}

/// The process's anonymous resident memory now (`RssAnon`: heap and stacks, not the
/// pages of memory-mapped files, which the kernel may drop), in MiB.
pub fn anon_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("RssAnon:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Samples [`anon_rss_mib`] every 5 ms on a thread until [`AnonPeak::stop`]: the
/// kernel keeps no peak of anonymous memory alone.
pub struct AnonPeak {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    sampler: std::thread::JoinHandle<f64>,
}

impl AnonPeak {
    pub fn start() -> AnonPeak {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let sampler = std::thread::spawn(move || {
            let mut peak = 0.0f64;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(anon_rss_mib().unwrap_or(0.0));
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak.max(anon_rss_mib().unwrap_or(0.0))
        });
        AnonPeak { stop, sampler }
    }

    /// "anonymous 123 MiB": the peak sampled.
    pub fn stop(self) -> String {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let peak = self.sampler.join().unwrap_or(0.0);
        format!("anonymous {peak:.0} MiB")
    }
}
