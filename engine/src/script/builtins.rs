//! Built-in functions: `has_tool_calls` for agent loops (format.md §4 (llm, tools) and §8), and functions that build
//! strings or lists, replaced by versions that check the sandbox's size limits *before*
//! allocating. Rhai checks sizes after a function returns,
//! which is too late when one call can ask for gigabytes (`s.replace("x", big)` on a long
//! string, `s.to_chars()` on a 60 MB one). The replacements behave as Rhai's own, except
//! that they refuse, with a named error, a result over the limits.

use rhai::{Array, Dynamic, Engine, INT, ImmutableString};

type Fallible<T> = Result<T, Box<rhai::EvalAltResult>>;

/// The sandbox's limits, copied into the functions that check them.
#[derive(Clone, Copy)]
pub(super) struct Sizes {
    /// The largest string, in bytes.
    pub max_string: usize,
    /// The most items in one list.
    pub max_array: usize,
}

impl Sizes {
    fn string(self, what: &str, bytes: Option<usize>) -> Fallible<()> {
        match bytes {
            Some(b) if b <= self.max_string => Ok(()),
            _ => Err(format!(
                "{what}: the result would be longer than the string limit ({} bytes, from max_state_bytes)",
                self.max_string
            )
            .into()),
        }
    }

    fn array(self, what: &str, items: usize) -> Fallible<()> {
        if items <= self.max_array {
            Ok(())
        } else {
            Err(format!("{what}: the result would have more than {} items", self.max_array).into())
        }
    }
}

/// Registers the built-ins on `engine`.
pub(super) fn register(engine: &mut Engine, sizes: Sizes) {
    // `has_tool_calls(state.messages)`: whether the last message is an assistant message
    // with tool calls. A missing field (`()`) has none.
    engine.register_fn("has_tool_calls", |list: Array| has_tool_calls(&list));
    engine.register_fn("has_tool_calls", |_: ()| false);
    // Rhai's `pad` with an empty padding string never returns; this one refuses that case,
    // and a result over the string limit, before building anything.
    engine.register_fn("pad", move |s: &mut ImmutableString, len: INT, padding: &str| -> Fallible<()> {
        if padding.is_empty() {
            return Err("pad: the padding text must not be empty".into());
        }
        if len <= 0 {
            return Ok(());
        }
        // A length past usize (on a 32-bit target) is past any limit too.
        let Ok(target) = usize::try_from(len) else { return sizes.string("pad", None) };
        let count = s.chars().count();
        if count >= target {
            return Ok(());
        }
        let missing = target - count;
        let per_round = padding.chars().count();
        let tail: usize = padding.chars().take(missing % per_round).map(char::len_utf8).sum();
        let bytes = (missing / per_round).checked_mul(padding.len()).and_then(|b| b.checked_add(tail));
        sizes.string("pad", bytes.and_then(|b| b.checked_add(s.len())))?;
        let mut out = String::with_capacity(s.len() + bytes.unwrap_or(0));
        out.push_str(s);
        out.extend(padding.chars().cycle().take(missing));
        *s = out.into();
        Ok(())
    });
    engine.register_fn("replace", move |s: &mut ImmutableString, find: &str, with: &str| -> Fallible<()> {
        replace_checked(sizes, s, find, with)
    });
    engine.register_fn("replace", move |s: &mut ImmutableString, find: char, with: &str| -> Fallible<()> {
        replace_checked(sizes, s, find.encode_utf8(&mut [0; 4]), with)
    });
    engine.register_fn("replace", move |s: &mut ImmutableString, find: &str, with: char| -> Fallible<()> {
        replace_checked(sizes, s, find, with.encode_utf8(&mut [0; 4]))
    });
    engine.register_fn("to_chars", move |s: &str| -> Fallible<Array> {
        sizes.array("to_chars", s.chars().count())?;
        Ok(s.chars().map(Dynamic::from).collect())
    });
    engine.register_fn("split", move |s: &mut ImmutableString, delimiter: &str| -> Fallible<Array> {
        let parts = if delimiter.is_empty() { s.chars().count() + 2 } else { s.matches(delimiter).count() + 1 };
        sizes.array("split", parts)?;
        Ok(s.split(delimiter).map(|p| Dynamic::from(ImmutableString::from(p))).collect())
    });
    engine.register_fn("split", move |s: &mut ImmutableString, delimiter: char| -> Fallible<Array> {
        sizes.array("split", s.matches(delimiter).count() + 1)?;
        Ok(s.split(delimiter).map(|p| Dynamic::from(ImmutableString::from(p))).collect())
    });
    engine.register_fn("split_whitespace", move |s: &mut ImmutableString| -> Fallible<Array> {
        sizes.array("split_whitespace", s.split_whitespace().count())?;
        Ok(s.split_whitespace().map(|p| Dynamic::from(ImmutableString::from(p))).collect())
    });
}

/// Whether the last item of `list` is an assistant message with at least one tool call.
fn has_tool_calls(list: &Array) -> bool {
    let Some(last) = list.last().and_then(|d| d.read_lock::<rhai::Map>()) else { return false };
    let role = last.get("role").and_then(|r| r.read_lock::<ImmutableString>().map(|s| s.to_string()));
    let calls = last.get("tool_calls").and_then(|c| c.read_lock::<Array>().map(|a| a.len()));
    role.as_deref() == Some("assistant") && calls.unwrap_or(0) > 0
}

/// `s` with every `find` replaced by `with`, refused before it is built if it would be too
/// long.
fn replace_checked(sizes: Sizes, s: &mut ImmutableString, find: &str, with: &str) -> Fallible<()> {
    if find.is_empty() {
        // As Rhai: an empty pattern matches between every character.
        let slots = s.chars().count() + 1;
        sizes.string("replace", slots.checked_mul(with.len()).and_then(|b| b.checked_add(s.len())))?;
    } else if with.len() > find.len() {
        let grows = s.matches(find).count().checked_mul(with.len() - find.len());
        sizes.string("replace", grows.and_then(|g| g.checked_add(s.len())))?;
    }
    *s = s.replace(find, with).into();
    Ok(())
}
