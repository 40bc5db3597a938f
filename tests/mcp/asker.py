"""An MCP server (the official Python SDK) that misbehaves on purpose, for Switchyard's hosts.

Its `ask` tool sends the client a request whatever the client declared: `roots/list`,
`sampling/createMessage`, `elicitation/create` or `ping`, and says what came back. Its `whoami`
tool says which `Authorization` header the request carried. Over HTTP its `polled` tool closes
the call's event stream before answering, so the client must resume it with `Last-Event-ID`.

    python asker.py stdio
    python asker.py http PORT
"""

import sys

import anyio

from mcp import types
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore
from mcp.shared.message import ServerMessageMetadata

server = MCPServer(name="asker", version="1.0.0")


async def _ask(what: str, ctx: Context):
    # Sent as part of the call (its stream, over HTTP), as a server that wants the answer
    # before it replies does.
    session = ctx.request_context.session
    related = ServerMessageMetadata(related_request_id=ctx.request_context.request_id)
    if what == "roots":
        return await session.send_request(types.ListRootsRequest(), types.ListRootsResult, metadata=related)
    if what == "sampling":
        message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text="hi"))
        params = types.CreateMessageRequestParams(messages=[message], max_tokens=10)
        return await session.send_request(
            types.CreateMessageRequest(params=params), types.CreateMessageResult, metadata=related
        )
    if what == "elicitation":
        schema = {"type": "object", "properties": {"name": {"type": "string"}}}
        return await session.elicit_form("Your name?", schema, related_request_id=ctx.request_context.request_id)
    if what == "ping":
        return await session.send_request(types.PingRequest(), types.EmptyResult, metadata=related)
    raise ValueError(f"unknown request {what}")


@server.tool(description="Sends the client a request (roots, sampling, elicitation or ping) and says what came back")
async def ask(what: str, ctx: Context) -> str:
    try:
        result = await _ask(what, ctx)
    except Exception as e:  # the client's error, as the SDK raises it
        error = getattr(e, "error", None)
        if error is not None:
            return f"error {error.code} {error.message}"
        return f"error {type(e).__name__}: {e}"
    return f"ok {result.model_dump_json(exclude_none=True)}"


@server.tool(description="Says which Authorization header the request carried")
async def whoami(ctx: Context) -> str:
    headers = ctx.headers or {}
    return headers.get("authorization", "(none)")


@server.tool(description="Closes the call's event stream, then answers on the resumed one")
async def polled(ctx: Context) -> str:
    await ctx.report_progress(1, 2, "before the stream closes")
    await ctx.close_sse_stream()
    await anyio.sleep(0.5)
    await ctx.report_progress(2, 2, "after")
    return "answered after the stream was resumed"


class MemoryEvents(EventStore):
    """Every event kept, so that a stream closed early can be resumed."""

    def __init__(self):
        self.events = []

    async def store_event(self, stream_id, message):
        event_id = str(len(self.events) + 1)
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        at = next((i for i, (e, _, _) in enumerate(self.events) if e == last_event_id), None)
        if at is None:
            return None
        stream_id = self.events[at][1]
        for event_id, stream, message in self.events[at + 1 :]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        server.run(
            "streamable-http", host="127.0.0.1", port=int(sys.argv[2]), event_store=MemoryEvents(), retry_interval=100
        )
    else:
        server.run("stdio")
