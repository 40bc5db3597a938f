//! Any expression or template, evaluated against any small JSON state. Compile and evaluation
//! errors are expected; panics, hangs and stack overflows are bugs.
//!
//! Input: `<source>` or `<source>\0<state JSON>`; the state is `{}` unless the JSON is an object.
#![no_main]

use std::rc::Rc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use engine::script::{Ctx, ObjectView, Scripting, View, to_dynamic};
use libfuzzer_sys::fuzz_target;
use rhai::{Dynamic, Map as RhaiMap};
use serde_json::{Map, Value};

/// wasm32's default stack: what overflows here overflows in the browser build.
const STACK: usize = 1 << 20;

thread_local! {
    // libFuzzer calls us on the main thread's 8 MiB stack, so inputs run on a worker thread
    // with a 1 MiB one, kept for the whole session along with its Rhai engine. A panic there
    // aborts the process (libfuzzer-sys's panic hook), which libFuzzer reports as a crash.
    static WORKER: (SyncSender<Vec<u8>>, Receiver<()>) = {
        let (input, inputs) = sync_channel::<Vec<u8>>(0);
        let (done, finished) = sync_channel(0);
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                // The default graph's limits, with a smaller operation budget to keep runs fast.
                let mut limits = engine::Graph::new("f").effective_limits();
                limits.max_ops = 10_000;
                let scripting = Scripting::new(&limits);
                for data in inputs {
                    run(&scripting, &data);
                    done.send(()).expect("fuzzer gone");
                }
            })
            .expect("spawn the worker");
        (input, finished)
    };
}

fuzz_target!(|data: &[u8]| {
    WORKER.with(|(input, finished)| {
        input.send(data.to_vec()).expect("worker gone");
        finished.recv().expect("worker gone");
    });
});

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
