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
}

fn main() -> ExitCode {
    let args = Args::parse();
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
        switchyard_serve::serve(listener).await;
        ExitCode::SUCCESS
    })
}
