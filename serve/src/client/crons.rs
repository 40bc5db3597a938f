//! Crons kept in the `Cron` object, each its JSON object with a version, listed in the
//! `ThreadIndex` keyed `crons`. What a cron says is the server's business; a write names the
//! version read, so that of two servers firing one cron at once only one does.

use serde_json::Value;

use crate::client::RestateThreads;
use crate::client::ingress::Failure;
use crate::threads::{Put, Versioned};

/// The key of the `ThreadIndex` that lists the crons.
const INDEX: &str = "crons";

/// A cron as kept: its version and its JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptCron {
    pub version: u64,
    pub cron: Value,
}

impl RestateThreads {
    /// Every cron, oldest first.
    pub fn crons(&self) -> Result<Vec<KeptCron>, Failure> {
        let ids: Vec<String> = self.ingress.call::<(), _>("ThreadIndex", INDEX, "list", None)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(kept) = self.cron(&id)? {
                out.push(kept);
            }
        }
        Ok(out)
    }

    /// The cron `id`, if there is one.
    pub fn cron(&self, id: &str) -> Result<Option<KeptCron>, Failure> {
        let held: Option<Versioned> = self.ingress.call::<(), _>("Cron", id, "get", None)?;
        Ok(held.map(|v| KeptCron { version: v.version, cron: v.document }))
    }

    /// Writes the cron over `expected` (0: a new one); 409 when another write came first.
    pub fn put_cron(&self, id: &str, expected: u64, cron: &Value) -> Result<u64, Failure> {
        let version = self.ingress.call("Cron", id, "put", Some(&Put { expected, document: cron.clone() }))?;
        if expected == 0 {
            self.ingress.call::<String, Value>("ThreadIndex", INDEX, "add", Some(&id.to_string()))?;
        }
        Ok(version)
    }

    /// Forgets the cron; whether there was one.
    pub fn delete_cron(&self, id: &str) -> Result<bool, Failure> {
        let existed: bool = self.ingress.call::<(), _>("Cron", id, "delete", None)?;
        self.ingress.call::<String, Value>("ThreadIndex", INDEX, "remove", Some(&id.to_string()))?;
        Ok(existed)
    }
}
