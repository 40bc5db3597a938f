"""`switchyard server` under load, with the official Python client (not a timed test; it prints figures).

    cargo build --release -p switchyard -p switchyard-server -p switchyard-serve
    $CARGO_TARGET_DIR/langgraph-venv/bin/python bench/server_bench.py [--seconds S] [--clients N]
    ./dev bench server        # builds, installs the client and runs this

Two measures, on the embedded backend and, when SWITCHYARD_RESTATE_SERVER names the
restate-server binary, on Restate:
- runs per second of templates/003-approval.json, waiting then answered: each of N concurrent
  clients (default 32) makes a thread, runs it to the approval (runs.wait), answers it
  (Command(resume=...), runs.wait) and starts again, for S seconds (default 20); a run counts
  once it is answered and finished. Also the p50 and p99 of one such round trip;
- first-event latency of a streamed run: the time from sending runs.stream to its first event
  (metadata) and to its first values event, 100 runs one after another, p50 and p99.
The binary is $SWITCHYARD_BIN, else target/release/switchyard. With --url, the same
measures against a server already running there (LangGraph's `langgraph dev` serving a graph
named "Approval workflow" that interrupts for {"decision": ...}, for comparison).
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests/server"))
os.environ.setdefault("SWITCHYARD_BIN", str(ROOT / "target/release/switchyard"))

from langgraph_sdk import get_client  # noqa: E402

from support import Backend  # noqa: E402

APPROVAL = str(ROOT / "templates/003-approval.json")
GRAPH = "Approval workflow"


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000 if ordered else float("nan")


async def approval_round(client):
    """One run that waits for the approver, then is answered: its duration in seconds."""
    began = time.perf_counter()
    tid = (await client.threads.create())["thread_id"]
    waiting = await client.runs.wait(tid, GRAPH, input={"request": "a bench run"})
    assert "__interrupt__" in waiting, waiting
    done = await client.runs.wait(tid, GRAPH, command={"resume": {"decision": "approve"}})
    assert done["final_status"] == "completed", done
    return time.perf_counter() - began


async def throughput(url, clients, seconds):
    client = get_client(url=url, timeout=300)
    rounds = []
    stop_at = time.perf_counter() + seconds

    async def worker():
        while time.perf_counter() < stop_at:
            rounds.append(await approval_round(client))

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return len(rounds) / (time.perf_counter() - began), rounds


async def first_event(url, runs):
    client = get_client(url=url, timeout=300)
    firsts, first_values = [], []
    for _ in range(runs):
        tid = (await client.threads.create())["thread_id"]
        began = time.perf_counter()
        seen_first = None
        async for part in client.runs.stream(tid, GRAPH, input={"request": "a streamed run"}, stream_mode="values"):
            now = time.perf_counter() - began
            if seen_first is None:
                seen_first = now
                firsts.append(now)
            if part.event == "values":
                first_values.append(now)
                break
    return firsts, first_values


def figures(name, url, clients, seconds):
    """The table rows of both measures against the server at `url`."""
    rate, rounds = asyncio.run(throughput(url, clients, seconds))
    firsts, values = asyncio.run(first_event(url, 100))
    return [
        (name, f"approval runs/s, {clients} clients", f"{rate:.1f}",
         f"round p50 {pct(rounds, 0.5):.0f} ms, p99 {pct(rounds, 0.99):.0f} ms, {len(rounds)} runs"),
        (name, "stream: first event (metadata)", f"{pct(firsts, 0.5):.1f} ms",
         f"p99 {pct(firsts, 0.99):.1f} ms, {len(firsts)} runs"),
        (name, "stream: first values event", f"{pct(values, 0.5):.1f} ms",
         f"p99 {pct(values, 0.99):.1f} ms, mean {statistics.mean(values) * 1000:.1f} ms"),
    ]


def measure(backend_name, clients, seconds):
    backend = Backend(backend_name)
    server = None
    try:
        server = backend.server([APPROVAL])
        return figures(backend_name, server.url, clients, seconds)
    finally:
        if server:
            server.stop()
        backend.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--url", help="measure the server already running there instead")
    args = parser.parse_args()
    rows = figures(args.url, args.url, args.clients, args.seconds) if args.url else []
    backends = [] if args.url else ["embedded"] + (["restate"] if os.environ.get("SWITCHYARD_RESTATE_SERVER") else [])
    for name in backends:
        print(f"measuring {name} ...", file=sys.stderr)
        rows += measure(name, args.clients, args.seconds)
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


if __name__ == "__main__":
    main()
