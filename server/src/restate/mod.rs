//! `switchyard server --restate URL`: the same API over Restate. Runs are `switchyard serve`'s
//! `GraphRun` workflows, threads its `Thread` objects, all reached through the ingress
//! ([`switchyard_serve::client`]); this process keeps nothing, so any number of servers may
//! stand in front of one Restate cluster (docs/scale.md).
//!
//! | module | what it holds |
//! |---|---|
//! | `backend` | [`OverRestate`]: the [`crate::backend::Backend`] over the ingress client |
//! | `crons` | [`RestateCrons`]: the crons' [`crate::crons::CronStore`] in Restate's `Cron` objects |
//! | `convert` | the client's views as the domain's threads, checkpoints, runs and interrupts |
//! | `events` | a run's stream events read back from its steps, as the embedded backend words them |
//! | `follow` | a run followed by polling its progress, its events pushed to a feed |

mod backend;
mod convert;
mod crons;
mod events;
mod follow;

pub use backend::OverRestate;
pub use crons::RestateCrons;
