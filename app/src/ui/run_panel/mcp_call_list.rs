//! `McpCallList`: the MCP calls a `tools` node made at a step, in the node's run details.

use leptos::prelude::*;
use serde_json::Value;

use crate::model::runs::mcp_calls::{McpCallView, duration_text, mcp_calls};

/// One entry per MCP call in `details` (nothing when there is none): `everything · echo`
/// (the graph tool's name when it differs), how long it took, the arguments, the result or
/// the error whole (marked as an error), the progress the server reported and its log
/// messages. Each is a group named `MCP call echo on everything`.
#[component]
pub fn McpCallList(details: Value) -> impl IntoView {
    let calls = mcp_calls(&details);
    (!calls.is_empty()).then(|| {
        view! {
            <ul class="mcp-calls" aria-label="MCP calls">
                {calls.into_iter().map(call).collect_view()}
            </ul>
        }
    })
}

fn call(c: McpCallView) -> impl IntoView {
    let title = if c.name == c.tool || c.name.is_empty() {
        format!("{} · {}", c.server, c.tool)
    } else {
        format!("{} · {} (tool {})", c.server, c.tool, c.name)
    };
    let label = format!("MCP call {} on {}", c.tool, c.server);
    let arguments = serde_json::to_string_pretty(&c.arguments).unwrap_or_default();
    let progress = (!c.progress.is_empty()).then(|| format!("Progress: {}", c.progress.join(", ")));
    let logs = (!c.logs.is_empty()).then(|| c.logs.clone());
    view! {
        <li class="mcp-call" class:failed=c.is_error>
          <div class="mcp-call-body" role="group" aria-label=label>
            <div class="mcp-call-head">
                <span class="mcp-call-title mono">{title}</span>
                {c.duration_ms.map(|ms| view! { <span class="muted">{duration_text(ms)}</span> })}
                {c.is_error.then(|| view! { <span class="badge error">"error"</span> })}
            </div>
            <div class="mcp-call-part">
                <span class="muted">"Arguments"</span>
                <pre class="json">{arguments}</pre>
            </div>
            <div class="mcp-call-part">
                <span class="muted">{if c.is_error { "Error" } else { "Result" }}</span>
                <pre class="json" class:check=c.is_error class:bad=c.is_error>{c.result}</pre>
            </div>
            {progress.map(|p| view! { <p class="mcp-call-progress">{p}</p> })}
            {logs.map(|l| view! {
                <details class="mcp-call-logs">
                    <summary>{format!("Server log ({})", l.len())}</summary>
                    <pre class="json">{l.join("\n")}</pre>
                </details>
            })}
          </div>
        </li>
    }
}
