"""A stand-in for an OpenAI-compatible model server that plays the tool agent's model
(templates/005-tool-agent.json): it calls `weather` for the city the question names, then
`packing_list` with that forecast, then answers. It speaks the real wire format, whole or
streamed (`data:` chunks up to `[DONE]`), and reports usage as word counts, so every call has
its own token figures.

Its last answer repeats the key it was sent (a reply that echoes a key: Switchyard must keep it
out of the record, and so out of every span). It remembers the keys it saw, so a test knows the
key it planted really travelled to the model.
"""

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "gpt-fake-1"


class FakeOpenAI:
    def __init__(self):
        self.keys_seen = set()
        self.calls = 0
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"server_state": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self):
        return f"{self.origin}/v1"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def words(messages):
    return sum(len(str(m.get("content") or "").split()) for m in messages)


def next_message(messages, key):
    """The agent's next move: a tool call while forecasts or packing lists are missing, else the
    answer (which echoes `key`)."""
    tools = [m for m in messages if m.get("role") == "tool"]
    question = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
    if not tools:
        city = next((c for c in ("Paris", "Oslo", "Cairo", "Lima") if c.lower() in question.lower()), "Oslo")
        return {"role": "assistant", "content": None, "tool_calls": [
            _call("call_weather_1", "weather", {"city": city})]}
    last = tools[-1]
    if len(tools) == 1:
        forecast = _json(last.get("content"))
        return {"role": "assistant", "content": None, "tool_calls": [
            _call("call_packing_2", "packing_list",
                  {"temp_c": int(forecast.get("temp_c", 0)), "sky": forecast.get("sky", "sun")})]}
    return {"role": "assistant",
            "content": f"Pack what the list says: {last.get('content')}. (Sent with key {key}.)"}


def _call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _json(text):
    try:
        value = json.loads(text or "{}")
        return value if isinstance(value, dict) else {}
    except json.JSONDecodeError:
        return {}


class _Handler(BaseHTTPRequestHandler):
    server_state: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if not self.path.endswith("/chat/completions"):
            return self.send_json(404, {"error": {"message": f"no such path {self.path}"}})
        key = re.sub(r"^Bearer\s+", "", self.headers.get("authorization", ""))
        with self.server_state.lock:
            self.server_state.calls += 1
            if key:
                self.server_state.keys_seen.add(key)
        messages = body.get("messages") or []
        message = next_message(messages, key)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        usage = {"prompt_tokens": words(messages) + 7, "completion_tokens": len(json.dumps(message).split())}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        reply_id = f"chatcmpl-fake-{self.server_state.calls}"
        if body.get("stream"):
            return self.send_stream(reply_id, message, finish, usage)
        self.send_json(200, {"id": reply_id, "object": "chat.completion", "created": int(time.time()),
                             "model": MODEL, "usage": usage,
                             "choices": [{"index": 0, "finish_reason": finish, "message": message}]})

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_stream(self, reply_id, message, finish, usage):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        delta = {"role": "assistant", "content": message.get("content") or ""}
        if message.get("tool_calls"):
            delta["tool_calls"] = [dict(c, index=i) for i, c in enumerate(message["tool_calls"])]
        chunks = [{"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                  {"choices": [], "usage": usage}]
        for chunk in chunks:
            chunk.update({"id": reply_id, "object": "chat.completion.chunk", "created": int(time.time()),
                          "model": MODEL})
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True
