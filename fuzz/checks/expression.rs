//! Any expression or template, evaluated against any small JSON state. Compile and evaluation
//! errors are expected; panics, hangs and stack overflows are bugs.
//!
//! Input: `<source>` or `<source>\0<state JSON>`; the state is `{}` unless the JSON is an object.
//!
//! [`check`] must run on a thread with a [`STACK`]-byte stack: the caller starts it, so the
//! fuzzer can keep one such thread for its whole session.

use std::rc::Rc;

use engine::script::{Ctx, ObjectView, Scripting, View, to_dynamic};
use rhai::{Dynamic, Map as RhaiMap};
use serde_json::{Map, Value};

/// wasm32's default stack: what overflows here overflows in the browser build.
pub const STACK: usize = 1 << 20;

thread_local! {
    // One Rhai engine per thread, built once: building it costs more than most inputs.
    static SCRIPTING: Scripting = {
        // The default graph's limits, with a smaller operation budget to keep runs fast.
        let mut limits = engine::Graph::new("f").effective_limits();
        limits.max_ops = 10_000;
        Scripting::new(&limits)
    };
}

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    SCRIPTING.with(|s| run(s, data));
}

fn run(s: &Scripting, data: &[u8]) {
    let (source, state) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let source = String::from_utf8_lossy(source);
    let state = match serde_json::from_slice::<Value>(state) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };

    // `state` as the engine hands it over (a lazy view), `input` as a plain Rhai map.
    let input = to_dynamic(&Value::Object(state.clone()));
    let state = View::dynamic(Rc::new(ObjectView(Rc::new(state))));
    let ctx = Ctx::new(state, input, Dynamic::from_map(RhaiMap::new()), Dynamic::from_map(RhaiMap::new()), 1);

    if let Ok(expr) = s.compile(&source, &[]) {
        let _ = s.eval_json(&expr, &ctx);
    }
    if let Ok(template) = s.compile_template(&source, &[]) {
        let _ = s.render(&template, &ctx);
    }
}
