"""Runs the otel tests (test_traces.py) against one Arize Phoenix started for the whole run.

    python tests/otel/run.py [-k PATTERN]...

SWITCHYARD_BIN names the switchyard binary (default target/debug/switchyard). Phoenix's log is
printed when a test fails.
"""

import argparse
import shutil
import signal
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import support  # noqa: E402
from fake_openai import FakeOpenAI  # noqa: E402
from phoenix import Phoenix  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", action="append", default=[], help="only tests whose name contains this")
    args = parser.parse_args()
    if not Path(support.BIN).exists():
        sys.exit(f"no switchyard binary at {support.BIN} (cargo build -p switchyard, or set SWITCHYARD_BIN)")
    # A run stopped from outside (SIGTERM, or Ctrl+C) still stops Phoenix on its way out.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    started = time.monotonic()
    support.scratch_root = tempfile.mkdtemp(prefix="switchyard-otel-")
    support.phoenix = Phoenix()
    support.model = FakeOpenAI()
    print(f"Phoenix {support.phoenix.url} up in {support.phoenix.startup_seconds:.1f} s", flush=True)
    try:
        loader = unittest.TestLoader()
        if args.k:
            loader.testNamePatterns = [f"*{k}*" for k in args.k]
        tests = loader.loadTestsFromNames(["test_traces", "test_serve"])
        result = unittest.TextTestRunner(verbosity=2).run(tests)
        if result.testsRun == 0:
            print(f"no test matches {args.k}", file=sys.stderr)
        if not result.wasSuccessful():
            print(f"--- Phoenix's log (end) ---\n{support.phoenix.log_text()}", file=sys.stderr)
    finally:
        support.model.close()
        support.phoenix.stop()
        shutil.rmtree(support.scratch_root, ignore_errors=True)
    print(f"otel tests: {result.testsRun} run in {time.monotonic() - started:.1f} s", flush=True)
    sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)


if __name__ == "__main__":
    main()
