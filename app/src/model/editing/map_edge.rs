//! Map edges (format.md §5, map edges): the name an item takes in the target's scope (`as`), checked before
//! it is written, and the names a mapped node's expressions may use.

use engine::Graph;

/// Why a name cannot be a map edge's `as`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemNameError {
    /// Not a Rhai variable name (letters, digits and `_`, not starting with a digit).
    NotIdentifier(String),
    /// A word the expression language keeps for itself.
    Keyword(String),
    /// It would hide a name every expression uses.
    Shadows(String),
}

impl std::fmt::Display for ItemNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ItemNameError::NotIdentifier(n) => {
                write!(f, "`{n}` is not a name: use letters, digits and `_`, not starting with a digit")
            }
            ItemNameError::Keyword(n) => write!(f, "`{n}` is a keyword of the expression language"),
            ItemNameError::Shadows(n) => write!(f, "`{n}` would hide the `{n}` every expression sees"),
        }
    }
}

impl std::error::Error for ItemNameError {}

/// Names in every expression's scope that an item must not hide.
const SHADOWED: [&str; 6] = ["state", "input", "outputs", "errors", "step", "index"];

/// Rhai's keywords and reserved words that cannot name a variable.
const KEYWORDS: [&str; 30] = [
    "let", "const", "if", "else", "switch", "do", "while", "loop", "until", "for", "in", "continue", "break", "return",
    "throw", "try", "catch", "import", "export", "as", "private", "fn", "true", "false", "this", "global", "var",
    "static", "new", "use",
];

/// Checks `name` (already trimmed) as a map edge's `as`.
pub fn check_item_name(name: &str) -> Result<(), ItemNameError> {
    let mut chars = name.chars();
    let starts_well = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') || name.len() > 64 {
        return Err(ItemNameError::NotIdentifier(name.to_string()));
    }
    if KEYWORDS.contains(&name) {
        return Err(ItemNameError::Keyword(name.to_string()));
    }
    if SHADOWED.contains(&name) {
        return Err(ItemNameError::Shadows(name.to_string()));
    }
    Ok(())
}

/// The names map edges into node `id` put in its scope: each edge's item (`as`, else `item`)
/// and `index`, once each; nothing when no map edge leads there.
pub fn item_names(graph: &Graph, id: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in graph.edges.iter().filter(|e| e.to == id && e.map.is_some()) {
        let name = e.as_name.clone().unwrap_or_else(|| "item".into());
        if !out.contains(&name) {
            out.push(name);
        }
    }
    if !out.is_empty() {
        out.push("index".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Edge;

    #[test]
    fn a_mapped_node_sees_each_item_name_and_index() {
        let mut g = Graph::new("t");
        assert!(item_names(&g, "end").is_empty(), "a plain edge adds nothing");
        let mut a = Edge::new("start", "end");
        a.map = Some("state.xs".into());
        let mut b = Edge::new("start", "end");
        b.map = Some("state.ys".into());
        b.as_name = Some("section".into());
        let mut c = Edge::new("start", "end");
        c.map = Some("state.zs".into());
        g.edges.extend([a, b, c]);
        assert_eq!(item_names(&g, "end"), ["item", "section", "index"]);
        assert!(item_names(&g, "start").is_empty());
    }

    #[test]
    fn plain_names_are_taken_and_the_rest_refused_with_the_reason() {
        for ok in ["item", "section", "_x", "doc2"] {
            assert_eq!(check_item_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "2nd", "my item", "a-b", "é"] {
            assert_eq!(check_item_name(bad), Err(ItemNameError::NotIdentifier(bad.into())), "{bad}");
        }
        assert_eq!(check_item_name("state"), Err(ItemNameError::Shadows("state".into())));
        assert_eq!(check_item_name("input"), Err(ItemNameError::Shadows("input".into())));
        assert_eq!(check_item_name("fn"), Err(ItemNameError::Keyword("fn".into())));
        assert_eq!(
            ItemNameError::Shadows("state".into()).to_string(),
            "`state` would hide the `state` every expression sees"
        );
    }
}
