//! The real MCP software the tests use, as `./dev` installs it (tests/mcp): the reference
//! servers from npm, Node 22 for the Inspector and the conformance suite, and the official
//! Python SDK. `./dev test` sets the variables below; by hand, `eval "$(./dev mcp-env)"`.
//! Nothing here is a fake of the protocol.
#![allow(dead_code, reason = "each test file uses its own part")]

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn missing(what: &str, var: &str) -> ! {
    panic!(
        "{what} is not installed: `./dev test` installs it, or run `eval \"$(./dev mcp-env)\"` before cargo test ({var})"
    )
}

/// `tests/mcp/node_modules`, with the reference servers, the Inspector and the conformance
/// suite.
pub fn tools_dir() -> PathBuf {
    let dir = std::env::var_os("SWITCHYARD_MCP_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("tests/mcp/node_modules"));
    if !dir.join("@modelcontextprotocol/server-everything").is_dir() {
        missing("the MCP reference servers", "SWITCHYARD_MCP_TOOLS");
    }
    dir
}

/// The entry point of a reference server package (`everything`, `filesystem`, `memory`).
pub fn server_js(name: &str) -> String {
    let dir = tools_dir().join(format!("@modelcontextprotocol/server-{name}/dist/index.js"));
    dir.to_string_lossy().into_owned()
}

/// Node 22 (the Inspector and the conformance suite need it; the servers run on any Node).
pub fn node22() -> String {
    std::env::var("SWITCHYARD_NODE22").unwrap_or_else(|_| missing("Node 22", "SWITCHYARD_NODE22"))
}

/// The Python with the official `mcp` SDK.
pub fn python() -> String {
    if let Ok(p) = std::env::var("SWITCHYARD_MCP_PYTHON") {
        return p;
    }
    let p = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join("mcp-venv/bin/python");
    if !p.exists() {
        missing("the MCP Python SDK", "SWITCHYARD_MCP_PYTHON");
    }
    p.to_string_lossy().into_owned()
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("its address").port()
}

/// Waits (up to two minutes, for a busy machine) until something accepts on `port`.
pub fn wait_for_port(port: u16, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the server on port {port} exited before listening: {status}");
        }
        assert!(Instant::now() < deadline, "nothing listened on port {port} within two minutes");
        sleep(Duration::from_millis(50));
    }
}

/// A server process that is killed when the test ends.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    /// `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// The reference "everything" server over Streamable HTTP.
    pub fn everything_http() -> Server {
        let port = free_port();
        let mut child = Command::new("node")
            .arg(server_js("everything"))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node starts");
        wait_for_port(port, &mut child);
        Server { child, port }
    }
}

impl Server {
    /// tests/mcp/asker.py (the official Python SDK) over Streamable HTTP: tools `ask` (sends
    /// the client a roots, sampling, elicitation or ping request), `whoami` (the
    /// `Authorization` header it got) and `polled` (closes its stream before answering).
    pub fn asker_http() -> Server {
        let port = free_port();
        let mut child = Command::new(python())
            .arg(asker_py())
            .args(["http", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python starts");
        wait_for_port(port, &mut child);
        Server { child, port }
    }
}

/// The path of tests/mcp/asker.py (`python asker.py stdio` serves it over stdio).
pub fn asker_py() -> String {
    workspace().join("tests/mcp/asker.py").to_string_lossy().into_owned()
}

/// Processes whose environment holds `KEY=VALUE` (`/proc`, this user's).
pub fn processes_with(key: &str, value: &str) -> Vec<u32> {
    let needle = format!("{key}={value}");
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|kv| kv == needle.as_bytes()))
        })
        .collect()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
