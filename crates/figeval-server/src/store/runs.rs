//! Stored runs: insert, list (filters and a keyset cursor, newest first), read, rename and
//! relabel, delete. A run's report is immutable; its name and labels are not.

use std::collections::BTreeMap;

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{int, text, Store, StoreError};

/// A run's labels: key → value, in key order.
pub type Labels = BTreeMap<String, String>;

/// A run to store: what listings show of it, its report and its capture.
#[derive(Debug, Clone)]
pub struct NewRun {
    /// Its metadata (`capture_bytes` is the capture's size before compression).
    pub meta: RunMeta,
    /// The report's text, compressed.
    pub report: Vec<u8>,
    /// Its capture, compressed.
    pub capture: Option<Vec<u8>>,
}

/// What a listing shows of a run (everything but its report and capture).
#[derive(Debug, Clone, PartialEq)]
pub struct RunMeta {
    /// Its id.
    pub id: String,
    /// When it was stored, microseconds since the epoch.
    pub created_us: i64,
    /// Its name.
    pub name: String,
    /// Its labels.
    pub labels: Labels,
    /// Its dataset key.
    pub dataset: String,
    /// Its corpus.
    pub corpus_id: String,
    /// Its `n`.
    pub n: i64,
    /// Its overall summary, JSON text.
    pub summary: String,
    /// The pushing token's name.
    pub pushed_by: Option<String>,
    /// The capture's size in bytes, when one is stored.
    pub capture_bytes: Option<i64>,
}

/// Which runs to list.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only this dataset key.
    pub dataset: Option<String>,
    /// Only this corpus.
    pub corpus: Option<String>,
    /// Only runs carrying every one of these labels.
    pub labels: Vec<(String, String)>,
    /// Only runs older than this `(created_us, id)` (the cursor).
    pub before: Option<(i64, String)>,
    /// At most this many.
    pub limit: i64,
}

const META: &str =
    "id, created_us, name, labels, dataset, corpus_id, n, summary, pushed_by, capture_bytes";

fn meta(row: &AnyRow) -> Result<RunMeta, StoreError> {
    let labels_json = text(row, "labels")?;
    let labels: Labels = serde_json::from_str(&labels_json).map_err(|e| {
        StoreError::Failed(format!("the store holds labels that are not JSON: {e}"))
    })?;
    Ok(RunMeta {
        id: text(row, "id")?,
        created_us: int(row, "created_us")?,
        name: text(row, "name")?,
        labels,
        dataset: text(row, "dataset")?,
        corpus_id: text(row, "corpus_id")?,
        n: int(row, "n")?,
        summary: text(row, "summary")?,
        pushed_by: row.try_get::<Option<String>, _>("pushed_by")?,
        capture_bytes: row.try_get::<Option<i64>, _>("capture_bytes")?,
    })
}

fn labels_json(labels: &Labels) -> String {
    serde_json::to_string(labels).unwrap_or_else(|_| "{}".into())
}

impl Store {
    /// Stores a run and its labels in one transaction: after a crash it is there whole or not
    /// at all.
    pub async fn insert_run(&self, run: &NewRun) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        let m = &run.meta;
        sqlx::query(
            "INSERT INTO runs (id, created_us, name, labels, dataset, corpus_id, n, summary, \
             pushed_by, report, capture, capture_bytes) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&m.id)
        .bind(m.created_us)
        .bind(&m.name)
        .bind(labels_json(&m.labels))
        .bind(&m.dataset)
        .bind(&m.corpus_id)
        .bind(m.n)
        .bind(&m.summary)
        .bind(m.pushed_by.clone())
        .bind(run.report.clone())
        .bind(run.capture.clone())
        .bind(m.capture_bytes)
        .execute(&mut *tx)
        .await?;
        insert_labels(&mut tx, &m.id, &m.labels).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The runs `filter` asks for, newest first.
    pub async fn list_runs(&self, filter: &Filter) -> Result<Vec<RunMeta>, StoreError> {
        let mut sql = format!("SELECT {META} FROM runs WHERE 1 = 1");
        let mut n = 0;
        let mut next = || {
            n += 1;
            format!("${n}")
        };
        if filter.dataset.is_some() {
            sql += &format!(" AND dataset = {}", next());
        }
        if filter.corpus.is_some() {
            sql += &format!(" AND corpus_id = {}", next());
        }
        for _ in &filter.labels {
            let (k, v) = (next(), next());
            sql += &format!(
                " AND id IN (SELECT run_id FROM run_labels WHERE key = {k} AND value = {v})"
            );
        }
        if filter.before.is_some() {
            let (a, b, c) = (next(), next(), next());
            sql += &format!(" AND (created_us < {a} OR (created_us = {b} AND id < {c}))");
        }
        sql += &format!(" ORDER BY created_us DESC, id DESC LIMIT {}", next());
        let mut q = sqlx::query(&sql);
        if let Some(d) = &filter.dataset {
            q = q.bind(d.clone());
        }
        if let Some(c) = &filter.corpus {
            q = q.bind(c.clone());
        }
        for (k, v) in &filter.labels {
            q = q.bind(k.clone()).bind(v.clone());
        }
        if let Some((us, id)) = &filter.before {
            q = q.bind(*us).bind(*us).bind(id.clone());
        }
        q = q.bind(filter.limit);
        let rows = q.fetch_all(self.pool()).await?;
        rows.iter().map(meta).collect()
    }

    /// A run's metadata and its report's compressed text; `None` when there is no such run.
    pub async fn get_run(&self, id: &str) -> Result<Option<(RunMeta, Vec<u8>)>, StoreError> {
        let row = sqlx::query(&format!("SELECT {META}, report FROM runs WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(self.pool())
            .await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let report: Vec<u8> = row.try_get("report")?;
                Ok(Some((meta(&row)?, report)))
            }
        }
    }

    /// A run's metadata; `None` when there is no such run.
    pub async fn get_meta(&self, id: &str) -> Result<Option<RunMeta>, StoreError> {
        let row = sqlx::query(&format!("SELECT {META} FROM runs WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(meta).transpose()
    }

    /// A run's compressed capture: `None` when there is no such run, `Some(None)` when it has
    /// none.
    pub async fn get_capture(&self, id: &str) -> Result<Option<Option<Vec<u8>>>, StoreError> {
        let row = sqlx::query("SELECT capture FROM runs WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(self.pool())
            .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some(row.try_get::<Option<Vec<u8>>, _>("capture")?)),
        }
    }

    /// Renames or relabels a run (what is `None` stays); `false` when there is no such run.
    pub async fn update_run(
        &self,
        id: &str,
        name: Option<&str>,
        labels: Option<&Labels>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        // The write comes first in the transaction: SQLite then takes its write lock at once,
        // and two writers never deadlock upgrading from a read.
        let changed = sqlx::query(
            "UPDATE runs SET name = COALESCE($1, name), labels = COALESCE($2, labels) \
             WHERE id = $3",
        )
        .bind(name.map(str::to_string))
        .bind(labels.map(labels_json))
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() == 0 {
            return Ok(false);
        }
        if let Some(labels) = labels {
            sqlx::query("DELETE FROM run_labels WHERE run_id = $1")
                .bind(id.to_string())
                .execute(&mut *tx)
                .await?;
            insert_labels(&mut tx, id, labels).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes a run and its labels; `false` when there is no such run.
    pub async fn delete_run(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("DELETE FROM run_labels WHERE run_id = $1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        let gone = sqlx::query("DELETE FROM runs WHERE id = $1")
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(gone.rows_affected() > 0)
    }

    /// How many runs the store holds.
    pub async fn count_runs(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM runs")
            .fetch_one(self.pool())
            .await?;
        int(&row, "n")
    }
}

async fn insert_labels(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    labels: &Labels,
) -> Result<(), StoreError> {
    for (k, v) in labels {
        sqlx::query("INSERT INTO run_labels (run_id, key, value) VALUES ($1, $2, $3)")
            .bind(id.to_string())
            .bind(k.clone())
            .bind(v.clone())
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
