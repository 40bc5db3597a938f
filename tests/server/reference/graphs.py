"""LangGraph graphs with the names and behaviour the suite expects of switchyard server's
(simple, Approval workflow, held_model, Map-reduce summary, chat), so the suite can be run
against LangGraph's own server to check the tests themselves (README.md beside this file).
Model calls go to the fake model on FAKE_MODEL_PORT (run.py --model-port)."""

import json, operator, os, urllib.request
from typing import Annotated, TypedDict
from langgraph.graph import StateGraph, START, END
from langgraph.graph.message import add_messages
from langgraph.types import interrupt, Send
from langchain_core.messages import AIMessage

PORT = int(os.environ.get("FAKE_MODEL_PORT", "0"))

def ask(prompt):
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}/v1/chat/completions",
        data=json.dumps({"messages": [{"role": "user", "content": prompt}]}).encode(), headers={"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())["choices"][0]["message"]["content"]

class S(TypedDict, total=False):
    text: str
    count: int
    echo: str
def inc(s): return {"count": s.get("count", 0) + 1}
def shout(s): return {"echo": "echo: " + s["text"]}
g = StateGraph(S); g.add_node("inc", inc); g.add_node("shout", shout)
g.add_edge(START, "inc"); g.add_edge("inc", "shout"); g.add_edge("shout", END)
simple = g.compile()

class A(TypedDict, total=False):
    request: str
    requester: str
    decision: str
    comments: str
    final_status: str
    final_result: str
def get_approval(s):
    ans = interrupt({"node": "get_approval", "fields": {"decision": {"type": "string"}, "comments": {"type": "string"}}})
    return {"decision": ans["decision"], "comments": ans.get("comments", "")}
def check(s):
    d = s["decision"].strip().lower()
    return "approved_action" if d.startswith("approve") else "rejected_action"
def approved_action(s): return {"final_status": "completed", "final_result": "Approved. " + s["request"]}
def rejected_action(s): return {"final_status": "completed", "final_result": "Rejected. " + s["request"]}
g = StateGraph(A); g.add_node("get_approval", get_approval); g.add_node("approved_action", approved_action); g.add_node("rejected_action", rejected_action)
g.add_edge(START, "get_approval"); g.add_conditional_edges("get_approval", check); g.add_edge("approved_action", END); g.add_edge("rejected_action", END)
approval = g.compile()

class H(TypedDict, total=False):
    topic: str
    answer: str
def think(s): return {"answer": ask(s["topic"])}
g = StateGraph(H); g.add_node("think", think); g.add_edge(START, "think"); g.add_edge("think", END)
held = g.compile()

class M(TypedDict, total=False):
    document: str
    sections: list
    summaries: Annotated[list, operator.add]
    final_status: str
def split(s): return {"sections": [p for p in s["document"].split("## ") if p.strip()]}
def fan(s): return [Send("summarize", {"section": x}) for x in s["sections"]]
def summarize(s): return {"summaries": [s["section"][:10]]}
def combine(s): return {"final_status": "completed"}
g = StateGraph(M); g.add_node("split", split); g.add_node("summarize", summarize); g.add_node("combine", combine)
g.add_edge(START, "split"); g.add_conditional_edges("split", fan, ["summarize"]); g.add_edge("summarize", "combine"); g.add_edge("combine", END)
mapreduce = g.compile()

class C(TypedDict):
    messages: Annotated[list, add_messages]
def agent(s): return {"messages": [AIMessage(content=ask(s["messages"][-1].content))]}
g = StateGraph(C); g.add_node("agent", agent); g.add_edge(START, "agent"); g.add_edge("agent", END)
chat = g.compile()
