"""Random graphs, from a seed, in the subset Switchyard and LangGraph both express.

A graph here is a plain description (`Graph`) that `switchyard.py` turns into a Switchyard
document and `langgraph_side.py` into a LangGraph StateGraph. Expressions are small trees
(`Expr`) rendered as Rhai for Switchyard and evaluated directly for LangGraph, so both sides
compute the same thing by construction: integers with + - and * by a small constant,
comparisons, and/or/not, list lengths.

Choices that keep the two semantics equal (the differences are in differences.py):
- A `when` edge reads only fields no node but its source writes (its private counter, input
  constants). LangGraph's conditional edge sees the state before the step plus its own node's
  writes; Switchyard's `when` sees the whole step's result. On such fields the two coincide.
- A `join: all` node's in-edges are all plain edges from `set` nodes (LangGraph's
  `add_edge([a, b], j)` barrier is written by exactly those), never from start or a router.
- Every field is given in the input, so LangGraph's replace channels are never empty.
- A map edge (LangGraph: a conditional edge returning `Send`s) leaves a `set` node, and its list
  and `when` read only fields the source alone writes (the map twin of the `when` rule). Its
  target is reached by map edges only and computes from `item`, `index` (only when one map
  edge leads to it: LangGraph's `Send` carries no index, so the generator puts the edge's
  position in it) and the input constant `k`: a `Send` task sees its argument, not the state.
  Its edges are plain (it is routed once in Switchyard, once per instance in LangGraph).
- A `messages` field (LangGraph: `add_messages`) is written with explicit ids from a small
  pool, so both sides name messages alike. An update adds or replaces messages, removes ids
  (present or not: an absent id fails the run on both sides), removes and re-adds an id, or
  starts with `{"remove": "all"}` followed by messages of distinct ids (the documented
  difference is what follows a `remove: all` otherwise). A node with a `when` or map edge
  removes only ids present as it runs: LangGraph's view for such an edge (the state before the
  step plus the node's own writes) applies the node's update alone, and fails on an id that
  only a parallel node of the step adds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# ---------------------------------------------------------------- expressions
# An expression is a tuple: ("int", n) | ("field", name) | ("len", name) | ("bool", b) |
# ("op", "+"|"-"|"*", a, b) | ("cmp", "<"|"<="|">"|">="|"=="|"!=", a, b) |
# ("and"|"or", a, b) | ("not", a) | ("list", [a, ...]) | ("str", s) | ("strs", [s, ...]) |
# ("if", cond, then, else) | ("item",) | ("index",) | ("cat", prefix, a) (a string: prefix then
# the integer a) | ("msgs", [part, ...]) (an update of a messages field, below)
#
# A messages update part: ("msg", id, role, content) (content an expression giving a string) |
# ("remove", id) | ("remove_all",) | ("if_has", id, [part, ...]) (the parts, when the messages
# field holds a message with that id as the node runs).
Expr = tuple

# The messages field's name, and the ids its messages take.
MSGS = "msgs"
MSG_IDS = ["m0", "m1", "m2", "m3"]


def _rhai_part(p) -> str:
    if p[0] == "msg":
        return f'[#{{id: "{p[1]}", role: "{p[2]}", content: {to_rhai(p[3])}}}]'
    if p[0] == "remove":
        return f'[#{{remove: "{p[1]}"}}]'
    if p[0] == "remove_all":
        return '[#{remove: "all"}]'
    if p[0] == "if_has":
        inner = " + ".join(_rhai_part(q) for q in p[2]) or "[]"
        return f'(if state.{MSGS}.some(|m| m.id == "{p[1]}") {{ {inner} }} else {{ [] }})'
    raise ValueError(f"unknown messages part {p!r}")


def _message_ids(messages) -> list:
    """The ids of a messages field's value: dicts (the input) or LangChain messages."""
    return [m["id"] if isinstance(m, dict) else m.id for m in messages]


def _eval_parts(parts, state) -> list:
    out = []
    for p in parts:
        if p[0] == "msg":
            out.append({"id": p[1], "role": p[2], "content": evaluate(p[3], state)})
        elif p[0] == "remove":
            out.append({"remove": p[1]})
        elif p[0] == "remove_all":
            out.append({"remove": "all"})
        elif p[0] == "if_has":
            if p[1] in _message_ids(state[MSGS]):
                out.extend(_eval_parts(p[2], state))
        else:
            raise ValueError(f"unknown messages part {p!r}")
    return out


def to_rhai(e: Expr) -> str:
    tag = e[0]
    if tag == "int":
        return str(e[1])
    if tag == "bool":
        return "true" if e[1] else "false"
    if tag == "field":
        return f"state.{e[1]}"
    if tag == "len":
        return f"state.{e[1]}.len()"
    if tag in ("op", "cmp"):
        return f"({to_rhai(e[2])} {e[1]} {to_rhai(e[3])})"
    if tag == "and":
        return f"({to_rhai(e[1])} && {to_rhai(e[2])})"
    if tag == "or":
        return f"({to_rhai(e[1])} || {to_rhai(e[2])})"
    if tag == "not":
        return f"!{to_rhai(e[1])}"
    if tag == "list":
        return "[" + ", ".join(to_rhai(x) for x in e[1]) + "]"
    if tag == "str":
        return f'"{e[1]}"'
    if tag == "strs":
        return "[" + ", ".join(f'"{s}"' for s in e[1]) + "]"
    if tag == "if":
        return f"if {to_rhai(e[1])} {{ {to_rhai(e[2])} }} else {{ {to_rhai(e[3])} }}"
    if tag in ("item", "index"):
        return tag
    if tag == "cat":
        return f'("{e[1]}" + {to_rhai(e[2])})'
    if tag == "msgs":
        return " + ".join(_rhai_part(p) for p in e[1]) or "[]"
    raise ValueError(f"unknown expression {e!r}")


_CMP = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}
_OP = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def evaluate(e: Expr, state: dict):
    """The value of `e` on `state`, as Python computes it (the LangGraph side)."""
    tag = e[0]
    if tag in ("int", "bool", "str"):
        return e[1]
    if tag == "field":
        return state[e[1]]
    if tag == "len":
        return len(state[e[1]])
    if tag == "op":
        return _OP[e[1]](evaluate(e[2], state), evaluate(e[3], state))
    if tag == "cmp":
        return _CMP[e[1]](evaluate(e[2], state), evaluate(e[3], state))
    if tag == "and":
        return evaluate(e[1], state) and evaluate(e[2], state)
    if tag == "or":
        return evaluate(e[1], state) or evaluate(e[2], state)
    if tag == "not":
        return not evaluate(e[1], state)
    if tag == "list":
        return [evaluate(x, state) for x in e[1]]
    if tag == "strs":
        return list(e[1])
    if tag == "if":
        return evaluate(e[2], state) if evaluate(e[1], state) else evaluate(e[3], state)
    if tag in ("item", "index"):
        return state[tag]
    if tag == "cat":
        return f"{e[1]}{evaluate(e[2], state)}"
    if tag == "msgs":
        return _eval_parts(e[1], state)
    raise ValueError(f"unknown expression {e!r}")


# ---------------------------------------------------------------- graph description


@dataclass
class Field:
    kind: str  # "int" | "bool" | "list" | "msgs"
    reducer: str  # "replace" | "add" | "append" | "messages"
    number: bool = False  # an "int" declared as Switchyard's `number` rather than `integer`


@dataclass
class Node:
    id: str
    kind: str  # "set" | "router"
    join: bool = False
    mapped: bool = False  # reached by map edges only: runs as instances
    set: dict = field(default_factory=dict)  # field -> Expr
    route: Expr | None = None


@dataclass
class Edge:
    source: str  # node id or "start"
    target: str  # node id or "end"
    label: str | None = None
    when: Expr | None = None
    map: Expr | None = None  # a map edge: the list of items


@dataclass
class Graph:
    seed: int
    fields: dict  # name -> Field
    input: dict
    nodes: list  # [Node]
    edges: list  # [Edge]
    max_steps: int | None  # None: no `limits`, the default applies

    DEFAULT_MAX_STEPS = 24

    @property
    def step_limit(self) -> int:
        return self.max_steps if self.max_steps is not None else self.DEFAULT_MAX_STEPS

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.id == node_id)


# ---------------------------------------------------------------- generation

# Mixed case, digits, `_` and `-`: both sides apply a step's updates in node id order.
NODE_IDS = ["a", "B", "c", "d_1", "d2", "e-x", "f", "g"]
LABELS = ["yes", "no", "maybe"]


def counter_of(node_id: str) -> str:
    """A node's private counter field (a name Rhai reads as `state.c_e_x`)."""
    return "c_" + node_id.replace("-", "_")


class _Gen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.seed = seed

    # -- expressions over a set of readable fields
    def int_atom(self, ints, lists):
        r = self.rng.random()
        if ints and r < 0.55:
            return ("field", self.rng.choice(ints))
        if lists and r < 0.7:
            return ("len", self.rng.choice(lists))
        return ("int", self.rng.randint(0, 4))

    def int_expr(self, ints, lists, depth=1):
        if depth == 0 or self.rng.random() < 0.4:
            return self.int_atom(ints, lists)
        op = self.rng.choice(["+", "+", "-", "*"])
        if op == "*":  # only by a small constant: values must stay far from i64's range
            return ("op", "*", self.int_atom(ints, lists), ("int", self.rng.randint(2, 3)))
        return ("op", op, self.int_expr(ints, lists, depth - 1), self.int_atom(ints, lists))

    def comparison(self, ints, lists):
        op = self.rng.choice(list(_CMP))
        return ("cmp", op, self.int_expr(ints, lists, 1), ("int", self.rng.randint(0, 6)))

    def bool_expr(self, ints, lists, bools, depth=1):
        r = self.rng.random()
        if bools and r < 0.15:
            return ("field", self.rng.choice(bools))
        if depth > 0 and r < 0.35:
            kind = self.rng.choice(["and", "or", "not"])
            if kind == "not":
                return ("not", self.bool_expr(ints, lists, bools, depth - 1))
            return (kind, self.bool_expr(ints, lists, bools, depth - 1), self.bool_expr(ints, lists, bools, depth - 1))
        return self.comparison(ints, lists)

    def value_for(self, f: Field, ints, lists, bools):
        if f.kind == "msgs":
            return self.msgs_update(ints, lists)
        if f.kind == "bool":
            return self.bool_expr(ints, lists, bools)
        if f.kind == "list":
            return ("list", [self.int_expr(ints, lists) for _ in range(self.rng.randint(1, 2))])
        if f.reducer == "add":  # an increment: small, so sums stay small
            return self.rng.choice([("int", self.rng.randint(1, 3)), self.int_atom(ints, lists)])
        return self.int_expr(ints, lists)

    # -- the graph
    def graph(self) -> Graph:
        fields = self.shared_fields()
        ids = self.rng.sample(NODE_IDS, self.rng.randint(2, 7))
        nodes = [Node(nid, "router" if self.rng.random() < 0.25 else "set") for nid in ids]
        self.mark_mapped(nodes)
        self.add_counters(fields, [n for n in nodes if not n.mapped])
        self.fields = fields
        writers = self.add_writes(fields, nodes)
        for n in nodes[1:]:  # the first node is start's target: never a join
            n.join = not n.mapped and self.rng.random() < 0.2
        self.joins = {n.id for n in nodes if n.join}

        def owned(nid):
            """Fields a `when` or `map` out of `nid` may read: written by `nid` alone, or by no node."""
            mine = [f for f in fields if writers.get(f, set()) <= {nid}]
            return self.by_kind(mine)

        plain = [n.id for n in nodes if not n.mapped]
        edges = self.start_edges([n for n in nodes if not n.mapped])
        for n in nodes:
            if n.mapped:
                edges += self.mapped_out_edges(n, [m.id for m in nodes if not m.join and not m.mapped])
            elif n.kind == "router":
                targets = [m.id for m in nodes if not m.join and not m.mapped]
                edges += self.router_edges(n, targets, *self.by_kind(fields))
            else:
                edges += self.set_edges(n, plain, owned(n.id))
        for e in self.map_edges(nodes, owned):  # anywhere in the document: only their order matters
            edges.insert(self.rng.randint(0, len(edges)), e)
        self.make_reachable(nodes, edges, owned)
        self.guard_removals(nodes, edges)
        # Without `limits` the default applies (24 steps).
        max_steps = self.rng.randint(2, 12) if self.rng.random() < 0.85 else None
        return Graph(self.seed, fields, self.inputs(fields), nodes, edges, max_steps)

    def guard_removals(self, nodes, edges):
        """A node with a `when` or map edge removes only ids it sees: LangGraph computes what
        such an edge sees by applying the node's own update to the state before the step, so
        removing an id a parallel node adds in the same step fails there (and not in
        Switchyard, which applies the step's updates in order)."""
        conditional = {e.source for e in edges if e.when is not None or e.map is not None}
        for n in nodes:
            update = n.set.get(MSGS)
            if n.id in conditional and update is not None:
                guarded = [("if_has", p[1], [p]) if p[0] == "remove" else p for p in update[1]]
                n.set[MSGS] = ("msgs", guarded)

    def mark_mapped(self, nodes):
        """Some `set` nodes after the first become map targets, each fed by one or two map
        edges (`self.map_in`); there must be a `set` node left to send them."""
        for n in nodes[1:]:
            n.mapped = n.kind == "set" and self.rng.random() < 0.3
        if not any(n.kind == "set" and not n.mapped for n in nodes):
            for n in nodes:
                n.mapped = False
        self.map_in = {n.id: 1 if self.rng.random() < 0.7 else 2 for n in nodes if n.mapped}

    def shared_fields(self) -> dict:
        rng = self.rng
        fields: dict[str, Field] = {}
        for i in range(rng.randint(1, 3)):
            fields[f"n{i}"] = Field("int", rng.choice(["replace", "replace", "add"]), number=rng.random() < 0.3)
        for i in range(rng.randint(0, 2)):
            fields[f"l{i}"] = Field("list", "append")
        if rng.random() < 0.4:
            fields["flag"] = Field("bool", "replace")
        if rng.random() < 0.5:
            fields[MSGS] = Field("msgs", "messages")
        fields["k"] = Field("int", "replace")  # an input constant no node writes
        return fields

    def add_counters(self, fields, nodes):
        """Private counters make loops that end: `c_x < 3` back to x."""
        for n in nodes:
            if n.kind == "set" and self.rng.random() < 0.6:
                fields[counter_of(n.id)] = Field("int", self.rng.choice(["replace", "add"]))

    def by_kind(self, names):
        """The names split into (integer, list, boolean) fields."""
        return tuple([f for f in names if self.fields[f].kind == kind] for kind in ("int", "list", "bool"))

    def add_writes(self, fields, nodes) -> dict:
        """Each set node bumps its counter and writes one or two shared fields; returns who writes what."""
        shared = [f for f in fields if f != "k" and not f.startswith("c_")]
        readable = self.by_kind(fields)
        writers: dict[str, set] = {}
        for n in nodes:
            if n.kind != "set":
                continue
            if n.mapped:
                # Mostly fields with a reducer: instances writing one `replace` field conflict.
                pool = [f for f in shared if fields[f].reducer != "replace"]
                if not pool or self.rng.random() < 0.2:
                    pool = shared
                for f in self.rng.sample(pool, min(len(pool), self.rng.randint(1, 2))):
                    n.set[f] = self.mapped_value(fields[f], single=self.map_in[n.id] == 1)
                    writers.setdefault(f, set()).add(n.id)
                continue
            counter = counter_of(n.id)
            if counter in fields:
                n.set[counter] = ("int", 1) if fields[counter].reducer == "add" else ("op", "+", ("field", counter), ("int", 1))
            for f in self.rng.sample(shared, min(len(shared), self.rng.randint(0 if counter in fields else 1, 2))):
                n.set[f] = self.value_for(fields[f], *readable)
            for f in n.set:
                writers.setdefault(f, set()).add(n.id)
        return writers

    def start_edges(self, nodes) -> list:
        plain = [n.id for n in nodes[1:] if not n.join]
        first = [nodes[0].id] + self.rng.sample(plain, min(len(plain), self.rng.randint(0, 1)))
        return [Edge("start", t) for t in first]

    def inputs(self, fields) -> dict:
        """A value for every field: LangGraph's replace channels must not start empty."""
        rng = self.rng
        values = {}
        for f, d in fields.items():
            if d.kind == "int":
                values[f] = 0 if f.startswith("c_") else rng.randint(0, 5)
            elif d.kind == "bool":
                values[f] = rng.random() < 0.5
            elif d.kind == "msgs":
                ids = rng.sample(MSG_IDS, rng.randint(0, 2))
                values[f] = [{"id": i, "role": "user", "content": f"in{rng.randint(0, 9)}"} for i in ids]
            else:
                values[f] = [rng.randint(0, 3) for _ in range(rng.randint(0, 2))]
        return values

    def router_edges(self, n: Node, plain_targets, ints, lists, bools):
        rng = self.rng
        k = rng.randint(2, 3)
        targets = rng.sample(plain_targets + ["end"], min(k, len(plain_targets) + 1))
        labels = LABELS[: len(targets)]
        if rng.random() < 0.3:  # a `default` edge catches the labels no other edge has
            labels[-1] = "default"
        edges = [Edge(n.id, t, label=l) for t, l in zip(targets, labels)]
        names = [l for l in labels if l != "default"] + (["other"] if "default" in labels else [])

        def pick():
            r = rng.random()
            if r < 0.2:  # fan out to several labels (or none)
                return ("strs", rng.sample(names, rng.randint(0, len(names))))
            return ("str", rng.choice(names))

        n.route = ("if", self.bool_expr(ints, lists, bools), pick(), pick())
        return edges

    def set_edges(self, n: Node, ids, owned_fields):
        """Mostly forward edges; a back edge is usually guarded by the node's own counter."""
        rng = self.rng
        pos = ids.index(n.id)
        later, earlier = ids[pos + 1 :] + ["end"], ids[: pos + 1]
        targets = rng.sample(later, min(len(later), rng.randint(1, 2)))
        if rng.random() < 0.5:
            targets.append(rng.choice(earlier))
        counter = counter_of(n.id)
        edges = []
        for t in targets:
            when = None
            if t in self.joins:
                pass  # a join's barrier is written whenever its predecessor runs
            elif t in earlier and counter in self.fields and rng.random() < 0.8:
                when = ("cmp", rng.choice(["<", "<="]), ("field", counter), ("int", rng.randint(1, 4)))
            elif rng.random() < (0.6 if t in earlier else 0.3):
                when = self.bool_expr(*owned_fields)
            edges.append(Edge(n.id, t, when=when))
        return edges

    def make_reachable(self, nodes, edges, owned):
        """Adds an edge into every node start cannot reach, from a reachable `set` node."""
        rng = self.rng
        by_id = {n.id: n for n in nodes}
        while True:
            seen, todo = set(), ["start"]
            while todo:
                u = todo.pop()
                for e in edges:
                    if e.source == u and e.target not in seen and e.target != "end":
                        seen.add(e.target)
                        todo.append(e.target)
            # A map target unreached stays so: only map edges may lead to it.
            missing = [n for n in nodes if n.id not in seen and not n.mapped]
            if not missing:
                return
            v = missing[0]
            sources = [
                u
                for u in seen
                if by_id[u].kind == "set"
                and not by_id[u].mapped
                and not any(e.source == u and e.target == v.id for e in edges)
            ]
            if not sources:
                v.join = False
                edges.append(Edge("start", v.id))
                continue
            u = rng.choice(sorted(sources))
            when = None
            if not v.join and rng.random() < 0.3:
                when = self.bool_expr(*owned(u))
            edges.append(Edge(u, v.id, when=when))

    # -- messages and map edges
    def message(self, ints, lists, mid=None):
        """A message with an id from the pool (or `mid`), its content computed."""
        rng = self.rng
        content = ("cat", "v", self.int_expr(ints, lists))
        return ("msg", mid or rng.choice(MSG_IDS), rng.choice(["user", "assistant"]), content)

    def msgs_update(self, ints, lists):
        """An update of the messages field by a node that reads the state."""
        rng = self.rng
        if rng.random() < 0.1:  # a fresh start: what follows `remove: all` has distinct ids
            fresh = [self.message(ints, lists, i) for i in rng.sample(MSG_IDS, rng.randint(0, 2))]
            return ("msgs", [("remove_all",)] + fresh)
        parts = []
        for _ in range(rng.randint(1, 3)):
            r, mid = rng.random(), rng.choice(MSG_IDS)
            if r < 0.4:  # added, or replacing the message with that id in place
                parts.append(self.message(ints, lists))
            elif r < 0.6:  # removed when present
                parts.append(("if_has", mid, [("remove", mid)]))
            elif r < 0.78:  # removed and written again in one update: it keeps its place
                parts.append(("if_has", mid, [("remove", mid), self.message(ints, lists, mid)]))
            elif r < 0.9:  # added, then removed in the same update
                parts.append(("if_has", mid, [self.message(ints, lists), ("remove", mid)]))
            else:  # removed whether present or not: an absent id fails the run
                parts.append(("remove", mid))
        return ("msgs", parts)

    def mapped_value(self, f: Field, single: bool):
        """What a map target writes: from its item, its index (`single`: one map edge leads
        to it) and the input constant k."""
        rng = self.rng
        atoms = [("item",), ("field", "k")] + ([("index",)] if single else [])

        def atom():
            return rng.choice(atoms) if rng.random() < 0.8 else ("int", rng.randint(0, 4))

        def num():
            return atom() if rng.random() < 0.5 else ("op", rng.choice(["+", "-"]), atom(), atom())

        if f.kind == "bool":
            return ("cmp", rng.choice(list(_CMP)), num(), ("int", rng.randint(0, 4)))
        if f.kind == "list":
            return ("list", [num() for _ in range(rng.randint(1, 2))])
        if f.kind == "msgs":
            parts = [("msg", rng.choice(MSG_IDS), rng.choice(["user", "assistant"]), ("cat", "i", num()))]
            if rng.random() < 0.15:  # whether it is there depends on what was applied before
                parts.insert(rng.randint(0, 1), ("remove", rng.choice(MSG_IDS)))
            return ("msgs", parts)
        if f.reducer == "add":
            return rng.choice([("int", rng.randint(1, 3)), atom()])
        return num()

    def map_edges(self, nodes, owned) -> list:
        """The map edges into each map target, out of `set` nodes that are not map targets."""
        rng = self.rng
        sources = [n.id for n in nodes if n.kind == "set" and not n.mapped]
        edges = []
        for n in nodes:
            for _ in range(self.map_in.get(n.id, 0) if n.mapped else 0):
                u = rng.choice(sources)
                ints, lists, bools = owned(u)
                if lists and rng.random() < 0.3:
                    items = ("field", rng.choice(lists))
                else:
                    items = ("list", [self.int_expr(ints, lists) for _ in range(rng.randint(0, 3))])
                when = self.bool_expr(ints, lists, bools) if rng.random() < 0.25 else None
                edges.append(Edge(u, n.id, when=when, map=items))
        return edges

    def mapped_out_edges(self, n: Node, plain_targets) -> list:
        """Plain edges only: a map target is routed once in Switchyard, per instance in LangGraph."""
        targets = self.rng.sample(plain_targets + ["end"], min(len(plain_targets) + 1, self.rng.randint(1, 2)))
        return [Edge(n.id, t) for t in targets]


def generate(seed: int) -> Graph:
    return _Gen(seed).graph()
