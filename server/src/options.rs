//! `switchyard server`'s options, and the checks made before anything starts: a server on an
//! address other than loopback needs tokens.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::Parser;

/// LangGraph's local port.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:2024";

/// The command line.
#[derive(Debug, Clone, Parser, Default)]
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
}

impl Options {
    /// Options for `graphs` with the defaults.
    pub fn new(graphs: Vec<PathBuf>) -> Options {
        Options { graphs, listen: DEFAULT_LISTEN.into(), ..Options::default() }
    }

    /// The tokens, read; refuses a non-loopback address without any.
    pub fn check(&self) -> Result<Vec<String>, String> {
        let tokens = match &self.token_file {
            Some(path) => crate::api::auth::read_tokens(path).map_err(|e| format!("--token-file {e}"))?,
            None => Vec::new(),
        };
        if tokens.is_empty() && !is_loopback(&self.listen) {
            return Err(format!(
                "--listen {}: anyone who can reach this address could run the graphs (and spend their model keys); \
                 give --token-file with bearer tokens, or listen on 127.0.0.1",
                self.listen
            ));
        }
        Ok(tokens)
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
}
