"""Runs the client test suite against `switchyard server` (see README.md).

    python tests/server/run.py [--backend embedded|restate] [-k PATTERN]... [MODULE...]
    python tests/server/run.py --url URL [--model-port PORT] ...   # a server already running

--url tests a server someone else started (LangGraph's own `langgraph dev` with graphs of the
same names, to check the tests themselves); the kill tests skip then, and the model graphs'
fake model listens on --model-port.

One server serves every template, graphs/simple.json and the model graphs (model_graphs.py,
calling a fake model on a free port) for the whole suite; the kill tests start their own.
SWITCHYARD_BIN names the switchyard binary (default target/debug/switchyard).
"""

import argparse
import sys
import tempfile
import time
import traceback
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import model_graphs  # noqa: E402
import suite  # noqa: E402
from fake_model import FakeModel  # noqa: E402
from support import GRAPHS, TEMPLATES, Backend, graph_file  # noqa: E402

# In this order: the crons last, so the every-minute cron made at the start has had its minute.
MODULES = ["test_assistants", "test_streaming", "test_interrupts", "test_threads", "test_runs",
           "test_js_client", "test_kill", "test_crons"]


def start_early_cron(client):
    """A cron on a new thread, every minute: test_crons checks it fired."""
    try:
        tid = client.threads.create()["thread_id"]
        cron = client.crons.create_for_thread(tid, "simple", schedule="* * * * *", input={"text": "tick"})
        return tid, cron["cron_id"], time.time()
    except Exception as e:  # test_crons reports it as its failure
        return e


class Running:
    """A server this script did not start (--url): nothing to stop, no log to show."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        self.log = type("NoLog", (), {"name": "(not started here)"})()

    def log_text(self):
        return ""

    def stop(self):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="embedded", choices=["embedded", "restate"])
    parser.add_argument("--url", help="test the server already running there instead of starting one")
    parser.add_argument("--model-port", type=int, default=0, help="the fake model's port (default: a free one)")
    parser.add_argument("-k", dest="patterns", action="append", help="only tests whose name contains this")
    parser.add_argument("modules", nargs="*", default=MODULES)
    args = parser.parse_args()

    from langgraph_sdk import get_sync_client

    suite.backend = Backend(args.backend)
    suite.model = FakeModel(args.model_port)
    folder = tempfile.TemporaryDirectory(prefix="switchyard-server-graphs-")
    made = [graph_file(folder.name, g(suite.model.base_url))
            for g in (model_graphs.held, model_graphs.chat)]
    try:
        graphs = TEMPLATES + [str(GRAPHS / "simple.json")] + made
        suite.server = Running(args.url) if args.url else suite.backend.server(graphs)
        print(f"switchyard server ({args.backend}) on {suite.server.url}", file=sys.stderr)
        suite.early_cron = start_early_cron(get_sync_client(url=suite.server.url))
        loader = unittest.TestLoader()
        if args.patterns:
            loader.testNamePatterns = [f"*{p}*" for p in args.patterns]
        tests = unittest.TestSuite(loader.loadTestsFromName(m) for m in args.modules)
        result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(tests)
        if not result.wasSuccessful():
            print(f"\nthe server's log ({suite.server.log.name}), its end:\n{suite.server.log_text()}")
        return 0 if result.wasSuccessful() else 1
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        if suite.server:
            suite.server.stop()
        suite.backend.close()
        suite.model.close()
        folder.cleanup()


if __name__ == "__main__":
    sys.exit(main())
