//! `switchyard`: run, resume, validate and draw switchyard/graph@1 documents (spec section 5).
//!
//! Exit codes: 0 completed (or valid), 1 failed, 2 bad input, 3 interrupted, 4 limit reached.
//! Bad input always gets one line on stderr saying where, never a panic. Output that cannot
//! be written is one line and exit 1, but a reader that closed the pipe early ends the
//! command quietly with the code it would have had (see [`output`]).

mod host;
mod input;
mod output;
mod schema;

use std::process::ExitCode;
use std::rc::Rc;

use clap::{Parser, Subcommand};
use engine::{Run, RunRecord, Status, compile, to_mermaid, validate};

use crate::host::NativeHost;
use crate::input::{BadInput, load_graph, parse_json_arg, read_text};
use crate::output::{WriteFailure, say, write_stdout};

#[derive(Parser)]
#[command(name = "switchyard", version, about = "Run, resume, validate and draw Switchyard workflow graphs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a graph and print its run record.
    Run {
        /// The graph document (switchyard/graph@1).
        graph: String,
        /// The run's input: JSON text, or @FILE to read it from a file.
        #[arg(long, value_name = "JSON|@FILE")]
        input: Option<String>,
        /// Leave the steps out of the record.
        #[arg(long)]
        summary: bool,
        /// Stop before the step that would run any of these nodes (interrupted, exit 3).
        #[arg(long, value_name = "ID,...", value_delimiter = ',')]
        break_before: Vec<String>,
        /// Stop after a step that ran any of these nodes (interrupted, exit 3).
        #[arg(long, value_name = "ID,...", value_delimiter = ',')]
        break_after: Vec<String>,
    },
    /// Continue an interrupted or stopped run, or fork it from an earlier step.
    Resume {
        /// A run record printed by `run` or `resume` (never modified).
        run: String,
        /// The graph the run belongs to.
        #[arg(long)]
        graph: String,
        /// Answers for waiting human nodes: '{"node": value}', a form's as an object of its
        /// fields '{"node": {"field": value}}' (or @FILE).
        #[arg(long, value_name = "JSON|@FILE")]
        answer: Option<String>,
        /// Fork from the checkpoint after step N (0: before step 1).
        #[arg(long, value_name = "N")]
        from_step: Option<u64>,
        /// An update applied at the fork point through the reducers (or @FILE).
        #[arg(long, value_name = "JSON|@FILE")]
        set: Option<String>,
        /// Leave the steps out of the record.
        #[arg(long)]
        summary: bool,
        /// Stop before the step that would run any of these nodes (interrupted, exit 3).
        #[arg(long, value_name = "ID,...", value_delimiter = ',')]
        break_before: Vec<String>,
        /// Stop after a step that ran any of these nodes (interrupted, exit 3).
        #[arg(long, value_name = "ID,...", value_delimiter = ',')]
        break_after: Vec<String>,
    },
    /// Check a graph and print one diagnostic a line.
    Validate {
        graph: String,
        /// Print the diagnostics as a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Print the graph as a Mermaid flowchart.
    Mermaid { graph: String },
    /// Print the JSON Schema of a graph document (`graph`) or of a run record (`run`).
    Schema { name: String },
}

const EXIT_BAD_INPUT: u8 = 2;
/// Stdout could not be written (a full disk, a closed descriptor).
const EXIT_OUTPUT_FAILED: u8 = 1;

/// What a command prints on stdout, and its exit code.
struct Printed {
    text: String,
    code: u8,
}

impl Printed {
    fn new(text: String, code: u8) -> Printed {
        Printed { text, code }
    }
}

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
    match dispatch(cli.command) {
        Ok(Printed { text, code }) => match write_stdout(&text) {
            Ok(()) | Err(WriteFailure::Closed) => ExitCode::from(code),
            Err(WriteFailure::Failed(why)) => {
                say(&format!("cannot write the output: {why}"));
                ExitCode::from(EXIT_OUTPUT_FAILED)
            }
        },
        Err(e) => {
            say(&e.to_string());
            ExitCode::from(EXIT_BAD_INPUT)
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
            let first = text.lines().next().unwrap_or("invalid arguments");
            let first = first.trim_start_matches("error: ");
            say(&format!("{first} (see `switchyard --help`)"));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// The host, warning once about entries of `SWITCHYARD_TRUSTED_ORIGINS` that are not origins.
fn native_host() -> NativeHost {
    let (host, bad) = NativeHost::new();
    for item in bad {
        say(&format!("{}: `{item}` is not an origin (scheme://host[:port]); ignored", net::TRUSTED_ORIGINS_VAR));
    }
    host
}

fn exit_code(status: Status) -> u8 {
    match status {
        Status::Completed => 0,
        Status::Failed => 1,
        Status::Interrupted => 3,
        Status::LimitReached => 4,
        // A run is always driven until it stops.
        Status::Running => 1,
    }
}

fn dispatch(command: Command) -> Result<Printed, BadInput> {
    match command {
        Command::Run { graph, input, summary, break_before, break_after } => {
            let doc = load_graph(&graph)?;
            let plan = Rc::new(input::plan_or_bad_input(&graph, &doc)?);
            let breakpoints = input::breakpoints(&plan, break_before, break_after)?;
            let input = match input {
                Some(arg) => parse_json_arg("--input", &arg)?,
                None => serde_json::json!({}),
            };
            let host = native_host();
            let mut run = Run::start(plan, input, &host).map_err(|e| BadInput::new(format!("--input: {e}")))?;
            run.set_breakpoints(breakpoints);
            pollster::block_on(run.run(&host));
            Ok(Printed::new(format!("{}\n", run.record_json(!summary)), exit_code(run.status())))
        }
        Command::Resume { run: run_path, graph, answer, from_step, set, summary, break_before, break_after } => {
            let doc = load_graph(&graph)?;
            let plan = Rc::new(input::plan_or_bad_input(&graph, &doc)?);
            let breakpoints = input::breakpoints(&plan, break_before, break_after)?;
            let text = read_text(&run_path)?;
            let record: RunRecord =
                engine::parse::parse_object_as(&text).map_err(|e| BadInput::new(format!("{run_path}: {e}")))?;
            let graph_name = plan.graph.display_name();
            if record.graph != graph_name {
                return Err(BadInput::new(format!(
                    "{run_path}: this run belongs to the graph \"{}\", but {graph} is \"{graph_name}\"",
                    record.graph
                )));
            }
            let host = native_host();
            let original =
                Run::from_record(plan, &record, &host).map_err(|e| BadInput::new(format!("{run_path}: {e}")))?;
            let set = match set {
                Some(arg) => match parse_json_arg("--set", &arg)? {
                    serde_json::Value::Object(m) => Some(m),
                    other => {
                        return Err(BadInput::new(format!("--set: must be a JSON object, got {other}")));
                    }
                },
                None => None,
            };
            let mut run = match from_step {
                Some(n) => {
                    original.fork(n, set, &host).map_err(|e| BadInput::new(format!("--from-step/--set: {e}")))?
                }
                None => {
                    if set.is_some() {
                        return Err(BadInput::new("--set: needs --from-step (a fork point)".into()));
                    }
                    let mut run = original;
                    run.resume();
                    run
                }
            };
            run.set_breakpoints(breakpoints);
            if let Some(arg) = answer {
                let serde_json::Value::Object(answers) = parse_json_arg("--answer", &arg)? else {
                    return Err(BadInput::new("--answer: must be a JSON object {\"node\": answer}".into()));
                };
                for (node, value) in answers {
                    run.answer(&node, value).map_err(|e| BadInput::new(format!("--answer: {e}")))?;
                }
            } else if run.status() == Status::Interrupted && from_step.is_none() && !run.at_breakpoint() {
                // A breakpoint is passed by resuming; a human node needs its answer.
                let waiting: Vec<String> = run.waiting_for();
                return Err(BadInput::new(format!(
                    "the run waits for an answer from {}; give it with --answer '{{\"{}\": …}}'",
                    waiting.join(", "),
                    waiting.first().map_or("node", String::as_str)
                )));
            }
            pollster::block_on(run.run(&host));
            Ok(Printed::new(format!("{}\n", run.record_json(!summary)), exit_code(run.status())))
        }
        Command::Validate { graph, json } => {
            let doc = load_graph(&graph)?;
            let diags = validate(&doc);
            let text = if json {
                format!("{}\n", serde_json::to_string_pretty(&diags).unwrap_or_default())
            } else {
                diags.iter().map(|d| format!("{d}\n")).collect()
            };
            Ok(Printed::new(text, if diags.iter().any(engine::Diagnostic::is_error) { EXIT_BAD_INPUT } else { 0 }))
        }
        Command::Mermaid { graph } => {
            let doc = load_graph(&graph)?;
            if compile(&doc).plan.is_none() {
                input::plan_or_bad_input(&graph, &doc)?;
            }
            Ok(Printed::new(to_mermaid(&doc), 0))
        }
        Command::Schema { name } => schema::print(&name).map(|text| Printed::new(text, 0)),
    }
}
