"""What the otel tests share: the Phoenix they send to (started once by run.py), running the
CLI with or without export, the templates, and the span tree Phoenix gives back."""

import json
import os
import subprocess
import tempfile
import uuid
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
BIN = os.environ.get("SWITCHYARD_BIN") or str(ROOT / "target" / "debug" / "switchyard")

# A key only these tests use: planted in the environment, it must never reach a span.
PLANTED_KEY = "sk-otel-test-" + uuid.uuid4().hex

# Set by run.py before any test runs.
phoenix = None  # phoenix.Phoenix
model = None    # fake_openai.FakeOpenAI
scratch_root = None  # the folder run.py removes at the end, holding every test's files

# Whatever the caller's environment says about OpenTelemetry or keys stays out of the runs.
_SCRUBBED = ("OTEL_", "SWITCHYARD_OPENAI", "OPENAI_", "ANTHROPIC_", "SWITCHYARD_TRUSTED_ORIGINS")


def project_name(label):
    """A Phoenix project of one test's own, so it reads back only what it sent."""
    return f"{label}-{uuid.uuid4().hex[:8]}"


def cli_env(project=None, endpoint=None, capture_content=False):
    """The environment of a CLI run: exporting to Phoenix into `project` when one is given
    (through `endpoint` when that is set: a base URL, the OTLP default path is appended), and
    always with the planted key trusted for the fake model server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED)}
    env["SWITCHYARD_OPENAI_API_KEY"] = PLANTED_KEY
    env["SWITCHYARD_TRUSTED_ORIGINS"] = model.origin
    if project is not None:
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint or phoenix.url
        env["OTEL_SERVICE_NAME"] = "switchyard-otel-tests"
        env["OTEL_RESOURCE_ATTRIBUTES"] = f"openinference.project.name={project}"
        if capture_content:
            env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "true"
    return env


def switchyard(*args, env, expect=(0,), timeout=120):
    """Runs the CLI; fails the test unless it exits with one of `expect`."""
    done = subprocess.run([BIN, *map(str, args)], env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode not in expect:
        raise AssertionError(f"switchyard {' '.join(map(str, args))} exited {done.returncode}, not {expect}\n"
                             f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}")
    return done


def scratch():
    """A new folder for one test's graphs and records."""
    return Path(tempfile.mkdtemp(dir=scratch_root))


def template(name):
    return json.loads((TEMPLATES / f"{name}.json").read_text())


def tool_agent_graph(folder):
    """templates/005-tool-agent.json with its agent on the fake OpenAI-compatible server."""
    graph = template("005-tool-agent")
    agent = next(n for n in graph["nodes"] if n["id"] == "agent")
    agent["model"] = {"provider": "openai", "model": "gpt-fake-1", "base_url": model.base_url}
    path = folder / "tool-agent.json"
    path.write_text(json.dumps(graph))
    return graph, path


def read_json(path):
    return json.loads(Path(path).read_text())


def epoch_ms(iso):
    """Phoenix's ISO time as Unix-epoch milliseconds."""
    return datetime.fromisoformat(iso).timestamp() * 1000


class Tree:
    """The spans of one trace as Phoenix returns them, with the parent links resolved."""

    def __init__(self, spans):
        self.spans = spans
        self.by_id = {s["context"]["span_id"]: s for s in spans}
        roots = [s for s in spans if s["parent_id"] is None]
        assert len(roots) == 1, f"{len(roots)} root spans in one trace: {[s['name'] for s in roots]}"
        self.root = roots[0]

    def children(self, span, prefix=""):
        sid = span["context"]["span_id"]
        return [s for s in self.spans if s["parent_id"] == sid and s["name"].startswith(prefix)]

    def named(self, prefix):
        return [s for s in self.spans if s["name"].startswith(prefix)]

    def parent(self, span):
        return self.by_id.get(span["parent_id"])

    def step(self, n):
        found = [s for s in self.children(self.root, "step ") if s["name"] == f"step {n}"]
        assert len(found) == 1, f"{len(found)} spans named 'step {n}' under the root"
        return found[0]


def traces(spans):
    """Spans grouped by trace id."""
    out = {}
    for s in spans:
        out.setdefault(s["context"]["trace_id"], []).append(s)
    return out


def wait_for_trace(project, trace_id, within=60):
    """The whole trace `trace_id` of `project` once Phoenix holds its root and nothing more
    arrives for a moment."""
    spans = phoenix.wait_for_spans(project, 1, within=within, trace_id=trace_id,
                                   until=lambda spans: any(s["parent_id"] is None for s in spans))
    return Tree(spans)


def text_of(span):
    """Everything Phoenix keeps of a span, as one string to search."""
    return json.dumps(span, sort_keys=True)
