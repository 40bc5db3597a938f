//! Tauri v2 channels, as both ends see them: the page registers a callback and passes its id
//! to a command as `__CHANNEL__:<id>` ([`ChannelId`]); the app sends messages through it,
//! which reach the callback as `{"index": n, "message": …}` and, once the app drops the
//! channel, `{"index": n, "end": true}` ([`ChannelMessage`]). A large message travels by
//! another road than a small one, so messages can arrive out of order; [`Reorder`] puts them
//! back in the order they were sent.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// How a channel id is written in a command's arguments.
const PREFIX: &str = "__CHANNEL__:";

/// A channel the page opened: the id of the callback its messages reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChannelId(pub u32);

impl fmt::Display for ChannelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}", self.0)
    }
}

impl Serialize for ChannelId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ChannelId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.strip_prefix(PREFIX)
            .and_then(|id| id.parse().ok())
            .map(ChannelId)
            .ok_or_else(|| de::Error::custom(format!("`{text}` is not a channel id ({PREFIX}<number>)")))
    }
}

/// One message of a channel, as its callback receives it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ChannelMessage<T> {
    /// The channel is closed after `index` messages.
    End { index: u64, end: bool },
    /// The `index`-th message sent (from 0).
    Message { index: u64, message: T },
}

/// Messages of one channel, handed on in the order they were sent.
#[derive(Debug)]
pub struct Reorder<T> {
    next: u64,
    early: BTreeMap<u64, T>,
    end: Option<u64>,
}

impl<T> Default for Reorder<T> {
    fn default() -> Self {
        Reorder { next: 0, early: BTreeMap::new(), end: None }
    }
}

impl<T> Reorder<T> {
    /// Takes one message; returns the messages now due, in order (none if this one came
    /// early, several if it filled a gap). A repeated index is ignored.
    pub fn push(&mut self, message: ChannelMessage<T>) -> Vec<T> {
        match message {
            ChannelMessage::End { index, .. } => self.end = Some(index),
            ChannelMessage::Message { index, message } if index >= self.next => {
                self.early.entry(index).or_insert(message);
            }
            ChannelMessage::Message { .. } => {}
        }
        let mut due = Vec::new();
        while let Some(m) = self.early.remove(&self.next) {
            due.push(m);
            self.next += 1;
        }
        due
    }

    /// Whether the channel is closed and every message sent has been handed on.
    pub fn finished(&self) -> bool {
        self.end.is_some_and(|end| self.next >= end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(index: u64, text: &str) -> ChannelMessage<String> {
        ChannelMessage::Message { index, message: text.to_string() }
    }

    #[test]
    fn a_channel_id_is_written_as_tauri_reads_it() {
        assert_eq!(serde_json::to_string(&ChannelId(3_000_000_001)).unwrap(), r#""__CHANNEL__:3000000001""#);
        assert_eq!(serde_json::from_str::<ChannelId>(r#""__CHANNEL__:42""#).unwrap(), ChannelId(42));
        let bad = serde_json::from_str::<ChannelId>(r#""42""#).unwrap_err().to_string();
        assert!(bad.contains("is not a channel id"), "{bad}");
    }

    #[test]
    fn messages_are_read_in_both_shapes() {
        let m: ChannelMessage<String> = serde_json::from_str(r#"{"message": "data: x", "index": 4}"#).unwrap();
        assert_eq!(m, msg(4, "data: x"));
        let e: ChannelMessage<String> = serde_json::from_str(r#"{"end": true, "index": 5}"#).unwrap();
        assert_eq!(e, ChannelMessage::End { index: 5, end: true });
    }

    #[test]
    fn messages_come_out_in_the_order_sent() {
        let mut r = Reorder::default();
        assert_eq!(r.push(msg(0, "a")), ["a"]);
        assert!(r.push(msg(2, "c")).is_empty(), "2 waits for 1");
        assert!(r.push(ChannelMessage::End { index: 4, end: true }).is_empty());
        assert!(!r.finished());
        assert_eq!(r.push(msg(1, "b")), ["b", "c"]);
        assert!(r.push(msg(1, "b again")).is_empty(), "a repeat is dropped");
        assert!(!r.finished(), "message 3 is still to come");
        assert_eq!(r.push(msg(3, "d")), ["d"]);
        assert!(r.finished());
        let mut empty: Reorder<String> = Reorder::default();
        empty.push(ChannelMessage::End { index: 0, end: true });
        assert!(empty.finished(), "a channel closed before sending anything");
    }
}
