//! Kinds that reach outside the engine (format.md §4): `http` and `subgraph`, each checked and
//! compiled into its [`Op`], and the request fields `http` nodes and `http` tools share.

use std::rc::Rc;

use serde_json::Value;

use indexmap::IndexMap;

use crate::document::{GRAPH_FORMAT, Graph, NodeField, Parse};
use crate::plan::check::{Checker, NodeAt};
use crate::plan::compile::compile_at;
use crate::plan::types::{Body, HttpOp, Op, Plan, RequestOp, SubgraphOp};
use crate::script::{Expr, Scripting};

/// Subgraphs may nest, but not without end.
const MAX_SUBGRAPH_DEPTH: usize = 8;

/// The methods an `http` node may use.
const HTTP_METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The fields of a request as a document writes them.
pub(super) struct RequestFields<'a> {
    pub(super) method: Option<&'a str>,
    pub(super) url: &'a str,
    pub(super) headers: Option<&'a IndexMap<String, String>>,
    pub(super) body: Option<&'a Value>,
}

impl Checker {
    /// `http`: the method, and the url, headers and body templates.
    pub(super) fn http_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let writes = self.require_writes(at);
        let Some(url) = &at.n.url else {
            self.error(at.path(NodeField::Url), "an `http` node needs `url`".into(), at.id(), None);
            return None;
        };
        let fields = RequestFields {
            method: at.n.method.as_deref(),
            url,
            headers: at.n.headers.as_ref(),
            body: at.n.body.as_ref(),
        };
        let request = self.request_op(at.scripting, &fields, &format!("nodes[{}]", at.i), at.id(), &[]);
        let (Some(request), Some(writes)) = (request, writes) else {
            return None;
        };
        Some(Op::Http(HttpOp { request, writes, parse: at.n.parse.unwrap_or(Parse::Json) }))
    }

    /// A request's method, and its url, headers and body templates (with `extra` names in
    /// scope), found at `base.method`, `base.url`…; `None` when one has an error.
    pub(super) fn request_op(
        &mut self,
        s: &Scripting,
        f: &RequestFields<'_>,
        base: &str,
        id: Option<&str>,
        extra: &[&str],
    ) -> Option<RequestOp> {
        let method = f.method.unwrap_or("GET").to_ascii_uppercase();
        let mut ok = true;
        if !HTTP_METHODS.contains(&method.as_str()) {
            self.error(format!("{base}.method"), format!("`{method}` is not an HTTP method"), id, None);
            ok = false;
        }
        let url = self.template_with(s, f.url, format!("{base}.url"), id, extra);
        let mut headers = Vec::new();
        for (name, v) in f.headers.into_iter().flatten() {
            match self.template_with(s, v, format!("{base}.headers.{name}"), id, extra) {
                Some(t) => headers.push((name.clone(), t)),
                None => ok = false,
            }
        }
        let path = format!("{base}.body");
        let body = match f.body {
            None => None,
            Some(Value::String(t)) => self.template_with(s, t, path, id, extra).map(Body::Text),
            Some(v) => self.json_template(s, v, path, id, extra).map(Body::Json),
        };
        ok &= f.body.is_none() || body.is_some();
        let url = url?;
        ok.then_some(RequestOp { method, url, headers, body })
    }

    /// `subgraph`: the graph it runs (embedded and compiled here, its diagnostics reported
    /// under this node's path, or a definition's shared plan), and the input and output
    /// expressions.
    pub(super) fn subgraph_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let inner = self.subgraph_plan(at)?;
        let mut ok = true;
        let inputs = self.exprs(at, NodeField::Inputs, &[], &mut ok);
        if let Some(outputs) = &at.n.outputs {
            let path = at.path(NodeField::Outputs);
            self.undeclared_writes(at.graph, at.schema, outputs.keys().map(String::as_str), &path, at.id());
        }
        let outputs = self.exprs(at, NodeField::Outputs, &["result"], &mut ok);
        let plan = inner?;
        self.inputs_cover_required(at, &plan);
        ok.then(|| Op::Subgraph(SubgraphOp { plan, inputs, outputs }))
    }

    /// Warns about each key the graph a `subgraph` node runs requires (its start's
    /// `required`) that the node's `inputs` do not give: that run would fail at once.
    fn inputs_cover_required(&mut self, at: &NodeAt<'_>, plan: &Plan) {
        let given = |key: &String| at.n.inputs.as_ref().is_some_and(|i| i.contains_key(key));
        let missing: Vec<String> =
            plan.required_inputs().iter().filter(|k| !given(k)).map(|k| format!("`{k}`")).collect();
        if !missing.is_empty() {
            let what = at.n.use_def.as_ref().map_or_else(|| "the embedded graph".to_string(), |d| format!("`{d}`"));
            let message = format!("{what} requires {} in its input, which `inputs` does not give", missing.join(", "));
            self.warn(at.path(NodeField::Inputs), message, at.id(), None);
        }
    }

    /// The plan a `subgraph` node runs: from exactly one of `graph` and `use`. `None` when
    /// neither or both are given (an error is reported); `Some(None)` when the graph has
    /// errors or the definition cannot run.
    fn subgraph_plan(&mut self, at: &NodeAt<'_>) -> Option<Option<Rc<Plan>>> {
        let id = at.id();
        match (&at.n.graph, &at.n.use_def) {
            (Some(inner), None) => self.inner_plan(at, inner),
            (None, Some(name)) => Some(self.use_definition(at.defs, name, at.path(NodeField::Use), id)),
            (None, None) => {
                let message = "a `subgraph` node needs `graph` (an embedded graph document) or `use` (the name of one of the graph's definitions)";
                self.error(at.path(NodeField::Graph), message.into(), id, None);
                None
            }
            (Some(_), Some(_)) => {
                let message = "give a `subgraph` node one of `graph` and `use`, not both";
                self.error(at.path(NodeField::Use), message.into(), id, None);
                None
            }
        }
    }

    /// The embedded graph compiled one level deeper, its diagnostics passed on. `None`
    /// when it nests too deep (an error is reported); `Some(None)` when it has errors.
    fn inner_plan(&mut self, at: &NodeAt<'_>, inner: &Graph) -> Option<Option<Rc<Plan>>> {
        let (n, id) = (at.n, at.id());
        let path = at.path(NodeField::Graph);
        if at.depth >= MAX_SUBGRAPH_DEPTH {
            self.error(path, format!("subgraphs nest more than {MAX_SUBGRAPH_DEPTH} deep"), id, None);
            return None;
        }
        if inner.format != GRAPH_FORMAT {
            self.error(at.key_path(NodeField::Graph, "format"), format!("expected \"{GRAPH_FORMAT}\""), id, None);
        }
        let compiled = compile_at(inner, at.depth + 1, at.defs);
        for d in compiled.diagnostics {
            let path = if d.path.is_empty() { path.clone() } else { at.key_path(NodeField::Graph, &d.path) };
            let message = format!("in subgraph `{}`: {}", n.id, d.message);
            self.push(d.severity, path, message, id, None);
        }
        Some(compiled.plan.map(Rc::new))
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
    pub(super) fn require_writes(&mut self, at: &NodeAt<'_>) -> Option<String> {
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
