//! `RunClaims`, a virtual object keyed by run id that only the service's own handlers can call
//! (not the ingress): who took a run id, and which of a run's waits an answer was taken for.
//! Its handlers run one at a time per key, so of two claims at once exactly one wins: two
//! forks into one id, or two answers to one wait.
//!
//! A run's id is the key of its workflow, and Restate runs one workflow per key: a second
//! `run` sent to a key already used is dropped without a word to the sender. So a fork claims
//! its id here before it sends its `run`, and every run claims its own id first thing, whoever
//! started it. A fork's claim holds an awakeable the fork's run resolves once it has started;
//! a run that finds another's fork claim on its id (the fork's `run` was dropped: this run
//! had the key first) rejects that awakeable, so the `fork` handler never reports a fork that
//! does not exist.

use restate_sdk::prelude::*;
use serde::{Deserialize, Serialize};

const HOLDER: &str = "holder";

/// The answer claimed for the wait on promise `promise`.
fn answered(promise: &str) -> String {
    format!("answered:{promise}")
}

/// A claim on a run id: the ticket of the run that takes it, and for a fork the awakeable
/// its handler waits on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IdClaim {
    pub ticket: String,
    #[serde(default)]
    pub awakeable: Option<String>,
}

/// What a run learns when it claims its id: see [`RunClaims::run`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunClaim {
    pub own: Option<String>,
    pub dropped: Option<String>,
}

/// The ticket of a run started by a client's submission (a fork's is its awakeable's id).
pub const SUBMITTED: &str = "submitted";

#[restate_sdk::object(name = "RunClaims", ingress_private)]
impl RunClaims {
    /// A fork's claim on the id of the run it is about to start: granted (`true`) when no run
    /// has claimed the id, or this fork did already.
    #[handler]
    async fn fork(&self, ctx: ObjectContext<'_>, claim: Json<IdClaim>) -> HandlerResult<bool> {
        let claim = claim.into_inner();
        match ctx.get::<Json<IdClaim>>(HOLDER).await? {
            Some(Json(held)) => Ok(held.ticket == claim.ticket),
            None => {
                ctx.set(HOLDER, Json(claim));
                Ok(true)
            }
        }
    }

    /// The claim of the run now running under this id, whose ticket is `ticket` (its
    /// workflow has the key, so it always holds): the awakeable it must resolve once started,
    /// if the fork handler that claimed the id for it waits on one, and the awakeable of a
    /// fork that claimed the id before it but whose `run` was dropped, to be told. Only
    /// awakeables the `fork` handler registered here are ever named: a ticket in a request is
    /// compared, never completed.
    #[handler]
    async fn run(&self, ctx: ObjectContext<'_>, ticket: String) -> HandlerResult<Json<RunClaim>> {
        let earlier = ctx.get::<Json<IdClaim>>(HOLDER).await?.map(Json::into_inner);
        ctx.set(HOLDER, Json(IdClaim { ticket: ticket.clone(), awakeable: None }));
        Ok(Json(match earlier {
            Some(c) if c.ticket == ticket => RunClaim { own: c.awakeable, dropped: None },
            Some(c) => RunClaim { own: None, dropped: c.awakeable },
            None => RunClaim::default(),
        }))
    }

    /// An answer's claim on the wait for promise `promise`: `true` for the first, `false` for
    /// any after it.
    #[handler]
    async fn answer(&self, ctx: ObjectContext<'_>, promise: String) -> HandlerResult<bool> {
        let key = answered(&promise);
        if ctx.get::<bool>(&key).await?.is_some() {
            return Ok(false);
        }
        ctx.set(&key, true);
        Ok(true)
    }
}

pub struct RunClaims;
