//! What a compiled expression says about state keys, found by walking its Rhai AST: the
//! fields it reads of `state`, and the keys a script builds maps with. The validator uses both
//! to warn about reads of fields a graph does not declare (`plan::reads`).
//!
//! A read is a named property or a string index right on the `state` variable:
//! `state.name`, `state?.name`, `state["name"]`, and the first step of a longer chain
//! (`state.a.b[0]` reads `a`). A method call (`state.keys()`) or a computed index
//! (`state[key]`) reads no field by name. Closures are walked too (they see `state`); a
//! script that names its own variable or function parameter `state` is taken at its word.

use std::collections::BTreeSet;

use rhai::{ASTFlags, ASTNode, Expr as Ast, Stmt};

use super::{Expr, Part, Template};

/// The first key of a chain: `a` of `a.b[0]` (the right side of a `.` or of a chained `[`).
fn chain_head(e: &Ast) -> Option<&str> {
    match e {
        Ast::Property(p, _) => Some(p.2.as_str()),
        Ast::StringConstant(s, _) => Some(s.as_str()),
        Ast::Dot(x, ..) | Ast::Index(x, ..) => chain_head(&x.lhs),
        _ => None,
    }
}

/// The key a `.` or `[ ]` right on `base` names, when `base` is the variable `var` (or, with
/// `var` absent, any variable but `state`).
fn key_on<'a>(e: &'a Ast, var: Option<&str>) -> Option<&'a str> {
    let (x, index, flags) = match e {
        Ast::Dot(x, flags, _) => (x, false, *flags),
        Ast::Index(x, flags, _) => (x, true, *flags),
        _ => return None,
    };
    let Ast::Variable(v, ..) = &x.lhs else { return None };
    let name = v.1.as_str();
    let wanted = match var {
        Some(var) => name == var,
        None => name != "state",
    };
    if !wanted {
        return None;
    }
    match &x.rhs {
        // `state[k]` alone: the index is the whole right side, a name only when a string.
        Ast::StringConstant(s, _) if index && flags.contains(ASTFlags::BREAK) => Some(s.as_str()),
        _ if index && flags.contains(ASTFlags::BREAK) => None,
        Ast::Property(p, _) => Some(p.2.as_str()),
        // A longer chain: its first link (a method call names no key).
        Ast::Dot(y, ..) | Ast::Index(y, ..) => chain_head(&y.lhs),
        _ => None,
    }
}

/// Adds `name` to `out` unless it is there already (first-met order).
fn add(out: &mut Vec<String>, seen: &mut BTreeSet<String>, name: &str) {
    if seen.insert(name.to_string()) {
        out.push(name.to_string());
    }
}

impl Expr {
    /// The state fields the expression reads by name, each once, in the order first met
    /// (the bodies of closures last).
    pub fn state_reads(&self) -> Vec<String> {
        let (mut out, mut seen) = (Vec::new(), BTreeSet::new());
        self.ast.walk(&mut |path: &[ASTNode]| {
            if let Some(ASTNode::Expr(e)) = path.last()
                && let Some(name) = key_on(e, Some("state"))
            {
                add(&mut out, &mut seen, name);
            }
            true
        });
        out
    }

    /// The keys a script may return in its map of updates, as far as its text shows them: the
    /// keys of every map it writes out (`#{ summary: … }`) and every property it sets on a
    /// variable (`m.summary = …`, `m["summary"] = …`). Each once, in the order first met.
    pub fn built_keys(&self) -> Vec<String> {
        let (mut out, mut seen) = (Vec::new(), BTreeSet::new());
        self.ast.walk(&mut |path: &[ASTNode]| {
            match path.last() {
                Some(ASTNode::Expr(Ast::Map(m, _))) => {
                    for (ident, _) in &m.0 {
                        add(&mut out, &mut seen, ident.name.as_str());
                    }
                }
                // The optimizer folds a map of constants into one value.
                Some(ASTNode::Expr(Ast::DynamicConstant(d, _))) => {
                    if let Ok(map) = d.as_map_ref() {
                        for key in map.keys() {
                            add(&mut out, &mut seen, key.as_str());
                        }
                    }
                }
                Some(ASTNode::Stmt(Stmt::Assignment(a))) => {
                    if let Some(name) = key_on(&a.1.lhs, None) {
                        add(&mut out, &mut seen, name);
                    }
                }
                _ => {}
            }
            true
        });
        out
    }
}

impl Template {
    /// The state fields the template's holes read by name, each once, in the order first met.
    pub fn state_reads(&self) -> Vec<String> {
        let (mut out, mut seen) = (Vec::new(), BTreeSet::new());
        for part in &self.parts {
            if let Part::Hole(e) = part {
                for name in e.state_reads() {
                    add(&mut out, &mut seen, &name);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::document::Graph;
    use crate::script::Scripting;

    fn reads(src: &str) -> Vec<String> {
        let s = Scripting::new(&Graph::new("t").effective_limits());
        s.compile(src, &["item"]).expect("compiles").state_reads()
    }

    fn built(src: &str) -> Vec<String> {
        let s = Scripting::new(&Graph::new("t").effective_limits());
        s.compile(src, &[]).expect("compiles").built_keys()
    }

    #[test]
    fn finds_each_named_field_read_on_state() {
        assert_eq!(reads("state.a + state.b.c + state.a"), ["a", "b"]);
        assert_eq!(reads(r#"state["x"] + state["y"].z + state["w"][0] + state?.q"#), ["x", "y", "w", "q"]);
        assert_eq!(reads("state.list[0] + state.text.len()"), ["list", "text"]);
        assert_eq!(reads("let f = || state.in_closure; `${state.w}` + f.call()"), ["w", "in_closure"]);
        assert_eq!(reads("#{ k: state.m }"), ["m"]);
        assert_eq!(reads("let s = 1; if s > 0 { state.deep } else { 0 }"), ["deep"]);
    }

    #[test]
    fn method_calls_computed_indices_and_other_variables_read_no_field() {
        assert!(reads("state.keys()").is_empty());
        assert!(reads("state.len() + state.keys().len()").is_empty());
        assert!(reads("let k = \"a\"; state[k]").is_empty());
        assert!(reads("input.a + outputs.n[-1].b + item.c").is_empty());
        // Text that looks like a read inside a string or a comment is not one.
        assert!(reads("\"state.a\" // state.b\n/* state.c */").is_empty());
    }

    #[test]
    fn templates_read_what_their_holes_read() {
        let s = Scripting::new(&Graph::new("t").effective_limits());
        let t = s.compile_template("{{ state.a }} and {{ state.b ?? state.a }} state.c", &[]).expect("compiles");
        assert_eq!(t.state_reads(), ["a", "b"]);
    }

    #[test]
    fn finds_the_keys_a_script_builds() {
        assert_eq!(built(r#"#{ a: 1, b: "x" }"#), ["a", "b"]);
        assert_eq!(built("if state.n > 1 { #{ big: state.n } } else { #{ small: true } }"), ["big", "small"]);
        assert_eq!(built(r#"let m = #{}; m.c = 1; m["d"] = 2; m"#), ["c", "d"]);
        assert!(built("state.n + 1").is_empty());
    }
}
