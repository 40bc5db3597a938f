//! A reply read as it arrives, for a model that streams its answer (server-sent events): the
//! body is read piece by piece and each piece handed on as text as soon as it is read, with a
//! character whose UTF-8 bytes are split between two reads handed on whole with the second
//! ([`Utf8Pieces`]). The reply returned still holds the whole body, bounded like any reply.
//!
//! The request asks for an uncompressed body (a compressed stream cannot be shown as it comes);
//! a server that compresses anyway is read whole, decompressed, and handed on in one piece.

use std::io::Read;

use engine::host::{HttpFailure, HttpRequest, HttpResponse, Origin, StreamRedactor, redact};

use super::{MAX_REPLY_BYTES, bound_key, decode_reply, fail, headers_of, read_error, start};

/// How much is read at a time (a server-sent event is usually far smaller).
const READ_SIZE: usize = 8 * 1024;

/// [`super::send_bound`], reading the reply as it arrives: `on_text` gets each piece.
pub fn send_stream_bound(
    req: &HttpRequest,
    key: Option<&str>,
    trusted: &[Origin],
    on_text: &mut dyn FnMut(&str),
) -> Result<HttpResponse, HttpFailure> {
    send_stream_bound_within(req, key, trusted, on_text, &std::sync::Arc::new(crate::reach::Reach::open()))
}

/// [`send_stream_bound`], connecting only to the addresses `reach` allows.
pub fn send_stream_bound_within(
    req: &HttpRequest,
    key: Option<&str>,
    trusted: &[Origin],
    on_text: &mut dyn FnMut(&str),
    reach: &std::sync::Arc<crate::reach::Reach>,
) -> Result<HttpResponse, HttpFailure> {
    stream_within(req, bound_key(req, key, trusted), MAX_REPLY_BYTES, on_text, reach)
}

/// Sends `req` with `key` and reads the reply as it arrives, keeping at most
/// `max_reply_bytes`; `on_text` gets each piece, keys removed (the possible start of a key at
/// the end of a read is held back until the next); the whole reply returned is cleaned as any
/// other.
pub fn send_stream_with(
    req: &HttpRequest,
    key: Option<&str>,
    max_reply_bytes: usize,
    on_text: &mut dyn FnMut(&str),
) -> Result<HttpResponse, HttpFailure> {
    stream_within(req, key, max_reply_bytes, on_text, &std::sync::Arc::new(crate::reach::Reach::open()))
}

fn stream_within(
    req: &HttpRequest,
    key: Option<&str>,
    max_reply_bytes: usize,
    on_text: &mut dyn FnMut(&str),
    reach: &std::sync::Arc<crate::reach::Reach>,
) -> Result<HttpResponse, HttpFailure> {
    let mut resp = start(req, key, "identity", reach, crate::redirect::MAX_REDIRECTS)?;
    let status = resp.status().as_u16();
    let headers = headers_of(&resp);
    let mut body = resp.body_mut().with_config().limit(max_reply_bytes as u64).reader();
    let clean = |text: &str| match key {
        Some(k) => redact(text, [k]),
        None => text.to_string(),
    };
    if compressed(&headers) {
        let mut raw = Vec::new();
        body.read_to_end(&mut raw).map_err(|e| read_error(e.into(), req, max_reply_bytes))?;
        let mut reply = decode_reply(status, &headers, &raw, max_reply_bytes).map_err(fail)?;
        reply.body = clean(&reply.body);
        on_text(&reply.body);
        return Ok(reply);
    }
    let mut whole = String::new();
    let mut pieces = Utf8Pieces::default();
    // A key split between two reads is whole in neither: its possible start is held back.
    let mut shown = StreamRedactor::new(key);
    let mut show = |text: &str| {
        if !text.is_empty() {
            on_text(text);
        }
    };
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        let n = match body.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_error(e.into(), req, max_reply_bytes)),
        };
        let text = pieces.push(&buf[..n]);
        show(&shown.push(&text));
        whole.push_str(&text);
    }
    let rest = pieces.finish();
    show(&shown.push(&rest));
    show(&shown.finish());
    whole.push_str(&rest);
    Ok(HttpResponse { status, body: clean(&whole), headers })
}

fn compressed(headers: &[(String, String)]) -> bool {
    headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-encoding"))
        .any(|(_, v)| v.split(',').any(|e| !e.trim().is_empty() && !e.trim().eq_ignore_ascii_case("identity")))
}

/// Bytes in, text out, one read at a time: the bytes of a character cut off at the end of a
/// read are held until the next; a byte sequence that is not UTF-8 becomes U+FFFD.
#[derive(Debug, Default)]
pub struct Utf8Pieces {
    held: Vec<u8>,
}

impl Utf8Pieces {
    /// The text of `bytes` (with what was held before), holding back an unfinished character.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.held.extend_from_slice(bytes);
        let mut out = String::new();
        let mut from = 0;
        loop {
            match std::str::from_utf8(&self.held[from..]) {
                Ok(text) => {
                    out.push_str(text);
                    from = self.held.len();
                    break;
                }
                Err(e) => {
                    let good = from + e.valid_up_to();
                    out.push_str(&String::from_utf8_lossy(&self.held[from..good]));
                    match e.error_len() {
                        // Cut off at the end: the rest may come with the next read.
                        None => {
                            from = good;
                            break;
                        }
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            from = good + bad;
                        }
                    }
                }
            }
        }
        self.held.drain(..from);
        out
    }

    /// What is left when the body ends: an unfinished character, as U+FFFD.
    pub fn finish(self) -> String {
        String::from_utf8_lossy(&self.held).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    #[test]
    fn characters_split_between_reads_come_out_whole() {
        let text = "héllo → 世界 🎉!";
        let bytes = text.as_bytes();
        // Every way of cutting the bytes in two, and one byte at a time.
        for cut in 0..=bytes.len() {
            let mut p = Utf8Pieces::default();
            let mut out = p.push(&bytes[..cut]);
            out += &p.push(&bytes[cut..]);
            out += &p.finish();
            assert_eq!(out, text, "cut at {cut}");
        }
        let mut p = Utf8Pieces::default();
        let pieces: Vec<String> = bytes.iter().map(|b| p.push(&[*b])).collect();
        assert!(pieces.iter().all(|s| s.chars().count() <= 1), "a character is handed on once it is whole");
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        let mut p = Utf8Pieces::default();
        assert_eq!(p.push(b"ok \xff then \xe4\xb8"), "ok \u{fffd} then ");
        assert_eq!(p.push(b"\x96 and \xc3"), "世 and ");
        assert_eq!(p.finish(), "\u{fffd}", "an unfinished character at the end");
    }

    /// A server that sends `parts` of a reply `gap` apart, then closes.
    fn slow_server(parts: Vec<Vec<u8>>, gap: Duration) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut line = String::new();
            // The request's head (its body is not needed).
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n").unwrap();
            for part in parts {
                conn.write_all(&part).unwrap();
                conn.flush().unwrap();
                std::thread::sleep(gap);
            }
        });
        format!("http://{addr}/v1/chat/completions")
    }

    fn request(url: String) -> HttpRequest {
        HttpRequest { method: "GET".into(), url, headers: Vec::new(), body: None, timeout_ms: 10_000, auth: None }
    }

    #[test]
    fn pieces_are_handed_on_as_they_arrive_and_the_reply_holds_them_all() {
        let euro = "€".as_bytes();
        let parts = vec![
            b"data: {\"t\":\"Hel\"}\n\n".to_vec(),
            [b"data: {\"t\":\"lo ".as_slice(), &euro[..1]].concat(),
            [&euro[1..], b"\"}\n\n".as_slice()].concat(),
            b"data: [DONE]\n\n".to_vec(),
        ];
        let url = slow_server(parts, Duration::from_millis(150));
        let started = Instant::now();
        let mut seen: Vec<(String, Duration)> = Vec::new();
        let reply = send_stream_with(&request(url), None, MAX_REPLY_BYTES, &mut |t| {
            seen.push((t.to_string(), started.elapsed()));
        })
        .unwrap();
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, "data: {\"t\":\"Hel\"}\n\ndata: {\"t\":\"lo €\"}\n\ndata: [DONE]\n\n");
        assert_eq!(seen.iter().map(|(t, _)| t.as_str()).collect::<String>(), reply.body);
        assert!(seen.len() >= 3, "several pieces, not one: {seen:?}");
        assert!(seen.iter().all(|(t, _)| !t.contains('\u{fffd}')), "the split € comes out whole");
        let first = seen[0].1;
        let last = seen.last().unwrap().1;
        assert!(last - first >= Duration::from_millis(300), "the first piece came before the rest was sent");
    }

    #[test]
    fn a_stream_past_the_bound_is_refused() {
        let url = slow_server(vec![vec![b'x'; 3000], vec![b'y'; 3000]], Duration::from_millis(10));
        let mut got = 0;
        let err = send_stream_with(&request(url), None, 4000, &mut |t| got += t.len()).unwrap_err();
        assert!(err.message.contains("larger than"), "{}", err.message);
        assert!(got <= 4000);
    }
}
