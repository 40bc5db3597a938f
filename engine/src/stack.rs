//! The stack a run needs. Scripts can nest lists and maps as deep as their size limits allow
//! (every level is one more item, so about 200,000 levels), and Rhai clones, size-checks and
//! drops such a value recursively, a few hundred bytes of stack per level. A thread with the
//! platform's default stack (8 MiB for `main`, 2 MiB for others) dies at a few thousand
//! levels, taking the process and every other run with it; so every thread that runs graph
//! work is started here, with a stack large enough for the deepest value a script can build.
//! Values deeper than [`crate::script::MAX_DEPTH`] never reach JSON: the run fails with a
//! named error instead.
//!
//! The stack is reserved address space: only the pages a run touches take memory.

use std::io;
use std::thread::{Builder, JoinHandle};

/// The stack size of a thread that runs graph work, in bytes.
pub const RUN_STACK_BYTES: usize = 512 << 20;

/// Starts `work` on a thread named `name` with a stack of [`RUN_STACK_BYTES`].
pub fn spawn_run_thread<F, T>(name: &str, work: F) -> io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    Builder::new().name(name.to_string()).stack_size(RUN_STACK_BYTES).spawn(work)
}
