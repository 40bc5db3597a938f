//! The 004 linear orchestrator template, run through the real `switchyard` binary with the inputs a person would
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
// 004 linear orchestrator
// ---------------------------------------------------------------------------------------------

const ORCHESTRATOR: &str = "004-linear-orchestrator.json";
const AGENTS: [&str; 6] = ["gmail", "invoice", "salesforce", "zoho", "audit", "closing"];
const BOOK: &str = "Book this month's supplier invoices";

/// Runs the orchestrator on `task` until it asks for the plan's approval.
fn planned(dir: &Path, task: &str) -> Stage {
    let first = run(dir, ORCHESTRATOR, &json!({ "task": task }), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(ran(r), [["planner"]]);
    assert_eq!(r["next"], json!(["approve_plan"]));
    assert_eq!(r["state"]["execution_results"], json!([]), "no agent runs before approval");
    first
}

/// The proposed sequence the plan form is prefilled with.
fn proposed(stage: &Stage) -> &str {
    text(&stage.record["waiting"][0]["fields"]["sequence"]["default"])
}

fn agents_that_ran(record: &Value) -> Vec<&str> {
    record["state"]["execution_results"].as_array().expect("results").iter().map(|e| text(&e["agent"])).collect()
}

fn approve_plan(sequence: Option<&str>) -> Value {
    match sequence {
        Some(s) => json!({"approve_plan": {"plan_decision": "approve", "sequence": s}}),
        None => json!({"approve_plan": {"plan_decision": "approve"}}),
    }
}

/// The end node the run's last step routed into.
fn ended_at(record: &Value) -> String {
    let g = read_template(ORCHESTRATOR);
    let steps = record["steps"].as_array().expect("steps");
    let taken = steps.last().expect("a step")["taken"].as_array().expect("taken").clone();
    let ends: Vec<String> = taken
        .iter()
        .map(|i| g["edges"][i.as_u64().expect("an index") as usize]["to"].clone())
        .filter(|to| g["nodes"].as_array().expect("nodes").iter().any(|n| n["id"] == *to && n["kind"] == "end"))
        .map(|to| text(&to).to_string())
        .collect();
    assert_eq!(ends.len(), 1, "one end reached: {ends:?}");
    ends[0].clone()
}

#[test]
fn orchestrator_template_has_the_agent_and_run_timeouts_and_one_node_per_agent() {
    let g = read_template(ORCHESTRATOR);
    assert_eq!(g["limits"]["run_timeout_ms"], 900_000);
    for agent in AGENTS {
        let node = g["nodes"].as_array().expect("nodes").iter().find(|n| n["id"] == agent).expect("an agent node");
        assert_eq!(node["timeout_ms"], 180_000, "{agent}");
        assert_eq!(node["use"], "agent", "{agent} uses the agent definition");
        assert_eq!(node["on_error"], "route", "{agent}");
    }
    assert!(g["definitions"]["agent"].is_object());
}

#[test]
fn orchestrator_planner_proposes_agents_from_the_task() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    let plan = &first.record["state"]["plan"];
    assert_eq!(plan["estimated_seconds"], 240);
    assert_eq!(plan["reasons"]["zoho"], "book the entries in the ledger");
    assert!(text(&first.record["waiting"][0]["prompt"]).contains("gmail to find the emails that carry the documents"));
    let w = &first.record["waiting"][0]["fields"]["plan_decision"];
    assert_eq!(w["options"], json!(["approve", "reject"]));

    let other = planned(dir.path(), "Update the customer accounts and close the month");
    assert_eq!(proposed(&other), "salesforce, closing");
}

#[test]
fn orchestrator_runs_each_approved_agent_once_in_order_then_asks_about_the_result() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let second = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3);
    let r = &second.record;
    assert_eq!(r["next"], json!(["approve_result"]));
    assert_eq!(strs(&r["state"]["agent_sequence"]), ["gmail", "invoice", "zoho", "audit"]);
    assert_eq!(agents_that_ran(r), ["gmail", "invoice", "zoho", "audit"]);
    let order: Vec<String> = ran(r).into_iter().flatten().filter(|n| AGENTS.contains(&n.as_str())).collect();
    assert_eq!(order, ["gmail", "invoice", "zoho", "audit"]);
    for agent in AGENTS {
        let expected = usize::from(["gmail", "invoice", "zoho", "audit"].contains(&agent));
        assert_eq!(times_ran(r, agent), expected, "{agent} runs exactly once, or not at all");
    }
    // Later agents read what earlier ones collected.
    let data = &r["state"]["collected_data"];
    assert_eq!(data["invoice"]["invoices_read"], data["gmail"]["invoices_attached"]);
    assert_eq!(data["zoho"]["ledger_entries"], 2);
    assert_eq!(data["audit"], json!({"checked": 2, "unbooked": 0}));
    assert!(text(&r["waiting"][0]["prompt"]).starts_with("All 4 agents finished (gmail -> invoice -> zoho -> audit)."));

    let done =
        resume(dir.path(), ORCHESTRATOR, &second, &json!({"approve_result": {"result_decision": "approve"}}), 0).record;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["state"]["status"], "completed");
    assert_eq!(done["state"]["final_result"], "Completed 4 agents: gmail -> invoice -> zoho -> audit.");
    assert_eq!(ended_at(&done), "end");

    let answer = json!({"approve_result": {"result_decision": "reject", "result_comments": "the totals look off"}});
    let revise = resume(dir.path(), ORCHESTRATOR, &second, &answer, 0).record;
    assert_eq!(revise["status"], "completed");
    assert_eq!(revise["state"]["status"], "needs_revision");
    assert_eq!(revise["state"]["final_result"], "The result needs revision: the totals look off.");
    assert_eq!(ran(&revise).last().expect("steps"), &["needs_revision"]);
}

#[test]
fn orchestrator_runs_the_plan_as_the_approver_edited_it() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("Closing, gmail, invoice, gmail")), 3).record;
    assert_eq!(strs(&r["state"]["agent_sequence"]), ["closing", "gmail", "invoice"], "known agents, each once");
    assert_eq!(agents_that_ran(&r), ["closing", "gmail", "invoice"]);
    assert_eq!(times_ran(&r, "zoho") + times_ran(&r, "audit"), 0, "agents taken out of the plan do not run");
    assert_eq!(r["state"]["collected_data"]["closing"]["entries_booked"], 0, "nothing was booked before closing");
}

#[test]
fn orchestrator_rejected_plan_ends_without_running_any_agent() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let answer = json!({"approve_plan": {"plan_decision": "reject", "plan_comments": "not this month"}});
    let r = resume(dir.path(), ORCHESTRATOR, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["planner"], ["approve_plan"]]);
    assert_eq!(ended_at(&r), "plan_rejected");
    assert_eq!(r["state"]["plan_comments"], "not this month");
    assert_eq!(r["state"]["execution_results"], json!([]));
    assert_eq!(r["state"]["collected_data"], json!({}));
}

#[test]
fn orchestrator_failing_agent_ends_the_run_failed_naming_it() {
    let dir = tmp();
    // The ledger books euros only: for a task in dollars the zoho agent's reply breaks its schema.
    let first = planned(dir.path(), "Book this month's supplier invoices in USD");
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 1).record;
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error"]["kind"], "ended");
    assert_eq!(r["error"]["node"], "agent_failed");
    let message = text(&r["error"]["message"]);
    assert!(message.starts_with("Agent zoho failed after 2 of 4 agents:"), "{message}");
    assert!(message.contains("records"), "the schema problem is named: {message}");
    assert_eq!(agents_that_ran(&r), ["gmail", "invoice"], "no agent after the failed one runs");
    assert_eq!(times_ran(&r, "audit") + times_ran(&r, "approve_result"), 0);
    assert_eq!((r["state"]["failed_agent"].clone(), r["state"]["status"].clone()), (json!("zoho"), json!("failed")));

    // The same task in euros, with the audit moved first: it has nothing to check and fails.
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("audit, gmail, invoice")), 1).record;
    assert_eq!(r["error"]["kind"], "ended");
    assert!(text(&r["error"]["message"]).starts_with("Agent audit failed after 0 of 3 agents:"), "{}", r["error"]);
    assert_eq!(agents_that_ran(&r), Vec::<&str>::new());
}

#[test]
fn orchestrator_plan_naming_no_known_agent_fails() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("payroll")), 1).record;
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error"]["kind"], "ended");
    assert_eq!(r["error"]["node"], "plan_invalid");
    assert!(text(&r["error"]["message"]).contains("\"payroll\" names no known agent"), "{}", r["error"]);
    assert_eq!(strs(&r["state"]["unknown_agents"]), ["payroll"]);
}
