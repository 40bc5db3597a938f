#!/usr/bin/env python3
"""Makes templates/tests/NNN.tests.json, a test suite for every template, from real runs.

Each case is a run of the template through the CLI (`switchyard run`, then `resume` with
each answer), made into a case by `switchyard test add`, so it holds the run's input,
answers, every model, HTTP and MCP reply, and the run as its baseline. Run it again after
changing a template on purpose, and review the diff of templates/tests/.

    scripts/template_suites.py [--bin target/debug/switchyard]

Template 007 starts its MCP memory server with npx (from the npm registry) and files facts
in /tmp/switchyard-memory-assistant.jsonl, which this script clears first.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
SUITES = TEMPLATES / "tests"

# template file → [(case name, input, [answers, in the order asked])]
CASES = {
    "000-task-loop.json": [
        ("create a note", {"request": "Create a note about AI"}, []),
        ("find notes", {"request": "I'd like to find my notes on sourdough"}, []),
        ("a plain question", {"request": "What is a vector database?"}, []),
        ("an empty request", {"request": ""}, []),
        ("a complex request", {"request": "Organize all my machine learning notes and create a comprehensive index"}, []),
    ],
    "001-step-engine.json": [
        ("rising readings, operator answers", {"readings": [12, 15, 18, 21, 24, 27]},
         [{"ask_operator": "Page the plant engineer"}]),
        ("a spike", {"readings": [5, 5, 31]}, [{"ask_operator": ""}]),
        ("falling back", {"readings": [40, 10]}, []),
        ("calm, lookup fails", {"readings": [3, 4, 2, 5]}, []),
        ("calm, lookup works", {"readings": [3, 4, 2, 5], "context_available": True}, []),
        ("no readings", {}, []),
    ],
    "002-agent-graph.json": [
        ("a question", {"task": "What is self-reflection?"}, []),
        ("a question in capitals", {"task": "WHAT DOES CRITIQUING MEAN HERE?"}, []),
        ("unknown topic", {"task": "What is quantum tunnelling?"}, []),
        ("analyze a repository", {"task": "Analyze this repository", "task_type": "analyze_repo"}, []),
        ("generate content", {"task": "Write a LinkedIn post about this project", "task_type": "Generate Content"}, []),
        ("an empty task", {"task": ""}, []),
    ],
    "003-approval.json": [
        ("approved with comments", {"request": "two days off next week", "requester": "Dana"},
         [{"get_approval": {"decision": "approve", "comments": "take Thursday and Friday"}}]),
        ("rejected", {"request": "two days off next week", "requester": "Dana"},
         [{"get_approval": {"decision": "Reject"}}]),
        ("an unknown decision", {"request": "a new laptop"}, [{"get_approval": {"decision": "maybe"}}]),
    ],
    "004-linear-orchestrator.json": [
        ("plan and result approved", {"task": "Book this month's supplier invoices"},
         [{"approve_plan": {"plan_decision": "approve"}}, {"approve_result": {"result_decision": "approve"}}]),
        ("a sequence of my own", {"task": "update the customer accounts; then close the month"},
         [{"approve_plan": {"plan_decision": "approve", "sequence": "Closing -> GMAIL,invoice; gmail payroll"}},
          {"approve_result": {"result_decision": "approve"}}]),
        ("plan rejected", {"task": "Book this month's supplier invoices"},
         [{"approve_plan": {"plan_decision": "reject", "plan_comments": "not this month"}}]),
        ("an agent fails", {"task": "Book this month's supplier invoices in USD"},
         [{"approve_plan": {"plan_decision": "approve"}}]),
        ("no task", {"task": ""}, []),
    ],
    "005-tool-agent.json": [
        ("one city", {"question": "What should I pack for Oslo?"}, []),
        ("two cities", {"question": "PARIS and lima next week"}, []),
        ("a city it does not know", {"question": "Going to Oslo and Berlin in May"}, []),
        ("no city", {"question": "Trip to Atlantis"}, []),
    ],
    "006-map-reduce.json": [
        ("two sections", {"document": "## Goals\nShip it by May. Keep it fast.\n## Risks\nServers may be slow."}, []),
        ("text before the first heading", {"document": "Intro. It matters.\n## Goals\nShip it."}, []),
        ("an empty section", {"document": "## Goals\nShip it ## soon.\n### Detail\nMore.\n## Budget\n\n## Risks\nSlow."}, []),
        ("nothing to summarize", {"document": "## A\n## B"}, []),
    ],
    "007-memory-assistant.json": [
        ("file a fact", {"message": "Remember that Ada likes green tea"}, []),
        ("a fact already known", {"message": "remember that Ada likes green tea."}, []),
        ("look it up", {"message": "What do you know about ada?"}, []),
        ("nothing filed", {"message": "Who is Grace?"}, []),
        ("not understood", {"message": "Hello there"}, []),
    ],
    "008-evaluation-loop.json": [
        ("accepted in round 3", {"task": "Explain unit tests"}, []),
        ("best effort", {"task": "Explain unit tests", "pass_score": 0.9}, []),
        ("accepted in round 4", {"task": "Explain unit tests", "pass_score": 1, "max_rounds": 5}, []),
    ],
}

# Evaluators a suite gets beside its cases (by template file).
EVALUATORS = {
    "008-evaluation-loop.json": lambda: [
        {"name": "passed the rubric", "expression": "if output.final_status == \"accepted\" { 1.0 } else { 0.5 }",
         "threshold": 0.5},
        {"name": "judge", "graph": json.loads((SUITES / "evaluation-judge.json").read_text()), "threshold": 0.6},
    ],
}


def sh(args, code=None):
    out = subprocess.run(args, capture_output=True, text=True)
    if code is not None and out.returncode not in code:
        sys.exit(f"{' '.join(args)}: exit {out.returncode}\n{out.stderr}")
    return out


def record_case(bin, graph, name, input, answers, work, suite):
    run = work / "run.json"
    args = [bin, "run", str(graph), "--input", json.dumps(input), "--allow-command", "npx"]
    out = sh(args, code={0, 1, 3, 4})
    run.write_text(out.stdout)
    for answer in answers:
        out = sh([bin, "resume", str(run), "--graph", str(graph), "--answer", json.dumps(answer),
                  "--allow-command", "npx"], code={0, 1, 3, 4})
        run.write_text(out.stdout)
    sh([bin, "test", "add", str(run), "--suite", str(suite), "--name", name, "--graph", str(graph)], code={0})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=str(ROOT / "target" / "debug" / "switchyard"))
    a = p.parse_args()
    SUITES.mkdir(exist_ok=True)
    memory = Path("/tmp/switchyard-memory-assistant.jsonl")
    if memory.exists():
        memory.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for file, cases in CASES.items():
            suite = SUITES / file.replace(".json", ".tests.json")
            if suite.exists():
                suite.unlink()
            for name, input, answers in cases:
                record_case(a.bin, TEMPLATES / file, name, input, answers, Path(tmp), suite)
            doc = json.loads(suite.read_text())
            if file in EVALUATORS:
                doc["evaluators"] = EVALUATORS[file]()
            suite.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
            os.chmod(suite, 0o644)
            print(f"{suite.relative_to(ROOT)}: {len(cases)} cases")


if __name__ == "__main__":
    main()
