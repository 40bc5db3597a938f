//! The 005 tool-calling agent template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the rule it protects.
//!
//! The rules (format.md §4 (llm, tools) and §8; docs/templates): the agent ⇄ tools loop runs the tool calls the model asks for
//! and feeds their results back; the mock model follows the transcript. Cities are found as
//! whole words in any case; every known city named is answered (one weather call and one
//! packing list call each); places without a forecast are told plainly; the agent never asks
//! the person anything (nothing in the run could answer); every run ends with `final_status`
//! and `final_result`.

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

const OSLO: &str = "For Oslo (-3 °C, snow) pack: warm coat, gloves and snow boots.";
const PARIS: &str = "For Paris (14 °C, rain) pack: light jacket and umbrella.";
const CAIRO: &str = "For Cairo (31 °C, sun) pack: sun hat and sunscreen.";
const LIMA: &str = "For Lima (19 °C, cloud) pack: light jacket.";
const NONE_NAMED: &str = "Your question names none of the cities I have forecasts for (Paris, Oslo, Cairo and Lima), so I cannot say what to pack.";

fn ask(dir: &Path, question: &str) -> Value {
    run(dir, AGENT, &json!({ "question": question }), 0).record
}

/// The roles of the transcript, in order, and the names of the tools that answered.
fn transcript(record: &Value) -> (Vec<&str>, Vec<&str>) {
    let messages = record["state"]["messages"].as_array().expect("a transcript");
    let roles = messages.iter().map(|m| text(&m["role"])).collect();
    let tools = messages.iter().filter(|m| m["role"] == "tool").map(|m| text(&m["name"])).collect();
    (roles, tools)
}

/// The cities the `weather` tool was called with, in order.
fn weather_calls(record: &Value) -> Vec<String> {
    record["state"]["messages"]
        .as_array()
        .expect("a transcript")
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["name"] == "weather")
        .map(|c| text(&c["arguments"]["city"]).to_string())
        .collect()
}

/// The run ended with its answer as the final result, and with this status; it asked nothing.
fn assert_answer(record: &Value, status: &str, answer: &str) {
    assert_eq!(record["status"], "completed");
    let s = &record["state"];
    assert_eq!(s["answer"], answer);
    assert_eq!(s["final_result"], answer);
    assert_eq!(s["final_status"], status);
    assert!(!answer.contains('?'), "the agent asks no question: {answer}");
    assert!(record["waiting"].as_array().is_none_or(Vec::is_empty), "nobody is waited for");
}

/// Rule: the agent ⇄ tools loop: a known city gets a `weather` call, its forecast feeds the
/// `packing_list` call's arguments, and the answer quotes both results.
#[test]
fn tool_agent_calls_weather_then_packing_list_and_answers_from_their_results() {
    let dir = tmp();
    let cold = ask(dir.path(), "What should I pack for Oslo?");
    let (roles, tools) = transcript(&cold);
    assert_eq!(roles, ["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    assert_eq!(tools, ["weather", "packing_list"]);
    assert_answer(&cold, "completed", OSLO);
    // The second call's arguments were taken from the first call's result.
    let call = &cold["state"]["messages"][3]["tool_calls"][0];
    assert_eq!(call["name"], "packing_list");
    assert_eq!(call["arguments"], json!({"temp_c": -3, "sky": "snow"}));
    assert_eq!(ran(&cold), [["intake"], ["agent"], ["tools"], ["agent"], ["tools"], ["agent"], ["answer"]]);
    let hot = ask(dir.path(), "Heading to Cairo next week");
    assert_answer(&hot, "completed", CAIRO);
}

/// Rule: a city is found whatever its case: lower case, upper case, mixed.
#[test]
fn tool_agent_finds_a_city_in_any_case() {
    let dir = tmp();
    for question in ["what should i pack for oslo", "WHAT SHOULD I PACK FOR OSLO", "oSLo trip"] {
        let r = ask(dir.path(), question);
        assert_eq!(r["state"]["cities"], json!(["Oslo"]), "{question}");
        assert_eq!(weather_calls(&r), ["Oslo"], "the tool gets the city's own spelling");
        assert_answer(&r, "completed", OSLO);
    }
}

/// Rule: a city is matched as a whole word only: a known name inside a longer word (Limassol,
/// Parisian, Cairoli) is not that city.
#[test]
fn tool_agent_matches_whole_words_only() {
    let dir = tmp();
    let r = ask(dir.path(), "Is it cold in Limassol or Oslo?");
    assert_eq!(r["state"]["cities"], json!(["Oslo"]));
    assert_eq!(weather_calls(&r), ["Oslo"]);
    assert_eq!(r["state"]["other_places"], json!(["Limassol"]));
    let r = ask(dir.path(), "a trip to see the cairoli bridge and parisian cafés");
    assert_eq!(r["state"]["cities"], json!([]));
    assert_eq!(weather_calls(&r), Vec::<String>::new());
    assert_answer(&r, "no_city", NONE_NAMED);
}

/// Rule: every known city named is answered, in the order named, each once (one weather call
/// and one packing list call per city), whatever the punctuation between them.
#[test]
fn tool_agent_answers_every_known_city_named() {
    let dir = tmp();
    let r = ask(dir.path(), "PARIS and lima next week");
    assert_eq!(weather_calls(&r), ["Paris", "Lima"]);
    let (_, tools) = transcript(&r);
    assert_eq!(tools, ["weather", "packing_list", "weather", "packing_list"]);
    assert_answer(&r, "completed", &format!("{PARIS} {LIMA}"));

    let r = ask(dir.path(), "Heading to Cairo, then Paris, then Cairo again");
    assert_eq!(weather_calls(&r), ["Cairo", "Paris"], "a city named twice is looked up once");
    assert_answer(&r, "completed", &format!("{CAIRO} {PARIS}"));

    // The most there can be: all four cities, 4 tool rounds of two calls, within the step limit.
    let r = ask(dir.path(), "Oslo,Paris;Cairo/Lima!");
    assert_eq!(weather_calls(&r), ["Oslo", "Paris", "Cairo", "Lima"]);
    assert_eq!(times_ran(&r, "tools"), 8);
    assert_eq!(ran(&r).len(), 19);
    assert_answer(&r, "completed", &format!("{OSLO} {PARIS} {CAIRO} {LIMA}"));
}

/// Rule: a place without a forecast is told plainly, beside the cities that were answered; a
/// name of several words stays one place; weekdays and months are not places.
#[test]
fn tool_agent_tells_plainly_which_places_it_has_no_forecast_for() {
    let dir = tmp();
    let r = ask(dir.path(), "Going to Oslo and Berlin in May, back on Monday");
    assert_eq!(r["state"]["other_places"], json!(["Berlin"]));
    let no_berlin =
        "I have no forecast for Berlin, so I cannot say what to pack there; I know only Paris, Oslo, Cairo and Lima.";
    assert_answer(&r, "partial", &format!("{OSLO} {no_berlin}"));

    let r = ask(dir.path(), "Visiting New York, Lima and Rome");
    assert_eq!(r["state"]["other_places"], json!(["New York", "Rome"]));
    assert!(text(&r["state"]["answer"]).ends_with("I have no forecast for New York, Rome, so I cannot say what to pack there; I know only Paris, Oslo, Cairo and Lima."));
    assert_eq!(r["state"]["final_status"], "partial");
}

/// Rule: with no known city the agent calls no tool and says what it cannot do; it does not
/// ask the person which city (nothing in the run lets them answer).
#[test]
fn tool_agent_answers_without_tools_for_a_city_it_does_not_know() {
    let dir = tmp();
    let r = ask(dir.path(), "Trip to Atlantis");
    let (roles, tools) = transcript(&r);
    assert_eq!(roles, ["user", "assistant"]);
    assert!(tools.is_empty());
    assert_eq!(times_ran(&r, "tools"), 0);
    assert_answer(
        &r,
        "no_city",
        "I have no forecast for Atlantis, so I cannot say what to pack; I know only Paris, Oslo, Cairo and Lima.",
    );
    let r = ask(dir.path(), "what should I pack?");
    assert_answer(&r, "no_city", NONE_NAMED);
}

/// Rule: an empty or blank question is answered plainly, never a crash or a question back.
#[test]
fn tool_agent_empty_question() {
    let dir = tmp();
    for question in ["", "   ", "?!"] {
        let r = ask(dir.path(), question);
        assert_eq!(ran(&r), [["intake"], ["agent"], ["answer"]], "{question:?}");
        assert_answer(&r, "no_city", NONE_NAMED);
    }
    let out = sy(&["run", &template(AGENT), "--input", "{}"]);
    out.assert_bad_input(&["question"]);
}

/// Rule: reading the question is bounded by the run's limits; a question too long to read ends
/// the run as failed with a readable reason, before any tool runs.
#[test]
fn tool_agent_question_too_long_to_read_fails_readably() {
    let dir = tmp();
    let long = "We go to Oslo and then some more words here. ".repeat(2000);
    let input = write(dir.path(), "in.json", json!({ "question": long }).to_string());
    let out = sy(&["run", &template(AGENT), "--input", &format!("@{input}")]);
    let r = out.record(1);
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error"]["node"], "end_failed");
    assert_eq!(ran(&r), [["intake"], ["unreadable"]]);
    let s = &r["state"];
    assert_eq!(s["final_status"], "failed");
    assert!(text(&s["final_result"]).starts_with("The question could not be read: "), "{}", s["final_result"]);
    assert_eq!(r["error"]["message"], s["final_result"]);
    assert_eq!(times_ran(&r, "agent"), 0);

    // A long but ordinary question (a few thousand characters) is read.
    let r = ask(dir.path(), &"We go to Oslo and then some more words here. ".repeat(100));
    assert_answer(&r, "completed", OSLO);
}
