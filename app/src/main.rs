//! The editor's entry point in the browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    wasm_bindgen_futures::spawn_local(async {
        // Where the editor runs is decided here, once.
        let (platform, problems) = app::platform::start().await;
        leptos::mount::mount_to_body(move || {
            use leptos::prelude::*;
            view! { <app::ui::App platform=platform.clone() preload_problems=problems.clone()/> }
        });
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the editor runs in a browser: use `./dev serve`");
}
