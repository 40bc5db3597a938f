"""LangGraph graphs with the names and behaviour the suite expects of switchyard server's
(simple, Approval workflow, held_model, Map-reduce summary, chat), so the suite can be run
against LangGraph's own server to check the tests themselves (README.md beside this file).
Model calls go to the fake model on FAKE_MODEL_PORT (run.py --model-port)."""

import json
import operator
import os
import urllib.request
from typing import Annotated, TypedDict

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Send, interrupt

PORT = int(os.environ.get("FAKE_MODEL_PORT", "0"))


def ask(prompt):
    """The fake model's reply to `prompt` (one chat-completions call)."""
    body = json.dumps({"messages": [{"role": "user", "content": prompt}]}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}/v1/chat/completions", data=body,
                                     headers={"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(request).read())["choices"][0]["message"]["content"]


def in_line(state, *nodes):
    """START → each node in turn → END."""
    graph = StateGraph(state)
    for node in nodes:
        graph.add_node(node.__name__, node)
    names = [START] + [n.__name__ for n in nodes] + [END]
    for a, b in zip(names, names[1:]):
        graph.add_edge(a, b)
    return graph.compile()


# simple: inc, then shout.
class Simple(TypedDict, total=False):
    text: str
    count: int
    echo: str


def inc(s):
    return {"count": s.get("count", 0) + 1}


def shout(s):
    return {"echo": "echo: " + s["text"]}


simple = in_line(Simple, inc, shout)


# Approval workflow: a form, then one action or the other.
class Approval(TypedDict, total=False):
    request: str
    requester: str
    decision: str
    comments: str
    final_status: str
    final_result: str


def get_approval(s):
    answer = interrupt({"node": "get_approval",
                        "fields": {"decision": {"type": "string"}, "comments": {"type": "string"}}})
    return {"decision": answer["decision"], "comments": answer.get("comments", "")}


def route_decision(s):
    return "approved_action" if s["decision"].strip().lower().startswith("approve") else "rejected_action"


def approved_action(s):
    return {"final_status": "completed", "final_result": "Approved. " + s["request"]}


def rejected_action(s):
    return {"final_status": "completed", "final_result": "Rejected. " + s["request"]}


def approval_graph():
    graph = StateGraph(Approval)
    for node in (get_approval, approved_action, rejected_action):
        graph.add_node(node.__name__, node)
    graph.add_edge(START, "get_approval")
    graph.add_conditional_edges("get_approval", route_decision)
    graph.add_edge("approved_action", END)
    graph.add_edge("rejected_action", END)
    return graph.compile()


approval = approval_graph()


# held_model: one model call on the topic.
class Held(TypedDict, total=False):
    topic: str
    answer: str


def think(s):
    return {"answer": ask(s["topic"])}


held = in_line(Held, think)


# Map-reduce summary: one summarize per section (Send), then combine.
class MapReduce(TypedDict, total=False):
    document: str
    sections: list
    summaries: Annotated[list, operator.add]
    final_status: str


def split(s):
    return {"sections": [p for p in s["document"].split("## ") if p.strip()]}


def per_section(s):
    return [Send("summarize", {"section": x}) for x in s["sections"]]


def summarize(s):
    return {"summaries": [s["section"][:10]]}


def combine(s):
    return {"final_status": "completed"}


def mapreduce_graph():
    graph = StateGraph(MapReduce)
    for node in (split, summarize, combine):
        graph.add_node(node.__name__, node)
    graph.add_edge(START, "split")
    graph.add_conditional_edges("split", per_section, ["summarize"])
    graph.add_edge("summarize", "combine")
    graph.add_edge("combine", END)
    return graph.compile()


mapreduce = mapreduce_graph()


# chat: the model answers the last message.
class Chat(TypedDict):
    messages: Annotated[list, add_messages]


def agent(s):
    return {"messages": [AIMessage(content=ask(s["messages"][-1].content))]}


chat = in_line(Chat, agent)
