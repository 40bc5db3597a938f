"""Captures the transcript engine/tests/mcp_session.rs replays: the real
@modelcontextprotocol/server-everything (tests/mcp, stdio) answering what Switchyard's client
sends. Run it again after upgrading the pinned server:

    $SWITCHYARD_MCP_PYTHON engine/tests/data/mcp/capture.py \
        "$SWITCHYARD_NODE22" "$SWITCHYARD_MCP_TOOLS" > engine/tests/data/mcp/everything.json

It writes one object: for each request sent (keyed `method` or `tools/call NAME`), every
message the server sent until the response, as it sent them (ids as the capture used them).
"""
import json, subprocess, sys, time

node, tools = sys.argv[1], sys.argv[2]
server = subprocess.Popen([node, f"{tools}/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
next_id = 0

def send(msg):
    server.stdin.write(json.dumps(msg) + "\n")
    server.stdin.flush()

def request(method, params):
    global next_id
    next_id += 1
    send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    got = []
    while True:
        line = server.stdout.readline()
        if not line:
            raise SystemExit(f"server exited during {method}")
        msg = json.loads(line)
        got.append(msg)
        if msg.get("id") == next_id and "method" not in msg:
            return got

out = {}
out["initialize"] = request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "switchyard", "version": "0.1.0"}})
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
time.sleep(0.5)  # the server sends list_changed after initialized; tools/list must come after it
out["tools/list"] = request("tools/list", {})
calls = [("echo", {"message": "hi"}), ("get-sum", {"a": 2, "b": 3}),
         ("get-structured-content", {"location": "Chicago"}),
         ("trigger-long-running-operation", {"duration": 1, "steps": 3}),
         ("get-tiny-image", {}), ("nope", {}), ("get-sum", {"a": "x"})]
for name, args in calls:
    key = f"tools/call {name}" + (" bad" if name in out.get("_seen", []) else "")
    out.setdefault("_seen", []).append(name)
    out[key] = request("tools/call", {"name": name, "arguments": args, "_meta": {"progressToken": next_id + 1}})
del out["_seen"]
server.stdin.close()
server.wait(timeout=10)
json.dump(out, sys.stdout, indent=1)
