//! The expression sandbox: see `fuzz/checks/expression.rs` for what is checked.
#![no_main]

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use libfuzzer_sys::fuzz_target;

#[path = "../checks/expression.rs"]
mod checks;

thread_local! {
    // libFuzzer calls us on the main thread's 8 MiB stack, so inputs run on a worker thread
    // with the check's smaller one, kept for the whole session along with its Rhai engine. A
    // panic there aborts the process (libfuzzer-sys's panic hook), which libFuzzer reports as
    // a crash.
    static WORKER: (SyncSender<Vec<u8>>, Receiver<()>) = {
        let (input, inputs) = sync_channel::<Vec<u8>>(0);
        let (done, finished) = sync_channel(0);
        std::thread::Builder::new()
            .stack_size(checks::STACK)
            .spawn(move || {
                for data in inputs {
                    checks::check(&data);
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
