"""The JavaScript client: @langchain/langgraph-sdk streams a run to its interrupt and resumes it."""

import os
import shutil
import subprocess
import unittest
from pathlib import Path

import suite

HERE = Path(__file__).resolve().parent


class JavaScriptClient(suite.ServerCase):
    def test_stream_and_resume_with_the_js_sdk(self):
        """Rule: switchyard server serves LangGraph's JavaScript client unchanged (js/stream_resume.mjs)."""
        node = os.environ.get("SWITCHYARD_NODE22") or shutil.which("node")
        if not (HERE / "node_modules/@langchain/langgraph-sdk").exists():
            raise unittest.SkipTest("tests/server/node_modules is missing: npm ci in tests/server (./dev does it)")
        done = subprocess.run([node, str(HERE / "js/stream_resume.mjs")], capture_output=True, text=True,
                              env={**os.environ, "SWITCHYARD_SERVER_URL": self.url}, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr + done.stdout)
        self.assertIn('"ok":true', done.stdout)
