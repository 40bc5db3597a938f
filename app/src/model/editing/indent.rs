//! Tab and Shift+Tab in a script field, as code editors do: with the caret in a line, Tab
//! puts spaces up to the next indent stop; with lines selected, Tab indents each of them and
//! Shift+Tab takes one indent off each. Positions are the field's, in UTF-16 code units (what
//! a text area's `selectionStart` counts).

/// Spaces per indent.
pub const INDENT: usize = 4;

/// The text after the key, and the selection to show (start, end), in UTF-16 units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indented {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Tab (`outdent` false) or Shift+Tab (`outdent` true) in `text` with `start..end` selected.
pub fn indent(text: &str, start: usize, end: usize, outdent: bool) -> Indented {
    let (start, end) = (byte_at(text, start.min(end)), byte_at(text, start.max(end)));
    let first_line = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let spans_lines = text[start..end].contains('\n');
    if !outdent && !spans_lines {
        // Up to the next stop, counted from the line's start.
        let column = text[first_line..start].chars().count();
        let pad = " ".repeat(INDENT - column % INDENT);
        let out = format!("{}{pad}{}", &text[..start], &text[end..]);
        let caret = units(&out[..start + pad.len()]);
        return Indented { text: out, start: caret, end: caret };
    }
    // Whole lines: from the first selected line to the line the selection ends in (a
    // selection ending at a line's very start leaves that line alone).
    let last_end = if end > start && text[..end].ends_with('\n') { end - 1 } else { end };
    let block_end = text[last_end..].find('\n').map_or(text.len(), |i| last_end + i);
    let mut block = String::new();
    // Each line's start (before) and how many bytes it gained or lost.
    let mut changes: Vec<(usize, isize)> = Vec::new();
    let mut at = first_line;
    for (k, line) in text[first_line..block_end].split('\n').enumerate() {
        if k > 0 {
            block.push('\n');
        }
        let delta = if outdent {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            let removed = spaces.min(INDENT);
            block.push_str(&line[removed..]);
            -(removed as isize)
        } else {
            block.push_str(&" ".repeat(INDENT));
            block.push_str(line);
            INDENT as isize
        };
        changes.push((at, delta));
        at += line.len() + 1;
    }
    // A position moves by what the lines before it gained or lost, and by its own line's
    // change (never back past that line's start).
    let moved = |pos: usize| -> usize {
        let mut out = pos as isize;
        for &(line_start, delta) in &changes {
            if line_start > pos {
                break;
            }
            out += delta.max(line_start as isize - pos as isize);
        }
        out.max(0) as usize
    };
    let (new_start, new_end) = (moved(start), moved(end));
    let out = format!("{}{block}{}", &text[..first_line], &text[block_end..]);
    let new_start = new_start.clamp(first_line, out.len());
    let new_end = new_end.clamp(new_start, out.len());
    Indented { start: units(&out[..new_start]), end: units(&out[..new_end]), text: out }
}

/// The byte offset of UTF-16 position `pos` in `text` (its end when past it).
fn byte_at(text: &str, pos: usize) -> usize {
    let mut count = 0;
    for (i, c) in text.char_indices() {
        if count >= pos {
            return i;
        }
        count += c.len_utf16();
    }
    text.len()
}

/// How many UTF-16 units `text` is.
fn units(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with `[` and `]` marking the selection, after the key, marked the same way.
    fn key(marked: &str, outdent: bool) -> String {
        let start = units(&marked[..marked.find('[').unwrap()]);
        let plain = marked.replace(['[', ']'], "");
        let end = units(&marked.replace('[', "")[..marked.replace('[', "").find(']').unwrap()]);
        let r = indent(&plain, start, end, outdent);
        let (s, e) = (byte_at(&r.text, r.start), byte_at(&r.text, r.end));
        format!("{}[{}]{}", &r.text[..s], &r.text[s..e], &r.text[e..])
    }

    #[test]
    fn tab_at_the_caret_goes_to_the_next_stop() {
        assert_eq!(key("[]let x = 1;", false), "    []let x = 1;");
        assert_eq!(key("if x {\n  []y\n}", false), "if x {\n    []y\n}");
        assert_eq!(key("ab[]c", false), "ab  []c");
        // A selection within one line is replaced by the indent, as in a text editor.
        assert_eq!(key("a[bc]d", false), "a   []d");
    }

    #[test]
    fn tab_and_shift_tab_indent_and_outdent_selected_lines() {
        assert_eq!(key("[a\nb]\nc", false), "    [a\n    b]\nc");
        assert_eq!(key("    [a\n    b]\nc", true), "[a\nb]\nc");
        assert_eq!(key("x\n  [y\nz]", true), "x\n[y\nz]");
        // Shift+Tab with the caret in a line outdents that line.
        assert_eq!(key("    let []x", true), "let []x");
        assert_eq!(key("[]nothing", true), "[]nothing");
    }

    #[test]
    fn a_selection_ending_at_a_line_start_leaves_that_line() {
        assert_eq!(key("[a\n]b", false), "    [a\n]b");
    }

    #[test]
    fn positions_count_utf16_units_like_the_browser() {
        // "é" is one unit, "🙂" two.
        assert_eq!(key("é🙂[]x", false), "é🙂  []x", "columns are characters");
        let r = indent("🙂\n🙂", 0, 5, false);
        assert_eq!(r.text, "    🙂\n    🙂");
        assert_eq!((r.start, r.end), (4, 13));
    }
}
