//! [`RestateCrons`]: crons kept in Restate (`switchyard serve`'s `Cron` objects), so that every
//! server in front of one cluster sees and schedules the same ones.

use std::sync::Arc;

use serde_json::Value;
use switchyard_serve::client::RestateThreads;

use crate::backend::Result;
use crate::crons::CronStore;
use crate::restate::convert;

/// The crons over the ingress client. Its calls are short and synchronous, made from the
/// scheduler and the cron endpoints directly.
pub struct RestateCrons {
    client: Arc<RestateThreads>,
}

impl RestateCrons {
    pub fn new(client: Arc<RestateThreads>) -> RestateCrons {
        RestateCrons { client }
    }
}

impl CronStore for RestateCrons {
    fn list(&self) -> Result<Vec<(Value, u64)>> {
        let kept = self.client.crons().map_err(convert::error)?;
        Ok(kept.into_iter().map(|k| (k.cron, k.version)).collect())
    }

    fn put(&self, cron: &Value, read_at: u64) -> Result<bool> {
        let id = cron["cron_id"].as_str().unwrap_or_default();
        match self.client.put_cron(id, read_at, cron) {
            Ok(_) => Ok(true),
            Err(e) if e.status == 409 => Ok(false),
            Err(e) => Err(convert::error(e)),
        }
    }

    fn remove(&self, id: &str) -> Result<bool> {
        self.client.delete_cron(id).map_err(convert::error)
    }
}
