//! Where a check is: a chain of borrowed segments on the stack, turned into a JSON path
//! (`$.items[1]["odd key"]`) only when a mismatch is reported.

use serde_json::Value;

use super::Mismatch;

/// How much of a value a message quotes.
const QUOTE_CHARS: usize = 80;

/// A place in a JSON value, from the root down.
pub(super) enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl<'a> At<'a> {
    pub(super) fn key(&'a self, k: &'a str) -> At<'a> {
        At::Key(self, k)
    }

    pub(super) fn index(&'a self, i: usize) -> At<'a> {
        At::Index(self, i)
    }

    /// A mismatch at this place.
    pub(super) fn mismatch(&self, message: String) -> Mismatch {
        let mut path = String::from("$");
        self.write(&mut path);
        Mismatch { path, message }
    }

    fn write(&self, out: &mut String) {
        match self {
            At::Root => {}
            At::Key(parent, k) => {
                parent.write(out);
                if is_plain_name(k) {
                    out.push('.');
                    out.push_str(k);
                } else {
                    out.push('[');
                    out.push_str(&Value::String((*k).to_string()).to_string());
                    out.push(']');
                }
            }
            At::Index(parent, i) => {
                parent.write(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

/// A key written after a dot: letters, digits and `_`, not starting with a digit.
fn is_plain_name(k: &str) -> bool {
    !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A value as compact JSON, cut short for a message.
pub(super) fn quote(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
