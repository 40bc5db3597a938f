//! The editor's entry point in the browser.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    wasm_bindgen_futures::spawn_local(async {
        let problems = app::ui::load_initial().await;
        leptos::mount::mount_to_body(move || {
            use leptos::prelude::*;
            view! { <app::ui::App preload_problems=problems.clone()/> }
        });
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the editor runs in a browser: use `./dev serve`");
}
