//! Versioned schema migrations: each component (the cache, the index) lists its
//! migrations in order; `citeproof_migrations` records which were applied. A process
//! takes a transaction-level advisory lock first, so concurrent starts apply each
//! migration once, and a database migrated by a newer citeproof is refused.

use postgres::GenericClient;

/// One step of a component's schema.
pub struct Migration {
    pub version: i32,
    pub sql: &'static str,
}

/// The key of the advisory lock all citeproof migrations take.
const LOCK_KEY: i64 = 0x6369_7465_7072_6f6f; // "citeproo"

/// Bring `component`'s schema up to the last of `migrations`; returns the versions
/// applied now.
pub fn migrate(
    client: &mut impl GenericClient,
    component: &str,
    migrations: &[Migration],
) -> Result<Vec<i32>, String> {
    let text = |e: postgres::Error| super::error_text(&e);
    client.batch_execute("BEGIN").map_err(text)?;
    let result = client
        .batch_execute(&format!(
            "SELECT pg_advisory_xact_lock({LOCK_KEY});
             CREATE TABLE IF NOT EXISTS citeproof_migrations(
                 component TEXT NOT NULL,
                 version INTEGER NOT NULL,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                 PRIMARY KEY (component, version))"
        ))
        .map_err(text)
        .and_then(|()| apply(client, component, migrations));
    let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
    client
        .batch_execute(end)
        .map_err(|e| super::error_text(&e))?;
    result
}

fn apply(
    client: &mut impl GenericClient,
    component: &str,
    migrations: &[Migration],
) -> Result<Vec<i32>, String> {
    let text = |e: postgres::Error| super::error_text(&e);
    let current: i32 = client
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM citeproof_migrations WHERE component = $1",
            &[&component],
        )
        .map_err(text)?
        .get(0);
    let known = migrations.last().map_or(0, |m| m.version);
    if current > known {
        return Err(format!(
            "the {component} schema in this database is version {current}, newer than this \
             citeproof knows ({known}): upgrade citeproof"
        ));
    }
    let mut applied = Vec::new();
    for m in migrations.iter().filter(|m| m.version > current) {
        client
            .batch_execute(m.sql)
            .map_err(|e| format!("{component} migration {}: {}", m.version, text(e)))?;
        client
            .execute(
                "INSERT INTO citeproof_migrations(component, version) VALUES ($1, $2)",
                &[&component, &m.version],
            )
            .map_err(text)?;
        applied.push(m.version);
    }
    Ok(applied)
}
