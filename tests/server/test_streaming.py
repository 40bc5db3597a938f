"""Streaming a run over SSE: the events, their order and what they carry, as LangGraph's
clients read them (metadata first, values after the input, updates and values per step,
interrupts as an `__interrupt__` update and value, messages, debug, then the stream closes)."""

import json
import subprocess

import suite
from support import ROOT, http, switchyard_binary


class Streaming(suite.ServerCase):
    def test_values_and_updates_follow_langgraphs_order(self):
        """Rule: metadata first; values after the input; then per step one update per node and
        the state after it; the input gives no update; no error event."""
        tid = self.thread()
        events = self.stream(tid, "simple", input={"text": "yo"}, stream_mode=["values", "updates"])
        names = [e for e, _ in events if e != "end"]
        self.assertEqual(names, ["metadata", "values", "updates", "values", "updates", "values"], events)
        self.assertIn("run_id", events[0][1])
        self.assertEqual(events[1][1], {"text": "yo", "count": 0, "echo": ""})
        self.assertEqual(events[2][1], {"inc": {"count": 1}})
        self.assertEqual(events[3][1], {"text": "yo", "count": 1, "echo": ""})
        self.assertEqual(events[4][1], {"shout": {"echo": "echo: yo"}})
        self.assertEqual(events[5][1], {"text": "yo", "count": 1, "echo": "echo: yo"})
        if "end" in [e for e, _ in events]:
            self.assertEqual(events[-1][0], "end", "an end event, when sent, is the last")

    def test_run_is_final_when_the_stream_closes(self):
        """Rule: by the time the stream closes the run is success, so the client never reconnects."""
        tid = self.thread()
        events = self.stream(tid, "simple", input={"text": "closed"})
        run_id = events[0][1]["run_id"]
        self.assertEqual(self.client.runs.get(tid, run_id)["status"], "success")
        self.assertEqual(self.client.threads.get(tid)["status"], "idle")

    def test_stream_headers_name_the_run(self):
        """Rule: the SSE response is text/event-stream and Content-Location names the run
        (the SDK's on_run_created reads it)."""
        tid = self.thread()
        seen = []
        list(self.client.runs.stream(tid, "simple", input={"text": "hdr"}, on_run_created=seen.append))
        self.assertEqual(len(seen), 1, seen)
        self.assertEqual(seen[0]["thread_id"], tid)
        self.assertEqual(self.client.runs.get(tid, seen[0]["run_id"])["status"], "success")
        status, body, headers = http("POST", f"{self.url}/threads/{tid}/runs/stream",
                                     {"assistant_id": "simple", "input": {"text": "raw"}})
        self.assertEqual(status, 200, body)
        self.assertTrue(headers["content-type"].startswith("text/event-stream"), headers["content-type"])
        self.assertTrue(headers["content-location"].startswith(f"/threads/{tid}/runs/"), dict(headers))
        self.assertTrue(body.lstrip().startswith("event: metadata"), body[:200])

    def test_interrupt_is_an_update_then_a_value(self):
        """Rule: a human node's wait streams as updates {"__interrupt__": [...]} then values with
        __interrupt__, and the stream closes; the form is in the interrupt's value."""
        tid = self.thread()
        events = self.stream(tid, "Approval workflow", input={"request": "a new laptop"},
                             stream_mode=["values", "updates"])
        events = [(e, d) for e, d in events if e != "end"]
        self.assertEqual(events[0][0], "metadata")
        self.assertEqual([e for e, _ in events[-2:]], ["updates", "values"], events)
        update, values = events[-2][1], events[-1][1]
        self.assertEqual(list(update), ["__interrupt__"], update)
        [interrupt] = update["__interrupt__"]
        self.assertTrue(interrupt["id"])
        self.assertIn("decision", json.dumps(interrupt["value"]), "the form's fields are in the interrupt")
        self.assertEqual(values["__interrupt__"], update["__interrupt__"])
        self.assertEqual(values["request"], "a new laptop")
        self.assertEqual(self.client.threads.get(tid)["status"], "interrupted")

    def test_map_instances_stream_under_their_node(self):
        """Rule: map instances (LangGraph's Send) stream as updates of their node, one per item."""
        tid = self.thread()
        doc = "## Goals\nShip it by May. Keep it fast.\n## Risks\nServers may be slow."
        events = self.stream(tid, "Map-reduce summary", input={"document": doc}, stream_mode="updates")
        nodes = [next(iter(d)) for e, d in events if e == "updates"]
        self.assertEqual(nodes.count("summarize"), 2, nodes)
        final = self.client.threads.get_state(tid)["values"]
        self.assertEqual(final["final_status"], "completed")
        self.assertEqual(len(final["summaries"]), 2)

    def test_messages_tuple_streams_the_models_reply(self):
        """Rule: stream_mode messages-tuple sends [message chunk, metadata] for an llm node's
        reply, typed "ai" and naming the node; the state holds LangChain-style messages."""
        tid = self.thread()
        events = self.stream(tid, "chat", input={"messages": [{"role": "user", "content": "hi there"}]},
                             stream_mode=["messages-tuple", "values"])
        chunks = [d for e, d in events if e == "messages"]
        self.assertTrue(chunks, events)
        for chunk, meta in chunks:
            self.assertIn(chunk["type"], ("ai", "AIMessageChunk"))
            self.assertEqual(meta["langgraph_node"], "agent")
        self.assertEqual("".join(c["content"] for c, _ in chunks), "Reply to: hi there")
        final = [d for e, d in events if e == "values"][-1]
        self.assertEqual([m["type"] for m in final["messages"]], ["human", "ai"], final)
        self.assertEqual(final["messages"][1]["content"], "Reply to: hi there")

    def test_debug_mode_reports_tasks_and_checkpoints(self):
        """Rule: stream_mode debug sends task, task_result and checkpoint items with their step."""
        tid = self.thread()
        events = self.stream(tid, "simple", input={"text": "dbg"}, stream_mode="debug")
        items = [d for e, d in events if e == "debug"]
        kinds = {d["type"] for d in items}
        self.assertTrue({"task", "task_result", "checkpoint"} <= kinds, kinds)
        tasks = [d["payload"]["name"] for d in items if d["type"] == "task"]
        self.assertEqual(tasks, ["inc", "shout"])
        for d in items:
            self.assertIn("step", d)

    def test_join_stream_of_a_finished_run_closes(self):
        """Rule: joining the stream of a finished run never hangs the client."""
        tid = self.thread()
        run = self.client.runs.create(tid, "simple", input={"text": "joined"})
        self.wait_for_run(tid, run["run_id"])
        list(self.client.runs.join_stream(tid, run["run_id"]))
        self.assertEqual(self.client.runs.join(tid, run["run_id"])["echo"], "echo: joined")


# One input per template that runs to its end without a person (the docs' examples).
TEMPLATE_INPUTS = {
    "000-task-loop.json": {"request": "Create a note about AI"},
    "001-step-engine.json": {"readings": [3, 4, 2, 5], "context_available": True},
    "002-agent-graph.json": {"task": "What is self-reflection?"},
    "005-tool-agent.json": {"question": "What is the weather in Paris and Oslo?"},
    "006-map-reduce.json": {"document": "Intro. It matters.\n## Goals\nShip it."},
}


def comparable(values):
    """Values with messages reduced to (speaker, text): the server speaks LangChain's `type`."""
    speaker = {"human": "user", "ai": "assistant"}
    out = {}
    for key, value in values.items():
        if isinstance(value, list) and value and isinstance(value[0], dict) and "content" in value[0] \
                and ("type" in value[0] or "role" in value[0]):
            value = [(speaker.get(m.get("type"), m.get("type")) if "type" in m else m["role"], m["content"])
                     for m in value]
        out[key] = value
    return out


class TemplatesAsTheCliRunsThem(suite.ServerCase):
    def test_each_template_ends_with_the_state_the_cli_gives(self):
        """Rule: a template served to langgraph-sdk ends with the same state `switchyard run`
        gives for the same input (messages compared by speaker and text)."""
        for name, given in TEMPLATE_INPUTS.items():
            path = str(ROOT / "templates" / name)
            with self.subTest(template=name):
                cli = subprocess.run([switchyard_binary(), "run", path, "--input", json.dumps(given), "--summary"],
                                     capture_output=True, text=True)
                expected = json.loads(cli.stdout)["state"]
                graph_id = json.load(open(path))["name"]
                got = self.client.runs.wait(None, graph_id, input=given)
                self.assertEqual(comparable(got), comparable(expected))
