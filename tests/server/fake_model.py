"""A stand-in for an OpenAI-compatible model server, for the server's tests and benchmark.

It answers `POST …/chat/completions` in the real wire format, as one JSON reply or, when the
request says `"stream": true`, as server-sent `chat.completion.chunk` events ending in
`data: [DONE]`. The reply is made from the last message, so each run gets its own and the
same every time. It counts the calls it received by that last message (a test reads from the
counts whether a call was ever made twice), and it can hold every reply until released, so a
test can kill a server while a model call is in flight.
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeModel:
    def __init__(self, port=0):
        self.calls = {}
        self.lock = threading.Lock()
        self.cond = threading.Condition(self.lock)
        self.held = None  # None: answer at once; "": hold every call; a word: hold calls naming it
        self.waiting = 0
        handler = type("Handler", (_Handler,), {"model": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}/v1"

    def hold(self, naming=""):
        """Replies from now on (to calls whose last message contains `naming`) wait until `release`."""
        with self.lock:
            self.held = naming

    def release(self):
        with self.cond:
            self.held = None
            self.cond.notify_all()

    def wait_for_waiting(self, n=1, within=60):
        """Returns once `n` held calls are waiting for their reply."""
        deadline = time.time() + within
        with self.cond:
            while self.waiting < n:
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"the model got {self.waiting} calls, not {n}, within {within} s")
                self.cond.wait(left)

    def count(self, text=None):
        with self.lock:
            return sum(self.calls.values()) if text is None else self.calls.get(text, 0)

    def close(self):
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()


def reply_to(last):
    return f"Reply to: {last}"


class _Handler(BaseHTTPRequestHandler):
    model: FakeModel
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        try:
            self.answer()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the caller was killed while its reply was held: what kill tests do

    def answer(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if not self.path.endswith("/chat/completions"):
            return self.send_json(404, {"error": {"message": f"no such path {self.path}"}})
        messages = body.get("messages") or [{}]
        last = str(messages[-1].get("content", ""))
        m = self.model
        with m.cond:
            m.calls[last] = m.calls.get(last, 0) + 1
            if m.held is not None and m.held in last:
                m.waiting += 1
                m.cond.notify_all()
                while m.held is not None and m.held in last:
                    m.cond.wait()
                m.waiting -= 1
        text = reply_to(last)
        if body.get("stream"):
            self.send_stream(text, body.get("model", "fake-1"))
        else:
            self.send_json(200, {
                "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "fake-1"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": len(last.split()), "completion_tokens": len(text.split()),
                          "total_tokens": len(last.split()) + len(text.split())},
            })

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_stream(self, text, model):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        words = text.split(" ")
        pieces = [{"role": "assistant", "content": ""}] + [
            {"content": w if i == 0 else " " + w} for i, w in enumerate(words)]
        for i, delta in enumerate(pieces):
            chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        end = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
               "model": model, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
        self.wfile.flush()
        self.close_connection = True
