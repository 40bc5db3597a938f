//! The 003 approval template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the seed's rule it protects.

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

fn approval_request(dir: &Path) -> Stage {
    let first = run(dir, APPROVAL, &json!({"request": "two days off next week", "requester": "Dana"}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    let w = &r["waiting"][0];
    assert_eq!(w["node"], "get_approval");
    assert_eq!(
        w["prompt"],
        "Dana asks for: two days off next week. Approve or reject, with comments for whoever acts on it."
    );
    assert_eq!(w["fields"]["decision"]["options"], json!(["approve", "reject"]));
    assert_eq!(w["fields"]["decision"]["required"], true);
    assert_eq!(w["fields"]["comments"]["required"], false);
    assert_eq!(w["fields"]["comments"]["label"], "Comments");
    first
}

/// The task description (the prompt) the action at the last step was given.
fn task_description<'a>(record: &'a Value, node: &str) -> &'a str {
    let steps = record["steps"].as_array().expect("steps");
    text(&steps.last().expect("a step")["details"][node]["prompt"])
}

#[test]
fn approval_approved_with_comments_passes_them_to_the_action() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let answer = json!({"get_approval": {"decision": "approve", "comments": "take Thursday and Friday"}});
    let r = resume(dir.path(), APPROVAL, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["get_approval"], ["check_approval"], ["approved_action"]]);
    let s = &r["state"];
    assert_eq!((s["decision"].clone(), s["comments"].clone()), (json!("approve"), json!("take Thursday and Friday")));
    assert_eq!(
        task_description(&r, "approved_action"),
        "Carry out this approved request for Dana: two days off next week. Approver's comments: take Thursday and Friday."
    );
    assert_eq!(
        s["action_result"],
        "Done: two days off next week is arranged for Dana, as the approver asked: take Thursday and Friday."
    );
    assert_eq!(s["notification"], "");
    assert_eq!(times_ran(&r, "rejected_action"), 0);
}

#[test]
fn approval_approved_without_comments_says_so() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let r = resume(dir.path(), APPROVAL, &first, &json!({"get_approval": {"decision": "approve"}}), 0).record;
    assert_eq!(r["state"]["comments"], "");
    assert!(task_description(&r, "approved_action").ends_with("Approver's comments: none."));
    assert_eq!(r["state"]["action_result"], "Done: two days off next week is arranged for Dana.");
}

#[test]
fn approval_rejected_with_comments_passes_them_to_the_rejection_note() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let answer = json!({"get_approval": {"decision": "reject", "comments": "we are short-staffed that week"}});
    let r = resume(dir.path(), APPROVAL, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["get_approval"], ["check_approval"], ["rejected_action"]]);
    let s = &r["state"];
    assert_eq!(s["decision"], "reject");
    assert_eq!(
        task_description(&r, "rejected_action"),
        "Write a short, polite note telling Dana that the request \"two days off next week\" was declined. Approver's comments: we are short-staffed that week."
    );
    assert_eq!(
        s["notification"],
        "Sorry, Dana: your request for two days off next week was declined. The approver says: we are short-staffed that week."
    );
    assert_eq!(s["action_result"], "");
}

#[test]
fn approval_answer_outside_the_form_is_refused() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let before = std::fs::read_to_string(&first.file).expect("the run file");
    for answer in [json!({"get_approval": {"decision": "maybe"}}), json!({"get_approval": "approve"})] {
        let answer = answer.to_string();
        let out = sy(&["resume", &first.file, "--graph", &template(APPROVAL), "--answer", &answer]);
        out.assert_code(2);
        assert!(out.stderr.contains("get_approval"), "{}", out.describe());
    }
    assert_eq!(std::fs::read_to_string(&first.file).expect("the run file"), before, "the run file is untouched");
}

#[test]
fn approval_without_a_requester_uses_the_default() {
    let dir = tmp();
    let r = run(dir.path(), APPROVAL, &json!({"request": "a new chair"}), 3).record;
    assert!(text(&r["waiting"][0]["prompt"]).starts_with("a colleague asks for: a new chair."));
}
