"""The deliberate differences from LangGraph, each shown on a fixed graph.

The random graphs in differential.py avoid or tolerate these; here each is run on both sides
and must show exactly as documented, so the documented list cannot silently go stale.
"""

from __future__ import annotations

import tempfile

import langgraph_side
import switchyard_side
from gen import MSGS, Edge, Field, Graph, Node

ONE = ("int", 1)


def when_sees_whole_step() -> tuple[Graph, dict, dict]:
    """`a` and `b` run in one step; `a -> c` is taken when y == 1, and only `b` writes y.

    Switchyard's `when` sees the whole step's result (y is 1): c runs. LangGraph's conditional
    edge sees the state before the step plus a's own writes (y is still 0): c does not run.
    """
    g = Graph(
        seed=-1,
        fields={"x": Field("int", "replace"), "y": Field("int", "replace")},
        input={"x": 0, "y": 0},
        nodes=[Node("a", "set", set={"x": ONE}), Node("b", "set", set={"y": ONE}), Node("c", "set", set={"x": ("int", 2)})],
        edges=[
            Edge("start", "a"),
            Edge("start", "b"),
            Edge("a", "c", when=("cmp", "==", ("field", "y"), ONE)),
            Edge("b", "end"),
            Edge("c", "end"),
        ],
        max_steps=10,
    )
    sy = {"status": "completed", "steps": [["a", "b"], ["c"]], "state": {"x": 2, "y": 1}}
    lg = {"status": "completed", "steps": [["a", "b"]], "state": {"x": 1, "y": 1}}
    return g, sy, lg


def join_that_cannot_fire() -> tuple[Graph, dict, dict]:
    """`j` joins `a` and `b`, but `b` never runs (its only edge is `when: false`).

    Switchyard fails the run (kind join) when nothing else can run; LangGraph completes with
    the barrier holding `a`. Steps and state are the same.
    """
    g = Graph(
        seed=-2,
        fields={"x": Field("int", "add")},
        input={"x": 0},
        nodes=[
            Node("a", "set", set={"x": ONE}),
            Node("gate", "set", set={"x": ONE}),
            Node("b", "set", set={"x": ONE}),
            Node("j", "set", join=True, set={"x": ONE}),
        ],
        edges=[
            Edge("start", "a"),
            Edge("start", "gate"),
            Edge("gate", "b", when=("bool", False)),
            Edge("gate", "end"),
            Edge("a", "j"),
            Edge("b", "j"),
            Edge("j", "end"),
        ],
        max_steps=10,
    )
    expected = {"steps": [["a", "gate"]], "state": {"x": 2}}
    return g, {"status": "join", **expected}, {"status": "completed", **expected}


def max_steps_exactly() -> tuple[Graph, dict, dict]:
    """A chain of two steps under max_steps 2 (LangGraph: recursion_limit 2).

    Switchyard completes: the limit applies only when more remains. LangGraph raises
    GraphRecursionError after the same two steps, as it does for any run reaching the limit.
    """
    g = Graph(
        seed=-3,
        fields={"x": Field("int", "add")},
        input={"x": 0},
        nodes=[Node("a", "set", set={"x": ONE}), Node("b", "set", set={"x": ONE})],
        edges=[Edge("start", "a"), Edge("a", "b"), Edge("b", "end")],
        max_steps=2,
    )
    expected = {"steps": [["a"], ["b"]], "state": {"x": 2}}
    return g, {"status": "completed", **expected}, {"status": "limit", **expected}


def max_steps_more_remain() -> tuple[Graph, dict, dict]:
    """The same chain one node longer: both stop after two steps, at the limit, state kept."""
    g, _, _ = max_steps_exactly()
    g.seed = -4
    g.nodes.append(Node("c", "set", set={"x": ONE}))
    g.edges = [Edge("start", "a"), Edge("a", "b"), Edge("b", "c"), Edge("c", "end")]
    expected = {"status": "limit", "steps": [["a"], ["b"]], "state": {"x": 2}}
    return g, expected, expected


def map_sees_whole_step() -> tuple[Graph, dict, dict]:
    """`a` and `b` run in one step; `a`'s map edge sends `[y]` to `c`, and only `b` writes y.

    Switchyard's map list, like a `when`, sees the whole step's result (y is 1): c's instance
    gets 1. LangGraph's function returning Sends sees the state before the step plus a's own
    writes (y is still 0).
    """
    g = Graph(
        seed=-5,
        fields={"x": Field("int", "replace"), "y": Field("int", "replace"), "k": Field("int", "replace")},
        input={"x": 0, "y": 0, "k": 0},
        nodes=[
            Node("a", "set", set={"x": ONE}),
            Node("b", "set", set={"y": ONE}),
            Node("c", "set", mapped=True, set={"x": ("item",)}),
        ],
        edges=[
            Edge("start", "a"),
            Edge("start", "b"),
            Edge("a", "c", map=("list", [("field", "y")])),
            Edge("b", "end"),
            Edge("c", "end"),
        ],
        max_steps=10,
    )
    steps = [["a", "b"], ["c"]]
    sy = {"status": "completed", "steps": steps, "state": {"x": 1, "y": 1, "k": 0}}
    lg = {"status": "completed", "steps": steps, "state": {"x": 0, "y": 1, "k": 0}}
    return g, sy, lg


def after_remove_all() -> tuple[Graph, dict, dict]:
    """An update `[remove all, m1 "a", m1 "b"]`: Switchyard applies the items after the
    `remove: all` through the reducer (the second m1 replaces the first); LangGraph keeps them
    as written, two messages with one id."""
    m1 = ("msg", "m1", "user", ("cat", "", ("int", 1)))
    m1_again = ("msg", "m1", "user", ("cat", "", ("int", 2)))
    g = Graph(
        seed=-6,
        fields={MSGS: Field("msgs", "messages")},
        input={MSGS: []},
        nodes=[Node("a", "set", set={MSGS: ("msgs", [("remove_all",), m1, m1_again])})],
        edges=[Edge("start", "a"), Edge("a", "end")],
        max_steps=10,
    )
    one = {"id": "m1", "role": "user", "content": "1"}
    two = {"id": "m1", "role": "user", "content": "2"}
    sy = {"status": "completed", "steps": [["a"]], "state": {MSGS: [two]}}
    lg = {"status": "completed", "steps": [["a"]], "state": {MSGS: [one, two]}}
    return g, sy, lg


def conflict_and_absent_id() -> tuple[Graph, dict, dict]:
    """`a` and `b` both write `n` (a conflict) and `a` removes a message id that is not there,
    in one step. Both fail the step, state unchanged; Switchyard reports the conflict (checked
    before any update applies), LangGraph the first channel it fails to update, here the
    messages."""
    g = Graph(
        seed=-7,
        fields={MSGS: Field("msgs", "messages"), "n": Field("int", "replace")},
        input={MSGS: [], "n": 0},
        nodes=[
            Node("a", "set", set={MSGS: ("msgs", [("remove", "m9")]), "n": ONE}),
            Node("b", "set", set={"n": ("int", 2)}),
        ],
        edges=[Edge("start", "a"), Edge("start", "b"), Edge("a", "end"), Edge("b", "end")],
        max_steps=10,
    )
    expected = {"steps": [["a", "b"]], "state": {MSGS: [], "n": 0}}
    return g, {"status": "conflict", **expected}, {"status": "remove", **expected}


def when_view_applies_own_update() -> tuple[Graph, dict, dict]:
    """`a` adds message m1 and `b` removes it, in one step; `b` has a `when` edge.

    Switchyard applies a's update, then b's: m1 comes and goes. LangGraph builds what b's
    conditional edge sees by applying b's update alone to the state before the step, where
    m1 is not: the removal fails the run.
    """
    g = Graph(
        seed=-8,
        fields={MSGS: Field("msgs", "messages"), "k": Field("int", "replace")},
        input={MSGS: [], "k": 0},
        nodes=[
            Node("a", "set", set={MSGS: ("msgs", [("msg", "m1", "user", ("cat", "", ("int", 1)))])}),
            Node("b", "set", set={MSGS: ("msgs", [("remove", "m1")])}),
        ],
        edges=[
            Edge("start", "a"),
            Edge("start", "b"),
            Edge("a", "end"),
            Edge("b", "end", when=("cmp", "==", ("field", "k"), ("int", 0))),
        ],
        max_steps=10,
    )
    sy = {"status": "completed", "steps": [["a", "b"]], "state": {MSGS: [], "k": 0}}
    lg = {"status": "remove", "steps": [["a", "b"]], "state": {MSGS: [], "k": 0}}
    return g, sy, lg


CASES = [
    when_sees_whole_step,
    when_view_applies_own_update,
    join_that_cannot_fire,
    max_steps_exactly,
    max_steps_more_remain,
    map_sees_whole_step,
    after_remove_all,
    conflict_and_absent_id,
]


def check(binary: str) -> list[str]:
    """One line per case whose outcome is not the documented one."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="switchyard-lg-") as workdir:
        for case in CASES:
            g, want_sy, want_lg = case()
            sy = switchyard_side.run(binary, switchyard_side.document(g), g.input, workdir)
            lg, _ = langgraph_side.run(g)
            for side, got, want in (("Switchyard", sy, want_sy), ("LangGraph", lg, want_lg)):
                have = {k: got.as_dict()[k] for k in want}
                if have != want:
                    failures.append(f"{case.__name__}: {side} gave {have} ({got.detail}), documented {want}")
    return failures
