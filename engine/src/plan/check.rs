//! The checker: collects diagnostics while the graph is compiled, and compiles the
//! expressions and templates it meets, reporting those that do not compile and the
//! undeclared state fields they read (`reads`).

use std::rc::Rc;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::document::{Graph, Node, NodeField};
use crate::plan::reads::KnownKeys;
use crate::plan::types::{Definitions, JsonTemplate, PlanTool};
use crate::script::{CompileError, Expr, Scripting, Template};
use crate::state::Schema;

/// Collects every problem found, in the order found.
pub(super) struct Checker {
    pub(super) diags: Vec<Diagnostic>,
    /// Names besides the usual ones that the expressions and templates being compiled see:
    /// while a map target is checked, its items' names and `index`.
    pub(super) in_scope: Vec<String>,
    /// The state keys of the graph being checked, when it declares its state: the reads of
    /// others are warned about.
    pub(super) known: Option<KnownKeys>,
}

/// The node being checked, with what its checks need.
pub(super) struct NodeAt<'a> {
    pub(super) graph: &'a Graph,
    pub(super) schema: &'a Schema,
    pub(super) scripting: &'a Scripting,
    /// The node's index in the document's `nodes`.
    pub(super) i: usize,
    pub(super) n: &'a Node,
    /// Indices in the document's `edges` of the node's out-edges.
    pub(super) out: &'a [usize],
    /// How many subgraphs deep the node's graph is.
    pub(super) depth: usize,
    /// The graph's tools, compiled (those without errors).
    pub(super) tools: &'a Rc<Vec<PlanTool>>,
    /// The top-level document's definitions, which a `use` names.
    pub(super) defs: &'a Definitions,
}

impl NodeAt<'_> {
    /// The path of one of the node's fields: `nodes[2].set`.
    pub(super) fn path(&self, field: NodeField) -> String {
        format!("nodes[{}].{field}", self.i)
    }

    /// The path of a key or member inside one of its fields: `nodes[2].set.count`.
    pub(super) fn key_path(&self, field: NodeField, key: &str) -> String {
        format!("nodes[{}].{field}.{key}", self.i)
    }

    /// The node's id, for a diagnostic.
    pub(super) fn id(&self) -> Option<&str> {
        Some(self.n.id.as_str())
    }
}

impl Checker {
    pub(super) fn new() -> Checker {
        Checker { diags: Vec::new(), in_scope: Vec::new(), known: None }
    }

    pub(super) fn push(
        &mut self,
        severity: Severity,
        path: String,
        message: String,
        node: Option<&str>,
        edge: Option<usize>,
    ) {
        self.diags.push(Diagnostic { severity, path, message, node: node.map(str::to_string), edge });
    }

    pub(super) fn error(&mut self, path: String, message: String, node: Option<&str>, edge: Option<usize>) {
        self.push(Severity::Error, path, message, node, edge);
    }

    pub(super) fn warn(&mut self, path: String, message: String, node: Option<&str>, edge: Option<usize>) {
        self.push(Severity::Warning, path, message, node, edge);
    }

    fn compile_error(&mut self, path: String, e: CompileError, node: Option<&str>, edge: Option<usize>) {
        self.error(path, format!("does not compile: {e}"), node, edge);
    }

    /// The names in scope besides the usual ones: `extra` and [`Checker::in_scope`].
    fn names<'a>(&'a self, extra: &[&'a str]) -> Vec<&'a str> {
        extra.iter().copied().chain(self.in_scope.iter().map(String::as_str)).collect()
    }

    /// Compiles expression `src` (with `extra` names in scope besides the usual ones).
    pub(super) fn expr(
        &mut self,
        s: &Scripting,
        src: &str,
        path: String,
        node: Option<&str>,
        edge: Option<usize>,
        extra: &[&str],
    ) -> Option<Expr> {
        let compiled = s.compile(src, &self.names(extra));
        match compiled {
            Ok(e) => {
                self.undeclared_reads(&e.state_reads(), &path, node, edge);
                Some(e)
            }
            Err(e) => {
                self.compile_error(path, e, node, edge);
                None
            }
        }
    }

    /// Compiles template `src`.
    pub(super) fn template(&mut self, s: &Scripting, src: &str, path: String, node: Option<&str>) -> Option<Template> {
        self.template_with(s, src, path, node, &[])
    }

    /// Compiles template `src` with `extra` names in scope besides the usual ones.
    pub(super) fn template_with(
        &mut self,
        s: &Scripting,
        src: &str,
        path: String,
        node: Option<&str>,
        extra: &[&str],
    ) -> Option<Template> {
        let compiled = s.compile_template(src, &self.names(extra));
        match compiled {
            Ok(t) => {
                self.undeclared_reads(&t.state_reads(), &path, node, None);
                Some(t)
            }
            Err(e) => {
                self.compile_error(path, e, node, None);
                None
            }
        }
    }

    /// Compiles JSON whose strings holding `{{` are templates (`extra` names in scope).
    pub(super) fn json_template(
        &mut self,
        s: &Scripting,
        v: &Value,
        path: String,
        node: Option<&str>,
        extra: &[&str],
    ) -> Option<JsonTemplate> {
        Some(match v {
            Value::String(t) if t.contains("{{") => JsonTemplate::Text(self.template_with(s, t, path, node, extra)?),
            Value::Array(items) => {
                let mut out = Vec::new();
                for (k, item) in items.iter().enumerate() {
                    out.push(self.json_template(s, item, format!("{path}[{k}]"), node, extra)?);
                }
                JsonTemplate::List(out)
            }
            Value::Object(map) => {
                let mut out = Vec::new();
                for (k, item) in map {
                    out.push((k.clone(), self.json_template(s, item, format!("{path}.{k}"), node, extra)?));
                }
                JsonTemplate::Object(out)
            }
            other => JsonTemplate::Literal(other.clone()),
        })
    }

    /// Warns about each of `keys` that a graph declaring its state does not declare.
    pub(super) fn undeclared_writes<'a>(
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

    /// Warns about each of `reads` (the fields an expression or template at `path` reads by
    /// name) that the graph, declaring its state, does not know (`reads`).
    pub(super) fn undeclared_reads(&mut self, reads: &[String], path: &str, node: Option<&str>, edge: Option<usize>) {
        let Some(known) = &self.known else { return };
        for r in known.undeclared(reads) {
            self.warn(path.to_string(), r.message(), node, edge);
        }
    }
}
