"""The benchmark's shapes in LangGraph (the version tests/langgraph/requirements.txt pins):
build + compile + invoke with an in-memory checkpointer, in a warm Python process, medians.

    python bench/langgraph_bench.py [--quick] [WORD...]

Prints a JSON list of [case key, microseconds per node execution] for `switchyard-bench
--langgraph FILE`; the keys and node counts are those of bench/src/cases.rs.
"""

from __future__ import annotations

import json
import operator
import statistics
import sys
import time
from typing import Annotated, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send


class Counter(TypedDict):
    n: int


class Fan(TypedDict):
    n: int
    total: Annotated[int, operator.add]


class Mapped(TypedDict):
    items: list
    out: Annotated[list, operator.add]


def add_one(state):
    return {"n": state["n"] + 1}


def chain(n: int):
    b = StateGraph(Counter)
    ids = [f"s{i}" for i in range(n)]
    for i in ids:
        b.add_node(i, add_one)
    b.add_edge(START, ids[0])
    for a, c in zip(ids, ids[1:]):
        b.add_edge(a, c)
    b.add_edge(ids[-1], END)
    return b, {"n": 0}, n + 10


def loop(steps: int):
    b = StateGraph(Counter)
    b.add_node("tick", add_one)
    b.add_edge(START, "tick")
    b.add_conditional_edges("tick", lambda s: "tick" if s["n"] < steps else END, ["tick", END])
    return b, {"n": 0}, steps + 10


def fan_out(width: int):
    b = StateGraph(Fan)
    b.add_node("split", lambda s: {"n": 0})
    ids = [f"b{i}" for i in range(width)]
    for i in ids:
        b.add_node(i, lambda s: {"total": 1})
        b.add_edge("split", i)
    b.add_node("join", lambda s: {"n": s["total"]})
    b.add_edge(START, "split")
    b.add_edge(ids, "join")
    b.add_edge("join", END)
    return b, {"n": 0, "total": 0}, 20


def map_over(n: int):
    b = StateGraph(Mapped)
    b.add_node("work", lambda s: {"out": [s["item"]]})
    b.add_conditional_edges(START, lambda s: [Send("work", {"item": i}) for i in s["items"]], ["work"])
    b.add_edge("work", END)
    return b, {"items": list(range(n)), "out": []}, 20


# key, name (as in cases.rs), builder, node executions, repetitions, with --quick
CASES = [
    ("chain", "chain of 1,000 set nodes", lambda: chain(1000), 1000, 7, 1),
    ("loop", "loop of 10,000 steps", lambda: loop(10_000), 10_000, 3, 1),
    ("fanout", "fan-out 100 + join: all", lambda: fan_out(100), 102, 15, 3),
    ("map", "map over 1,000 items", lambda: map_over(1000), 1000, 7, 1),
]


def once(make) -> float:
    start = time.perf_counter()
    builder, state, limit = make()
    app = builder.compile(checkpointer=InMemorySaver())
    app.invoke(state, {"configurable": {"thread_id": "bench"}, "recursion_limit": limit})
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    quick = "--quick" in argv or "quick" in argv
    words = [a for a in argv if not a.startswith("-") and a != "quick"]
    out = []
    for key, name, make, nodes, reps, quick_reps in CASES:
        if words and not any(w in key or w in name for w in words):
            continue
        print(f"LangGraph: {name}", file=sys.stderr)
        once(make)  # warm: imports and first-call caches, as in a long-lived process
        seconds = statistics.median(once(make) for _ in range(quick_reps if quick else reps))
        out.append([key, seconds * 1e6 / nodes])
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
