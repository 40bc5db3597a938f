//! A graph compiled for execution, and the validation that comes with compiling it.
//!
//! [`compile`] walks the document once, reporting every problem it finds (spec 2 and the
//! validator's list), and, when there is no error, produces a [`Plan`]: nodes in id order
//! (which is the order updates are applied in), compiled expressions, and edge tables.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{
    EffectiveLimits, FieldType, Graph, Join, ModelConfig, Node, NodeKind, OnError, Parse, Reducer, Retry,
};
use crate::script::{CompileError, Expr, Scripting, Template};
use crate::state::{Evict, Schema, check_type};

/// Subgraphs may nest, but not without end.
const MAX_SUBGRAPH_DEPTH: usize = 8;

/// An executable graph.
#[derive(Debug)]
pub struct Plan {
    pub graph: Graph,
    pub nodes: Vec<PlanNode>,
    pub by_id: HashMap<String, usize>,
    pub start: usize,
    pub schema: Schema,
    pub limits: EffectiveLimits,
    pub scripting: Scripting,
}

impl Plan {
    pub fn index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn node(&self, index: usize) -> &PlanNode {
        &self.nodes[index]
    }

    /// The keys the start node requires in the input.
    pub fn required_inputs(&self) -> &[String] {
        match &self.nodes[self.start].op {
            Op::Start { required } => required,
            _ => &[],
        }
    }
}

#[derive(Debug)]
pub struct PlanNode {
    pub id: Arc<str>,
    pub kind: NodeKind,
    pub join_all: bool,
    pub on_error: OnError,
    pub disabled: bool,
    pub pinned: Option<Arc<Map<String, Value>>>,
    pub timeout_ms: Option<u64>,
    pub retry: Option<Retry>,
    pub op: Op,
    pub out: Vec<PlanEdge>,
    /// Distinct sources of edges into this node (what a `join: all` waits for).
    pub preds: Vec<usize>,
    /// The `join: all` nodes this node is a predecessor of.
    pub feeds_joins: Vec<usize>,
}

#[derive(Debug)]
pub struct PlanEdge {
    /// Index in the document's `edges`.
    pub index: usize,
    pub to: usize,
    pub label: Option<String>,
    pub when: Option<Expr>,
}

impl PlanEdge {
    pub fn is_error_edge(&self) -> bool {
        self.label.as_deref() == Some("error")
    }
}

#[derive(Debug)]
pub enum Op {
    Start { required: Vec<String> },
    End,
    Note,
    Set(Vec<(String, Expr)>),
    Script(Expr),
    Router(Expr),
    Human { prompt: Option<Template>, writes: String, options: Option<Vec<String>> },
    Llm(LlmOp),
    Http(HttpOp),
    Subgraph(SubgraphOp),
}

#[derive(Debug)]
pub struct LlmOp {
    pub prompt: Template,
    pub system: Option<Template>,
    pub writes: String,
    pub parse: Parse,
    pub model: ModelConfig,
}

#[derive(Debug)]
pub struct HttpOp {
    pub method: String,
    pub url: Template,
    pub headers: Vec<(String, Template)>,
    pub body: Option<Body>,
    pub writes: String,
    pub parse: Parse,
}

/// An `http` body: a template, or JSON whose strings are templates.
#[derive(Debug)]
pub enum Body {
    Text(Template),
    Json(JsonTemplate),
}

#[derive(Debug)]
pub enum JsonTemplate {
    Literal(Value),
    Text(Template),
    List(Vec<JsonTemplate>),
    Object(Vec<(String, JsonTemplate)>),
}

#[derive(Debug)]
pub struct SubgraphOp {
    pub plan: Rc<Plan>,
    pub inputs: Vec<(String, Expr)>,
    pub outputs: Vec<(String, Expr)>,
}

/// The outcome of compiling: every diagnostic, and a plan when none is an error.
#[derive(Debug)]
pub struct Compiled {
    pub plan: Option<Plan>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Validates a graph: every problem at once, errors first then warnings, each in document
/// order.
pub fn validate(graph: &Graph) -> Vec<Diagnostic> {
    compile(graph).diagnostics
}

pub fn compile(graph: &Graph) -> Compiled {
    compile_at(graph, 0)
}

fn compile_at(graph: &Graph, depth: usize) -> Compiled {
    let mut c = Checker { diags: Vec::new() };
    let limits = graph.effective_limits();
    let scripting = Scripting::new(&limits);
    c.check_limits(graph);
    c.check_state(graph);
    let schema = Schema::from_graph(graph);

    // Ids: well-formed and unique.
    let mut first_seen: HashMap<&str, usize> = HashMap::new();
    for (i, n) in graph.nodes.iter().enumerate() {
        if !valid_id(&n.id) {
            c.error(
                format!("nodes[{i}].id"),
                format!("`{}` is not a valid id: use 1 to 64 letters, digits, `_` or `-`", n.id),
                Some(&n.id),
                None,
            );
        }
        if let Some(prev) = first_seen.insert(&n.id, i) {
            c.error(
                format!("nodes[{i}].id"),
                format!("duplicate node id `{}` (also nodes[{prev}])", n.id),
                Some(&n.id),
                None,
            );
            first_seen.insert(&n.id, prev);
        }
    }
    let starts: Vec<usize> =
        graph.nodes.iter().enumerate().filter(|(_, n)| n.kind == NodeKind::Start).map(|(i, _)| i).collect();
    match starts.len() {
        0 => c.error("nodes".into(), "the graph needs exactly one `start` node; it has none".into(), None, None),
        1 => {}
        k => {
            for &i in &starts[1..] {
                c.error(
                    format!("nodes[{i}]"),
                    format!("the graph needs exactly one `start` node; it has {k}"),
                    Some(&graph.nodes[i].id),
                    None,
                );
            }
        }
    }

    // Edges: endpoints exist and make sense.
    let kind_of = |id: &str| first_seen.get(id).map(|&i| graph.nodes[i].kind);
    let mut edge_ids: HashMap<&str, usize> = HashMap::new();
    for (j, e) in graph.edges.iter().enumerate() {
        if let Some(id) = &e.id
            && let Some(prev) = edge_ids.insert(id, j)
        {
            c.error(format!("edges[{j}].id"), format!("duplicate edge id `{id}` (also edges[{prev}])"), None, Some(j));
        }
        match kind_of(&e.from) {
            None => c.error(format!("edges[{j}].from"), format!("no node has the id `{}`", e.from), None, Some(j)),
            Some(NodeKind::End) => c.error(
                format!("edges[{j}].from"),
                format!("`{}` is an end node; nothing can follow it", e.from),
                Some(&e.from),
                Some(j),
            ),
            Some(NodeKind::Note) => c.error(
                format!("edges[{j}].from"),
                format!("`{}` is a note; notes have no edges", e.from),
                Some(&e.from),
                Some(j),
            ),
            _ => {}
        }
        match kind_of(&e.to) {
            None => c.error(format!("edges[{j}].to"), format!("no node has the id `{}`", e.to), None, Some(j)),
            Some(NodeKind::Start) => c.error(
                format!("edges[{j}].to"),
                format!("`{}` is the start node; no edge may lead into it", e.to),
                Some(&e.to),
                Some(j),
            ),
            Some(NodeKind::Note) => c.error(
                format!("edges[{j}].to"),
                format!("`{}` is a note; notes have no edges", e.to),
                Some(&e.to),
                Some(j),
            ),
            _ => {}
        }
    }

    // Out-edges by source document index.
    let mut out_by_node: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for (j, e) in graph.edges.iter().enumerate() {
        if let Some(&i) = first_seen.get(e.from.as_str()) {
            out_by_node[i].push(j);
        }
    }

    // Per-node checks and compilation.
    let mut ops: Vec<Option<Op>> = Vec::with_capacity(graph.nodes.len());
    for (i, n) in graph.nodes.iter().enumerate() {
        ops.push(c.node(graph, &schema, &scripting, i, n, &out_by_node[i], depth));
    }

    // Edge expressions and label rules.
    let mut whens: Vec<Option<Expr>> = Vec::with_capacity(graph.edges.len());
    for (j, e) in graph.edges.iter().enumerate() {
        whens.push(e.when.as_ref().and_then(|w| c.expr(&scripting, w, format!("edges[{j}].when"), None, Some(j), &[])));
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        c.labels(graph, i, n, &out_by_node[i]);
    }

    c.reachability(graph, &first_seen, &out_by_node);

    let mut diagnostics = c.diags;
    diagnostics.sort_by_key(|d| d.severity);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Compiled { plan: None, diagnostics };
    }

    // Build the plan, nodes sorted by id.
    let mut order: Vec<usize> = (0..graph.nodes.len()).collect();
    order.sort_by(|&a, &b| graph.nodes[a].id.cmp(&graph.nodes[b].id));
    let mut doc_to_plan = vec![0; graph.nodes.len()];
    for (p, &d) in order.iter().enumerate() {
        doc_to_plan[d] = p;
    }
    let mut whens: Vec<Option<Expr>> = whens;
    let mut nodes: Vec<PlanNode> = Vec::with_capacity(order.len());
    for &d in &order {
        let n = &graph.nodes[d];
        let Some(op) = ops[d].take() else {
            // Unreachable: an op is only missing when an error was reported.
            return Compiled { plan: None, diagnostics };
        };
        let out = out_by_node[d]
            .iter()
            .map(|&j| {
                let e = &graph.edges[j];
                PlanEdge {
                    index: j,
                    to: doc_to_plan[first_seen[e.to.as_str()]],
                    label: e.label.clone(),
                    when: whens[j].take(),
                }
            })
            .collect();
        nodes.push(PlanNode {
            id: Arc::from(n.id.as_str()),
            kind: n.kind,
            join_all: n.join == Some(Join::All),
            on_error: n.on_error.unwrap_or_default(),
            disabled: n.is_disabled(),
            pinned: n.pinned.clone().map(Arc::new),
            timeout_ms: n.timeout_ms,
            retry: n.retry.clone(),
            op,
            out,
            preds: Vec::new(),
            feeds_joins: Vec::new(),
        });
    }
    let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); nodes.len()];
    for (p, node) in nodes.iter().enumerate() {
        for e in &node.out {
            preds[e.to].insert(p);
        }
    }
    for (p, set) in preds.into_iter().enumerate() {
        nodes[p].preds = set.into_iter().collect();
    }
    for j in 0..nodes.len() {
        if nodes[j].join_all {
            for k in nodes[j].preds.clone() {
                nodes[k].feeds_joins.push(j);
            }
        }
    }
    let by_id = nodes.iter().enumerate().map(|(p, n)| (n.id.to_string(), p)).collect();
    let start = doc_to_plan[starts[0]];
    Compiled { plan: Some(Plan { graph: graph.clone(), nodes, by_id, start, schema, limits, scripting }), diagnostics }
}

pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

struct Checker {
    diags: Vec<Diagnostic>,
}

impl Checker {
    fn push(&mut self, severity: Severity, path: String, message: String, node: Option<&str>, edge: Option<usize>) {
        self.diags.push(Diagnostic { severity, path, message, node: node.map(str::to_string), edge });
    }

    fn error(&mut self, path: String, message: String, node: Option<&str>, edge: Option<usize>) {
        self.push(Severity::Error, path, message, node, edge);
    }

    fn warn(&mut self, path: String, message: String, node: Option<&str>, edge: Option<usize>) {
        self.push(Severity::Warning, path, message, node, edge);
    }

    fn compile_error(&mut self, path: String, e: CompileError, node: Option<&str>, edge: Option<usize>) {
        self.error(path, format!("does not compile: {e}"), node, edge);
    }

    fn expr(
        &mut self,
        s: &Scripting,
        src: &str,
        path: String,
        node: Option<&str>,
        edge: Option<usize>,
        extra: &[&str],
    ) -> Option<Expr> {
        match s.compile(src, extra) {
            Ok(e) => Some(e),
            Err(e) => {
                self.compile_error(path, e, node, edge);
                None
            }
        }
    }

    fn template(&mut self, s: &Scripting, src: &str, path: String, node: Option<&str>) -> Option<Template> {
        match s.compile_template(src, &[]) {
            Ok(t) => Some(t),
            Err(e) => {
                self.compile_error(path, e, node, None);
                None
            }
        }
    }

    fn check_limits(&mut self, graph: &Graph) {
        let Some(l) = &graph.limits else { return };
        for (name, value) in [
            ("max_steps", l.max_steps),
            ("run_timeout_ms", l.run_timeout_ms),
            ("node_timeout_ms", l.node_timeout_ms),
            ("max_state_bytes", l.max_state_bytes),
            ("max_ops", l.max_ops),
        ] {
            if value == Some(0) {
                self.error(format!("limits.{name}"), "must be at least 1".into(), None, None);
            }
        }
    }

    fn check_state(&mut self, graph: &Graph) {
        for (name, f) in graph.state.iter().flatten() {
            let path = format!("state.{name}");
            let reducer = f.reducer.unwrap_or_default();
            let fits = match reducer {
                Reducer::Replace => true,
                Reducer::Append => matches!(f.ty, FieldType::List | FieldType::Any),
                Reducer::Add => matches!(f.ty, FieldType::Number | FieldType::Integer | FieldType::Any),
                Reducer::Merge => matches!(f.ty, FieldType::Object | FieldType::Any),
            };
            if !fits {
                self.error(
                    format!("{path}.reducer"),
                    format!("`{}` does not work on a field of type {}", reducer.name(), f.ty.name()),
                    None,
                    None,
                );
            }
            if let Some(d) = &f.default
                && let Err(e) = check_type(f.ty, d)
            {
                self.error(format!("{path}.default"), e, None, None);
            }
            if let Some(m) = f.max_items {
                if reducer != Reducer::Append {
                    self.error(
                        format!("{path}.max_items"),
                        "only `append` fields can have max_items".into(),
                        None,
                        None,
                    );
                } else if m == 0 {
                    self.error(format!("{path}.max_items"), "must be at least 1".into(), None, None);
                }
            }
            if let Some(ev) = &f.evict {
                if Evict::parse(ev).is_none() {
                    self.error(
                        format!("{path}.evict"),
                        format!("`{ev}` is not `oldest` or `lowest:<key>`"),
                        None,
                        None,
                    );
                } else if f.max_items.is_none() {
                    self.warn(format!("{path}.evict"), "has no effect without max_items".into(), None, None);
                }
            }
        }
    }

    /// Checks one node and compiles its operation.
    #[allow(clippy::too_many_arguments, reason = "one call site; a struct would only rename these")]
    fn node(
        &mut self,
        graph: &Graph,
        schema: &Schema,
        s: &Scripting,
        i: usize,
        n: &Node,
        out: &[usize],
        depth: usize,
    ) -> Option<Op> {
        let at = |field: &str| format!("nodes[{i}].{field}");
        let id = Some(n.id.as_str());
        let allowed = n.kind.fields();
        for field in n.present_fields() {
            if !allowed.contains(&field) {
                self.error(at(field), format!("`{field}` does not apply to a `{}` node", n.kind.name()), id, None);
            }
        }
        let effectful = n.kind.is_effectful();
        if !effectful {
            if n.retry.is_some() {
                self.warn(
                    at("retry"),
                    format!("has no effect on a `{}` node (only llm, http and subgraph retry)", n.kind.name()),
                    id,
                    None,
                );
            }
            if n.timeout_ms.is_some() {
                self.warn(at("timeout_ms"), format!("has no effect on a `{}` node", n.kind.name()), id, None);
            }
        }
        if let Some(r) = &n.retry
            && r.attempts == 0
        {
            self.error(at("retry.attempts"), "must be at least 1".into(), id, None);
        }
        let structural = matches!(n.kind, NodeKind::Start | NodeKind::End | NodeKind::Note);
        if structural {
            for (field, present) in [
                ("join", n.join.is_some()),
                ("on_error", n.on_error.is_some()),
                ("pinned", n.pinned.is_some()),
                ("disabled", n.is_disabled()),
            ] {
                if present {
                    self.warn(at(field), format!("has no effect on a `{}` node", n.kind.name()), id, None);
                }
            }
        }
        if n.kind == NodeKind::Router && n.pinned.is_some() {
            self.warn(
                at("pinned"),
                "a router writes nothing; the pinned update is applied but routing still evaluates `route`".into(),
                id,
                None,
            );
        }
        if n.on_error == Some(OnError::Route) && !out.iter().any(|&j| graph.edges[j].label.as_deref() == Some("error"))
        {
            self.error(at("on_error"), format!("`route` needs an edge labelled `error` out of `{}`", n.id), id, None);
        }
        if let Some(p) = &n.pinned {
            self.undeclared_writes(graph, schema, p.keys().map(String::as_str), &at("pinned"), id);
        }
        if n.kind != NodeKind::Start && n.kind != NodeKind::Note && n.kind != NodeKind::End && out.is_empty() {
            self.warn(
                format!("nodes[{i}]"),
                format!("dead end: `{}` has no outgoing edge, so its branch stops there", n.id),
                id,
                None,
            );
        }

        match n.kind {
            NodeKind::Start => {
                let required = n.required.clone().unwrap_or_default();
                if graph.state.is_some() {
                    for (k, key) in required.iter().enumerate() {
                        if !schema.is_declared(key) {
                            self.warn(
                                format!("nodes[{i}].required[{k}]"),
                                format!("`{key}` is not a declared state field"),
                                id,
                                None,
                            );
                        }
                    }
                }
                Some(Op::Start { required })
            }
            NodeKind::End => Some(Op::End),
            NodeKind::Note => Some(Op::Note),
            NodeKind::Set => {
                let Some(set) = &n.set else {
                    self.error(at("set"), "a `set` node needs `set`: {field: expression}".into(), id, None);
                    return None;
                };
                if set.is_empty() {
                    self.warn(at("set"), "writes nothing".into(), id, None);
                }
                self.undeclared_writes(graph, schema, set.keys().map(String::as_str), &at("set"), id);
                let mut exprs = Vec::new();
                let mut ok = true;
                for (field, src) in set {
                    match self.expr(s, src, format!("nodes[{i}].set.{field}"), id, None, &[]) {
                        Some(e) => exprs.push((field.clone(), e)),
                        None => ok = false,
                    }
                }
                ok.then_some(Op::Set(exprs))
            }
            NodeKind::Script => {
                let Some(src) = &n.script else {
                    self.error(at("script"), "a `script` node needs `script`".into(), id, None);
                    return None;
                };
                self.expr(s, src, at("script"), id, None, &[]).map(Op::Script)
            }
            NodeKind::Router => {
                let Some(src) = &n.route else {
                    self.error(
                        at("route"),
                        "a `router` node needs `route`: an expression giving a label".into(),
                        id,
                        None,
                    );
                    return None;
                };
                self.expr(s, src, at("route"), id, None, &[]).map(Op::Router)
            }
            NodeKind::Human => {
                let Some(writes) = &n.writes else {
                    self.error(
                        at("writes"),
                        "a `human` node needs `writes`: the field the answer goes to".into(),
                        id,
                        None,
                    );
                    return None;
                };
                self.undeclared_writes(graph, schema, [writes.as_str()].into_iter(), &at("writes"), id);
                if let Some(opts) = &n.options {
                    if opts.is_empty() {
                        self.error(
                            at("options"),
                            "give at least one option, or leave `options` out for a free answer".into(),
                            id,
                            None,
                        );
                    }
                    let mut seen = BTreeSet::new();
                    for o in opts {
                        if !seen.insert(o) {
                            self.error(at("options"), format!("option `{o}` is listed twice"), id, None);
                        }
                    }
                }
                let prompt = match &n.prompt {
                    Some(p) => Some(self.template(s, p, at("prompt"), id)?),
                    None => None,
                };
                Some(Op::Human { prompt, writes: writes.clone(), options: n.options.clone() })
            }
            NodeKind::Llm => {
                let writes = self.require_writes(n, i, graph, schema);
                let Some(model) = &n.model else {
                    self.error(at("model"), "an `llm` node needs `model`: {provider, …}".into(), id, None);
                    return None;
                };
                if model.provider == crate::document::Provider::Mock
                    && model.responses.as_ref().is_none_or(Vec::is_empty)
                {
                    self.warn(
                        at("model.responses"),
                        "a mock model without responses answers with an empty string".into(),
                        id,
                        None,
                    );
                }
                let Some(prompt_src) = &n.prompt else {
                    self.error(at("prompt"), "an `llm` node needs `prompt`".into(), id, None);
                    return None;
                };
                let prompt = self.template(s, prompt_src, at("prompt"), id);
                let system = n.system.as_ref().map(|t| self.template(s, t, at("system"), id));
                let (Some(prompt), Some(writes)) = (prompt, writes) else {
                    return None;
                };
                let system = match system {
                    Some(None) => return None,
                    Some(Some(t)) => Some(t),
                    None => None,
                };
                Some(Op::Llm(LlmOp {
                    prompt,
                    system,
                    writes,
                    parse: n.parse.unwrap_or(Parse::Text),
                    model: model.clone(),
                }))
            }
            NodeKind::Http => {
                let writes = self.require_writes(n, i, graph, schema);
                let method = n.method.clone().unwrap_or_else(|| "GET".into()).to_ascii_uppercase();
                if !["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].contains(&method.as_str()) {
                    self.error(at("method"), format!("`{method}` is not an HTTP method"), id, None);
                }
                let Some(url_src) = &n.url else {
                    self.error(at("url"), "an `http` node needs `url`".into(), id, None);
                    return None;
                };
                let url = self.template(s, url_src, at("url"), id);
                let mut headers = Vec::new();
                let mut ok = true;
                for (name, v) in n.headers.iter().flatten() {
                    match self.template(s, v, format!("nodes[{i}].headers.{name}"), id) {
                        Some(t) => headers.push((name.clone(), t)),
                        None => ok = false,
                    }
                }
                let body = match &n.body {
                    None => None,
                    Some(Value::String(t)) => self.template(s, t, at("body"), id).map(Body::Text).or_else(|| {
                        ok = false;
                        None
                    }),
                    Some(v) => match self.json_template(s, v, at("body"), id) {
                        Some(t) => Some(Body::Json(t)),
                        None => {
                            ok = false;
                            None
                        }
                    },
                };
                let (Some(url), Some(writes), true) = (url, writes, ok) else {
                    return None;
                };
                Some(Op::Http(HttpOp { method, url, headers, body, writes, parse: n.parse.unwrap_or(Parse::Json) }))
            }
            NodeKind::Subgraph => {
                let Some(inner) = &n.graph else {
                    self.error(
                        at("graph"),
                        "a `subgraph` node needs `graph`: an embedded graph document".into(),
                        id,
                        None,
                    );
                    return None;
                };
                if depth >= MAX_SUBGRAPH_DEPTH {
                    self.error(at("graph"), format!("subgraphs nest more than {MAX_SUBGRAPH_DEPTH} deep"), id, None);
                    return None;
                }
                if inner.format != crate::document::GRAPH_FORMAT {
                    self.error(at("graph.format"), format!("expected \"{}\"", crate::document::GRAPH_FORMAT), id, None);
                }
                let compiled = compile_at(inner, depth + 1);
                for d in compiled.diagnostics {
                    let path = if d.path.is_empty() { at("graph") } else { format!("nodes[{i}].graph.{}", d.path) };
                    let message = format!("in subgraph `{}`: {}", n.id, d.message);
                    self.push(d.severity, path, message, id, None);
                }
                let mut inputs = Vec::new();
                let mut outputs = Vec::new();
                let mut ok = true;
                for (field, src) in n.inputs.iter().flatten() {
                    match self.expr(s, src, format!("nodes[{i}].inputs.{field}"), id, None, &[]) {
                        Some(e) => inputs.push((field.clone(), e)),
                        None => ok = false,
                    }
                }
                self.undeclared_writes(
                    graph,
                    schema,
                    n.outputs.iter().flatten().map(|(k, _)| k.as_str()),
                    &at("outputs"),
                    id,
                );
                for (field, src) in n.outputs.iter().flatten() {
                    match self.expr(s, src, format!("nodes[{i}].outputs.{field}"), id, None, &["result"]) {
                        Some(e) => outputs.push((field.clone(), e)),
                        None => ok = false,
                    }
                }
                let plan = compiled.plan?;
                ok.then(|| Op::Subgraph(SubgraphOp { plan: Rc::new(plan), inputs, outputs }))
            }
        }
    }

    fn require_writes(&mut self, n: &Node, i: usize, graph: &Graph, schema: &Schema) -> Option<String> {
        match &n.writes {
            Some(w) => {
                self.undeclared_writes(
                    graph,
                    schema,
                    [w.as_str()].into_iter(),
                    &format!("nodes[{i}].writes"),
                    Some(&n.id),
                );
                Some(w.clone())
            }
            None => {
                self.error(
                    format!("nodes[{i}].writes"),
                    format!("an `{}` node needs `writes`: the field its result goes to", n.kind.name()),
                    Some(&n.id),
                    None,
                );
                None
            }
        }
    }

    fn json_template(&mut self, s: &Scripting, v: &Value, path: String, node: Option<&str>) -> Option<JsonTemplate> {
        Some(match v {
            Value::String(t) if t.contains("{{") => JsonTemplate::Text(self.template(s, t, path, node)?),
            Value::Array(items) => {
                let mut out = Vec::new();
                for (k, item) in items.iter().enumerate() {
                    out.push(self.json_template(s, item, format!("{path}[{k}]"), node)?);
                }
                JsonTemplate::List(out)
            }
            Value::Object(map) => {
                let mut out = Vec::new();
                for (k, item) in map {
                    out.push((k.clone(), self.json_template(s, item, format!("{path}.{k}"), node)?));
                }
                JsonTemplate::Object(out)
            }
            other => JsonTemplate::Literal(other.clone()),
        })
    }

    fn undeclared_writes<'a>(
        &mut self,
        graph: &Graph,
        schema: &Schema,
        keys: impl Iterator<Item = &'a str>,
        path: &str,
        node: Option<&str>,
    ) {
        if graph.state.is_none() {
            return;
        }
        for key in keys {
            if !schema.is_declared(key) {
                self.warn(
                    path.to_string(),
                    format!("writes `{key}`, which is not a declared state field (it will use `replace`)"),
                    node,
                    None,
                );
            }
        }
    }

    /// Label rules for the edges leaving node `i`.
    fn labels(&mut self, graph: &Graph, i: usize, n: &Node, out: &[usize]) {
        let id = Some(n.id.as_str());
        let selects = n.kind == NodeKind::Router || (n.kind == NodeKind::Human && n.options.is_some());
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for &j in out {
            let e = &graph.edges[j];
            let label = e.label.as_deref().filter(|l| !l.is_empty());
            if selects {
                match label {
                    None => self.error(
                        format!("edges[{j}].label"),
                        format!(
                            "edges out of {} `{}` need a label: it chooses edges by label",
                            if n.kind == NodeKind::Router { "router" } else { "human node" },
                            n.id
                        ),
                        id,
                        Some(j),
                    ),
                    Some(l) => {
                        if let Some(prev) = seen.insert(l, j) {
                            self.error(
                                format!("edges[{j}].label"),
                                format!("`{}` has two edges labelled `{l}` (also edges[{prev}])", n.id),
                                id,
                                Some(j),
                            );
                        }
                        if let (NodeKind::Human, Some(opts)) = (n.kind, &n.options)
                            && !opts.iter().any(|o| o == l)
                            && l != "default"
                            && l != "error"
                        {
                            self.warn(
                                format!("edges[{j}].label"),
                                format!("`{l}` is not one of `{}`'s options, so this edge is never taken", n.id),
                                id,
                                Some(j),
                            );
                        }
                    }
                }
            }
            if label == Some("error") && n.on_error != Some(OnError::Route) {
                self.warn(
                    format!("edges[{j}].label"),
                    format!("an `error` edge is followed only when `{}` has on_error: route", n.id),
                    id,
                    Some(j),
                );
            }
        }
        let _ = i;
    }

    fn reachability(&mut self, graph: &Graph, ids: &HashMap<&str, usize>, out: &[Vec<usize>]) {
        let Some(start) = graph.nodes.iter().position(|n| n.kind == NodeKind::Start) else {
            return;
        };
        let mut seen = vec![false; graph.nodes.len()];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            for &j in &out[i] {
                if let Some(&t) = ids.get(graph.edges[j].to.as_str())
                    && !seen[t]
                {
                    seen[t] = true;
                    queue.push_back(t);
                }
            }
        }
        for (i, n) in graph.nodes.iter().enumerate() {
            if !seen[i] && n.kind != NodeKind::Note && ids.get(n.id.as_str()) == Some(&i) {
                self.warn(format!("nodes[{i}]"), format!("`{}` is unreachable from start", n.id), Some(&n.id), None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_graph;

    fn diags(text: &str) -> Vec<String> {
        validate(&parse_graph(text).unwrap()).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn example_from_the_spec_is_valid() {
        let d = diags(
            r#"{"format":"switchyard/graph@1","name":"Approval",
            "state":{"request":{"type":"string","default":""},"status":{"type":"string"}},
            "nodes":[{"id":"start","kind":"start","required":["request"]},
              {"id":"classify","kind":"set","set":{"status":"if state.request.len() > 40 { \"complex\" } else { \"simple\" }"}},
              {"id":"route","kind":"router","route":"state.status"},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"classify"},{"from":"classify","to":"route"},
              {"from":"route","to":"end","label":"simple"},{"from":"route","to":"classify","label":"complex"}]}"#,
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn reports_every_problem_with_its_path() {
        let d = diags(
            r#"{"format":"switchyard/graph@1","state":{"a":{"type":"string"}},
            "nodes":[{"id":"start","kind":"start"},{"id":"start","kind":"start"},
              {"id":"bad id","kind":"set","set":{"a":"1 +"}},
              {"id":"r","kind":"router","route":"state.a"},
              {"id":"n","kind":"note","text":"hi"},
              {"id":"lost","kind":"set","set":{"zzz":"1"}}],
            "edges":[{"from":"start","to":"r"},{"from":"r","to":"ghost"},{"from":"r","to":"n","label":"x"}]}"#,
        );
        let joined = d.join("\n");
        for needle in [
            "error nodes[1].id: duplicate node id `start`",
            "error nodes[2].id: `bad id` is not a valid id",
            "error nodes[2].set.a: does not compile",
            "error edges[1].to: no node has the id `ghost`",
            "error edges[1].label: edges out of router `r` need a label",
            "error edges[2].to: `n` is a note",
            "warning nodes[5].set: writes `zzz`, which is not a declared state field",
            "warning nodes[5]: `lost` is unreachable from start",
        ] {
            assert!(joined.contains(needle), "missing {needle:?} in\n{joined}");
        }
        // Errors come before warnings.
        let first_warning = d.iter().position(|l| l.starts_with("warning")).unwrap();
        assert!(d[first_warning..].iter().all(|l| l.starts_with("warning")));
    }
}
