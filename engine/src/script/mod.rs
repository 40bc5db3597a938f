//! Expressions, scripts and `{{ }}` templates, in sandboxed Rhai (format.md §7).
//!
//! The sandbox: no I/O (`print`/`debug` go nowhere, no modules, no `eval`), a budget of
//! `max_ops` operations per evaluation, a deadline on the host's clock (`clock`), and bounded
//! string, array and map sizes, checked by built-ins that allocate before they do
//! (`builtins`). Comparing or writing out a list or map stops at [`MAX_DEPTH`] levels
//! (`nested`): Rhai's own versions recurse deeply enough to overflow the stack.
//!
//! Values cross to and from JSON in `json`: a number JSON cannot hold (infinite, NaN) is an
//! error of its own cause ([`EvalCause::NotFinite`]), never `null`, and a list or map put in a
//! string reads as JSON, as in a template.
//!
//! `state`, `input`, `outputs` and `errors` are handed to scripts as read-only *views*: a
//! field is converted to a Rhai value only when a script reads it. That keeps the cost of an
//! evaluation independent of how large the state has grown (a 10,000-item list costs nothing
//! until a script touches it).
//!
//! `reads` walks a compiled expression for the state fields it reads by name and the keys a
//! script builds maps with (for the validator's warning about undeclared fields).

mod builtins;
mod clock;
mod json;
mod nested;
mod reads;

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, INT, ImmutableString, Scope};
use serde_json::{Map, Value};

pub(crate) use self::clock::{Guard, Why};
pub use self::json::{MAX_DEPTH, NotJson, Step, from_dynamic, to_dynamic};
use crate::document::EffectiveLimits;

/// The most items in one list or map a script may build.
const MAX_ARRAY: usize = 100_000;

/// Names every expression can use.
pub const SCOPE_NAMES: [&str; 5] = ["state", "input", "outputs", "errors", "step"];

/// A compiled expression or script.
#[derive(Debug, Clone)]
pub struct Expr {
    pub source: String,
    // Shared: one source compiled once serves every node, edge and run that uses it.
    ast: Rc<rhai::AST>,
}

/// A compiled template: literal text with `{{ expression }}` holes.
#[derive(Debug, Clone)]
pub struct Template {
    pub source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone)]
enum Part {
    Text(String),
    Hole(Expr),
}

impl Template {
    /// The expression, when the template is exactly one `{{ }}` hole and nothing else.
    pub fn single_hole(&self) -> Option<&Expr> {
        match self.parts.as_slice() {
            [Part::Hole(e)] => Some(e),
            _ => None,
        }
    }
}

/// An expression that does not compile; `line`/`column` are Rhai's, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (line {}, position {})", self.message, self.line, self.column)
    }
}

impl std::error::Error for CompileError {}

/// An evaluation that failed: why, and a message (Rhai's, with its position, for a script
/// that failed).
#[derive(Debug, Clone, PartialEq)]
pub struct EvalError {
    pub cause: EvalCause,
    pub message: String,
}

/// Why an evaluation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalCause {
    /// The expression or script failed (an error, `throw`, a budget or size limit).
    Failed,
    /// Its time limit stopped it: a `timeout`, not a mistake in the expression.
    TimeLimit,
    /// It gave a value with a number JSON cannot hold (infinite or NaN): a wrong value, not a
    /// failed evaluation.
    NotFinite,
}

impl EvalError {
    fn failed(message: impl Into<String>) -> EvalError {
        EvalError { cause: EvalCause::Failed, message: message.into() }
    }
}

impl From<NotJson> for EvalError {
    fn from(e: NotJson) -> EvalError {
        let cause = if e.is_not_finite() { EvalCause::NotFinite } else { EvalCause::Failed };
        EvalError { cause, message: e.to_string() }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}

/// What an expression sees: one Rhai scope, built once per step and shared by every
/// evaluation in it (whatever a script declares is dropped again after it ends).
pub struct Ctx {
    scope: RefCell<Scope<'static>>,
}

impl Ctx {
    pub fn new(state: Dynamic, input: Dynamic, outputs: Dynamic, errors: Dynamic, step: INT) -> Ctx {
        let mut scope = Scope::with_capacity(8);
        scope.push_constant_dynamic("state", state);
        scope.push_constant_dynamic("input", input);
        scope.push_constant_dynamic("outputs", outputs);
        scope.push_constant_dynamic("errors", errors);
        scope.push_constant("step", step);
        Ctx { scope: RefCell::new(scope) }
    }

    /// Sets `step`.
    pub fn set_step(&self, step: INT) {
        if let Some(v) = self.scope.borrow_mut().get_value_mut::<INT>("step") {
            *v = step;
        }
    }

    /// A copy with one more name (`result` in a subgraph's `outputs`).
    pub fn with(&self, name: &'static str, value: Dynamic) -> Ctx {
        self.with_names([(name, value)])
    }

    /// Runs `f` with more names in scope (a map instance's item and `index`), then takes
    /// them out again. For evaluations that finish before anything else evaluates in this
    /// scope; one that may wait in between (an effect) needs a copy: [`Ctx::with_names`].
    pub fn scoped<'a, R>(&self, names: impl IntoIterator<Item = (&'a str, Dynamic)>, f: impl FnOnce(&Ctx) -> R) -> R {
        let base = {
            let mut scope = self.scope.borrow_mut();
            let base = scope.len();
            for (name, value) in names {
                scope.push_constant_dynamic(name, value);
            }
            base
        };
        let result = f(self);
        self.scope.borrow_mut().rewind(base);
        result
    }

    /// A copy with more names (a map instance's item and `index`).
    pub fn with_names<'a>(&self, names: impl IntoIterator<Item = (&'a str, Dynamic)>) -> Ctx {
        let mut scope = self.scope.borrow().clone();
        for (name, value) in names {
            scope.push_constant_dynamic(name, value);
        }
        Ctx { scope: RefCell::new(scope) }
    }
}

/// A read-only, lazily converted object given to scripts.
pub trait ViewSource {
    fn get(&self, key: &str) -> Option<Dynamic>;
    fn keys(&self) -> Vec<String>;
    fn to_json(&self) -> Value;
}

/// Scripts see this type for `state`, `input`, `outputs` and `errors`.
#[derive(Clone)]
pub struct View(pub Rc<dyn ViewSource>);

impl View {
    pub fn dynamic(source: Rc<dyn ViewSource>) -> Dynamic {
        Dynamic::from(View(source))
    }
}

/// A plain JSON object as a view (the run's input, a subgraph's result).
pub struct ObjectView(pub Rc<Map<String, Value>>);

impl ViewSource for ObjectView {
    fn get(&self, key: &str) -> Option<Dynamic> {
        self.0.get(key).map(to_dynamic)
    }
    fn keys(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
    fn to_json(&self) -> Value {
        Value::Object((*self.0).clone())
    }
}

/// A source and the extra names in scope it was compiled with.
type SourceKey = (Box<str>, Box<[Box<str>]>);

/// The Rhai engine configured as Switchyard's sandbox.
pub struct Scripting {
    engine: Engine,
    max_ops: u64,
    guard: Rc<Guard>,
    /// Every source compiled so far, with the extra names it was compiled with: graphs
    /// repeat the same few expressions (`state.n + 1` on a thousand nodes).
    compiled: RefCell<HashMap<SourceKey, Result<Expr, CompileError>>>,
}

impl fmt::Debug for Scripting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scripting").field("max_ops", &self.max_ops).finish()
    }
}

impl Scripting {
    pub fn new(limits: &EffectiveLimits) -> Scripting {
        let mut engine = Engine::new();
        let max_string = usize::try_from(limits.max_state_bytes).unwrap_or(usize::MAX).max(1024);
        let guard = Guard::new();
        let watch = guard.clone();
        engine.on_progress(move |ops| watch.expired(ops).then_some(Dynamic::UNIT));
        engine
            .set_max_operations(limits.max_ops)
            .set_max_string_size(max_string)
            .set_max_array_size(MAX_ARRAY)
            .set_max_map_size(100_000)
            .set_max_expr_depths(64, 32)
            .set_max_call_levels(32)
            .set_strict_variables(true);
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
        engine.disable_symbol("eval");

        engine.register_type_with_name::<View>("map");
        engine.register_indexer_get(|v: &mut View, key: ImmutableString| -> Dynamic {
            v.0.get(&key).unwrap_or(Dynamic::UNIT)
        });
        engine.register_fn("len", |v: &mut View| v.0.keys().len() as INT);
        engine.register_fn("is_empty", |v: &mut View| v.0.keys().is_empty());
        engine.register_fn("keys", |v: &mut View| -> Array { v.0.keys().into_iter().map(Dynamic::from).collect() });
        engine.register_fn("contains", |v: &mut View, key: ImmutableString| v.0.get(&key).is_some());
        engine.register_fn("to_string", |v: &mut View| v.0.to_json().to_string());
        engine.register_fn("to_debug", |v: &mut View| v.0.to_json().to_string());
        engine.register_fn("to_map", |v: &mut View| to_dynamic(&v.0.to_json()));

        // JSON helpers: model replies and HTTP bodies are often JSON text.
        engine.register_fn("to_json", |d: Dynamic| -> Result<ImmutableString, Box<rhai::EvalAltResult>> {
            let v = from_dynamic(&d).map_err(|e| e.to_string())?;
            Ok(v.to_string().into())
        });
        builtins::register(&mut engine, builtins::Sizes { max_string, max_array: MAX_ARRAY });
        json::register_text(&mut engine);
        nested::register(&mut engine);
        engine.register_fn("parse_json", |s: &str| -> Result<Dynamic, Box<rhai::EvalAltResult>> {
            let v: Value = serde_json::from_str(s).map_err(|e| format!("parse_json: {e}"))?;
            Ok(to_dynamic(&v))
        });
        Scripting { engine, max_ops: limits.max_ops, guard, compiled: RefCell::default() }
    }

    /// The deadline evaluations run under; the executor sets it before it evaluates.
    pub(crate) fn guard(&self) -> &Guard {
        &self.guard
    }

    /// Compiles an expression or script that sees the standard names plus `extra`.
    pub fn compile(&self, source: &str, extra: &[&str]) -> Result<Expr, CompileError> {
        let key: SourceKey = (source.into(), extra.iter().map(|n| Box::from(*n)).collect());
        if let Some(known) = self.compiled.borrow().get(&key) {
            return known.clone();
        }
        let result = self.compile_new(source, extra);
        self.compiled.borrow_mut().insert(key, result.clone());
        result
    }

    /// Compiles `source` with Rhai (what [`Scripting::compile`] does for a source it has not
    /// seen).
    fn compile_new(&self, source: &str, extra: &[&str]) -> Result<Expr, CompileError> {
        let mut scope = Scope::new();
        // Declared as plain variables, not constants: the optimizer would otherwise fold
        // these placeholder values into the compiled code.
        for name in SCOPE_NAMES.iter().chain(extra) {
            scope.push_dynamic(*name, Dynamic::UNIT);
        }
        if source.trim().is_empty() {
            return Err(CompileError { line: 1, column: 1, message: "the expression is empty".into() });
        }
        match self.engine.compile_with_scope(&scope, source) {
            Ok(ast) => Ok(Expr { source: source.to_string(), ast: Rc::new(ast) }),
            Err(e) => Err(CompileError {
                line: e.1.line().unwrap_or(1),
                column: e.1.position().unwrap_or(1),
                message: e.0.to_string(),
            }),
        }
    }

    /// Compiles a `{{ }}` template. Positions in errors are relative to the template.
    pub fn compile_template(&self, source: &str, extra: &[&str]) -> Result<Template, CompileError> {
        let mut parts = Vec::new();
        let mut rest = source;
        let mut offset = 0;
        while let Some(open) = rest.find("{{") {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let after = &rest[open + 2..];
            let Some(close) = after.find("}}") else {
                let (line, column) = line_col(source, offset + open);
                return Err(CompileError { line, column, message: "`{{` is never closed by `}}`".into() });
            };
            let hole = &after[..close];
            let expr = self.compile(hole, extra).map_err(|e| {
                // Rhai counts lines and characters within the hole; report them within the
                // whole template.
                let (hole_line, hole_col) = line_col(source, offset + open + 2);
                let (line, column) = if e.line <= 1 {
                    (hole_line, hole_col + e.column.saturating_sub(1))
                } else {
                    (hole_line + e.line - 1, e.column)
                };
                CompileError { line, column, message: e.message }
            })?;
            parts.push(Part::Hole(expr));
            let consumed = open + 2 + close + 2;
            offset += consumed;
            rest = &rest[consumed..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(Template { source: source.to_string(), parts })
    }

    pub fn eval(&self, expr: &Expr, ctx: &Ctx) -> Result<Dynamic, EvalError> {
        let result = match ctx.scope.try_borrow_mut() {
            Ok(mut scope) => {
                let base = scope.len();
                let r = self.engine.eval_ast_with_scope::<Dynamic>(&mut scope, &expr.ast);
                scope.rewind(base);
                r
            }
            // Only reachable if an evaluation is nested inside another: use a copy.
            Err(_) => self.engine.eval_ast_with_scope::<Dynamic>(&mut ctx.scope.borrow().clone(), &expr.ast),
        };
        result.map_err(|e| self.describe(*e))
    }

    /// Evaluates an expression to a JSON value.
    pub fn eval_json(&self, expr: &Expr, ctx: &Ctx) -> Result<Value, EvalError> {
        let d = self.eval(expr, ctx)?;
        Ok(from_dynamic(&d)?)
    }

    /// Renders a template: strings as they are, other values as JSON.
    pub fn render(&self, template: &Template, ctx: &Ctx) -> Result<String, EvalError> {
        let mut out = String::new();
        for part in &template.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Hole(e) => {
                    let d = self.eval(e, ctx)?;
                    if let Some(s) = d.read_lock::<ImmutableString>() {
                        out.push_str(&s);
                    } else {
                        let v = from_dynamic(&d)?;
                        out.push_str(&v.to_string());
                    }
                }
            }
        }
        Ok(out)
    }

    fn describe(&self, e: rhai::EvalAltResult) -> EvalError {
        match e {
            rhai::EvalAltResult::ErrorTooManyOperations(pos) => EvalError::failed(format!(
                "the expression ran more than max_ops ({}) operations ({})",
                self.max_ops,
                position_text(pos)
            )),
            rhai::EvalAltResult::ErrorTerminated(_, pos) => EvalError {
                cause: EvalCause::TimeLimit,
                message: format!("{} ({})", self.guard.message(), position_text(pos)),
            },
            rhai::EvalAltResult::ErrorRuntime(value, pos) => {
                // `throw "..."` in a script: show the thrown text itself.
                let text =
                    value.read_lock::<ImmutableString>().map(|s| s.to_string()).unwrap_or_else(|| value.to_string());
                EvalError::failed(format!("{text} ({})", position_text(pos)))
            }
            other => EvalError::failed(other.to_string()),
        }
    }
}

fn position_text(pos: rhai::Position) -> String {
    match (pos.line(), pos.position()) {
        (Some(l), Some(c)) => format!("line {l}, position {c}"),
        (Some(l), None) => format!("line {l}"),
        _ => "position unknown".into(),
    }
}

/// Line and column (in characters, 1-based) of a byte offset.
fn line_col(text: &str, byte: usize) -> (usize, usize) {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use rhai::Map as RhaiMap;

    use super::*;
    use crate::document::Graph;

    fn scripting() -> Scripting {
        Scripting::new(&Graph::new("t").effective_limits())
    }

    fn ctx(state: Value) -> Ctx {
        let Value::Object(map) = state else { panic!("object") };
        Ctx::new(
            View::dynamic(Rc::new(ObjectView(Rc::new(map)))),
            Dynamic::from_map(RhaiMap::new()),
            Dynamic::from_map(RhaiMap::new()),
            Dynamic::from_map(RhaiMap::new()),
            3,
        )
    }

    #[test]
    fn reads_state_through_the_view() {
        let s = scripting();
        let e = s.compile("if state.request.len() > 5 { \"complex\" } else { \"simple\" }", &[]).unwrap();
        let v = s.eval_json(&e, &ctx(serde_json::json!({"request": "a long request"}))).unwrap();
        assert_eq!(v, Value::from("complex"));
    }

    #[test]
    fn missing_values_fall_back() {
        let s = scripting();
        let t = s.compile_template("summary: {{ state.summary ?? \"none\" }}, step {{ step }}", &[]).unwrap();
        assert_eq!(s.render(&t, &ctx(serde_json::json!({}))).unwrap(), "summary: none, step 3");
    }

    #[test]
    fn templates_render_non_strings_as_json() {
        let s = scripting();
        let t = s.compile_template("{{ state.list }}", &[]).unwrap();
        assert_eq!(s.render(&t, &ctx(serde_json::json!({"list": [1, "a"]}))).unwrap(), "[1,\"a\"]");
    }

    #[test]
    fn backtick_strings_render_values_as_json_like_templates() {
        let s = scripting();
        let state =
            serde_json::json!({"meta": {"a": 1, "b": [true, null, "x"]}, "list": [1, 2.5], "name": "Ann", "n": 3});
        let c = ctx(state);
        let e =
            s.compile("`total: ${state.meta}, list ${state.list}, ${state.name} ${state.n} ${0.000001}`", &[]).unwrap();
        let t = s
            .compile_template(
                "total: {{ state.meta }}, list {{ state.list }}, {{ state.name }} {{ state.n }} {{ 0.000001 }}",
                &[],
            )
            .unwrap();
        let text = s.render(&t, &c).unwrap();
        assert_eq!(text, r#"total: {"a":1,"b":[true,null,"x"]}, list [1,2.5], Ann 3 1e-6"#);
        assert_eq!(s.eval_json(&e, &c).unwrap(), Value::from(text));
        // A map or list built in the script, `+` onto a string, and `to_string` read the same.
        let e = s.compile(r#"let m = #{ k: [1, "two"] }; `${m}|` + m + "|" + [3.5].to_string()"#, &[]).unwrap();
        assert_eq!(s.eval_json(&e, &c).unwrap(), Value::from(r#"{"k":[1,"two"]}|{"k":[1,"two"]}|[3.5]"#));
        // A value with no JSON form still reads as something rather than failing the text.
        let e = s.compile("`${[0.0 / 0.0]}`", &[]).unwrap();
        assert_eq!(s.eval_json(&e, &c).unwrap(), Value::from("[NaN]"));
    }

    #[test]
    fn numbers_json_cannot_hold_are_errors_not_null() {
        let s = scripting();
        let c = ctx(serde_json::json!({}));
        let e = s.compile("#{ a: [1, 1.0e308 * 10.0] }", &[]).unwrap();
        let err = s.eval_json(&e, &c).unwrap_err();
        assert_eq!(err.cause, EvalCause::NotFinite);
        assert_eq!(err.message, "gave `a[1]` = inf, which is not a finite number (JSON has no such number)");
        // JSON text (a model's reply, an HTTP body) cannot bring one in: serde_json refuses it.
        let e = s.compile(r#"parse_json("[1e400]")"#, &[]).unwrap();
        assert!(s.eval_json(&e, &c).unwrap_err().message.contains("out of range"));
        // Integer arithmetic that overflows is Rhai's own error, not a float.
        let e = s.compile("9223372036854775807 + 1", &[]).unwrap();
        let err = s.eval_json(&e, &c).unwrap_err();
        assert_eq!(err.cause, EvalCause::Failed);
        assert!(err.message.contains("overflow"), "{err}");
    }

    #[test]
    fn a_source_is_compiled_once_and_its_error_given_to_every_use() {
        let s = scripting();
        let a = s.compile("state.n + 1", &[]).unwrap();
        let b = s.compile("state.n + 1", &[]).unwrap();
        assert!(Rc::ptr_eq(&a.ast, &b.ast), "the second use shares the first compile");
        // Other names in scope are another compile: `item` is known in one and not the other.
        assert!(s.compile("item + 1", &["item"]).is_ok());
        let first = s.compile("item + 1", &[]).unwrap_err();
        assert_eq!(s.compile("item + 1", &[]).unwrap_err(), first);
        assert!(first.message.contains("item"), "{first}");
        assert_eq!(s.compiled.borrow().len(), 3);
    }

    #[test]
    fn undefined_variables_do_not_compile() {
        let err = scripting().compile("stat.x + 1", &[]).unwrap_err();
        assert!(err.message.contains("stat"), "{err}");
        assert_eq!(err.line, 1);
    }

    #[test]
    fn runaway_loops_are_stopped() {
        let s = scripting();
        let e = s.compile("let x = 0; loop { x += 1; }", &[]).unwrap();
        let err = s.eval(&e, &ctx(serde_json::json!({}))).unwrap_err();
        assert!(err.message.contains("max_ops"), "{err}");
    }

    #[test]
    fn pad_with_empty_padding_fails_instead_of_hanging() {
        let s = scripting();
        let c = ctx(serde_json::json!({}));
        let e = s.compile("let x = \"x\"; x.pad(5, \"\"); x", &[]).unwrap();
        assert!(s.eval(&e, &c).unwrap_err().message.contains("must not be empty"));
        let e = s.compile("let x = \"x\"; x.pad(5, \"ab\"); x", &[]).unwrap();
        assert_eq!(s.eval_json(&e, &c).unwrap(), Value::from("xabab"));
    }

    #[test]
    fn deeply_nested_values_are_refused_not_crashed_on() {
        let s = scripting();
        let c = ctx(serde_json::json!({}));
        let e = s.compile("let a = []; for i in 0..300 { a = [a]; } a", &[]).unwrap();
        let err = s.eval_json(&e, &c).unwrap_err();
        assert!(err.message.contains("nested more than"), "{err}");
    }

    #[test]
    fn state_is_read_only() {
        let s = scripting();
        let e = s.compile("state = 1; 2", &[]).unwrap();
        assert!(s.eval(&e, &ctx(serde_json::json!({}))).is_err());
    }

    #[test]
    fn template_errors_point_into_the_template() {
        let err = scripting().compile_template("ab {{ state. }}", &[]).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.column > 3, "{err}");
        let err = scripting().compile_template("ab {{ state", &[]).unwrap_err();
        assert!(err.message.contains("never closed"));
        // Found by fuzzing: an error after a multi-byte character must not panic.
        let err = scripting().compile_template("é {{\"€\"s}}", &[]).unwrap_err();
        assert_eq!(err.line, 1);
    }
}
