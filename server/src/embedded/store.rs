//! The embedded store: one SQLite file (or memory) holding threads, runs, checkpoints, the
//! effect journal and crons. The schema carries a version (`PRAGMA user_version`); a file
//! from a newer server is refused rather than misread.
//!
//! Every call takes the connection's lock for one statement or one transaction: SQLite
//! serializes writers anyway, and the runs' engine threads write only after each step.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value};

use crate::backend::BackendError;
use crate::domain::{
    AssistantId, Checkpoint, CheckpointId, Interrupt, MultitaskStrategy, RunId, RunInfo, RunRequest, RunStatus, Source,
    ThreadId, ThreadStatus,
};

/// The schema this server writes.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS threads (
    thread_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    metadata TEXT NOT NULL, status TEXT NOT NULL, head TEXT, graph_id TEXT);
CREATE TABLE IF NOT EXISTS runs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT UNIQUE NOT NULL, thread_id TEXT NOT NULL,
    assistant_id TEXT NOT NULL, status TEXT NOT NULL, metadata TEXT NOT NULL, kwargs TEXT NOT NULL,
    multitask TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    request TEXT NOT NULL, base TEXT, record TEXT, error TEXT);
CREATE INDEX IF NOT EXISTS runs_by_thread ON runs (thread_id, seq);
CREATE TABLE IF NOT EXISTS checkpoints (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, checkpoint_id TEXT UNIQUE NOT NULL, thread_id TEXT NOT NULL,
    run_id TEXT NOT NULL, local_step INTEGER NOT NULL, step INTEGER NOT NULL, source TEXT NOT NULL,
    parent TEXT, state TEXT NOT NULL, next TEXT NOT NULL, interrupts TEXT NOT NULL, set_values TEXT,
    created_at TEXT NOT NULL, graph_id TEXT NOT NULL, assistant_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS checkpoints_by_thread ON checkpoints (thread_id, seq);
CREATE TABLE IF NOT EXISTS journal (
    run_id TEXT NOT NULL, step INTEGER NOT NULL, request_hash TEXT NOT NULL, occurrence INTEGER NOT NULL,
    reply TEXT NOT NULL, PRIMARY KEY (run_id, step, request_hash, occurrence));
CREATE TABLE IF NOT EXISTS crons (
    cron_id TEXT PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
";

/// A store error, as the API reports it.
fn internal(e: impl std::fmt::Display) -> BackendError {
    BackendError::Internal(format!("store: {e}"))
}

type Result<T> = std::result::Result<T, BackendError>;

/// A thread row.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadRow {
    pub thread_id: ThreadId,
    pub created_at: String,
    pub updated_at: String,
    pub metadata: Map<String, Value>,
    pub status: ThreadStatus,
    pub head: Option<CheckpointId>,
}

/// The state an engine run started from and that state's step in the thread (a run that
/// continues a thread); none: the graph's defaults, step 0.
pub type Base = (Map<String, Value>, u64);

/// A run row: what the API shows, and what restarting it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    pub info: RunInfo,
    pub request: RunRequest,
    /// The state and chain step the engine's run started from, when not the defaults.
    pub base: Option<Base>,
    /// The engine's record (with steps) after its last step.
    pub record: Option<Value>,
    pub error: Option<(String, String)>,
}

/// A checkpoint row: the checkpoint and where it sits in its engine run.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointRow {
    pub checkpoint: Checkpoint,
    /// The step within the engine run of `checkpoint.run_id`.
    pub local_step: u64,
    /// For `update_state`: the values set at that step.
    pub set: Option<Map<String, Value>>,
}

/// The store; cheap to clone.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
}

fn json_text(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn parse<T: serde::de::DeserializeOwned + Default>(text: &str) -> T {
    serde_json::from_str(text).unwrap_or_default()
}

/// Creates the data file's folder (0700) and the file (0600) when they are missing: it holds
/// every thread's state and model replies. SQLite gives its `-wal` and `-shm` files the
/// database file's permissions. An existing file keeps its own.
fn private_file(path: &Path) -> std::result::Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path).map(drop).map_err(|e| format!("{}: {e}", path.display()))
}

impl Store {
    /// Opens (creating) the store at `path`; `:memory:` keeps nothing.
    pub fn open(path: &str) -> std::result::Result<Store, String> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()
        } else {
            private_file(Path::new(path))?;
            Connection::open(path)
        }
        .map_err(|e| format!("{path}: {e}"))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(|e| e.to_string())?;
        if version > SCHEMA_VERSION {
            return Err(format!(
                "{path}: written by a newer switchyard server (schema {version}, this one reads {SCHEMA_VERSION})"
            ));
        }
        conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;")
            .map_err(|e| e.to_string())?;
        conn.execute_batch(SCHEMA).map_err(|e| format!("{path}: {e}"))?;
        conn.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}")).map_err(|e| e.to_string())?;
        Ok(Store { conn: Arc::new(Mutex::new(conn)) })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    // Threads.

    pub fn insert_thread(&self, t: &ThreadRow) -> Result<()> {
        self.conn()
            .execute(
                "INSERT INTO threads (thread_id, created_at, updated_at, metadata, status, head) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![t.thread_id.0, t.created_at, t.updated_at, json_text(&t.metadata), t.status.as_str(), t.head.as_ref().map(|h| &h.0)],
            )
            .map(drop)
            .map_err(internal)
    }

    pub fn thread(&self, id: &ThreadId) -> Result<Option<ThreadRow>> {
        self.conn()
            .query_row(
                "SELECT thread_id, created_at, updated_at, metadata, status, head FROM threads WHERE thread_id = ?1",
                params![id.0],
                thread_row,
            )
            .optional()
            .map_err(internal)
    }

    /// Every thread, newest first.
    pub fn threads(&self) -> Result<Vec<ThreadRow>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT thread_id, created_at, updated_at, metadata, status, head FROM threads ORDER BY created_at DESC, rowid DESC")
            .map_err(internal)?;
        let rows = stmt.query_map([], thread_row).map_err(internal)?;
        rows.collect::<std::result::Result<_, _>>().map_err(internal)
    }

    pub fn update_thread(&self, t: &ThreadRow) -> Result<()> {
        self.conn()
            .execute(
                "UPDATE threads SET updated_at = ?2, metadata = ?3, status = ?4, head = ?5 WHERE thread_id = ?1",
                params![
                    t.thread_id.0,
                    t.updated_at,
                    json_text(&t.metadata),
                    t.status.as_str(),
                    t.head.as_ref().map(|h| &h.0)
                ],
            )
            .map(drop)
            .map_err(internal)
    }

    /// Deletes a thread with its runs, checkpoints and journal.
    pub fn delete_thread(&self, id: &ThreadId) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(internal)?;
        tx.execute("DELETE FROM journal WHERE run_id IN (SELECT run_id FROM runs WHERE thread_id = ?1)", params![id.0])
            .map_err(internal)?;
        tx.execute("DELETE FROM checkpoints WHERE thread_id = ?1", params![id.0]).map_err(internal)?;
        tx.execute("DELETE FROM runs WHERE thread_id = ?1", params![id.0]).map_err(internal)?;
        let n = tx.execute("DELETE FROM threads WHERE thread_id = ?1", params![id.0]).map_err(internal)?;
        tx.commit().map_err(internal)?;
        Ok(n > 0)
    }

    // Runs.

    pub fn insert_run(&self, r: &RunRow) -> Result<()> {
        let i = &r.info;
        self.conn()
            .execute(
                "INSERT INTO runs (run_id, thread_id, assistant_id, status, metadata, kwargs, multitask, created_at, updated_at, request, base, record, error)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    i.run_id.0, i.thread_id.0, i.assistant_id.0, i.status.as_str(), json_text(&i.metadata),
                    json_text(&i.kwargs), i.multitask_strategy.as_str(), i.created_at, i.updated_at,
                    json_text(&r.request), r.base.as_ref().map(json_text), r.record.as_ref().map(json_text),
                    r.error.as_ref().map(json_text)
                ],
            )
            .map(drop)
            .map_err(internal)
    }

    /// Saves what changes as a run goes: status, base, record, error.
    pub fn update_run(&self, r: &RunRow) -> Result<()> {
        self.conn()
            .execute(
                "UPDATE runs SET status = ?2, updated_at = ?3, base = ?4, record = ?5, error = ?6, metadata = ?7 \
                 WHERE run_id = ?1",
                params![
                    r.info.run_id.0,
                    r.info.status.as_str(),
                    r.info.updated_at,
                    r.base.as_ref().map(json_text),
                    r.record.as_ref().map(json_text),
                    r.error.as_ref().map(json_text),
                    json_text(&r.info.metadata)
                ],
            )
            .map(drop)
            .map_err(internal)
    }

    pub fn run(&self, id: &RunId) -> Result<Option<RunRow>> {
        self.conn()
            .query_row(&format!("{RUN_COLUMNS} WHERE run_id = ?1"), params![id.0], run_row)
            .optional()
            .map_err(internal)
    }

    /// A thread's runs, newest first.
    pub fn runs_of(&self, thread: &ThreadId) -> Result<Vec<RunRow>> {
        self.runs_where("WHERE thread_id = ?1 ORDER BY seq DESC", &thread.0)
    }

    /// The ids of a thread's runs that have not ended, oldest first (without loading records).
    pub fn unfinished_runs(&self, thread: &ThreadId) -> Result<Vec<RunId>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT run_id FROM runs WHERE thread_id = ?1 AND status IN ('pending', 'running') ORDER BY seq")
            .map_err(internal)?;
        let rows = stmt.query_map(params![thread.0], |r| r.get::<_, String>(0).map(RunId)).map_err(internal)?;
        rows.collect::<std::result::Result<_, _>>().map_err(internal)
    }

    /// Runs with this status, oldest first (what a restart continues).
    pub fn runs_with_status(&self, status: RunStatus) -> Result<Vec<RunRow>> {
        self.runs_where("WHERE status = ?1 ORDER BY seq", status.as_str())
    }

    fn runs_where(&self, clause: &str, arg: &str) -> Result<Vec<RunRow>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!("{RUN_COLUMNS} {clause}")).map_err(internal)?;
        let rows = stmt.query_map(params![arg], run_row).map_err(internal)?;
        rows.collect::<std::result::Result<_, _>>().map_err(internal)
    }

    pub fn delete_run(&self, id: &RunId) -> Result<()> {
        let conn = self.conn();
        conn.execute("DELETE FROM journal WHERE run_id = ?1", params![id.0]).map_err(internal)?;
        conn.execute("DELETE FROM runs WHERE run_id = ?1", params![id.0]).map(drop).map_err(internal)
    }

    // Checkpoints.

    pub fn insert_checkpoint(&self, c: &CheckpointRow) -> Result<()> {
        let k = &c.checkpoint;
        self.conn()
            .execute(
                "INSERT INTO checkpoints (checkpoint_id, thread_id, run_id, local_step, step, source, parent, state, next, interrupts, set_values, created_at, graph_id, assistant_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    k.id.0, k.thread_id.0, k.run_id.0, c.local_step as i64, k.step, json_text(&k.source).trim_matches('"'),
                    k.parent.as_ref().map(|p| &p.0), json_text(&k.values), json_text(&k.next),
                    json_text(&k.interrupts), c.set.as_ref().map(json_text), k.created_at, k.graph_id, k.assistant_id.0
                ],
            )
            .map(drop)
            .map_err(internal)
    }

    /// Rewrites what a checkpoint says runs next and waits.
    pub fn replace_checkpoint(&self, c: &CheckpointRow) -> Result<()> {
        let k = &c.checkpoint;
        self.conn()
            .execute(
                "UPDATE checkpoints SET next = ?2, interrupts = ?3 WHERE checkpoint_id = ?1",
                params![k.id.0, json_text(&k.next), json_text(&k.interrupts)],
            )
            .map(drop)
            .map_err(internal)
    }

    pub fn checkpoint(&self, thread: &ThreadId, id: &CheckpointId) -> Result<Option<CheckpointRow>> {
        self.conn()
            .query_row(
                &format!("{CHECKPOINT_COLUMNS} WHERE thread_id = ?1 AND checkpoint_id = ?2"),
                params![thread.0, id.0],
                checkpoint_row,
            )
            .optional()
            .map_err(internal)
    }

    /// A thread's checkpoints, newest first.
    pub fn checkpoints(&self, thread: &ThreadId) -> Result<Vec<CheckpointRow>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare(&format!("{CHECKPOINT_COLUMNS} WHERE thread_id = ?1 ORDER BY seq DESC")).map_err(internal)?;
        let rows = stmt.query_map(params![thread.0], checkpoint_row).map_err(internal)?;
        rows.collect::<std::result::Result<_, _>>().map_err(internal)
    }

    // The effect journal.

    pub fn journaled(&self, run: &RunId, step: u64, hash: &str, occurrence: u64) -> Option<String> {
        self.conn()
            .query_row(
                "SELECT reply FROM journal WHERE run_id = ?1 AND step = ?2 AND request_hash = ?3 AND occurrence = ?4",
                params![run.0, step as i64, hash, occurrence as i64],
                |r| r.get(0),
            )
            .optional()
            .ok()
            .flatten()
    }

    pub fn journal(&self, run: &RunId, step: u64, hash: &str, occurrence: u64, reply: &str) -> Result<()> {
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO journal (run_id, step, request_hash, occurrence, reply) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![run.0, step as i64, hash, occurrence as i64, reply],
            )
            .map(drop)
            .map_err(internal)
    }

    // Crons: each stored as its JSON body.

    pub fn put_cron(&self, id: &str, body: &Value, created_at: &str, updated_at: &str) -> Result<()> {
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO crons (cron_id, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, json_text(body), created_at, updated_at],
            )
            .map(drop)
            .map_err(internal)
    }

    pub fn crons(&self) -> Result<Vec<Value>> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT body FROM crons ORDER BY created_at").map_err(internal)?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(internal)?;
        let texts: Vec<String> = rows.collect::<std::result::Result<_, _>>().map_err(internal)?;
        Ok(texts.iter().map(|t| serde_json::from_str(t).unwrap_or(Value::Null)).collect())
    }

    pub fn delete_cron(&self, id: &str) -> Result<bool> {
        self.conn().execute("DELETE FROM crons WHERE cron_id = ?1", params![id]).map(|n| n > 0).map_err(internal)
    }
}

const RUN_COLUMNS: &str = "SELECT run_id, thread_id, assistant_id, status, metadata, kwargs, multitask, created_at, updated_at, request, base, record, error FROM runs";

const CHECKPOINT_COLUMNS: &str = "SELECT checkpoint_id, thread_id, run_id, local_step, step, source, parent, state, next, interrupts, set_values, created_at, graph_id, assistant_id FROM checkpoints";

fn thread_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ThreadRow> {
    Ok(ThreadRow {
        thread_id: ThreadId(r.get(0)?),
        created_at: r.get(1)?,
        updated_at: r.get(2)?,
        metadata: parse(&r.get::<_, String>(3)?),
        status: ThreadStatus::parse(&r.get::<_, String>(4)?).unwrap_or(ThreadStatus::Idle),
        head: r.get::<_, Option<String>>(5)?.map(CheckpointId),
    })
}

fn run_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RunRow> {
    let request: String = r.get(9)?;
    let request: RunRequest = serde_json::from_str(&request)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(9, rusqlite::types::Type::Text, Box::new(e)))?;
    let optional = |i: usize| -> rusqlite::Result<Option<String>> { r.get(i) };
    Ok(RunRow {
        info: RunInfo {
            run_id: RunId(r.get(0)?),
            thread_id: ThreadId(r.get(1)?),
            assistant_id: AssistantId(r.get(2)?),
            status: RunStatus::parse(&r.get::<_, String>(3)?).unwrap_or(RunStatus::Error),
            metadata: parse(&r.get::<_, String>(4)?),
            kwargs: parse(&r.get::<_, String>(5)?),
            multitask_strategy: serde_json::from_value(Value::String(r.get(6)?)).unwrap_or(MultitaskStrategy::Reject),
            created_at: r.get(7)?,
            updated_at: r.get(8)?,
        },
        request,
        base: optional(10)?.and_then(|t| serde_json::from_str(&t).ok()),
        record: optional(11)?.and_then(|t| serde_json::from_str(&t).ok()),
        error: optional(12)?.and_then(|t| serde_json::from_str(&t).ok()),
    })
}

fn checkpoint_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CheckpointRow> {
    let interrupts: Vec<(String, Interrupt)> = parse(&r.get::<_, String>(9)?);
    let source: String = r.get(5)?;
    Ok(CheckpointRow {
        checkpoint: Checkpoint {
            id: CheckpointId(r.get(0)?),
            thread_id: ThreadId(r.get(1)?),
            run_id: RunId(r.get(2)?),
            step: r.get::<_, i64>(4)?,
            source: serde_json::from_value(Value::String(source)).unwrap_or(Source::Loop),
            parent: r.get::<_, Option<String>>(6)?.map(CheckpointId),
            values: parse(&r.get::<_, String>(7)?),
            next: parse(&r.get::<_, String>(8)?),
            interrupts,
            created_at: r.get(11)?,
            graph_id: r.get(12)?,
            assistant_id: AssistantId(r.get(13)?),
        },
        local_step: u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
        set: r.get::<_, Option<String>>(10)?.and_then(|t| serde_json::from_str(&t).ok()),
    })
}
