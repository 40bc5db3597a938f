"""Kill tests: a server (embedded) or a worker (Restate) SIGKILLed while a run waits for a
model reply; after a restart the run finishes, and no model call whose reply had reached the
server is made again. The in-flight call is made again: its reply never arrived."""

import tempfile
import unittest
from pathlib import Path

from langgraph_sdk import get_sync_client

import model_graphs
import suite
from fake_model import FakeModel, reply_to
from support import Server, graph_file, wait_until


class KillDuringARun(unittest.TestCase):
    def setUp(self):
        if not isinstance(suite.server, Server):
            raise unittest.SkipTest("the server under test was not started here (--url)")
        self.model = FakeModel()
        self.addCleanup(self.model.close)
        folder = tempfile.TemporaryDirectory(prefix="switchyard-kill-")
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)
        self.graph = graph_file(self.folder, model_graphs.chain(self.model.base_url))
        self.topic = suite.ServerCase.unique("kill")

    def start_run(self, client):
        """A run of `chain` held at its second model call (draft): (thread id, run id)."""
        self.model.hold(f"draft {self.topic}")
        tid = client.threads.create()["thread_id"]
        run = client.runs.create(tid, "chain", input={"topic": self.topic})
        self.model.wait_for_waiting(1)
        self.assertEqual(self.model.count(f"outline {self.topic}"), 1)
        return tid, run["run_id"]

    def finished(self, client, tid, run_id):
        """Waits for the run to finish after the restart; checks its values and the calls."""
        run = wait_until(lambda: (lambda r: r if r["status"] not in ("pending", "running") else None)(
            client.runs.get(tid, run_id)), "the run finishing after the restart", 90, 0.1)
        self.assertEqual(run["status"], "success", run)
        values = client.threads.get_state(tid)["values"]
        for node in ("outline", "draft"):
            self.assertEqual(values[node], reply_to(f"{node} {self.topic}"))
        self.assertEqual(values["polished"], reply_to(f"polish {self.topic}"))
        self.assertEqual(self.model.count(f"outline {self.topic}"), 1, "a call whose reply was stored is not repeated")
        self.assertEqual(self.model.count(f"draft {self.topic}"), 2, "the call in flight is made once more")
        self.assertEqual(self.model.count(f"polish {self.topic}"), 1)

    def test_embedded_server_killed_mid_run_continues_after_restart(self):
        """Rule: a restart on the same --data continues the runs that were going, without
        repeating a finished model call (its reply is in the store)."""
        server = Server([self.graph], data=str(self.folder / "store.sqlite")).start()
        self.addCleanup(server.stop)
        client = get_sync_client(url=server.url)
        tid, run_id = self.start_run(client)
        server.kill()
        self.model.release()
        server.start()
        client = get_sync_client(url=server.url)
        self.finished(client, tid, run_id)
        before = client.threads.get_history(tid, limit=50)
        server.kill()
        server.start()
        self.assertEqual(get_sync_client(url=server.url).threads.get_history(tid, limit=50), before,
                         "a finished thread's history survives a kill as it was")

    def test_restate_worker_killed_mid_run_continues_after_restart(self):
        """Rule: on Restate, a worker killed during a run is replaced and the run finishes;
        journaled model replies are not fetched again."""
        if suite.backend is None or suite.backend.name != "restate":
            raise unittest.SkipTest("the Restate backend is not under test (--backend restate)")
        restate = suite.backend.restate
        server = Server([self.graph], args=["--restate", restate.ingress]).start()
        self.addCleanup(server.stop)
        client = get_sync_client(url=server.url)
        tid, run_id = self.start_run(client)
        restate.kill_worker()
        self.model.release()
        restate.start_worker()
        self.finished(client, tid, run_id)
