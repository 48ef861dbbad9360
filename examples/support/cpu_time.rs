//! CPU time of this process so far (Linux `/proc/self/stat`), split into user and
//! system time: a benchmark on a shared machine reports the CPU a run took beside its
//! wall time, which other load stretches.

/// User and system CPU seconds of this process (all threads), if the platform says.
pub fn user_system() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) closed by the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    let hz = 100.0; // USER_HZ: 100 on every Linux platform Rust targets
    Some((ticks(11)? / hz, ticks(12)? / hz))
}
