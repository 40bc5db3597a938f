"""What an MCP tool call costs over a script tool, inside a run (not a timed test; it prints
figures).

    cargo build --release -p switchyard
    eval "$(./dev mcp-env)"
    python3 bench/mcp_tool_bench.py [CALLS]

One graph, three ways: a `tools` node runs one call a step, CALLS times (default 1000), of a
tool that echoes its argument, run by a Rhai script, by the reference server-everything over
stdio (`echo`) and over Streamable HTTP. Each call's `duration_ms` from the record's details
gives p50 and p99; the MCP figures include the session's start (initialize, tools/list) in
the first call. The binary is $SWITCHYARD_BIN, else target/release/switchyard.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp_ports import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent


def binary():
    path = Path(os.environ.get("SWITCHYARD_BIN", ROOT / "target/release/switchyard"))
    if not path.exists():
        sys.exit(f"{path} is missing: cargo build --release -p switchyard (or set SWITCHYARD_BIN)")
    return str(path)


def everything_js():
    tools = Path(os.environ.get("SWITCHYARD_MCP_TOOLS", ROOT / "tests/mcp/node_modules"))
    path = tools / "@modelcontextprotocol/server-everything/dist/index.js"
    if not path.exists():
        sys.exit(f"{path} is missing: eval \"$(./dev mcp-env)\"")
    return str(path)


def graph(calls, tool, servers):
    """A loop whose `call` node asks for one tool call a step and whose `tools` node runs it."""
    ask = (
        '#{role: "assistant", content: "", tool_calls: '
        '[#{id: "c" + state.n, name: "echo", arguments: #{message: "hi " + state.n}}]}'
    )
    doc = {
        "format": "switchyard/graph@1",
        "name": "MCP tool call cost",
        "state": {
            "messages": {"type": "messages", "max_items": 2},
            "n": {"type": "integer", "default": 0},
        },
        "tools": {"echo": tool},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "call", "kind": "set", "set": {"messages": ask, "n": "state.n + 1"}},
            {"id": "tools", "kind": "tools", "messages": "messages", "on_error": "fail"},
            {"id": "end", "kind": "end"},
        ],
        "edges": [
            {"from": "start", "to": "call"},
            {"from": "call", "to": "tools"},
            {"from": "tools", "to": "call", "when": f"state.n < {calls}"},
            {"from": "tools", "to": "end", "when": f"state.n >= {calls}"},
        ],
        "limits": {"max_steps": calls * 2 + 10, "run_timeout_ms": 3_600_000},
    }
    if servers:
        doc["mcp_servers"] = servers
    return doc



def durations(doc):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "graph.json"
        path.write_text(json.dumps(doc))
        out = subprocess.run(
            [binary(), "run", str(path), "--allow-command", "node"], capture_output=True, text=True, check=False
        )
    if out.returncode != 0:
        sys.exit(f"the run failed ({out.returncode}): {out.stderr[:2000]}")
    record = json.loads(out.stdout)
    got = []
    for step in record["steps"]:
        for c in (step.get("details") or {}).get("tools", {}).get("calls", []):
            got.append(c["duration_ms"])
    return got


def line(name, ms):
    ms = sorted(ms)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
    print(f"{name:<22} {len(ms):>6} {p(0.5):>9.3f} {p(0.99):>9.3f} {statistics.mean(ms):>9.3f} {ms[0]:>9.3f}")
    return p(0.5), p(0.99)


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    script = {"description": "Echoes.", "parameters": {"type": "object"}, "run": {"script": '"Echo: " + args.message'}}
    mcp = {"run": {"mcp": {"server": "ev"}}}
    stdio = {"ev": {"command": "node", "args": [everything_js(), "stdio"]}}
    port = free_port()
    server = subprocess.Popen(
        ["node", everything_js(), "streamableHttp"],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, "server-everything")
        http = {"ev": {"url": f"http://127.0.0.1:{port}/mcp"}}
        print(f"{'tool':<22} {'calls':>6} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'min ms':>9}")
        base = line("script", durations(graph(calls, script, None)))
        for name, servers in [("mcp stdio", stdio), ("mcp streamable http", http)]:
            p50, p99 = line(name, durations(graph(calls, mcp, servers)))
            print(f"{'':<22} overhead over script: p50 +{p50 - base[0]:.3f} ms, p99 +{p99 - base[1]:.3f} ms")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
