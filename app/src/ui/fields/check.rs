//! Checking source text as it is typed: [`Check`] says how, [`check_source`] compiles it in
//! a sandbox as the engine will, and a [`Verdict`] is what the status line shows. Source
//! that compiles but reads a state field the graph on the canvas does not declare says so,
//! as the validator will once it is committed.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use engine::document::EffectiveLimits;
use engine::plan::KnownKeys;
use engine::script::Scripting;
use leptos::prelude::{WithUntracked, use_context};
use serde_json::Value;

use crate::state::DocState;

/// How source text is checked while it is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Check {
    /// Plain text: nothing to check.
    #[default]
    Plain,
    /// A Rhai expression (or script) that may also use these names.
    Expr(&'static [&'static str]),
    /// A `{{ expression }}` template.
    Template,
    /// A template whose holes may also use these names (`args` in a tool's request).
    TemplateWith(&'static [&'static str]),
}

/// Names a form adds to the scope of every expression and template checked in it: the item
/// and `index` of a node run by map edges (format.md §5, map edges). Provided as a context by the form.
#[derive(Clone, Copy)]
pub struct ScopeNames(pub leptos::prelude::Signal<Vec<String>>);

/// What a check found: `Ok` with the text shown when all is well, or the error.
pub type Verdict = Result<String, String>;

/// Checks a JSON value beyond its syntax (an object, a list, a graph document…).
pub type Validator = Arc<dyn Fn(&Value) -> Verdict + Send + Sync>;

thread_local! {
    /// Building a Rhai engine costs more than compiling a line, so one is kept per limits.
    static SANDBOX: RefCell<Option<(EffectiveLimits, Rc<Scripting>)>> = const { RefCell::new(None) };
}

fn sandbox(limits: EffectiveLimits) -> Rc<Scripting> {
    SANDBOX.with(|cell| {
        let mut cell = cell.borrow_mut();
        if let Some((l, s)) = cell.as_ref()
            && *l == limits
        {
            return s.clone();
        }
        let s = Rc::new(Scripting::new(&limits));
        *cell = Some((limits, s.clone()));
        s
    })
}

/// Compiles `src` as the engine will: `✓ compiles`, or Rhai's message with line and position.
/// Source that compiles and reads state fields the graph does not declare gets the
/// validator's warning about each after it (`✓ compiles; ⚠ reads `state.x`, …`).
/// `more` are names in scope besides the check's own (see [`ScopeNames`]).
pub fn check_source(src: &str, check: Check, limits: EffectiveLimits, more: &[String]) -> Option<Verdict> {
    let s = sandbox(limits);
    let with = |extra: &'static [&'static str]| names(extra, more);
    let reads = match check {
        Check::Plain => return None,
        Check::Expr(extra) => s.compile(src, &with(extra)).map(|e| e.state_reads()),
        Check::Template => s.compile_template(src, &with(&[])).map(|t| t.state_reads()),
        Check::TemplateWith(extra) => s.compile_template(src, &with(extra)).map(|t| t.state_reads()),
    };
    Some(reads.map(|reads| compiles(&reads, &s)).map_err(|e| format!("✗ {e}")))
}

/// `✓ compiles`, followed by a warning for each of `reads` that the graph on the canvas
/// (when there is one in context) does not know.
fn compiles(reads: &[String], s: &Scripting) -> String {
    let mut text = "✓ compiles".to_string();
    if reads.is_empty() {
        return text;
    }
    let Some(doc) = use_context::<DocState>() else { return text };
    let Some(known) = doc.editor.try_with_untracked(|e| KnownKeys::of(e.graph(), s)).flatten() else { return text };
    for r in known.undeclared(reads) {
        text.push_str("; ⚠ ");
        text.push_str(&r.message());
    }
    text
}

/// The check's own extra names, then `more`.
fn names<'a>(extra: &'static [&'static str], more: &'a [String]) -> Vec<&'a str> {
    extra.iter().copied().chain(more.iter().map(String::as_str)).collect()
}
