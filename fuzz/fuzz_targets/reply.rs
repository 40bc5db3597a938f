//! Any HTTP reply (status, content-encoding, body bytes) given to the native hosts' reply
//! reader, and any text to the key redactor: never a panic, never more than the bound, and a
//! key never survives redaction in a JSON reply's decoded strings.
#![no_main]

use libfuzzer_sys::fuzz_target;

const ENCODINGS: [&str; 6] = ["", "gzip", "deflate", "identity", "gzip, gzip", "br"];
const KEY: &str = "sk-fuzz-0123456789";

fuzz_target!(|data: &[u8]| {
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
});
