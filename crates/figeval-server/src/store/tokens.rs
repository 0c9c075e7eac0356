//! Tokens and the page's sessions (contract §15.6). The store keeps the SHA-256 of each token
//! and of each session cookie, never the value.

use sqlx::Row;

use super::{int, text, Store, StoreError};
use crate::clock;
use crate::secret::{self, Secret};

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// See the runs (list, read, captures), the deployments, and search through them.
    Read,
    /// Push runs (and rename or relabel the runs it pushed); not list or read them.
    Push,
    /// Everything, deleting runs included.
    Admin,
}

impl Scope {
    /// Every scope.
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Push, Scope::Admin];

    /// The scope's name: `read`, `push`, `admin`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Push => "push",
            Scope::Admin => "admin",
        }
    }
}

impl std::str::FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Scope, String> {
        Scope::ALL
            .into_iter()
            .find(|sc| sc.name() == s)
            .ok_or_else(|| format!("{s:?} is not a scope: read, push or admin"))
    }
}

/// A token as listed: never its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// Its name, unique in the store.
    pub name: String,
    /// Its scope.
    pub scope: Scope,
    /// When it was made, microseconds since the epoch.
    pub created_us: i64,
    /// When it was revoked.
    pub revoked_us: Option<i64>,
}

/// Who a valid token or session is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// The token's id in the store.
    pub token_id: String,
    /// The token's name.
    pub name: String,
    /// Its scope.
    pub scope: Scope,
}

/// How long a session lasts: 12 hours.
pub const SESSION_US: i64 = 12 * 3600 * 1_000_000;

/// The longest token name.
pub const MAX_TOKEN_NAME: usize = 64;

fn holder(row: &sqlx::any::AnyRow) -> Result<Holder, StoreError> {
    Ok(Holder {
        token_id: text(row, "id")?,
        name: text(row, "name")?,
        scope: text(row, "scope")?
            .parse()
            .map_err(|e| StoreError::Failed(format!("the store holds a token whose {e}")))?,
    })
}

impl Store {
    /// Makes a token named `name` and stores its hash; the value is returned once.
    pub async fn create_token(&self, name: &str, scope: Scope) -> Result<Secret, StoreError> {
        if name.is_empty()
            || name.chars().count() > MAX_TOKEN_NAME
            || name.chars().any(char::is_control)
        {
            return Err(StoreError::Failed(format!(
                "a token's name is 1 to {MAX_TOKEN_NAME} characters without control characters"
            )));
        }
        let token = Secret::new_token().map_err(StoreError::Failed)?;
        let id = secret::new_run_id().map_err(StoreError::Failed)?;
        let taken = sqlx::query("SELECT id FROM tokens WHERE name = $1")
            .bind(name.to_string())
            .fetch_optional(self.pool())
            .await?;
        if taken.is_some() {
            return Err(StoreError::Failed(format!(
                "a token named {name:?} exists already (names stay taken after a revoke, so \
                 the runs it pushed keep naming it): choose another name"
            )));
        }
        sqlx::query(
            "INSERT INTO tokens (id, name, scope, hash, created_us) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(name.to_string())
        .bind(scope.name())
        .bind(token.digest())
        .bind(clock::now_us())
        .execute(self.pool())
        .await?;
        Ok(token)
    }

    /// Every token, oldest first.
    pub async fn list_tokens(&self) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT name, scope, created_us, revoked_us FROM tokens ORDER BY created_us, name",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TokenInfo {
                    name: text(r, "name")?,
                    scope: text(r, "scope")?.parse().map_err(StoreError::Failed)?,
                    created_us: int(r, "created_us")?,
                    revoked_us: r.try_get::<Option<i64>, _>("revoked_us")?,
                })
            })
            .collect()
    }

    /// Revokes the token named `name` and ends its sessions; `false` when no live token has
    /// that name.
    pub async fn revoke_token(&self, name: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let done =
            sqlx::query("UPDATE tokens SET revoked_us = $1 WHERE name = $2 AND revoked_us IS NULL")
                .bind(clock::now_us())
                .bind(name.to_string())
                .execute(&mut *tx)
                .await?;
        sqlx::query(
            "DELETE FROM sessions WHERE token_id IN (SELECT id FROM tokens WHERE name = $1)",
        )
        .bind(name.to_string())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() > 0)
    }

    /// How many tokens are not revoked.
    pub async fn live_tokens(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM tokens WHERE revoked_us IS NULL")
            .fetch_one(self.pool())
            .await?;
        int(&row, "n")
    }

    /// Who holds `token`, when it is a live token.
    pub async fn token_holder(&self, token: &Secret) -> Result<Option<Holder>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, scope FROM tokens WHERE hash = $1 AND revoked_us IS NULL",
        )
        .bind(token.digest())
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(holder).transpose()
    }

    /// Starts a session for `holder`; the cookie's value is returned.
    pub async fn create_session(&self, holder: &Holder) -> Result<Secret, StoreError> {
        let cookie = Secret::new_session().map_err(StoreError::Failed)?;
        let now = clock::now_us();
        // Ended sessions are removed as new ones come, so the table holds live ones only.
        sqlx::query("DELETE FROM sessions WHERE expires_us <= $1")
            .bind(now)
            .execute(self.pool())
            .await?;
        sqlx::query(
            "INSERT INTO sessions (hash, token_id, created_us, expires_us) VALUES ($1, $2, $3, $4)",
        )
        .bind(cookie.digest())
        .bind(holder.token_id.clone())
        .bind(now)
        .bind(now + SESSION_US)
        .execute(self.pool())
        .await?;
        Ok(cookie)
    }

    /// Who holds the session `cookie`, when it is live and its token is not revoked.
    pub async fn session_holder(&self, cookie: &Secret) -> Result<Option<Holder>, StoreError> {
        let row = sqlx::query(
            "SELECT t.id AS id, t.name AS name, t.scope AS scope FROM sessions s \
             JOIN tokens t ON t.id = s.token_id \
             WHERE s.hash = $1 AND s.expires_us > $2 AND t.revoked_us IS NULL",
        )
        .bind(cookie.digest())
        .bind(clock::now_us())
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(holder).transpose()
    }

    /// Ends the session `cookie` (and every expired one).
    pub async fn end_session(&self, cookie: &Secret) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE hash = $1 OR expires_us <= $2")
            .bind(cookie.digest())
            .bind(clock::now_us())
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
