//! See `fuzz/checks/schema.rs` for what is checked; `./dev test` replays the corpus through the same checks.
#![no_main]

#[path = "../checks/schema.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
