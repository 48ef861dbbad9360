//! `citeproof index stats` as text.

use super::store::IndexStats;

/// Bytes in a readable unit.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The stats as lines of text.
pub fn render(stats: &IndexStats) -> String {
    let mut out = String::new();
    out.push_str(&format!("index    {}\n", stats.location.display()));
    out.push_str(&format!("engine   {}\n", stats.engine));
    out.push_str(&format!(
        "built    {}\n",
        stats
            .built
            .as_deref()
            .unwrap_or("never (no build finished)")
    ));
    if let Some(created) = &stats.created {
        out.push_str(&format!("created  {created}\n"));
    }
    let records: u64 = stats.records.iter().map(|c| c.records).sum();
    out.push_str(&format!(
        "size     {} ({:.0} bytes per work)\n",
        human_bytes(stats.bytes),
        stats.bytes as f64 / stats.works.max(1) as f64
    ));
    out.push_str(&format!("works    {}\n", stats.works));
    out.push_str(&format!("records  {records}\n"));
    for c in stats.records.iter().filter(|c| c.records > 0) {
        out.push_str(&format!("  {:<9} {}\n", c.source, c.records));
    }
    out.push_str(&format!(
        "notices  {} (retractions and concerns, by DOI)\n",
        stats.notices
    ));
    out.push_str(&format!("imports  {} files\n", stats.imports.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }
}
