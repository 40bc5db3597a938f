"""`switchyard mcp` calls per second for a trivial graph (not a timed test; it prints figures).

    cargo build --release -p switchyard
    eval "$(./dev mcp-env)"
    $SWITCHYARD_MCP_PYTHON bench/mcp_server_bench.py [REQUESTS] [CONCURRENCY]

Three measures of tests/mcp/graphs/test_simple_text.json (one set node) served by
`switchyard mcp` (the binary in $SWITCHYARD_BIN, else target/release/switchyard):
- the MCP Inspector's load mode over Streamable HTTP (`--listen`) and over stdio, REQUESTS
  calls with CONCURRENCY in flight (defaults 2000 and 4): calls/s, p50, p99;
- the official Python SDK calling over stdio one call after another: calls/s, p50, p99.
"""

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from mcp_ports import free_port, wait_for_port

ROOT = Path(__file__).resolve().parent.parent
GRAPH = str(ROOT / "tests/mcp/graphs/test_simple_text.json")
TOOL = "test_simple_text"


def need(var, default=None):
    value = os.environ.get(var, default)
    if not value or not Path(value).exists():
        sys.exit(f"{var} is not set or missing ({value}); run `eval \"$(./dev mcp-env)\"` first")
    return value


BIN = need("SWITCHYARD_BIN", str(ROOT / "target/release/switchyard"))
NODE = need("SWITCHYARD_NODE22")
INSPECTOR = str(Path(need("SWITCHYARD_MCP_TOOLS", str(ROOT / "tests/mcp/node_modules")))
                / "@modelcontextprotocol/inspector/clients/launcher/build/index.js")


def inspector_load(target, requests, concurrency, command=()):
    """The Inspector's load report for `target` (options), or for the server `command` starts."""
    cmd = [NODE, INSPECTOR, "--cli", *target, "--method", "tools/call", "--tool-name", TOOL,
           "--load", "--load-requests", str(requests), "--load-concurrency", str(concurrency)]
    if command:
        cmd += ["--", *command]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    report = json.loads(out[out.index("{"):])
    assert report["errors"] == 0 and report["toolErrors"] == 0, report
    return report["throughput"], report["latencyMs"]["p50"], report["latencyMs"]["p99"]



def over_http(requests, concurrency):
    port = free_port()
    server = subprocess.Popen([BIN, "mcp", GRAPH, "--listen", f"127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, "switchyard mcp --listen")
        return inspector_load(["--server-url", f"http://127.0.0.1:{port}/mcp", "--transport", "http"],
                              requests, concurrency)
    finally:
        server.kill()
        server.wait()


async def sdk_sequential(calls):
    from mcp import Client, StdioServerParameters

    server = StdioServerParameters(command=BIN, args=["mcp", GRAPH])
    times = []
    async with Client(server, mode="legacy") as client:
        await client.call_tool(TOOL, {})  # warm up
        start = time.perf_counter()
        for _ in range(calls):
            t = time.perf_counter()
            r = await client.call_tool(TOOL, {})
            assert not r.is_error
            times.append((time.perf_counter() - t) * 1000)
        elapsed = time.perf_counter() - start
    times.sort()
    return calls / elapsed, times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def main():
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    concurrency = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rows = [
        (f"Inspector load, HTTP, concurrency {concurrency}", over_http(requests, concurrency)),
        (f"Inspector load, stdio, concurrency {concurrency}",
         inspector_load([], requests, concurrency, command=[BIN, "mcp", GRAPH])),
        ("Python SDK, stdio, one call at a time", asyncio.run(sdk_sequential(min(requests, 1000)))),
    ]
    print(f"switchyard mcp, {requests} calls of `{TOOL}` ({BIN})")
    print(f"{'client':<44} {'calls/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    for name, (rate, p50, p99) in rows:
        print(f"{name:<44} {rate:>9.0f} {p50:>8.1f} {p99:>8.1f}")


if __name__ == "__main__":
    main()
