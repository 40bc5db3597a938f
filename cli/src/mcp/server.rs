//! The rmcp glue (with [`super::http`], the only place rmcp types appear): the server
//! handler listing the graphs as tools and driving a call: progress per step, elicitation for
//! waiting nodes, cancellation. Results are built as JSON by plain code and converted here.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use net::mcp::AllowedCommands;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ElicitRequestParams, ElicitationAction,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerConfig,
};
use rmcp::service::{ElicitationMode, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::call::{self, Ending, RunEvent};
use super::elicit::Question;
use super::tools::GraphTool;
use super::{Reply, authoring};
use crate::traces::Traces;

/// Handshake versions only: forms are asked with `elicitation/create`, which 2026-07-28
/// replaces with multi round-trip requests (not mapped yet). A 2026-07-28 client probing
/// `server/discover` sees this list and falls back to `initialize`.
const VERSIONS: &[ProtocolVersion] = &[ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2025_06_18];

/// The server: the graphs it serves, and whether the authoring tools are on.
#[derive(Clone)]
pub struct GraphServer {
    tools: Arc<Vec<GraphTool>>,
    authoring: bool,
    /// The programs the graphs may start as MCP servers of their own.
    allowed: AllowedCommands,
    /// Where each call's run is sent as a trace, when the environment asks.
    traces: Option<Traces>,
}

impl GraphServer {
    pub fn new(
        tools: Vec<GraphTool>,
        authoring: bool,
        allowed: AllowedCommands,
        traces: Option<Traces>,
    ) -> GraphServer {
        GraphServer { tools: Arc::new(tools), authoring, allowed, traces }
    }

    /// Runs `tool` with `input`, telling the client each step and asking it at each wait.
    async fn run_graph(&self, tool: &GraphTool, input: Value, ctx: &RequestContext<RoleServer>) -> Option<Reply> {
        let progress = ctx.meta.get_progress_token();
        let tracer = self.traces.as_ref().map(Traces::tracer);
        let mut call = call::start(tool.graph.clone(), input, self.allowed.clone(), tracer);
        let ending = loop {
            let event = tokio::select! {
                _ = ctx.ct.cancelled() => {
                    // The client gave up: stop the run between steps and answer nothing.
                    call.cancel.store(true, Ordering::Relaxed);
                    return None;
                }
                event = call.events.recv() => event,
            };
            match event {
                None => break Ending::Failed("the run's thread ended without a result".into()),
                Some(RunEvent::Ended(e)) => break e,
                Some(RunEvent::Stepped { step, ran }) => {
                    if let Some(token) = &progress {
                        self.notify_step(ctx, token.clone(), step, &ran).await;
                    }
                }
                Some(RunEvent::Waiting { questions, answers }) => {
                    let asked = tokio::select! {
                        _ = ctx.ct.cancelled() => {
                            call.cancel.store(true, Ordering::Relaxed);
                            return None;
                        }
                        asked = ask_all(tool, questions, ctx) => asked,
                    };
                    match asked {
                        Ok(given) => {
                            let _ = answers.send(given);
                        }
                        // Dropping `answers` ends the run's thread.
                        Err(message) => break Ending::Failed(message),
                    }
                }
            }
        };
        Some(match ending {
            Ending::Completed(state) => Reply::State(state),
            Ending::Failed(message) => Reply::Error(message),
        })
    }

    async fn notify_step(&self, ctx: &RequestContext<RoleServer>, token: ProgressToken, step: u64, ran: &[String]) {
        let mut p = ProgressNotificationParam::new(token, step as f64);
        p.message = Some(format!("step {step}: ran {}", ran.join(", ")));
        // A client that went away is noticed by the call's cancellation.
        let _ = ctx.peer.notify_progress(p).await;
    }
}

/// Asks the client each question in turn; the answers, or why the call ends.
async fn ask_all(
    tool: &GraphTool,
    questions: Vec<Question>,
    ctx: &RequestContext<RoleServer>,
) -> Result<Vec<(String, Value)>, String> {
    let can_ask = ctx.peer.supported_elicitation_modes().contains(&ElicitationMode::Form);
    let mut answers = Vec::with_capacity(questions.len());
    for q in questions {
        if !can_ask {
            return Err(format!(
                "graph `{}` waits for a person at node `{}` (fields: {}); this client does not offer MCP elicitation",
                tool.title,
                q.node,
                q.fields_line()
            ));
        }
        let schema = q.requested_schema().map_err(|u| {
            format!("node `{}` asks for `{}`, a messages field, which MCP elicitation cannot carry", q.node, u.field)
        })?;
        let params: ElicitRequestParams =
            from_json(json!({"mode": "form", "message": q.message(), "requestedSchema": schema}))
                .map_err(|e| format!("node `{}`: its form cannot be asked: {e}", q.node))?;
        let result = ctx
            .peer
            .create_elicitation(params)
            .await
            .map_err(|e| format!("asking the client about node `{}` failed: {e}", q.node))?;
        match result.action {
            ElicitationAction::Accept => {
                let answer = q.answer(result.content).map_err(|m| format!("node `{}`: {m}", q.node))?;
                answers.push((q.node, answer));
            }
            ElicitationAction::Decline => return Err(format!("the person declined the form of node `{}`", q.node)),
            // Cancel, and any action a later protocol adds.
            _ => return Err(format!("the person cancelled the form of node `{}`", q.node)),
        }
    }
    Ok(answers)
}

fn from_json<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn internal(e: String) -> McpError {
    McpError::internal_error(e, None)
}

/// A reply as a `tools/call` result.
fn call_result(reply: Reply) -> Result<CallToolResponse, McpError> {
    from_json::<CallToolResult>(reply.to_json()).map(CallToolResponse::from).map_err(internal)
}

impl ServerHandler for GraphServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = json!({"tools": {}});
        if self.authoring {
            capabilities["resources"] = json!({});
        }
        from_json(json!({
            "protocolVersion": VERSIONS[0].to_string(),
            "capabilities": capabilities,
            "serverInfo": {"name": "switchyard", "title": "Switchyard", "version": env!("CARGO_PKG_VERSION")},
            "instructions": "Each tool runs a Switchyard workflow graph; its result is the graph's final state.",
        }))
        .unwrap_or_default()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut tools: Vec<Value> = self.tools.iter().map(GraphTool::listing).collect();
        if self.authoring {
            tools.extend(authoring::listings());
        }
        from_json(json!({ "tools": tools })).map_err(internal)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let input = Value::Object(request.arguments.clone().unwrap_or_default());
        if let Some(tool) = self.tools.iter().find(|t| t.name == request.name) {
            return match self.run_graph(tool, input, &ctx).await {
                Some(reply) => call_result(reply),
                None => Err(McpError::internal_error("the call was cancelled", None)),
            };
        }
        if self.authoring
            && let Some(reply) = authoring::call(&request.name, input).await
        {
            return call_result(reply);
        }
        Err(McpError::invalid_params(format!("no tool is named `{}`", request.name), None))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let resources = if self.authoring { authoring::resources() } else { Vec::new() };
        from_json(json!({ "resources": resources })).map_err(internal)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match authoring::read(&request.uri).filter(|_| self.authoring) {
            Some(contents) => from_json::<ReadResourceResult>(json!({ "contents": [contents] }))
                .map(ReadResourceResponse::from)
                .map_err(internal),
            None => Err(McpError::resource_not_found(format!("no resource `{}`", request.uri), None)),
        }
    }
}

/// Serves `server` over stdin and stdout until the client closes stdin.
pub async fn serve_stdio(server: GraphServer) -> Result<(), String> {
    use rmcp::ServiceExt;
    let running =
        server.serve(rmcp::transport::stdio()).await.map_err(|e| format!("the MCP session did not start: {e}"))?;
    running.waiting().await.map_err(|e| format!("the MCP session ended badly: {e}"))?;
    Ok(())
}
