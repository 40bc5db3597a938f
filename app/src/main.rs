//! The editor's entry point in the browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the editor runs in a browser: use `./dev serve`");
}
