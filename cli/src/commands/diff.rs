//! `switchyard diff RUN_A.json RUN_B.json [--graph GRAPH.json] [--json]`: where two runs part
//! (`engine::record::diff::diff_runs`): the first differing step on one line, then each
//! differing step with what ran, the edges taken, what runs next and its state difference
//! (JSON Patch operations, one a line), then the final states'. Exit 0 when the runs are the
//! same, 1 when they differ, 2 on bad input.

use std::fmt::Write as _;

use engine::Graph;
use engine::record::diff::{RunDiff, Side, StepDiff, describe_first, diff_runs};
use serde::Serialize;

use crate::args::DiffArgs;
use crate::exit::Printed;
use crate::input::{BadInput, load_graph, read_record};

pub fn diff(args: DiffArgs) -> Result<Printed, BadInput> {
    let a = read_record(&args.a)?;
    let b = read_record(&args.b)?;
    let graph = args.graph.as_deref().map(load_graph).transpose()?;
    let d = diff_runs(&a, &b);
    let same = d.is_empty() && d.steps.is_empty();
    let text = if args.json {
        format!("{}\n", serde_json::to_string_pretty(&d).unwrap_or_default())
    } else if same {
        "the runs are the same: every step ran the same nodes, took the same edges and left the same state\n".into()
    } else {
        text(&d, graph.as_ref())
    };
    Ok(Printed::new(text, if same { 0 } else { 1 }))
}

/// The text: first difference, status, each differing step, the final states.
pub fn text(d: &RunDiff, graph: Option<&Graph>) -> String {
    let mut out = String::new();
    if let Some(first) = first_line(d, graph) {
        let _ = writeln!(out, "first difference: {first}");
    }
    if let Some((a, b)) = &d.status {
        let _ = writeln!(out, "status: {} vs {}", name(a), name(b));
    }
    for step in &d.steps {
        out.push_str(&step_text(step, graph));
    }
    let last = ops(&d.state);
    if !last.is_empty() {
        out.push_str("final state:\n");
        for op in last {
            let _ = writeln!(out, "    {op}");
        }
    }
    out
}

/// The first differing step in one line, its edges named as below (the engine's own line,
/// `describe_first`, names them by index).
fn first_line(d: &RunDiff, graph: Option<&Graph>) -> Option<String> {
    let step = d.steps.iter().find(|s| Some(s.step) == d.first)?;
    let what = match (&step.only_in, &step.ran, &step.taken, &step.next) {
        (Some(Side::A), ..) => "only run A has it".to_string(),
        (Some(Side::B), ..) => "only run B has it".to_string(),
        (None, Some((a, b)), ..) => format!("ran {} vs {}", list(a), list(b)),
        (None, None, Some((a, b)), _) => format!("took edges {} vs {}", edges(a, graph), edges(b, graph)),
        (None, None, None, Some((a, b))) => format!("next {} vs {}", list(a), list(b)),
        (None, None, None, None) => return describe_first(d),
    };
    Some(format!("step {}: {what}", step.step))
}

fn step_text(s: &StepDiff, graph: Option<&Graph>) -> String {
    let mut out = match s.only_in {
        Some(Side::A) => format!("step {} (only in A)\n", s.step),
        Some(Side::B) => format!("step {} (only in B)\n", s.step),
        None => format!("step {}\n", s.step),
    };
    if let Some((a, b)) = &s.ran {
        let _ = writeln!(out, "  ran: {} vs {}", list(a), list(b));
    }
    if let Some((a, b)) = &s.taken {
        let _ = writeln!(out, "  edges taken: {} vs {}", edges(a, graph), edges(b, graph));
    }
    if let Some((a, b)) = &s.next {
        let _ = writeln!(out, "  next: {} vs {}", list(a), list(b));
    }
    let state = ops(&s.state);
    if !state.is_empty() {
        out.push_str("  state (A → B):\n");
        for op in state {
            let _ = writeln!(out, "    {op}");
        }
    }
    out
}

/// `[a, b]`.
fn list(ids: &[String]) -> String {
    format!("[{}]", ids.join(", "))
}

/// Edges by their ends when the graph is known (`[ask → order]`), else by index (`[#2]`).
fn edges(indices: &[usize], graph: Option<&Graph>) -> String {
    let named: Vec<String> = indices
        .iter()
        .map(|&i| match graph.and_then(|g| g.edges.get(i)) {
            Some(e) => format!("{} → {}", e.from, e.to),
            None => format!("#{i}"),
        })
        .collect();
    format!("[{}]", named.join(", "))
}

/// A JSON Patch's operations, each as one line of compact JSON.
fn ops(patch: &impl Serialize) -> Vec<String> {
    match serde_json::to_value(patch) {
        Ok(serde_json::Value::Array(ops)) => ops.iter().map(|op| op.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// A status as the record writes it (`completed`, `limit_reached`…).
fn name(status: &impl Serialize) -> String {
    serde_json::to_value(status).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}
