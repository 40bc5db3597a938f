//! `switchyard mcp GRAPH.json... [--listen ADDR] [--authoring]`: serves each graph as an MCP
//! tool, over stdio (stdout carries MCP only; diagnostics go to stderr) or Streamable HTTP.

use std::net::{SocketAddr, ToSocketAddrs};

use crate::args::McpArgs;
use crate::consent;
use crate::exit::Printed;
use crate::input::BadInput;
use crate::mcp::server::{GraphServer, serve_stdio};
use crate::mcp::{http, tools};
use crate::output::say;
use crate::traces::Traces;

pub fn mcp(args: McpArgs) -> Result<Printed, BadInput> {
    let graphs = tools::load_all(&args.graphs)?;
    let allowed = consent::allowed(&args.allow_command);
    for g in &graphs {
        if let Some(plan) = engine::compile(&g.graph).plan {
            consent::check(&plan, &g.path, &allowed)?;
        }
    }
    let listen = args.listen.as_deref().map(listen_addr).transpose()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| BadInput::new(format!("cannot start the server: {e}")))?;
    let count = graphs.len();
    let traces = Traces::from_env();
    let server = GraphServer::new(graphs, args.authoring, allowed, traces.clone());
    let served = runtime.block_on(async move {
        match listen {
            None => serve_stdio(server).await,
            Some(addr) => {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .map_err(|e| format!("--listen {addr}: cannot listen: {e}"))?;
                let bound = listener.local_addr().map_err(|e| e.to_string())?;
                if !bound.ip().is_loopback() {
                    say(&format!(
                        "warning: {bound} is not a loopback address: anyone who can reach it can run these graphs"
                    ));
                }
                say(&format!("serving {count} graph(s) as MCP tools at http://{bound}{}", http::PATH));
                http::serve(server, listener).await.map_err(|e| format!("--listen {bound}: {e}"))
            }
        }
    });
    // Calls still running on their threads end with the process.
    runtime.shutdown_background();
    if let Some(traces) = traces {
        traces.finish_and_warn();
    }
    served.map_err(BadInput::new)?;
    Ok(Printed::new(String::new(), 0))
}

/// `--listen`'s address: `HOST:PORT`, or `:PORT` and `PORT` for 127.0.0.1.
fn listen_addr(arg: &str) -> Result<SocketAddr, BadInput> {
    let text = match arg.strip_prefix(':') {
        Some(port) => format!("127.0.0.1:{port}"),
        None if arg.parse::<u16>().is_ok() => format!("127.0.0.1:{arg}"),
        None => arg.to_string(),
    };
    text.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| BadInput::new(format!("--listen: `{arg}` is not an address (HOST:PORT or :PORT)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        assert_eq!(listen_addr(":8123").unwrap().to_string(), "127.0.0.1:8123");
        assert_eq!(listen_addr("8123").unwrap().to_string(), "127.0.0.1:8123");
        assert_eq!(listen_addr("0.0.0.0:80").unwrap().to_string(), "0.0.0.0:80");
        assert!(listen_addr("nowhere").unwrap_err().to_string().contains("`nowhere` is not an address"));
    }
}
