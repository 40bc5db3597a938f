//! The kinds computed inside the engine (format.md §4): `start`, `set`, `script` and `router`,
//! each checked and compiled into its [`Op`]. (`human` nodes have their own module.)

use crate::document::NodeField;
use crate::plan::check::{Checker, NodeAt};
use crate::plan::types::Op;

impl Checker {
    /// `start`: its `required` input keys, which should be declared state fields.
    pub(super) fn start_op(&mut self, at: &NodeAt<'_>) -> Op {
        let required = at.n.required.clone().unwrap_or_default();
        if at.graph.state.is_some() {
            for (k, key) in required.iter().enumerate() {
                if !at.schema.is_declared(key) {
                    self.warn(
                        format!("{}[{k}]", at.path(NodeField::Required)),
                        format!("`{key}` is not a declared state field"),
                        at.id(),
                        None,
                    );
                }
            }
        }
        Op::Start { required }
    }

    /// `set`: one expression per field written.
    pub(super) fn set_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (id, path) = (at.id(), at.path(NodeField::Set));
        let Some(set) = &at.n.set else {
            self.error(path, "a `set` node needs `set`: {field: expression}".into(), id, None);
            return None;
        };
        if set.is_empty() {
            self.warn(path.clone(), "writes nothing".into(), id, None);
        }
        self.undeclared_writes(at.graph, at.schema, set.keys().map(String::as_str), &path, id);
        let mut exprs = Vec::new();
        let mut ok = true;
        for (field, src) in set {
            match self.expr(at.scripting, src, at.key_path(NodeField::Set, field), id, None, &[]) {
                Some(e) => exprs.push((field.clone(), e)),
                None => ok = false,
            }
        }
        ok.then_some(Op::Set(exprs))
    }

    /// `script`: Rhai code.
    pub(super) fn script_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let path = at.path(NodeField::Script);
        let Some(src) = &at.n.script else {
            self.error(path, "a `script` node needs `script`".into(), at.id(), None);
            return None;
        };
        self.expr(at.scripting, src, path, at.id(), None, &[]).map(Op::Script)
    }

    /// `router`: the expression giving the label(s) to follow.
    pub(super) fn router_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let path = at.path(NodeField::Route);
        let Some(src) = &at.n.route else {
            let message = "a `router` node needs `route`: an expression giving a label";
            self.error(path, message.into(), at.id(), None);
            return None;
        };
        self.expr(at.scripting, src, path, at.id(), None, &[]).map(Op::Router)
    }
}
