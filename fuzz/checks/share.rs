//! Any URL fragment opened as a share link: decoding must never panic, never inflate past
//! its limit, and a document that decodes must then parse (or be refused) without panicking.
//! Links this side encodes must always decode to what was encoded.

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // As typed or pasted into the address bar.
    if let Some(Ok(document)) = app::model::storage::share::decode(&text) {
        assert!(document.len() <= 16 << 20, "inflated past the limit: {} bytes", document.len());
        let _ = engine::parse_graph(&document);
    }
    // As carried after the key: arbitrary base64url-looking data.
    let _ = app::model::storage::share::decode(&format!("#graph={text}"));
    // Round trip of whatever text this side would share.
    let link = app::model::storage::share::encode(&text);
    assert_eq!(app::model::storage::share::decode(&link), Some(Ok(text.into_owned())));
}
