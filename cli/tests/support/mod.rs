//! A small scripted HTTP/1.1 server for the CLI's effect tests, on 127.0.0.1 with a port of
//! its own, written on `std::net` alone.
//!
//! It answers requests with the replies it was given, in order (the last one repeats once the
//! script runs out), each optionally after a delay, and records every request it received —
//! method, path, headers and body — as soon as it has read it, so that a test can check what
//! the `switchyard` binary actually sent. Each connection is served on its own thread, so a
//! slow reply never holds up the next request.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// One scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub content_type: String,
    /// Wait this long after reading the request before answering.
    pub delay: Duration,
    /// More headers to send (`retry-after`…).
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// A reply with a JSON body.
    pub fn json(status: u16, body: &Value) -> Reply {
        Reply {
            status,
            body: body.to_string(),
            content_type: "application/json".into(),
            delay: Duration::ZERO,
            headers: Vec::new(),
        }
    }

    /// A reply with a plain-text body.
    pub fn text(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.into(),
            content_type: "text/plain; charset=utf-8".into(),
            delay: Duration::ZERO,
            headers: Vec::new(),
        }
    }

    /// The same reply with one more header.
    pub fn with_header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The same reply, sent only after `ms` milliseconds.
    pub fn delayed(mut self, ms: u64) -> Reply {
        self.delay = Duration::from_millis(ms);
        self
    }
}

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The request target: path and query, e.g. `/items?id=7`.
    pub path: String,
    /// Header names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// When the request had been read.
    pub at: Instant,
}

impl Request {
    /// The first header of this name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON; panics with the body if it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("the request body is not JSON ({e}): {:?}", self.body))
    }
}

pub struct Server {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Starts a server that answers with `script` in order; the last reply repeats.
    pub fn start(script: Vec<Reply>) -> Server {
        assert!(!script.is_empty(), "a server needs at least one reply");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
        let addr = listener.local_addr().expect("the listener's address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let script = Arc::new(script);
        let served = Arc::new(AtomicUsize::new(0));
        {
            let requests = Arc::clone(&requests);
            let stop = Arc::clone(&stop);
            thread::spawn(move || {
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = conn else { continue };
                    let requests = Arc::clone(&requests);
                    let script = Arc::clone(&script);
                    let served = Arc::clone(&served);
                    thread::spawn(move || serve(stream, &requests, &script, &served));
                }
            });
        }
        Server { addr, requests, stop }
    }

    /// A server that always gives the same reply.
    pub fn always(reply: Reply) -> Server {
        Server::start(vec![reply])
    }

    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("the request log").clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

/// A port on 127.0.0.1 on which nothing listens (bound, then released).
pub fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
    let port = listener.local_addr().expect("the listener's address").port();
    drop(listener);
    port
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Request>>, script: &[Reply], served: &AtomicUsize) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(read_half) = stream.try_clone() else { return };
    let mut reader = BufReader::new(read_half);
    let Some(request) = read_request(&mut reader) else { return };
    log.lock().expect("the request log").push(request);
    let n = served.fetch_add(1, Ordering::SeqCst);
    let reply = &script[n.min(script.len() - 1)];
    if !reply.delay.is_zero() {
        thread::sleep(reply.delay);
    }
    let extra: String = reply.headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\n{extra}connection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    let mut stream = stream;
    // The client may have given up already (a timeout test): errors are expected then.
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(reply.body.as_bytes());
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Both);
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let header = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let mut body = Vec::new();
    if let Some(len) = header("content-length").and_then(|l| l.parse::<usize>().ok()) {
        body.resize(len, 0);
        reader.read_exact(&mut body).ok()?;
    } else if header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?.trim(), 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    Some(Request { method, path, headers, body: String::from_utf8_lossy(&body).into_owned(), at: Instant::now() })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        529 => "Overloaded",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Environment variables the child must not inherit: API keys (each test sets its own) and
/// proxies (the requests go to 127.0.0.1 and must not be sent elsewhere).
pub const SCRUBBED_ENV: [&str; 11] = [
    "SWITCHYARD_OPENAI_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "SWITCHYARD_TRUSTED_ORIGINS",
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
];
