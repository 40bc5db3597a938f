//! `switchyard-server`: what `switchyard server` starts (docs/server.md).

use clap::Parser;
use switchyard_server::options::Options;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let options = Options::parse();
    match switchyard_server::start(&options).await {
        Ok(running) => {
            eprintln!("switchyard server: listening on http://{}", running.addr);
            running.wait().await;
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("switchyard server: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
