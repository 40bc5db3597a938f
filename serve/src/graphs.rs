//! `GraphStore`, a virtual object keyed by graph hash: graphs registered once and run many
//! times by `graph_hash`, without sending the document with every run.

use restate_sdk::prelude::*;
use serde_json::Value;

use crate::load::{Refusal, plan_of};

const DOCUMENT: &str = "document";

#[restate_sdk::object(name = "GraphStore")]
impl GraphStore {
    /// Registers a graph under its hash, the key; a document that is invalid, or whose hash
    /// is not the key, is refused.
    #[handler]
    async fn put(&self, ctx: ObjectContext<'_>, document: Json<Value>) -> HandlerResult<String> {
        let document = document.into_inner();
        let (_, hash) = plan_of(document.clone())?;
        if hash != ctx.key() {
            return Err(Refusal::BadInput(format!("this graph's hash is {hash}, not {}", ctx.key())).into());
        }
        ctx.set(DOCUMENT, Json(document));
        Ok(hash)
    }

    /// The graph registered under this hash, or `null`.
    #[handler]
    async fn get(&self, ctx: SharedObjectContext<'_>) -> HandlerResult<Json<Option<Value>>> {
        Ok(Json(ctx.get::<Json<Value>>(DOCUMENT).await?.map(Json::into_inner)))
    }
}

pub struct GraphStore;
