//! `switchyard server GRAPH.json... [--listen ADDR] [--data FILE] [--restate URL] [--token-file F]
//! [--cors-origin ORIGIN]... [--allow-command PROGRAM]... [--allow LIST] [--deny LIST] [--max-runs N]
//! [--max-waiting N]`: starts `switchyard-server`, the
//! LangGraph-compatible API (docs/server.md), as `serve` starts `switchyard-serve`: a program
//! of its own, so this one carries no async runtime, HTTP server or SQLite.

use crate::args::ServerArgs;
use crate::commands::serve::become_program;
use crate::exit::Printed;
use crate::input::BadInput;

pub fn server(args: ServerArgs) -> Result<Printed, BadInput> {
    let mut argv: Vec<String> = args.graphs;
    argv.extend(["--listen".to_string(), args.listen]);
    let optional = [
        ("--data", args.data),
        ("--restate", args.restate),
        ("--token-file", args.token_file),
        ("--allow", args.allow),
        ("--deny", args.deny),
        ("--max-runs", args.max_runs),
        ("--max-waiting", args.max_waiting),
    ];
    for (flag, value) in optional {
        if let Some(v) = value {
            argv.extend([flag.to_string(), v]);
        }
    }
    for origin in args.cors_origin {
        argv.extend(["--cors-origin".to_string(), origin]);
    }
    for program in args.allow_command {
        argv.extend(["--allow-command".to_string(), program]);
    }
    become_program("server", "switchyard-server", "switchyard-server", &argv)
}
