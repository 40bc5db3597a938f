//! Reading a `fetch` response's body as it arrives (a model's server-sent events, and every
//! other reply, so that the size bound stops the download rather than a whole body): the body's
//! `ReadableStream` read piece by piece, each piece decoded with one streaming `TextDecoder`,
//! so a character whose UTF-8 bytes are split between two pieces comes out whole in the
//! second. The whole text is returned at the end, bounded like any reply.

use engine::host::HttpFailure;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::fetch_error::{describe, failure, read_failure};

/// Most bytes a reply may take, streamed or not (the native hosts bound replies the same).
const MAX_STREAM_BYTES: usize = 10 * 1024 * 1024;

/// Reads `response`'s body to its end, calling `chunk` with each decoded piece as it arrives;
/// returns the whole text.
pub async fn read(response: &web_sys::Response, chunk: &dyn Fn(&str)) -> Result<String, HttpFailure> {
    read_until(response, &|piece| {
        chunk(piece);
        false
    })
    .await
}

/// Reads `response`'s body until its end or until `chunk` says it has heard enough (an MCP
/// server's event stream may stay open after the awaited response); returns the text read.
pub async fn read_until(response: &web_sys::Response, chunk: &dyn Fn(&str) -> bool) -> Result<String, HttpFailure> {
    let Some(body) = response.body() else { return Ok(String::new()) };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = web_sys::TextDecoder::new().map_err(|e| failure(describe(&e)))?;
    let streaming = web_sys::TextDecodeOptions::new();
    streaming.set_stream(true);
    let mut whole = String::new();
    let mut bytes = 0usize;
    loop {
        let next = JsFuture::from(reader.read()).await.map_err(|e| read_failure(&e))?;
        let next: web_sys::ReadableStreamReadResult = next.unchecked_into();
        if next.get_done().unwrap_or(false) {
            break;
        }
        let value: js_sys::Uint8Array = next.get_value().dyn_into().map_err(|_| failure("the body is not bytes"))?;
        bytes += value.length() as usize;
        if bytes > MAX_STREAM_BYTES {
            // Stop the download too, not only the reading.
            let _ = reader.cancel();
            return Err(failure(format!("the reply is larger than {} MiB", MAX_STREAM_BYTES / (1024 * 1024))));
        }
        let piece =
            decoder.decode_with_js_u8_array_and_options(&value, &streaming).map_err(|e| failure(describe(&e)))?;
        if push(&mut whole, &piece, chunk) {
            let _ = reader.cancel();
            return Ok(whole);
        }
    }
    // Bytes held back waiting for the rest of a character: the stream ended without it.
    let rest = decoder.decode().map_err(|e| failure(describe(&e)))?;
    push(&mut whole, &rest, chunk);
    Ok(whole)
}

/// Adds `piece`; whether `chunk` has heard enough.
fn push(whole: &mut String, piece: &str, chunk: &dyn Fn(&str) -> bool) -> bool {
    if piece.is_empty() {
        return false;
    }
    whole.push_str(piece);
    chunk(piece)
}
