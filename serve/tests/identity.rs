//! Who may call the deployment (README, Untrusted graphs in the editor): with `SWITCHYARD_IDENTITY_KEYS` naming the Restate
//! server's public key, the service takes only requests that server signed; a caller that can
//! merely reach the port (another process, a graph elsewhere) is refused. On a real Restate
//! server configured with the matching private key.

mod support;

use std::time::{Duration, Instant};

use base64::Engine as _;
use ed25519_dalek::SigningKey;
use serde_json::{Value, json};
use support::restate::{Restate, ServeReach};

/// A key pair from a fixed seed: the private key as the PKCS#8 PEM the Restate server reads,
/// and the public key as `publickeyv1_<base58>`, as the SDK takes it.
fn key_pair(seed: u8) -> (String, String) {
    let secret = [seed; 32];
    // PKCS#8 for Ed25519 (RFC 8410): a fixed header, then the 32-byte seed.
    let mut der = vec![0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
    der.extend_from_slice(&secret);
    let pem = format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
        base64::engine::general_purpose::STANDARD.encode(&der)
    );
    let public = SigningKey::from_bytes(&secret).verifying_key().to_bytes();
    (pem, format!("publickeyv1_{}", bs58::encode(public).into_string()))
}

fn graph() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Signed",
        "state": { "n": { "type": "integer" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "inc", "kind": "set", "set": { "n": "state.n + 1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "inc" }, { "from": "inc", "to": "end" } ]
    })
}

/// `GET {service}/health` from someone who reached the port, not from the Restate server:
/// the HTTP status. The service speaks HTTP/2 without TLS, as Restate calls it.
fn health_unsigned(service: &str) -> u16 {
    let addr = service.trim_start_matches("http://").to_string();
    let uri = format!("{service}/health");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async move {
        let stream = tokio::net::TcpStream::connect(&addr).await.expect("the service listens");
        let (mut sender, connection) = hyper::client::conn::http2::handshake(
            hyper_util::rt::TokioExecutor::new(),
            hyper_util::rt::TokioIo::new(stream),
        )
        .await
        .expect("an HTTP/2 connection");
        tokio::spawn(connection);
        let request = hyper::Request::get(uri).body(http_body_util::Empty::<bytes::Bytes>::new()).expect("a request");
        sender.send_request(request).await.expect("the service answers").status().as_u16()
    })
}

#[test]
fn with_identity_keys_only_the_signing_restate_server_can_call_the_service() {
    let dir = tempfile::tempdir().expect("a folder");
    let (pem, public) = key_pair(7);
    let pem_path = dir.path().join("identity.pem");
    std::fs::write(&pem_path, pem).expect("write the key");
    let pem_path = pem_path.to_string_lossy().into_owned();
    let restate = Restate::start_configured(
        ServeReach::Defaults,
        &[("SWITCHYARD_IDENTITY_KEYS", &public)],
        &[("RESTATE_WORKER__INVOKER__REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE", &pem_path)],
    );
    // The server signs its calls: registering (above) and a run both work.
    let path = dir.path().join("signed.json");
    std::fs::write(&path, graph().to_string()).expect("write the graph");
    let out = restate.cli(&["submit", &path.to_string_lossy(), "--input", r#"{"n": 41}"#]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let run_id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let since = Instant::now();
    let record = loop {
        let out = restate.cli(&["record", &run_id]);
        if out.status.code() == Some(0) {
            break serde_json::from_slice::<Value>(&out.stdout).expect("a record");
        }
        assert!(since.elapsed() < Duration::from_secs(60), "the signed run did not complete");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(record["state"]["n"], 42);
    // Anyone else who reaches the port is refused.
    assert_eq!(health_unsigned(&restate.service_url()), 401);
}

#[test]
fn without_identity_keys_anyone_who_reaches_the_port_is_served() {
    // The documented default, for a service only the Restate server can reach.
    let restate = Restate::start_with(ServeReach::Defaults);
    assert_eq!(health_unsigned(&restate.service_url()), 200);
}

#[test]
fn a_malformed_identity_key_stops_the_service_with_a_message() {
    let out = std::process::Command::new(support::restate::bin("switchyard"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("SWITCHYARD_IDENTITY_KEYS", "publickeyv1_not-a-key")
        .output()
        .expect("switchyard serve runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("SWITCHYARD_IDENTITY_KEYS") && stderr.contains("publickeyv1_not-a-key"), "{stderr}");
}
