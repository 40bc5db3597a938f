//! A LangGraph run started on a thread. What the request asks decides which `GraphRun` it
//! drives:
//!
//! | request | what happens |
//! |---|---|
//! | `command.resume` | the thread's newest `GraphRun` waits for a person: it gets the answers (`proceed`) and goes on |
//! | no input, the thread stopped at a breakpoint | the same `GraphRun` goes on (`proceed` without answers) |
//! | no input, the thread waits for an answer | nothing runs: the run ends at once with the same interrupt |
//! | `checkpoint_id`, no input | a fork of that checkpoint's `GraphRun` from that step |
//! | an input (at the newest checkpoint, or at `checkpoint_id`) | a new `GraphRun` from that checkpoint's values with the input applied |
//!
//! `update_state` is a fork with the values set, stopped before anything runs. A thread runs
//! one run at a time: a run asked for while one goes on is refused (409).

use serde_json::{Map, Value};

use crate::client::RestateThreads;
use crate::client::clock;
pub use crate::client::doc::RunStart;
use crate::client::doc::{Checkpoint, Segment, Source, ThreadDoc, ThreadRun};
use crate::client::ingress::Failure;
use crate::client::view::CheckpointView;
use crate::protocol::{ForkRequest, Proceed, RunRequest, StartState, StopAt};

/// Which `GraphRun` a run drives.
enum Launch {
    /// The waiting one goes on.
    Proceed { graph_run: String, stops: u32, step: u64, answers: Map<String, Value> },
    /// A new one, from a checkpoint's values (none: the defaults).
    Fresh { at: Option<CheckpointView>, input: Value },
    /// A fork of a checkpoint.
    Fork { at: CheckpointView },
    /// Nothing runs: the thread waits for an answer, and the run ends at once with that
    /// interrupt (as LangGraph's does, running into the same `interrupt()` again).
    Report { graph_run: String, stops: u32, step: u64 },
}

impl RestateThreads {
    /// Starts a run on the thread as `start` asks; the run as the thread keeps it.
    pub fn start_run(&self, thread_id: &str, start: RunStart) -> Result<ThreadRun, Failure> {
        let doc = self.thread(thread_id)?;
        self.refuse_if_busy(&doc)?;
        let stop_at = stop_at(&start);
        let run_id = start.run_id.clone().unwrap_or_else(clock::new_id);
        match self.launch_of(&doc, &start)? {
            Launch::Proceed { graph_run, stops, step, answers } => {
                let go = Proceed { answers, stop_at: Some(stop_at) };
                let _: Value = self.ingress.call("GraphRun", &graph_run, "proceed", Some(&go)).map_err(as_invalid)?;
                let run = thread_run(&run_id, &graph_run, &start, stops, step);
                self.change(thread_id, |doc| {
                    doc.runs.push(run.clone());
                    Ok(())
                })?;
                Ok(run)
            }
            Launch::Report { graph_run, stops, step } => {
                let run = thread_run(&run_id, &graph_run, &start, stops.saturating_sub(1), step);
                self.change(thread_id, |doc| {
                    doc.runs.push(run.clone());
                    Ok(())
                })?;
                Ok(run)
            }
            Launch::Fresh { at, input } => self.fresh(thread_id, &run_id, &start, at, input, stop_at),
            Launch::Fork { at } => {
                let graph_run = clock::new_id();
                let segment = segment_at(&graph_run, &at, Source::Fork);
                let run = thread_run(&run_id, &graph_run, &start, 0, at.checkpoint.step);
                self.record_start(thread_id, segment, run.clone())?;
                let fork = ForkRequest {
                    from_step: at.checkpoint.step,
                    set: None,
                    run_id: Some(graph_run.clone()),
                    stop_at: Some(stop_at),
                    max_steps: start.max_steps,
                };
                if let Err(e) =
                    self.ingress.call::<_, String>("GraphRun", &at.checkpoint.graph_run, "fork", Some(&fork))
                {
                    self.forget(thread_id, &graph_run)?;
                    return Err(as_invalid(e));
                }
                Ok(run)
            }
        }
    }

    /// A new `GraphRun` of `input`, from `at`'s values.
    fn fresh(
        &self,
        thread_id: &str,
        run_id: &str,
        start: &RunStart,
        at: Option<CheckpointView>,
        input: Value,
        stop_at: StopAt,
    ) -> Result<ThreadRun, Failure> {
        // Input messages' ids name the run's step 0 on the thread.
        let from = at.as_ref().map(|c| StartState { state: c.values.clone(), step: (c.thread_step + 2).max(0) as u64 });
        self.check_input(&start.graph, from.as_ref(), &input)?;
        let graph_run = clock::new_id();
        let segment = match &at {
            Some(at) => segment_at(&graph_run, at, Source::Input),
            None => Segment {
                graph_run: graph_run.clone(),
                first: 0,
                base: 0,
                parent: None,
                source: Source::Input,
                created_at: clock::now(),
            },
        };
        let run = thread_run(run_id, &graph_run, start, 0, 0);
        self.record_start(thread_id, segment, run.clone())?;
        let request = RunRequest {
            graph: Some(start.graph.clone()),
            graph_hash: None,
            input: Some(input),
            fork: None,
            from,
            stop_at: Some(stop_at),
            max_steps: start.max_steps,
        };
        self.ingress.send("GraphRun", &graph_run, "run", &request)?;
        Ok(run)
    }

    /// The input checked as the run will check it, so that a bad one is refused (422) before
    /// anything is kept.
    fn check_input(&self, graph: &Value, from: Option<&StartState>, input: &Value) -> Result<(), Failure> {
        let (plan, _) = crate::load::served_plan(graph.clone()).map_err(|r| Failure::invalid(r.message()))?;
        let host = engine::OfflineHost::new();
        let plan = std::rc::Rc::new(plan);
        let started = match from {
            None => engine::Run::start(plan, input.clone(), &host),
            Some(f) => {
                let at = engine::run::StartFrom { state: &f.state, step: f.step };
                engine::Run::start_from(plan, at, input.clone(), &host)
            }
        };
        started.map(drop).map_err(|e| Failure::invalid(e.to_string()))
    }

    /// Keeps the new segment and run, unless a run started meanwhile (409).
    fn record_start(&self, thread_id: &str, segment: Segment, run: ThreadRun) -> Result<(), Failure> {
        self.change(thread_id, |doc| {
            self.refuse_if_busy(doc)?;
            doc.segments.push(segment.clone());
            doc.runs.push(run.clone());
            Ok(())
        })?;
        Ok(())
    }

    /// Forgets a segment (and its run) whose `GraphRun` was refused.
    fn forget(&self, thread_id: &str, graph_run: &str) -> Result<(), Failure> {
        self.change(thread_id, |doc| {
            doc.segments.retain(|s| s.graph_run != graph_run);
            doc.runs.retain(|r| r.graph_run != graph_run);
            Ok(())
        })?;
        Ok(())
    }

    /// 409 while the thread's newest run goes on.
    pub(crate) fn refuse_if_busy(&self, doc: &ThreadDoc) -> Result<(), Failure> {
        let Some(last) = doc.runs.last() else { return Ok(()) };
        if self.view_of(doc, last)?.status.is_final() {
            return Ok(());
        }
        Err(Failure::conflict(format!(
            "Thread {} is busy: run {} has not ended (multitask_strategy reject)",
            doc.thread_id, last.run_id
        )))
    }

    fn launch_of(&self, doc: &ThreadDoc, start: &RunStart) -> Result<Launch, Failure> {
        if let Some(id) = &start.checkpoint_id {
            let at = self.checkpoint(doc, &Checkpoint::parse(id)?)?;
            let newest = doc.segments.last().is_some_and(|s| s.graph_run == at.checkpoint.graph_run);
            return Ok(match &start.input {
                Some(input) => Launch::Fresh { at: Some(at), input: input.clone() },
                None if at.checkpoint.input => Launch::Fresh { at: Some(at), input: Value::Object(Map::new()) },
                // The thread's own head, stopped there (an update, a breakpoint): it goes on.
                None if newest && self.stopped_at(&at)? => self.go_on(doc, start)?,
                None => Launch::Fork { at },
            });
        }
        self.go_on(doc, start)
    }

    /// Whether `at` is the step its `GraphRun` waits at.
    fn stopped_at(&self, at: &CheckpointView) -> Result<bool, Failure> {
        let progress = self.progress(&at.checkpoint.graph_run)?;
        Ok(progress.is_some_and(|p| p.waiting && !p.ended && p.record.step == at.checkpoint.step))
    }

    /// What a run does from the thread's head: an answer, going on from a stop, or a new input.
    fn go_on(&self, doc: &ThreadDoc, start: &RunStart) -> Result<Launch, Failure> {
        let head = self.head(doc)?;
        let newest = doc.segments.last().map(|s| s.graph_run.clone());
        let waiting = match &newest {
            Some(g) => self.progress(g)?.filter(|p| p.waiting && !p.ended).map(|p| (g.clone(), p)),
            None => None,
        };
        if start.resume.is_some() || start.answers.is_some() {
            let Some((graph_run, progress)) = waiting else {
                return Err(Failure::conflict("command.resume: nothing on this thread waits for an answer"));
            };
            let answers = match (&start.answers, &start.resume) {
                (Some(answers), _) => answers.clone(),
                (None, Some(resume)) => answers_for(&graph_run, &progress, resume)?,
                (None, None) => Map::new(),
            };
            return Ok(Launch::Proceed { graph_run, stops: progress.stops, step: progress.record.step, answers });
        }
        match (&start.input, waiting) {
            (None, Some((graph_run, progress))) => {
                let humans = progress.record.waiting.iter().any(|w| w.breakpoint.is_none());
                let (stops, step) = (progress.stops, progress.record.step);
                if humans {
                    return Ok(Launch::Report { graph_run, stops, step });
                }
                Ok(Launch::Proceed { graph_run, stops, step, answers: Map::new() })
            }
            (input, _) => {
                Ok(Launch::Fresh { at: head, input: input.clone().unwrap_or_else(|| Value::Object(Map::new())) })
            }
        }
    }

    /// Ends the run after its current step (at once if it waits); 409 when it has ended.
    pub fn cancel_run(&self, thread_id: &str, run_id: &str) -> Result<(), Failure> {
        // A run still in the queue never starts.
        if self.thread(thread_id)?.queued_run(run_id).is_some() && self.unqueue(thread_id, run_id)? {
            return Ok(());
        }
        let view = self.run_view(thread_id, run_id)?;
        if view.status.is_final() {
            return Err(Failure::conflict(format!("run {run_id} has ended ({})", view.status.name())));
        }
        let _: bool = self.ingress.call::<(), _>("GraphRun", &view.run.graph_run, "cancel", None)?;
        self.change(thread_id, |doc| {
            if let Some(run) = doc.runs.iter_mut().find(|r| r.run_id == run_id) {
                run.cancelled = true;
            }
            Ok(())
        })?;
        Ok(())
    }

    /// `update_state`: a new checkpoint with `values` set at `checkpoint_id` (default: the
    /// newest), from which the next run without input goes on.
    pub fn update_state(
        &self,
        thread_id: &str,
        values: Map<String, Value>,
        checkpoint_id: Option<&str>,
    ) -> Result<Checkpoint, Failure> {
        let doc = self.thread(thread_id)?;
        self.refuse_if_busy(&doc)?;
        let at = match checkpoint_id {
            Some(id) => self.checkpoint(&doc, &Checkpoint::parse(id)?)?,
            None => self.head(&doc)?.ok_or_else(|| Failure::conflict("the thread has no state to update yet"))?,
        };
        let graph_run = clock::new_id();
        self.change(thread_id, |doc| {
            doc.segments.push(segment_at(&graph_run, &at, Source::Update));
            Ok(())
        })?;
        let fork = ForkRequest {
            from_step: at.checkpoint.step,
            set: Some(values),
            run_id: Some(graph_run.clone()),
            stop_at: Some(StopAt { before: vec!["*".into()], after: Vec::new() }),
            max_steps: None,
        };
        if let Err(e) = self.ingress.call::<_, String>("GraphRun", &at.checkpoint.graph_run, "fork", Some(&fork)) {
            self.forget(thread_id, &graph_run)?;
            return Err(as_invalid(e));
        }
        // The fork stops before its first step: wait for it, so that a run asked for next
        // finds it stopped.
        self.settle(&graph_run)?;
        Ok(Checkpoint::at(&graph_run, at.checkpoint.step))
    }

    /// Waits (a few seconds at most) until the `GraphRun` waits or has ended.
    fn settle(&self, graph_run: &str) -> Result<(), Failure> {
        let since = std::time::Instant::now();
        while since.elapsed() < std::time::Duration::from_secs(30) {
            if self.progress(graph_run)?.is_some_and(|p| p.waiting || p.ended) {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Err(Failure::new(504, format!("run {graph_run} did not stop within 30 s")))
    }
}

/// The answers `resume` gives: the value for the one waiting node, or a map of interrupt ids
/// (or node ids) to values when several wait.
fn answers_for(
    graph_run: &str,
    progress: &crate::protocol::Progress,
    resume: &Value,
) -> Result<Map<String, Value>, Failure> {
    let waiting: Vec<&str> =
        progress.record.waiting.iter().filter(|w| w.breakpoint.is_none()).map(|w| w.node.as_str()).collect();
    let id_of = |node: &str| format!("{graph_run}:{}:{node}", progress.stops);
    if let Value::Object(by_id) = resume {
        let named = |k: &String| waiting.iter().find(|n| &id_of(n) == k || *n == k).map(|n| n.to_string());
        if !by_id.is_empty()
            && by_id.keys().all(|k| named(k).is_some())
            && (waiting.len() > 1 || by_id.keys().any(|k| k.contains(':')))
        {
            return Ok(by_id.iter().filter_map(|(k, v)| named(k).map(|n| (n, v.clone()))).collect());
        }
    }
    match waiting.as_slice() {
        [node] => Ok(Map::from_iter([(node.to_string(), resume.clone())])),
        [] => Err(Failure::conflict("command.resume: nothing waits for an answer")),
        several => Err(Failure::invalid(format!(
            "command.resume: {} nodes wait ({}); give {{\"<interrupt id>\": answer, …}}",
            several.len(),
            several.join(", ")
        ))),
    }
}

fn stop_at(start: &RunStart) -> StopAt {
    StopAt { before: start.interrupt_before.clone(), after: start.interrupt_after.clone() }
}

pub(crate) fn thread_run(
    run_id: &str,
    graph_run: &str,
    start: &RunStart,
    since_stop: u32,
    since_step: u64,
) -> ThreadRun {
    ThreadRun {
        run_id: run_id.to_string(),
        graph_run: graph_run.to_string(),
        assistant_id: start.assistant_id.clone(),
        since_stop,
        since_step,
        created_at: clock::now(),
        metadata: start.metadata.clone(),
        kwargs: start.kwargs.clone(),
        cancelled: false,
    }
}

/// A new segment starting at checkpoint `at`: a fork or update starts at that very step of its
/// own `GraphRun`; a new input at its step 0.
fn segment_at(graph_run: &str, at: &CheckpointView, source: Source) -> Segment {
    Segment {
        graph_run: graph_run.to_string(),
        first: if source == Source::Input { 0 } else { at.checkpoint.step },
        base: at.thread_step + if source == Source::Input { 2 } else { 1 },
        parent: Some(at.checkpoint.clone()),
        source,
        created_at: clock::now(),
    }
}

/// A serve refusal of an answer or input (400) is LangGraph's 422.
fn as_invalid(e: Failure) -> Failure {
    if e.status == 400 { Failure::invalid(e.detail) } else { e }
}
