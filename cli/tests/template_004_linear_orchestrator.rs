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
const SLOTS: [&str; 6] = ["slot_1", "slot_2", "slot_3", "slot_4", "slot_5", "slot_6"];
const BOOK: &str = "Book this month's supplier invoices";

/// Runs `graph` (a template, or a changed copy of one) on `task` until it asks for the plan's
/// approval.
fn planned_with(dir: &Path, graph: &str, task: &str) -> Stage {
    let input = json!({ "task": task }).to_string();
    let out = sy(&["run", graph, "--input", &input]);
    out.assert_code(3);
    let file =
        write(dir, &format!("run-{}.json", SAVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)), &out.stdout);
    let first = Stage { record: out.json(), file };
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["next"], json!(["approve_plan"]));
    assert_eq!(r["state"]["execution_results"], json!([]), "no agent runs before the plan is approved");
    assert_eq!(r["state"]["final_status"], "", "the run has not ended");
    first
}

/// Runs the orchestrator on `task` until it asks for the plan's approval.
fn planned(dir: &Path, task: &str) -> Stage {
    planned_with(dir, &template(ORCHESTRATOR), task)
}

/// `switchyard resume` of `previous` with `graph` (a path), expecting exit `code`.
fn resume_with(dir: &Path, graph: &str, previous: &Stage, answer: &Value, code: i32) -> Stage {
    let answer = answer.to_string();
    let out = sy(&["resume", &previous.file, "--graph", graph, "--answer", &answer]);
    out.assert_code(code);
    let n = SAVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = write(dir, &format!("run-{n}.json"), &out.stdout);
    Stage { record: out.json(), file }
}

/// The proposed sequence the plan form is prefilled with.
fn proposed(stage: &Stage) -> &str {
    text(&stage.record["waiting"][0]["fields"]["sequence"]["default"])
}

fn prompt(stage: &Stage) -> &str {
    text(&stage.record["waiting"][0]["prompt"])
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

fn final_of(record: &Value) -> (&str, &str) {
    (text(&record["state"]["final_status"]), text(&record["state"]["final_result"]))
}

/// The prompts each agent's model was sent, in order: (slot, prompt).
fn agent_prompts(record: &Value) -> Vec<(String, String)> {
    let mut prompts = Vec::new();
    for step in record["steps"].as_array().expect("steps") {
        for slot in SLOTS {
            let Some(inner) = step["details"][slot]["subgraph"]["steps"].as_array() else { continue };
            for s in inner {
                if let Some(p) = s["details"]["work"]["prompt"].as_str() {
                    prompts.push((slot.to_string(), p.to_string()));
                }
            }
        }
    }
    prompts
}

/// A copy of the template with `change` applied, written into `dir`; its path.
fn changed_copy(dir: &Path, change: impl FnOnce(&mut Value)) -> String {
    let mut g = read_template(ORCHESTRATOR);
    change(&mut g);
    write(dir, "changed-004.json", serde_json::to_string_pretty(&g).expect("JSON"))
}

fn node_mut<'a>(g: &'a mut Value, id: &str) -> &'a mut Value {
    g["nodes"].as_array_mut().expect("nodes").iter_mut().find(|n| n["id"] == id).expect("the node")
}

/// Refused answers: exit 2, a readable one-line message, and the run left waiting as it was.
/// The `work` node of the `agent_slot` definition every slot runs.
fn slot_work_mut(g: &mut Value) -> &mut Value {
    g["definitions"]["agent_slot"]["nodes"]
        .as_array_mut()
        .expect("nodes")
        .iter_mut()
        .find(|n| n["id"] == "work")
        .expect("work")
}

fn refused(stage: &Stage, answer: &Value, needles: &[&str]) {
    let answer = answer.to_string();
    sy(&["resume", &stage.file, "--graph", &template(ORCHESTRATOR), "--answer", &answer]).assert_bad_input(needles);
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&stage.file).expect("record")).expect("JSON");
    assert_eq!(again["status"], "interrupted", "the record is left as it was");
}

#[test]
/// Seed: a linear executor with static connections, no conditional routing between agents, so
/// that no run can loop; each agent has a 3-minute timeout and the workflow 15 minutes.
fn orchestrator_agents_run_down_a_line_of_slots_with_no_way_back() {
    let g = read_template(ORCHESTRATOR);
    let nodes = g["nodes"].as_array().expect("nodes");
    let edges = g["edges"].as_array().expect("edges");
    assert_eq!(g["limits"]["run_timeout_ms"], 900_000);
    for (i, slot) in SLOTS.iter().enumerate() {
        let node = nodes.iter().find(|n| n["id"] == *slot).expect("a slot node");
        assert_eq!(node["use"], "agent_slot", "{slot}");
        assert_eq!(node["timeout_ms"], 180_000, "{slot}");
        assert_eq!(node["on_error"], "route", "{slot}");
        assert_eq!(node["inputs"]["position"], json!((i + 1).to_string()), "{slot} runs position {}", i + 1);
        let out: Vec<&Value> = edges.iter().filter(|e| e["from"] == *slot).collect();
        let next = if i + 1 < SLOTS.len() { SLOTS[i + 1] } else { "approve_result" };
        assert_eq!(out.len(), 2, "{slot}: the next slot and its error edge only");
        assert!(out.iter().any(|e| e["to"] == next && e.get("when").is_none() && e.get("label").is_none()), "{slot}");
        assert!(out.iter().any(|e| e["to"] == "agent_failed" && e["label"] == "error"), "{slot}");
    }
    // No cycle anywhere: the longest path bounds the run, well inside max_steps.
    let ids: Vec<&str> = nodes.iter().map(|n| text(&n["id"])).collect();
    let mut longest = std::collections::HashMap::new();
    fn depth<'a>(
        id: &'a str,
        edges: &'a [Value],
        seen: &mut Vec<&'a str>,
        memo: &mut std::collections::HashMap<&'a str, usize>,
    ) -> usize {
        assert!(!seen.contains(&id), "a cycle through {id}: {seen:?}");
        if let Some(d) = memo.get(id) {
            return *d;
        }
        seen.push(id);
        let d = edges
            .iter()
            .filter(|e| e["from"] == id)
            .map(|e| 1 + depth(text(&e["to"]), edges, seen, memo))
            .max()
            .unwrap_or(0);
        seen.pop();
        memo.insert(id, d);
        d
    }
    let mut seen = Vec::new();
    let deepest = depth("start", edges, &mut seen, &mut longest);
    assert!(
        ids.iter().all(|id| longest.contains_key(id) || nodes.iter().any(|n| n["id"] == *id && n["kind"] == "note"))
    );
    // Steps: every node on the way but start and the end.
    assert!(deepest - 1 < g["limits"]["max_steps"].as_u64().expect("max_steps") as usize, "{deepest}");
    // The canvas explains the line.
    let note = nodes.iter().find(|n| n["kind"] == "note").expect("a note");
    assert!(text(&note["text"]).contains("approved order"), "{note}");
}

#[test]
/// Seed, property 1: the planner proposes agents for the task with a reason for each, whatever
/// the case of the words; property 2: no agent runs before the plan is approved.
fn orchestrator_planner_proposes_agents_with_reasons_before_anything_runs() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    assert_eq!(ran(&first.record), [["analyse_task"], ["planner"], ["size_plan"]]);
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    assert_eq!(first.record["state"]["plan"]["reasons"]["zoho"], "book the entries in the ledger");
    assert_eq!(first.record["state"]["estimated_seconds"], 240);
    assert_eq!(first.record["state"]["complexity"], "medium");
    let p = prompt(&first);
    assert!(p.contains("proposed by the planner:\n- gmail: find the emails that carry the documents\n"), "{p}");
    let fields = &first.record["waiting"][0]["fields"];
    assert_eq!(fields["plan_decision"]["options"], json!(["approve", "reject"]));

    let shouting = planned(dir.path(), "BOOK THIS MONTH'S SUPPLIER INVOICES!!");
    assert_eq!(proposed(&shouting), "gmail, invoice, zoho, audit", "case does not matter");
    let other = planned(dir.path(), "update the customer accounts; then close the month");
    assert_eq!(proposed(&other), "salesforce, closing");
    assert_eq!(other.record["state"]["complexity"], "simple");
}

#[test]
/// Seed, properties 3 to 6 and 8: the approved agents run in that order, each exactly once,
/// one after the other without a person stepping in, later agents reading what earlier ones
/// collected; then the result is approved and the run ends `completed`.
fn orchestrator_runs_each_approved_agent_once_in_order_then_completes_on_approval() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let second = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3);
    let r = &second.record;
    assert_eq!(r["next"], json!(["approve_result"]));
    assert_eq!(strs(&r["state"]["agent_sequence"]), ["gmail", "invoice", "zoho", "audit"]);
    assert_eq!(r["state"]["approved_order"], "gmail → invoice → zoho → audit");
    assert_eq!(agents_that_ran(r), ["gmail", "invoice", "zoho", "audit"]);
    let after: Vec<Vec<String>> = ran(r).into_iter().skip(3).collect();
    let line: Vec<Vec<String>> =
        ["approve_plan", "read_sequence"].into_iter().chain(SLOTS).map(|n| vec![n.to_string()]).collect();
    assert_eq!(after, line, "the slots run one after the other, each once");
    let steps: Vec<u64> = r["state"]["execution_results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|e| e["step"].as_u64().expect("n"))
        .collect();
    assert_eq!(steps, [1, 2, 3, 4]);
    // Later agents read what earlier ones collected.
    let data = &r["state"]["collected_data"];
    assert_eq!(data["invoice"]["invoices_read"], data["gmail"]["invoices_attached"]);
    assert_eq!(data["zoho"]["ledger_entries"], 2);
    assert_eq!(data["audit"], json!({"checked": 2, "unbooked": 0}));
    // Progress, as the person watching sees it after each step: who is next, how far the plan is.
    let seen: Vec<(&str, &str)> = ["read_sequence", "slot_1", "slot_2", "slot_3", "slot_4", "slot_5", "slot_6"]
        .into_iter()
        .map(|n| (text(&r["outputs"][n][0]["next_agent"]), text(&r["outputs"][n][0]["progress"])))
        .collect();
    assert_eq!(
        seen,
        [
            ("gmail", "0 of 4 agents done"),
            ("invoice", "1 of 4 agents done (gmail just finished)"),
            ("zoho", "2 of 4 agents done (invoice just finished)"),
            ("audit", "3 of 4 agents done (zoho just finished)"),
            ("none", "4 of 4 agents done (audit just finished)"),
            ("none", "4 of 4 agents done"),
            ("none", "4 of 4 agents done"),
        ]
    );
    let p = prompt(&second);
    assert!(p.starts_with("The 4 agents of the plan ran in the approved order, each once (gmail → invoice → zoho → audit):\n1. gmail: Found 3"), "{p}");

    let done = resume(dir.path(), ORCHESTRATOR, &second, &json!({"approve_result": {"result_decision": "approve"}}), 0);
    assert_eq!(done.record["status"], "completed");
    assert_eq!(
        final_of(&done.record),
        (
            "completed",
            "Completed gmail → invoice → zoho → audit: each agent once, in the approved order; the result was approved."
        )
    );
}

#[test]
/// Seed: the approver may modify the sequence, and the run follows the approved order exactly
/// (property 3), each agent once (property 4): reordered, repeated, differently written or
/// unknown names.
fn orchestrator_follows_the_order_as_the_approver_edited_it() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r =
        resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("Closing -> GMAIL,invoice;  gmail payroll")), 3);
    let s = &r.record["state"];
    assert_eq!(
        strs(&s["agent_sequence"]),
        ["closing", "gmail", "invoice"],
        "known agents, each once, in the order written"
    );
    assert_eq!(strs(&s["unknown_agents"]), ["payroll"]);
    assert_eq!(agents_that_ran(&r.record), ["closing", "gmail", "invoice"]);
    assert_eq!(s["collected_data"]["closing"]["entries_booked"], 0, "nothing was booked before closing");
    for slot in SLOTS {
        assert_eq!(times_ran(&r.record, slot), 1, "{slot}");
    }
    let prompts = agent_prompts(&r.record);
    let slots: Vec<&str> = prompts.iter().map(|(slot, _)| slot.as_str()).collect();
    assert_eq!(slots, ["slot_1", "slot_2", "slot_3"], "slots past the plan call no model");
    assert!(prompt(&r).contains("Left out of the plan (no such agent): [\"payroll\"]"), "{}", prompt(&r));
    let zoho_and_audit: Vec<&str> =
        agents_that_ran(&r.record).into_iter().filter(|a| ["zoho", "audit"].contains(a)).collect();
    assert!(zoho_and_audit.is_empty(), "agents taken out of the plan do not run");
}

#[test]
/// The review's loop: which agent ran, and how many times, never depends on what a model
/// writes. With every agent's model answering the same odd report, the plan still runs once,
/// in order, under the plan's names.
fn orchestrator_runs_once_whatever_the_agents_answer() {
    let dir = tmp();
    let graph = changed_copy(dir.path(), |g| {
        let work = slot_work_mut(g);
        work["model"]["responses"] =
            json!([{"done": true, "summary": "I am GMAIL. Or am I?", "records": 1, "data": {"agent": "Invoice "}}]);
    });
    let first = planned_with(dir.path(), &graph, BOOK);
    let r = resume_with(dir.path(), &graph, &first, &approve_plan(Some("zoho, audit, closing")), 3).record;
    assert_eq!(agents_that_ran(&r), ["zoho", "audit", "closing"]);
    for slot in SLOTS {
        assert_eq!(times_ran(&r, slot), 1, "{slot}");
    }
    assert_eq!(r["next"], json!(["approve_result"]));
}

#[test]
/// The approver's comments on the plan reach every agent (in its prompt) and show in what each
/// one reports.
fn orchestrator_plan_comments_reach_every_agent() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let answer = json!({"approve_plan": {"plan_decision": "approve", "sequence": "gmail, invoice, zoho", "plan_comments": "only suppliers from Spain"}});
    let r = resume(dir.path(), ORCHESTRATOR, &first, &answer, 3);
    let prompts = agent_prompts(&r.record);
    assert_eq!(prompts.len(), 3);
    for (slot, p) in &prompts {
        assert!(p.contains("Approver's comments: only suppliers from Spain"), "{slot}: {p}");
    }
    for e in r.record["state"]["execution_results"].as_array().expect("results") {
        assert!(text(&e["summary"]).ends_with("As the approver asked: only suppliers from Spain"), "{e}");
    }
    assert!(
        prompt(&r).contains("3. zoho: Booked 2 ledger entries. As the approver asked: only suppliers from Spain"),
        "{}",
        prompt(&r)
    );

    // Without comments the agents are told there are none.
    let plain = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("gmail")), 3);
    let prompts = agent_prompts(&plain.record);
    assert!(prompts[0].1.contains("Approver's comments: none"), "{}", prompts[0].1);
    assert_eq!(
        plain.record["state"]["execution_results"][0]["summary"],
        "Found 3 supplier emails, 2 with invoices attached."
    );
}

#[test]
/// Seed: fallback logic, a default sequence when the AI gives none: a task the planner does not
/// recognise gets the default plan (reading and checking only), which runs once approved.
fn orchestrator_unrecognised_task_gets_the_default_sequence() {
    let dir = tmp();
    let first = planned(dir.path(), "Prepare the quarterly sustainability slides");
    assert_eq!(first.record["state"]["mentioned_agents"], json!([]));
    assert_eq!(ran(&first.record), [["analyse_task"], ["planner"], ["use_default"], ["size_plan"]]);
    assert_eq!(proposed(&first), "gmail, invoice, audit");
    assert!(
        prompt(&first).contains("proposed by the default sequence, as the planner found no agent for this task:"),
        "{}",
        prompt(&first)
    );
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3).record;
    assert_eq!(agents_that_ran(&r), ["gmail", "invoice", "audit"]);
    assert_eq!(r["state"]["collected_data"]["audit"], json!({"checked": 2, "unbooked": 2}));
}

#[test]
/// Seed: fallback logic when the AI is unavailable, and response validation: a planner whose
/// answer is no valid plan (an agent that does not exist) gives way to the default sequence.
fn orchestrator_failing_planner_falls_back_to_the_default_sequence() {
    let dir = tmp();
    let graph = changed_copy(dir.path(), |g| {
        node_mut(g, "planner")["model"]["responses"] = json!([{"agents": ["payroll"], "reasons": {}}]);
    });
    let first = planned_with(dir.path(), &graph, BOOK);
    assert_eq!(proposed(&first), "gmail, invoice, audit");
    let source = text(&first.record["state"]["plan_source"]);
    assert!(source.starts_with("the default sequence, as the planner failed ("), "{source}");
    assert!(source.contains("payroll"), "the reason is shown: {source}");
}

#[test]
/// Seed: plan rejection ends the workflow without running any agent; the run says so, with the
/// approver's comments.
fn orchestrator_rejected_plan_ends_rejected_without_running_any_agent() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let answer = json!({"approve_plan": {"plan_decision": "reject", "plan_comments": "not this month"}});
    let r = resume(dir.path(), ORCHESTRATOR, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r).last().expect("a step"), &["plan_rejected"]);
    assert_eq!(final_of(&r), ("rejected", "The plan was rejected, so no agent ran. Comments: not this month."));
    assert_eq!(r["state"]["execution_results"], json!([]));
    assert_eq!(r["state"]["collected_data"], json!({}));
    assert!(SLOTS.iter().all(|s| times_ran(&r, s) == 0));

    let bare =
        resume(dir.path(), ORCHESTRATOR, &first, &json!({"approve_plan": {"plan_decision": "reject"}}), 0).record;
    assert_eq!(final_of(&bare), ("rejected", "The plan was rejected, so no agent ran. Comments: none."));
}

#[test]
/// An empty task, or one of spaces only, plans nothing and ends failed, saying why.
fn orchestrator_blank_task_ends_failed_without_planning() {
    let dir = tmp();
    for task in ["", "   \n\t "] {
        let r = run(dir.path(), ORCHESTRATOR, &json!({ "task": task }), 1).record;
        assert_eq!(ran(&r), [["no_task"]], "{task:?}");
        assert_eq!(r["error"]["node"], "no_task_end");
        assert_eq!(final_of(&r), ("failed", "No task was given, so nothing was planned and no agent ran."));
        assert_eq!(r["error"]["message"], r["state"]["final_result"]);
    }
    // No task at all is refused before the run starts.
    sy(&["run", &template(ORCHESTRATOR), "--input", "{}"]).assert_bad_input(&["task"]);
}

#[test]
/// Seed, property 9 and error handling: a failing agent ends the workflow at once (no later
/// agent runs), the person is notified with the agent and its error, and the run ends failed.
fn orchestrator_failing_agent_stops_the_run_and_tells_the_person() {
    let dir = tmp();
    // The ledger books euros only: for a task in dollars the zoho agent cannot do its part.
    let first = planned(dir.path(), "Book this month's supplier invoices in USD");
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    let told = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3);
    let r = &told.record;
    assert_eq!(r["next"], json!(["notify_failure"]), "the person is told");
    assert_eq!(agents_that_ran(r), ["gmail", "invoice"], "no agent after the failed one runs");
    assert_eq!(times_ran(r, "slot_4") + times_ran(r, "approve_result"), 0);
    let (status, result) = final_of(r);
    assert_eq!(status, "failed");
    assert!(result.starts_with("Agent zoho (step 3 of 4) failed: "), "{result}");
    assert!(result.ends_with("The ledger books euros only; this task asks for dollars."), "{result}");
    assert_eq!(r["state"]["failed_agent"], "zoho");
    assert_eq!(
        (text(&r["state"]["next_agent"]), text(&r["state"]["progress"])),
        ("none", "Stopped after 2 of 4 agents")
    );
    assert_eq!(r["state"]["collected_data"]["invoice"]["invoices_read"], 2, "what earlier agents did is kept");
    let p = prompt(&told);
    assert!(p.starts_with(result) && p.contains("Agents that finished: gmail, invoice. No later agent ran."), "{p}");
    assert_eq!(r["waiting"][0]["options"], json!(["ok"]));

    refused(&told, &json!({"notify_failure": "OK"}), &["must be one of ok"]);
    let end = resume(dir.path(), ORCHESTRATOR, &told, &json!({"notify_failure": "ok"}), 1).record;
    assert_eq!(end["status"], "failed");
    assert_eq!(end["error"]["kind"], "ended");
    assert_eq!(end["error"]["node"], "failed_end");
    assert_eq!(end["error"]["message"], result);

    // The same task in euros, with the audit moved first: it has nothing to check and fails
    // before any agent finished.
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("audit, gmail, invoice")), 3).record;
    let (status, result) = final_of(&r);
    assert_eq!(status, "failed");
    assert!(result.starts_with("Agent audit (step 1 of 3) failed: "), "{result}");
    assert_eq!(agents_that_ran(&r), Vec::<&str>::new());
    assert_eq!(times_ran(&r, "slot_2"), 0);
}

#[test]
/// Seed: agent timeout, then error termination and notification: an agent that runs out of
/// time (here its server never answers, and the slot's limit is lowered to 300 ms from 3
/// minutes) stops the run like any failing agent, and the person is told which one.
fn orchestrator_agent_out_of_time_stops_the_run_and_tells_the_person() {
    // Accepts connections (the system does) but never answers them.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
    let url = format!("http://{}/agent", silent.local_addr().expect("its address"));
    let dir = tmp();
    let graph = changed_copy(dir.path(), |g| {
        let work = slot_work_mut(g);
        *work = json!({"id": "work", "kind": "http", "url": url, "writes": "report"});
        for slot in SLOTS {
            node_mut(g, slot)["timeout_ms"] = json!(300);
        }
    });
    let first = planned_with(dir.path(), &graph, BOOK);
    let r = resume_with(dir.path(), &graph, &first, &approve_plan(None), 3).record;
    assert_eq!(r["next"], json!(["notify_failure"]));
    assert_eq!(
        final_of(&r),
        ("failed", "Agent gmail (step 1 of 4) failed: node `slot_1`: the subgraph `slot_1` took longer than 300 ms")
    );
    assert_eq!(times_ran(&r, "slot_2"), 0, "no later agent runs");
    drop(silent);
}

#[test]
/// An approved sequence naming no agent (a wrong name, nothing at all, or more text than the
/// run can read) runs nothing and ends failed, saying why.
fn orchestrator_approved_plan_with_no_known_agent_fails_readably() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("Payroll, payroll")), 1).record;
    assert_eq!(r["error"]["node"], "plan_empty_end");
    let (status, result) = final_of(&r);
    assert_eq!(status, "failed");
    assert!(
        result.starts_with("The approved sequence names no known agent (not agents: [\"payroll\"]; known: "),
        "{result}"
    );
    assert_eq!(r["error"]["message"], result);

    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some(" , ")), 1).record;
    assert_eq!(final_of(&r), ("failed", "The approved sequence was empty, so no agent ran."));

    let huge = "gmail ".repeat(16_000);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some(&huge)), 1).record;
    let (status, result) = final_of(&r);
    assert_eq!(status, "failed");
    assert!(result.starts_with("The approved sequence could not be read: "), "{result}");
    assert!(SLOTS.iter().all(|s| times_ran(&r, s) == 0));
}

#[test]
/// Seed: HITL approval of the plan takes approve or reject only; anything else (another case,
/// an empty or missing decision) is refused with a readable message and the run keeps waiting.
fn orchestrator_plan_form_refuses_an_unknown_or_empty_decision() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    refused(
        &first,
        &json!({"approve_plan": {"plan_decision": "Approve"}}),
        &["plan_decision", "must be one of approve, reject"],
    );
    refused(&first, &json!({"approve_plan": {"plan_decision": ""}}), &["plan_decision"]);
    refused(&first, &json!({"approve_plan": {}}), &["plan_decision", "missing"]);
    refused(&first, &json!({"approve_plan": "approve"}), &["approve_plan"]);
    // Still answerable afterwards.
    resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("gmail")), 3);
}

#[test]
/// Seed: HITL approval of the result: approved ends `completed`; a rejected result is marked
/// as requiring revision (`revise`, with what to change) or `rejected`; each ends the run, so
/// no agent runs twice; an unknown or empty decision is refused and the run keeps waiting.
fn orchestrator_result_form_takes_approve_revise_or_reject() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let second = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("gmail, invoice")), 3);
    assert_eq!(
        second.record["waiting"][0]["fields"]["result_decision"]["options"],
        json!(["approve", "revise", "reject"])
    );
    let answer = |decision: &str, comments: Option<&str>| match comments {
        Some(c) => json!({"approve_result": {"result_decision": decision, "result_comments": c}}),
        None => json!({"approve_result": {"result_decision": decision}}),
    };
    let cases = [
        (
            "approve",
            Some("fine"),
            "completed",
            "Completed gmail → invoice: each agent once, in the approved order; the result was approved (fine).",
        ),
        ("revise", Some("the totals look off"), "needs_revision", "The result needs revision: the totals look off."),
        ("revise", None, "needs_revision", "The result needs revision: no comments given."),
        ("reject", Some("wrong month"), "rejected", "The result was rejected: wrong month."),
        ("reject", None, "rejected", "The result was rejected: no reason given."),
    ];
    for (decision, comments, status, result) in cases {
        let r = resume(dir.path(), ORCHESTRATOR, &second, &answer(decision, comments), 0).record;
        assert_eq!(r["status"], "completed", "{decision}");
        assert_eq!(final_of(&r), (status, result), "{decision} {comments:?}");
        assert_eq!(times_ran(&r, "slot_1"), 1, "{decision}: no agent runs again");
    }
    refused(&second, &answer("maybe", None), &["result_decision", "must be one of approve, revise, reject"]);
    refused(&second, &answer("", None), &["result_decision"]);
    refused(&second, &answer("APPROVE", None), &["result_decision"]);
    refused(&second, &json!({"approve_result": {"result_comments": "no decision"}}), &["result_decision", "missing"]);
}

#[test]
/// Every agent in one plan: six agents, each once, within the step limit.
fn orchestrator_runs_all_six_agents_within_the_limits() {
    let dir = tmp();
    let first = planned(
        dir.path(),
        "Email the invoices, update the customer accounts, book and audit them, then close the month",
    );
    assert_eq!(proposed(&first), AGENTS.join(", "));
    assert_eq!(first.record["state"]["complexity"], "complex");
    let second = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3);
    assert_eq!(agents_that_ran(&second.record), AGENTS);
    let done =
        resume(dir.path(), ORCHESTRATOR, &second, &json!({"approve_result": {"result_decision": "approve"}}), 0).record;
    assert_eq!(final_of(&done).0, "completed");
    assert!(
        done["step"].as_u64().expect("step")
            <= read_template(ORCHESTRATOR)["limits"]["max_steps"].as_u64().expect("max")
    );
}
