//! Threads kept in the `Thread` object: created, read, listed, changed, copied and deleted. Every
//! change reads the document, changes it and writes it back naming the version read; a write
//! that lost to another server's is tried again on the new version.

use serde_json::{Map, Value};

use crate::client::RestateThreads;
use crate::client::clock;
use crate::client::doc::{ThreadDoc, ThreadRun};
use crate::client::ingress::Failure;
use crate::threads::{Put, Versioned};

/// The key of the one `ThreadIndex` (the list of every thread id).
const INDEX: &str = "all";

/// How often a change is tried again after losing to another server's.
const ATTEMPTS: usize = 20;

impl RestateThreads {
    /// A new thread (a fresh id unless `thread_id` is given). When the id is taken, the
    /// thread there is returned if `keep_existing`, else 409.
    pub fn create_thread(
        &self,
        thread_id: Option<String>,
        metadata: Map<String, Value>,
        keep_existing: bool,
    ) -> Result<ThreadDoc, Failure> {
        let id = thread_id.unwrap_or_else(clock::new_id);
        check_id(&id)?;
        let doc = ThreadDoc::new(id.clone(), metadata, clock::now());
        match self.write(&id, 0, &doc) {
            Ok(_) => {
                self.ingress.call::<String, Value>("ThreadIndex", INDEX, "add", Some(&id))?;
                Ok(doc)
            }
            Err(e) if e.status == 409 && keep_existing => self.thread(&id),
            Err(e) if e.status == 409 => Err(Failure::conflict(format!("thread {id} exists already"))),
            Err(e) => Err(e),
        }
    }

    /// The thread `id`, or 404.
    pub fn thread(&self, id: &str) -> Result<ThreadDoc, Failure> {
        self.read(id)?.map(|(_, doc)| doc).ok_or_else(|| not_found(id))
    }

    /// The thread's document and version, if it exists.
    pub(crate) fn read(&self, id: &str) -> Result<Option<(u64, ThreadDoc)>, Failure> {
        check_id(id).map_err(|_| not_found(id))?;
        let held: Option<Versioned> = self.ingress.call::<(), _>("Thread", id, "get", None)?;
        let Some(Versioned { version, document }) = held else { return Ok(None) };
        let doc = serde_json::from_value(document).map_err(|e| Failure::new(500, format!("thread {id}: {e}")))?;
        Ok(Some((version, doc)))
    }

    fn write(&self, id: &str, expected: u64, doc: &ThreadDoc) -> Result<u64, Failure> {
        let document = serde_json::to_value(doc).map_err(|e| Failure::new(500, e.to_string()))?;
        self.ingress.call("Thread", id, "put", Some(&Put { expected, document }))
    }

    /// Changes the thread with `change` (given the document as read), and writes it; tried
    /// again on the new version when another server wrote first. `change`'s error stops it.
    pub fn change<T>(
        &self,
        id: &str,
        mut change: impl FnMut(&mut ThreadDoc) -> Result<T, Failure>,
    ) -> Result<(ThreadDoc, T), Failure> {
        for _ in 0..ATTEMPTS {
            let (version, mut doc) = self.read(id)?.ok_or_else(|| not_found(id))?;
            let out = change(&mut doc)?;
            doc.updated_at = clock::now();
            match self.write(id, version, &doc) {
                Ok(_) => return Ok((doc, out)),
                Err(e) if e.status == 409 => continue,
                Err(e) => return Err(e),
            }
        }
        Err(Failure::conflict(format!("thread {id}: too many changes at once; try again")))
    }

    /// Merges `metadata` into the thread's.
    pub fn update_metadata(&self, id: &str, metadata: Map<String, Value>) -> Result<ThreadDoc, Failure> {
        let (doc, ()) = self.change(id, |doc| {
            doc.metadata.extend(metadata.clone());
            Ok(())
        })?;
        Ok(doc)
    }

    /// A new thread with the same metadata, checkpoints and ended runs (under new run ids); its
    /// checkpoints name the same `GraphRun`s, which no longer change once ended. 409 while a
    /// run goes on, or while the thread waits (for an answer or at a breakpoint): its waiting
    /// `GraphRun` would be shared, and an answer on one thread would move the other.
    pub fn copy_thread(&self, id: &str) -> Result<ThreadDoc, Failure> {
        let doc = self.thread(id)?;
        self.refuse_if_busy(&doc)?;
        if let Some(newest) = doc.segments.last()
            && self.progress(&newest.graph_run)?.is_some_and(|p| p.waiting && !p.ended)
        {
            return Err(Failure::conflict(format!(
                "thread {id} waits (for an answer or at a breakpoint): copy it once its run goes on and ends"
            )));
        }
        let copy = self.create_thread(None, doc.metadata.clone(), false)?;
        let runs: Vec<_> = doc.runs.iter().map(|r| ThreadRun { run_id: clock::new_id(), ..r.clone() }).collect();
        let (copy, ()) = self.change(&copy.thread_id, |c| {
            c.runs = runs.clone();
            c.segments = doc.segments.clone();
            Ok(())
        })?;
        Ok(copy)
    }

    /// Every thread, oldest first.
    pub fn threads(&self) -> Result<Vec<ThreadDoc>, Failure> {
        let ids: Vec<String> = self.ingress.call::<(), _>("ThreadIndex", INDEX, "list", None)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some((_, doc)) = self.read(&id)? {
                out.push(doc);
            }
        }
        Ok(out)
    }

    /// Forgets the thread (its runs' records stay in Restate for their retention); 404 when
    /// there is none.
    pub fn delete_thread(&self, id: &str) -> Result<(), Failure> {
        check_id(id).map_err(|_| not_found(id))?;
        let existed: bool = self.ingress.call::<(), _>("Thread", id, "delete", None)?;
        self.ingress.call::<String, Value>("ThreadIndex", INDEX, "remove", Some(&id.to_string()))?;
        if existed { Ok(()) } else { Err(not_found(id)) }
    }
}

pub(crate) fn not_found(id: &str) -> Failure {
    Failure::not_found(format!("Thread with ID {id} not found"))
}

/// Ids go into URL paths: LangGraph's characters only.
fn check_id(id: &str) -> Result<(), Failure> {
    let ok = !id.is_empty() && id.len() <= 200 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(Failure::invalid(format!("thread_id: `{id}` is not an id ([A-Za-z0-9_.:-], 1 to 200)")))
    }
}
