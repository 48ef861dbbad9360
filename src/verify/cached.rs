//! Verdicts and model answers kept in the resolution cache: their keys, and reading
//! and writing them. A cache that cannot be read or written only costs a rerun.

use sha2::{Digest, Sha256};

use crate::cache::Cache;

/// A cache key: the SHA-256 (hex) of the key material.
pub(super) fn digest_key(material: &serde_json::Value) -> String {
    let digest = Sha256::digest(material.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A verdict found in the cache (`None` when absent, unreadable or no cache).
pub(super) async fn cached<T: serde::de::DeserializeOwned>(
    cache: Option<&Cache>,
    namespace: &str,
    key: &str,
) -> Option<T> {
    let entry = cache?.get_async(namespace, key).await.ok()??;
    if !entry.found {
        return None;
    }
    serde_json::from_value(entry.value).ok()
}

/// Keep a verdict; a cache that cannot be written only costs a later rerun.
pub(super) async fn store<T: serde::Serialize>(
    cache: Option<&Cache>,
    namespace: &str,
    key: String,
    value: &T,
) {
    if let Some(cache) = cache
        && let Ok(value) = serde_json::to_value(value)
    {
        let _ = cache
            .put_many_async(namespace, vec![(key, true, value)])
            .await;
    }
}
