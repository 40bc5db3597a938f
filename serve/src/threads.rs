//! `Thread`, a virtual object keyed by thread id, `Cron` likewise by cron id, and
//! `ThreadIndex`, the lists of their ids: the conversations `switchyard server --restate` keeps (its metadata, the chain of runs and
//! their checkpoints), as Restate state, so that any number of stateless servers share them.
//!
//! The server owns what a thread document says; this object only keeps it, with a version
//! that every write must name (compare and set). Its handlers run one at a time per thread, so
//! of two servers starting a run on one thread at once, exactly one write lands and the other
//! reads the thread again (and finds it busy).
//!
//! | handler | kind | what it does |
//! |---|---|---|
//! | `Thread/{id}/get` | shared | the document and its version, or `null` |
//! | `Thread/{id}/put` | exclusive | writes the document if the version given is the one held (0: no thread there); the new version, or 409 |
//! | `Thread/{id}/delete` | exclusive | forgets the thread; whether it existed |
//! | `Cron/{id}/get`, `put`, `delete` | as `Thread`'s | a cron's JSON object, kept by version |
//! | `ThreadIndex/{key}/add`, `remove` | exclusive | an id into or out of the list (key `all`: threads; `crons`: crons) |
//! | `ThreadIndex/{key}/list` | shared | every id of the list, oldest first |

use restate_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::load::Refusal;

const DOCUMENT: &str = "document";
const VERSION: &str = "version";
const IDS: &str = "ids";

/// A thread's document and the version it was written as (from 1).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Versioned {
    pub version: u64,
    pub document: Value,
}

/// A write: the document, and the version the writer read (0 when it read none).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Put {
    pub expected: u64,
    pub document: Value,
}

pub struct Thread;

#[restate_sdk::object(name = "Thread")]
impl Thread {
    #[handler]
    async fn get(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<Option<Versioned>>> {
        get_versioned(&ctx).await
    }

    #[handler]
    async fn put(&self, ctx: ObjectContext<'_>, put: Json<Put>) -> HandlerResult<u64> {
        put_versioned(&ctx, put.into_inner()).await
    }

    #[handler]
    async fn delete(&self, ctx: ObjectContext<'_>) -> HandlerResult<bool> {
        delete_versioned(&ctx).await
    }
}

/// `Cron`, keyed by cron id: a cron's JSON object, kept by version as a thread is (the server's
/// schedulers claim a firing by writing over the version they read, so one of them fires it).
pub struct Cron;

#[restate_sdk::object(name = "Cron")]
impl Cron {
    #[handler]
    async fn get(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<Option<Versioned>>> {
        get_versioned(&ctx).await
    }

    #[handler]
    async fn put(&self, ctx: ObjectContext<'_>, put: Json<Put>) -> HandlerResult<u64> {
        put_versioned(&ctx, put.into_inner()).await
    }

    #[handler]
    async fn delete(&self, ctx: ObjectContext<'_>) -> HandlerResult<bool> {
        delete_versioned(&ctx).await
    }
}

/// The document and its version, or `None`.
async fn get_versioned(ctx: &SharedObjectContext<'_>) -> HandlerResult<Json<Option<Versioned>>> {
    let Some(Json(document)) = ctx.get::<Json<Value>>(DOCUMENT).await? else { return Ok(Json(None)) };
    let version = ctx.get::<u64>(VERSION).await?.unwrap_or(1);
    Ok(Json(Some(Versioned { version, document })))
}

/// Writes the document if the version named is the one held; the new version, or 409.
async fn put_versioned(ctx: &ObjectContext<'_>, put: Put) -> HandlerResult<u64> {
    let Put { expected, document } = put;
    let held = ctx.get::<u64>(VERSION).await?.unwrap_or(0);
    let exists = ctx.get::<Json<Value>>(DOCUMENT).await?.is_some();
    // A new document is written as version 0 (also where one was deleted: its count goes
    // on); an existing one only over the version read.
    let current = if exists { held } else { 0 };
    if current != expected {
        return Err(Refusal::Conflict(format!(
            "{}: changed meanwhile (version {held}, not {expected}); read it again",
            ctx.key()
        ))
        .into());
    }
    ctx.set(DOCUMENT, Json(document));
    ctx.set(VERSION, held + 1);
    Ok(held + 1)
}

/// Forgets the document; whether there was one.
async fn delete_versioned(ctx: &ObjectContext<'_>) -> HandlerResult<bool> {
    let existed = ctx.get::<Json<Value>>(DOCUMENT).await?.is_some();
    ctx.clear(DOCUMENT);
    // The version goes on counting: a writer holding the deleted document's version cannot
    // write it back.
    if existed {
        let held = ctx.get::<u64>(VERSION).await?.unwrap_or(0);
        ctx.set(VERSION, held + 1);
    }
    Ok(existed)
}

pub struct ThreadIndex;

#[restate_sdk::object(name = "ThreadIndex")]
impl ThreadIndex {
    #[handler]
    async fn add(&self, ctx: ObjectContext<'_>, id: String) -> HandlerResult<()> {
        let mut ids = ctx.get::<Json<Vec<String>>>(IDS).await?.map(Json::into_inner).unwrap_or_default();
        if !ids.contains(&id) {
            ids.push(id);
            ctx.set(IDS, Json(ids));
        }
        Ok(())
    }

    #[handler]
    async fn remove(&self, ctx: ObjectContext<'_>, id: String) -> HandlerResult<()> {
        let mut ids = ctx.get::<Json<Vec<String>>>(IDS).await?.map(Json::into_inner).unwrap_or_default();
        ids.retain(|i| i != &id);
        ctx.set(IDS, Json(ids));
        Ok(())
    }

    #[handler]
    async fn list(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<Vec<String>>> {
        Ok(Json(ctx.get::<Json<Vec<String>>>(IDS).await?.map(Json::into_inner).unwrap_or_default()))
    }
}
