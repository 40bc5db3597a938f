//! A stand-in for an OpenAI-compatible model server, on 127.0.0.1 with a port of its own,
//! written on `std::net` alone. It answers `POST …/chat/completions` in the real wire format
//! with a reply made from the last message (so each run gets its own, the same every time),
//! and counts the calls it received for each last message: a test reads from the counts
//! whether a call was ever made twice. Any other path is a webhook: it answers
//! `{"received": true}`, after a delay when one is set, and counts the calls by body.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

#[derive(Default)]
struct Shared {
    calls: Mutex<HashMap<String, u32>>,
    hooks: Mutex<HashMap<String, u32>>,
    hook_keys: Mutex<HashMap<String, Vec<String>>>,
    delay_ms: AtomicU64,
    stop: AtomicBool,
}

pub struct FakeOpenAi {
    port: u16,
    shared: Arc<Shared>,
}

impl FakeOpenAi {
    pub fn start() -> FakeOpenAi {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the fake model server");
        let port = listener.local_addr().expect("its address").port();
        let shared = Arc::new(Shared::default());
        let s = shared.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                if s.stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let s = s.clone();
                thread::spawn(move || serve(stream, &s));
            }
        });
        FakeOpenAi { port, shared }
    }

    /// The base URL a graph's model names (`…/v1`).
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// Every webhook reply waits this long first.
    pub fn set_hook_delay_ms(&self, ms: u64) {
        self.shared.delay_ms.store(ms, Ordering::Relaxed);
    }

    /// Calls received so far, by the last message's text.
    pub fn calls(&self) -> HashMap<String, u32> {
        self.shared.calls.lock().expect("counts").clone()
    }

    pub fn total_calls(&self) -> u32 {
        self.calls().values().sum()
    }

    /// Webhook calls received so far, by body.
    pub fn hooks(&self) -> HashMap<String, u32> {
        self.shared.hooks.lock().expect("counts").clone()
    }

    /// The `Idempotency-Key` of each webhook call, by body, in the order received.
    pub fn hook_keys(&self) -> HashMap<String, Vec<String>> {
        self.shared.hook_keys.lock().expect("keys").clone()
    }

    /// The reply the server gives to a conversation whose last message is `prompt`.
    pub fn reply_to(prompt: &str) -> String {
        format!("Draft reply ({} words): {}", prompt.split_whitespace().count(), prompt.to_uppercase())
    }
}

impl Drop for FakeOpenAi {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(stream: TcpStream, shared: &Shared) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let Some((path, key, body)) = read_request(&mut reader) else { return };
    if !path.ends_with("/chat/completions") {
        shared.hook_keys.lock().expect("keys").entry(body.clone()).or_default().push(key);
        *shared.hooks.lock().expect("counts").entry(body).or_default() += 1;
        let delay = shared.delay_ms.load(Ordering::Relaxed);
        if delay > 0 {
            thread::sleep(Duration::from_millis(delay));
        }
        return respond(stream, r#"{"received": true}"#);
    }
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let last = request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    // Counted when the request has been read, before the reply: a caller killed while waiting
    // for the reply has still made the call.
    *shared.calls.lock().expect("counts").entry(last.clone()).or_default() += 1;
    let words = last.split_whitespace().count() as u64;
    let reply = json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": request["model"],
        "choices": [{ "index": 0, "message": { "role": "assistant", "content": FakeOpenAi::reply_to(&last) }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": words, "completion_tokens": words + 3, "total_tokens": 2 * words + 3 }
    })
    .to_string();
    respond(stream, &reply);
}

fn respond(mut stream: TcpStream, reply: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
        reply.len()
    );
    let _ = stream.flush();
}

/// The path, `Idempotency-Key` and body of one HTTP/1.1 request with a `content-length`.
fn read_request(reader: &mut BufReader<TcpStream>) -> Option<(String, String, String)> {
    let mut length = 0usize;
    let mut key = String::new();
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let path = first.split_whitespace().nth(1)?.to_string();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            } else if name.trim().eq_ignore_ascii_case("idempotency-key") {
                key = value.trim().to_string();
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((path, key, String::from_utf8(body).ok()?))
}
