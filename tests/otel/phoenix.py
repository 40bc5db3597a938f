"""Arize Phoenix for the otel tests: started on free loopback ports with a temporary working
folder and its own SQLite file, waited for, read through its REST API, and stopped with
everything it started.

    python tests/otel/phoenix.py [--port PORT] [--dir DIR]   # a Phoenix to look at by hand
                                                            # (`./dev phoenix`); Ctrl+C stops it

The desktop end-to-end test (tests/desktop) starts it this way too, with --exit-with-parent: it
stops Phoenix and exits when the process that started it is gone, even killed.

Spans land in the project named by the `openinference.project.name` resource attribute (the
`x-project-name` header wins over it; without either, Phoenix's `default` project), so each
test sends with its own project (`OTEL_RESOURCE_ATTRIBUTES=openinference.project.name=…`) and
reads back only its own spans. Phoenix keeps no span links (its store has no place for them):
the link checks read the OTLP requests themselves (capture.py).
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path


def free_port():
    """A TCP port nobody listens on right now, on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phoenix:
    """One `phoenix serve` in its own process group (so stopping it leaves nothing behind)."""

    def __init__(self, port=None, data_dir=None, startup_timeout=180):
        # A folder the caller names is kept (its runs stay); a temporary one goes at stop().
        self.keep_dir = data_dir is not None
        self.dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="switchyard-phoenix-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.dir / "phoenix.log"
        env = dict(os.environ)
        env.update({
            "PHOENIX_HOST": "127.0.0.1",
            "PHOENIX_PORT": str(self.port),
            "PHOENIX_GRPC_PORT": str(free_port()),
            "PHOENIX_WORKING_DIR": str(self.dir),
            "PHOENIX_SQL_DATABASE_URL": f"sqlite:///{self.dir / 'phoenix.db'}",
            "PHOENIX_TELEMETRY_ENABLED": "false",
            "PHOENIX_LOG_SQL": "false",
            # Nothing reaches outside the machine (Phoenix's assistant would fetch its docs).
            "PHOENIX_ALLOW_EXTERNAL_RESOURCES": "false",
            "PHOENIX_DISABLE_AGENT_ASSISTANT": "true",
            "PHOENIX_ENABLE_MCP_SERVER": "false",
            # Nothing of Phoenix's own is traced into itself.
            "OTEL_SDK_DISABLED": "true",
        })
        for name in list(env):
            if name.startswith("OTEL_EXPORTER_"):
                del env[name]
        phoenix = Path(sys.executable).with_name("phoenix")
        self.log = open(self.log_path, "wb")
        started = time.monotonic()
        self.process = subprocess.Popen([str(phoenix), "serve"], env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        start_new_session=True)
        try:
            self._wait_until_up(startup_timeout)
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.monotonic() - started

    @property
    def traces_endpoint(self):
        """Where OTLP over HTTP goes (what OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces makes)."""
        return f"{self.url}/v1/traces"

    def _wait_until_up(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"phoenix serve exited ({self.process.returncode}):\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Phoenix did not answer on {self.url} within {timeout} s:\n{self.log_text()}")
            time.sleep(0.25)

    def log_text(self, tail=4000):
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def get(self, path, **query):
        """GET a REST path (`/v1/…`) as JSON; None when Phoenix answers 404."""
        params = urllib.parse.urlencode(query, doseq=True)
        url = f"{self.url}{path}" + (f"?{params}" if params else "")
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return None
            raise

    def spans(self, project, **query):
        """Every span of `project` (all pages, oldest first); [] when the project does not exist."""
        spans, cursor = [], None
        while True:
            q = dict(query, limit=1000, sort="start_time", order="asc")
            if cursor:
                q["cursor"] = cursor
            page = self.get(f"/v1/projects/{urllib.parse.quote(project, safe='')}/spans", **q)
            if page is None:
                return []
            spans += page["data"]
            cursor = page.get("next_cursor")
            if not cursor:
                return spans

    def wait_for_spans(self, project, count, within=60, until=None, **query):
        """The spans of `project` (filtered by `query`) once there are at least `count`, `until`
        holds for them (when given) and no more arrive for a moment: Phoenix inserts in
        batches, so a trace can show up in parts."""
        deadline = time.monotonic() + within
        seen, stable_since = -1, None
        while True:
            spans = self.spans(project, **query)
            now = time.monotonic()
            if len(spans) != seen:
                seen, stable_since = len(spans), now
            elif len(spans) >= count and now - stable_since >= 1.0 and (until is None or until(spans)):
                return spans
            if now > deadline:
                raise AssertionError(f"Phoenix holds {len(spans)} span(s) of project {project!r} ({query}), "
                                     f"expected at least {count}{' and a root' if until else ''}, after {within} s")
            time.sleep(0.2)

    def stop(self):
        """Stops Phoenix and every process it started, then removes its temporary folder."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            except ProcessLookupError:
                pass
        # Workers it forked share its process group; make sure none is left.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.log.close()
        if not self.keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=6006)
    parser.add_argument("--dir", help="Phoenix's working folder, kept (default: a temporary one)")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="stop Phoenix and exit once the process that started this one is gone")
    args = parser.parse_args()
    parent = os.getppid()
    # Ctrl+C, or SIGTERM from whoever started it (even in the background, where a shell
    # ignores SIGINT for its children), stops Phoenix before this exits.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    phoenix = Phoenix(port=args.port, data_dir=args.dir)
    print(f"Phoenix is up at {phoenix.url} (started in {phoenix.startup_seconds:.1f} s); send traces with\n"
          f"  OTEL_EXPORTER_OTLP_ENDPOINT={phoenix.url} switchyard run …\nCtrl+C stops it.", flush=True)
    try:
        while phoenix.process.poll() is None:
            if args.exit_with_parent and os.getppid() != parent:
                print("the process that started Phoenix is gone; stopping it", file=sys.stderr, flush=True)
                return
            time.sleep(0.5)
        print(phoenix.log_text(), file=sys.stderr)
        sys.exit(f"phoenix serve exited ({phoenix.process.returncode})")
    except KeyboardInterrupt:
        pass
    finally:
        phoenix.stop()


if __name__ == "__main__":
    main()
