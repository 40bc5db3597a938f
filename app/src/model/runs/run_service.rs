//! The live run as a service: the editor asks for a run to be started, loaded, stepped,
//! answered or dropped, and gets back what changed, as plain data. The Web Worker holds one
//! (so a long step never freezes the page); the page holds one itself when no worker can
//! start. Either way the run is driven by these requests only, which is what lets the page
//! stop a step by throwing the worker away and loading the run again from the steps it shows.

use std::rc::Rc;

use engine::host::Host;
use engine::record::{RunRecord, StepDoc};
use engine::run::{Breakpoints, InputError, Status, Waiting};
use engine::suite::{Case, CaseResult, Suite};
use engine::{Graph, Run, compile};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::case_service::CaseService;

/// What the editor asks of the live run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Request {
    /// A new run of `graph` with `input`.
    Start { graph: Box<Graph>, input: Value },
    /// The run `record` made of `graph`, rebuilt to go on from its last step; or, with
    /// `fork`, a new run forked from one of its steps.
    Load { graph: Box<Graph>, record: Box<RunRecord>, fork: Option<ForkAt> },
    /// One superstep, stopping at `breakpoints`; with a `budget_ms`, more steps after it
    /// while the run goes on and that much time has not passed (the fastest speed shows a
    /// batch at a time). The reply holds the steps after the `shown` first ones.
    Step {
        breakpoints: Breakpoints,
        shown: usize,
        #[serde(default)]
        budget_ms: f64,
    },
    /// The answer for the human node `node` waits for.
    Answer { node: String, value: Value },
    /// Forget the run.
    Drop,
    /// Get a test suite ready to run against `graph` (README, Tests and evaluations): its evaluators
    /// compiled, the graph planned, for the cases that follow.
    PrepareCases { graph: Box<Graph>, suite: Box<Suite> },
    /// Run one case of the prepared suite, with its recorded replies or `live`.
    RunCase { case: Box<Case>, live: bool },
}

/// Where a fork starts: a step of the loaded run, with values set in its state (none: the
/// state as it was).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForkAt {
    pub step: u64,
    pub values: Map<String, Value>,
}

/// What a request did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// The run as it is now.
    Run(Box<Update>),
    /// The request was refused; the run held before is kept.
    Refused(Refusal),
    /// The answer was taken; the run goes on at the next step.
    Answered,
    /// The run was forgotten.
    Dropped,
    /// The suite is ready for its cases.
    Prepared,
    /// What a case did, and its verdict.
    Case(Box<CaseResult>),
}

/// The run after a request: its head (the record without steps), the steps after those the
/// editor shows, and for a run just started, loaded or forked, every step and its first state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub record: RunRecord,
    pub steps: Vec<StepDoc>,
    pub initial: Option<Map<String, Value>>,
}

impl Update {
    /// Whether the run can make another step: it goes on, or it stopped at a breakpoint.
    pub fn head(&self) -> LiveHead {
        LiveHead { status: self.record.status, waiting: self.record.waiting.clone() }
    }
}

/// What the editor knows of the live run between requests: enough to say whether it can go on.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveHead {
    pub status: Status,
    pub waiting: Vec<Waiting>,
}

/// Why a request was refused, by what it asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Refusal {
    /// The graph has errors (the first one given).
    Graph { problems: usize, first: String },
    /// The input does not fit the graph.
    Input { error: InputError },
    /// The record cannot be rebuilt against the graph.
    Rebuild { error: InputError },
    /// The fork cannot start from that step.
    Fork { step: u64, error: InputError },
    /// The answer does not fit the form.
    Answer { error: InputError },
    /// There is no run to step or answer.
    NoRun,
    /// The suite cannot run against the graph (another graph's, an evaluator that does not
    /// compile): why.
    Suite { message: String },
    /// A case was sent before its suite was prepared.
    NoSuite,
}

/// The run a service holds.
#[derive(Default)]
pub struct RunService {
    run: Option<Run>,
    /// Test cases, run beside the live run (never touching it).
    cases: CaseService,
}

impl RunService {
    pub fn new() -> RunService {
        RunService::default()
    }

    /// Whether the service holds a run.
    #[cfg(test)]
    fn has_run(&self) -> bool {
        self.run.is_some()
    }

    /// Carries out `request`, with `host` for the run's effects.
    pub async fn handle(&mut self, request: Request, host: &dyn Host) -> Reply {
        match request {
            Request::Start { graph, input } => self.start(&graph, input, host),
            Request::Load { graph, record, fork } => self.load(&graph, &record, fork, host),
            Request::Step { breakpoints, shown, budget_ms } => self.step(breakpoints, shown, budget_ms, host).await,
            Request::Answer { node, value } => self.answer(&node, value),
            Request::Drop => {
                self.run = None;
                Reply::Dropped
            }
            Request::PrepareCases { graph, suite } => self.prepare_cases(&graph, &suite),
            Request::RunCase { case, live } => match self.cases.run(&case, live, host).await {
                Some(result) => Reply::Case(Box::new(result)),
                None => Reply::Refused(Refusal::NoSuite),
            },
        }
    }

    fn start(&mut self, graph: &Graph, input: Value, host: &dyn Host) -> Reply {
        let plan = match plan_of(graph) {
            Ok(p) => p,
            Err(r) => return Reply::Refused(r),
        };
        match Run::start(plan, input, host) {
            Ok(run) => self.hold(run),
            Err(error) => Reply::Refused(Refusal::Input { error }),
        }
    }

    fn load(&mut self, graph: &Graph, record: &RunRecord, fork: Option<ForkAt>, host: &dyn Host) -> Reply {
        let plan = match plan_of(graph) {
            Ok(p) => p,
            Err(r) => return Reply::Refused(r),
        };
        let source = match Run::from_record(plan, record, host) {
            Ok(r) => r,
            Err(error) => return Reply::Refused(Refusal::Rebuild { error }),
        };
        let Some(ForkAt { step, values }) = fork else { return self.hold(source) };
        let forked =
            if values.is_empty() { source.fork(step, None, host) } else { source.fork_with_values(step, values, host) };
        match forked {
            Ok(run) => self.hold(run),
            Err(error) => Reply::Refused(Refusal::Fork { step, error }),
        }
    }

    /// Keeps `run` as the live run, and describes it whole.
    fn hold(&mut self, run: Run) -> Reply {
        let mut record = run.record(false);
        let steps = run.step_docs(0);
        record.steps = None;
        let initial = run.state_at(0).map(|s| s.to_json());
        self.run = Some(run);
        Reply::Run(Box::new(Update { record, steps, initial }))
    }

    async fn step(&mut self, breakpoints: Breakpoints, shown: usize, budget_ms: f64, host: &dyn Host) -> Reply {
        let Some(run) = self.run.as_mut() else { return Reply::Refused(Refusal::NoRun) };
        run.set_breakpoints(breakpoints);
        let started = host.now_ms();
        loop {
            run.step(host).await;
            if run.status() != Status::Running || host.now_ms() - started >= budget_ms {
                break;
            }
        }
        Reply::Run(Box::new(Update { record: run.record(false), steps: run.step_docs(shown), initial: None }))
    }

    fn prepare_cases(&mut self, graph: &Graph, suite: &Suite) -> Reply {
        let plan = match plan_of(graph) {
            Ok(p) => p,
            Err(r) => return Reply::Refused(r),
        };
        match self.cases.prepare(plan, graph, suite) {
            Ok(()) => Reply::Prepared,
            Err(message) => Reply::Refused(Refusal::Suite { message }),
        }
    }

    fn answer(&mut self, node: &str, value: Value) -> Reply {
        let Some(run) = self.run.as_mut() else { return Reply::Refused(Refusal::NoRun) };
        match run.answer(node, value) {
            Ok(()) => Reply::Answered,
            Err(error) => Reply::Refused(Refusal::Answer { error }),
        }
    }
}

/// The plan of `graph`, or why it cannot run.
fn plan_of(graph: &Graph) -> Result<Rc<engine::Plan>, Refusal> {
    let compiled = compile(graph);
    match compiled.plan {
        Some(p) => Ok(Rc::new(p)),
        None => {
            let errors: Vec<String> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.path, d.message))
                .collect();
            Err(Refusal::Graph { problems: errors.len(), first: errors.first().cloned().unwrap_or_default() })
        }
    }
}

#[cfg(test)]
mod tests {
    use engine::host::OfflineHost;
    use serde_json::json;

    use super::*;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        futures_lite_block_on(f)
    }

    /// Drives a future that never waits on anything outside (an offline host's runs).
    fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output {
        use std::pin::pin;
        use std::task::{Context, Poll, Waker};
        let mut f = pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
        }
    }

    fn graph(text: &str) -> Graph {
        engine::parse::parse_graph(text).expect("a graph")
    }

    const COUNTING: &str = r#"{"format":"switchyard/graph@1","name":"count","state":{"n":{"type":"number","default":0},"reply":{"type":"string","default":""}},
        "nodes":[{"id":"start","kind":"start"},{"id":"count","kind":"set","set":{"n":"state.n + 1"}},
                 {"id":"again","kind":"set","set":{"n":"state.n + 1"}},
                 {"id":"ask","kind":"human","prompt":"go on?","writes":"reply"},{"id":"end","kind":"end"}],
        "edges":[{"from":"start","to":"count"},{"from":"count","to":"again"},{"from":"again","to":"ask"},{"from":"ask","to":"end"}]}"#;

    /// start → count → again (each adds 1 to n) → ask (a human node) → end.
    fn counting() -> Graph {
        graph(COUNTING)
    }

    fn step(s: &mut RunService, shown: usize) -> Update {
        match block_on(
            s.handle(Request::Step { breakpoints: Breakpoints::default(), shown, budget_ms: 0.0 }, &OfflineHost::new()),
        ) {
            Reply::Run(u) => *u,
            other => panic!("expected the run, got {other:?}"),
        }
    }

    #[test]
    fn a_run_is_started_stepped_answered_and_finished_through_requests_only() {
        let mut s = RunService::new();
        let host = OfflineHost::new();
        let Reply::Run(started) =
            block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host))
        else {
            panic!("not started")
        };
        assert!(started.steps.is_empty());
        assert_eq!(started.initial.as_ref().unwrap()["n"], json!(0));
        let first = step(&mut s, 0);
        assert_eq!(first.steps.len(), 1, "only the new step comes back");
        assert_eq!(first.record.state["n"], json!(1));
        let mut shown = 1;
        while step_status(&mut s, &mut shown) == Status::Running {}
        assert_eq!(s.run.as_ref().unwrap().status(), Status::Interrupted);
        let refused = block_on(s.handle(Request::Answer { node: "count".into(), value: json!("x") }, &host));
        assert!(matches!(refused, Reply::Refused(Refusal::Answer { .. })), "{refused:?}");
        let answered = block_on(s.handle(Request::Answer { node: "ask".into(), value: json!("yes") }, &host));
        assert_eq!(answered, Reply::Answered);
        while step_status(&mut s, &mut shown) == Status::Running {}
        let run = s.run.as_ref().unwrap();
        assert_eq!(run.status(), Status::Completed);
        assert_eq!(run.state_json()["reply"], json!("yes"));
    }

    fn step_status(s: &mut RunService, shown: &mut usize) -> Status {
        let u = step(s, *shown);
        *shown += u.steps.len();
        u.record.status
    }

    #[test]
    fn a_loaded_record_goes_on_where_it_stopped_and_a_fork_starts_from_its_step() {
        let host = OfflineHost::new();
        let mut first = RunService::new();
        block_on(first.handle(Request::Start { graph: Box::new(counting()), input: json!({"n": 10}) }, &host));
        step(&mut first, 0);
        let record = first.run.as_ref().unwrap().record(true);

        // A new service (a new worker) rebuilds the run from the record the page shows.
        let mut second = RunService::new();
        let Reply::Run(loaded) = block_on(second.handle(
            Request::Load { graph: Box::new(counting()), record: Box::new(record.clone()), fork: None },
            &host,
        )) else {
            panic!("not loaded")
        };
        assert_eq!(loaded.steps.len(), 1);
        let next = step(&mut second, 1);
        assert_eq!(next.steps[0].step, 2, "the step after the loaded ones");

        let fork = ForkAt { step: 1, values: json!({"n": 100}).as_object().unwrap().clone() };
        let Reply::Run(forked) =
            block_on(second.handle(
                Request::Load { graph: Box::new(counting()), record: Box::new(record), fork: Some(fork) },
                &host,
            ))
        else {
            panic!("not forked")
        };
        assert_ne!(forked.record.run_id, next.record.run_id);
        assert_eq!(forked.record.state["n"], json!(100));
    }

    #[test]
    fn a_step_with_a_budget_runs_on_until_the_time_is_spent_or_the_run_stops() {
        // Each reading of this clock moves it 1 ms on: a budget of 3 ms makes a few steps.
        let host = OfflineHost::with_tick(1.0);
        let mut s = RunService::new();
        block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host));
        let step = |s: &mut RunService, budget_ms| match block_on(
            s.handle(Request::Step { breakpoints: Breakpoints::default(), shown: 0, budget_ms }, &host),
        ) {
            Reply::Run(u) => *u,
            other => panic!("{other:?}"),
        };
        let batch = step(&mut s, 1000.0);
        assert_eq!(batch.steps.len(), 2, "count and again ran; the human node stopped the batch");
        assert_eq!(batch.record.status, Status::Interrupted);
        let mut one = RunService::new();
        block_on(one.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host));
        assert_eq!(step(&mut one, 0.0).steps.len(), 1, "no budget: one step");
    }

    #[test]
    fn refusals_say_what_was_wrong_and_keep_the_run_held() {
        let host = OfflineHost::new();
        let mut s = RunService::new();
        assert_eq!(
            block_on(s.handle(Request::Step { breakpoints: Breakpoints::default(), shown: 0, budget_ms: 0.0 }, &host)),
            Reply::Refused(Refusal::NoRun)
        );
        let broken = graph(&COUNTING.replace(r#""to":"again""#, r#""to":"nowhere""#));
        let reply = block_on(s.handle(Request::Start { graph: Box::new(broken), input: json!({}) }, &host));
        assert!(matches!(reply, Reply::Refused(Refusal::Graph { problems, .. }) if problems > 0), "{reply:?}");
        block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host));
        let reply =
            block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({"n": "many"}) }, &host));
        assert!(matches!(reply, Reply::Refused(Refusal::Input { .. })), "{reply:?}");
        assert!(s.has_run(), "a refused start keeps the run held before");
        assert_eq!(block_on(s.handle(Request::Drop, &host)), Reply::Dropped);
        assert!(!s.has_run());
    }

    #[test]
    fn a_run_made_a_case_runs_through_requests_and_its_verdict_survives_the_trip() {
        let host = OfflineHost::new();
        let mut s = RunService::new();
        block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host));
        let mut shown = 0;
        while step_status(&mut s, &mut shown) == Status::Running {}
        block_on(s.handle(Request::Answer { node: "ask".into(), value: json!("yes") }, &host));
        while step_status(&mut s, &mut shown) == Status::Running {}
        let case = engine::suite::case_from_record(&s.run.as_ref().unwrap().record(true), "yes");

        let run_case = |s: &mut RunService| {
            block_on(s.handle(Request::RunCase { case: Box::new(case.clone()), live: false }, &host))
        };
        assert_eq!(run_case(&mut s), Reply::Refused(Refusal::NoSuite), "a case needs its suite prepared first");
        let suite =
            engine::suite::parse_suite(r#"{"format": "switchyard/tests@1", "graph": {"name": "other"}}"#).unwrap();
        let other = block_on(
            s.handle(Request::PrepareCases { graph: Box::new(counting()), suite: Box::new(suite.clone()) }, &host),
        );
        assert!(
            matches!(&other, Reply::Refused(Refusal::Suite { message }) if message.contains("another graph")),
            "{other:?}"
        );
        let mut suite = suite;
        suite.graph.name = "count".into();
        let prepared =
            block_on(s.handle(Request::PrepareCases { graph: Box::new(counting()), suite: Box::new(suite) }, &host));
        assert_eq!(prepared, Reply::Prepared);
        let reply = run_case(&mut s);
        let Reply::Case(result) = &reply else { panic!("{reply:?}") };
        assert!(result.passed, "{:?}", result.failures);
        assert_eq!(result.record.state["reply"], json!("yes"));
        assert_eq!(serde_json::from_str::<Reply>(&serde_json::to_string(&reply).unwrap()).unwrap(), reply);
        assert!(s.has_run(), "the live run is left alone");
    }

    #[test]
    fn requests_and_replies_survive_the_trip_between_page_and_worker() {
        let host = OfflineHost::new();
        let mut s = RunService::new();
        let Reply::Run(u) = block_on(s.handle(Request::Start { graph: Box::new(counting()), input: json!({}) }, &host))
        else {
            panic!()
        };
        let reply = Reply::Run(u);
        let text = serde_json::to_string(&reply).unwrap();
        assert_eq!(serde_json::from_str::<Reply>(&text).unwrap(), reply);
        let request = Request::Load {
            graph: Box::new(counting()),
            record: Box::new(s.run.as_ref().unwrap().record(true)),
            fork: None,
        };
        let text = serde_json::to_string(&request).unwrap();
        assert!(matches!(serde_json::from_str::<Request>(&text).unwrap(), Request::Load { .. }));
    }
}
