//! See `fuzz/checks/reply.rs` for what is checked; `./dev test` replays the corpus through the same checks.
#![no_main]

#[path = "../checks/reply.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
