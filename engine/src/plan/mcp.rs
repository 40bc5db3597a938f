//! MCP servers (format.md §2.11): the document's `mcp_servers` checked and compiled, and the
//! tools that run on them.
//!
//! A graph's tools use the servers it declares and those of the graphs around it (a
//! definition or an embedded graph sees the document's; its own declaration of a name wins).
//! One session per server per run: the runs of definitions and subgraphs share the run's
//! sessions, a server being the same when its name and where it is are. A server is either
//! a URL (Streamable HTTP) or a command (stdio). Headers never carry credentials (those come from the host's keys for the
//! URL's origin), nor the names the transport itself sets. `args` and `env` are literal:
//! consent to start a program is given for an exact command line.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::document::{Graph, McpServer, NodeKind, ToolDef};
use crate::host::{McpEndpoint, Origin, is_credential_header};
use crate::plan::check::Checker;
use crate::plan::input_keys::nearest;
use crate::plan::types::{McpServerOp, McpServers, McpToolOp, McpTransport, Plan};
use crate::script::Scripting;

/// Header names the MCP transport sets itself: a document may not set them.
const TRANSPORT_HEADERS: [&str; 7] =
    ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "host", "origin"];

/// What a tool's `server` finds.
pub(super) enum FoundServer {
    Server(Rc<McpServerOp>),
    /// Declared, but with errors of its own (reported already).
    Broken,
    /// Not declared; the closest declared name, when one is close.
    Unknown(Option<String>),
}

impl McpServers {
    pub(super) fn find(&self, name: &str) -> FoundServer {
        match self.ok.get(name) {
            Some(s) => FoundServer::Server(s.clone()),
            None if self.names.iter().any(|n| n == name) => FoundServer::Broken,
            None => match &self.outer {
                Some(outer) => match outer.find(name) {
                    FoundServer::Unknown(_) => FoundServer::Unknown(nearest(name, self.all_names().into_iter())),
                    found => found,
                },
                None => FoundServer::Unknown(nearest(name, self.all_names().into_iter())),
            },
        }
    }

    /// Every name a tool here may use: this graph's, then those around it.
    fn all_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        if let Some(outer) = &self.outer {
            names.extend(outer.all_names());
        }
        names
    }

    /// The declared names, for a message about an unknown one.
    pub(super) fn known(&self) -> String {
        let names = self.all_names();
        if names.is_empty() {
            return "the graph declares no `mcp_servers`".into();
        }
        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        format!("the graph's MCP servers are {}", names.join(", "))
    }
}

impl Checker {
    /// The top-level document's `mcp_servers`, each checked; those with errors are left out
    /// (their errors keep the graph from running).
    pub(super) fn check_mcp_servers(&mut self, graph: &Graph) -> McpServers {
        let mut out = McpServers::default();
        let Some(servers) = &graph.mcp_servers else { return out };
        // Header templates are compiled once here to report errors; a run renders them.
        let scripting = servers
            .values()
            .any(|s| s.headers.as_ref().is_some_and(|h| h.values().any(|v| v.contains("{{"))))
            .then(|| Scripting::new(&graph.effective_limits()));
        for (name, server) in servers {
            out.names.push(name.clone());
            if let Some(transport) = self.mcp_server(name, server, scripting.as_ref()) {
                out.ok.insert(name.clone(), Rc::new(McpServerOp { name: name.clone(), transport }));
            }
        }
        self.unused_servers(graph, &out);
        out
    }

    /// One server: exactly one of `url` and `command`, with the fields that go with it.
    fn mcp_server(&mut self, name: &str, s: &McpServer, scripting: Option<&Scripting>) -> Option<McpTransport> {
        let base = format!("mcp_servers.{name}");
        let before = self.diags.len();
        if !crate::plan::valid_id(name) {
            let message = format!("`{name}` is not a valid server name: use 1 to 64 letters, digits, `_` or `-`");
            self.error(base.clone(), message, None, None);
        }
        let transport = match (&s.url, &s.command) {
            (Some(_), Some(_)) => {
                let message = "give a server either a `url` (Streamable HTTP) or a `command` (stdio), not both";
                self.error(base.clone(), message.into(), None, None);
                None
            }
            (None, None) => {
                let message = "give the server a `url` (Streamable HTTP) or a `command` to start (stdio)";
                self.error(base.clone(), message.into(), None, None);
                None
            }
            (Some(url), None) => self.http_server(&base, url, s, scripting),
            (None, Some(command)) => self.stdio_server(&base, command, s),
        };
        (self.diags.len() == before).then_some(transport).flatten()
    }

    /// A Streamable HTTP server: its URL and headers.
    fn http_server(
        &mut self,
        base: &str,
        url: &str,
        s: &McpServer,
        scripting: Option<&Scripting>,
    ) -> Option<McpTransport> {
        for (field, given) in [("args", s.args.is_some()), ("env", s.env.is_some())] {
            if given {
                let message = format!("`{field}` goes with `command` (a server started as a program), not `url`");
                self.error(format!("{base}.{field}"), message, None, None);
            }
        }
        if Origin::of(url).is_none() {
            let message = format!(
                "`{url}` is not an http(s) URL with a host (the server's endpoint, e.g. `https://example.com/mcp`)"
            );
            self.error(format!("{base}.url"), message, None, None);
        }
        let mut headers = Vec::new();
        for (name, value) in s.headers.iter().flatten() {
            let path = format!("{base}.headers.{name}");
            if is_credential_header(name) {
                let message = format!(
                    "`{name}` carries a credential, which a document may not hold: the host adds the token it keeps for this URL's origin"
                );
                self.error(path, message, None, None);
            } else if TRANSPORT_HEADERS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
                let message = format!("`{name}` is set by the MCP transport itself; leave it out");
                self.error(path, message, None, None);
            } else if !valid_header_name(name) {
                self.error(path, format!("`{name}` is not a valid header name"), None, None);
            } else if let Some(s) = scripting {
                self.template(s, value, path, None);
            }
            headers.push((name.clone(), value.clone()));
        }
        Some(McpTransport::Http { url: url.to_string(), headers })
    }

    /// A server started as a program: its arguments and environment, as written.
    fn stdio_server(&mut self, base: &str, command: &str, s: &McpServer) -> Option<McpTransport> {
        if s.headers.is_some() {
            let message = "`headers` go with `url` (a Streamable HTTP server), not `command`";
            self.error(format!("{base}.headers"), message.into(), None, None);
        }
        if command.trim().is_empty() {
            self.error(format!("{base}.command"), "name the program to start".into(), None, None);
        }
        let mut env = Vec::new();
        for (name, value) in s.env.iter().flatten() {
            if !valid_env_name(name) {
                let message = format!(
                    "`{name}` is not a valid environment variable name: use letters, digits and `_`, not starting with a digit"
                );
                self.error(format!("{base}.env.{name}"), message, None, None);
            } else if changes_what_runs(name) {
                let message = format!(
                    "`{name}` would change which program runs or what it loads, so a document may not set it: consent is for the program as the host finds it"
                );
                self.error(format!("{base}.env.{name}"), message, None, None);
            }
            env.push((name.clone(), value.clone()));
        }
        Some(McpTransport::Stdio { program: command.to_string(), args: s.args.clone().unwrap_or_default(), env })
    }

    /// Warns about each server no tool of the document runs.
    fn unused_servers(&mut self, graph: &Graph, servers: &McpServers) {
        let mut used = BTreeSet::new();
        servers_used(graph, &mut used);
        for name in servers.names.iter().filter(|n| !used.contains(n.as_str())) {
            self.warn(format!("mcp_servers.{name}"), format!("no tool runs on `{name}`"), None, None);
        }
    }

    /// The servers a nested graph's tools see: its own `mcp_servers` (checked) over `outer`.
    pub(super) fn nested_mcp_servers(&mut self, graph: &Graph, outer: &Rc<McpServers>) -> Rc<McpServers> {
        if graph.mcp_servers.as_ref().is_none_or(|s| s.is_empty()) {
            return outer.clone();
        }
        let mut own = self.check_mcp_servers(graph);
        own.outer = Some(outer.clone());
        Rc::new(own)
    }

    /// A tool's `run.mcp`: the server it names, and the server's name for the tool.
    pub(super) fn mcp_tool(
        &mut self,
        path: &str,
        name: &str,
        def: &ToolDef,
        servers: &McpServers,
    ) -> Option<McpToolOp> {
        let mcp = def.run.mcp.as_ref()?;
        let server = match servers.find(&mcp.server) {
            FoundServer::Server(s) => s,
            FoundServer::Broken => return None,
            FoundServer::Unknown(close) => {
                let hint = match close {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => servers.known(),
                };
                let message = format!("no MCP server is named `{}` ({hint})", mcp.server);
                self.error(format!("{path}.mcp.server"), message, None, None);
                return None;
            }
        };
        let tool = mcp.tool.clone().unwrap_or_else(|| name.to_string());
        if tool.is_empty() {
            self.error(format!("{path}.mcp.tool"), "name the server's tool (or leave `tool` out)".into(), None, None);
            return None;
        }
        Some(McpToolOp { server, tool, parameters: def.parameters.clone() })
    }
}

/// The names of servers `graph`'s tools run on, with those of the graphs it holds.
fn servers_used<'g>(graph: &'g Graph, names: &mut BTreeSet<&'g str>) {
    for tool in graph.tools.iter().flat_map(|t| t.values()) {
        if let Some(m) = &tool.run.mcp {
            names.insert(&m.server);
        }
    }
    for n in graph.nodes.iter().filter(|n| n.kind == NodeKind::Subgraph) {
        if let Some(inner) = &n.graph {
            servers_used(inner, names);
        }
    }
    for def in graph.definitions.iter().flat_map(|d| d.values()) {
        servers_used(def, names);
    }
}

/// An environment variable name a shell accepts: `[A-Za-z_][A-Za-z0-9_]*`.
/// Environment variables that choose the program (`PATH`) or inject code into it (the
/// dynamic loader's, and interpreters' start-up options): a document setting them could run
/// something other than what the person allowed.
fn changes_what_runs(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "PATH",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PERL5OPT",
        "PERL5LIB",
        "RUBYOPT",
        "RUBYLIB",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "BASH_ENV",
        "ENV",
        "SHELLOPTS",
        "IFS",
    ];
    let upper = name.to_ascii_uppercase();
    NAMES.contains(&upper.as_str()) || upper.starts_with("LD_") || upper.starts_with("DYLD_")
}

fn valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An HTTP header name (RFC 9110 token characters).
fn valid_header_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// The MCP servers `graph` declares (its definitions' and embedded graphs' too), each with its
/// JSON path (`mcp_servers.fs`, `definitions.inner.mcp_servers.fs`,
/// `nodes[2].graph.mcp_servers.fs`) and where a host reaches it: a stdio server's program,
/// arguments and environment exactly as it would start (for the person's consent before a
/// run), an HTTP server's URL with its headers as written (templates not rendered). Servers
/// no tool uses, and entries with neither `url` nor `command`, are left out.
pub fn mcp_endpoints(graph: &Graph) -> Vec<(String, McpEndpoint)> {
    let mut out = Vec::new();
    endpoints_at(graph, "", &mut out);
    out
}

fn endpoints_at(graph: &Graph, prefix: &str, out: &mut Vec<(String, McpEndpoint)>) {
    let mut used = BTreeSet::new();
    servers_used(graph, &mut used);
    for (name, s) in graph.mcp_servers.iter().flatten().filter(|(name, _)| used.contains(name.as_str())) {
        if let Some(endpoint) = endpoint_as_written(s) {
            out.push((format!("{prefix}mcp_servers.{name}"), endpoint));
        }
    }
    for (name, def) in graph.definitions.iter().flatten() {
        endpoints_at(def, &format!("{prefix}definitions.{name}."), out);
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        if let Some(inner) = &n.graph {
            endpoints_at(inner, &format!("{prefix}nodes[{i}].graph."), out);
        }
    }
}

/// Where server `s` is, as the document writes it; `None` when it gives neither `url` nor
/// `command`.
pub fn endpoint_as_written(s: &McpServer) -> Option<McpEndpoint> {
    if let Some(program) = &s.command {
        let env = s.env.iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect();
        return Some(McpEndpoint::Stdio { program: program.clone(), args: s.args.clone().unwrap_or_default(), env });
    }
    let url = s.url.clone()?;
    let headers = s.headers.iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect();
    Some(McpEndpoint::Http { url, headers })
}

impl Plan {
    /// The MCP servers this plan's tools run on ([`mcp_endpoints`]), for a host to ask
    /// consent before the run starts.
    pub fn mcp_endpoints(&self) -> Vec<(String, McpEndpoint)> {
        mcp_endpoints(&self.graph)
    }
}

#[cfg(test)]
mod tests {
    use crate::host::McpEndpoint;
    use crate::parse::parse_graph;
    use crate::plan::{compile, mcp_endpoints, validate};

    fn doc(servers: &str, tools: &str) -> String {
        format!(
            r#"{{"format":"switchyard/graph@1","mcp_servers":{servers},"tools":{tools},
            "nodes":[{{"id":"start","kind":"start"}},{{"id":"end","kind":"end"}}],
            "edges":[{{"from":"start","to":"end"}}]}}"#
        )
    }

    fn diags(servers: &str, tools: &str) -> Vec<String> {
        validate(&parse_graph(&doc(servers, tools)).unwrap()).iter().map(ToString::to_string).collect()
    }

    const ECHO: &str = r#"{"echo":{"run":{"mcp":{"server":"ev"}}}}"#;

    #[test]
    fn a_document_cannot_choose_the_program_or_inject_code_through_env() {
        for name in ["PATH", "LD_PRELOAD", "ld_library_path", "DYLD_INSERT_LIBRARIES", "NODE_OPTIONS", "BASH_ENV"] {
            let d = diags(&format!(r#"{{"ev":{{"command":"npx","env":{{"{name}":"./x"}}}}}}"#), ECHO);
            assert_eq!(d.len(), 1, "{name}: {d:?}");
            assert!(d[0].starts_with(&format!("error mcp_servers.ev.env.{name}: `{name}` would change")), "{d:?}");
        }
        assert_eq!(
            diags(r#"{"ev":{"command":"npx","env":{"MEMORY_FILE_PATH":"/tmp/m"}}}"#, ECHO),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_server_is_a_url_or_a_command() {
        assert_eq!(
            diags(r#"{"ev":{"command":"node","args":["s.js"],"env":{"MARK":"x"}}}"#, ECHO),
            Vec::<String>::new()
        );
        assert_eq!(
            diags(r#"{"ev":{"url":"http://127.0.0.1:3001/mcp","headers":{"X-Team":"a"}}}"#, ECHO),
            Vec::<String>::new()
        );
        let d = diags(r#"{"ev":{"url":"http://h/mcp","command":"node"}}"#, ECHO);
        assert_eq!(
            d,
            ["error mcp_servers.ev: give a server either a `url` (Streamable HTTP) or a `command` (stdio), not both"]
        );
        let d = diags(r#"{"ev":{}}"#, ECHO);
        assert!(d[0].starts_with("error mcp_servers.ev: give the server a `url`"), "{d:?}");
        let d = diags(r#"{"ev":{"url":"file:///x"}}"#, ECHO);
        assert!(d[0].starts_with("error mcp_servers.ev.url: `file:///x` is not an http(s) URL"), "{d:?}");
    }

    #[test]
    fn credentials_and_transport_headers_are_refused() {
        let d = diags(
            r#"{"ev":{"url":"https://h/mcp","headers":{"Authorization":"Bearer x","Mcp-Session-Id":"1"}}}"#,
            ECHO,
        );
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(
            d[0].starts_with("error mcp_servers.ev.headers.Authorization: `Authorization` carries a credential"),
            "{d:?}"
        );
        assert!(d[0].contains("the token it keeps for this URL's origin"), "{d:?}");
        assert_eq!(
            d[1],
            "error mcp_servers.ev.headers.Mcp-Session-Id: `Mcp-Session-Id` is set by the MCP transport itself; leave it out"
        );
    }

    #[test]
    fn env_names_must_be_names() {
        let d = diags(r#"{"ev":{"command":"node","env":{"1BAD":"x","OK_1":"y"}}}"#, ECHO);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("error mcp_servers.ev.env.1BAD: `1BAD` is not a valid environment variable name"),
            "{d:?}"
        );
    }

    #[test]
    fn a_tool_names_a_declared_server() {
        let d = diags(r#"{"everything":{"command":"node"}}"#, r#"{"echo":{"run":{"mcp":{"server":"everythin"}}}}"#);
        assert_eq!(
            d[0],
            "error tools.echo.run.mcp.server: no MCP server is named `everythin` (did you mean `everything`?)"
        );
        assert_eq!(d[1], "warning mcp_servers.everything: no tool runs on `everything`");
    }

    #[test]
    fn consent_lists_the_used_servers_as_they_start() {
        let text =
            doc(r#"{"ev":{"command":"node","args":["a b.js"],"env":{"MARK":"x"}},"idle":{"command":"sh"}}"#, ECHO);
        let graph = parse_graph(&text).unwrap();
        let ends = mcp_endpoints(&graph);
        assert_eq!(ends.len(), 1);
        assert_eq!(ends[0].0, "mcp_servers.ev");
        assert_eq!(
            ends[0].1,
            McpEndpoint::Stdio {
                program: "node".into(),
                args: vec!["a b.js".into()],
                env: vec![("MARK".into(), "x".into())]
            }
        );
        assert_eq!(ends[0].1.describe(), "node 'a b.js'");
        assert_eq!(compile(&graph).plan.unwrap().mcp_endpoints(), ends);
    }
}
