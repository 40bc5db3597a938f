// The conformance test embeds `tests/conformance/` with `include_dir!`, which Cargo does not
// track: rebuild when a case is added or edited.
fn main() {
    println!("cargo:rerun-if-changed=../tests/conformance");
    println!("cargo:rerun-if-changed=build.rs");
}
