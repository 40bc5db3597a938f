//! Keys removed from replies. A server that echoes a request back, or an error page quoting
//! it, must not carry a key into a run record; and a key written with JSON escapes
//! (`\u0073k-…`) is only found once the JSON is decoded, so both the raw text and every
//! decoded string and member name are searched.

use serde_json::Value;

/// What a key is replaced with in a reply.
pub const REMOVED: &str = "[api key removed]";

/// `body` with every key of `secrets` removed, from the raw text and from every decoded JSON
/// string and member name (a key written with escapes, `\u0073k-…`, is found once decoded).
pub fn redact<'a>(body: &str, secrets: impl IntoIterator<Item = &'a str>) -> String {
    let secrets: Vec<&str> = secrets.into_iter().filter(|k| k.len() >= 8).collect();
    if secrets.is_empty() {
        return body.to_string();
    }
    let text = secrets.iter().fold(body.to_string(), |t, k| t.replace(k, REMOVED));
    let Ok(mut value) = serde_json::from_str::<Value>(&text) else { return text };
    if scrub(&mut value, &secrets) { value.to_string() } else { text }
}

/// Text that arrives in pieces (a streamed reply, its deltas), with keys removed even when one
/// is split between two pieces: what could be the start of a key (the last bytes, up to the
/// longest key's length less one) is held back until the next piece, or the end, shows.
#[derive(Clone, Default)]
pub struct StreamRedactor {
    secrets: Vec<String>,
    held: String,
}

impl std::fmt::Debug for StreamRedactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the keys themselves.
        f.debug_struct("StreamRedactor").field("keys", &self.secrets.len()).finish()
    }
}

impl StreamRedactor {
    /// A redactor of `secrets` (keys shorter than 8 characters are not searched, as in
    /// [`redact`]).
    pub fn new<'a>(secrets: impl IntoIterator<Item = &'a str>) -> StreamRedactor {
        let secrets = secrets.into_iter().filter(|k| k.len() >= 8).map(str::to_string).collect();
        StreamRedactor { secrets, held: String::new() }
    }

    /// The text of `piece` that can be shown now, keys removed; the rest is held.
    pub fn push(&mut self, piece: &str) -> String {
        self.held.push_str(piece);
        let clean = self.clean(&self.held);
        // Every whole key is gone; a key not yet whole can only be a tail this long.
        let keep = self.secrets.iter().map(String::len).max().unwrap_or(1) - 1;
        let mut cut = clean.len().saturating_sub(keep);
        while !clean.is_char_boundary(cut) {
            cut -= 1;
        }
        self.held = clean[cut..].to_string();
        clean[..cut].to_string()
    }

    /// What is held at the end, keys removed.
    pub fn finish(&mut self) -> String {
        let clean = self.clean(&self.held);
        self.held.clear();
        clean
    }

    /// `text`, whole, with every key removed.
    pub fn clean(&self, text: &str) -> String {
        self.secrets.iter().fold(text.to_string(), |t, k| t.replace(k.as_str(), REMOVED))
    }

    /// Every string and member name in `value` with every key removed.
    pub fn clean_value(&self, value: &mut Value) {
        let secrets: Vec<&str> = self.secrets.iter().map(String::as_str).collect();
        if !secrets.is_empty() {
            scrub(value, &secrets);
        }
    }
}

/// Headers that carry credentials, asked for or given: never sent on to another origin, and
/// never kept from a reply.
const CREDENTIAL_HEADERS: [&str; 8] = [
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "cookie",
    "set-cookie",
    "set-cookie2",
];

/// Whether the header `name` carries credentials (any case).
pub fn is_credential_header(name: &str) -> bool {
    CREDENTIAL_HEADERS.iter().any(|c| c.eq_ignore_ascii_case(name))
}

/// Reply headers as they may be kept (a served run's journal keeps them): a credential
/// header's value is replaced, and every key of `secrets` is removed from the others.
pub fn redact_headers<'a>(
    headers: Vec<(String, String)>,
    secrets: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, String)> {
    let secrets: Vec<&str> = secrets.into_iter().collect();
    headers
        .into_iter()
        .map(|(name, value)| {
            let value =
                if is_credential_header(&name) { REMOVED.to_string() } else { redact(&value, secrets.iter().copied()) };
            (name, value)
        })
        .collect()
}

fn scrub(v: &mut Value, secrets: &[&str]) -> bool {
    let clean = |s: &str| secrets.iter().fold(s.to_string(), |t, k| t.replace(k, REMOVED));
    match v {
        Value::String(s) if secrets.iter().any(|k| s.contains(k)) => {
            *s = clean(s);
            true
        }
        Value::Array(items) => items.iter_mut().fold(false, |found, i| scrub(i, secrets) | found),
        Value::Object(map) => {
            let mut found = false;
            if map.keys().any(|k| secrets.iter().any(|s| k.contains(s))) {
                let old = std::mem::take(map);
                *map = old.into_iter().map(|(k, v)| (clean(&k), v)).collect();
                found = true;
            }
            map.values_mut().fold(found, |found, i| scrub(i, secrets) | found)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_redacted_from_decoded_json_strings() {
        let key = "sk-secret-123456";
        let escaped: String = key.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
        let body = format!(r#"{{"echo": "{escaped}", "raw": "{key}", "list": ["x{escaped}y"]}}"#);
        let out = redact(&body, [key]);
        assert!(!out.contains(key), "{out}");
        let v: Value = serde_json::from_str(&out).expect("still JSON");
        assert!(!v.to_string().contains(key));
        assert_eq!(v["echo"], REMOVED);
        assert_eq!(v["list"][0], format!("x{REMOVED}y"));
        assert_eq!(redact("plain text with sk-secret-123456 in it", [key]), format!("plain text with {REMOVED} in it"));
        assert_eq!(redact(r#"{"a": "unrelated"}"#, [key]), r#"{"a": "unrelated"}"#, "untouched when absent");
    }

    #[test]
    fn a_key_split_between_pieces_is_removed() {
        let key = "sk-split-key-0123456789";
        let text = format!("before {key} after é {key}");
        // Every way of cutting the text in two, and one character at a time.
        for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
            let mut r = StreamRedactor::new([key]);
            let out = [r.push(&text[..cut]), r.push(&text[cut..]), r.finish()].concat();
            assert_eq!(out, format!("before {REMOVED} after é {REMOVED}"), "cut at {cut}");
        }
        let mut r = StreamRedactor::new([key]);
        let pieces: Vec<String> = text.chars().map(|c| r.push(&c.to_string())).collect();
        assert!(pieces.iter().all(|p| !p.contains("sk-split")), "{pieces:?}");
        assert_eq!([pieces.concat(), r.finish()].concat(), format!("before {REMOVED} after é {REMOVED}"));
        let mut none = StreamRedactor::new([]);
        assert_eq!(none.push("as it comes"), "as it comes", "nothing held without keys");
    }

    #[test]
    fn credentials_are_removed_from_reply_headers() {
        let headers = vec![
            ("Set-Cookie".to_string(), "session=abc123; HttpOnly".to_string()),
            ("X-Api-Key".to_string(), "anything".to_string()),
            ("X-Echo".to_string(), "got sk-secret-1234 from you".to_string()),
            ("Retry-After".to_string(), "2".to_string()),
        ];
        let kept = redact_headers(headers, ["sk-secret-1234"]);
        assert_eq!(kept[0].1, REMOVED);
        assert_eq!(kept[1].1, REMOVED);
        assert_eq!(kept[2].1, format!("got {REMOVED} from you"));
        assert_eq!(kept[3], ("Retry-After".to_string(), "2".to_string()));
    }

    #[test]
    fn keys_are_removed_from_decoded_replies() {
        let body = r#"{"echo":"\u0073k-secret-1234 and sk-secret-1234"}"#;
        let out = redact(body, ["sk-secret-1234"]);
        assert!(!out.contains("sk-secret-1234"), "{out}");
        assert!(!out.contains("\\u0073k-secret"), "{out}");
        assert_eq!(redact("plain sk-secret-1234", ["sk-secret-1234"]), "plain [api key removed]");
        assert_eq!(redact("short", ["abc"]), "short");
    }
}
