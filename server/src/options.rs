//! `switchyard server`'s options, and the checks made before anything starts: a server on an
//! address other than loopback needs tokens.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::Parser;

/// LangGraph's local port.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:2024";

/// Runs going at once by default.
pub const DEFAULT_MAX_RUNS: usize = 64;
/// Runs waiting for a turn by default.
pub const DEFAULT_MAX_WAITING: usize = 1024;

/// The command line.
#[derive(Debug, Clone, Parser)]
#[command(name = "switchyard-server", about = "Serves Switchyard graphs through LangGraph's Agent Server API")]
pub struct Options {
    /// Graph documents, one assistant each (graph_id = the graph's name).
    #[arg(required = true)]
    pub graphs: Vec<PathBuf>,
    /// The address to listen on.
    #[arg(long, default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// The SQLite file keeping threads, runs and checkpoints; `:memory:` keeps nothing.
    #[arg(long)]
    pub data: Option<String>,
    /// Run on a Restate server instead of the embedded store.
    #[arg(long)]
    pub restate: Option<String>,
    /// A file of bearer tokens, one a line: requests must carry one.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// An origin browsers may call from (repeatable).
    #[arg(long)]
    pub cors_origin: Vec<String>,
    /// A program graphs may start as a stdio MCP server (repeatable).
    #[arg(long)]
    pub allow_command: Vec<String>,
    /// Loopback or private addresses graphs and webhooks may reach (denied by default),
    /// comma-separated: `127.0.0.1:11434`, `10.0.0.0/8`, `[::1]:8080`; also
    /// $SWITCHYARD_ALLOWED_ADDRESSES.
    #[arg(long, value_name = "LIST")]
    pub allow: Option<String>,
    /// Runs going at once, on all threads; further runs wait their turn.
    #[arg(long, default_value_t = DEFAULT_MAX_RUNS)]
    pub max_runs: usize,
    /// Runs waiting for a turn, on all threads; beyond that a new run is refused (429).
    #[arg(long, default_value_t = DEFAULT_MAX_WAITING)]
    pub max_waiting: usize,
    /// Addresses graphs and webhooks never reach, even when allowed; also
    /// $SWITCHYARD_DENIED_ADDRESSES. The server's own address is always denied.
    #[arg(long, value_name = "LIST")]
    pub deny: Option<String>,
}

impl Options {
    /// Options for `graphs` with the defaults.
    pub fn new(graphs: Vec<PathBuf>) -> Options {
        Options {
            graphs,
            listen: DEFAULT_LISTEN.into(),
            data: None,
            restate: None,
            token_file: None,
            cors_origin: Vec::new(),
            allow_command: Vec::new(),
            max_runs: DEFAULT_MAX_RUNS,
            max_waiting: DEFAULT_MAX_WAITING,
            allow: None,
            deny: None,
        }
    }

    /// Warnings about the options: a token file others may read.
    pub fn warnings(&self) -> Vec<String> {
        match &self.token_file {
            Some(path) if net::secret_file::readable_by_others(path) => {
                vec![format!("--token-file {}: others than its owner may read it; chmod 600 it", path.display())]
            }
            _ => Vec::new(),
        }
    }

    /// The tokens, read; refuses a non-loopback address without any.
    pub fn check(&self) -> Result<Vec<String>, String> {
        let tokens = match &self.token_file {
            Some(path) => crate::api::auth::read_tokens(path).map_err(|e| format!("--token-file {e}"))?,
            None => Vec::new(),
        };
        for origin in &self.cors_origin {
            check_origin(origin)?;
        }
        if tokens.is_empty() && !is_loopback(&self.listen) {
            return Err(format!(
                "--listen {}: anyone who can reach this address could run the graphs (and spend their model keys); \
                 give --token-file with bearer tokens, or listen on 127.0.0.1",
                self.listen
            ));
        }
        Ok(tokens)
    }

    /// What graphs' requests and webhooks reach: `--allow`, `--deny` and the environment, with
    /// the server's own address `addr` denied (a graph must not call this API with no token).
    pub fn reach(&self, addr: SocketAddr) -> Result<net::reach::Reach, String> {
        let own = own_addresses(addr);
        let own: Vec<&str> = own.iter().map(String::as_str).collect();
        net::reach::Reach::served_settings(self.allow.as_deref(), self.deny.as_deref(), &own).map_err(|e| e.to_string())
    }

    /// The data file: `--data`, or `switchyard/server.sqlite` in the user's data folder.
    pub fn data_file(&self) -> Result<String, String> {
        if let Some(d) = &self.data {
            return Ok(d.clone());
        }
        let base = std::env::var_os("XDG_DATA_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
            .ok_or("no data folder: set XDG_DATA_HOME or HOME, or give --data FILE")?;
        Ok(base.join("switchyard").join("server.sqlite").to_string_lossy().into_owned())
    }
}

/// `addr` as address rules: an unspecified address (0.0.0.0) listens on loopback too.
fn own_addresses(addr: SocketAddr) -> Vec<String> {
    let mut own = vec![addr.to_string()];
    if addr.ip().is_unspecified() {
        own.push(format!("127.0.0.1:{}", addr.port()));
        own.push(format!("[::1]:{}", addr.port()));
    }
    own
}

/// A `--cors-origin`: `scheme://host[:port]`, nothing more (`*` would let any page call with
/// a person's credentials; the CORS layer refuses it).
fn check_origin(origin: &str) -> Result<(), String> {
    let bare = origin.split_once("://").is_some_and(|(_, rest)| !rest.contains(['/', '?', '#']));
    if origin == "*" {
        return Err(
            "--cors-origin *: name each origin that may call (scheme://host[:port]); any origin is not allowed".into(),
        );
    }
    if !bare || engine::host::Origin::of(origin).is_none() {
        return Err(format!("--cors-origin {origin}: expected an origin, scheme://host[:port]"));
    }
    Ok(())
}

/// Whether `listen` is a loopback address (`localhost` counts).
fn is_loopback(listen: &str) -> bool {
    if let Ok(addr) = listen.parse::<SocketAddr>() {
        return addr.ip().is_loopback();
    }
    let host = listen.rsplit_once(':').map_or(listen, |(h, _)| h);
    host == "localhost" || host.trim_matches(['[', ']']).parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_goes_without_tokens() {
        assert!(is_loopback("127.0.0.1:2024"));
        assert!(is_loopback("[::1]:2024"));
        assert!(is_loopback("localhost:80"));
        assert!(!is_loopback("0.0.0.0:2024"));
        let mut o = Options::new(vec![]);
        o.listen = "0.0.0.0:2024".into();
        assert!(o.check().unwrap_err().contains("--token-file"));
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_may_read_is_warned_about() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("tokens");
        std::fs::write(&path, "secret\n").expect("written");
        let mut o = Options::new(vec![]);
        o.token_file = Some(path.clone());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        assert!(o.warnings().iter().any(|w| w.contains("chmod 600")), "{:?}", o.warnings());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        assert!(o.warnings().is_empty());
    }

    #[test]
    fn cors_origins_are_origins_and_never_any() {
        let mut o = Options::new(vec![]);
        o.cors_origin = vec!["*".into()];
        assert!(o.check().unwrap_err().contains("any origin is not allowed"));
        for bad in ["example.com", "https://example.com/app", "ftp://example.com"] {
            o.cors_origin = vec![bad.into()];
            assert!(o.check().unwrap_err().contains("expected an origin"), "{bad}");
        }
        o.cors_origin = vec!["https://example.com".into(), "http://localhost:5173".into()];
        assert!(o.check().is_ok());
    }
}
