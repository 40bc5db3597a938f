//! `switchyard-bench`: measures the cases natively and prints the table, with the wasm
//! side's figures (from bench/wasm.mjs), the whole CLI and LangGraph beside them when given.
//! `./dev bench` builds and runs everything; see the README's Performance section.
//!
//! Usage: switchyard-bench [--quick] [--json] [--wasm FILE] [--cli BINARY] [--langgraph FILE] [WORD...]

mod alloc_count;
mod cli_process;
mod collector;

use std::time::Instant;

use switchyard_bench::figures::{CaseFigures, Side};
use switchyard_bench::table::{Outside, render};
use switchyard_bench::{Meter, cases, pipeline, probes};

struct NativeMeter {
    origin: Instant,
}

impl Meter for NativeMeter {
    fn now_us(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1e6
    }
    fn count_allocations(&self, on: bool) {
        alloc_count::set_counting(on);
    }
    fn allocations(&self) -> Option<u64> {
        alloc_count::counting().then(alloc_count::allocations)
    }
    fn live_bytes(&self) -> Option<u64> {
        alloc_count::counting().then(alloc_count::live_bytes)
    }
}

#[derive(Default)]
struct Args {
    quick: bool,
    json: bool,
    wasm: Option<String>,
    cli: Option<String>,
    langgraph: Option<String>,
    /// Hidden: print this case's graph document and stop (to profile a CLI run of it).
    print_graph: Option<String>,
    filters: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args::default();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().ok_or(format!("{flag} needs a value"));
        match a.as_str() {
            "--quick" | "quick" => args.quick = true,
            "--json" => args.json = true,
            "--wasm" => args.wasm = Some(value("--wasm")?),
            "--cli" => args.cli = Some(value("--cli")?),
            "--langgraph" => args.langgraph = Some(value("--langgraph")?),
            "--print-graph" => args.print_graph = Some(value("--print-graph")?),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            word => args.filters.push(word.to_string()),
        }
    }
    Ok(args)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &str) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("switchyard-bench: {e}");
            std::process::exit(2);
        }
    };
    let meter = NativeMeter { origin: Instant::now() };
    let all = cases::all();
    if let Some(key) = &args.print_graph {
        match all.iter().find(|c| c.key == key.as_str()) {
            Some(case) => println!("{}", case.graph),
            None => {
                eprintln!("switchyard-bench: no case `{key}`");
                std::process::exit(2);
            }
        }
        return;
    }
    let selected: Vec<_> = all.iter().filter(|c| c.selected(&args.filters)).collect();
    let mut native = Side::default();
    for case in &selected {
        eprintln!("native: {}", case.name);
        native.cases.push(pipeline::measure(case, &meter, args.quick).unwrap_or_else(|e| CaseFigures {
            key: case.key.into(),
            name: case.name.into(),
            failed: Some(e),
            ..Default::default()
        }));
    }
    native.probes = probes::all(&meter, &all[0].graph);
    if args.json {
        println!("{}", serde_json::to_string(&native).unwrap_or_default());
        return;
    }
    let wasm: Option<Side> = args.wasm.as_deref().and_then(|p| read_json(p).map_err(|e| eprintln!("{e}")).ok());
    let mut outside = Outside::default();
    if let Some(binary) = &args.cli {
        outside.cli = cli_process::measure(binary, &selected, &native.cases, args.quick);
        outside.export = cli_process::measure_export(binary, &selected, &native.cases, args.quick);
    }
    if let Some(path) = &args.langgraph {
        let figures: Vec<(String, f64)> = read_json(path).unwrap_or_else(|e| {
            eprintln!("{e}");
            Vec::new()
        });
        outside.langgraph = figures;
    }
    print!("{}", render(&native, wasm.as_ref(), &outside));
}
