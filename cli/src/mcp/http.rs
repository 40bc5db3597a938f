//! `--listen ADDR`: the server over Streamable HTTP at `http://ADDR/mcp` (rmcp's transport:
//! sessions, SSE, Host validation against DNS rebinding, Origin validation allowing only the
//! server's own loopback origins, so a web page gets 403). Other paths get 404.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

use super::server::GraphServer;

/// The path the endpoint is served at.
pub const PATH: &str = "/mcp";

/// The `Host` values accepted: the loopback names, and the bound address itself.
pub fn allowed_hosts(addr: SocketAddr) -> Vec<String> {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].iter().map(|s| s.to_string()).collect();
    let ip = addr.ip().to_string();
    if !hosts.contains(&ip) && !addr.ip().is_unspecified() {
        hosts.push(ip);
    }
    hosts
}

/// The `Origin` values accepted: this server's own loopback origins (it serves no pages, so
/// no other site's script gets in; the conformance suite's DNS-rebinding scenario expects
/// them accepted). Any other origin, a web page's, gets 403.
pub fn allowed_origins(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    ["localhost", "127.0.0.1", "[::1]"].iter().map(|h| format!("http://{h}:{port}")).collect()
}

/// Serves `server` on `listener` until the process ends.
pub async fn serve(server: GraphServer, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(addr))
        .with_allowed_origins(allowed_origins(addr))
        .enforce_origin_validation();
    let service =
        StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
    loop {
        let (stream, _) = listener.accept().await?;
        // Small JSON-RPC replies must not wait for the peer's delayed ACK (40 ms a call).
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                let service = service.clone();
                async move {
                    if request.uri().path() == PATH {
                        Ok::<_, Infallible>(service.handle(request).await)
                    } else {
                        Ok(not_found())
                    }
                }
            });
            // A connection that breaks off is the client's business.
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

fn not_found() -> Response<http_body_util::combinators::BoxBody<Bytes, Infallible>> {
    let mut r = Response::new(Full::new(Bytes::from_static(b"the MCP endpoint is /mcp\n")).boxed());
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}
