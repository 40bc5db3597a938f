//! The graphs a server serves, compiled as a served run compiles them, by `graph_hash`: a
//! run's record is rebuilt against its own graph to read its checkpoints.

use std::collections::BTreeMap;
use std::rc::Rc;

use engine::Plan;
use serde_json::Value;

use crate::client::ingress::Failure;
use crate::load::served_plan;

pub struct Graphs {
    by_hash: BTreeMap<String, Value>,
}

impl Graphs {
    pub fn new(documents: &[Value]) -> Result<Graphs, Failure> {
        let mut by_hash = BTreeMap::new();
        for document in documents {
            let (_, hash) = served_plan(document.clone()).map_err(|r| Failure::new(r.code(), r.message()))?;
            by_hash.insert(hash, document.clone());
        }
        Ok(Graphs { by_hash })
    }

    /// The plan of the graph whose hash is `hash`.
    pub fn plan(&self, hash: Option<&str>) -> Result<Rc<Plan>, Failure> {
        let document = hash.and_then(|h| self.by_hash.get(h)).ok_or_else(|| {
            Failure::new(500, format!("the graph {} is not one this server serves", hash.unwrap_or("(unknown)")))
        })?;
        let (plan, _) = served_plan(document.clone()).map_err(|r| Failure::new(r.code(), r.message()))?;
        Ok(Rc::new(plan))
    }
}
