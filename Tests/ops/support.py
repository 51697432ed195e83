"""What the operations tests (Tests/ops/test_*.py, issue #21) share: the real `herald` binary
started on a data directory of its own, a cookie-jar client, and the ok/FAIL lines.

Each test file runs alone (`python3 Tests/ops/test_logs.py`), or all of them through
scripts/ops-test.sh. HERALD_BINARY picks the build (default .build/debug/herald). Loopback only;
every server is stopped, every wait bounded.
"""
import os
import re
import select
import signal
import subprocess
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "lib"))
from flows import Client  # noqa: E402,F401  (the benchmarks' small cookie-jar client)

TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')
ARTICLE = re.compile(r'href="/articles/([^"/?#]+)"')
LIKES = re.compile(r'data-like-count="(\d+)"')
SECRET = "operations-test-secret-0123456789"


def herald_binary():
    binary = os.environ.get("HERALD_BINARY", ".build/debug/herald")
    return binary if os.path.isabs(binary) else os.path.join(ROOT, binary)


def environment(**extra):
    """The test's environment without any HERALD_* setting of the caller's, plus `extra`
    (None removes a name): cheap password hashing and a fixed secret unless told otherwise."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERALD_")}
    env.update(HERALD_PASSWORD_COST="minimum", HERALD_SECRET=SECRET)
    for key, value in extra.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_herald(args, env=None, timeout=120):
    """Runs `herald ARGS…` to the end: CompletedProcess with text stdout and stderr."""
    return subprocess.run([herald_binary(), *args], capture_output=True, text=True, timeout=timeout,
                          env=env if env is not None else environment(), cwd=ROOT)


def read_line(stream, timeout):
    """One line from a pipe, or what came before the deadline."""
    deadline = time.monotonic() + timeout
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            break
        byte = os.read(stream.fileno(), 1)
        if not byte:
            break
        data += byte
    return data.decode("utf-8", "replace").rstrip("\n")


class Server:
    """`herald serve --port 0 --data DATA --root ROOT ARGS…`; stderr goes to a file (its whole
    text: `stderr()`). `lines` are the stdout lines read at start: `listening on …` (and
    `metrics on …` with `metrics_line`)."""

    def __init__(self, data, env=None, args=(), metrics_line=False, stderr_path=None):
        self.data = data
        self.stderr_path = stderr_path or data.rstrip("/") + ".stderr"
        self._stderr = open(self.stderr_path, "wb")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [herald_binary(), "serve", "--port", "0", "--data", data, "--root", ROOT, *args],
            stdout=subprocess.PIPE, stderr=self._stderr, env=env if env is not None else environment(), cwd=ROOT)
        self.lines = [read_line(self.proc.stdout, 60)]
        match = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)", self.lines[0])
        if not match:
            self.stop(signal.SIGKILL)
            raise RuntimeError(f"herald did not start: {self.lines[0]!r}; stderr: {self.stderr()[-2000:]}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        if metrics_line:
            self.lines.append(read_line(self.proc.stdout, 10))

    def client(self):
        return Client("127.0.0.1", self.port)

    def stderr(self):
        if not self._stderr.closed:
            self._stderr.flush()
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Sends `sig` (if still running) and waits; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._stderr.close()
        self.proc.stdout.close()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def register(server_or_url, name, password, email=None):
    """A new reader, logged in: its Client (cookie jar)."""
    c = server_or_url.client() if isinstance(server_or_url, Server) else Client.for_url(server_or_url)
    form = {"csrf_token": c.token("/register"), "username": name, "password": password}
    if email:
        form["email"] = email
    status, location, page = c.request("POST", "/register", form)
    if status != 303:
        raise RuntimeError(f"register {name}: {status} {location} {page[:300]!r}")
    return c


def front_slugs(server):
    """The article slugs on the front page, in order, without repeats."""
    slugs = []
    for slug in ARTICLE.findall(server.client().request("GET", "/")[2]):
        if slug not in slugs:
            slugs.append(slug)
    return slugs


class Results:
    """ok/FAIL/skip lines as the cluster test prints them, and the closing 'N passed, N failed'."""

    def __init__(self, title):
        self.title = title
        self.passed = self.failed = self.skipped = 0
        self.started = time.monotonic()
        print(f"== {title}", flush=True)

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print("ok   " + name, flush=True)
        else:
            self.failed += 1
            print("FAIL " + name + (f" — {detail}" if detail != "" else ""), flush=True)
        return bool(condition)

    def run(self, part, *args):
        """Calls part(*args); an exception it raises is one failure (with its traceback's last
        lines), and the next part still runs."""
        try:
            part(*args)
        except Exception:  # noqa: BLE001
            lines = traceback.format_exc().strip().splitlines()
            self.check(f"{part.__name__} ran to its end", False, " | ".join(lines[-4:]))

    def skip(self, name, why):
        self.skipped += 1
        print(f"skip {name} — {why}", flush=True)

    def finish(self):
        """Prints the time taken and the closing line (`title` is one word); the exit status."""
        print(f"({self.title} took {time.monotonic() - self.started:.1f} s)")
        print(f"{self.title}: {self.passed} passed, {self.failed} failed"
              + (f", {self.skipped} skipped" if self.skipped else ""), flush=True)
        return 0 if self.failed == 0 else 1
