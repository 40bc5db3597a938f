"""A client of `switchyard mcp`, built on the official MCP Python SDK (PyPI `mcp`).

cli/tests/mcp_server.rs drives it and reads the one JSON object it prints on stdout.

    python switchyard_client.py TARGET [--mode auto|legacy] ACTION...

TARGET is `http://…/mcp`, or `stdio` followed (after `--`, at the end) by the command that
starts the server. Actions, run in order in one session:

    list                                    the tools, as listed
    call NAME ARGS_JSON                     call a tool; options before it apply to it:
        --progress                          send a progress token, record the callbacks
        --answer accept:JSON|decline|cancel  how elicitations are answered (repeatable: in turn);
                                            without any, the client declares no elicitation
        --timeout SECONDS                   give up on the call (the SDK sends notifications/cancelled)
    resources                               the resources, and the first one read
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters, types


def parse(argv):
    target = argv[0]
    rest = argv[1:]
    command = None
    if "--" in rest:
        i = rest.index("--")
        command = rest[i + 1 :]
        rest = rest[:i]
    mode = "auto"
    if rest[:1] == ["--mode"]:
        mode = rest[1]
        rest = rest[2:]
    return target, command, mode, rest


def actions(rest):
    """Splits the action words into [(action, options, args)]."""
    out = []
    opts = {"answers": []}
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--progress":
            opts["progress"] = True
            i += 1
        elif word == "--answer":
            opts["answers"].append(rest[i + 1])
            i += 2
        elif word == "--timeout":
            opts["timeout"] = float(rest[i + 1])
            i += 2
        elif word == "call":
            out.append(("call", opts, rest[i + 1 : i + 3]))
            opts = {"answers": []}
            i += 3
        else:
            out.append((word, opts, []))
            opts = {"answers": []}
            i += 1
    return out


def answer_of(spec):
    if spec.startswith("accept:"):
        return types.ElicitResult(action="accept", content=json.loads(spec[len("accept:") :]))
    return types.ElicitResult(action=spec)


async def main(argv):
    target, command, mode, rest = parse(argv)
    steps = actions(rest)
    all_answers = [a for _, opts, _ in steps for a in opts["answers"]]
    asked = []

    async def on_elicit(ctx, params):
        asked.append({"message": params.message, "schema": params.requested_schema})
        return answer_of(all_answers.pop(0)) if all_answers else types.ElicitResult(action="cancel")

    if target == "stdio":
        server = StdioServerParameters(command=command[0], args=command[1:])
    else:
        server = target
    kwargs = {"mode": mode}
    if all_answers:
        kwargs["elicitation_callback"] = on_elicit
    results = []
    async with Client(server, **kwargs) as client:
        for action, opts, args in steps:
            if action == "list":
                listed = await client.list_tools()
                results.append(
                    {
                        "tools": [
                            {
                                "name": t.name,
                                "title": t.title,
                                "description": t.description,
                                "inputSchema": t.input_schema,
                                "outputSchema": t.output_schema,
                            }
                            for t in listed.tools
                        ]
                    }
                )
            elif action == "resources":
                listed = await client.list_resources()
                first = listed.resources[0]
                read = await client.read_resource(first.uri)
                results.append({"uris": [str(r.uri) for r in listed.resources], "text": read.contents[0].text})
            elif action == "call":
                name, arguments = args[0], json.loads(args[1])
                progress = []

                async def on_progress(p, total, message, progress=progress):
                    progress.append({"progress": p, "total": total, "message": message})

                asked.clear()
                try:
                    r = await client.call_tool(
                        name,
                        arguments,
                        read_timeout_seconds=opts.get("timeout"),
                        progress_callback=on_progress if opts.get("progress") else None,
                    )
                    texts = [c.text for c in r.content if getattr(c, "type", "") == "text"]
                    results.append(
                        {
                            "is_error": bool(r.is_error),
                            "structured": r.structured_content,
                            "text": "\n".join(texts),
                            "progress": progress,
                            "asked": list(asked),
                        }
                    )
                except Exception as e:  # a timeout, or a JSON-RPC error
                    results.append({"exception": type(e).__name__, "message": str(e), "progress": progress})
    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
