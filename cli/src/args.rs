//! The command line as clap sees it: commands, their arguments and help.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use engine::StepStates;

#[derive(Parser)]
#[command(name = "switchyard", version, about = "Run, resume, validate and draw Switchyard workflow graphs")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a graph and print its run record.
    Run(RunArgs),
    /// Continue an interrupted, stopped or killed run, or fork it from an earlier step.
    Resume(ResumeArgs),
    /// Check a graph and print one diagnostic a line.
    Validate {
        graph: String,
        /// Print the diagnostics as a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Print the graph as a Mermaid flowchart.
    Mermaid { graph: String },
    /// Print the JSON Schema of a graph document (`graph`), a run record (`run`) or a test
    /// suite (`tests`).
    Schema { name: String },
    /// Run a test suite's cases (switchyard/tests@1) against the graph, or compare two
    /// versions of it; `test add` makes a case from a run record.
    Test(TestArgs),
    /// Compare two run records: the first step where they differ, then every differing step.
    Diff(DiffArgs),
    /// Serve runs as durable workflows to a Restate server (starts `switchyard-serve`, built
    /// beside this program).
    Serve {
        /// Where to listen for the Restate server's calls.
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9080")]
        listen: String,
        /// Loopback or private addresses graphs may reach (denied by default), comma-separated
        /// (`127.0.0.1:11434`, `10.0.0.0/8`); also $SWITCHYARD_ALLOWED_ADDRESSES.
        #[arg(long, value_name = "LIST")]
        allow: Option<String>,
        /// Addresses graphs never reach, even when allowed: the Restate server's ingress, admin
        /// and node addresses; also $SWITCHYARD_DENIED_ADDRESSES, and $SWITCHYARD_SERVER.
        #[arg(long, value_name = "LIST")]
        deny: Option<String>,
        /// A program served graphs may start as an MCP server (repeatable), exactly as graphs
        /// write it; also $SWITCHYARD_ALLOWED_COMMANDS (comma-separated).
        #[arg(long, value_name = "PROGRAM")]
        allow_command: Vec<String>,
    },
    /// Serve graphs through LangGraph's Agent Server API (starts `switchyard-server`, built
    /// beside this program).
    Server(ServerArgs),
    /// Start a run on a Restate server that serves `switchyard serve`; print its run id.
    Submit(SubmitArgs),
    /// Print a served run's record without its steps; exit by its status.
    Status(RunAt),
    /// Answer what a served run waits for.
    Answer(AnswerArgs),
    /// Print a served run's record, as `run` prints one; exit by its status.
    Record(RunAt),
    /// Fork a served run from the checkpoint after a step; print the new run's id.
    Fork(ForkArgs),
    /// Serve graphs as MCP tools, over stdio or Streamable HTTP (--listen).
    Mcp(McpArgs),
    /// Send a run record to an OpenTelemetry collector or tracing tool as traces (one per
    /// session), with its recorded times; where to is read from OTEL_EXPORTER_OTLP_ENDPOINT.
    Trace(TraceArgs),
}

#[derive(Args)]
pub struct TraceArgs {
    /// The run record (switchyard/run@1), e.g. one saved by `run --record` or downloaded
    /// from the editor.
    pub run: String,
    /// The graph the run belongs to, so node spans say each node's kind.
    #[arg(long, value_name = "GRAPH.json")]
    pub graph: Option<String>,
}

#[derive(Args)]
pub struct McpArgs {
    /// The graph documents; each is one tool, named after the graph's `name` (none needed
    /// with --authoring).
    #[arg(required_unless_present = "authoring")]
    pub graphs: Vec<String>,
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio (HOST:PORT, or :PORT for
    /// 127.0.0.1:PORT). Host and Origin headers are checked; a non-loopback address warns.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Add tools for writing graphs (validate, run with mock models, schema, Mermaid) and the
    /// format reference as a resource.
    #[arg(long)]
    pub authoring: bool,
    /// A program the graphs' stdio MCP servers may start (repeatable); also
    /// $SWITCHYARD_ALLOWED_COMMANDS, comma-separated.
    #[arg(long, value_name = "PROGRAM")]
    pub allow_command: Vec<String>,
}

/// `switchyard test FILE` runs a suite; `switchyard test add RUN.json --suite FILE` adds a case.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TestArgs {
    #[command(subcommand)]
    pub add: Option<TestCommand>,
    /// The suite file (switchyard/tests@1), usually GRAPH.tests.json beside the graph.
    #[arg(required = true, value_name = "FILE")]
    pub suite: Option<String>,
    /// The graph to test instead of the suite's `graph.path`; twice to compare two versions
    /// (A, then B) case by case.
    #[arg(long, value_name = "GRAPH.json")]
    pub graph: Vec<String>,
    /// Call the real model providers, HTTP services and MCP servers instead of replaying the
    /// recorded replies (keys from the environment, as for `run`).
    #[arg(long)]
    pub live: bool,
    /// Run the cases on N threads (default 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Also write the results as JUnit XML to FILE (one testcase a case).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print the results and the summary as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Run the rows of this JSON Lines dataset too (instead of the suite's `dataset`).
    #[arg(long, value_name = "FILE")]
    pub dataset: Option<String>,
    /// With --live: a program the graph may start as an MCP server (repeatable), as for `run`.
    #[arg(long, value_name = "PROGRAM")]
    pub allow_command: Vec<String>,
}

#[derive(Subcommand)]
pub enum TestCommand {
    /// Add a recorded run to a suite as a case (the suite is created when missing).
    Add(TestAddArgs),
}

#[derive(Args)]
pub struct TestAddArgs {
    /// A run record printed by `run` or `resume`, or written by --record, the editor or a server.
    pub run: String,
    /// The suite file to add the case to.
    #[arg(long, value_name = "FILE")]
    pub suite: String,
    /// The case's name (default: RUN.json's file name without `.json`).
    #[arg(long)]
    pub name: Option<String>,
    /// The graph the run belongs to, for a new suite's `graph` (default: NAME.json beside a
    /// suite called NAME.tests.json, if there is one).
    #[arg(long, value_name = "GRAPH.json")]
    pub graph: Option<String>,
}

#[derive(Args)]
pub struct DiffArgs {
    /// The first run record (A).
    pub a: String,
    /// The second run record (B).
    pub b: String,
    /// The graph both runs belong to, to name edges `from → to` rather than by index.
    #[arg(long, value_name = "GRAPH.json")]
    pub graph: Option<String>,
    /// Print the difference as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Which Restate ingress the client commands talk to.
#[derive(Args)]
pub struct Server {
    /// The Restate ingress's URL (default: $SWITCHYARD_SERVER, else http://127.0.0.1:18080).
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

#[derive(Args)]
pub struct SubmitArgs {
    /// The graph document (switchyard/graph@1); or leave it out and give --graph-hash.
    #[arg(required_unless_present = "graph_hash")]
    pub graph: Option<String>,
    /// Run a graph the server already has (sent with an earlier run), by its graph_hash.
    #[arg(long, value_name = "HASH", conflicts_with = "graph")]
    pub graph_hash: Option<String>,
    /// The run's input: JSON text, or @FILE to read it from a file.
    #[arg(long, value_name = "JSON|@FILE")]
    pub input: Option<String>,
    /// The new run's id (letters, digits, `-`, `_`, `.`; default: a fresh one).
    #[arg(long, value_name = "RUN_ID")]
    pub id: Option<String>,
    #[command(flatten)]
    pub server: Server,
}

#[derive(Args)]
pub struct RunAt {
    /// The run's id, as `submit` printed it.
    pub run_id: String,
    #[command(flatten)]
    pub server: Server,
}

#[derive(Args)]
pub struct AnswerArgs {
    /// The run's id.
    pub run_id: String,
    /// Answers for waiting human nodes: '{"node": value}' (or @FILE), as `resume --answer`.
    #[arg(long, value_name = "JSON|@FILE")]
    pub answer: String,
    #[command(flatten)]
    pub server: Server,
}

#[derive(Args)]
pub struct ForkArgs {
    /// The run to fork.
    pub run_id: String,
    /// Fork from the checkpoint after step N (0: before step 1).
    #[arg(long, value_name = "N")]
    pub from_step: u64,
    /// An update applied at the fork point through the reducers (or @FILE).
    #[arg(long, value_name = "JSON|@FILE")]
    pub set: Option<String>,
    /// The new run's id (default: a fresh one).
    #[arg(long, value_name = "RUN_ID")]
    pub id: Option<String>,
    #[command(flatten)]
    pub server: Server,
}

#[derive(Args)]
pub struct RunArgs {
    /// The graph document (switchyard/graph@1).
    pub graph: String,
    /// The run's input: JSON text, or @FILE to read it from a file.
    #[arg(long, value_name = "JSON|@FILE")]
    pub input: Option<String>,
    #[command(flatten)]
    pub driving: Driving,
}

#[derive(Args)]
pub struct ResumeArgs {
    /// A run record printed by `run` or `resume`, or written by --record (read, never
    /// modified unless it is also given as --record).
    pub run: String,
    /// The graph the run belongs to.
    #[arg(long)]
    pub graph: String,
    /// Answers for waiting human nodes: '{"node": value}', a form's as an object of its
    /// fields '{"node": {"field": value}}' (or @FILE).
    #[arg(long, value_name = "JSON|@FILE")]
    pub answer: Option<String>,
    /// Fork from the checkpoint after step N (0: before step 1).
    #[arg(long, value_name = "N")]
    pub from_step: Option<u64>,
    /// An update applied at the fork point through the reducers (or @FILE).
    #[arg(long, value_name = "JSON|@FILE")]
    pub set: Option<String>,
    /// Continue even though the graph changed since the run was recorded (its graph_hash
    /// differs); the new record carries the new graph's hash.
    #[arg(long)]
    pub allow_changed_graph: bool,
    #[command(flatten)]
    pub driving: Driving,
}

/// What `run` and `resume` share: how the run is driven and what it reports on the way.
#[derive(Args)]
pub struct Driving {
    /// Leave the steps out of the record printed on stdout (not out of --record's file).
    #[arg(long)]
    pub summary: bool,
    /// Write the full state on every step of the record (stdout and --record's file), as
    /// records were before snapshots, rather than only on the first and last steps and where
    /// the patches since the previous snapshot add up to the state's size.
    #[arg(long)]
    pub full_states: bool,
    /// Stop before the step that would run any of these nodes (interrupted, exit 3).
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub break_before: Vec<String>,
    /// Stop after a step that ran any of these nodes (interrupted, exit 3).
    #[arg(long, value_name = "ID,...", value_delimiter = ',')]
    pub break_after: Vec<String>,
    /// Keep the full record in FILE, replaced atomically when the run starts and after every
    /// step (status `running` until the run ends), so a crash or a kill loses at most the
    /// step in progress; `resume FILE` continues it. FILE keeps its permissions (a new one is
    /// 0600). A FILE that cannot be written at the start, or that is the graph or an @FILE
    /// input, is bad input (exit 2, nothing runs); a write failing later is one warning and
    /// the run goes on, but if FILE does not hold the final record the exit code is 1.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print one JSON line per finished step on stderr:
    /// {"step", "ran", "status" (the run's after the step), "duration_ms", "next"}.
    #[arg(long)]
    pub events: bool,
    /// Refuse input keys (and --set keys) that no state field declares (exit 2, nothing
    /// runs) instead of warning about each on stderr.
    #[arg(long)]
    pub strict: bool,
    /// Let the graph start PROGRAM as an MCP server (stdio), exactly as the document writes
    /// it; repeatable; also $SWITCHYARD_ALLOWED_COMMANDS (comma-separated). A graph naming a
    /// program not allowed is refused before the run (exit 2), and nothing starts.
    #[arg(long, value_name = "PROGRAM")]
    pub allow_command: Vec<String>,
}

impl Driving {
    /// Which steps of the record carry their state.
    pub fn states(&self) -> StepStates {
        if self.full_states { StepStates::Every } else { StepStates::Snapshots }
    }
}

/// `switchyard server`'s arguments, passed on to `switchyard-server` (docs/server.md).
#[derive(Args)]
pub struct ServerArgs {
    /// Graph documents, one assistant each (graph_id = the graph's name).
    #[arg(required = true, value_name = "GRAPH.json")]
    pub graphs: Vec<String>,
    /// The address to listen on (LangGraph's local port by default); any but loopback needs
    /// --token-file.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:2024")]
    pub listen: String,
    /// The SQLite file keeping threads, runs and checkpoints (default: the user's data
    /// folder, switchyard/server.sqlite); `:memory:` keeps nothing.
    #[arg(long, value_name = "FILE")]
    pub data: Option<String>,
    /// Run on a Restate server instead of the embedded store.
    #[arg(long, value_name = "URL")]
    pub restate: Option<String>,
    /// A file of bearer tokens, one a line; every request must carry one.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<String>,
    /// An origin browsers may call the API from (repeatable).
    #[arg(long, value_name = "ORIGIN")]
    pub cors_origin: Vec<String>,
    /// A program graphs may start as an MCP server (repeatable).
    #[arg(long, value_name = "PROGRAM")]
    pub allow_command: Vec<String>,
    /// Loopback or private addresses graphs and webhooks may reach, comma-separated (denied
    /// by default); also $SWITCHYARD_ALLOWED_ADDRESSES.
    #[arg(long, value_name = "LIST")]
    pub allow: Option<String>,
    /// Addresses graphs and webhooks never reach; also $SWITCHYARD_DENIED_ADDRESSES.
    #[arg(long, value_name = "LIST")]
    pub deny: Option<String>,
    /// Runs going at once (default 64); further runs wait their turn.
    #[arg(long, value_name = "N")]
    pub max_runs: Option<String>,
    /// Runs waiting for a turn (default 1024); past that a new run is refused (429).
    #[arg(long, value_name = "N")]
    pub max_waiting: Option<String>,
}
