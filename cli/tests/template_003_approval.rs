//! The 003 approval template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the seed's rule it protects.
//!
//! The seed's rules: an approval step gives a decision; a router reads it in lower case and
//! follows the edge labelled `approved` or `rejected`; any other decision matches no edge and the
//! workflow halts with an error; each path's action gets a task description built from the
//! request and the approver's comments and ends at its own end node; the run finishes with a
//! `final_status` in the seed's words (completed, error).

mod binary;
mod template_run;

#[allow(unused_imports, reason = "not every file uses every helper")]
use binary::sy;
#[allow(unused_imports, reason = "not every file uses every helper")]
use serde_json::{Value, json};
#[allow(unused_imports, reason = "not every file uses every helper")]
use std::path::Path;
#[allow(unused_imports, reason = "not every file uses every helper")]
use template_run::*;

// ---------------------------------------------------------------------------------------------
// 003 approval
// ---------------------------------------------------------------------------------------------

const APPROVAL: &str = "003-approval.json";

const DONE: &str = "Done: two days off next week is arranged for Dana.";
const SORRY: &str = "Sorry, Dana: your request for two days off next week was declined this time.";

fn approval_request(dir: &Path) -> Stage {
    let first = run(dir, APPROVAL, &json!({"request": "two days off next week", "requester": "Dana"}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["steps"], json!([]), "nothing runs before the approver answers");
    let w = &r["waiting"][0];
    assert_eq!(w["node"], "get_approval");
    assert_eq!(
        w["prompt"],
        "Dana asks for: two days off next week. Approve or reject, with comments for whoever acts on it."
    );
    first
}

/// Answers the approval form with `decision` (and `comments` when given); expects exit `code`.
fn decide(dir: &Path, first: &Stage, decision: &str, comments: Option<&str>, code: i32) -> Value {
    let mut form = json!({"decision": decision});
    if let Some(c) = comments {
        form["comments"] = json!(c);
    }
    resume(dir, APPROVAL, first, &json!({"get_approval": form}), code).record
}

/// The task description (the prompt) the action at the last step but one was given.
fn task_description<'a>(record: &'a Value, node: &str) -> &'a str {
    let steps = record["steps"].as_array().expect("steps");
    let step = steps.iter().rev().find(|s| s["details"][node].is_object()).expect("the action ran");
    text(&step["details"][node]["prompt"])
}

/// The edges the run followed, as `from>to`.
fn taken(record: &Value) -> Vec<String> {
    let g = read_template(APPROVAL);
    let edges = g["edges"].as_array().expect("edges");
    record["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .flat_map(|s| s["taken"].as_array().expect("taken").clone())
        .map(|i| {
            let e = &edges[usize::try_from(i.as_u64().expect("an edge index")).expect("small")];
            format!("{}>{}", text(&e["from"]), text(&e["to"]))
        })
        .collect()
}

const APPROVED_PATH: [&str; 4] = ["get_approval", "check_approval", "approved_action", "finish_approved"];
const REJECTED_PATH: [&str; 4] = ["get_approval", "check_approval", "rejected_action", "finish_rejected"];
const HALTED_PATH: [&str; 3] = ["get_approval", "check_approval", "unknown_decision"];

fn path(record: &Value) -> Vec<String> {
    ran(record).into_iter().flatten().collect()
}

/// Rule: the router follows `approved`, the approved action gets the approver's comments in its
/// task description, the path ends at its own end with status completed.
#[test]
fn approval_approved_with_comments_passes_them_to_the_action() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let r = decide(dir.path(), &first, "approve", Some("take Thursday and Friday"), 0);
    assert_eq!(r["status"], "completed");
    assert_eq!(path(&r), APPROVED_PATH);
    assert!(taken(&r).contains(&"check_approval>approved_action".to_string()));
    assert_eq!(taken(&r).last().map(String::as_str), Some("finish_approved>end_approved"));
    let s = &r["state"];
    assert_eq!((s["decision"].clone(), s["comments"].clone()), (json!("approve"), json!("take Thursday and Friday")));
    assert_eq!(
        task_description(&r, "approved_action"),
        "Carry out this approved request for Dana: two days off next week. Approver's comments: take Thursday and Friday."
    );
    let done = "Done: two days off next week is arranged for Dana, as the approver asked: take Thursday and Friday.";
    assert_eq!(s["action_result"], done);
    assert_eq!(s["notification"], "");
    assert_eq!(s["final_status"], "completed");
    assert_eq!(s["final_result"], format!("Approved. {done}"));
    assert_eq!(times_ran(&r, "rejected_action"), 0);
}

/// Rule: comments are optional; without them the task description says "none".
#[test]
fn approval_approved_without_comments_says_so() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let r = decide(dir.path(), &first, "approve", None, 0);
    assert_eq!(r["state"]["comments"], "");
    assert!(task_description(&r, "approved_action").ends_with("Approver's comments: none."));
    assert_eq!(r["state"]["action_result"], DONE);
    assert_eq!(r["state"]["final_result"], format!("Approved. {DONE}"));
}

/// Rule: the router follows `rejected`; the rejection note carries the approver's reason; the
/// rejected path ends at its own end, and the workflow itself completed.
#[test]
fn approval_rejected_with_comments_passes_them_to_the_rejection_note() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let r = decide(dir.path(), &first, "reject", Some("we are short-staffed that week"), 0);
    assert_eq!(r["status"], "completed");
    assert_eq!(path(&r), REJECTED_PATH);
    assert_eq!(taken(&r).last().map(String::as_str), Some("finish_rejected>end_rejected"));
    let s = &r["state"];
    assert_eq!(s["decision"], "reject");
    assert_eq!(
        task_description(&r, "rejected_action"),
        "Write a short, polite note telling Dana that the request \"two days off next week\" was declined. Approver's comments: we are short-staffed that week."
    );
    let note = "Sorry, Dana: your request for two days off next week was declined. The approver says: we are short-staffed that week.";
    assert_eq!(s["notification"], note);
    assert_eq!(s["action_result"], "");
    assert_eq!(s["final_status"], "completed");
    assert_eq!(s["final_result"], format!("Rejected. {note}"));
    assert_eq!(times_ran(&r, "approved_action"), 0);
}

/// Rule: the router lower-cases the decision (and ignores the spaces around it), so however a
/// person types approve or reject, the matching path is taken; the seed's own words `approved`
/// and `rejected` count too.
#[test]
fn approval_decision_is_read_in_lower_case_whatever_was_typed() {
    let dir = tmp();
    let first = approval_request(dir.path());
    for decision in ["APPROVE", " Approve ", "Approved", "approved\n"] {
        let r = decide(dir.path(), &first, decision, None, 0);
        assert_eq!(path(&r), APPROVED_PATH, "{decision:?}");
        assert_eq!(r["state"]["decision"], decision, "the decision is kept as typed");
        assert_eq!(r["state"]["final_status"], "completed", "{decision:?}");
        assert_eq!(r["state"]["final_result"], format!("Approved. {DONE}"), "{decision:?}");
    }
    for decision in ["Reject", "REJECTED ", "  reject", "rejected"] {
        let r = decide(dir.path(), &first, decision, None, 0);
        assert_eq!(path(&r), REJECTED_PATH, "{decision:?}");
        assert_eq!(r["state"]["final_status"], "completed", "{decision:?}");
        assert_eq!(r["state"]["final_result"], format!("Rejected. {SORRY}"), "{decision:?}");
    }
}

/// Rule: a decision that is neither approve nor reject matches no path: the workflow halts with
/// an error (`final_status` error, the run failed at `end_halted`) whose message names the
/// decision, and no action runs, neither the approved one nor the rejection note.
#[test]
fn approval_unknown_decision_halts_with_an_error_and_runs_no_action() {
    let dir = tmp();
    let first = approval_request(dir.path());
    for decision in ["maybe", "yes", "approve it", "Not approved", "ok, reject", "reject!"] {
        let r = decide(dir.path(), &first, decision, Some("ask me tomorrow"), 1);
        assert_eq!(r["status"], "failed", "{decision:?}");
        assert_eq!(path(&r), HALTED_PATH, "{decision:?}");
        let message = format!(
            "The decision \"{decision}\" is neither approve nor reject, so the workflow halted and no action ran."
        );
        assert_eq!(r["error"], json!({"node": "end_halted", "kind": "ended", "message": message}), "{decision:?}");
        let s = &r["state"];
        assert_eq!(s["final_status"], "error", "{decision:?}");
        assert_eq!(s["final_result"], message, "{decision:?}");
        assert_eq!((s["action_result"].clone(), s["notification"].clone()), (json!(""), json!("")), "{decision:?}");
        assert_eq!(times_ran(&r, "approved_action") + times_ran(&r, "rejected_action"), 0, "{decision:?}");
    }
}

/// Rule: an empty decision is an unknown one too: the run halts with a message that says no
/// decision was given, rather than taking either path.
#[test]
fn approval_empty_decision_halts_and_says_none_was_given() {
    let dir = tmp();
    let first = approval_request(dir.path());
    for decision in ["", "   "] {
        let r = decide(dir.path(), &first, decision, None, 1);
        assert_eq!(path(&r), HALTED_PATH, "{decision:?}");
        let message = "No decision was given (neither approve nor reject), so the workflow halted and no action ran.";
        assert_eq!(r["error"]["message"], message);
        assert_eq!(r["state"]["final_status"], "error");
        assert_eq!(r["state"]["final_result"], message);
    }
}

/// Rule: the decision reaches the router as the person typed it. The form asks for it as free
/// text (no list of options, so an unexpected word gets to the router, as in the seed); it is
/// required, and an answer that is not a form of text is refused before anything runs.
#[test]
fn approval_form_takes_any_text_but_refuses_a_malformed_answer() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let fields = &first.record["waiting"][0]["fields"];
    assert_eq!(fields["decision"], json!({"type": "string", "required": true, "label": "Decision"}));
    assert_eq!(fields["comments"], json!({"type": "string", "required": false, "label": "Comments"}));
    let before = std::fs::read_to_string(&first.file).expect("the run file");
    for (answer, needle) in [
        (json!({"get_approval": {"comments": "fine by me"}}), "decision"),
        (json!({"get_approval": {"decision": true}}), "decision"),
        (json!({"get_approval": "approve"}), "get_approval"),
        (json!({"get_approval": {"decision": "approve", "urgency": "high"}}), "urgency"),
    ] {
        let answer = answer.to_string();
        let out = sy(&["resume", &first.file, "--graph", &template(APPROVAL), "--answer", &answer]);
        out.assert_bad_input(&["get_approval", needle]);
    }
    assert_eq!(std::fs::read_to_string(&first.file).expect("the run file"), before, "the run file is untouched");
}

/// Rule: the requester is optional (the seed's initial input holds only the request); the
/// approver is told who asks, "a colleague" by default.
#[test]
fn approval_without_a_requester_uses_the_default() {
    let dir = tmp();
    let first = run(dir.path(), APPROVAL, &json!({"request": "a new chair"}), 3);
    assert!(text(&first.record["waiting"][0]["prompt"]).starts_with("a colleague asks for: a new chair."));
    let r = decide(dir.path(), &first, "Approve", None, 0);
    assert_eq!(r["state"]["final_result"], "Approved. Done: a new chair is arranged for a colleague.");
}

/// Rule: the request is the workflow's required input: a missing one is refused; an empty one
/// still reaches the approver, who is told nothing was asked for and can reject it.
#[test]
fn approval_empty_or_missing_request() {
    let dir = tmp();
    let out = sy(&["run", &template(APPROVAL), "--input", "{}"]);
    out.assert_bad_input(&["request"]);
    let first = run(dir.path(), APPROVAL, &json!({"request": ""}), 3);
    assert_eq!(
        first.record["waiting"][0]["prompt"],
        "a colleague asks for: (no request given). Approve or reject, with comments for whoever acts on it."
    );
    let r = decide(dir.path(), &first, "reject", Some("nothing to approve"), 0);
    assert_eq!(path(&r), REJECTED_PATH);
    assert_eq!(r["state"]["final_status"], "completed");
}

/// Rule (structure): the router has exactly the seed's two labelled paths plus the one its
/// unknown-status label leads to, each path ends at its own end, and only the halt fails the run.
#[test]
fn approval_graph_has_one_end_per_path_and_a_failing_halt() {
    let g = read_template(APPROVAL);
    let mut out: Vec<(String, String)> = g["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .filter(|e| e["from"] == "check_approval")
        .map(|e| (text(&e["label"]).to_string(), text(&e["to"]).to_string()))
        .collect();
    out.sort();
    let want = [
        ("approved", "approved_action"),
        ("error_unknown_status", "unknown_decision"),
        ("rejected", "rejected_action"),
    ]
    .map(|(a, b)| (a.to_string(), b.to_string()));
    assert_eq!(out, want);
    let node = |id: &str| g["nodes"].as_array().expect("nodes").iter().find(|n| n["id"] == id).expect(id).clone();
    assert_eq!(node("end_halted")["outcome"], "failed");
    for end in ["end_approved", "end_rejected"] {
        assert!(node(end)["outcome"].is_null(), "{end} completes the run");
    }
    assert!(node("get_approval")["fields"]["decision"]["options"].is_null(), "the decision is free text");
}
