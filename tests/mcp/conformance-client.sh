#!/bin/sh
# The MCP conformance suite's client under test (`conformance client --command ...`): runs a
# Switchyard graph whose tool calls the scenario's server, at the URL the suite appends.
# A mock model calls `add_numbers` (the `tools_call` scenario's tool); the `initialize`
# scenario only checks the handshake. SWITCHYARD_BIN names the CLI (default: switchyard).
set -eu
url="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/graph.json" <<GRAPH
{
  "format": "switchyard/graph@1",
  "name": "conformance client",
  "state": { "messages": { "type": "messages" } },
  "mcp_servers": { "suite": { "url": "$url" } },
  "tools": { "add_numbers": { "run": { "mcp": { "server": "suite" } } } },
  "nodes": [
    { "id": "start", "kind": "start" },
    { "id": "agent", "kind": "llm", "prompt": "add", "writes": "messages",
      "tools": ["add_numbers"],
      "model": { "provider": "mock", "responses": [
        { "content": "", "tool_calls": [ { "name": "add_numbers", "arguments": { "a": 2, "b": 3 } } ] } ] } },
    { "id": "tools", "kind": "tools", "messages": "messages" },
    { "id": "end", "kind": "end" }
  ],
  "edges": [ { "from": "start", "to": "agent" }, { "from": "agent", "to": "tools" }, { "from": "tools", "to": "end" } ]
}
GRAPH
status=0
"${SWITCHYARD_BIN:-switchyard}" run "$dir/graph.json" --summary || status=$?
# The `initialize` scenario's server lists no tools and answers `notifications/initialized`
# with a message that has no id (which Switchyard reports as not JSON-RPC): the run cannot
# complete there, and only the scenario's handshake check counts.
if [ "${MCP_CONFORMANCE_SCENARIO:-}" = initialize ]; then exit 0; fi
exit "$status"
