"""Switchyard's runs as a person sees them in Arize Phoenix: each test runs the CLI with the
standard OpenTelemetry variables pointing at Phoenix, then reads the spans back through
Phoenix's REST API and checks what its UI would show."""

import json
import time
import unittest

import support
from capture import Capture
from support import PLANTED_KEY, Tree, cli_env, epoch_ms, project_name, read_json, switchyard, text_of

# Attributes that carry message content: present only when the person opts in.
CONTENT_KEYS = ("gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions",
                "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "input.value", "output.value")
QUESTION = "What should I pack for Oslo?"
MS = 2.0  # how far apart two times may be (float ms → Phoenix's microseconds and back)


def attrs(span):
    return span["attributes"]


def carries_content(key, value):
    """Whether attribute `key` holds message content. Phoenix makes `output.value` itself from
    `gen_ai.response.id` and `.model` (no content): that one does not count."""
    if key == "output.value":
        try:
            return set(json.loads(value)) - {"id", "model"} != set()
        except (ValueError, TypeError):
            return True
    return key in CONTENT_KEYS or key.startswith(("llm.input_messages", "llm.output_messages"))


def run_tool_agent(label, capture_content=False):
    """The tool agent on the fake model, exported into a new project: (project, graph, record,
    tree, the run's stderr)."""
    folder = support.scratch()
    graph, path = support.tool_agent_graph(folder)
    project = project_name(label)
    done = switchyard("run", path, "--input", json.dumps({"question": QUESTION}), "--record", folder / "run.json",
                      env=cli_env(project, capture_content=capture_content))
    record = read_json(folder / "run.json")
    return project, graph, record, support.wait_for_trace(project, record["trace_id"]), done.stderr


class ToolAgentTrace(unittest.TestCase):
    """templates/005-tool-agent.json, its agent on an OpenAI-compatible server (fake_openai.py)
    that calls both tools, with the key planted in the environment."""

    @classmethod
    def setUpClass(cls):
        cls.project, cls.graph, cls.record, cls.tree, cls.stderr = run_tool_agent("tool-agent")

    def test_the_run_is_one_trace_under_the_records_id(self):
        trace_id = self.record["trace_id"]
        self.assertRegex(trace_id, r"^[0-9a-f]{32}$")
        self.assertEqual([t["trace_id"] for t in self.record["traces"]], [trace_id])
        # What the person running it is told, to find it in Phoenix.
        self.assertIn(f"trace {trace_id}", self.stderr)
        self.assertNotIn("could not send", self.stderr)
        every = support.phoenix.spans(self.project)
        self.assertEqual({s["context"]["trace_id"] for s in every}, {trace_id})
        self.assertEqual(len(every), len(self.tree.spans))

    def test_the_root_names_the_graph_and_the_run(self):
        root = self.tree.root
        self.assertEqual(root["name"], f"run {self.graph['name']}")
        self.assertEqual(root["span_kind"], "CHAIN")
        a = attrs(root)
        self.assertEqual(a["switchyard.graph.name"], self.graph["name"])
        self.assertEqual(a["switchyard.run.id"], self.record["run_id"])
        self.assertEqual(a["switchyard.run.status"], "completed")
        self.assertEqual(a["switchyard.run.steps"], len(self.record["steps"]))
        self.assertEqual(a["switchyard.graph.hash"], self.record["graph_hash"])
        self.assertNotEqual(root["status_code"], "ERROR")

    def test_steps_hold_the_nodes_that_ran(self):
        steps = self.tree.children(self.tree.root)
        self.assertEqual(sorted(s["name"] for s in steps),
                         sorted(f"step {s['step']}" for s in self.record["steps"]))
        for doc in self.record["steps"]:
            step = self.tree.step(doc["step"])
            self.assertEqual(attrs(step)["switchyard.step"], doc["step"])
            nodes = self.tree.children(step)
            self.assertEqual(sorted(n["name"] for n in nodes), sorted(f"node {id}" for id in doc["ran"]),
                             f"the node spans of step {doc['step']}")
            for node in nodes:
                self.assertEqual(attrs(node)["switchyard.node.id"], node["name"].removeprefix("node "))
                self.assertEqual(attrs(node)["switchyard.node.status"], "ok")

    def test_model_calls_are_llm_spans_under_the_agent(self):
        chats = self.tree.named("chat ")
        model_replies = [r for r in self.record["replies"] if r["kind"] == "model"]
        self.assertEqual(len(chats), len(model_replies))
        self.assertEqual(len(chats), 3, "weather, packing_list, then the answer")
        for chat in chats:
            self.assertEqual(chat["name"], "chat gpt-fake-1")
            self.assertEqual(chat["span_kind"], "LLM")
            self.assertEqual(self.tree.parent(chat)["name"], "node agent")
            a = attrs(chat)
            self.assertEqual(a["gen_ai.operation.name"], "chat")
            self.assertEqual(a["gen_ai.provider.name"], "openai")
            self.assertEqual(a["gen_ai.request.model"], "gpt-fake-1")
            self.assertEqual(a["gen_ai.response.model"], "gpt-fake-1")
            self.assertEqual(a["server.port"], support.model.port)
            self.assertEqual(a["llm.model_name"], "gpt-fake-1")
        finishes = [attrs(c)["gen_ai.response.finish_reasons"] for c in sorted(chats, key=lambda c: c["start_time"])]
        self.assertEqual(finishes, [["tool_calls"], ["tool_calls"], ["stop"]])

    def test_token_counts_are_the_records(self):
        usage = self.record["usage"]
        self.assertGreater(usage["input_tokens"], 0)
        root = attrs(self.tree.root)
        self.assertEqual(root["gen_ai.usage.input_tokens"], usage["input_tokens"])
        self.assertEqual(root["gen_ai.usage.output_tokens"], usage["output_tokens"])
        for doc in self.record["steps"]:
            told = doc.get("details", {}).get("agent", {}).get("usage")
            if not told:
                continue
            node = next(n for n in self.tree.children(self.tree.step(doc["step"])) if n["name"] == "node agent")
            [chat] = self.tree.children(node, "chat ")
            a = attrs(chat)
            self.assertEqual((a["gen_ai.usage.input_tokens"], a["gen_ai.usage.output_tokens"]),
                             (told["input_tokens"], told["output_tokens"]), f"step {doc['step']}")
            # What Phoenix's UI shows as the call's tokens.
            self.assertEqual((a["llm.token_count.prompt"], a["llm.token_count.completion"]),
                             (told["input_tokens"], told["output_tokens"]))
        self.assertEqual(sum(attrs(c)["gen_ai.usage.input_tokens"] for c in self.tree.named("chat ")),
                         usage["input_tokens"])

    def test_tool_calls_are_tool_spans_under_the_tools_node(self):
        tools = sorted(self.tree.named("execute_tool "), key=lambda s: s["start_time"])
        self.assertEqual([t["name"] for t in tools], ["execute_tool weather", "execute_tool packing_list"])
        for span, call_id in zip(tools, ["call_weather_1", "call_packing_2"]):
            self.assertEqual(span["span_kind"], "TOOL")
            self.assertEqual(self.tree.parent(span)["name"], "node tools")
            a = attrs(span)
            self.assertEqual(a["gen_ai.operation.name"], "execute_tool")
            self.assertEqual(a["gen_ai.tool.name"], span["name"].removeprefix("execute_tool "))
            self.assertEqual(a["gen_ai.tool.call.id"], call_id)

    def test_children_lie_within_their_parents(self):
        for span in self.tree.spans:
            parent = self.tree.parent(span)
            if parent is None:
                continue
            self.assertGreaterEqual(epoch_ms(span["start_time"]), epoch_ms(parent["start_time"]) - MS, span["name"])
            self.assertLessEqual(epoch_ms(span["end_time"]), epoch_ms(parent["end_time"]) + MS, span["name"])

    def test_no_key_and_no_content_by_default(self):
        self.assertIn(PLANTED_KEY, support.model.keys_seen, "the key really went to the model")
        for span in support.phoenix.spans(self.project):
            text = text_of(span)
            self.assertNotIn(PLANTED_KEY, text, span["name"])
            self.assertNotIn("Bearer", text, span["name"])
            self.assertNotIn("pack for Oslo", text, span["name"])
            self.assertNotIn("Pack what the list says", text, span["name"])
            for key, value in attrs(span).items():
                self.assertFalse(carries_content(key, value), f"{span['name']} has {key}: {value}")


class ToolAgentTraceWithContent(unittest.TestCase):
    """The same run with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true."""

    @classmethod
    def setUpClass(cls):
        cls.project, cls.graph, cls.record, cls.tree, _ = run_tool_agent("tool-agent-content", capture_content=True)

    def chats(self):
        return sorted(self.tree.named("chat "), key=lambda s: s["start_time"])

    def test_model_spans_carry_the_messages(self):
        first, *_, last = self.chats()
        self.assertIn(QUESTION, attrs(first)["gen_ai.input.messages"])
        self.assertIn("weather", attrs(first)["gen_ai.output.messages"])
        self.assertIn("Pack what the list says", attrs(last)["gen_ai.output.messages"])
        # What Phoenix shows as the call's input and output.
        self.assertIn(QUESTION, attrs(first)["input.value"])
        self.assertIn("Pack what the list says", attrs(last)["output.value"])
        self.assertIn("You help people pack", json.dumps(attrs(first).get("gen_ai.system_instructions", "")) +
                      attrs(first)["gen_ai.input.messages"])

    def test_tool_spans_carry_arguments_and_results(self):
        weather = next(s for s in self.tree.named("execute_tool weather"))
        self.assertIn("Oslo", attrs(weather)["gen_ai.tool.call.arguments"])
        self.assertIn("snow", attrs(weather)["gen_ai.tool.call.result"])

    def test_still_no_key(self):
        # The model's answer repeats the key: the record drops it, so no span can carry it.
        for span in support.phoenix.spans(self.project):
            self.assertNotIn(PLANTED_KEY, text_of(span), span["name"])


class TracesPerRun(unittest.TestCase):
    def test_each_run_is_its_own_trace_and_mock_models_say_so(self):
        folder, project = support.scratch(), project_name("two-runs")
        graph = support.TEMPLATES / "005-tool-agent.json"
        ids = []
        for i in range(2):
            switchyard("run", graph, "--input", json.dumps({"question": QUESTION}), "--record",
                       folder / f"{i}.json", env=cli_env(project))
            ids.append(read_json(folder / f"{i}.json")["trace_id"])
        self.assertNotEqual(ids[0], ids[1])
        for trace_id in ids:
            tree = support.wait_for_trace(project, trace_id)
            chats = tree.named("chat ")
            self.assertTrue(chats)
            self.assertTrue(all(attrs(c)["gen_ai.provider.name"] == "switchyard.mock" for c in chats))
        self.assertEqual(set(support.traces(support.phoenix.spans(project))), set(ids))


class RecordExportedLater(unittest.TestCase):
    """`switchyard trace RUN.json` sends a record made without export, with its own times."""

    def test_a_record_shows_up_with_its_recorded_times(self):
        folder, project = support.scratch(), project_name("trace-command")
        graph = support.TEMPLATES / "006-map-reduce.json"
        suite = read_json(support.TEMPLATES / "tests" / "006-map-reduce.tests.json")
        switchyard("run", graph, "--input", json.dumps(suite["cases"][0]["input"]), "--record", folder / "run.json",
                   env=cli_env())
        record = read_json(folder / "run.json")
        time.sleep(1.0)  # so the recorded times and the time of export differ visibly
        sent_at = time.time() * 1000
        switchyard("trace", folder / "run.json", "--graph", graph, env=cli_env(project))
        tree = support.wait_for_trace(project, record["trace_id"])
        self.assertEqual(tree.root["name"], f"run {read_json(graph)['name']}")
        self.assertTrue(any("[" in s["name"] for s in tree.named("node ")), "map instances as node <id>[i]")
        for doc in record["steps"]:
            self.assertIn("started_ms", doc, "a CLI run's steps say when they started")
            span = tree.step(doc["step"])
            self.assertAlmostEqual(epoch_ms(span["start_time"]), doc["started_ms"], delta=MS)
            self.assertAlmostEqual(epoch_ms(span["end_time"]) - epoch_ms(span["start_time"]), doc["duration_ms"],
                                   delta=MS)
            self.assertLess(epoch_ms(span["end_time"]), sent_at)
            self.assertEqual(sorted(n["name"] for n in tree.children(span)),
                             sorted(f"node {id}" for id in doc["ran"]))


class InterruptAndResume(unittest.TestCase):
    """templates/001-step-engine.json raises an alert and waits for the operator, then is
    resumed: two traces, the first ending with the interrupt, the second linked to it. Sent
    through capture.py, since Phoenix keeps no links."""

    @classmethod
    def setUpClass(cls):
        cls.capture = Capture(support.phoenix.traces_endpoint)
        cls.project = project_name("step-engine")
        folder = support.scratch()
        graph = support.TEMPLATES / "001-step-engine.json"
        env = cli_env(cls.project, endpoint=cls.capture.url)
        switchyard("run", graph, "--input", json.dumps({"readings": [5, 5, 31]}),
                   "--record", folder / "first.json", env=env, expect=(3,))
        switchyard("resume", folder / "first.json", "--graph", graph, "--answer",
                   json.dumps({"ask_operator": "Page the plant engineer"}), "--record", folder / "second.json", env=env)
        cls.first, cls.second = read_json(folder / "first.json"), read_json(folder / "second.json")

    @classmethod
    def tearDownClass(cls):
        cls.capture.close()

    def test_the_first_session_ends_with_the_interrupt(self):
        self.assertEqual(self.first["status"], "interrupted")
        root = support.wait_for_trace(self.project, self.first["trace_id"]).root
        self.assertEqual(root["status_code"], "UNSET")
        self.assertEqual(attrs(root)["switchyard.run.status"], "interrupted")
        [event] = [e for e in root["events"] if e["name"] == "switchyard.interrupt"]
        self.assertEqual(event["attributes"]["switchyard.waiting"], ["ask_operator"])
        self.assertAlmostEqual(epoch_ms(event["timestamp"]), epoch_ms(root["end_time"]), delta=MS)

    def test_the_resumed_session_is_a_new_trace_linked_to_the_first(self):
        sessions = self.second["traces"]
        self.assertEqual(len(sessions), 2)
        self.assertEqual(sessions[0]["trace_id"], self.first["trace_id"])
        self.assertEqual(self.second["trace_id"], sessions[1]["trace_id"])
        self.assertNotEqual(sessions[0]["trace_id"], sessions[1]["trace_id"])
        self.assertEqual(sessions[1]["from_step"], self.first["step"] + 1)
        first_root = support.wait_for_trace(self.project, sessions[0]["trace_id"]).root
        second = support.wait_for_trace(self.project, sessions[1]["trace_id"])
        self.assertEqual(attrs(second.root)["switchyard.session.from_step"], sessions[1]["from_step"])
        self.assertEqual(attrs(second.root)["switchyard.run.status"], "completed")
        # Each session's trace holds its own steps.
        self.assertEqual(sorted(s["name"] for s in second.children(second.root)),
                         sorted(f"step {n}" for n in range(sessions[1]["from_step"], self.second["step"] + 1)))
        [sent] = [s for s in self.capture.spans() if s["trace_id"] == sessions[1]["trace_id"] and not s["parent_id"]]
        self.assertEqual([(link["trace_id"], link["span_id"], link["attributes"].get("switchyard.link.type"))
                          for link in sent["links"]],
                         [(sessions[0]["trace_id"], first_root["context"]["span_id"], "resumed")])


class WaitBeforeTheFirstStep(unittest.TestCase):
    def test_a_run_that_waits_at_once_is_one_trace_once_resumed(self):
        """templates/003-approval.json waits before its first step: that session ran nothing,
        so the resumed run goes on under the same trace, and Phoenix shows it once, completed."""
        folder, project = support.scratch(), project_name("approval")
        graph = support.TEMPLATES / "003-approval.json"
        switchyard("run", graph, "--input", json.dumps({"request": "a trip to Oslo", "requester": "Ann"}),
                   "--record", folder / "first.json", env=cli_env(project), expect=(3,))
        switchyard("resume", folder / "first.json", "--graph", graph, "--answer",
                   json.dumps({"get_approval": {"decision": "approve"}}), "--record", folder / "second.json",
                   env=cli_env(project))
        record = read_json(folder / "second.json")
        self.assertEqual(record["trace_id"], read_json(folder / "first.json")["trace_id"])
        tree = support.wait_for_trace(project, record["trace_id"])
        self.assertEqual(attrs(tree.root)["switchyard.run.status"], "completed")
        self.assertEqual(len(tree.children(tree.root)), record["step"])
        self.assertEqual(set(support.traces(support.phoenix.spans(project))), {record["trace_id"]})


class TestSuiteCases(unittest.TestCase):
    def test_each_case_of_switchyard_test_is_a_trace(self):
        project = project_name("test-command")
        suite_path = support.TEMPLATES / "tests" / "005-tool-agent.tests.json"
        suite = read_json(suite_path)
        switchyard("test", suite_path, "--graph", support.TEMPLATES / "005-tool-agent.json", env=cli_env(project))
        names = sorted(c["name"] for c in suite["cases"])
        deadline = time.monotonic() + 60
        while True:
            roots = [s for s in support.phoenix.spans(project) if s["parent_id"] is None]
            if sorted(attrs(r).get("switchyard.test.case") or "" for r in roots) == names or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual(sorted(attrs(r).get("switchyard.test.case") or "" for r in roots), names)
        self.assertEqual(len({r["context"]["trace_id"] for r in roots}), len(names))
