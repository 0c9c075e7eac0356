//! The store (contract §15.4): runs, their labels, tokens and sessions, in SQLite or
//! PostgreSQL behind one type. Every query is one SQL string that both run unchanged, through
//! sqlx's `Any` driver; only the migrations' column types differ (`BLOB` against `BYTEA`).
//! Several servers may share one PostgreSQL store: nothing is kept in a server's memory that
//! another one needs.

use std::path::{Path, PathBuf};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

mod migrations;
pub mod runs;
pub mod tokens;

pub use migrations::SCHEMA_VERSION;

/// Where the store is: `sqlite:PATH` (or `sqlite:` for the default path) or `postgres://…`.
#[derive(Clone, PartialEq, Eq)]
pub enum StoreUrl {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://` or `postgresql://`).
    Postgres(String),
}

impl std::fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl StoreUrl {
    /// Reads `--store`: `sqlite:` (the default file, [`default_sqlite_path`]), `sqlite:PATH`, or
    /// `postgres://…`.
    pub fn parse(text: &str) -> Result<StoreUrl, String> {
        if let Some(path) = text.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() {
                return default_sqlite_path().map(StoreUrl::Sqlite);
            }
            return Ok(StoreUrl::Sqlite(PathBuf::from(path)));
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(StoreUrl::Postgres(text.to_string()));
        }
        Err(format!(
            "--store {:?} is neither sqlite:PATH (or sqlite: for {}) nor postgres://…",
            without_password(text),
            default_sqlite_path().map_or_else(|e| e, |p| p.display().to_string())
        ))
    }

    /// The store as messages and the start-up line name it: the file, or the PostgreSQL URL
    /// without its password.
    pub fn describe(&self) -> String {
        match self {
            StoreUrl::Sqlite(p) => format!("sqlite:{}", p.display()),
            StoreUrl::Postgres(u) => without_password(u),
        }
    }
}

/// The default SQLite file: `$XDG_DATA_HOME/figeval/figeval.db`, else
/// `~/.local/share/figeval/figeval.db`.
pub fn default_sqlite_path() -> Result<PathBuf, String> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
            Some(h) => PathBuf::from(h).join(".local/share"),
            None => {
                return Err(
                    "neither XDG_DATA_HOME nor HOME is set: give --store sqlite:PATH".into(),
                )
            }
        },
    };
    Ok(base.join("figeval").join("figeval.db"))
}

/// A connection URL with the password of its user info replaced by `[redacted]`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((user_info, host)) => {
            let user = user_info.split(':').next().unwrap_or("");
            let hidden = if user_info.contains(':') {
                ":[redacted]"
            } else {
                ""
            };
            let query_start = tail.find('?').unwrap_or(tail.len());
            format!("{scheme}://{user}{hidden}@{host}{}", &tail[..query_start])
        }
        None => {
            let query_start = tail.find('?').unwrap_or(tail.len());
            format!("{scheme}://{authority}{}", &tail[..query_start])
        }
    }
}

/// Which database a store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite (one server).
    Sqlite,
    /// PostgreSQL (one server or several).
    Postgres,
}

/// Why the store refused or failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The store cannot be opened or reached (at start).
    Open(String),
    /// The store's schema is newer than this figeval's.
    Newer {
        /// The store's version.
        found: i64,
        /// The newest this figeval knows.
        known: i64,
    },
    /// The store refused a write: a read-only file or database, a full disk, no permission.
    Unwritable(String),
    /// Any other failure of the database.
    Failed(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Open(m) | StoreError::Failed(m) => f.write_str(m),
            StoreError::Newer { found, known } => write!(
                f,
                "the store's schema is version {found}, and this figeval knows versions up to \
                 {known}: it was last opened by a newer figeval, so this one leaves it alone \
                 (run that newer figeval, or give another --store)"
            ),
            StoreError::Unwritable(m) => write!(f, "the store cannot be written: {m}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        if let sqlx::Error::Database(db) = &e {
            let code = db.code().map(|c| c.into_owned()).unwrap_or_default();
            // SQLite: READONLY (8), IOERR (10), FULL (13), CANTOPEN (14), PERM (3), by their
            // primary code; PostgreSQL: read_only_sql_transaction, insufficient_privilege,
            // disk_full, out_of_memory, insufficient_resources.
            let sqlite_primary = code.parse::<i64>().ok().map(|c| c & 0xff);
            if matches!(sqlite_primary, Some(3 | 8 | 10 | 13 | 14))
                || matches!(
                    code.as_str(),
                    "25006" | "42501" | "53100" | "53200" | "53000"
                )
            {
                return StoreError::Unwritable(db.message().to_string());
            }
            return StoreError::Failed(format!("the store failed: {}", db.message()));
        }
        StoreError::Failed(format!("the store failed: {e}"))
    }
}

/// The store: a pool of connections to SQLite or PostgreSQL, migrated to [`SCHEMA_VERSION`].
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

impl Store {
    /// Opens the store (a SQLite file and its folder are created when missing) and runs its
    /// migrations; a store of a newer schema is refused ([`StoreError::Newer`]).
    pub async fn open(url: &StoreUrl) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (connect, backend, max) = match url {
            StoreUrl::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        StoreError::Open(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                (sqlite_url(path), Backend::Sqlite, 8)
            }
            StoreUrl::Postgres(u) => (u.clone(), Backend::Postgres, 16),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(std::time::Duration::from_secs(30))
            .connect(&connect)
            .await
            .map_err(|e| {
                StoreError::Open(format!(
                    "cannot open the store {}: {}",
                    url.describe(),
                    open_error(&e)
                ))
            })?;
        let store = Store { pool, backend };
        if backend == Backend::Sqlite {
            // Readers do not wait for a writer, and a commit is one append: WAL. A read-only
            // file keeps the journal it has (the reads still work).
            let _ = sqlx::query("PRAGMA journal_mode=WAL")
                .fetch_optional(&store.pool)
                .await;
        }
        migrations::run(&store).await.map_err(|e| match e {
            StoreError::Newer { .. } => e,
            other => StoreError::Open(format!(
                "cannot prepare the store {}: {other}",
                url.describe()
            )),
        })?;
        Ok(store)
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The schema version the store is at.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT version FROM figeval_schema")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>(0)?)
    }

    /// Waits for the connections in use to be returned, then closes them all.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }
}

/// The sqlx URL of a SQLite file, created when missing; `?` and `#` in the path are
/// percent-encoded (sqlx decodes the path).
fn sqlite_url(path: &Path) -> String {
    let mut url = String::from("sqlite://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push_str("?mode=rwc");
    url
}

/// What a failed connection says, without the URL (which may hold a password).
fn open_error(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => db.message().to_string(),
        other => other.to_string(),
    }
}

/// Reads an `i64` column, a failure being the store's.
pub(crate) fn int(row: &AnyRow, column: &str) -> Result<i64, StoreError> {
    Ok(row.try_get::<i64, _>(column)?)
}

/// Reads a text column.
pub(crate) fn text(row: &AnyRow, column: &str) -> Result<String, StoreError> {
    Ok(row.try_get::<String, _>(column)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_described_without_its_password() {
        let u = StoreUrl::parse("postgres://figeval:s3cret@db.internal:5432/runs?sslmode=require")
            .unwrap();
        assert_eq!(
            u.describe(),
            "postgres://figeval:[redacted]@db.internal:5432/runs"
        );
        assert!(!format!("{u:?}").contains("s3cret"));
        let bad = StoreUrl::parse("mysql://root:hunter2@x/y").unwrap_err();
        assert!(!bad.contains("hunter2"), "{bad}");
    }

    #[test]
    fn sqlite_urls_name_a_file_or_the_default() {
        assert_eq!(
            StoreUrl::parse("sqlite:/tmp/a b.db").unwrap(),
            StoreUrl::Sqlite(PathBuf::from("/tmp/a b.db"))
        );
        assert_eq!(
            sqlite_url(Path::new("/tmp/a?b.db")),
            "sqlite:///tmp/a%3Fb.db?mode=rwc"
        );
        assert!(
            matches!(StoreUrl::parse("sqlite:"), Ok(StoreUrl::Sqlite(p)) if p.ends_with("figeval/figeval.db"))
        );
    }
}
