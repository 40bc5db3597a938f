"""Processes and helpers shared by the server's client tests, kill tests and benchmark.

| name | what it is |
|---|---|
| `free_port`, `wait_until` | a free loopback port; polling a condition with a deadline |
| `Server` | one `switchyard server` process: start, SIGKILL, restart on the same `--data` |
| `Restate` | a Restate server on ports of its own, with `switchyard serve` registered as its worker |
| `Backend` | how a test suite gets a server: `embedded` (default) or `restate` |
| `HookReceiver` | a local HTTP receiver that records webhook calls |
| `graph_file` | writes a graph document made in a test (one naming a fake model's port) |
"""

import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATES = sorted(str(p) for p in (ROOT / "templates").glob("*.json"))
GRAPHS = Path(__file__).resolve().parent / "graphs"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, what, within=60.0, every=0.05):
    """Returns condition()'s first truthy value; fails naming `what` after `within` seconds."""
    deadline = time.time() + within
    while True:
        value = condition()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"{what}: not within {within} s")
        time.sleep(every)


def http(method, url, body=None, headers=None, timeout=30):
    """(status, parsed JSON or text, headers) of one plain HTTP request, errors included."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json",
                                                                          **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text, hdrs = r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as e:
        status, text, hdrs = e.code, e.read().decode(), e.headers
    try:
        return status, json.loads(text), hdrs
    except ValueError:
        return status, text, hdrs


def graph_file(folder, document):
    path = Path(folder) / f"{document['name'].replace(' ', '_')}.json"
    path.write_text(json.dumps(document, indent=1))
    return str(path)


def switchyard_binary():
    path = os.environ.get("SWITCHYARD_BIN") or str(ROOT / "target/debug/switchyard")
    if not Path(path).exists():
        raise SystemExit(f"no switchyard binary at {path}: build it (cargo build -p switchyard) or set SWITCHYARD_BIN")
    return path


class Server:
    """`switchyard server GRAPHS --listen 127.0.0.1:PORT [--data FILE] [ARGS]`, restartable."""

    def __init__(self, graphs, data=None, args=(), env=None, port=None):
        self.graphs, self.data, self.args = list(graphs), data, list(args)
        self.env = {**os.environ, **(env or {})}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix="switchyard-server-", suffix=".log", delete=False)
        self.proc = None

    def command(self):
        # SWITCHYARD_SERVER_BIN runs the server program itself (what `switchyard server` starts).
        program = [os.environ["SWITCHYARD_SERVER_BIN"]] if os.environ.get("SWITCHYARD_SERVER_BIN") else \
            [switchyard_binary(), "server"]
        # The fake model and webhook receivers listen on loopback, which graphs reach only when allowed.
        cmd = [*program, *self.graphs, "--listen", f"127.0.0.1:{self.port}", "--allow", "127.0.0.1"]
        if self.data is not None:
            cmd += ["--data", self.data]
        return cmd + self.args

    def start(self, within=60):
        self.proc = subprocess.Popen(self.command(), stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        wait_until(self._answers, f"switchyard server on {self.url} answering GET /ok (log: {self.log.name})", within)
        return self

    def _answers(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"switchyard server exited with {self.proc.returncode}:\n{self.log_text()}")
        try:
            return http("GET", f"{self.url}/ok", timeout=2)[0] == 200
        except OSError:
            return False

    def log_text(self):
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def kill(self):
        """SIGKILL: no chance to save anything or say goodbye."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Restate:
    """A Restate server (SWITCHYARD_RESTATE_SERVER) with `switchyard serve` as its registered
    worker, every port free and non-default, its data in a folder of its own. `worker_env` is
    the worker's whole environment (default: this process's)."""

    def __init__(self, worker_env=None):
        self.worker_env = worker_env
        self.binary = os.environ["SWITCHYARD_RESTATE_SERVER"]
        self.dir = tempfile.TemporaryDirectory(prefix="switchyard-restate-")
        self.ingress_port, self.admin_port, self.node_port, self.worker_port = (free_port() for _ in range(4))
        self.ingress = f"http://127.0.0.1:{self.ingress_port}"
        self.admin = f"http://127.0.0.1:{self.admin_port}"
        self.server = self.worker = None

    def start(self):
        env = {**os.environ, "RESTATE_INGRESS__BIND_ADDRESS": f"127.0.0.1:{self.ingress_port}",
               "RESTATE_ADMIN__BIND_ADDRESS": f"127.0.0.1:{self.admin_port}",
               "RESTATE_BIND_ADDRESS": f"127.0.0.1:{self.node_port}", "RESTATE_LISTEN_MODE": "tcp"}
        log = open(Path(self.dir.name) / "server.log", "wb")
        self.server = subprocess.Popen([self.binary, "--base-dir", f"{self.dir.name}/data", "--node-name", "n1",
                                        "--no-logo"], stdout=subprocess.DEVNULL, stderr=log, env=env)
        wait_until(lambda: self._ok(f"{self.admin}/health"), "the Restate admin API", 90, 0.1)
        wait_until(lambda: self._ok(f"{self.ingress}/restate/health"), "the Restate ingress", 90, 0.1)
        self.start_worker()
        status, body, _ = http("POST", f"{self.admin}/deployments",
                               {"uri": f"http://127.0.0.1:{self.worker_port}", "force": True})
        assert status < 300, f"registering the worker failed: HTTP {status} {body}"
        return self

    @staticmethod
    def _ok(url):
        try:
            return http("GET", url, timeout=2)[0] < 300
        except OSError:
            return False

    def start_worker(self):
        """`switchyard serve` on the worker's port (again, after a kill); model calls may reach
        loopback, never the Restate server's own ports."""
        deny = ",".join(f"http://127.0.0.1:{p}" for p in (self.ingress_port, self.admin_port, self.node_port))
        self.worker = subprocess.Popen([switchyard_binary(), "serve", "--listen", f"127.0.0.1:{self.worker_port}",
                                        "--allow", "127.0.0.1", "--deny", deny],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.worker_env)

        def listening():
            try:
                socket.create_connection(("127.0.0.1", self.worker_port), timeout=1).close()
                return True
            except OSError:
                return False
        wait_until(listening, "switchyard serve listening", 30)

    def kill_worker(self):
        if self.worker and self.worker.poll() is None:
            self.worker.send_signal(signal.SIGKILL)
            self.worker.wait()

    def stop(self):
        for p in (self.worker, self.server):
            if p and p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        self.dir.cleanup()


class Backend:
    """Where runs execute: `embedded` (the server's own SQLite file) or `restate`."""

    def __init__(self, name):
        if name not in ("embedded", "restate"):
            raise SystemExit(f"unknown backend {name!r}: embedded or restate")
        if name == "restate" and not os.environ.get("SWITCHYARD_RESTATE_SERVER"):
            raise SystemExit("the restate backend needs SWITCHYARD_RESTATE_SERVER (the restate-server binary)")
        self.name = name
        self.restate = None
        self.dir = tempfile.TemporaryDirectory(prefix="switchyard-server-data-")

    def server(self, graphs, data_name="store.sqlite", env=None):
        """A started server over `graphs`; embedded servers keep their store in `data_name`."""
        if self.name == "restate":
            if self.restate is None:
                self.restate = Restate().start()
            return Server(graphs, args=["--restate", self.restate.ingress], env=env).start()
        return Server(graphs, data=str(Path(self.dir.name) / data_name), env=env).start()

    def close(self):
        if self.restate:
            self.restate.stop()
        self.dir.cleanup()


class HookReceiver:
    """Records every POST it receives (path and JSON body) and answers 200."""

    def __init__(self):
        self.calls = []
        self.cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
                with receiver.cond:
                    receiver.calls.append((self.path, body))
                    receiver.cond.notify_all()
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def wait_for(self, predicate, within=30):
        deadline = time.time() + within
        with self.cond:
            while True:
                found = [c for c in self.calls if predicate(c)]
                if found:
                    return found
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"no matching webhook call within {within} s; got {self.calls}")
                self.cond.wait(left)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
