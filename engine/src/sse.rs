//! Server-sent events, read incrementally: a streamed model reply arrives in pieces that
//! may split a line (or a `\r\n`) anywhere, and each complete event is handed on as soon as
//! its closing blank line arrives. Pure, so both providers' formats are tested natively.
//! Model replies read it in the engine; MCP's Streamable HTTP (format.md §2.11) reads it in
//! the hosts, which keep each event's `id` to resume a broken stream.

/// One event: its `event:` name, if any, and its `data:` lines joined by `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
    /// The event's `id:`, when it has one.
    pub id: Option<String>,
}

/// Reads events from pieces of a stream.
#[derive(Debug, Default)]
pub struct SseParser {
    /// The line read so far.
    line: String,
    /// The last piece ended with `\r`: a `\n` starting the next one belongs to it.
    after_cr: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    id: Option<String>,
}

impl SseParser {
    pub fn new() -> SseParser {
        SseParser::default()
    }

    /// The events completed by `chunk`.
    pub fn push(&mut self, chunk: &str) -> Vec<SseEvent> {
        let mut out = Vec::new();
        for c in chunk.chars() {
            match c {
                '\n' if self.after_cr => self.after_cr = false,
                '\n' | '\r' => {
                    self.after_cr = c == '\r';
                    let line = std::mem::take(&mut self.line);
                    self.line_done(&line, &mut out);
                }
                c => {
                    self.after_cr = false;
                    self.line.push(c);
                }
            }
        }
        out
    }

    /// The events left when the stream ends (a last event without its blank line).
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut out);
        }
        self.line_done("", &mut out);
        out
    }

    fn line_done(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if self.has_data {
                let data = std::mem::take(&mut self.data);
                out.push(SseEvent { event: self.event.take(), data, id: self.id.take() });
            }
            self.event = None;
            self.id = None;
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            "id" => self.id = Some(value.to_string()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(pieces: &[&str]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut out: Vec<SseEvent> = pieces.iter().flat_map(|c| p.push(c)).collect();
        out.extend(p.finish());
        out
    }

    fn ev(event: Option<&str>, data: &str) -> SseEvent {
        SseEvent { event: event.map(str::to_string), data: data.to_string(), id: None }
    }

    #[test]
    fn events_split_anywhere_read_the_same() {
        let text = "event: message_start\r\ndata: {\"a\":1}\r\n\r\n: keep-alive\r\n\r\ndata: one\r\ndata:two\r\n\r\ndata: [DONE]\r\n\r\n";
        let want = vec![ev(Some("message_start"), "{\"a\":1}"), ev(None, "one\ntwo"), ev(None, "[DONE]")];
        assert_eq!(all(&[text]), want);
        for cut in 1..text.len() {
            assert_eq!(all(&[&text[..cut], &text[cut..]]), want, "split at {cut}");
        }
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let pieces: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(all(&pieces), want);
    }

    #[test]
    fn an_event_keeps_its_id() {
        let got = all(&["id: 7\ndata: {}\n\ndata: x\n\n"]);
        assert_eq!(got[0].id.as_deref(), Some("7"));
        assert_eq!(got[1].id, None);
    }

    #[test]
    fn a_last_event_without_a_blank_line_still_counts() {
        assert_eq!(all(&["data: x"]), vec![ev(None, "x")]);
        assert_eq!(all(&["event: ping\n\n"]), Vec::<SseEvent>::new());
    }
}
