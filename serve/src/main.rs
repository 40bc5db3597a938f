//! `switchyard-serve [--listen ADDR]`, which `switchyard serve` starts: the Restate
//! deployment that runs graphs as durable workflows.

use std::process::ExitCode;

use clap::Parser;

/// Serves Switchyard runs as durable workflows to a Restate server. Register this deployment
/// with the server's admin API (`restate deployments register http://ADDR`, or POST
/// {"uri": "http://ADDR"} to its /deployments); then submit runs with `switchyard submit`.
#[derive(Parser)]
#[command(name = "switchyard serve", version)]
struct Args {
    /// Where to listen (HTTP/2 without TLS, as Restate calls deployments).
    #[arg(long, default_value = "127.0.0.1:9080")]
    listen: String,
    /// Loopback or private addresses graphs may reach (denied by default), comma-separated:
    /// `127.0.0.1:11434` (one port), `10.0.0.0/8`, `[::1]:8080`; also
    /// $SWITCHYARD_ALLOWED_ADDRESSES.
    #[arg(long, value_name = "LIST")]
    allow: Option<String>,
    /// Addresses graphs never reach, even when allowed: the Restate server's ingress, admin and
    /// node addresses (`http://127.0.0.1:9070`, …); also $SWITCHYARD_DENIED_ADDRESSES, and
    /// $SWITCHYARD_SERVER.
    #[arg(long, value_name = "LIST")]
    deny: Option<String>,
    /// A program graphs may start as an MCP server (repeatable), exactly as graphs write it;
    /// also $SWITCHYARD_ALLOWED_COMMANDS (comma-separated).
    #[arg(long = "allow-command", value_name = "PROGRAM")]
    allow_command: Vec<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let reach = match switchyard_serve::reach::settings(args.allow.as_deref(), args.deny.as_deref()) {
        Ok(reach) => reach,
        Err(e) => {
            eprintln!("switchyard serve: {e}");
            return ExitCode::from(2);
        }
    };
    for warning in switchyard_serve::reach::warnings(&reach) {
        eprintln!("switchyard serve: {warning}");
    }
    let keys = switchyard_serve::identity_keys_from_env();
    let endpoint = match switchyard_serve::endpoint(&keys) {
        Ok(endpoint) => endpoint,
        Err(e) => {
            eprintln!("switchyard serve: {e}");
            return ExitCode::from(2);
        }
    };
    if keys.is_empty() {
        eprintln!(
            "switchyard serve: anyone who can reach this port can call it; set {} to the Restate server's public key to accept only its requests",
            switchyard_serve::IDENTITY_KEYS_VAR
        );
    }
    match switchyard_serve::export::start() {
        Ok(true) => eprintln!("switchyard serve: sending traces (OTEL_* settings)"),
        Ok(false) => {}
        Err(e) => {
            eprintln!("switchyard serve: {e}");
            return ExitCode::from(2);
        }
    }
    let code = serve_until_stopped(args, endpoint, reach);
    for warning in switchyard_serve::export::stop() {
        eprintln!("switchyard serve: {warning}");
    }
    code
}

/// Listens and serves until the process is asked to stop.
fn serve_until_stopped(args: Args, endpoint: restate_sdk::prelude::Endpoint, reach: net::reach::Reach) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("switchyard serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(&args.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("switchyard serve: cannot listen on {}: {e}", args.listen);
                return ExitCode::from(2);
            }
        };
        let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or(args.listen);
        eprintln!("switchyard serve: listening on http://{addr} (register it with your Restate server)");
        let mut allowed = net::mcp::AllowedCommands::from_env();
        allowed.allow(&args.allow_command);
        switchyard_serve::serve(listener, endpoint, reach, allowed).await;
        ExitCode::SUCCESS
    })
}
