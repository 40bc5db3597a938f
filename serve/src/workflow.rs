//! `GraphRun`, the workflow of one run, keyed by run id (cli.md).
//!
//! | handler | kind | what it does |
//! |---|---|---|
//! | `run` | the workflow's body, once per run | claims its id, reads the graph (or fetches a registered one by hash), runs it step by step on an engine thread, journals every effect, keeps the record after every step, waits on a durable promise while a human node waits |
//! | `status` | shared | the record without its steps |
//! | `record` | shared | the whole record, as `switchyard run` prints it |
//! | `answer` | shared | checks answers against what waits, as `switchyard resume --answer` would, claims the wait (one answer takes it), then resolves the promise the run waits on |
//! | `fork` | shared | claims the new run's id, starts it from this one's record at a step with `--set` applied there, and answers once it has started |
//! | `proceed` | shared | as `answer`, and also goes on from a breakpoint (no answer needed), with new breakpoints if given |
//! | `cancel` | shared | ends the run after its current step, or at once while it waits |
//! | `progress` | shared | the record so far with how many stops, whether it waits, was cancelled, has ended |

use std::time::Duration;

use engine::RunRecord;
use engine::host::{HttpRequest, McpExchange, OfflineHost};
use restate_sdk::prelude::*;
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::claims::{IdClaim, RunClaimsClient, SUBMITTED};
use crate::driver::{self, ForkFrom, Origin, Resume, Start};
use crate::graphs::GraphStoreClient;
use crate::limits;
use crate::load::{Refusal, plan_of};
use crate::messages::{Exchange, McpJournal, ToHandler};
use crate::protocol::{ForkOf, ForkRequest, Proceed, Progress, RunRequest, StartState};
use crate::store::{
    self, ANSWER_ERROR, AWAITING, Awaiting, CANCEL, CANCELLED, ENDED, FROM, GRAPH, REFUSED, STOPS, SUMMARY,
};

pub struct GraphRun;

#[restate_sdk::workflow(
    name = "GraphRun",
    // A run whose service is gone (killed, redeployed) is retried with back-off up to a
    // minute apart; one that still fails after that is paused, not killed: nothing it did is
    // lost, and an operator resumes it.
    invocation_retry_policy(initial_interval = "100ms", max_interval = "60s", factor = 2.0, max_attempts = 50, on_max_attempts = "pause"),
    // A finished run's record stays readable for a week.
    workflow_completion_retention = "7 days"
)]
impl GraphRun {
    #[handler]
    async fn run(&self, ctx: WorkflowContext<'_>, request: Json<RunRequest>) -> HandlerResult<Json<RunRecord>> {
        let request = request.into_inner();
        let ticket = request.fork.as_ref().and_then(|f| f.started.clone());
        let started = claim_id(&ctx, ticket).await?;
        let (document, origin) = match origin(&ctx, &request).await {
            Ok(started) => started,
            Err(e) => return Err(refuse(&ctx, started.as_deref(), e)),
        };
        let inline = request.graph.is_some();
        let (to_handler, mut from_engine) = mpsc::unbounded_channel();
        let (answers, answers_rx) = mpsc::unbounded_channel();
        let wall_ms = wall_clock(&ctx).await?;
        let start = Start { origin, stop_at: request.stop_at.clone(), max_steps: request.max_steps, wall_ms };
        driver::spawn(document.clone(), start, ctx.key().to_string(), to_handler, answers_rx);
        let mut counts = Counts::default();
        let mut latest: Option<RunRecord> = None;
        while let Some(message) = from_engine.recv().await {
            match message {
                ToHandler::Http(request, reply) => {
                    let _ = reply.send(perform(&ctx, request, &mut counts).await?);
                }
                ToHandler::Sleep(ms, reply) => {
                    ctx.sleep(Duration::from_millis(ms)).await?;
                    let _ = reply.send(());
                }
                ToHandler::Mcp(exchange, reply) => {
                    let _ = reply.send(perform_mcp(&ctx, exchange, &mut counts).await?);
                }
                ToHandler::McpClose { endpoint, connection, session_id } => {
                    crate::effects::mcp_close(endpoint, connection, session_id).await;
                }
                ToHandler::Started { summary, steps } => {
                    if let (true, Some(hash)) = (inline, summary.graph_hash.as_deref()) {
                        // Later runs may name the graph by its hash.
                        ctx.object_client::<GraphStoreClient>(hash).put(Json(document.clone())).send();
                    }
                    latest = Some((*summary).clone());
                    keep(&ctx, *summary, 0, steps);
                    if let Some(awakeable) = &started {
                        ctx.resolve_awakeable(awakeable, ctx.key().to_string());
                    }
                }
                ToHandler::Stepped { summary, first, steps } => {
                    latest = Some((*summary).clone());
                    keep(&ctx, *summary, first, steps);
                    if ctx.peek_promise::<String>(CANCEL).await?.is_some() {
                        return end_cancelled(&ctx, latest);
                    }
                }
                ToHandler::Waiting { nodes, breakpoint } => {
                    match wait_for_answers(&ctx, nodes, breakpoint, &mut counts).await? {
                        Some(proceed) => {
                            let wall_ms = wall_clock(&ctx).await?;
                            drop(answers.send(Resume { proceed, wall_ms }));
                        }
                        None => return end_cancelled(&ctx, latest),
                    }
                }
                ToHandler::AnswerRefused(message) => ctx.set(ANSWER_ERROR, message),
                ToHandler::Finished { summary, last } => {
                    let (first, steps) = last.map_or((0, Vec::new()), |(i, step)| (i, vec![*step]));
                    keep(&ctx, (*summary).clone(), first, steps);
                    ctx.set(ENDED, true);
                    return Ok(Json(*summary));
                }
                ToHandler::Invalid(refusal) => {
                    return Err(refuse(&ctx, started.as_deref(), TerminalError::from(refusal)));
                }
            }
        }
        Err(TerminalError::new_with_code(500, "the run's engine stopped without a result").into())
    }

    #[handler]
    async fn status(&self, ctx: SharedWorkflowContext<'_>) -> HandlerResult<Json<RunRecord>> {
        match store::summary(&ctx).await? {
            Some(summary) => Ok(Json(summary)),
            None => Err(absent(&ctx).await?.into()),
        }
    }

    #[handler]
    async fn record(&self, ctx: SharedWorkflowContext<'_>) -> HandlerResult<Json<RunRecord>> {
        match store::record(&ctx).await? {
            Some(record) => Ok(Json(record)),
            None => Err(absent(&ctx).await?.into()),
        }
    }

    #[handler]
    async fn answer(
        &self,
        ctx: SharedWorkflowContext<'_>,
        given: Json<Map<String, Value>>,
    ) -> HandlerResult<Json<Vec<String>>> {
        give(&ctx, Proceed { answers: given.into_inner(), stop_at: None }).await
    }

    #[handler]
    async fn proceed(&self, ctx: SharedWorkflowContext<'_>, go: Json<Proceed>) -> HandlerResult<Json<Vec<String>>> {
        give(&ctx, go.into_inner()).await
    }

    /// `true` when the run will end (after its current step, or now if it waits); `false` when
    /// it had ended already.
    #[handler]
    async fn cancel(&self, ctx: SharedWorkflowContext<'_>) -> HandlerResult<bool> {
        if store::summary(&ctx).await?.is_none() {
            return Err(absent(&ctx).await?.into());
        }
        if store::flag(&ctx, ENDED).await? {
            return Ok(false);
        }
        if ctx.peek_promise::<String>(CANCEL).await?.is_none() {
            ctx.resolve_promise::<String>(CANCEL, "cancelled".to_string());
        }
        Ok(true)
    }

    #[handler]
    async fn progress(&self, ctx: SharedWorkflowContext<'_>) -> HandlerResult<Json<Progress>> {
        let Some(record) = store::record(&ctx).await? else {
            return Err(absent(&ctx).await?.into());
        };
        Ok(Json(Progress {
            record,
            stops: ctx.get::<u32>(STOPS).await?.unwrap_or(0),
            waiting: ctx.get::<Json<Awaiting>>(AWAITING).await?.is_some(),
            cancelled: store::flag(&ctx, CANCELLED).await?,
            ended: store::flag(&ctx, ENDED).await?,
            from: store::from(&ctx).await?,
        }))
    }

    #[handler]
    async fn fork(&self, mut ctx: SharedWorkflowContext<'_>, request: Json<ForkRequest>) -> HandlerResult<String> {
        let ForkRequest { from_step, set, run_id, stop_at, max_steps } = request.into_inner();
        if let Some(set) = &set {
            limits::check_size("set", &Value::Object(set.clone()), limits::MAX_STATE_BYTES).map_err(Refusal::from)?;
        }
        let (Some(record), Some(document)) = (store::record(&ctx).await?, store::graph(&ctx).await?) else {
            return Err(no_run(&ctx).into());
        };
        // Checked here, so that a bad fork point is refused to the caller, not left to fail
        // in a run nobody waits for.
        check_fork(document.clone(), store::from(&ctx).await?.as_ref(), &record, from_step, set.clone())?;
        let new_id = match run_id {
            Some(id) => free_run_id(&ctx, id).await?,
            None => ctx.rand_uuid().to_string(),
        };
        // The id is claimed before the run is sent (a run sent to a used id is dropped
        // silently), and the fork reported only once its run has started.
        let (started, fork_started) = ctx.awakeable::<String>();
        let claim = IdClaim { ticket: started.clone(), awakeable: Some(started.clone()) };
        if !ctx.object_client::<RunClaimsClient>(new_id.as_str()).fork(Json(claim)).call().await? {
            return Err(taken(&new_id).into());
        }
        let fork = ForkOf { run_id: ctx.key().to_string(), from_step, set, started: Some(started), record: None };
        let request = RunRequest {
            graph: Some(document),
            graph_hash: None,
            input: None,
            fork: Some(fork),
            from: None,
            stop_at,
            max_steps,
        };
        ctx.workflow_client::<GraphRunClient>(new_id.as_str()).run(Json(request)).send();
        Ok(fork_started.await?)
    }
}

/// How many effects and waits the run has had: each names its journal entry or promise, the
/// same on every replay.
#[derive(Default)]
struct Counts {
    effects: u32,
    waits: u32,
}

/// The time of day (Unix-epoch ms) as a journaled step: read once, the same on every replay.
/// The run's host stamps its steps and calls from it (`host.rs`).
async fn wall_clock(ctx: &WorkflowContext<'_>) -> Result<f64, HandlerError> {
    Ok(ctx.run(|| async { Ok(epoch_now_ms()) }).name("wall clock").await?)
}

fn epoch_now_ms() -> f64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Performs an HTTP request as a journaled step: on a replay, its reply comes from the
/// journal.
async fn perform(
    ctx: &WorkflowContext<'_>,
    mut request: HttpRequest,
    counts: &mut Counts,
) -> Result<Exchange, HandlerError> {
    counts.effects += 1;
    let name = effect_name(counts.effects, &request);
    idempotency_key(&mut request, ctx.key(), counts.effects);
    let Json(exchange) = ctx.run(|| async move { Ok(Json(crate::effects::send(request).await)) }).name(name).await?;
    Ok(exchange)
}

/// Carries out an MCP exchange as one journaled step, named by its server and first method.
async fn perform_mcp(
    ctx: &WorkflowContext<'_>,
    exchange: McpExchange,
    counts: &mut Counts,
) -> Result<McpJournal, HandlerError> {
    counts.effects += 1;
    let name = mcp_effect_name(counts.effects, &exchange);
    let Json(journal) = ctx.run(|| async move { Ok(Json(crate::effects::mcp(exchange).await)) }).name(name).await?;
    Ok(journal)
}

/// Keeps the summary and `steps`, the first of them being step `first`.
fn keep(ctx: &WorkflowContext<'_>, summary: RunRecord, first: usize, steps: Vec<engine::record::StepDoc>) {
    store::keep_steps(ctx, first, steps);
    ctx.set(SUMMARY, Json(summary));
}

/// Says what the run waits for (for the `answer` and `proceed` handlers), and waits on a new
/// durable promise for the answers, or on a cancellation (`None`).
async fn wait_for_answers(
    ctx: &WorkflowContext<'_>,
    nodes: Vec<String>,
    breakpoint: bool,
    counts: &mut Counts,
) -> Result<Option<Proceed>, HandlerError> {
    counts.waits += 1;
    let promise = format!("answer-{}", counts.waits);
    ctx.set(AWAITING, Json(Awaiting { promise: promise.clone(), nodes, breakpoint }));
    ctx.set(STOPS, counts.waits);
    let outcome = restate_sdk::select! {
        given = ctx.promise::<Json<Proceed>>(&promise) => Some(given?.into_inner()),
        _ = ctx.promise::<String>(CANCEL) => None,
    };
    ctx.clear(AWAITING);
    Ok(outcome)
}

/// Ends a cancelled run: its record stays as it was after its last step.
fn end_cancelled(ctx: &WorkflowContext<'_>, latest: Option<RunRecord>) -> HandlerResult<Json<RunRecord>> {
    ctx.set(CANCELLED, true);
    ctx.set(ENDED, true);
    ctx.clear(AWAITING);
    latest.map(Json).ok_or_else(|| TerminalError::new_with_code(409, "the run was cancelled before it started").into())
}

/// Gives a stopped run what it goes on with: answers checked as `switchyard resume --answer`
/// checks them, and claimed (one answer takes a wait); at a breakpoint, no answer is needed.
async fn give(ctx: &SharedWorkflowContext<'_>, go: Proceed) -> HandlerResult<Json<Vec<String>>> {
    let given = &go.answers;
    limits::check_size("answer", &Value::Object(given.clone()), limits::MAX_STATE_BYTES).map_err(Refusal::from)?;
    let Some(awaiting) = ctx.get::<Json<Awaiting>>(AWAITING).await?.map(Json::into_inner) else {
        return Err(not_waiting(ctx).await?.into());
    };
    if given.is_empty() && !(awaiting.breakpoint && awaiting.nodes.is_empty()) {
        return Err(Refusal::BadInput(format!(
            "answer: give at least one answer, {{\"node\": answer}}; the run waits for {}",
            awaiting.nodes.join(", ")
        ))
        .into());
    }
    check_answers(ctx, &awaiting, given).await?;
    // Of two answers at once, one is taken; the other would be dropped without a word.
    if !ctx.object_client::<RunClaimsClient>(ctx.key()).answer(awaiting.promise.clone()).call().await? {
        return Err(Refusal::Conflict(format!(
            "answer: another answer to this wait (for {}) was taken first; the run goes on with it",
            awaiting.nodes.join(", ")
        ))
        .into());
    }
    let answered: Vec<String> = given.keys().cloned().collect();
    ctx.resolve_promise::<Json<Proceed>>(&awaiting.promise, Json(go));
    Ok(Json(answered))
}

/// Whether the run of `record` can be forked after `from_step` with `set` (an engine `Run`
/// is not `Send`: it lives and dies here, between two awaits).
fn check_fork(
    document: Value,
    from: Option<&StartState>,
    record: &RunRecord,
    from_step: u64,
    set: Option<Map<String, Value>>,
) -> Result<(), Refusal> {
    let (plan, _) = plan_of(document)?;
    let original =
        driver::rebuild(std::rc::Rc::new(plan), from, record).map_err(|e| Refusal::BadInput(format!("record: {e}")))?;
    match original.fork(from_step, set, &OfflineHost::new()) {
        Ok(_) => Ok(()),
        Err(e) => Err(Refusal::BadInput(format!("from_step/set: {e}"))),
    }
}

/// `id`, if no run has it yet.
async fn free_run_id(ctx: &SharedWorkflowContext<'_>, id: String) -> Result<String, HandlerError> {
    match ctx.workflow_client::<GraphRunClient>(id.as_str()).status().call().await {
        Ok(_) => Err(taken(&id).into()),
        Err(_) => Ok(id),
    }
}

fn taken(id: &str) -> Refusal {
    Refusal::Conflict(format!("run_id: a run with the id {id} exists already"))
}

/// Claims the run's id for this run ([`crate::claims`]), first thing, whatever comes next:
/// a fork that claimed it before, and whose own run was dropped as this one has the id, is
/// told. `ticket` is the one a fork's request carries. The awakeable the `fork` handler
/// waits on, if this run is its fork.
async fn claim_id(ctx: &WorkflowContext<'_>, ticket: Option<String>) -> Result<Option<String>, HandlerError> {
    let ticket = ticket.unwrap_or_else(|| SUBMITTED.to_string());
    let Json(claim) = ctx.object_client::<RunClaimsClient>(ctx.key()).run(ticket).call().await?;
    if let Some(awakeable) = claim.dropped {
        ctx.reject_awakeable(&awakeable, TerminalError::from(taken(ctx.key())));
    }
    Ok(claim.own)
}

/// The run's graph document (kept in the run's state) and what the run starts from: its
/// input, or the run it forks.
async fn origin(ctx: &WorkflowContext<'_>, request: &RunRequest) -> Result<(Value, Origin), TerminalError> {
    let document = graph_document(ctx, request).await?;
    ctx.set(GRAPH, Json(document.clone()));
    let Some(fork) = &request.fork else {
        let input = request.input.clone().unwrap_or_else(|| Value::Object(Map::new()));
        limits::check_size("input", &input, limits::MAX_STATE_BYTES).map_err(Refusal::from)?;
        if let Some(from) = &request.from {
            let state = Value::Object(from.state.clone());
            limits::check_size("from.state", &state, limits::MAX_STATE_BYTES).map_err(Refusal::from)?;
            ctx.set(FROM, Json(from.clone()));
        }
        return Ok((document, Origin::Input { input, from: request.from.clone() }));
    };
    if fork.record.is_some() {
        return Err(Refusal::BadInput(
            "fork.record: a request cannot bring a record to fork from; a fork starts from a run the service \
             holds (GraphRun/{run id}/fork)"
                .into(),
        )
        .into());
    }
    if fork.run_id.is_empty() {
        return Err(Refusal::BadInput("fork.run_id: missing (the id of the run to fork)".into()).into());
    }
    let progress = ctx.workflow_client::<GraphRunClient>(fork.run_id.as_str()).progress().call().await;
    let Json(Progress { record, from, .. }) =
        progress.map_err(|e| TerminalError::new_with_code(e.code(), format!("fork.run_id: {}", e.message())))?;
    if let Some(from) = &from {
        ctx.set(FROM, Json(from.clone()));
    }
    let (_, hash) = plan_of(document.clone())?;
    if record.graph_hash.as_deref() != Some(hash.as_str()) {
        return Err(Refusal::BadInput(format!(
            "fork: the run {} ran the graph “{}” (graph_hash {}), not the graph sent with this request",
            fork.run_id,
            record.graph,
            record.graph_hash.as_deref().unwrap_or("unknown")
        ))
        .into());
    }
    let from = ForkFrom { record, from_step: fork.from_step, set: fork.set.clone(), from };
    Ok((document, Origin::Fork(Box::new(from))))
}

/// The run's refusal `e`, kept for `status` and passed to the `fork` handler waiting on
/// `started` if it is a fork.
fn refuse(ctx: &WorkflowContext<'_>, started: Option<&str>, e: TerminalError) -> HandlerError {
    ctx.set(REFUSED, Json((e.code(), e.message().to_string())));
    if let Some(awakeable) = started {
        ctx.reject_awakeable(awakeable, TerminalError::new_with_code(e.code(), e.message()));
    }
    e.into()
}

/// The request's graph document: sent with it, or registered before under its hash.
async fn graph_document(ctx: &WorkflowContext<'_>, request: &RunRequest) -> Result<Value, TerminalError> {
    match (&request.graph, &request.graph_hash) {
        (Some(document), None) => Ok(document.clone()),
        (None, Some(hash)) => {
            let Json(found) = ctx.object_client::<GraphStoreClient>(hash.as_str()).get().call().await?;
            found.ok_or_else(|| Refusal::BadGraph(format!("no graph is registered as {hash}")).into())
        }
        (Some(_), Some(_)) => Err(Refusal::BadInput("give either graph or graph_hash, not both".into()).into()),
        (None, None) => Err(Refusal::BadInput("graph: missing (or name a registered one by graph_hash)".into()).into()),
    }
}

/// Each answer checked as `switchyard resume --answer` checks it, against the run rebuilt
/// from its record: a node that does not wait is a conflict, a wrong answer bad input.
async fn check_answers(
    ctx: &SharedWorkflowContext<'_>,
    awaiting: &Awaiting,
    given: &Map<String, Value>,
) -> Result<(), HandlerError> {
    if let Some(node) = given.keys().find(|n| !awaiting.nodes.contains(n)) {
        return Err(Refusal::Conflict(format!(
            "answer.{node}: `{node}` is not waiting for an answer (waiting: {})",
            awaiting.nodes.join(", ")
        ))
        .into());
    }
    let (Some(record), Some(document)) = (store::record(ctx).await?, store::graph(ctx).await?) else {
        return Err(no_run(ctx).into());
    };
    let from = store::from(ctx).await?;
    let (plan, _) = plan_of(document)?;
    let mut run = driver::rebuild(std::rc::Rc::new(plan), from.as_ref(), &record)
        .map_err(|e| Refusal::BadInput(format!("record: {e}")))?;
    for (node, value) in given {
        run.answer(node, value.clone()).map_err(|e| Refusal::BadInput(e.to_string()))?;
    }
    Ok(())
}

/// Why the run has no record: its refusal, as the run answered it (a refused run keeps its
/// id while Restate keeps the ended workflow), or no such run (yet).
async fn absent(ctx: &SharedWorkflowContext<'_>) -> Result<TerminalError, HandlerError> {
    Ok(match ctx.get::<Json<(u16, String)>>(REFUSED).await? {
        Some(Json((code, why))) => TerminalError::new_with_code(code, why),
        None => no_run(ctx).into(),
    })
}

fn no_run(ctx: &SharedWorkflowContext<'_>) -> Refusal {
    Refusal::NotFound(format!("no run has the id {} (or it has not started yet)", ctx.key()))
}

/// Why an answer finds nothing waiting.
async fn not_waiting(ctx: &SharedWorkflowContext<'_>) -> Result<Refusal, HandlerError> {
    Ok(match ctx.get::<Json<RunRecord>>(SUMMARY).await? {
        None => no_run(ctx),
        Some(Json(summary)) => Refusal::Conflict(format!(
            "the run is not waiting for an answer (status: {}, step {})",
            summary.status.name(),
            summary.step
        )),
    })
}

/// Names the call for servers that take an `Idempotency-Key`: a call in flight when the
/// service died is sent again after the replay (its reply never reached the journal), with
/// the same key, so such a server does it once. A key the graph sets is kept.
fn idempotency_key(request: &mut HttpRequest, run_id: &str, n: u32) {
    if !request.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("idempotency-key")) {
        request.headers.push(("Idempotency-Key".into(), format!("{run_id}/{n}")));
    }
}

/// An MCP exchange's journal entry name: which effect, which server, its first method.
fn mcp_effect_name(n: u32, exchange: &McpExchange) -> String {
    let first = exchange.send.first().and_then(|m| serde_json::from_str::<Value>(m).ok());
    let method = first.as_ref().and_then(|m| m.get("method")).and_then(Value::as_str).unwrap_or("messages");
    let server: String = exchange.server.chars().take(60).collect();
    format!("mcp #{n} {server} {method}")
}

/// A journal entry's name: which call, to where (the URL cut short).
fn effect_name(n: u32, request: &HttpRequest) -> String {
    let url: String = request.url.chars().take(120).collect();
    format!("http #{n} {} {url}", request.method)
}
