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
    fn keys_are_removed_from_decoded_replies() {
        let body = r#"{"echo":"\u0073k-secret-1234 and sk-secret-1234"}"#;
        let out = redact(body, ["sk-secret-1234"]);
        assert!(!out.contains("sk-secret-1234"), "{out}");
        assert!(!out.contains("\\u0073k-secret"), "{out}");
        assert_eq!(redact("plain sk-secret-1234", ["sk-secret-1234"]), "plain [api key removed]");
        assert_eq!(redact("short", ["abc"]), "short");
    }
}
