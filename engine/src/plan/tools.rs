//! Tools (format.md §4 (llm, tools) and §8): the graph's `tools` (a name, a description, a JSON Schema for the
//! arguments, and a `script`, `http`, `use` or `mcp` run) and the `tools` node, which runs the tool calls of
//! a `messages` field's last assistant message.

use std::rc::Rc;

use indexmap::IndexMap;
use serde_json::json;

use crate::document::{FieldType, Graph, NodeField, NodeKind, OnError, ToolDef};
use crate::json_schema::JsonSchema;
use crate::plan::check::{Checker, NodeAt};
use crate::plan::effectful::RequestFields;
use crate::plan::graph::valid_id;
use crate::plan::types::{Definitions, McpServers, Op, PlanTool, ToolRunOp, ToolSpec, ToolsOp, UseOp};
use crate::script::{Expr, Scripting};

/// Names a tool's script and request templates see besides the usual scope.
pub(crate) const TOOL_SCOPE: [&str; 1] = ["args"];

impl Checker {
    /// The graph's tools, each checked and compiled; those with errors are left out (the
    /// errors keep the graph from running).
    pub(super) fn check_tools(
        &mut self,
        graph: &Graph,
        s: &Scripting,
        defs: &Definitions,
        servers: &McpServers,
    ) -> Rc<Vec<PlanTool>> {
        let mut out = Vec::new();
        for (name, def) in graph.tools.iter().flatten() {
            if let Some(tool) = self.tool(s, name, def, defs, servers) {
                out.push(tool);
            }
        }
        Rc::new(out)
    }

    /// One tool: its name (as model APIs accept it), parameters and run.
    fn tool(
        &mut self,
        s: &Scripting,
        name: &str,
        def: &ToolDef,
        defs: &Definitions,
        servers: &McpServers,
    ) -> Option<PlanTool> {
        let base = format!("tools.{name}");
        let mut ok = true;
        if !valid_id(name) {
            let message = format!("`{name}` is not a valid tool name: use 1 to 64 letters, digits, `_` or `-`");
            self.error(base.clone(), message, None, None);
            ok = false;
        }
        let parameters = match &def.parameters {
            None => None,
            Some(p) => match JsonSchema::compile(p) {
                Ok(schema) => Some(schema),
                Err(e) => {
                    let path = format!("{base}.parameters{}", e.path.trim_start_matches('$'));
                    self.error(path, format!("not a valid JSON Schema: {}", e.message), None, None);
                    ok = false;
                    None
                }
            },
        };
        let run = self.tool_run(s, &base, name, def, defs, servers);
        let listed = match &run {
            Some(ToolRunOp::Mcp(op)) if def.description.is_none() || def.parameters.is_none() => Some(op.clone()),
            _ => None,
        };
        let spec = ToolSpec {
            name: name.to_string(),
            description: def.description.clone().unwrap_or_default(),
            parameters: def.parameters.clone().unwrap_or_else(|| json!({"type": "object", "properties": {}})),
            listed,
        };
        let run = run?;
        ok.then_some(PlanTool { spec, parameters, run })
    }

    /// A tool's `run`: exactly one of `script`, `http`, `use` and `mcp`.
    fn tool_run(
        &mut self,
        s: &Scripting,
        base: &str,
        name: &str,
        def: &ToolDef,
        defs: &Definitions,
        servers: &McpServers,
    ) -> Option<ToolRunOp> {
        let path = format!("{base}.run");
        let run = &def.run;
        let given = [run.script.is_some(), run.http.is_some(), run.use_def.is_some(), run.mcp.is_some()]
            .iter()
            .filter(|g| **g)
            .count();
        if run.use_def.is_none() {
            for (field, given) in [("inputs", run.inputs.is_some()), ("outputs", run.outputs.is_some())] {
                if given {
                    self.error(
                        format!("{path}.{field}"),
                        format!("`{field}` goes with `use` (a tool running a definition)"),
                        None,
                        None,
                    );
                }
            }
        }
        if given != 1 {
            let message = if given == 0 {
                "give the tool a `script`, an `http` request, a definition to `use` or an `mcp` server's tool"
            } else {
                "give the tool one of `script`, `http`, `use` and `mcp`, not several"
            };
            self.error(path, message.into(), None, None);
            return None;
        }
        if run.mcp.is_some() {
            return self.mcp_tool(&path, name, def, servers).map(|op| ToolRunOp::Mcp(Rc::new(op)));
        }

        if let Some(src) = &run.script {
            return self.expr(s, src, format!("{path}.script"), None, None, &TOOL_SCOPE).map(ToolRunOp::Script);
        }
        if let Some(h) = &run.http {
            let fields = RequestFields {
                method: h.method.as_deref(),
                url: &h.url,
                headers: h.headers.as_ref(),
                body: h.body.as_ref(),
            };
            return self.request_op(s, &fields, &format!("{path}.http"), None, &TOOL_SCOPE).map(ToolRunOp::Http);
        }
        let name = run.use_def.as_ref()?;
        let plan = self.use_definition(defs, name, format!("{path}.use"), None);
        let mut ok = true;
        let inputs = self.use_exprs(s, run.inputs.as_ref(), &format!("{path}.inputs"), &TOOL_SCOPE, &mut ok);
        let outputs = self.use_exprs(s, run.outputs.as_ref(), &format!("{path}.outputs"), &["args", "result"], &mut ok);
        let plan = plan?;
        ok.then(|| ToolRunOp::Use(UseOp { name: name.clone(), plan, inputs, outputs }))
    }

    /// A `use` tool's `inputs` or `outputs`, compiled with `extra` names in scope.
    fn use_exprs(
        &mut self,
        s: &Scripting,
        map: Option<&IndexMap<String, String>>,
        path: &str,
        extra: &[&str],
        ok: &mut bool,
    ) -> Option<Vec<(String, Expr)>> {
        let map = map?;
        let mut out = Vec::with_capacity(map.len());
        for (key, src) in map {
            match self.expr(s, src, format!("{path}.{key}"), None, None, extra) {
                Some(e) => out.push((key.clone(), e)),
                None => *ok = false,
            }
        }
        Some(out)
    }

    /// `tools`: the `messages` field whose last assistant message's tool calls it runs.
    pub(super) fn tools_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id) = (at.n, at.id());
        let path = at.path(NodeField::Messages);
        let Some(field) = &n.messages else {
            let message = "a `tools` node needs `messages`: the field of type messages whose tool calls it runs";
            self.error(path, message.into(), id, None);
            return None;
        };
        let declared = at.graph.state.as_ref().and_then(|s| s.get(field));
        match declared {
            Some(f) if f.ty == FieldType::Messages => {}
            Some(f) => {
                let message = format!("`{field}` is a field of type {}, not messages", f.ty.name());
                self.error(path, message, id, None);
                return None;
            }
            None => {
                let message = format!("`{field}` is not a declared state field of type messages");
                self.error(path, message, id, None);
                return None;
            }
        }
        let written = at.graph.nodes.iter().any(|m| m.kind == NodeKind::Llm && m.writes.as_deref() == Some(field));
        if !written {
            let message = format!(
                "no `llm` node writes `{field}`, so no tool calls reach this node (give a model `writes: {field}`)"
            );
            self.warn(path, message, id, None);
        }
        if at.tools.is_empty() && at.graph.tools.as_ref().is_none_or(|t| t.is_empty()) {
            self.warn(
                at.path(NodeField::Kind),
                "the graph defines no `tools`: every call will be unknown".into(),
                id,
                None,
            );
        }
        Some(Op::Tools(ToolsOp {
            field: field.clone(),
            fail: n.on_error == Some(OnError::Fail),
            tools: at.tools.clone(),
        }))
    }
}
