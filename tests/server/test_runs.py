"""Runs in the background, joined, listed, cancelled; a busy thread's multitask strategy;
stateless runs; webhooks; and the errors a client gets for bad requests."""

import uuid

from langgraph_sdk.errors import ConflictError, NotFoundError

import suite
from support import HookReceiver, http, wait_until


class Runs(suite.ServerCase):
    def held_run(self, **kwargs):
        """A run whose model call the fake model holds: (thread id, run, topic)."""
        topic = self.unique("held")
        suite.model.hold(topic)
        self.addCleanup(suite.model.release)
        tid = self.thread()
        before = suite.model.waiting
        run = self.client.runs.create(tid, "held_model", input={"topic": topic}, **kwargs)
        suite.model.wait_for_waiting(before + 1)
        return tid, run, topic

    def test_create_then_join(self):
        """Rule: runs.create answers at once with a pending/running run; join gives its values."""
        tid = self.thread()
        run = self.client.runs.create(tid, "simple", input={"text": "bg"})
        self.assertIn(run["status"], ("pending", "running", "success"))
        self.assertEqual(self.client.runs.join(tid, run["run_id"])["echo"], "echo: bg")
        got = self.client.runs.get(tid, run["run_id"])
        self.assertEqual((got["status"], got["thread_id"], got["assistant_id"] != ""), ("success", tid, True))

    def test_a_busy_thread_rejects_a_second_run_with_409(self):
        """Rule: multitask_strategy reject refuses a run on a busy thread (409); the first goes on."""
        tid, run, topic = self.held_run()
        self.assertEqual(self.client.threads.get(tid)["status"], "busy")
        with self.assertRaises(ConflictError):
            self.client.runs.create(tid, "held_model", input={"topic": "again"}, multitask_strategy="reject")
        suite.model.release()
        self.assertEqual(self.client.runs.join(tid, run["run_id"])["answer"], f"Reply to: {topic}")
        self.assertEqual(suite.model.count(topic), 1)

    def test_enqueue_runs_the_second_after_the_first(self):
        """Rule: multitask_strategy enqueue accepts a run on a busy thread and starts it once the
        first has finished, from the state the first left."""
        tid, first, topic = self.held_run()
        second = self.client.runs.create(tid, "held_model", input={"topic": f"{topic}-next"},
                                         multitask_strategy="enqueue")
        self.assertIn(self.client.runs.get(tid, second["run_id"])["status"], ("pending", "running"))
        suite.model.release()
        done = self.client.runs.join(tid, second["run_id"])
        self.assertEqual(done["answer"], f"Reply to: {topic}-next")
        self.assertEqual(self.client.runs.get(tid, first["run_id"])["status"], "success")
        self.assertEqual(suite.model.count(topic), 1)

    def test_on_disconnect_cancel_stops_the_run(self):
        """Rule: a streaming client that asked on_disconnect=cancel takes its run with it."""
        topic = self.unique("cancel-on-go")
        suite.model.hold(topic)
        self.addCleanup(suite.model.release)
        tid = self.thread()
        before = suite.model.waiting
        stream = self.client.runs.stream(tid, "held_model", input={"topic": topic}, on_disconnect="cancel")
        first = next(stream)
        suite.model.wait_for_waiting(before + 1)
        stream.close()
        run = self.wait_for_run(tid, first.data["run_id"], statuses=("interrupted", "success", "error"))
        self.assertEqual(run["status"], "interrupted")

    def test_cancel_ends_the_run_interrupted(self):
        """Rule: a cancelled run ends interrupted and the thread is free for the next run."""
        tid, run, _ = self.held_run()
        self.client.runs.cancel(tid, run["run_id"])
        self.assertEqual(self.wait_for_run(tid, run["run_id"])["status"], "interrupted")
        suite.model.release()
        wait_until(lambda: self.client.threads.get(tid)["status"] != "busy", "the thread free after the cancel", 30)
        again = self.client.runs.wait(tid, "held_model", input={"topic": self.unique("after")})
        self.assertTrue(again["answer"].startswith("Reply to: after-"))

    def test_a_client_that_goes_away_leaves_the_run_going(self):
        """Rule: a stream whose client disconnects leaves the run going (on_disconnect continue)."""
        topic = self.unique("gone")
        suite.model.hold(topic)
        self.addCleanup(suite.model.release)
        tid = self.thread()
        before = suite.model.waiting
        stream = self.client.runs.stream(tid, "held_model", input={"topic": topic})
        first = next(stream)
        self.assertEqual(first.event, "metadata")
        suite.model.wait_for_waiting(before + 1)
        stream.close()
        suite.model.release()
        run = self.wait_for_run(tid, first.data["run_id"])
        self.assertEqual(run["status"], "success")
        self.assertEqual(self.client.threads.get_state(tid)["values"]["answer"], f"Reply to: {topic}")

    def test_stateless_wait_and_stream(self):
        """Rule: runs without a thread work (a temporary thread) and give the same values."""
        self.assertEqual(self.client.runs.wait(None, "simple", input={"text": "sl"}),
                         {"text": "sl", "count": 1, "echo": "echo: sl"})
        events = [(p.event, p.data) for p in self.client.runs.stream(None, "simple", input={"text": "sl2"})]
        self.assertEqual(events[0][0], "metadata")
        self.assertEqual([d for e, d in events if e == "values"][-1]["echo"], "echo: sl2")

    def test_webhook_is_called_on_completion(self):
        """Rule: a run's webhook receives a POST with the finished run once it completes."""
        hooks = HookReceiver()
        self.addCleanup(hooks.close)
        tid = self.thread()
        run = self.client.runs.create(tid, "simple", input={"text": "hook"}, webhook=f"{hooks.url}/done")
        [(path, body)] = hooks.wait_for(lambda c: isinstance(c[1], dict) and c[1].get("run_id") == run["run_id"])
        self.assertEqual(path, "/done")
        self.assertEqual(body["status"], "success")
        self.assertEqual(body["thread_id"], tid)

    def test_unknown_thread_or_run_is_404(self):
        """Rule: an unknown thread or run is 404 (unless if_not_exists="create")."""
        with self.assertRaises(NotFoundError):
            self.client.threads.get(str(uuid.uuid4()))
        self.refused(404, self.client.runs.wait, str(uuid.uuid4()), "simple", input={"text": "x"})
        tid = self.thread()
        with self.assertRaises(NotFoundError):
            self.client.runs.get(tid, str(uuid.uuid4()))
        made = self.client.runs.wait(str(uuid.uuid4()), "simple", input={"text": "c"}, if_not_exists="create")
        self.assertEqual(made["echo"], "echo: c")

    def test_bad_run_bodies_are_422(self):
        """Rule: an unknown assistant, an unknown stream mode, a missing assistant_id, a body
        that is not JSON, an input the graph refuses: 422 with a detail."""
        tid = self.thread()
        self.refused(422, self.client.runs.wait, tid, "no such graph", input={})
        self.refused(422, self.client.runs.wait, tid, "simple", input={"count": "not a number", "text": "t"})
        missing = self.refused(422, self.client.runs.wait, tid, "Approval workflow", input={"requester": "Dana"})
        self.assertIn("request", missing)
        for body in ({"input": {}}, {"assistant_id": "simple", "stream_mode": "telepathy"}):
            status, reply, _ = http("POST", f"{self.url}/threads/{tid}/runs/stream", body)
            self.assertEqual(status, 422, (body, reply))
            self.assertIn("detail", reply)
        status, reply, _ = http("POST", f"{self.url}/threads/{tid}/runs/wait", b"{not json")
        self.assertEqual(status, 422, reply)
        self.assertEqual(self.client.runs.list(tid), [], "no refused request left a run behind")

    def test_an_oversize_body_is_413(self):
        """Rule (Switchyard's, LangGraph takes it): a body over the server's limit is refused
        with 413, not read into memory; the client, still sending, gets that answer rather than
        a broken connection."""
        tid = self.thread()
        huge = b'{"assistant_id": "simple", "input": {"text": "' + b"x" * (8 << 20) + b'"}}'
        status, _, reply = http("POST", f"{self.url}/threads/{tid}/runs/wait", huge, timeout=60)
        self.assertEqual(status, 413, reply)
        self.assertEqual(self.client.runs.list(tid), [], "the refused request left no run")

    def test_health_and_info(self):
        """Rule: GET /ok and /info answer, as clients poll them for readiness."""
        status, ok, _ = http("GET", f"{self.url}/ok")
        self.assertEqual((status, ok["ok"]), (200, True))
        status, info, _ = http("GET", f"{self.url}/info")
        self.assertEqual(status, 200)
        self.assertIn("version", info)
