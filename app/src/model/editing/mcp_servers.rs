//! The graph's MCP servers (`mcp_servers`) as the inspector edits them: adding one by URL or
//! by command, renaming it (the tools that run on it follow), removing it with its tools, and
//! turning a server's listing (what Connect showed) into graph tools. Every operation gives an
//! [`Edit`], so one gesture is one step of undo.

use engine::ListedTool;
use engine::document::{McpServer, ToolDef, ToolMcp, ToolRun};
use engine::{Graph, plan::valid_id};
use indexmap::IndexMap;

use crate::model::editing::edit::{Edit, Meta};
use crate::model::editing::names::fresh_name;
use crate::model::editing::tools;

/// Why a server cannot be added or take a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpServerError {
    EmptyName,
    /// Names are 1 to 64 letters, digits, `_` and `-`.
    InvalidName(String),
    Taken(String),
    /// A URL that is not `http://` or `https://`.
    NotHttp(String),
    EmptyCommand,
}

impl std::fmt::Display for McpServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            McpServerError::EmptyName => f.write_str("An MCP server needs a name"),
            McpServerError::InvalidName(n) => {
                write!(f, "`{n}` is not a valid server name: use 1 to 64 letters, digits, `_` or `-`")
            }
            McpServerError::Taken(n) => write!(f, "There is already an MCP server `{n}`"),
            McpServerError::NotHttp(u) => {
                write!(
                    f,
                    "`{u}` is not an http:// or https:// URL (an MCP server's endpoint, like http://localhost:3001/mcp)"
                )
            }
            McpServerError::EmptyCommand => f.write_str("Give the program to start, like npx"),
        }
    }
}

impl std::error::Error for McpServerError {}

/// A server reached over Streamable HTTP at `url` (trimmed, checked).
pub fn by_url(url: &str) -> Result<McpServer, McpServerError> {
    let url = url.trim();
    let scheme_ok = url.starts_with("http://") || url.starts_with("https://");
    if !scheme_ok || url.split_once("://").is_none_or(|(_, rest)| rest.is_empty()) {
        return Err(McpServerError::NotHttp(url.to_string()));
    }
    Ok(McpServer { url: Some(url.to_string()), ..McpServer::default() })
}

/// A program speaking MCP over stdio: `command` with `args` (each as given) and `env`.
pub fn by_command(
    command: &str,
    args: Vec<String>,
    env: IndexMap<String, String>,
) -> Result<McpServer, McpServerError> {
    let command = command.trim();
    if command.is_empty() {
        return Err(McpServerError::EmptyCommand);
    }
    Ok(McpServer {
        command: Some(command.to_string()),
        args: (!args.is_empty()).then_some(args),
        env: (!env.is_empty()).then_some(env),
        ..McpServer::default()
    })
}

/// A name for a new server, from where it is: the package or script a command runs
/// (`@modelcontextprotocol/server-memory@1.0` gives `memory`, `…/server-everything/dist/index.js`
/// gives `everything`), else the program's own name, or the URL's host (`mcp.example.com`
/// gives `example`); `server` when nothing fits.
pub fn suggested_name(server: &McpServer) -> String {
    let raw = if let Some(url) = &server.url {
        host_word(url)
    } else {
        let looks_like_code = |a: &&String| {
            !a.starts_with('-') && (a.contains(['/', '\\', '@', '.']) || a.contains("mcp") || a.contains("server"))
        };
        let package = server.args.iter().flatten().rev().find(looks_like_code);
        package.or(server.command.as_ref()).map(|w| package_word(w)).unwrap_or_default()
    };
    let name: String = raw.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').take(64).collect();
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) { "server".into() } else { name }
}

/// Parts of a path that say nothing about what runs.
const GENERIC: [&str; 9] = ["index", "main", "dist", "build", "src", "lib", "bin", "server", "mcp"];

/// The telling part of a package or path: `@scope/server-memory@1.2` → `memory`,
/// `/usr/bin/my-server.py` → `my`, `…/server-everything/dist/index.js` → `everything`.
fn package_word(word: &str) -> String {
    for part in word.rsplit(['/', '\\']) {
        let part = part.split('@').find(|p| !p.is_empty()).unwrap_or_default();
        let mut part = part.split('.').next().unwrap_or_default().to_lowercase();
        for prefix in ["mcp-", "server-"] {
            part = part.strip_prefix(prefix).map(str::to_string).unwrap_or(part);
        }
        for suffix in ["-mcp", "-server"] {
            part = part.strip_suffix(suffix).map(str::to_string).unwrap_or(part);
        }
        if !part.is_empty() && !GENERIC.contains(&part.as_str()) {
            return part;
        }
    }
    String::new()
}

/// The most telling label of a URL's host: `mcp.example.com` → `example`; `localhost` and
/// addresses give nothing.
fn host_word(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host);
    if host == "localhost" || host.parse::<std::net::Ipv4Addr>().is_ok() || host.starts_with('[') {
        return String::new();
    }
    let labels: Vec<&str> = host.split('.').collect();
    let main = if labels.len() >= 2 { labels[labels.len() - 2] } else { labels[0] };
    main.to_lowercase()
}

/// Adds `server` under its suggested name (made unique); gives the edit and the name.
pub fn add(graph: &Graph, server: McpServer) -> (Edit, String) {
    let mut meta = Meta::of(graph);
    let servers = meta.mcp_servers.get_or_insert_with(IndexMap::new);
    let name = fresh_name(&suggested_name(&server), |n| servers.contains_key(n));
    servers.insert(name.clone(), server);
    (Edit::SetMeta(meta), name)
}

/// Changes one server; `None` when there is no such server or nothing changes.
pub fn update(graph: &Graph, name: &str, f: impl FnOnce(&mut McpServer)) -> Option<Edit> {
    let mut meta = Meta::of(graph);
    let server = meta.mcp_servers.as_mut()?.get_mut(name)?;
    let before = server.clone();
    f(server);
    (*server != before).then_some(Edit::SetMeta(meta))
}

/// Renames a server in place, and in every tool that runs on it. `Ok(None)`: no change.
pub fn rename(graph: &Graph, old: &str, new: &str) -> Result<Option<Edit>, McpServerError> {
    let new = new.trim();
    if new == old {
        return Ok(None);
    }
    check_name(graph, new)?;
    let mut meta = Meta::of(graph);
    let Some(servers) = meta.mcp_servers.take() else { return Ok(None) };
    meta.mcp_servers =
        Some(servers.into_iter().map(|(k, s)| if k == old { (new.to_string(), s) } else { (k, s) }).collect());
    for def in meta.tools.iter_mut().flat_map(IndexMap::values_mut) {
        if let Some(m) = def.run.mcp.as_mut().filter(|m| m.server == old) {
            m.server = new.to_string();
        }
    }
    Ok(Some(Edit::SetMeta(meta)))
}

/// The graph tools that run on server `name`, in the graph's order.
pub fn tools_of(graph: &Graph, name: &str) -> Vec<String> {
    graph
        .tools
        .iter()
        .flatten()
        .filter(|(_, d)| d.run.mcp.as_ref().is_some_and(|m| m.server == name))
        .map(|(k, _)| k.clone())
        .collect()
}

/// Removes a server and the tools that run on it (taken off the nodes offering them too): a
/// tool whose server is gone could not run.
pub fn remove(graph: &Graph, name: &str) -> Option<Edit> {
    let mut g = graph.clone();
    let mut edits = Vec::new();
    for tool in tools_of(graph, name) {
        // Each removal is made against the graph as the previous ones left it.
        if let Some(edit) = tools::remove(&g, &tool) {
            edit.clone().apply(&mut g);
            edits.push(edit);
        }
    }
    let mut meta = Meta::of(&g);
    meta.mcp_servers.as_mut()?.shift_remove(name)?;
    if meta.mcp_servers.as_ref().is_some_and(IndexMap::is_empty) {
        meta.mcp_servers = None;
    }
    edits.push(Edit::SetMeta(meta));
    Some(Edit::Batch(edits))
}

/// Graph tools for the `listed` tools of server `server`, skipping those a graph tool runs
/// already: each named as the server names it (made valid and unique; `tool` then keeps the
/// server's name), with its description and parameters. Gives the edit (`None`: nothing to
/// add) and the names added.
pub fn add_tools(graph: &Graph, server: &str, listed: &[ListedTool]) -> (Option<Edit>, Vec<String>) {
    let mut meta = Meta::of(graph);
    let tools = meta.tools.get_or_insert_with(IndexMap::new);
    let mut added = Vec::new();
    for t in listed {
        // A graph tool runs it already when it names this server and, as its `tool` or
        // else its own name, this tool.
        let runs_already = tools.iter().any(|(k, d)| {
            d.run.mcp.as_ref().is_some_and(|m| m.server == server && m.tool.as_deref().unwrap_or(k) == t.name)
        });
        if runs_already {
            continue;
        }
        let name = fresh_name(&tool_word(&t.name), |n| tools.contains_key(n));
        let run = ToolRun {
            mcp: Some(ToolMcp { server: server.to_string(), tool: (name != t.name).then(|| t.name.clone()) }),
            ..ToolRun::default()
        };
        tools.insert(
            name.clone(),
            ToolDef { description: t.description.clone(), parameters: Some(t.input_schema.clone()), run },
        );
        added.push(name);
    }
    ((!added.is_empty()).then_some(Edit::SetMeta(meta)), added)
}

/// A server's tool name as a graph tool name: characters a model refuses become `_`.
fn tool_word(name: &str) -> String {
    let word: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(60)
        .collect();
    if word.is_empty() { "tool".into() } else { word }
}

fn check_name(graph: &Graph, name: &str) -> Result<(), McpServerError> {
    if name.is_empty() {
        return Err(McpServerError::EmptyName);
    }
    if !valid_id(name) {
        return Err(McpServerError::InvalidName(name.to_string()));
    }
    if graph.mcp_servers.as_ref().is_some_and(|s| s.contains_key(name)) {
        return Err(McpServerError::Taken(name.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::editing::editor::Editor;
    use engine::document::NodeKind;
    use engine::{Node, validate};
    use serde_json::json;

    fn listed(name: &str) -> ListedTool {
        ListedTool {
            name: name.into(),
            description: Some(format!("{name} does it")),
            input_schema: json!({"type": "object", "properties": {"message": {"type": "string"}}}),
        }
    }

    fn server_names(g: &Graph) -> Vec<String> {
        g.mcp_servers.iter().flat_map(IndexMap::keys).cloned().collect()
    }

    fn tool_names(g: &Graph) -> Vec<String> {
        g.tools.iter().flat_map(IndexMap::keys).cloned().collect()
    }

    #[test]
    fn servers_are_named_after_where_they_are() {
        let npx = by_command(
            "npx",
            vec!["-y".into(), "@modelcontextprotocol/server-memory@2026.8.31".into()],
            IndexMap::new(),
        );
        assert_eq!(suggested_name(&npx.unwrap()), "memory");
        assert_eq!(
            suggested_name(&by_command("/usr/local/bin/weather-mcp", vec![], IndexMap::new()).unwrap()),
            "weather"
        );
        assert_eq!(suggested_name(&by_url("https://mcp.example.com/mcp").unwrap()), "example");
        assert_eq!(suggested_name(&by_url("http://127.0.0.1:3001/mcp").unwrap()), "server");
        assert_eq!(suggested_name(&by_url("http://localhost:3001/mcp").unwrap()), "server");
    }

    #[test]
    fn a_bad_url_or_an_empty_command_is_refused_with_its_reason() {
        assert_eq!(by_url(" ftp://x ").unwrap_err(), McpServerError::NotHttp("ftp://x".into()));
        assert_eq!(by_url("http://").unwrap_err(), McpServerError::NotHttp("http://".into()));
        assert_eq!(by_command("  ", vec![], IndexMap::new()).unwrap_err(), McpServerError::EmptyCommand);
        assert!(McpServerError::NotHttp("x".into()).to_string().contains("http://localhost:3001/mcp"));
    }

    #[test]
    fn adding_gives_fresh_names_a_valid_document_and_one_undo_step() {
        let mut ed = Editor::new(Graph::new("t"));
        for expected in ["server", "server_2"] {
            let (edit, name) = add(ed.graph(), by_url("http://127.0.0.1:3001/mcp").unwrap());
            assert_eq!(name, expected);
            ed.apply(edit);
        }
        let env = IndexMap::from([("MEMORY_FILE_PATH".to_string(), "m.json".to_string())]);
        let (edit, name) = add(
            ed.graph(),
            by_command("npx", vec!["-y".into(), "@modelcontextprotocol/server-memory".into()], env).unwrap(),
        );
        ed.apply(edit);
        assert_eq!(name, "memory");
        assert_eq!(server_names(ed.graph()), ["server", "server_2", "memory"]);
        let text = serde_json::to_value(ed.graph()).unwrap();
        assert_eq!(
            text["mcp_servers"]["memory"],
            json!({"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"MEMORY_FILE_PATH": "m.json"}})
        );
        assert!(ed.undo());
        assert_eq!(server_names(ed.graph()), ["server", "server_2"]);
    }

    #[test]
    fn listed_tools_become_graph_tools_that_validate_and_are_not_added_twice() {
        let mut ed = Editor::new(Graph::new("t"));
        let (edit, server) = add(ed.graph(), by_url("http://127.0.0.1:3001/mcp").unwrap());
        ed.apply(edit);
        let mut taken = tools::new_tool();
        taken.description = Some("mine".into());
        ed.apply(Edit::SetMeta(Meta {
            tools: Some(IndexMap::from([("echo".to_string(), taken)])),
            ..Meta::of(ed.graph())
        }));
        let (edit, added) = add_tools(ed.graph(), &server, &[listed("echo"), listed("get-sum"), listed("a.b")]);
        ed.apply(edit.unwrap());
        assert_eq!(added, ["echo_2", "get-sum", "a_b"]);
        let g = ed.graph();
        let echo = &g.tools.as_ref().unwrap()["echo_2"];
        assert_eq!(
            echo.run.mcp,
            Some(ToolMcp { server: "server".into(), tool: Some("echo".into()) }),
            "the server's name is kept"
        );
        assert_eq!(echo.description.as_deref(), Some("echo does it"));
        assert_eq!(echo.parameters.as_ref().unwrap()["properties"]["message"]["type"], "string");
        assert_eq!(g.tools.as_ref().unwrap()["get-sum"].run.mcp.as_ref().unwrap().tool, None);
        let mut with_agent = g.clone();
        let mut llm = Node::new("agent", NodeKind::Llm);
        llm.tools = Some(added.clone());
        with_agent.nodes.push(llm);
        let agent = with_agent.node("agent").unwrap();
        assert!(tools::choices(&with_agent, agent).iter().any(|(n, _)| n == "echo_2"), "the picker lists them");
        let about_tools: Vec<String> = validate(&with_agent)
            .into_iter()
            .filter(|d| d.path.starts_with("tools") || d.path.starts_with("mcp_servers"))
            .map(|d| format!("{}: {}", d.path, d.message))
            .collect();
        assert!(about_tools.is_empty(), "{about_tools:?}");
        let (again, none) = add_tools(ed.graph(), &server, &[listed("echo"), listed("get-sum")]);
        assert!(again.is_none() && none.is_empty(), "tools added already are not added twice");
        assert!(ed.undo());
        assert_eq!(tool_names(ed.graph()), ["echo"]);
    }

    #[test]
    fn renaming_follows_into_the_tools_and_removing_takes_them_along() {
        let mut g = Graph::new("t");
        let (edit, server) = add(&g, by_url("http://127.0.0.1:3001/mcp").unwrap());
        edit.apply(&mut g);
        add_tools(&g, &server, &[listed("echo"), listed("add")]).0.unwrap().apply(&mut g);
        let mut llm = Node::new("agent", NodeKind::Llm);
        llm.tools = Some(vec!["echo".into(), "add".into()]);
        g.nodes.push(llm);
        let before = g.clone();
        let mut ed = Editor::new(g);
        assert_eq!(
            rename(ed.graph(), "server", "two words").unwrap_err(),
            McpServerError::InvalidName("two words".into())
        );
        assert!(rename(ed.graph(), "server", "server").unwrap().is_none());
        ed.apply(rename(ed.graph(), "server", "everything").unwrap().unwrap());
        assert_eq!(server_names(ed.graph()), ["everything"]);
        assert_eq!(tools_of(ed.graph(), "everything"), ["echo", "add"]);
        ed.apply(remove(ed.graph(), "everything").unwrap());
        assert_eq!(ed.graph().mcp_servers, None);
        assert_eq!(ed.graph().tools, None);
        assert_eq!(ed.graph().node("agent").unwrap().tools, None, "the agent no longer offers them");
        assert!(remove(ed.graph(), "everything").is_none());
        assert!(ed.undo() && ed.undo());
        assert_eq!(ed.graph(), &before, "one undo step each");
    }

    #[test]
    fn updating_a_server_is_one_edit_and_no_change_is_none() {
        let mut g = Graph::new("t");
        add(&g, by_url("http://127.0.0.1:3001/mcp").unwrap()).0.apply(&mut g);
        assert!(update(&g, "server", |_| {}).is_none());
        assert!(update(&g, "ghost", |s| s.url = None).is_none());
        update(&g, "server", |s| s.url = Some("http://127.0.0.1:4000/mcp".into())).unwrap().apply(&mut g);
        assert_eq!(g.mcp_servers.unwrap()["server"].url.as_deref(), Some("http://127.0.0.1:4000/mcp"));
    }
}
