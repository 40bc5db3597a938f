//! `switchyard`: run, resume, validate and draw switchyard/graph@1 documents (cli.md).
//!
//! Exit codes: 0 completed (or valid), 1 failed, 2 bad input, 3 interrupted, 4 limit reached.
//! Bad input always gets one line on stderr saying where, never a panic. Output that cannot
//! be written is one line and exit 1, but a reader that closed the pipe early ends the
//! command quietly with the code it would have had (see [`output`]).
//!
//! | module | what it holds |
//! |---|---|
//! | `args` | the command line as clap parses it, with every flag's help |
//! | `commands` | one module per command: `run`, `resume`, `validate`, `mermaid`, `test` (and `test add`), `diff`, `trace`, `serve`, `server`, `mcp`, and the Restate clients `submit`, `status` (and `record`), `answer`, `fork` |
//! | `testing` | what `test` is made of: the suite file, cases on threads, the replaying host, the report, the two-graph table, JUnit, the progress bar |
//! | `ingress` | the clients' HTTP calls to a Restate ingress, refusals read |
//! | `session` | `run` and `resume` after their run is ready: observers chosen by the flags, the run driven, the exit code |
//! | `drive` | the stepping loop and the [`drive::Observer`]s it tells after each step |
//! | `record_file` | `--record FILE`: the record replaced atomically after every step |
//! | `atomic_write` | a file replaced whole (temporary file, synced, renamed): the record file, a suite, a JUnit report |
//! | `record_text` | how a record is printed: pretty, one compact step a line |
//! | `events` | `--events`: a JSON line per finished step |
//! | `progress` | the progress line on a terminal |
//! | `console` | stderr lines printed above the progress line |
//! | `changed_graph` | `resume` refusing a run whose graph changed, naming what changed |
//! | `schema` | `switchyard schema graph`, `schema run` and `schema tests`: the JSON Schemas the engine derives |
//! | `undeclared` | input and `--set` keys no state field declares: warnings, or `--strict` |
//! | `input` | files and JSON arguments read, with errors that say where |
//! | `mcp` | `switchyard mcp`: graphs as MCP tools (rmcp glue in `mcp/server` and `mcp/http`) |
//! | `traces` | runs sent as OpenTelemetry traces when `OTEL_*` asks: the process's exporter, a tracer per run |
//! | `host` | the CLI's host: clock, HTTP, keys, MCP exchanges |
//! | `consent` | `--allow-command`: the programs a graph may start as MCP servers, checked before a run |
//! | `output` | stdout and stderr written without panicking |
//! | `exit` | exit codes, and what a command prints |

mod args;
mod atomic_write;
mod changed_graph;
mod commands;
mod consent;
mod console;
mod drive;
mod events;
mod exit;
mod host;
mod ingress;
mod input;
mod mcp;
mod output;
mod progress;
mod record_file;
mod record_text;
mod request_pool;
mod schema;
mod session;
mod testing;
mod timer;
mod traces;
mod undeclared;

use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::exit::{EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, Printed};
use crate::input::BadInput;
use crate::output::{WriteFailure, say, write_stdout};

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        say(&format!("internal error: {msg} (this is a bug; please report it)"));
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    // A closed stdout would lose the result: say so before doing any work.
    if let Err(WriteFailure::Failed(why)) = output::check_stdout() {
        say(&format!("cannot write the output: {why}"));
        return ExitCode::from(EXIT_OUTPUT_FAILED);
    }
    match dispatch_on_run_thread(cli.command) {
        Ok(Ok(printed)) => print(printed),
        Ok(Err(e)) => {
            say(&e.to_string());
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Err(code) => code,
    }
}

/// Runs the command on a thread with the stack a run needs ([`engine::stack`]): the main
/// thread's stack is whatever `ulimit -s` gave, and a value nested deep in a script must fail
/// its run with a named error, not abort the process before the record is written.
fn dispatch_on_run_thread(command: Command) -> Result<Result<Printed, BadInput>, ExitCode> {
    let thread = engine::stack::spawn_run_thread("switchyard", move || dispatch(command)).map_err(|e| {
        say(&format!("cannot start the run's thread: {e}"));
        ExitCode::FAILURE
    })?;
    // A panic was already reported by the hook; exit as a panicking `main` would.
    thread.join().map_err(|_| ExitCode::from(101))
}

fn dispatch(command: Command) -> Result<Printed, BadInput> {
    match command {
        Command::Run(args) => commands::run::run(args),
        Command::Resume(args) => commands::resume::resume(args),
        Command::Validate { graph, json } => commands::validate::validate_graph(&graph, json),
        Command::Mermaid { graph } => commands::mermaid::mermaid(&graph),
        Command::Schema { name } => schema::print(&name).map(|text| Printed::new(text, 0)),
        Command::Test(args) => commands::test::test(args),
        Command::Trace(args) => commands::trace::trace(args),
        Command::Diff(args) => commands::diff::diff(args),
        Command::Serve { listen, allow, deny, allow_command } => {
            commands::serve::serve(&listen, allow.as_deref(), deny.as_deref(), &allow_command)
        }
        Command::Server(args) => commands::server::server(args),
        Command::Submit(args) => commands::submit::submit(args),
        Command::Status(args) => commands::status::status(args),
        Command::Record(args) => commands::status::record(args),
        Command::Answer(args) => commands::answer::answer(args),
        Command::Fork(args) => commands::fork::fork(args),
        Command::Mcp(args) => commands::mcp::mcp(args),
    }
}

/// Prints a command's output and exits with its code (or 1 when stdout fails).
fn print(Printed { text, code }: Printed) -> ExitCode {
    match write_stdout(&text) {
        Ok(()) | Err(WriteFailure::Closed) => ExitCode::from(code),
        Err(WriteFailure::Failed(why)) => {
            say(&format!("cannot write the output: {why}"));
            ExitCode::from(EXIT_OUTPUT_FAILED)
        }
    }
}

/// Help and version go to stdout as clap renders them; a usage mistake gets one line, like
/// every other bad input.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(EXIT_BAD_INPUT)
        }
        _ => {
            let text = e.to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ");
            // "the following required arguments were not provided:" names them on the next line.
            let first = match (first.ends_with(':'), lines.next()) {
                (true, Some(what)) => format!("{first} {what}"),
                _ => first.to_string(),
            };
            say(&format!("{first} (see `switchyard --help`)"));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
