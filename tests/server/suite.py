"""The one server every client test talks to, started once by run.py, and the base class of
the tests. A test makes its own threads, so tests never see each other's state."""

import time
import unittest
import uuid

import httpx
from langgraph_sdk import get_sync_client

# Set by run.py before any test runs.
early_cron = None  # (thread id, cron id, time made) of run.py's every-minute cron, or its error
backend = None   # support.Backend
server = None    # support.Server serving the templates, simple.json and the model graphs
model = None     # fake_model.FakeModel that the model graphs call


class ServerCase(unittest.TestCase):
    """A test against the shared server, with the official Python client."""

    @classmethod
    def setUpClass(cls):
        cls.url = server.url
        cls.client = get_sync_client(url=server.url)

    def stream(self, thread_id, assistant, **kwargs):
        """Every (event, data) of one streamed run, in order."""
        return [(p.event, p.data) for p in self.client.runs.stream(thread_id, assistant, **kwargs)]

    def thread(self, **kwargs):
        return self.client.threads.create(**kwargs)["thread_id"]

    def wait_for_run(self, thread_id, run_id, statuses=("success", "error", "interrupted"), within=60):
        """The run once its status is one of `statuses`."""
        deadline = time.time() + within
        while True:
            run = self.client.runs.get(thread_id, run_id)
            if run["status"] in statuses:
                return run
            if time.time() > deadline:
                self.fail(f"run {run_id} still {run['status']} after {within} s")
            time.sleep(0.05)

    def refused(self, status, call, *args, **kwargs):
        """The reply text of a call that must fail with HTTP `status` (runs.wait raises httpx's
        error, other calls the SDK's typed ones; both are HTTPStatusError)."""
        with self.assertRaises(httpx.HTTPStatusError) as caught:
            call(*args, **kwargs)
        self.assertEqual(caught.exception.response.status_code, status, caught.exception.response.text)
        return caught.exception.response.text

    @staticmethod
    def bare(interrupts):
        """Interrupts as {id, value}: LangGraph 0.16 adds `response_schema` in some places."""
        return [{"id": i["id"], "value": i["value"]} for i in interrupts]

    @staticmethod
    def unique(word):
        """A word no other test uses: the fake model counts calls by prompt."""
        return f"{word}-{uuid.uuid4().hex[:8]}"
