"""The Switchyard side: a `Graph` as a graph document, run by the `switchyard` binary."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile

from gen import Graph, to_rhai

_TYPES = {"int": "integer", "bool": "boolean", "list": "list", "msgs": "messages"}


def document(g: Graph) -> dict:
    state = {}
    for name, f in g.fields.items():
        decl = {"type": "number" if f.number else _TYPES[f.kind]}
        if f.reducer not in ("replace", "messages"):  # a messages field's reducer is its own
            decl["reducer"] = f.reducer
        state[name] = decl
    nodes = [{"id": "start", "kind": "start"}]
    for n in g.nodes:
        node = {"id": n.id, "kind": n.kind}
        if n.join:
            node["join"] = "all"
        if n.kind == "set":
            node["set"] = {f: to_rhai(e) for f, e in n.set.items()}
        else:
            node["route"] = to_rhai(n.route)
        nodes.append(node)
    nodes.append({"id": "end", "kind": "end"})
    edges = []
    for e in g.edges:
        edge = {"from": e.source, "to": e.target}
        if e.label is not None:
            edge["label"] = e.label
        if e.when is not None:
            edge["when"] = to_rhai(e.when)
        if e.map is not None:
            edge["map"] = to_rhai(e.map)
        edges.append(edge)
    doc = {
        "format": "switchyard/graph@1",
        "name": f"differential seed {g.seed}",
        "state": state,
        "nodes": nodes,
        "edges": edges,
    }
    if g.max_steps is not None:
        doc["limits"] = {"max_steps": g.max_steps}
    return doc


class Outcome:
    """What a run ended as, in terms both sides share."""

    def __init__(self, status: str, state: dict | None, steps: list, detail: str = ""):
        self.status = status  # completed | conflict | limit | join | remove (an absent message id) | other
        self.state = state
        self.steps = steps  # [[node ids of step 1, sorted], ...]
        self.detail = detail
        self.barriers_waiting: dict = {}  # LangGraph only: join barriers partly filled at the end

    def as_dict(self) -> dict:
        return {"status": self.status, "state": self.state, "steps": self.steps, "detail": self.detail}


def run(binary: str, doc: dict, inputs: dict, workdir: str) -> Outcome:
    fd, path = tempfile.mkstemp(suffix=".json", dir=workdir)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f)
    try:
        proc = subprocess.run(
            [binary, "run", path, "--input", json.dumps(inputs)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        os.unlink(path)
    if proc.returncode == 2 or not proc.stdout.strip():
        return Outcome("other", None, [], f"exit {proc.returncode}: {proc.stderr.strip()}")
    record = json.loads(proc.stdout)
    # An instance `node[i]` counts as its node: LangGraph names a Send task by its node.
    steps = [sorted(name.split("[")[0] for name in s["ran"]) for s in record.get("steps", [])]
    error = record.get("error") or {}
    status = {
        "completed": "completed",
        "limit_reached": "limit",
    }.get(record["status"])
    if record["status"] == "failed" and error.get("kind") in ("conflict", "join"):
        status = error["kind"]
    absent_id = error.get("kind") == "type" and "cannot remove message" in error.get("message", "")
    if record["status"] == "failed" and absent_id:
        status = "remove"
    detail = f"exit {proc.returncode}, status {record['status']}, error {json.dumps(error) if error else 'null'}"
    return Outcome(status or "other", record.get("state"), steps, detail)
