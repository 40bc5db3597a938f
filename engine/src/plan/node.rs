//! Checks of one node (format.md §4): the rules every kind shares, then its kind's own, which
//! also compile its operation.

use crate::document::{MAX_RETRY_ATTEMPTS, MIN_RETRY_BACKOFF_MS, NodeField, NodeKind, OnError, Retry};
use crate::plan::check::{Checker, NodeAt};
use crate::plan::types::Op;

impl Checker {
    /// Checks one node and compiles its operation (none when it has an error).
    pub(super) fn node(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        self.stray_fields(at);
        self.common_fields(at);
        self.edges_out(at);
        match at.n.kind {
            NodeKind::Start => Some(self.start_op(at)),
            NodeKind::End => self.end_op(at),
            NodeKind::Note => Some(Op::Note),
            NodeKind::Set => self.set_op(at),
            NodeKind::Script => self.script_op(at),
            NodeKind::Router => self.router_op(at),
            NodeKind::Human => self.human_op(at),
            NodeKind::Llm => self.llm_op(at),
            NodeKind::Http => self.http_op(at),
            NodeKind::Subgraph => self.subgraph_op(at),
            NodeKind::Tools => self.tools_op(at),
        }
    }

    /// Fields that mean nothing on the node's kind: an error for another kind's field, a
    /// warning for a common field without effect.
    fn stray_fields(&mut self, at: &NodeAt<'_>) {
        let n = at.n;
        let kind = n.kind.name();
        for field in n.stray_fields() {
            let message = match field {
                f if !f.is_common() => {
                    self.error(at.path(f), format!("`{f}` does not apply to a `{kind}` node"), at.id(), None);
                    continue;
                }
                NodeField::Retry => format!("has no effect on a `{kind}` node (only llm, http and subgraph retry)"),
                // `disabled: false` says what is true anyway.
                NodeField::Disabled if !n.is_disabled() => continue,
                _ => format!("has no effect on a `{kind}` node"),
            };
            self.warn(at.path(field), message, at.id(), None);
        }
    }

    /// `retry`: at least one attempt; attempts and back-off held to the host's bounds.
    fn check_retry(&mut self, at: &NodeAt<'_>, r: &Retry) {
        let attempts = at.key_path(NodeField::Retry, "attempts");
        match r.attempts {
            0 => self.error(attempts, "must be at least 1".into(), at.id(), None),
            n if n > MAX_RETRY_ATTEMPTS => self.warn(
                attempts,
                format!("{n} is over this host's ceiling; {MAX_RETRY_ATTEMPTS} is used instead"),
                at.id(),
                None,
            ),
            _ => {}
        }
        if let Some(ms) = r.backoff_ms.filter(|&ms| ms < MIN_RETRY_BACKOFF_MS) {
            self.warn(
                at.key_path(NodeField::Retry, "backoff_ms"),
                format!("{ms} is under this host's floor; {MIN_RETRY_BACKOFF_MS} is used instead"),
                at.id(),
                None,
            );
        }
    }

    /// The common fields' own rules: `retry`, a pinned router, what `pinned` writes.
    fn common_fields(&mut self, at: &NodeAt<'_>) {
        let n = at.n;
        if let Some(r) = &n.retry {
            self.check_retry(at, r);
        }
        if n.kind == NodeKind::Router && n.pinned.is_some() {
            self.warn(
                at.path(NodeField::Pinned),
                "a router writes nothing; the pinned update is applied but routing still evaluates `route`".into(),
                at.id(),
                None,
            );
        }
        if let Some(p) = &n.pinned {
            let path = at.path(NodeField::Pinned);
            self.undeclared_writes(at.graph, at.schema, p.keys().map(String::as_str), &path, at.id());
        }
    }

    /// The node's out-edges: an `error` edge for `on_error: route`, and at least one edge
    /// for a node that runs.
    fn edges_out(&mut self, at: &NodeAt<'_>) {
        let n = at.n;
        let has_error_edge = at.out.iter().any(|&j| at.graph.edges[j].label.as_deref() == Some("error"));
        if n.on_error == Some(OnError::Route) && !has_error_edge {
            let message = format!("`route` needs an edge labelled `error` out of `{}`", n.id);
            self.error(at.path(NodeField::OnError), message, at.id(), None);
        }
        let runs = !matches!(n.kind, NodeKind::Start | NodeKind::End | NodeKind::Note);
        if runs && at.out.is_empty() {
            self.warn(
                format!("nodes[{}]", at.i),
                format!("dead end: `{}` has no outgoing edge, so its branch stops there", n.id),
                at.id(),
                None,
            );
        }
    }
}
