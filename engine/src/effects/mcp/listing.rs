//! The tools a server lists, as a graph uses them: the one a tool names (did-you-mean when
//! it is not there), its description and parameters for a model, and the check that its
//! `inputSchema` is still the one the graph was designed with.

use std::rc::Rc;

use super::session::McpFailure;
use serde_json::json;

use crate::effects::EffectCall;
use crate::effects::replay::{self, Taped};
use crate::mcp::{Tool, without_schema_keyword};
use crate::plan::{McpToolOp, ToolSpec, nearest};
use crate::record::{ErrorKind, NodeError, ReplyKind};

/// The tool `op` names in `tools`, checked against the document's `parameters`.
pub(super) fn find_tool<'t>(op: &McpToolOp, tools: &'t [Tool]) -> Result<&'t Tool, McpFailure> {
    let server = &op.server.name;
    let Some(tool) = tools.iter().find(|t| t.name == op.tool) else {
        let hint = match nearest(&op.tool, tools.iter().map(|t| t.name.as_str())) {
            Some(close) => format!(" (did you mean `{close}`?)"),
            None if tools.is_empty() => " (it lists no tools at all)".into(),
            None => String::new(),
        };
        return Err(McpFailure::new(
            ErrorKind::Type,
            format!("MCP server `{server}` lists no tool `{}`{hint}", op.tool),
        ));
    };
    if let Some(designed) = &op.parameters
        && without_schema_keyword(designed) != tool.parameters()
    {
        let reason = format!(
            "tool `{}` of MCP server `{server}` changed since the graph was designed (its inputSchema differs from the tool's `parameters`); add it again from the server, or leave `parameters` out to take the server's",
            op.tool
        );
        return Err(McpFailure::new(ErrorKind::Type, reason));
    }
    Ok(tool)
}

/// The tools a model is offered, those of MCP servers completed from their listings (which
/// opens their sessions): a description or parameters the document leaves out come from the
/// server.
pub(crate) async fn offered_specs(call: &EffectCall<'_>, specs: &[ToolSpec]) -> Result<Vec<ToolSpec>, NodeError> {
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let Some(op) = &spec.listed else {
            out.push(spec.clone());
            continue;
        };
        let tool = listed_tool(call, op)
            .await
            .map_err(|f| call.error(f.kind, format_args!("tool `{}`: {}", spec.name, f.reason)))?;
        let mut spec = spec.clone();
        if op.parameters.is_none() {
            spec.parameters = tool.parameters();
        }
        if spec.description.is_empty() {
            spec.description = tool.description.clone().or(tool.title.clone()).unwrap_or_default();
        }
        out.push(spec);
    }
    Ok(out)
}

/// The listing's entry for `op`, through the reply tape: a recorded entry answers when
/// replaying (no session is opened), else the server is asked and its entry recorded.
async fn listed_tool(call: &EffectCall<'_>, op: &Rc<McpToolOp>) -> Result<Tool, McpFailure> {
    let request = json!({ "server": op.server.name, "method": "tools/list", "tool": op.tool });
    match replay::begin(call, ReplyKind::Mcp, request, false) {
        Taped::Replayed(v) => {
            if let Some((kind, reason)) = replay::failure_of(&v) {
                return Err(McpFailure::new(kind, reason));
            }
            serde_json::from_value(v.get("tool").cloned().unwrap_or_default())
                .map_err(|e| McpFailure::new(ErrorKind::Http, format!("the recorded MCP listing is malformed ({e})")))
        }
        Taped::Refused(message) => Err(McpFailure::new(ErrorKind::Http, message)),
        Taped::Live(ticket) => {
            let listed = listed_live(call, op).await;
            let reply = match &listed {
                Ok(tool) => json!({ "tool": tool }),
                Err(f) => replay::failure(f.kind, &f.reason),
            };
            replay::record(call, ticket, reply);
            listed
        }
    }
}

/// The listing's entry for `op`, the session opened when needed.
async fn listed_live(call: &EffectCall<'_>, op: &Rc<McpToolOp>) -> Result<Tool, McpFailure> {
    let session = call.mcp.session(&op.server);
    let (timeout_ms, _) = call.budget();
    let guard = session.ready(call.mcp, call.host, timeout_ms).await?;
    let link = guard.as_ref().expect("ready leaves the session open");
    find_tool(op, &link.tools).cloned()
}
