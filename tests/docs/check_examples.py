#!/usr/bin/env python3
"""Checks the examples of a Markdown file in docs/, so the reference stays true.

    python3 tests/docs/check_examples.py docs/format.md [WORKDIR]

Every ```json block preceded by <!-- file: NAME --> is written to NAME and must pass
`switchyard validate` with nothing to say; every ```json block starting with `{` must be
JSON; every line of a ```sh block carrying `# exit N` is run (bash, pipefail, in WORKDIR,
with `switchyard` on PATH) and must exit N; when a ```text block follows a ```sh block, the
commands' output (stdout then stderr of each) must equal it. A comment
<!-- serve: PORT PATH JSON --> serves JSON at http://127.0.0.1:PORT/PATH while the checks
run (for the http examples)."""
import json, os, re, subprocess, sys, tempfile

md = sys.argv[1]
work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
os.makedirs(work, exist_ok=True)
text = open(md).read()
blocks = []  # (lang, body, preceding_marker)
for m in re.finditer(r"(?:<!-- file: (\S+) -->\n)?```(\w*)\n(.*?)```", text, re.S):
    blocks.append((m.group(2), m.group(3), m.group(1)))
fail = 0
ran = 0

# Files the http examples fetch, served from a folder of their own.
servers = []
served = tempfile.mkdtemp()
for port, path, body in re.findall(r"<!-- serve: (\d+) (\S+) (.*?) -->", text):
    os.makedirs(os.path.dirname(os.path.join(served, path)), exist_ok=True)
    open(os.path.join(served, path), "w").write(body)
    if port not in [p for p, _ in servers]:
        proc = subprocess.Popen([sys.executable, "-m", "http.server", port, "--bind", "127.0.0.1"],
                                cwd=served, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append((port, proc))
for port, _ in servers:
    import socket, time
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", int(port)), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
for lang, body, name in blocks:
    if lang == "json" and body.lstrip().startswith("{"):
        try:
            json.loads(body)
        except Exception as e:
            print(f"BAD JSON: {e}\n{body[:200]}"); fail += 1
    if name:
        open(os.path.join(work, name), "w").write(body)
        r = subprocess.run(["switchyard", "validate", name], cwd=work, capture_output=True, text=True)
        if r.returncode != 0 or r.stdout.strip() or r.stderr.strip():
            print(f"VALIDATE {name}: exit {r.returncode}\n{r.stdout}{r.stderr}"); fail += 1
for i, (lang, body, _) in enumerate(blocks):
    if lang != "sh":
        continue
    lines = body.replace("\\\n", " ").splitlines()
    out = ""
    checked = False
    for line in lines:
        m = re.search(r"#\s*exit (\d+)\s*$", line)
        if not m:
            continue
        checked = True
        ran += 1
        r = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=work, capture_output=True, text=True)
        out += r.stdout + r.stderr
        if r.returncode != int(m.group(1)):
            print(f"EXIT {r.returncode} != {m.group(1)}: {line}\n{r.stdout}{r.stderr}"); fail += 1
    if checked and i + 1 < len(blocks) and blocks[i + 1][0] == "text":
        want = blocks[i + 1][1]
        if out.strip() != want.strip():
            print(f"OUTPUT differs for:\n{body}--- want\n{want}--- got\n{out}"); fail += 1
for _, proc in servers:
    proc.kill()
print(f"{md}: {sum(1 for b in blocks if b[2])} files, {ran} commands, {fail} problems")
sys.exit(1 if fail else 0)
