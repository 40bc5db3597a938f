//! Any HTTP reply (status, content-encoding, body bytes) given to the native hosts' reply
//! reader, and any text to the key redactor: never a panic, never more than the bound, and a
//! key never survives redaction in a JSON reply's decoded strings. The same body, as a model's
//! streamed reply (OpenAI or Anthropic events, cut into pieces anywhere), run through an `llm`
//! node: never a panic, the run ends, and the key never reaches the text shown or the record.

use std::cell::RefCell;
use std::rc::Rc;

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, StreamRedactor};
use serde_json::json;

const ENCODINGS: [&str; 6] = ["", "gzip", "deflate", "identity", "gzip, gzip", "br"];
const KEY: &str = "sk-fuzz-0123456789";

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let Some((&second, body)) = rest.split_first() else { return };
    let status = 100 + u16::from(first) * 2;
    let encoding = ENCODINGS[usize::from(second) % ENCODINGS.len()];
    let headers = vec![("Content-Encoding".to_string(), encoding.to_string())];
    let max = 64 * 1024;
    if let Ok(reply) = net::decode_reply(status, &headers, body, max) {
        assert!(reply.body.len() <= max * 3, "{} bytes", reply.body.len());
        assert_eq!(reply.status, status);
        let clean = engine::host::redact(&reply.body, [KEY]);
        assert!(!clean.contains(KEY), "{clean}");
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&clean) {
            assert!(!v.to_string().contains(KEY), "{v}");
        }
    }
    let provider = if first % 2 == 0 { "openai" } else { "anthropic" };
    stream_reply(provider, &String::from_utf8_lossy(body), usize::from(second % 16) + 1);
}

/// A host whose model replies with `body`, streamed in pieces of `piece` characters.
struct Streaming {
    body: String,
    piece: usize,
    shown: RefCell<String>,
}

impl Host for Streaming {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn new_run_id(&self) -> String {
        "fuzz".into()
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move { Ok(HttpResponse::new(200, self.body.clone())) })
    }
    fn sleep(&self, _: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn enforces_timeouts(&self) -> bool {
        true
    }
    fn key_allowed(&self, _: engine::host::Auth, _: &str) -> Result<(), String> {
        Ok(())
    }
    fn streams(&self) -> bool {
        true
    }
    fn http_stream<'a>(
        &'a self,
        _: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        let chars: Vec<char> = self.body.chars().collect();
        for piece in chars.chunks(self.piece) {
            chunk(&piece.iter().collect::<String>());
        }
        Box::pin(async move { Ok(HttpResponse::new(200, self.body.clone())) })
    }
    fn llm_delta(&self, _: &str, text: &str) {
        self.shown.borrow_mut().push_str(text);
    }
    fn stream_redactor(&self) -> StreamRedactor {
        StreamRedactor::new([KEY])
    }
}

fn stream_reply(provider: &str, body: &str, piece: usize) {
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "Stream",
        "state": { "answer": { "type": "any", "default": null } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "ask", "kind": "llm", "prompt": "hi", "writes": "answer",
              "model": { "provider": provider, "model": "m", "base_url": "https://models.example/v1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [{ "from": "start", "to": "ask" }, { "from": "ask", "to": "end" }]
    });
    let graph = engine::parse::graph_from_value(graph).expect("the graph parses");
    let plan = engine::compile(&graph).plan.expect("the graph compiles");
    let host = Streaming { body: body.to_string(), piece, shown: RefCell::default() };
    let mut run = engine::Run::start(Rc::new(plan), json!({}), &host).expect("the run starts");
    pollster::block_on(run.run(&host));
    assert_ne!(run.status(), engine::Status::Running);
    let record = serde_json::to_string(&run.record(true)).expect("a record serializes");
    assert!(!record.contains(KEY), "{record}");
    assert!(!host.shown.borrow().contains(KEY), "{}", host.shown.borrow());
}
