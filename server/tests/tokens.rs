//! Token streaming: a model that streams its reply (server-sent events, as OpenAI's API does)
//! reaches a `messages-tuple` stream piece by piece, with the id the whole message gets.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use serde_json::{Value, json};
use support::Server;

/// A model server that answers every chat completion with "Hel" + "lo" as two streamed deltas.
fn streaming_model() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}/v1", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().expect("the connection"));
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((_, v)) = line.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let delta = |text: &str| {
                let chunk = json!({"id": "c1", "object": "chat.completion.chunk", "model": "fake",
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": null}]});
                format!("data: {chunk}\n\n")
            };
            let body = format!("{}{}data: [DONE]\n\n", delta("Hel"), delta("lo"));
            let _ = write!(
                conn,
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    base
}

#[test]
fn a_streaming_models_pieces_arrive_in_messages_mode_before_the_whole_message() {
    let base = streaming_model();
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "talker",
        "state": {"messages": {"type": "messages"}},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "messages": "state.messages", "writes": "messages",
             "model": {"provider": "openai", "model": "fake", "base_url": base}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "agent"}, {"from": "agent", "to": "end"}]
    });
    let server = Server::start(&[graph]);
    let body = json!({"assistant_id": "talker", "input": {"messages": [{"role": "user", "content": "hi"}]},
                      "stream_mode": ["messages-tuple", "values"]});
    let (status, events) = server.stream("/runs/stream", &body);
    assert_eq!(status, 200);
    let messages: Vec<&Value> = events.iter().filter(|(n, _)| n == "messages").map(|(_, d)| d).collect();
    let pieces: Vec<&str> = messages.iter().filter_map(|m| m[0]["content"].as_str()).collect();
    // The reply arrives piece by piece, and only so: the whole message is not sent again.
    assert_eq!(pieces.concat(), "Hello", "{events:?}");
    assert!(messages.iter().all(|m| m[0]["type"] == "AIMessageChunk"), "{messages:?}");
    assert_eq!(messages[0][1]["langgraph_node"], "agent");
    // The pieces carry the id the whole message has in the state.
    let last_values = events.iter().rev().find(|(n, _)| n == "values").map(|(_, v)| v.clone()).unwrap_or_default();
    let reply = &last_values["messages"][1];
    assert_eq!((reply["type"].clone(), reply["content"].clone()), (json!("ai"), json!("Hello")));
    assert_eq!(messages[0][0]["id"], reply["id"]);
}
