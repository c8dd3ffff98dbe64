//! The SQLite task table. Every write that changes a task is one committed transaction,
//! and no write can touch a task that reached a terminal status.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{InputRequests, InputResponses, JsonObject, TaskStatus};
use rusqlite::{Connection, OptionalExtension, Row, ToSql, params};
use serde_json::Value;

use super::record::{TaskRecord, parse_status, status_text};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tasks (
    task_id          TEXT PRIMARY KEY,
    owner            TEXT NOT NULL,
    kind             TEXT NOT NULL,
    arguments        TEXT NOT NULL,
    status           TEXT NOT NULL,
    status_message   TEXT,
    step             INTEGER NOT NULL,
    memory           TEXT NOT NULL,
    pending          TEXT NOT NULL,
    answers          TEXT NOT NULL,
    asked_keys       TEXT NOT NULL,
    outcome          TEXT,
    cancel_requested INTEGER NOT NULL,
    created_ms       INTEGER NOT NULL,
    updated_ms       INTEGER NOT NULL,
    ttl_ms           INTEGER NOT NULL,
    poll_interval_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_by_owner ON tasks (owner, status);
";

/// Only tasks that are still running may change.
const LIVE: &str = "status NOT IN ('completed', 'failed', 'cancelled')";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the task database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("a stored task is corrupt: {0}")]
    Corrupt(#[from] serde_json::Error),
    #[error("this user already has {0} unfinished tasks")]
    TooManyLive(usize),
    #[error("the task database lock was poisoned")]
    Poisoned,
}

/// A handle to the task database; clones share one connection.
#[derive(Clone, Debug)]
pub struct TaskStore {
    connection: Arc<Mutex<Connection>>,
}

impl TaskStore {
    /// Open (or create) `tasks.sqlite3` in `dir`.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        let connection = crate::durable::open_durable(dir, "tasks.sqlite3", SCHEMA)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    fn lock(&self) -> Result<MutexGuard<'_, Connection>, StoreError> {
        self.connection.lock().map_err(|_| StoreError::Poisoned)
    }

    /// Commit a new task, unless its owner already has `max_live` unfinished ones. A task
    /// whose cancellation was asked for, or whose TTL has passed, no longer takes a slot:
    /// its worker may still be finishing a step, but the owner is done with it.
    pub fn insert(&self, record: &TaskRecord, max_live: usize) -> Result<(), StoreError> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction()?;
        let live: i64 = transaction.query_row(
            &format!(
                "SELECT COUNT(*) FROM tasks WHERE owner = ?1 AND {LIVE}
                 AND cancel_requested = 0 AND created_ms + ttl_ms > ?2"
            ),
            params![record.owner, record.created_ms],
            |row| row.get(0),
        )?;
        if usize::try_from(live).unwrap_or(usize::MAX) >= max_live {
            return Err(StoreError::TooManyLive(max_live));
        }
        transaction.execute(
            "INSERT INTO tasks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                record.task_id,
                record.owner,
                record.kind,
                serde_json::to_string(&record.arguments)?,
                status_text(record.status),
                record.status_message,
                record.step,
                serde_json::to_string(&record.memory)?,
                serde_json::to_string(&record.pending)?,
                serde_json::to_string(&record.answers)?,
                serde_json::to_string(&record.asked_keys)?,
                record.outcome.as_ref().map(serde_json::to_string).transpose()?,
                record.cancel_requested,
                record.created_ms,
                record.updated_ms,
                i64::try_from(record.ttl_ms).unwrap_or(i64::MAX),
                i64::try_from(record.poll_interval_ms).unwrap_or(i64::MAX),
            ],
        )?;
        transaction.commit()?;
        Ok(())
    }

    pub fn load(&self, task_id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let connection = self.lock()?;
        let row = connection
            .query_row(
                "SELECT * FROM tasks WHERE task_id = ?1",
                params![task_id],
                RawRecord::from_row,
            )
            .optional()?;
        row.map(RawRecord::decode).transpose()
    }

    /// Record a finished step: the next step number, the job's memory and message.
    pub fn advance(
        &self,
        task_id: &str,
        step: u32,
        memory: &Value,
        status_message: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let memory = serde_json::to_string(memory)?;
        let set = "step = ?2, memory = ?3, status = 'working'";
        self.update_live(set, task_id, (step, memory), status_message, now_ms)
    }

    /// Park the task in `input_required` with these outstanding requests.
    pub fn ask(
        &self,
        task_id: &str,
        requests: &InputRequests,
        status_message: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction()?;
        let asked: Option<String> = transaction
            .query_row(
                &format!("SELECT asked_keys FROM tasks WHERE task_id = ?1 AND {LIVE}"),
                params![task_id],
                |row| row.get(0),
            )
            .optional()?;
        let Some(asked) = asked else {
            return Ok(false);
        };
        let mut asked: Vec<String> = serde_json::from_str(&asked)?;
        asked.extend(requests.keys().cloned());
        transaction.execute(
            "UPDATE tasks SET status = 'input_required', pending = ?2, asked_keys = ?3,
             status_message = COALESCE(?4, status_message), updated_ms = ?5
             WHERE task_id = ?1",
            params![
                task_id,
                serde_json::to_string(requests)?,
                serde_json::to_string(&asked)?,
                status_message,
                now_ms
            ],
        )?;
        transaction.commit()?;
        Ok(true)
    }

    /// Take the answers whose keys are outstanding; ignore every other key. When nothing is
    /// left outstanding the task goes back to `working`. Returns whether anything changed.
    pub fn answer(
        &self,
        task_id: &str,
        responses: &InputResponses,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut connection = self.lock()?;
        let transaction = connection.transaction()?;
        let row: Option<(String, String)> = transaction
            .query_row(
                &format!("SELECT pending, answers FROM tasks WHERE task_id = ?1 AND {LIVE}"),
                params![task_id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?;
        let Some((pending, answers)) = row else {
            return Ok(false);
        };
        let mut pending: InputRequests = serde_json::from_str(&pending)?;
        let mut answers: InputResponses = serde_json::from_str(&answers)?;
        let mut taken = false;
        for (key, response) in responses {
            if pending.remove(key).is_some() {
                answers.insert(key.clone(), response.clone());
                taken = true;
            }
        }
        if !taken {
            return Ok(false);
        }
        let status = if pending.is_empty() {
            "working"
        } else {
            "input_required"
        };
        transaction.execute(
            "UPDATE tasks SET pending = ?2, answers = ?3, status = ?4, updated_ms = ?5
             WHERE task_id = ?1",
            params![
                task_id,
                serde_json::to_string(&pending)?,
                serde_json::to_string(&answers)?,
                status,
                now_ms
            ],
        )?;
        transaction.commit()?;
        Ok(true)
    }

    /// Note that the client asked for cancellation; the job honours it between steps.
    pub fn request_cancel(&self, task_id: &str) -> Result<bool, StoreError> {
        let connection = self.lock()?;
        let changed = connection.execute(
            &format!("UPDATE tasks SET cancel_requested = 1 WHERE task_id = ?1 AND {LIVE}"),
            params![task_id],
        )?;
        Ok(changed == 1)
    }

    /// Move a running task to a terminal status, for good.
    pub fn finish(
        &self,
        task_id: &str,
        status: TaskStatus,
        outcome: Option<&JsonObject>,
        status_message: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let outcome = outcome.map(serde_json::to_string).transpose()?;
        let set = "status = ?2, outcome = ?3, pending = '{}'";
        let values = (status_text(status), outcome);
        self.update_live(set, task_id, values, status_message, now_ms)
    }

    /// Update a task that has not finished: `set` assigns from `?2` and `?3` (`values`); the
    /// status message (when given) and the time go with it. Returns whether the task was live.
    fn update_live(
        &self,
        set: &str,
        task_id: &str,
        values: (impl ToSql, impl ToSql),
        status_message: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let connection = self.lock()?;
        let changed = connection.execute(
            &format!(
                "UPDATE tasks SET {set}, status_message = COALESCE(?4, status_message),
                 updated_ms = ?5 WHERE task_id = ?1 AND {LIVE}"
            ),
            params![task_id, values.0, values.1, status_message, now_ms],
        )?;
        Ok(changed == 1)
    }

    /// Ids of every task that has not finished (to resume after a restart).
    pub fn live_task_ids(&self) -> Result<Vec<String>, StoreError> {
        let connection = self.lock()?;
        let mut statement =
            connection.prepare(&format!("SELECT task_id FROM tasks WHERE {LIVE}"))?;
        let ids = statement
            .query_map([], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// Delete every task whose TTL has passed; returns how many went.
    pub fn purge_expired(&self, now_ms: i64) -> Result<usize, StoreError> {
        let connection = self.lock()?;
        Ok(connection.execute(
            "DELETE FROM tasks WHERE created_ms + ttl_ms <= ?1",
            params![now_ms],
        )?)
    }
}

/// A row as SQLite returns it, before JSON decoding.
struct RawRecord {
    task_id: String,
    owner: String,
    kind: String,
    arguments: String,
    status: String,
    status_message: Option<String>,
    step: u32,
    memory: String,
    pending: String,
    answers: String,
    asked_keys: String,
    outcome: Option<String>,
    cancel_requested: bool,
    created_ms: i64,
    updated_ms: i64,
    ttl_ms: i64,
    poll_interval_ms: i64,
}

impl RawRecord {
    fn from_row(row: &Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            task_id: row.get("task_id")?,
            owner: row.get("owner")?,
            kind: row.get("kind")?,
            arguments: row.get("arguments")?,
            status: row.get("status")?,
            status_message: row.get("status_message")?,
            step: row.get("step")?,
            memory: row.get("memory")?,
            pending: row.get("pending")?,
            answers: row.get("answers")?,
            asked_keys: row.get("asked_keys")?,
            outcome: row.get("outcome")?,
            cancel_requested: row.get("cancel_requested")?,
            created_ms: row.get("created_ms")?,
            updated_ms: row.get("updated_ms")?,
            ttl_ms: row.get("ttl_ms")?,
            poll_interval_ms: row.get("poll_interval_ms")?,
        })
    }

    fn decode(self) -> Result<TaskRecord, StoreError> {
        Ok(TaskRecord {
            task_id: self.task_id,
            owner: self.owner,
            kind: self.kind,
            arguments: serde_json::from_str(&self.arguments)?,
            status: parse_status(&self.status),
            status_message: self.status_message,
            step: self.step,
            memory: serde_json::from_str(&self.memory)?,
            pending: serde_json::from_str(&self.pending)?,
            answers: serde_json::from_str(&self.answers)?,
            asked_keys: serde_json::from_str(&self.asked_keys)?,
            outcome: self
                .outcome
                .as_deref()
                .map(serde_json::from_str)
                .transpose()?,
            cancel_requested: self.cancel_requested,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            ttl_ms: u64::try_from(self.ttl_ms).unwrap_or(0),
            poll_interval_ms: u64::try_from(self.poll_interval_ms).unwrap_or(1000),
        })
    }
}
