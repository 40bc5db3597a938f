"""`switchyard serve` on a real Restate server exports its runs too: the worker process, given
the standard variables in its environment, sends each run's trace to Phoenix. Needs
SWITCHYARD_RESTATE_SERVER (the restate-server binary; `./dev test otel` passes it) and
switchyard-serve built beside the CLI."""

import importlib.util
import json
import os
import subprocess
import time
import unittest
from pathlib import Path

import support
from support import PLANTED_KEY, cli_env, project_name, switchyard, text_of

QUESTION = "What should I pack for Lima?"


def server_support():
    """tests/server/support.py, which starts Restate with `switchyard serve` registered."""
    path = Path(__file__).resolve().parent.parent / "server" / "support.py"
    spec = importlib.util.spec_from_file_location("server_support", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@unittest.skipUnless(os.environ.get("SWITCHYARD_RESTATE_SERVER"), "SWITCHYARD_RESTATE_SERVER is not set")
class ServedRunTrace(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = project_name("serve")
        # The worker runs the engine, so it is the process that exports, from its own environment.
        cls.restate = server_support().Restate(worker_env=cli_env(cls.project)).start()

    @classmethod
    def tearDownClass(cls):
        cls.restate.stop()

    def test_a_served_run_shows_up_with_its_model_calls(self):
        folder = support.scratch()
        graph, path = support.tool_agent_graph(folder)
        client_env = dict(cli_env(), SWITCHYARD_SERVER=self.restate.ingress)
        run_id = switchyard("submit", path, "--input", json.dumps({"question": QUESTION}),
                            env=client_env).stdout.strip()
        deadline = time.monotonic() + 90
        while True:
            done = subprocess.run([support.BIN, "record", run_id], env=client_env, capture_output=True, text=True)
            if done.returncode != 5 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        self.assertEqual(done.returncode, 0, done.stderr)
        record = json.loads(done.stdout)
        self.assertEqual(record["status"], "completed")
        self.assertRegex(record.get("trace_id") or "", r"^[0-9a-f]{32}$")
        tree = support.wait_for_trace(self.project, record["trace_id"])
        self.assertEqual(tree.root["name"], f"run {graph['name']}")
        self.assertEqual(tree.root["attributes"]["switchyard.run.id"], run_id)
        chats = tree.named("chat ")
        self.assertEqual(len(chats), 3)
        self.assertEqual(sum(c["attributes"]["gen_ai.usage.input_tokens"] for c in chats),
                         record["usage"]["input_tokens"])
        self.assertEqual(sorted(s["name"] for s in tree.children(tree.root)),
                         sorted(f"step {s['step']}" for s in record["steps"]))
        for span in support.phoenix.spans(self.project):
            self.assertNotIn(PLANTED_KEY, text_of(span), span["name"])
