"""The LangGraph side: a `Graph` as a LangGraph StateGraph, invoked in this process."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from langgraph.errors import GraphRecursionError, InvalidUpdateError
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
from langgraph.types import Send

from gen import MSGS, Graph, evaluate
from switchyard_side import Outcome

_PY_TYPES = {"int": int, "bool": bool, "list": list, "msgs": list}
_ROLES = {"user": HumanMessage, "assistant": AIMessage}


def state_schema(g: Graph):
    annotations = {}
    for name, f in g.fields.items():
        t = _PY_TYPES[f.kind]
        # `add` on numbers and `append` on lists are both operator.add in LangGraph.
        if f.reducer in ("add", "append"):
            annotations[name] = Annotated[t, operator.add]
        elif f.reducer == "messages":
            annotations[name] = Annotated[t, add_messages]
        else:
            annotations[name] = t
    return TypedDict("State", annotations)


def _as_langchain(update: list) -> list:
    """A messages update (dicts, as the generator evaluates it) as LangChain messages."""
    out = []
    for m in update:
        if "remove" in m:
            out.append(RemoveMessage(id=REMOVE_ALL_MESSAGES if m["remove"] == "all" else m["remove"]))
        else:
            out.append(_ROLES[m["role"]](content=m["content"], id=m["id"]))
    return out


def _writes(n, scope) -> dict:
    out = {f: evaluate(e, scope) for f, e in n.set.items()}
    if MSGS in out:
        out[MSGS] = _as_langchain(out[MSGS])
    return out


def _set_node(n):
    def run(state):
        return _writes(n, state)

    return run


def _mapped_node(n):
    """A map target: its input is the Send's argument ({item, index, k}), not the state."""

    def run(arg):
        return _writes(n, arg)

    return run


def _send_fn(e, position: int):
    """A map edge as a conditional edge returning one Send per item, named uniquely (LangGraph
    names a branch after its function)."""

    def send(state):
        if e.when is not None and not evaluate(e.when, state):
            return []
        items = evaluate(e.map, state)
        return [Send(e.target, {"item": v, "index": i, "k": state["k"]}) for i, v in enumerate(items)]

    send.__name__ = f"map_{position}"
    return send


def _as_switchyard(state: dict | None) -> dict | None:
    """The state with its messages as Switchyard writes them: {id, role, content}."""
    if not state or MSGS not in state:
        return state
    roles = {"human": "user", "ai": "assistant", "system": "system"}
    out = dict(state)
    out[MSGS] = [{"id": m.id, "role": roles[m.type], "content": m.content} for m in state[MSGS]]
    return out


def _router_node(state):
    return {}


def _route_fn(route, labels):
    def pick(state):
        picked = evaluate(route, state)
        picked = picked if isinstance(picked, list) else [picked]
        if "default" in labels:  # Switchyard's `default` edge: every label no other edge has
            picked = ["default" if p not in labels else p for p in picked]
        return list(dict.fromkeys(picked))

    return pick


def _when_fn(conditional):
    def pick(state):
        return [target for target, when in conditional if evaluate(when, state)]

    return pick


def _target(t: str):
    return END if t == "end" else t


def build(g: Graph):
    builder = StateGraph(state_schema(g))
    for n in g.nodes:
        builder.add_node(n.id, _mapped_node(n) if n.mapped else _set_node(n) if n.kind == "set" else _router_node)
    joins = {n.id for n in g.nodes if n.join}
    for n in g.nodes:
        out = [e for e in g.edges if e.source == n.id and e.map is None]
        if n.kind == "router":
            path_map = {e.label: _target(e.target) for e in out}
            builder.add_conditional_edges(n.id, _route_fn(n.route, set(path_map)), path_map)
            continue
        conditional = [(e.target, e.when) for e in out if e.when is not None]
        for e in out:
            if e.when is None and e.target not in joins:
                builder.add_edge(n.id, _target(e.target))
        if conditional:
            path_map = {t: _target(t) for t, _ in conditional}
            builder.add_conditional_edges(n.id, _when_fn(conditional), path_map)
        # Map edges in document order: LangGraph sends in the order its branches were added.
        for k, e in enumerate(e for e in g.edges if e.source == n.id and e.map is not None):
            builder.add_conditional_edges(n.id, _send_fn(e, k), [e.target])
    for e in g.edges:
        if e.source == "start":
            builder.add_edge(START, e.target)
    for j in sorted(joins):
        preds = sorted({e.source for e in g.edges if e.target == j})
        builder.add_edge(preds, j)
    return builder.compile(checkpointer=InMemorySaver())


def run(g: Graph) -> tuple[Outcome, int]:
    """The run's outcome and the largest absolute integer any state held."""
    app = build(g)
    config = {"configurable": {"thread_id": "diff"}, "recursion_limit": g.step_limit}
    steps: dict[int, list] = {}
    last = None
    largest = 0
    status, detail = "completed", ""
    try:
        for mode, event in app.stream(dict(g.input), config, stream_mode=["debug", "values"]):
            if mode == "values":
                last = event
                largest = max(largest, _largest(event))
            elif event["type"] == "task":
                steps.setdefault(event["step"], []).append(event["payload"]["name"])
    except InvalidUpdateError as e:
        status, detail = "conflict", str(e).splitlines()[0]
    except ValueError as e:
        if "Attempting to delete a message" not in str(e):
            raise
        status, detail = "remove", str(e).splitlines()[0]
    except GraphRecursionError as e:
        status, detail = "limit", str(e).splitlines()[0]
    waiting = barriers_waiting(app, config) if status != "conflict" else {}
    if waiting:
        detail += "; " if detail else ""
        detail += "barriers partly filled at the end: " + ", ".join(f"{k} has {sorted(v)}" for k, v in waiting.items())
    ordered = [sorted(steps[k]) for k in sorted(steps)]
    outcome = Outcome(status, _as_switchyard(last), ordered, detail)
    outcome.barriers_waiting = waiting
    return outcome, largest


def barriers_waiting(app, config) -> dict:
    """The `join:...` barrier channels that hold some but not all of their predecessors."""
    checkpoint = app.checkpointer.get(config)
    values = checkpoint["channel_values"] if checkpoint else {}
    return {k: v for k, v in values.items() if k.startswith("join:") and v}


def _largest(value) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return abs(value)
    if isinstance(value, dict):
        return max((_largest(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max((_largest(v) for v in value), default=0)
    return 0
