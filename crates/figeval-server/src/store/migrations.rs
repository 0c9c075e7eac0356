//! Numbered migrations, run at start (contract §15.4). The store records the version it is at
//! in `figeval_schema`; each migration runs in one transaction with the version's update, so a
//! server killed halfway leaves the store at the version before. A store at a newer version
//! than [`SCHEMA_VERSION`] is refused, with the reason.

use super::{int, Backend, Store, StoreError};

/// The newest schema this figeval knows.
pub const SCHEMA_VERSION: i64 = 1;

/// One migration: its statements, with `{blob}` for the binary type (`BLOB` in SQLite,
/// `BYTEA` in PostgreSQL), the only difference between the two.
struct Migration {
    version: i64,
    statements: &'static [&'static str],
}

const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    statements: &[
        // A stored run. `created_us` (microseconds since the epoch) and `id` order the runs,
        // newest first, and are the keyset cursor. `report` and `capture` are zlib-compressed
        // text; `summary` is the report's overall summary as JSON, for listings and trends
        // without reading reports; `labels` the labels as the JSON object shown.
        "CREATE TABLE runs (
            id TEXT PRIMARY KEY,
            created_us BIGINT NOT NULL,
            name TEXT NOT NULL,
            labels TEXT NOT NULL,
            dataset TEXT NOT NULL,
            corpus_id TEXT NOT NULL,
            n BIGINT NOT NULL,
            summary TEXT NOT NULL,
            pushed_by TEXT,
            report {blob} NOT NULL,
            capture {blob},
            capture_bytes BIGINT
        )",
        "CREATE INDEX runs_newest ON runs (created_us, id)",
        "CREATE INDEX runs_by_dataset ON runs (dataset, created_us, id)",
        "CREATE INDEX runs_by_corpus ON runs (corpus_id, created_us, id)",
        // The labels again, one row each, for `label=k:v` filters.
        "CREATE TABLE run_labels (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (run_id, key)
        )",
        "CREATE INDEX run_labels_by_value ON run_labels (key, value, run_id)",
        // Tokens: only the SHA-256 of each is kept.
        "CREATE TABLE tokens (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            scope TEXT NOT NULL,
            hash TEXT NOT NULL UNIQUE,
            created_us BIGINT NOT NULL,
            revoked_us BIGINT
        )",
        // The page's sessions: the SHA-256 of the cookie, the token it was made from.
        "CREATE TABLE sessions (
            hash TEXT PRIMARY KEY,
            token_id TEXT NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
            created_us BIGINT NOT NULL,
            expires_us BIGINT NOT NULL
        )",
    ],
}];

/// Brings the store to [`SCHEMA_VERSION`], or refuses a newer one.
pub(super) async fn run(store: &Store) -> Result<(), StoreError> {
    let mut conn = store.pool().acquire().await?;
    if store.backend() == Backend::Postgres {
        // Two servers starting on one database: one migrates, the other waits, then finds the
        // store current. The lock ends with the session (or below).
        sqlx::query("SELECT pg_advisory_lock(20261207)")
            .execute(&mut *conn)
            .await?;
    }
    let result = migrate(store.backend(), &mut conn).await;
    if store.backend() == Backend::Postgres {
        let _ = sqlx::query("SELECT pg_advisory_unlock(20261207)")
            .execute(&mut *conn)
            .await;
    }
    result
}

async fn migrate(
    backend: Backend,
    conn: &mut sqlx::pool::PoolConnection<sqlx::Any>,
) -> Result<(), StoreError> {
    let version = match sqlx::query("SELECT version FROM figeval_schema")
        .fetch_optional(&mut **conn)
        .await
    {
        Ok(Some(row)) => int(&row, "version")?,
        Ok(None) => 0,
        Err(_) => {
            // A new store: only the version table is created outside a migration.
            sqlx::query("CREATE TABLE IF NOT EXISTS figeval_schema (version BIGINT NOT NULL)")
                .execute(&mut **conn)
                .await?;
            0
        }
    };
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    let blob = match backend {
        Backend::Sqlite => "BLOB",
        Backend::Postgres => "BYTEA",
    };
    for m in MIGRATIONS.iter().filter(|m| m.version > version) {
        let mut tx = sqlx::Connection::begin(&mut **conn).await?;
        for s in m.statements {
            sqlx::query(&s.replace("{blob}", blob))
                .execute(&mut *tx)
                .await?;
        }
        let updated = sqlx::query("UPDATE figeval_schema SET version = $1")
            .bind(m.version)
            .execute(&mut *tx)
            .await?;
        if updated.rows_affected() == 0 {
            sqlx::query("INSERT INTO figeval_schema (version) VALUES ($1)")
                .bind(m.version)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_one_after_another_up_to_the_schema_version() {
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
        }
        assert_eq!(MIGRATIONS.last().map(|m| m.version), Some(SCHEMA_VERSION));
    }
}
