//! A reply's body as the engine sees it: decompressed as its `content-encoding` says, and
//! bounded *after* decompression, so that a small compressed reply cannot inflate into
//! gigabytes. Pure (bytes in, text out), so it can be fuzzed.

use std::io::Read;

use engine::host::HttpResponse;

/// The largest reply body kept, once decompressed: 10 MiB.
pub const MAX_REPLY_BYTES: usize = 10 * 1024 * 1024;

/// The encodings a request says it accepts (and [`decode_reply`] reads).
pub const ACCEPT_ENCODING: &str = "gzip, deflate";

/// The body `raw` of a reply with status `status` and headers `headers`, decompressed and
/// read as UTF-8 text (invalid sequences replaced), refused once it passes `max_bytes`.
pub fn decode_reply(
    status: u16,
    headers: &[(String, String)],
    raw: &[u8],
    max_bytes: usize,
) -> Result<HttpResponse, String> {
    let encodings: Vec<String> = headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-encoding"))
        .flat_map(|(_, v)| v.split(',').map(|e| e.trim().to_ascii_lowercase()).collect::<Vec<_>>())
        .filter(|e| !e.is_empty() && e != "identity")
        .collect();
    let mut body = raw.to_vec();
    // Encodings are listed in the order they were applied; undo them last first.
    for encoding in encodings.iter().rev() {
        body = match encoding.as_str() {
            "gzip" | "x-gzip" => inflate(flate2::read::MultiGzDecoder::new(&body[..]), max_bytes)?,
            "deflate" => inflate(flate2::read::ZlibDecoder::new(&body[..]), max_bytes)?,
            other => return Err(format!("the reply is encoded as `{other}`, which cannot be read here")),
        };
    }
    if body.len() > max_bytes {
        return Err(too_large(max_bytes));
    }
    let body = match String::from_utf8(body) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(HttpResponse { status, body, headers: headers.to_vec() })
}

/// Reads `decoder` to its end, stopping with an error past `max_bytes`.
fn inflate(decoder: impl Read, max_bytes: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    decoder
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("the reply's compressed body is damaged: {e}"))?;
    if out.len() > max_bytes { Err(too_large(max_bytes)) } else { Ok(out) }
}

/// The error for a reply over `max_bytes`.
pub fn too_large(max_bytes: usize) -> String {
    format!("the reply is larger than {} once decompressed; it was not read", size_text(max_bytes))
}

fn size_text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).expect("in memory");
        e.finish().expect("in memory")
    }

    fn enc(v: &str) -> Vec<(String, String)> {
        vec![("Content-Encoding".into(), v.into())]
    }

    #[test]
    fn gzip_replies_are_decompressed() {
        let r = decode_reply(200, &enc("gzip"), &gzip(b"{\"a\": 1}"), 100).expect("decodes");
        assert_eq!(r.body, "{\"a\": 1}");
    }

    #[test]
    fn the_bound_counts_decompressed_bytes() {
        let bomb = gzip(&vec![b'0'; 5_000_000]);
        assert!(bomb.len() < 10_000, "{}", bomb.len());
        let err = decode_reply(200, &enc("gzip"), &bomb, 1_000_000).expect_err("refused");
        assert!(err.contains("larger than"), "{err}");
        assert!(decode_reply(200, &[], &[b'x'; 101], 100).is_err());
    }

    #[test]
    fn unknown_and_damaged_encodings_are_errors() {
        assert!(decode_reply(200, &enc("br"), b"x", 100).expect_err("refused").contains("`br`"));
        assert!(decode_reply(200, &enc("gzip"), b"not gzip", 100).is_err());
        assert_eq!(decode_reply(200, &enc("identity"), b"ok", 100).expect("plain").body, "ok");
    }
}
