//! A redirect never carries a credential to another origin: not the host's key (the OpenAI
//! bearer token, the Anthropic `x-api-key`), nor a credential header the graph set itself.
//! Two real servers on loopback: the first redirects, the second records what it was sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use engine::host::{Auth, HttpRequest, Origin};

type Seen = Arc<Mutex<Vec<Vec<(String, String)>>>>;

/// A server answering every request with `reply(path)` (a status line and headers), recording
/// each request's headers.
fn server(reply: impl Fn(&str) -> String + Send + 'static) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    let seen: Seen = Arc::default();
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().expect("the connection"));
            let mut first = String::new();
            let _ = reader.read_line(&mut first);
            let path = first.split_whitespace().nth(1).unwrap_or("/").to_string();
            let mut headers = Vec::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = line.trim_end().split_once(':') {
                    if k.eq_ignore_ascii_case("content-length") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            log.lock().expect("the log").push(headers);
            let _ = conn.write_all(reply(&path).as_bytes());
        }
    });
    (base, seen)
}

fn ok() -> String {
    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}".into()
}

fn redirect(to: &str) -> String {
    format!("HTTP/1.1 307 Temporary Redirect\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
}

fn request(url: String, auth: Auth) -> HttpRequest {
    HttpRequest {
        method: "POST".into(),
        url,
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("api-key".into(), "graph-azure-key-123".into()),
            ("x-trace".into(), "kept".into()),
        ],
        body: Some("{}".into()),
        timeout_ms: 10_000,
        auth: Some(auth),
    }
}

fn has(headers: &[(String, String)], name: &str) -> bool {
    headers.iter().any(|(k, _)| k == name)
}

#[test]
fn no_key_follows_a_redirect_to_another_origin() {
    let (elsewhere, seen_elsewhere) = server(|_| ok());
    let target = format!("{elsewhere}/collect");
    let (trusted, seen_trusted) = server(move |path| if path == "/same" { ok() } else { redirect(&target) });
    let origins = [Origin::of(&trusted).expect("an origin")];
    for auth in [Auth::Anthropic, Auth::OpenAi] {
        let reply =
            net::send_bound(&request(format!("{trusted}/v1/messages"), auth), Some("sk-secret-key-123456"), &origins)
                .expect("a reply");
        assert_eq!(reply.status, 200);
    }
    let trusted_saw = seen_trusted.lock().expect("log").clone();
    assert!(
        has(&trusted_saw[0], "x-api-key") && has(&trusted_saw[1], "authorization"),
        "the trusted origin gets the key"
    );
    let saw = seen_elsewhere.lock().expect("log").clone();
    assert_eq!(saw.len(), 2, "both redirects were followed");
    for headers in &saw {
        for credential in ["x-api-key", "authorization", "api-key"] {
            assert!(!has(headers, credential), "{credential} followed the redirect: {headers:?}");
        }
        assert!(has(headers, "x-trace"), "other headers go on: {headers:?}");
        assert!(!headers.iter().any(|(_, v)| v.contains("sk-secret-key")), "{headers:?}");
    }
}

#[test]
fn a_redirect_within_the_origin_keeps_the_key() {
    let (trusted, seen) = server(|path| if path == "/same" { ok() } else { redirect("/same") });
    let origins = [Origin::of(&trusted).expect("an origin")];
    let reply = net::send_bound(
        &request(format!("{trusted}/v1/messages"), Auth::Anthropic),
        Some("sk-secret-key-123456"),
        &origins,
    )
    .expect("a reply");
    assert_eq!(reply.status, 200);
    let saw = seen.lock().expect("log").clone();
    assert_eq!(saw.len(), 2);
    assert!(has(&saw[1], "x-api-key") && has(&saw[1], "api-key"), "{:?}", saw[1]);
}
