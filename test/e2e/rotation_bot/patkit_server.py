"""Starts `patkit serve` for a Python test suite and drives its control API (/__patkit/...).

The server is started with stdin=PIPE: patkit serve exits when its piped stdin closes, so the server
goes away with this process however the process ends (stop(), an exception, SIGKILL), and no test run
leaves one behind. Uses the standard library only.
"""

import json
import os
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CLI = ROOT / "dist" / "cli.js"
PREFIX = "patkit listening on "
START_TIMEOUT_S = 20
STOP_TIMEOUT_S = 10


class PatkitServer:
    def __init__(self, process, url, stderr_path):
        self.process = process
        self.url = url
        self.stderr_path = stderr_path

    @property
    def pid(self):
        return self.process.pid

    def control(self, method, path, body=None):
        """One control API call; returns the decoded JSON answer (None for 204), raises on any error status."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}/__patkit{path}", data=data, method=method, headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} /__patkit{path}: {error.code} {error.read().decode()}") from None
        return json.loads(text) if text else None

    def journal(self, **filters):
        query = "&".join(f"{name}={value}" for name, value in filters.items())
        return self.control("GET", f"/journal?{query}")

    def stop(self):
        """Closes stdin (patkit's cue to shut down cleanly) and returns its exit code."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"patkit serve did not exit within {STOP_TIMEOUT_S} s of its stdin closing")

    def stderr(self):
        return Path(self.stderr_path).read_text(encoding="utf-8", errors="replace")


def _first_line(process):
    lines = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT_S)
    return lines[0] if lines else None


def start_patkit(seed_file, *flags, workdir):
    """Runs `node dist/cli.js serve --port 0 --seed SEED_FILE FLAGS...` and waits for its first line."""
    if not CLI.exists():
        raise RuntimeError(f"{CLI} is missing: build it first (npx tsup; npm test does)")
    node = os.environ.get("PATKIT_NODE") or "node"
    stderr_path = Path(workdir) / "patkit-stderr.log"
    with open(stderr_path, "w", encoding="utf-8") as stderr:
        process = subprocess.Popen(
            [node, str(CLI), "serve", "--port", "0", "--seed", str(seed_file), *flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    line = _first_line(process)
    if line is None or not line.startswith(PREFIX):
        process.kill()
        process.wait()
        detail = Path(stderr_path).read_text(encoding="utf-8", errors="replace")
        raise RuntimeError(f"patkit serve did not start (first line {line!r}); stderr: {detail}")
    # Keep reading stdout so a chatty server can never block on a full pipe.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return PatkitServer(process, line[len(PREFIX) :].strip(), stderr_path)
