//! The kinds that reach outside the engine (spec 2.2): `llm`, `http` and `subgraph`, each
//! checked and compiled into its [`Op`].

use std::rc::Rc;

use serde_json::Value;

use crate::document::{GRAPH_FORMAT, NodeField, Parse, Provider};
use crate::plan::check::{Checker, NodeAt};
use crate::plan::compile::compile_at;
use crate::plan::types::{Body, HttpOp, LlmOp, Op, Plan, SubgraphOp};
use crate::script::Expr;

/// Subgraphs may nest, but not without end.
const MAX_SUBGRAPH_DEPTH: usize = 8;

/// The methods an `http` node may use.
const HTTP_METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

impl Checker {
    /// `llm`: the model, the prompts, where the reply goes.
    pub(super) fn llm_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id, s) = (at.n, at.id(), at.scripting);
        let writes = self.require_writes(at);
        let Some(model) = &n.model else {
            self.error(at.path(NodeField::Model), "an `llm` node needs `model`: {provider, …}".into(), id, None);
            return None;
        };
        if model.provider == Provider::Mock && model.responses.as_ref().is_none_or(Vec::is_empty) {
            self.warn(
                at.key_path(NodeField::Model, "responses"),
                "a mock model without responses answers with an empty string".into(),
                id,
                None,
            );
        }
        let Some(prompt_src) = &n.prompt else {
            self.error(at.path(NodeField::Prompt), "an `llm` node needs `prompt`".into(), id, None);
            return None;
        };
        let prompt = self.template(s, prompt_src, at.path(NodeField::Prompt), id);
        let system = n.system.as_ref().map(|t| self.template(s, t, at.path(NodeField::System), id));
        let (Some(prompt), Some(writes)) = (prompt, writes) else {
            return None;
        };
        let system = match system {
            Some(None) => return None,
            Some(Some(t)) => Some(t),
            None => None,
        };
        let parse = n.parse.unwrap_or(Parse::Text);
        Some(Op::Llm(LlmOp { prompt, system, writes, parse, model: model.clone() }))
    }

    /// `http`: the method, and the url, headers and body templates.
    pub(super) fn http_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id, s) = (at.n, at.id(), at.scripting);
        let writes = self.require_writes(at);
        let method = n.method.clone().unwrap_or_else(|| "GET".into()).to_ascii_uppercase();
        if !HTTP_METHODS.contains(&method.as_str()) {
            self.error(at.path(NodeField::Method), format!("`{method}` is not an HTTP method"), id, None);
        }
        let Some(url_src) = &n.url else {
            self.error(at.path(NodeField::Url), "an `http` node needs `url`".into(), id, None);
            return None;
        };
        let url = self.template(s, url_src, at.path(NodeField::Url), id);
        let mut headers = Vec::new();
        let mut ok = true;
        for (name, v) in n.headers.iter().flatten() {
            match self.template(s, v, at.key_path(NodeField::Headers, name), id) {
                Some(t) => headers.push((name.clone(), t)),
                None => ok = false,
            }
        }
        let body = match &n.body {
            None => None,
            Some(Value::String(t)) => self.template(s, t, at.path(NodeField::Body), id).map(Body::Text),
            Some(v) => self.json_template(s, v, at.path(NodeField::Body), id).map(Body::Json),
        };
        ok &= n.body.is_none() || body.is_some();
        let (Some(url), Some(writes), true) = (url, writes, ok) else {
            return None;
        };
        Some(Op::Http(HttpOp { method, url, headers, body, writes, parse: n.parse.unwrap_or(Parse::Json) }))
    }

    /// `subgraph`: the embedded graph, compiled (its diagnostics reported under this
    /// node's path), and the input and output expressions.
    pub(super) fn subgraph_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let inner = self.inner_plan(at)?;
        let mut ok = true;
        let inputs = self.exprs(at, NodeField::Inputs, &[], &mut ok);
        if let Some(outputs) = &at.n.outputs {
            let path = at.path(NodeField::Outputs);
            self.undeclared_writes(at.graph, at.schema, outputs.keys().map(String::as_str), &path, at.id());
        }
        let outputs = self.exprs(at, NodeField::Outputs, &["result"], &mut ok);
        let plan = inner?;
        ok.then(|| Op::Subgraph(SubgraphOp { plan: Rc::new(plan), inputs, outputs }))
    }

    /// The embedded graph compiled one level deeper, its diagnostics passed on. `None`
    /// when there is no graph to compile (an error is reported); `Some(None)` when it has
    /// errors.
    fn inner_plan(&mut self, at: &NodeAt<'_>) -> Option<Option<Plan>> {
        let (n, id) = (at.n, at.id());
        let path = at.path(NodeField::Graph);
        let Some(inner) = &n.graph else {
            let message = "a `subgraph` node needs `graph`: an embedded graph document";
            self.error(path, message.into(), id, None);
            return None;
        };
        if at.depth >= MAX_SUBGRAPH_DEPTH {
            self.error(path, format!("subgraphs nest more than {MAX_SUBGRAPH_DEPTH} deep"), id, None);
            return None;
        }
        if inner.format != GRAPH_FORMAT {
            self.error(at.key_path(NodeField::Graph, "format"), format!("expected \"{GRAPH_FORMAT}\""), id, None);
        }
        let compiled = compile_at(inner, at.depth + 1);
        for d in compiled.diagnostics {
            let path = if d.path.is_empty() { path.clone() } else { at.key_path(NodeField::Graph, &d.path) };
            let message = format!("in subgraph `{}`: {}", n.id, d.message);
            self.push(d.severity, path, message, id, None);
        }
        Some(compiled.plan)
    }

    /// The expressions of a `{field: expression}` map (`inputs`, `outputs`), with `extra`
    /// names in scope; `ok` is cleared when one does not compile.
    fn exprs(&mut self, at: &NodeAt<'_>, field: NodeField, extra: &[&str], ok: &mut bool) -> Vec<(String, Expr)> {
        let map = match field {
            NodeField::Inputs => &at.n.inputs,
            _ => &at.n.outputs,
        };
        let mut out = Vec::new();
        for (key, src) in map.iter().flatten() {
            match self.expr(at.scripting, src, at.key_path(field, key), at.id(), None, extra) {
                Some(e) => out.push((key.clone(), e)),
                None => *ok = false,
            }
        }
        out
    }

    /// The field an `llm` or `http` node's result goes to, which it must name.
    fn require_writes(&mut self, at: &NodeAt<'_>) -> Option<String> {
        let path = at.path(NodeField::Writes);
        match &at.n.writes {
            Some(w) => {
                self.undeclared_writes(at.graph, at.schema, [w.as_str()].into_iter(), &path, at.id());
                Some(w.clone())
            }
            None => {
                let message = format!("an `{}` node needs `writes`: the field its result goes to", at.n.kind.name());
                self.error(path, message, at.id(), None);
                None
            }
        }
    }
}
