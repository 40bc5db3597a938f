"""An OTLP/HTTP receiver that keeps every export request it gets and passes it on to Phoenix.

Phoenix stores no span links, so the tests that check a resumed run's link to its first
session send through this tee: the request is decoded here with the OpenTelemetry protobuf
types (opentelemetry-proto, in Phoenix's environment) and forwarded unchanged, so Phoenix still
shows the run.
"""

import gzip
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


class Capture:
    def __init__(self, upstream):
        self.upstream = upstream  # the traces endpoint requests are passed on to
        self.bodies = []
        self.lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"capture": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def spans(self):
        """Every span received so far, as plain dicts: hex ids, attributes by key, links."""
        with self.lock:
            bodies = list(self.bodies)
        out = []
        for content_type, encoding, body in bodies:
            if encoding == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            if "json" in content_type:
                json_format.Parse(body, request)
            else:
                request.ParseFromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    out += [_span(s) for s in scope.spans]
        return out

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def _value(v):
    kind = v.WhichOneof("value")
    if kind == "array_value":
        return [_value(x) for x in v.array_value.values]
    return getattr(v, kind) if kind else None


def _span(s):
    return {
        "name": s.name,
        "trace_id": s.trace_id.hex(),
        "span_id": s.span_id.hex(),
        "parent_id": s.parent_span_id.hex() or None,
        "attributes": {a.key: _value(a.value) for a in s.attributes},
        "links": [{"trace_id": link.trace_id.hex(), "span_id": link.span_id.hex(),
                   "attributes": {a.key: _value(a.value) for a in link.attributes}} for link in s.links],
    }


class _Handler(BaseHTTPRequestHandler):
    capture: Capture
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        content_type = self.headers.get("content-type", "application/x-protobuf")
        encoding = self.headers.get("content-encoding", "")
        with self.capture.lock:
            self.capture.bodies.append((content_type, encoding, body))
        headers = {"content-type": content_type}
        if encoding:
            headers["content-encoding"] = encoding
        forward = urllib.request.Request(self.capture.upstream, data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(forward, timeout=30) as r:
                status, reply, reply_type = r.status, r.read(), r.headers.get("content-type", content_type)
        except urllib.error.HTTPError as e:
            status, reply, reply_type = e.code, e.read(), e.headers.get("content-type", "text/plain")
        self.send_response(status)
        self.send_header("content-type", reply_type)
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)
