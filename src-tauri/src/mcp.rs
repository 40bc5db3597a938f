//! MCP servers for the editor's runs (format.md §2.11, §8): the page's engine asks for an
//! exchange, and the app carries it out with `net::mcp` on a blocking thread.
//!
//! The app, not the page, decides what may happen: a program starts only when the person
//! approved its whole command line ([`switchyard_ipc::mcp::command_line`], kept in the
//! settings file), an HTTP server gets `Authorization: Bearer …` only from a token kept in
//! Settings for the URL's exact origin, and every key and token the app keeps is removed from
//! what servers send. Sessions still open when the window closes are closed.

use std::sync::{Arc, Mutex};

use engine::host::{McpEnd, McpEndpoint, McpExchange, McpReply, Origin};
use net::mcp::{AllowedCommands, McpPolicy, McpTokens};
use switchyard_ipc as ipc;
use workflow_files::Settings;

/// The whole command line the person approves for `endpoint`, or `None` for an HTTP server.
pub fn command_line(endpoint: &McpEndpoint) -> Option<String> {
    match endpoint {
        McpEndpoint::Stdio { env, .. } => {
            Some(ipc::mcp::command_line(&endpoint.describe(), env.iter().map(|(n, v)| (n.as_str(), v.as_str()))))
        }
        McpEndpoint::Http { .. } => None,
    }
}

/// Why `endpoint` may not start, when its command line was not approved.
pub fn refused(endpoint: &McpEndpoint, settings: &Settings) -> Option<String> {
    let line = command_line(endpoint)?;
    (!settings.allowed_commands.contains(&line)).then(|| {
        format!(
            "starting `{line}` needs your consent: run the graph again from the editor and allow this command line \
             when asked"
        )
    })
}

/// What exchanges may do, from the settings: the approved line's program (checked again by
/// `net::mcp` as it spawns), the MCP tokens by exact origin, and every other key kept, to
/// remove from replies.
pub fn policy(endpoint: &McpEndpoint, settings: &Settings) -> McpPolicy {
    let allowed = match endpoint {
        McpEndpoint::Stdio { program, .. } if refused(endpoint, settings).is_none() => AllowedCommands::of([program]),
        _ => AllowedCommands::none(),
    };
    let mut tokens = McpTokens::new();
    for k in settings.keys.iter().filter(|k| k.provider == ipc::AUTH_MCP) {
        if let Some(origin) = Origin::of(&k.origin) {
            tokens.add(origin, &k.key);
        }
    }
    let mut policy = McpPolicy::open(allowed, tokens);
    policy.secrets = settings.keys.iter().filter(|k| k.provider != ipc::AUTH_MCP).map(|k| k.key.clone()).collect();
    policy
}

/// Carries out `x` under the settings' policy (blocking).
pub fn exchange(x: &McpExchange, settings: &Settings) -> McpReply {
    if let Some(why) = refused(&x.endpoint, settings) {
        return McpReply::ended(McpEnd::Refused(why));
    }
    net::mcp::exchange(x, &policy(&x.endpoint, settings), &|_| {})
}

/// The sessions a run has open, to close when the window closes.
#[derive(Default, Clone)]
pub struct Open(Arc<Mutex<Vec<Session>>>);

#[derive(Clone, PartialEq)]
struct Session {
    endpoint: McpEndpoint,
    connection: Option<String>,
    session_id: Option<String>,
}

impl Open {
    /// Notes the session `reply` leaves open (a live process, an HTTP session).
    pub fn note(&self, endpoint: &McpEndpoint, reply: &McpReply) {
        if reply.connection.is_none() && reply.session_id.is_none() {
            return;
        }
        let s = Session {
            endpoint: endpoint.clone(),
            connection: reply.connection.clone(),
            session_id: reply.session_id.clone(),
        };
        if let Ok(mut list) = self.0.lock()
            && !list.contains(&s)
        {
            list.push(s);
        }
    }

    /// Forgets a session its run closed.
    pub fn forget(&self, connection: Option<&str>, session_id: Option<&str>) {
        if let Ok(mut list) = self.0.lock() {
            list.retain(|s| !(s.connection.as_deref() == connection && s.session_id.as_deref() == session_id));
        }
    }

    /// Closes every session still open (the window is closing): children end, HTTP sessions
    /// are deleted. Blocks until done.
    pub fn close_all(&self, settings: &Settings) {
        let sessions = self.0.lock().map(|mut l| std::mem::take(&mut *l)).unwrap_or_default();
        for s in sessions.iter().filter(|s| s.session_id.is_some()) {
            net::mcp::close(&s.endpoint, None, s.session_id.as_deref(), &policy(&s.endpoint, settings));
        }
        net::mcp::close_all();
    }
}

// The real MCP software the tests use (tests/mcp), found as the CLI's tests find it.
#[cfg(test)]
#[path = "../../cli/tests/mcp_support/mod.rs"]
mod mcp_support;

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_support::Server;
    use workflow_files::OriginKey;

    /// What `whoami` of the asker at `server` answers through the app's exchanges, with the
    /// settings' tokens: the response message as the app passes it on.
    fn whoami(server: &Server, settings: &Settings) -> String {
        let endpoint = McpEndpoint::Http { url: server.url(), headers: vec![] };
        let x = |send: Vec<String>, awaits: u64, session_id: Option<String>| McpExchange {
            server: "asker".into(),
            endpoint: endpoint.clone(),
            connection: None,
            session_id,
            protocol_version: awaits.gt(&1).then(|| "2025-06-18".into()),
            send,
            awaits: Some(awaits),
            timeout_ms: 60_000,
            max_bytes: 1 << 20,
        };
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"desktop-test","version":"0"}}}"#;
        let opened = exchange(&x(vec![init.into()], 1, None), settings);
        assert_eq!(opened.end, McpEnd::Answered, "{opened:?}");
        let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}"#;
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let called = exchange(&x(vec![initialized.into(), call.into()], 2, opened.session_id.clone()), settings);
        assert_eq!(called.end, McpEnd::Answered, "{called:?}");
        net::mcp::close(&endpoint, None, opened.session_id.as_deref(), &policy(&endpoint, settings));
        called.received.last().cloned().unwrap_or_default()
    }

    #[test]
    fn a_token_kept_in_settings_reaches_only_its_own_origin_and_is_removed_from_replies() {
        let (a, b) = (Server::asker_http(), Server::asker_http());
        let token = "tok-desktop-only-for-a-0123456789";
        let mut settings = Settings::default();
        settings.set_key(OriginKey {
            origin: format!("http://127.0.0.1:{}", a.port),
            provider: ipc::AUTH_MCP.into(),
            key: token.into(),
        });
        let said_a = whoami(&a, &settings);
        assert!(said_a.contains("Bearer [api key removed]"), "A got the token, removed from the reply: {said_a}");
        assert!(!said_a.contains(token));
        let said_b = whoami(&b, &settings);
        assert!(said_b.contains("(none)"), "B got no token: {said_b}");
    }

    fn stdio(program: &str, args: &[&str], env: &[(&str, &str)]) -> McpEndpoint {
        McpEndpoint::Stdio {
            program: program.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    #[test]
    fn only_the_whole_approved_line_may_start() {
        let memory = stdio("node", &["/srv/memory.js"], &[("MEMORY_FILE_PATH", "/tmp/m.json")]);
        let line = command_line(&memory).unwrap();
        assert_eq!(line, "MEMORY_FILE_PATH=/tmp/m.json node /srv/memory.js");
        let mut settings = Settings::default();
        assert!(refused(&memory, &settings).unwrap().contains(&line));
        settings.allow_commands([line.as_str()]);
        assert_eq!(refused(&memory, &settings), None);
        assert!(policy(&memory, &settings).allowed.allows("node"));
        // The same program with other arguments, or another variable, is another line.
        for other in [
            stdio("node", &["/srv/other.js"], &[("MEMORY_FILE_PATH", "/tmp/m.json")]),
            stdio("node", &["/srv/memory.js"], &[("MEMORY_FILE_PATH", "/tmp/m.json"), ("NODE_OPTIONS", "-r x")]),
            stdio("node", &["/srv/memory.js"], &[]),
        ] {
            assert!(refused(&other, &settings).is_some(), "{}", other.describe());
            assert!(!policy(&other, &settings).allowed.allows("node"));
        }
        let http = McpEndpoint::Http { url: "http://127.0.0.1:1/mcp".into(), headers: vec![] };
        assert_eq!(refused(&http, &settings), None);
    }

    #[test]
    fn a_refused_line_starts_nothing() {
        let x = McpExchange {
            server: "memory".into(),
            endpoint: stdio("sh", &["-c", "echo started > /dev/null"], &[]),
            connection: None,
            session_id: None,
            protocol_version: None,
            send: vec![r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into()],
            awaits: Some(1),
            timeout_ms: 5_000,
            max_bytes: 1 << 20,
        };
        let before = net::mcp::live_processes();
        let reply = exchange(&x, &Settings::default());
        match reply.end {
            McpEnd::Refused(why) => assert!(why.contains("sh -c 'echo started > /dev/null'"), "{why}"),
            other => panic!("not refused: {other:?}"),
        }
        assert_eq!(net::mcp::live_processes(), before);
    }

    #[test]
    fn tokens_go_by_origin_and_every_kept_secret_is_removed() {
        let mut settings = Settings::default();
        let key = |origin: &str, provider: &str, key: &str| OriginKey {
            origin: origin.into(),
            provider: provider.into(),
            key: key.into(),
        };
        settings.set_key(key("http://127.0.0.1:8001", ipc::AUTH_MCP, "mcp-token-1"));
        settings.set_key(key("https://api.openai.com", ipc::AUTH_OPENAI, "sk-openai"));
        let http = McpEndpoint::Http { url: "http://127.0.0.1:8001/mcp".into(), headers: vec![] };
        let p = policy(&http, &settings);
        assert_eq!(p.tokens.token_for("http://127.0.0.1:8001/mcp"), Some("mcp-token-1"));
        assert_eq!(p.tokens.token_for("http://127.0.0.1:8002/mcp"), None);
        assert_eq!(p.tokens.token_for("https://api.openai.com/mcp"), None, "a model key is not an MCP token");
        assert_eq!(p.secrets, vec!["sk-openai".to_string()]);
    }
}
