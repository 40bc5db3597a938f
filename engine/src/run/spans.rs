//! A live run's spans, as its steps end: the engine's [`crate::trace`] mapping applied to the
//! steps not yet exported, so a host exports each step once, in time proportional to the
//! step and not to the run. What comes out equals [`crate::trace::record_spans`] of the
//! run's record.

use std::collections::BTreeMap;

use super::Run;
use super::record::step_doc;
use crate::record::snapshots::StepStates;
use crate::record::{RecordedReply, StepDoc};
use crate::trace::{SessionInput, SpanDoc, StepInput, TraceId, TraceOptions, root_id, session_root, step_tree};

impl Run {
    /// The spans of the steps after step `after_step` (their step, node and effect spans),
    /// in this session's trace.
    pub fn new_spans(&self, after_step: u64, options: TraceOptions) -> Vec<SpanDoc> {
        let first = usize::try_from(after_step).unwrap_or(usize::MAX).min(self.steps.len());
        if first == self.steps.len() || self.sessions().is_empty() {
            return Vec::new();
        }
        let docs: Vec<StepDoc> = self.steps[first..].iter().map(|s| step_doc(&self.plan, s, false)).collect();
        let starts = self.laid_out_from(first, &docs, options.unstamped_start_ms);
        let replies = self.tape.replies_from(after_step + 1);
        let mut by_step: BTreeMap<u64, Vec<&RecordedReply>> = BTreeMap::new();
        for r in &replies {
            by_step.entry(r.step).or_default().push(r);
        }
        let mut out = Vec::new();
        for (k, doc) in docs.iter().enumerate() {
            let Some(trace) = self.trace_of_step(doc.step) else { continue };
            let index = first + k;
            let earlier = |name: &str| self.earlier_detail(index, name);
            let input = StepInput {
                trace,
                doc,
                laid_out_ms: starts[k],
                replies: by_step.get(&doc.step).map(Vec::as_slice).unwrap_or_default(),
                earlier: &earlier,
                prefix: String::new(),
                parent: root_id(trace),
            };
            step_tree(&input, Some(&self.plan.graph), options, &mut out);
        }
        out
    }

    /// This session's root span as the run stands now: call it when the session ends
    /// (completed, failed, waiting for a person, stopped at a limit).
    pub fn session_span(&self, options: TraceOptions) -> Option<SpanDoc> {
        let sessions = self.sessions();
        let session = sessions.last()?;
        let first = usize::try_from(session.from_step.saturating_sub(1)).unwrap_or(usize::MAX).min(self.steps.len());
        let docs: Vec<StepDoc> = self.steps[first..].iter().map(|s| step_doc(&self.plan, s, false)).collect();
        let starts = self.laid_out_from(first, &docs, options.unstamped_start_ms);
        let before_end = match first.checked_sub(1).map(|i| &self.steps[i]) {
            Some(prev) => {
                let laid = options.unstamped_start_ms
                    + self.steps[..first - 1].iter().map(|s| s.duration_ms.max(0.0)).sum::<f64>();
                prev.started_ms.unwrap_or(laid) + prev.duration_ms.max(0.0)
            }
            None => options.unstamped_start_ms,
        };
        let header = self.record_parts(false, StepStates::Snapshots, false);
        session_root(&SessionInput {
            header: &header,
            sessions,
            index: sessions.len() - 1,
            steps: &docs,
            starts: &starts,
            before_end,
            options,
        })
    }

    /// Where steps `first..` start when laid out without stamps, from `origin`; the sum of
    /// the earlier steps' durations is only taken when a step lacks its stamp.
    fn laid_out_from(&self, first: usize, docs: &[StepDoc], origin: f64) -> Vec<f64> {
        if docs.iter().all(|d| d.started_ms.is_some()) {
            return vec![origin; docs.len()];
        }
        let mut at = origin + self.steps[..first].iter().map(|s| s.duration_ms.max(0.0)).sum::<f64>();
        docs.iter()
            .map(|d| {
                let here = at;
                at += d.duration_ms.max(0.0);
                here
            })
            .collect()
    }

    /// The trace of the session that ran step `step`.
    fn trace_of_step(&self, step: u64) -> Option<TraceId> {
        let session = self.sessions().iter().rev().find(|s| s.from_step <= step)?;
        TraceId::parse(&session.trace_id)
    }

    /// The details task `name` left in the latest step before step index `index` that ran it.
    fn earlier_detail(&self, index: usize, name: &str) -> Option<serde_json::Value> {
        self.steps[..index]
            .iter()
            .rev()
            .find_map(|s| s.details.iter().find(|(t, _)| t.name(&self.plan) == name).map(|(_, d)| d.clone()))
    }
}
