"""Ports for the MCP benchmarks: a free one, and waiting until a server listens on it."""

import socket
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, what, within=60):
    """Returns once something accepts on `port`; exits naming `what` after `within` seconds."""
    deadline = time.time() + within
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                sys.exit(f"{what} did not listen within {within} s")
            time.sleep(0.05)
