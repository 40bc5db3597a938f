//! `archcheck [--root DIR] [--why] [--edges]`: checks the workspace that DIR (by default the current
//! directory) is in. Exit status: 0 when it passes, 1 when it finds a cycle, an oversized
//! file or a finding of an enforced layout rule, 2 when it cannot run.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: archcheck [--root DIR] [--why] [--edges]
  --root DIR  check the workspace DIR is in (default: the current directory)
  --why       show the path behind each edge of an import cycle
  --edges     print every edge of the file dependency graph first";

fn main() -> ExitCode {
    let mut root = PathBuf::from(".");
    let mut why = false;
    let mut all_edges = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--why" => why = true,
            "--edges" => all_edges = true,
            "--root" => match args.next() {
                Some(dir) => root = PathBuf::from(dir),
                None => return usage_error("--root needs a directory"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => return usage_error(&format!("unknown argument {other}")),
        }
    }
    let report = match archcheck::check(&root) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("archcheck: {e}");
            return ExitCode::from(2);
        }
    };
    if all_edges {
        for edge in &report.edges {
            println!("{edge}");
        }
    }
    for line in report.findings(why) {
        println!("archcheck: {line}");
    }
    for line in report.summary() {
        println!("archcheck: {line}");
    }
    if report.passed() {
        return ExitCode::SUCCESS;
    }
    if !why && !report.cycles.is_empty() {
        println!("archcheck: `cargo run -q -p archcheck -- --why` shows the paths behind each cycle");
    }
    ExitCode::from(1)
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("archcheck: {message}\n{USAGE}");
    ExitCode::from(2)
}
