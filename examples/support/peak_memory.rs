//! Peak resident memory of this process (Linux `/proc/self/status` `VmHWM`), and a
//! reset of the peak (`/proc/self/clear_refs`), so each phase of a benchmark reports
//! its own peak.

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
