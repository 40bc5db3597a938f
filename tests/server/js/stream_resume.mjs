// The JavaScript LangGraph client (@langchain/langgraph-sdk, pinned in ../package.json) against
// switchyard server at SWITCHYARD_SERVER_URL: stream the approval template to its interrupt,
// then stream the resume to the end. Prints one JSON line; exits 1 naming what went wrong.
import { Client } from "@langchain/langgraph-sdk";

const client = new Client({ apiUrl: process.env.SWITCHYARD_SERVER_URL });
const graph = "Approval workflow";

function check(condition, what, seen) {
  if (!condition) {
    console.error(`${what}; got ${JSON.stringify(seen)}`);
    process.exit(1);
  }
}

async function collect(stream) {
  const parts = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const thread = await client.threads.create();
const first = await collect(
  client.runs.stream(thread.thread_id, graph, {
    input: { request: "a standing desk" },
    streamMode: ["values", "updates"],
  }),
);
const events = first.map((p) => p.event);
check(events[0] === "metadata", "metadata comes first", events);
const values = first.filter((p) => p.event === "values");
const stopped = values[values.length - 1].data;
check(Array.isArray(stopped.__interrupt__) && stopped.__interrupt__.length === 1,
  "the last values event carries the interrupt", stopped);
check((await client.threads.get(thread.thread_id)).status === "interrupted", "the thread is interrupted", thread);

const second = await collect(
  client.runs.stream(thread.thread_id, graph, {
    command: { resume: { decision: "approve" } },
    streamMode: "values",
  }),
);
const last = second.filter((p) => p.event === "values").pop().data;
check(last.final_status === "completed" && last.final_result.startsWith("Approved."), "the resume finishes approved", last);
check(!("__interrupt__" in last), "no interrupt is left", last);
const state = await client.threads.getState(thread.thread_id);
check(state.next.length === 0, "nothing runs next", state.next);
console.log(JSON.stringify({ ok: true, thread: thread.thread_id, events: events.length + second.length }));
