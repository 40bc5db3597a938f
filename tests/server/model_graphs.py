"""Graphs whose llm nodes call a fake OpenAI-compatible model (fake_model.py) at `base_url`:
made when a test starts, since the model's port is only known then."""


def _llm(node_id, prompt, writes, base_url, **more):
    return {"id": node_id, "kind": "llm", "prompt": prompt, "writes": writes,
            "model": {"provider": "openai", "model": "fake-1", "base_url": base_url}, **more}


def held(base_url):
    """`Held model`: one model call, on `topic`; the fake model may hold its reply, which keeps
    the run going as long as a test needs (cancel, multitask, disconnect)."""
    return {
        "format": "switchyard/graph@1",
        "name": "held_model",
        "state": {"topic": {"type": "string", "default": ""}, "answer": {"type": "string", "default": ""}},
        "nodes": [{"id": "start", "kind": "start", "required": ["topic"]},
                  _llm("think", "{{ state.topic }}", "answer", base_url),
                  {"id": "end", "kind": "end"}],
        "edges": [{"from": "start", "to": "think"}, {"from": "think", "to": "end"}],
    }


def chat(base_url):
    """`chat`: a messages field and one llm node answering the conversation, for the
    `messages` stream modes and LangChain-style messages on the wire."""
    return {
        "format": "switchyard/graph@1",
        "name": "chat",
        "state": {"messages": {"type": "messages"}},
        "nodes": [{"id": "start", "kind": "start"},
                  {"id": "agent", "kind": "llm", "messages": "state.messages", "writes": "messages",
                   "model": {"provider": "openai", "model": "fake-1", "base_url": base_url}},
                  {"id": "end", "kind": "end"}],
        "edges": [{"from": "start", "to": "agent"}, {"from": "agent", "to": "end"}],
    }


def chain(base_url):
    """`chain`: three model calls one after another (outline → draft → polish), so a server can
    be killed while the middle one is in flight, with one call done and one still to come."""
    return {
        "format": "switchyard/graph@1",
        "name": "chain",
        "state": {"topic": {"type": "string", "default": ""}, "outline": {"type": "string", "default": ""},
                  "draft": {"type": "string", "default": ""}, "polished": {"type": "string", "default": ""}},
        "nodes": [{"id": "start", "kind": "start", "required": ["topic"]},
                  _llm("outline", "outline {{ state.topic }}", "outline", base_url),
                  _llm("draft", "draft {{ state.topic }}", "draft", base_url),
                  _llm("polish", "polish {{ state.topic }}", "polished", base_url),
                  {"id": "end", "kind": "end"}],
        "edges": [{"from": "start", "to": "outline"}, {"from": "outline", "to": "draft"},
                  {"from": "draft", "to": "polish"}, {"from": "polish", "to": "end"}],
    }
