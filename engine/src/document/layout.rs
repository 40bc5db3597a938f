//! `layout`: where the editor draws each node, kept apart from the graph's meaning.

use indexmap::IndexMap;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::objects;

/// Writes a whole number without a fraction (`120`, not `120.0`), so a document written by
/// hand survives a round trip unchanged.
fn number<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { s.serialize_i64(*v as i64) } else { s.serialize_f64(*v) }
}

pub(super) fn opt_number<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => number(v, s),
        None => s.serialize_none(),
    }
}

/// Where a node sits on the canvas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Left edge, in canvas units.
    #[serde(serialize_with = "number")]
    pub x: f64,
    /// Top edge, in canvas units.
    #[serde(serialize_with = "number")]
    pub y: f64,
    /// Width, when the node was resized.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub w: Option<f64>,
    /// Height, when the node was resized.
    #[serde(default, skip_serializing_if = "Option::is_none", serialize_with = "opt_number")]
    pub h: Option<f64>,
}

/// The canvas's pan and zoom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Viewport {
    /// Horizontal pan.
    #[serde(serialize_with = "number")]
    pub x: f64,
    /// Vertical pan.
    #[serde(serialize_with = "number")]
    pub y: f64,
    /// Zoom factor (1 when absent).
    #[serde(default = "one", serialize_with = "number")]
    pub zoom: f64,
}

fn one() -> f64 {
    1.0
}

/// `layout`: node id → position, plus the optional key `viewport`. Kept apart from the
/// semantics so that moving a node never changes what the graph means.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    pub viewport: Option<Viewport>,
    pub nodes: IndexMap<String, Position>,
}

/// The reserved key of `layout` that holds the viewport rather than a node's position.
pub const VIEWPORT_KEY: &str = "viewport";

impl Serialize for Layout {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.nodes.len() + usize::from(self.viewport.is_some())))?;
        for (id, pos) in &self.nodes {
            m.serialize_entry(id, pos)?;
        }
        if let Some(v) = &self.viewport {
            m.serialize_entry(VIEWPORT_KEY, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = IndexMap::<String, Value>::deserialize(d)?;
        let mut layout = Layout::default();
        for (key, value) in raw {
            if key == VIEWPORT_KEY {
                let v = objects::Obj::<Viewport>::deserialize(value)
                    .map(|o| o.0)
                    .map_err(|e| D::Error::custom(format!("viewport: {e}")))?;
                layout.viewport = Some(v);
            } else {
                let p = objects::Obj::<Position>::deserialize(value)
                    .map(|o| o.0)
                    .map_err(|e| D::Error::custom(format!("{key}: {e}")))?;
                layout.nodes.insert(key, p);
            }
        }
        Ok(layout)
    }
}
