//! A tool result as the tool message's text (format.md §2.11): `structuredContent` as compact
//! JSON when present, otherwise the text items joined with newlines, other items as a short
//! placeholder naming their type and size.

use super::types::{CallToolResult, ContentBlock};

/// The text a model reads for `result`.
pub fn result_text(result: &CallToolResult) -> String {
    if let Some(structured) = &result.structured_content {
        return structured.to_string();
    }
    result.content.iter().map(block_text).collect::<Vec<_>>().join("\n")
}

/// One content item as text.
fn block_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text { text } => text.clone(),
        ContentBlock::Image { data, mime_type } => placeholder("image", mime_type.as_deref(), decoded_len(data)),
        ContentBlock::Audio { data, mime_type } => placeholder("audio", mime_type.as_deref(), decoded_len(data)),
        ContentBlock::ResourceLink { uri, mime_type } => match mime_type {
            Some(m) => format!("[resource_link {uri} ({m})]"),
            None => format!("[resource_link {uri}]"),
        },
        ContentBlock::Resource { resource } => {
            let bytes = match (&resource.text, &resource.blob) {
                (Some(t), _) => t.len(),
                (None, Some(b)) => decoded_len(b),
                (None, None) => 0,
            };
            format!("[resource {}, {} bytes]", resource.uri, group(bytes))
        }
        ContentBlock::Other => "[content of a kind Switchyard does not read]".into(),
    }
}

fn placeholder(kind: &str, mime: Option<&str>, bytes: usize) -> String {
    match mime {
        Some(m) => format!("[{kind} {m}, {} bytes]", group(bytes)),
        None => format!("[{kind}, {} bytes]", group(bytes)),
    }
}

/// The length of base64 `data` once decoded: three bytes per four characters, less padding.
fn decoded_len(data: &str) -> usize {
    let chars = data.bytes().filter(|b| !b.is_ascii_whitespace()).count();
    let padding = data.trim_end().bytes().rev().take_while(|&b| b == b'=').count().min(2);
    (chars * 3 / 4).saturating_sub(padding)
}

/// `1234` as `1,234`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn result(v: Value) -> CallToolResult {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn structured_content_wins_over_text() {
        // Captured from server-everything's get-structured-content.
        let r = result(json!({"content":[{"type":"text","text":"{\"temperature\":36}"}],
            "structuredContent":{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}}));
        let text: Value = serde_json::from_str(&result_text(&r)).unwrap();
        assert_eq!(text, json!({"temperature":36,"conditions":"Light rain / drizzle","humidity":82}));
    }

    #[test]
    fn other_items_become_placeholders() {
        let r = result(json!({"content":[{"type":"text","text":"Here:"},
            {"type":"image","data":"aGVsbG8=","mimeType":"image/png"},
            {"type":"audio","data":"aGk=","mimeType":"audio/wav"},
            {"type":"resource_link","uri":"file:///x.rs","name":"x","mimeType":"text/x-rust"},
            {"type":"resource","resource":{"uri":"file:///y","text":"abc"}},
            {"type":"hologram"}]}));
        assert_eq!(
            result_text(&r),
            "Here:\n[image image/png, 5 bytes]\n[audio audio/wav, 2 bytes]\n[resource_link file:///x.rs (text/x-rust)]\n[resource file:///y, 3 bytes]\n[content of a kind Switchyard does not read]"
        );
    }

    #[test]
    fn sizes_are_decoded_and_grouped() {
        assert_eq!(decoded_len("aGVsbG8gd29ybGQ="), 11);
        assert_eq!(decoded_len("aGVsbG8gd29ybGQh"), 12);
        assert_eq!(decoded_len("aGVsbG8gd29ybA=="), 10);
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(group(12), "12");
    }
}
