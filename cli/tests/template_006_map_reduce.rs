//! The 006 map-reduce template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the rule it protects.
//!
//! The rules (format.md §5, map edges; docs/templates): the document is split at its `## ` headings, and only there; no
//! text is lost (a `##` inside a line, `###` sub-headings, code blocks and the text before the
//! first heading all stay); the map edge runs the summarizer once per section, all in one
//! step; `combine` (`join: all`) waits for every instance and reports in section order; empty
//! sections are reported, not dropped; every run ends with `final_status` and `final_result`.

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
// 006 map-reduce
// ---------------------------------------------------------------------------------------------

const MAP_REDUCE: &str = "006-map-reduce.json";

fn summarize(dir: &Path, document: &str, code: i32) -> Value {
    let input = write(dir, "in.json", json!({ "document": document }).to_string());
    let out = sy(&["run", &template(MAP_REDUCE), "--input", &format!("@{input}")]);
    out.record(code)
}

/// `[title, text]` of every section found.
fn sections(record: &Value) -> Vec<(String, String)> {
    record["state"]["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| (text(&s["title"]).to_string(), text(&s["text"]).to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_string(), (*b).to_string())).collect()
}

/// Rule: one summarizer instance per section, all in one step; `combine` waits for all of them
/// and reports in section order; the report is the final result.
#[test]
fn map_reduce_summarizes_every_section_at_once_then_joins_them_in_order() {
    let dir = tmp();
    let doc =
        "## Goals\nShip it by May. Keep it fast.\n## Risks\nServers may be slow. We cache.\n## Team\nThree people.";
    let r = summarize(dir.path(), doc, 0);
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [vec!["split"], vec!["summarize[0]", "summarize[1]", "summarize[2]"], vec!["combine"]]);
    assert_eq!(
        strs(&r["state"]["summaries"]),
        ["Goals: Ship it by May", "Risks: Servers may be slow", "Team: Three people."]
    );
    let report = "- Goals: Ship it by May\n- Risks: Servers may be slow\n- Team: Three people.\n";
    assert_eq!(r["state"]["final_result"], report);
    assert_eq!(r["state"]["final_status"], "completed");
    assert_eq!(r["state"]["empty_sections"], json!([]));
    // Each instance saw its own section in its prompt.
    let prompt = text(&r["steps"][1]["details"]["summarize[1]"]["prompt"]);
    assert!(prompt.contains("\"Risks\"") && prompt.contains("We cache."), "{prompt}");
}

/// Rule: text before the first heading is kept, as a section of its own that says where it
/// came from; a document without any heading is that one section.
#[test]
fn map_reduce_keeps_the_text_before_the_first_heading() {
    let dir = tmp();
    let r = summarize(dir.path(), "Intro. It matters.\n## Goals\nShip it.", 0);
    assert_eq!(sections(&r), pairs(&[("Before the first heading", "Intro. It matters."), ("Goals", "Ship it.")]));
    assert_eq!(r["state"]["final_result"], "- Before the first heading: Intro\n- Goals: Ship it.\n");

    let r = summarize(dir.path(), "just text. More.", 0);
    assert_eq!(ran(&r)[1], ["summarize[0]"]);
    assert_eq!(r["state"]["final_result"], "- Before the first heading: just text\n");
    assert_eq!(r["state"]["final_status"], "completed");
}

/// Rule: the document is cut only at lines that begin with `## `: a `##` inside a line stays
/// text, and nothing is lost.
#[test]
fn map_reduce_splits_only_at_line_start_headings() {
    let dir = tmp();
    let doc = "## Goals\nShip it ## soon, or C## will win. Keep it fast.\n## Risks\nSlow.";
    let r = summarize(dir.path(), doc, 0);
    assert_eq!(
        sections(&r),
        pairs(&[("Goals", "Ship it ## soon, or C## will win. Keep it fast."), ("Risks", "Slow.")])
    );
    // Indented headings and Windows line ends are headings too.
    let r = summarize(dir.path(), "  ## One\r\nA.\r\n## Two\r\nB.\r\n", 0);
    assert_eq!(sections(&r), pairs(&[("One", "A."), ("Two", "B.")]));
}

/// Rule: `###` sub-headings stay inside their section (no section with a stray `#`), and a
/// `## ` line inside a code block is not a heading.
#[test]
fn map_reduce_keeps_sub_headings_and_code_inside_their_section() {
    let dir = tmp();
    let doc = "## Plan\nFirst we build.\n### Week one\nSet up.\n#### Detail\nTiny.\n## Code\n```\n## not a heading\n```\nRun it.";
    let r = summarize(dir.path(), doc, 0);
    assert_eq!(
        sections(&r),
        pairs(&[
            ("Plan", "First we build.\n### Week one\nSet up.\n#### Detail\nTiny."),
            ("Code", "```\n## not a heading\n```\nRun it."),
        ])
    );
    assert!(sections(&r).iter().all(|(t, _)| !t.starts_with('#')), "no title starts with #");
    // The summaries read the prose, not the heading or code-fence lines.
    assert_eq!(strs(&r["state"]["summaries"]), ["Plan: First we build", "Code: Run it."]);
    // A section of sub-headings only is still summarized, and says so.
    let r = summarize(dir.path(), "## Outline\n### Part one\n### Part two", 0);
    assert_eq!(strs(&r["state"]["summaries"]), ["Outline: only sub-headings, no text"]);
}

/// Rule: an empty section is reported, not dropped silently; it is not sent to the model.
#[test]
fn map_reduce_reports_empty_sections() {
    let dir = tmp();
    let doc = "## Goals\nShip it.\n## Budget\n\n## Risks\nSlow.\n##\n## Notes\n   \n";
    let r = summarize(dir.path(), doc, 0);
    assert_eq!(sections(&r), pairs(&[("Goals", "Ship it."), ("Risks", "Slow.")]));
    assert_eq!(r["state"]["empty_sections"], json!(["Budget", "(untitled)", "Notes"]));
    assert_eq!(ran(&r)[1], ["summarize[0]", "summarize[1]"], "no instance for an empty section");
    assert_eq!(
        r["state"]["final_result"],
        "- Goals: Ship it.\n- Risks: Slow.\nEmpty sections, nothing to summarize: Budget, (untitled), Notes.\n"
    );
    assert_eq!(r["state"]["final_status"], "completed");
}

/// Rule: with no section that has text, the map runs no instance, `combine` does not run, and
/// the run says why there is no report.
#[test]
fn map_reduce_with_nothing_to_summarize_says_so() {
    let dir = tmp();
    for document in ["", "  \n\n ", "\n"] {
        let r = summarize(dir.path(), document, 0);
        assert_eq!(ran(&r), [["split"], ["nothing"]], "{document:?}");
        assert_eq!(r["state"]["final_status"], "nothing_to_summarize");
        assert_eq!(r["state"]["final_result"], "The document has no text to summarize.");
    }
    let r = summarize(dir.path(), "## A\n## B\n", 0);
    assert_eq!(times_ran(&r, "combine"), 0);
    assert!(ran(&r).iter().flatten().all(|n| !n.starts_with("summarize")));
    assert_eq!(r["state"]["final_status"], "nothing_to_summarize");
    assert_eq!(r["state"]["final_result"], "Every section is empty, so there is nothing to summarize: A, B.");
    let out = sy(&["run", &template(MAP_REDUCE), "--input", "{}"]);
    out.assert_bad_input(&["document"]);
}

/// Rule (limits): up to 100 sections are summarized in one step; more, or a document over
/// 400,000 characters, stops the run as failed with `stopped_at_limit` and the reason,
/// before any model call.
#[test]
fn map_reduce_limits_stop_the_run_readably() {
    let dir = tmp();
    let many = |n: usize| (0..n).map(|i| format!("## S{i}\nText {i}.\n")).collect::<String>();
    let r = summarize(dir.path(), &many(100), 0);
    assert_eq!(ran(&r)[1].len(), 100);
    assert_eq!(r["state"]["final_status"], "completed");

    let r = summarize(dir.path(), &many(101), 1);
    assert_eq!(ran(&r), [["split"], ["over_limit"]]);
    assert_eq!(r["error"]["node"], "end_failed");
    assert_eq!(r["state"]["final_status"], "stopped_at_limit");
    let message = text(&r["state"]["final_result"]);
    assert!(message.starts_with("The document was not summarized: "), "{message}");
    assert!(message.contains("the document has 101 sections with text; at most 100"), "{message}");
    assert_eq!(r["error"]["message"], message);

    let r = summarize(dir.path(), &format!("## Long\n{}", "word ".repeat(100_000)), 1);
    assert_eq!(r["state"]["final_status"], "stopped_at_limit");
    assert!(text(&r["state"]["final_result"]).contains("at most 400000 are split"), "{}", r["state"]["final_result"]);
    assert_eq!(times_ran(&r, "summarize"), 0);
}
