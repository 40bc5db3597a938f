//! A real Restate server and `switchyard serve` (started through the `switchyard` command, as a
//! person would), on free loopback ports, in a folder of their own; the deployment registered.
//! Both are killed when the harness is dropped.
//!
//! The server is the pinned `@restatedev/restate-server` that `./dev` installs with `npm ci`
//! (or `SWITCHYARD_RESTATE_SERVER` names one).

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Restate {
    server: Child,
    service: Option<Child>,
    pub ingress: String,
    pub admin: String,
    node: String,
    service_port: u16,
    reach: ServeReach,
    service_env: Vec<(String, String)>,
    _dir: tempfile::TempDir,
}

/// What the served graphs may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServeReach {
    /// Every loopback port (the fake model server's) but the Restate server's own, named with
    /// `--deny`: the one-machine layout with a local model server.
    LoopbackButRestate,
    /// `switchyard serve`'s defaults: no loopback or private address.
    Defaults,
}

/// Four different ports free on the loopback interface now.
fn free_ports() -> [u16; 4] {
    let listeners: Vec<TcpListener> = (0..4).map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port")).collect();
    let port = |i: usize| listeners[i].local_addr().expect("its address").port();
    [port(0), port(1), port(2), port(3)]
}

/// Where the built binaries are (`switchyard-serve` is this package's, `switchyard` is built
/// beside it by `cargo test --workspace`).
pub fn bin(name: &str) -> PathBuf {
    let serve = PathBuf::from(env!("CARGO_BIN_EXE_switchyard-serve"));
    let path = serve.with_file_name(name);
    assert!(path.is_file(), "{} is missing: build it first (cargo build -p switchyard)", path.display());
    path
}

fn server_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SWITCHYARD_RESTATE_SERVER") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("node_modules/@restatedev/restate-server-linux-x64/bin/restate-server");
    assert!(
        path.is_file(),
        "the Restate server is not installed at {}: `./dev test` installs it (npm ci), or set SWITCHYARD_RESTATE_SERVER",
        path.display()
    );
    path
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(30)))
        .http_status_as_error(false)
        .build()
        .into()
}

/// Servers start one at a time: each takes its free ports before the next looks for any.
static STARTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Restate {
    pub fn start() -> Restate {
        Restate::start_with(ServeReach::LoopbackButRestate)
    }

    pub fn start_with(reach: ServeReach) -> Restate {
        Restate::start_with_env(reach, &[])
    }

    /// A server whose service has `env` set (keys, say) besides what `reach` sets.
    pub fn start_with_env(reach: ServeReach, env: &[(&str, &str)]) -> Restate {
        Restate::start_configured(reach, env, &[])
    }

    /// A server started with `server_env` (its configuration, `RESTATE_…`), whose service has
    /// `env` set besides what `reach` sets.
    pub fn start_configured(reach: ServeReach, env: &[(&str, &str)], server_env: &[(&str, &str)]) -> Restate {
        let _one_at_a_time = STARTING.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().expect("a folder for the server");
        let [ingress, admin, node, service] = free_ports();
        let log = std::fs::File::create(dir.path().join("server.log")).expect("server log");
        let server = Command::new(server_binary())
            .args(["--base-dir", &dir.path().join("data").to_string_lossy(), "--node-name", "n1", "--no-logo"])
            .env("RESTATE_INGRESS__BIND_ADDRESS", format!("127.0.0.1:{ingress}"))
            .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
            .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{node}"))
            .env("RESTATE_LISTEN_MODE", "tcp")
            .envs(server_env.iter().copied())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the Restate server starts");
        let mut restate = Restate {
            server,
            service: None,
            ingress: format!("http://127.0.0.1:{ingress}"),
            admin: format!("http://127.0.0.1:{admin}"),
            node: format!("http://127.0.0.1:{node}"),
            service_port: service,
            reach,
            service_env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            _dir: dir,
        };
        restate.wait_for(&format!("{}/health", restate.admin));
        restate.wait_for(&format!("{}/restate/health", restate.ingress));
        restate.start_service();
        restate.register();
        restate
    }

    fn wait_for(&self, url: &str) {
        let since = Instant::now();
        while since.elapsed() < Duration::from_secs(90) {
            if agent().get(url).call().is_ok_and(|r| r.status().is_success()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{url} did not answer within 90 s");
    }

    /// Starts `switchyard serve` on the service's port (again, after a kill).
    pub fn start_service(&mut self) {
        let mut command = Command::new(bin("switchyard"));
        command.args(["serve", "--listen", &format!("127.0.0.1:{}", self.service_port)]);
        for var in ["SWITCHYARD_ALLOWED_ADDRESSES", "SWITCHYARD_DENIED_ADDRESSES", "SWITCHYARD_SERVER"] {
            command.env_remove(var);
        }
        command.envs(self.service_env.iter().map(|(k, v)| (k, v)));
        match self.reach {
            ServeReach::LoopbackButRestate => {
                command.args([
                    "--allow",
                    "127.0.0.1",
                    "--deny",
                    &[&self.ingress, &self.admin, &self.node].map(|s| s.as_str()).join(","),
                ]);
            }
            ServeReach::Defaults => {}
        }
        let child = command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("switchyard serve starts");
        self.service = Some(child);
        let since = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.service_port)).is_err() {
            assert!(since.elapsed() < Duration::from_secs(30), "switchyard serve did not listen within 30 s");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The service's own address (`http://127.0.0.1:PORT`), as the Restate server calls it.
    pub fn service_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.service_port)
    }

    /// Kills the service at once (SIGKILL), whatever it is doing.
    pub fn kill_service(&mut self) {
        if let Some(mut child) = self.service.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn register(&self) {
        let body = json!({ "uri": format!("http://127.0.0.1:{}", self.service_port) }).to_string();
        let reply = agent()
            .post(&format!("{}/deployments", self.admin))
            .header("content-type", "application/json")
            .send(body)
            .expect("the admin API answers");
        assert!(reply.status().is_success(), "registering the deployment failed: HTTP {}", reply.status());
    }

    /// `switchyard ARGS` against this server's ingress.
    pub fn cli(&self, args: &[&str]) -> Output {
        Command::new(bin("switchyard"))
            .args(args)
            .env("SWITCHYARD_SERVER", &self.ingress)
            .output()
            .expect("switchyard runs")
    }

    /// POSTs `body` to `path` of the ingress: the HTTP status and the reply as JSON (or text).
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let reply = agent()
            .post(&format!("{}{path}", self.ingress))
            .header("content-type", "application/json")
            .send(body.to_string())
            .expect("the ingress answers");
        read(reply)
    }

    /// Rows of a SQL query on the server's own tables (`sys_invocation`…), through its admin
    /// API: what the server knows, whether the service is up or not.
    pub fn query(&self, sql: &str) -> Vec<Value> {
        let reply = agent()
            .post(&format!("{}/query", self.admin))
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .send(json!({ "query": sql }).to_string())
            .expect("the admin API answers");
        let (status, body) = read(reply);
        assert!(status < 300, "query failed: HTTP {status} {body}");
        body["rows"].as_array().cloned().unwrap_or_default()
    }

    /// GETs `path` of the ingress.
    pub fn get(&self, path: &str) -> (u16, Value) {
        read(agent().get(&format!("{}{path}", self.ingress)).call().expect("the ingress answers"))
    }

    /// POSTs nothing to `path` (a handler without input).
    pub fn post_empty(&self, path: &str) -> (u16, Value) {
        read(agent().post(&format!("{}{path}", self.ingress)).send_empty().expect("the ingress answers"))
    }
}

fn read(mut reply: ureq::http::Response<ureq::Body>) -> (u16, Value) {
    let status = reply.status().as_u16();
    let text = reply.body_mut().with_config().limit(1 << 30).read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

impl Drop for Restate {
    fn drop(&mut self) {
        self.kill_service();
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
