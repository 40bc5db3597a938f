//! Crons: a schedule that starts runs. A cron holds a cron pattern (five fields, UTC; a
//! leading sixth field of seconds is allowed), a run body, and the thread it runs on (none:
//! a new thread each time). The scheduler looks every second for crons due and starts their
//! runs through the [`Backend`], queued behind a thread's running run. Crons are kept as their
//! JSON object in a [`CronStore`]: the embedded store, or Restate's `Cron` objects
//! ([`crate::restate::RestateCrons`]), where every server schedules and a firing is claimed by
//! writing the cron over the version read, so that one server fires it.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use croner::Cron;
use serde_json::{Map, Value, json};

use crate::backend::{Backend, BackendError, NewThread};
use crate::domain::{MultitaskStrategy, ThreadId};
use crate::embedded::store::Store;
use crate::graphs::Graphs;
use crate::wire::run::read_body;
use crate::wire::time::now;

/// How often the scheduler looks for crons due.
const TICK: Duration = Duration::from_secs(1);

/// Where crons are kept.
pub trait CronStore: Send + Sync {
    /// Every cron, oldest first, with the version it was read at.
    fn list(&self) -> Result<Vec<(Value, u64)>>;
    /// Writes the cron over the version read (0: a new one); false when another write came
    /// first.
    fn put(&self, cron: &Value, read_at: u64) -> Result<bool>;
    /// Forgets the cron; whether there was one.
    fn remove(&self, id: &str) -> Result<bool>;
}

/// The embedded store: one process schedules, so a write is never lost to another's.
impl CronStore for Store {
    fn list(&self) -> Result<Vec<(Value, u64)>> {
        Ok(self.crons()?.into_iter().map(|c| (c, 0)).collect())
    }

    fn put(&self, cron: &Value, _read_at: u64) -> Result<bool> {
        let id = cron["cron_id"].as_str().unwrap_or_default();
        let created = cron["created_at"].as_str().unwrap_or_default();
        self.put_cron(id, cron, created, &now())?;
        Ok(true)
    }

    fn remove(&self, id: &str) -> Result<bool> {
        self.delete_cron(id)
    }
}

/// The crons, and what starts their runs.
#[derive(Clone)]
pub struct Crons {
    store: Arc<dyn CronStore>,
    backend: Arc<dyn Backend>,
    graphs: Arc<Graphs>,
}

type Result<T> = std::result::Result<T, BackendError>;

/// The next time `schedule` fires after `after`.
fn next_after(schedule: &str, after: DateTime<Utc>) -> std::result::Result<DateTime<Utc>, String> {
    let cron = Cron::from_str(schedule).map_err(|e| format!("schedule: `{schedule}` is not a cron pattern: {e}"))?;
    cron.find_next_occurrence(&after, false).map_err(|e| format!("schedule: `{schedule}` never fires: {e}"))
}

fn timestamp(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6f+00:00").to_string()
}

/// The run body a cron starts: its own keys, less the cron's.
fn payload_of(body: &Map<String, Value>) -> Value {
    let mut payload = body.clone();
    for key in ["schedule", "end_time", "enabled", "thread_id", "on_run_completed"] {
        payload.remove(key);
    }
    Value::Object(payload)
}

impl Crons {
    pub fn new(store: Arc<dyn CronStore>, backend: Arc<dyn Backend>, graphs: Arc<Graphs>) -> Crons {
        Crons { store, backend, graphs }
    }

    /// Creates a cron from a request body, on `thread` or a new thread per run.
    pub async fn create(&self, body: Map<String, Value>, thread: Option<ThreadId>) -> Result<Value> {
        let schedule = body
            .get("schedule")
            .and_then(Value::as_str)
            .ok_or_else(|| BackendError::Invalid("schedule: required".into()))?
            .to_string();
        let payload = payload_of(&body);
        let on_run_completed = match body.get("on_run_completed") {
            None | Some(Value::Null) => "delete",
            Some(Value::String(s)) if s == "delete" || s == "keep" => s.as_str(),
            Some(other) => {
                return Err(BackendError::Invalid(format!(
                    "on_run_completed: expected \"delete\" or \"keep\", got {other}"
                )));
            }
        };
        let probe = ThreadId(thread.as_ref().map_or_else(|| "cron".to_string(), |t| t.0.clone()));
        let parsed = read_body(&payload, probe, &self.graphs).map_err(BackendError::Invalid)?;
        if let Some(t) = &thread {
            self.backend.thread(t).await?;
        }
        let next = next_after(&schedule, Utc::now()).map_err(BackendError::Invalid)?;
        let at = now();
        let cron = json!({
            "cron_id": uuid::Uuid::now_v7().to_string(),
            "assistant_id": parsed.graph.assistant_id,
            "thread_id": thread,
            "on_run_completed": on_run_completed,
            "schedule": schedule,
            "payload": payload,
            "metadata": body.get("metadata").cloned().unwrap_or(json!({})),
            "end_time": body.get("end_time").cloned().unwrap_or(Value::Null),
            "enabled": body.get("enabled").and_then(Value::as_bool).unwrap_or(true),
            "next_run_date": timestamp(next),
            "user_id": null,
            "created_at": at,
            "updated_at": at,
        });
        self.save(&cron, 0)?;
        Ok(cron)
    }

    /// Writes the cron over the version read; a conflict when another write came first.
    fn save(&self, cron: &Value, read_at: u64) -> Result<()> {
        if self.store.put(cron, read_at)? {
            Ok(())
        } else {
            Err(BackendError::Conflict(format!("cron {}: changed meanwhile; try again", cron["cron_id"])))
        }
    }

    /// Crons matching a search body's `assistant_id` and `thread_id`, oldest first.
    pub fn search(&self, body: &Map<String, Value>) -> Result<Vec<Value>> {
        let assistant = body
            .get("assistant_id")
            .and_then(Value::as_str)
            .map(|a| self.graphs.find(a).map_or_else(|| a.to_string(), |g| g.assistant_id.0.clone()));
        let thread = body.get("thread_id").and_then(Value::as_str);
        let all = self.store.list()?;
        Ok(all
            .into_iter()
            .map(|(c, _)| c)
            .filter(|c| assistant.as_deref().is_none_or(|a| c["assistant_id"] == a))
            .filter(|c| thread.is_none_or(|t| c["thread_id"] == t))
            .collect())
    }

    pub fn delete(&self, id: &str) -> Result<()> {
        if self.store.remove(id)? { Ok(()) } else { Err(BackendError::NotFound(format!("cron {id} not found"))) }
    }

    /// Changes a cron's schedule, end time, enabled flag or run body.
    pub fn update(&self, id: &str, patch: &Map<String, Value>) -> Result<Value> {
        let (mut cron, read_at) = self
            .store
            .list()?
            .into_iter()
            .find(|(c, _)| c["cron_id"] == id)
            .ok_or_else(|| BackendError::NotFound(format!("cron {id} not found")))?;
        if let Some(schedule) = patch.get("schedule").and_then(Value::as_str) {
            let next = next_after(schedule, Utc::now()).map_err(BackendError::Invalid)?;
            cron["schedule"] = json!(schedule);
            cron["next_run_date"] = json!(timestamp(next));
        }
        for key in ["end_time", "enabled", "metadata"] {
            if let Some(v) = patch.get(key) {
                cron[key] = v.clone();
            }
        }
        if let Some(Value::Object(payload)) = patch.get("payload") {
            read_body(&Value::Object(payload.clone()), ThreadId("cron".into()), &self.graphs)
                .map_err(BackendError::Invalid)?;
            cron["payload"] = Value::Object(payload.clone());
        }
        cron["updated_at"] = json!(now());
        self.save(&cron, read_at)?;
        Ok(cron)
    }

    /// Runs the scheduler until the process ends.
    pub async fn schedule(self) {
        loop {
            tokio::time::sleep(TICK).await;
            let Ok(crons) = self.store.list() else { continue };
            for (cron, read_at) in crons {
                if let Err(e) = self.fire_if_due(cron, read_at).await {
                    eprintln!("switchyard server: cron: {e}");
                }
            }
        }
    }

    /// Starts the cron's run if it is due, and moves it to its next time; another server that
    /// moved it first fires it instead.
    async fn fire_if_due(&self, mut cron: Value, read_at: u64) -> Result<()> {
        let due = cron["next_run_date"].as_str().and_then(|t| DateTime::parse_from_rfc3339(t).ok());
        let now_utc = Utc::now();
        if cron["enabled"] == false || due.is_none_or(|d| d > now_utc) {
            return Ok(());
        }
        let ended = cron["end_time"].as_str().and_then(|t| DateTime::parse_from_rfc3339(t).ok());
        if ended.is_some_and(|e| e <= now_utc) {
            cron["enabled"] = json!(false);
            return self.store.put(&cron, read_at).map(drop);
        }
        let schedule = cron["schedule"].as_str().unwrap_or_default().to_string();
        cron["next_run_date"] = json!(timestamp(next_after(&schedule, now_utc).map_err(BackendError::Invalid)?));
        if !self.store.put(&cron, read_at)? {
            return Ok(());
        }
        let thread = match cron["thread_id"].as_str() {
            Some(t) => ThreadId(t.to_string()),
            None => {
                let metadata = json!({"cron_id": cron["cron_id"]}).as_object().cloned().unwrap_or_default();
                self.backend.create_thread(NewThread { metadata, ..NewThread::default() }).await?.thread_id
            }
        };
        let mut parsed = read_body(&cron["payload"], thread, &self.graphs).map_err(BackendError::Invalid)?;
        parsed.request.multitask_strategy = MultitaskStrategy::Enqueue;
        // A thread made for this run goes once the run has ended, unless the cron keeps them.
        parsed.request.temporary = cron["thread_id"].is_null() && cron["on_run_completed"] != "keep";
        parsed.request.metadata.insert("cron_id".into(), cron["cron_id"].clone());
        self.backend.start_run(parsed.request).await.map(drop)
    }
}
