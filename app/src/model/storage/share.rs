//! Share links: the graph document, compressed and base64url-encoded, in the URL fragment
//! (`#graph=…`), so opening the link imports it without any server.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

pub const FRAGMENT_KEY: &str = "graph=";

/// The fragment (without `#`) that carries `document`.
pub fn encode(document: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(document.as_bytes(), 9);
    format!("{FRAGMENT_KEY}{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The document a fragment carries, if it carries one.
pub fn decode(fragment: &str) -> Option<Result<String, String>> {
    let data = fragment.trim_start_matches('#').strip_prefix(FRAGMENT_KEY)?;
    Some(
        URL_SAFE_NO_PAD
            .decode(data.trim())
            .map_err(|e| format!("the link is damaged (not base64url: {e})"))
            .and_then(|bytes| {
                miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, 16 << 20)
                    .map_err(|e| format!("the link is damaged (cannot be unpacked: {e:?})"))
            })
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "the link does not hold text".to_string())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let doc = engine::Graph::new("Shared").to_pretty_json();
        let frag = encode(&doc);
        assert!(frag.len() < doc.len(), "compressed: {} vs {}", frag.len(), doc.len());
        assert_eq!(decode(&format!("#{frag}")), Some(Ok(doc)));
        assert_eq!(decode("#other=1"), None);
        assert!(decode("#graph=!!!").unwrap().is_err());
        assert!(decode("#graph=AAAA").unwrap().is_err());
    }
}
