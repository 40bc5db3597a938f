//! Effects as the workflow handler performs them: an HTTP request sent for real, with the
//! keys of the service's environment (the same variables as the CLI's, and the same rule:
//! a key goes only to its provider's origin and to `SWITCHYARD_TRUSTED_ORIGINS`); an
//! exchange with an MCP server, with the programs the operator allowed and the tokens of the
//! service's environment, reaching what served graphs reach.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use engine::host::{HttpRequest, KeyRing, McpEndpoint, McpExchange, redact, redact_headers};
use net::mcp::{McpPolicy, McpTokens};
use net::reach::Reach;

use crate::messages::{Exchange, McpJournal};

/// The keys and trusted origins of the service's environment, read once.
pub fn keys() -> &'static KeyRing {
    static KEYS: OnceLock<KeyRing> = OnceLock::new();
    KEYS.get_or_init(|| {
        let (keys, bad) = net::keys_from_env();
        for bad in bad {
            eprintln!("{}: `{bad}` is not an origin (scheme://host[:port]); ignored", net::TRUSTED_ORIGINS_VAR);
        }
        keys
    })
}

static REACH: OnceLock<Arc<Reach>> = OnceLock::new();

/// Sets what served graphs reach, once, before the first run (later calls change nothing).
pub fn set_reach(reach: Reach) {
    let _ = REACH.set(Arc::new(reach));
}

/// What served graphs reach: as set, else public addresses only.
fn reach() -> &'static Arc<Reach> {
    REACH.get_or_init(|| Arc::new(Reach::served()))
}

/// What MCP exchanges may do: the allowed programs, the environment's tokens (by exact
/// origin), the served reach, and every key held removed from what servers send.
fn mcp_policy() -> &'static McpPolicy {
    static POLICY: OnceLock<McpPolicy> = OnceLock::new();
    POLICY.get_or_init(|| {
        let (tokens, bad) = McpTokens::from_env();
        for bad in bad {
            eprintln!("switchyard serve: {bad}");
        }
        McpPolicy {
            allowed: crate::consent::allowed_commands().clone(),
            tokens,
            reach: reach().clone(),
            secrets: keys().keys().map(str::to_string).collect(),
        }
    })
}

/// Carries out an MCP exchange on a blocking thread; what the journal keeps.
pub async fn mcp(exchange: McpExchange) -> McpJournal {
    let started = Instant::now();
    let reply = tokio::task::spawn_blocking(move || net::mcp::exchange(&exchange, mcp_policy(), &|_| {}))
        .await
        .unwrap_or_else(|e| {
            engine::host::McpReply::ended(engine::host::McpEnd::Failed(format!("the exchange's thread failed: {e}")))
        });
    McpJournal { reply, took_ms: started.elapsed().as_secs_f64() * 1000.0 }
}

/// Ends an MCP session on a blocking thread.
pub async fn mcp_close(endpoint: McpEndpoint, connection: Option<String>, session_id: Option<String>) {
    let _ = tokio::task::spawn_blocking(move || {
        net::mcp::close(&endpoint, connection.as_deref(), session_id.as_deref(), mcp_policy());
    })
    .await;
}

/// Sends `request` on a blocking thread (the HTTP client is a blocking one), timed out
/// after the request's `timeout_ms`; the reply is what the journal keeps.
pub async fn send(request: HttpRequest) -> Exchange {
    let started = Instant::now();
    let result = tokio::task::spawn_blocking(move || {
        let keys = keys();
        let key = request.auth.and_then(|auth| keys.key_for(auth, &request.url));
        net::send_bound_within(&request, key, keys.trusted(), reach()).map(|mut reply| {
            // Every key held is removed from every reply, sent with the request or not, and
            // from its headers, whose credentials (cookies, keys) the journal never keeps.
            reply.body = redact(&reply.body, keys.keys());
            reply.headers = redact_headers(std::mem::take(&mut reply.headers), keys.keys());
            reply
        })
    })
    .await
    .unwrap_or_else(|e| {
        Err(engine::host::HttpFailure { message: format!("the request's thread failed: {e}"), timed_out: false })
    });
    Exchange::of(result, started.elapsed().as_secs_f64() * 1000.0)
}
