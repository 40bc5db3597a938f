//! The run worker's entry point: the second wasm module the editor starts (see `runner`).

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    app::runner::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the run worker runs in a browser, started by the editor");
}
