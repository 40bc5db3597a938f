//! `switchyard-server`: what `switchyard server` starts (docs/server.md).

use clap::Parser;
use switchyard_server::options::Options;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let options = Options::parse();
    // Runs on this server's engine threads (the embedded backend) are sent as traces when
    // OTEL_* variables say where; with --restate, `switchyard serve` sends them.
    match switchyard_serve::export::start() {
        Ok(true) => eprintln!("switchyard server: sending traces (OTEL_* settings)"),
        Ok(false) => {}
        Err(e) => {
            eprintln!("switchyard server: {e}");
            return std::process::ExitCode::from(2);
        }
    }
    let code = serve(&options).await;
    for warning in switchyard_serve::export::stop() {
        eprintln!("switchyard server: {warning}");
    }
    code
}

/// Serves until the process is asked to stop (SIGINT or SIGTERM) or the server fails.
async fn serve(options: &Options) -> std::process::ExitCode {
    match switchyard_server::start(options).await {
        Ok(running) => {
            eprintln!("switchyard server: listening on http://{}", running.addr);
            tokio::select! {
                () = running.wait() => {}
                () = switchyard_serve::stop_asked() => {}
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("switchyard server: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
