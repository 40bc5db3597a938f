//! The 005 tool-calling agent template, run through the real `switchyard` binary with the inputs a person would
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
// 005 tool-calling agent
// ---------------------------------------------------------------------------------------------

const AGENT: &str = "005-tool-agent.json";

/// The roles of the transcript, in order, and the names of the tools that answered.
fn transcript(record: &Value) -> (Vec<&str>, Vec<&str>) {
    let messages = record["state"]["messages"].as_array().expect("a transcript");
    let roles = messages.iter().map(|m| text(&m["role"])).collect();
    let tools = messages.iter().filter(|m| m["role"] == "tool").map(|m| text(&m["name"])).collect();
    (roles, tools)
}

#[test]
fn tool_agent_calls_weather_then_packing_list_and_answers_from_their_results() {
    let dir = tmp();
    let cold = run(dir.path(), AGENT, &json!({"question": "What should I pack for Oslo?"}), 0).record;
    assert_eq!(cold["status"], "completed");
    let (roles, tools) = transcript(&cold);
    assert_eq!(roles, ["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    assert_eq!(tools, ["weather", "packing_list"]);
    assert_eq!(text(&cold["state"]["answer"]), "For Oslo (-3 °C, snow) pack: warm coat, gloves and snow boots.");
    // The second call's arguments were taken from the first call's result.
    let call = &cold["state"]["messages"][3]["tool_calls"][0];
    assert_eq!(call["name"], "packing_list");
    assert_eq!(call["arguments"], json!({"temp_c": -3, "sky": "snow"}));
    assert_eq!(
        ran(&cold),
        [vec!["intake"], vec!["agent"], vec!["tools"], vec!["agent"], vec!["tools"], vec!["agent"], vec!["answer"]]
    );

    let hot = run(dir.path(), AGENT, &json!({"question": "Heading to Cairo next week"}), 0).record;
    assert_eq!(text(&hot["state"]["answer"]), "For Cairo (31 °C, sun) pack: sun hat and sunscreen.");
}

#[test]
fn tool_agent_answers_without_tools_for_a_city_it_does_not_know() {
    let dir = tmp();
    let r = run(dir.path(), AGENT, &json!({"question": "Trip to Atlantis"}), 0).record;
    let (roles, tools) = transcript(&r);
    assert_eq!(roles, ["user", "assistant"]);
    assert!(tools.is_empty());
    assert!(text(&r["state"]["answer"]).contains("Which city"), "{}", r["state"]["answer"]);
    assert_eq!(times_ran(&r, "tools"), 0);
}
