//! Rewrites graph files in place exactly as the editor's export writes them (the form the
//! templates are stored in): `cargo run -q -p switchyard --example format_template -- FILE...`.

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let formatted = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| engine::parse_graph(&text).map_err(|e| e.to_string()))
            .map(|graph| graph.to_pretty_json() + "\n");
        match formatted.and_then(|text| std::fs::write(&path, text).map_err(|e| e.to_string())) {
            Ok(()) => {}
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
            }
        }
    }
    std::process::exit(i32::from(failed));
}
