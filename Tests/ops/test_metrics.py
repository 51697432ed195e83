#!/usr/bin/env python3
"""`/metrics` (issue #21): behind HERALD_METRICS_TOKEN on the site's port, or on --metrics-port,
in the Prometheus text format, read with the official parser (prometheus_client, installed by
scripts/ops-test.sh into .build/ops-venv), and its series moving as the site is used.

  .build/ops-venv/bin/python Tests/ops/test_metrics.py
"""
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Client, ROOT, Results, Server, environment, front_slugs, register, run_herald  # noqa: E402

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    sys.exit("test_metrics.py needs prometheus_client: run it through scripts/ops-test.sh (it makes .build/ops-venv)")

METRICS_TOKEN = "ops-metrics-token-" + secrets.token_hex(8)
PASSWORD = "metrics-pass-phrase-1"
CONTENT_TYPE = "text/plain; version=0.0.4"
results = Results("metrics")
check = results.check


def get(url, path, headers=None):
    """(status, Content-Type, body text) of one GET with a fresh connection."""
    c = Client.for_url(url)
    status, _, text = c.request("GET", path, headers=headers)
    return status, c.header("Content-Type") or "", text


class Scrape:
    """One parsed exposition: value(name, **labels) of a sample (None when absent)."""

    def __init__(self, text):
        self.text = text
        self.families = {f.name: f for f in text_string_to_metric_families(text)}
        self.samples = [s for f in self.families.values() for s in f.samples]

    def value(self, name, **labels):
        for s in self.samples:
            if s.name == name and s.labels == labels:
                return s.value
        return None

    def total(self, name, **labels):
        """The sum over the samples of `name` whose labels include `labels`."""
        return sum(s.value for s in self.samples
                   if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()))

    def label_values(self):
        return [v for s in self.samples for k, v in s.labels.items()]


def scrape(url, path="/metrics", token=METRICS_TOKEN):
    status, content_type, text = get(url, path, {"Authorization": f"Bearer {token}"} if token else None)
    assert status == 200, f"GET {path}: {status} {text[:200]!r}"
    return Scrape(text)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def delta(before, after, name, **labels):
    return (after.value(name, **labels) or 0) - (before.value(name, **labels) or 0)


def off_by_default(work):
    with Server(os.path.join(work, "plain"), env=environment()) as server:
        status, _, _ = get(server.url, "/metrics")
        bearer, _, _ = get(server.url, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"})
        check("without HERALD_METRICS_TOKEN or --metrics-port, /metrics is 404 (with or without a bearer)",
              status == 404 and bearer == 404, f"{status}, {bearer}")
    short = run_herald(["serve", "--port", "0", "--data", os.path.join(work, "short")],
                       env=environment(HERALD_METRICS_TOKEN="too-short"), timeout=30)
    check("a HERALD_METRICS_TOKEN under 16 characters stops start-up (exit 2, says why)",
          short.returncode == 2 and "HERALD_METRICS_TOKEN" in short.stderr and "16" in short.stderr,
          f"exit {short.returncode}, {short.stderr[:200]!r}")


def with_token(work):
    env = environment(HERALD_METRICS_TOKEN=METRICS_TOKEN, HERALD_ACCESS_LOG="off")
    with Server(os.path.join(work, "token"), env=env) as server:
        url = server.url
        refused = {
            "no Authorization": get(url, "/metrics")[0],
            "a wrong token of the same length": get(url, "/metrics", {
                "Authorization": "Bearer " + METRICS_TOKEN[:-1] + ("x" if METRICS_TOKEN[-1] != "x" else "y")})[0],
            "the token with a character more": get(url, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}x"})[0],
            "the token without 'Bearer '": get(url, "/metrics", {"Authorization": METRICS_TOKEN})[0],
            "the token in the query string": get(url, "/metrics?token=" + METRICS_TOKEN)[0],
        }
        check("/metrics is 404 without the token and with a wrong one",
              all(s == 404 for s in refused.values()), f"{refused}")
        status, content_type, text = get(url, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"})
        try:
            families = list(text_string_to_metric_families(text))
            parsed = ""
        except Exception as error:  # noqa: BLE001
            families, parsed = [], repr(error)
        check(f"with Authorization: Bearer TOKEN it is 200 {CONTENT_TYPE} and parses with prometheus_client",
              status == 200 and content_type.startswith(CONTENT_TYPE) and families and not parsed,
              f"{status} {content_type!r}, parse error {parsed}, text {text[:200]!r}")

        # Use the site, then look again.
        slugs = front_slugs(server)
        slug = slugs[0]
        secret_slug = "no-such-article-" + secrets.token_hex(6)
        unrouted = "/nothing-here-" + secrets.token_hex(6)
        before = scrape(url)
        register(server, "metricsreader", PASSWORD)
        first = Client("127.0.0.1", server.port).request("GET", f"/articles/{slug}")[0]
        second = Client("127.0.0.1", server.port).request("GET", f"/articles/{slug}")[0]
        missing = Client("127.0.0.1", server.port).request("GET", f"/articles/{secret_slug}")[0]
        nowhere = Client("127.0.0.1", server.port).request("GET", unrouted + "?q=" + secret_slug)[0]
        # The like that survives login: captured anonymously, performed at login.
        anonymous = server.client()
        like = anonymous.request("POST", f"/articles/{slug}/like",
                                 {"csrf_token": anonymous.token(f"/articles/{slug}")})
        intent = anonymous.cookies.get("herald_intent")
        login = anonymous.request("POST", "/login", {"csrf_token": anonymous.token("/login"),
                                                     "username": "metricsreader", "password": PASSWORD})
        # The same intent cookie at another login of the same browser (its id cookie too): refused (replayed).
        replay = server.client()
        replay.cookies = {"herald_intent": intent, "herald_csrf": anonymous.cookies.get("herald_csrf", "")}
        replayed = replay.request("POST", "/login", {"csrf_token": replay.token("/login"),
                                                     "username": "metricsreader", "password": PASSWORD})
        after = scrape(url)

        article = {"route": "/articles/:slug"}
        # The article was read three times (twice, and once for the like form's token), a missing one once.
        check("requests are counted by route pattern and status "
              "(route=\"/articles/:slug\": status=\"200\" +3, status=\"404\" +1 for an unknown slug)",
              (first, second, missing) == (200, 200, 404)
              and delta(before, after, "herald_http_requests_total", **article, status="200") == 3
              and delta(before, after, "herald_http_requests_total", **article, status="404") == 1,
              f"statuses {(first, second, missing)}; "
              f"200: {delta(before, after, 'herald_http_requests_total', **article, status='200')}, "
              f"404: {delta(before, after, 'herald_http_requests_total', **article, status='404')}")
        check("POSTs too: route=\"/articles/:slug/like\",status=\"303\" and route=\"/login\",status=\"303\"",
              delta(before, after, "herald_http_requests_total", route="/articles/:slug/like", status="303") == 1
              and delta(before, after, "herald_http_requests_total", route="/login", status="303") == 2,
              f"like {delta(before, after, 'herald_http_requests_total', route='/articles/:slug/like', status='303')}, "
              f"login {delta(before, after, 'herald_http_requests_total', route='/login', status='303')}")
        leaked = [v for v in after.label_values() if slug in v or secret_slug in v or "nothing-here" in v]
        routes = sorted({s.labels.get("route") for s in after.samples if "route" in s.labels})
        print(f"     routes in the series: {routes}")
        check("no series label holds a raw path: not the article's slug, not an unknown slug, not an unrouted path",
              nowhere == 404 and not leaked,
              f"unrouted GET {nowhere}; labels holding them {leaked[:5]}; routes {routes}")
        count = "herald_http_request_duration_seconds_count"
        buckets = [s for s in after.samples if s.name == "herald_http_request_duration_seconds_bucket"
                   and s.labels.get("route") == "/articles/:slug"]
        cumulative = [s.value for s in sorted(buckets, key=lambda s: float(s.labels["le"]))]
        check("the latency histogram counts by route (/articles/:slug +4), its buckets cumulative up to +Inf = count",
              after.families["herald_http_request_duration_seconds"].type == "histogram"
              and delta(before, after, count, **article) == 4
              and cumulative == sorted(cumulative) and cumulative and cumulative[-1] == after.value(count, **article)
              and (after.value("herald_http_request_duration_seconds_sum", **article) or 0) > 0,
              f"type {after.families['herald_http_request_duration_seconds'].type}, "
              f"count +{delta(before, after, count, **article)}, buckets {cumulative}")
        check("page cache: the first anonymous view of the article is a miss, the second a hit",
              delta(before, after, "herald_page_cache_total", result="miss") >= 1
              and delta(before, after, "herald_page_cache_total", result="hit") >= 1,
              f"miss +{delta(before, after, 'herald_page_cache_total', result='miss')}, "
              f"hit +{delta(before, after, 'herald_page_cache_total', result='hit')}")
        check("intents: an anonymous like is captured{action=\"like\"} +1, performed{action=\"like\"} +1 at login",
              like[:2] == (303, "/login") and login[:2] == (303, f"/articles/{slug}#like")
              and delta(before, after, "herald_intents_captured_total", action="like") == 1
              and delta(before, after, "herald_intents_performed_total", action="like") == 1,
              f"like {like[:2]}, login {login[:2]}, captured "
              f"+{delta(before, after, 'herald_intents_captured_total', action='like')}, performed "
              f"+{delta(before, after, 'herald_intents_performed_total', action='like')}")
        check("intents: the same cookie at another login is refused{reason=\"replayed\"} +1 (and nothing else)",
              replayed[0] == 303 and delta(before, after, "herald_intents_refused_total", reason="replayed") == 1
              and after.total("herald_intents_refused_total") - before.total("herald_intents_refused_total") == 1,
              f"login {replayed[:2]}, refused by reason "
              f"{[(s.labels, s.value) for s in after.samples if s.name == 'herald_intents_refused_total' and s.value]}")
        tampered = server.client()
        tampered.cookies = {"herald_intent": intent[:-2] + ("AA" if not intent.endswith("AA") else "BB")}
        tampered.request("POST", "/login", {"csrf_token": tampered.token("/login"), "username": "metricsreader",
                                            "password": PASSWORD})
        third = scrape(url)
        reasons = {s.labels["reason"]: s.value - (after.value(s.name, **s.labels) or 0) for s in third.samples
                   if s.name == "herald_intents_refused_total" and s.value != (after.value(s.name, **s.labels) or 0)}
        check("intents: a tampered cookie is refused under its reason (bad-signature or malformed)",
              list(reasons.values()) == [1] and set(reasons) <= {"bad-signature", "malformed"}, f"{reasons}")
        check("database writes are counted and timed (herald_database_writes_total, _write_seconds_total grow)",
              delta(before, after, "herald_database_writes_total") >= 3
              and delta(before, after, "herald_database_write_seconds_total") > 0,
              f"writes +{delta(before, after, 'herald_database_writes_total')}, "
              f"seconds +{delta(before, after, 'herald_database_write_seconds_total')}")
        check("the hashing queue is a gauge (0 at rest), refusals a counter",
              after.families.get("herald_hashing_queue") is not None
              and after.families["herald_hashing_queue"].type == "gauge"
              and after.value("herald_hashing_queue") == 0
              and after.families["herald_hashing_refused"].type == "counter",
              f"{after.families.get('herald_hashing_queue')}")
        check("without SMTP there is no mail series", "herald_mail" not in after.families,
              f"{after.families.get('herald_mail')}")


def metrics_port(work):
    port = free_port()
    # Real (interactive) hashing on one thread, so that logins queue up.
    env = environment(HERALD_PASSWORD_COST=None, HERALD_HASHING_THREADS="1", HERALD_ACCESS_LOG="off")
    with Server(os.path.join(work, "port"), env=env, args=["--metrics-port", str(port)], metrics_line=True) as server:
        metrics_url = f"http://127.0.0.1:{port}"
        check("--metrics-port: the second stdout line names it",
              server.lines[1] == f"metrics on {metrics_url}/metrics", f"{server.lines}")
        status, content_type, text = get(metrics_url, "/metrics")
        try:
            parsed = Scrape(text)
        except Exception as error:  # noqa: BLE001
            parsed = error
        check(f"--metrics-port serves /metrics without a token: 200 {CONTENT_TYPE}, parsed",
              status == 200 and content_type.startswith(CONTENT_TYPE) and isinstance(parsed, Scrape)
              and "herald_http_requests" in parsed.families, f"{status} {content_type!r} {parsed!r}")
        others = {path: get(metrics_url, path)[0] for path in ("/", "/healthz", "/metrics/x")}
        site = get(server.url, "/metrics")[0]
        check("… and nothing else; the site's own port still says 404 for /metrics (no token set)",
              set(others.values()) == {404} and site == 404, f"metrics port {others}, site port {site}")

        register(server, "queued", PASSWORD)
        outcomes = []
        seen = []
        stop = threading.Event()

        def log_in():
            c = server.client()
            outcomes.append(c.request("POST", "/login", {"csrf_token": c.token("/login"), "username": "queued",
                                                         "password": PASSWORD})[0])

        def watch():
            while not stop.is_set():
                seen.append(scrape(metrics_url, token=None).value("herald_hashing_queue"))
                time.sleep(0.01)

        logins = [threading.Thread(target=log_in) for _ in range(8)]
        watcher = threading.Thread(target=watch)
        watcher.start()
        for t in logins:
            t.start()
        for t in logins:
            t.join(120)
        stop.set()
        watcher.join()
        settled = scrape(metrics_url, token=None).value("herald_hashing_queue")
        check(f"the hashing queue gauge moves: 8 logins at once on one hashing thread (most seen waiting: "
              f"{max(seen or [0]):.0f}), back to 0 after",
              outcomes.count(303) == 8 and max(seen or [0]) >= 1 and settled == 0,
              f"logins {outcomes}, queue seen {sorted(set(seen))}, after {settled}")


def mail(work):
    sink_python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    probe = subprocess.run([sink_python, "-c", "import aiosmtpd"], capture_output=True)
    if probe.returncode != 0:
        results.skip("mail sent is counted", "no python3-aiosmtpd (make test installs it)")
        return
    inbox = os.path.join(work, "inbox")
    os.makedirs(inbox)
    sink = subprocess.Popen([sink_python, os.path.join(ROOT, "Tests", "mail", "smtp_sink.py"), inbox],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        smtp_port = int(sink.stdout.readline())
        env = environment(HERALD_METRICS_TOKEN=METRICS_TOKEN, HERALD_ACCESS_LOG="off",
                          HERALD_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}",
                          HERALD_MAIL_FROM="Herald <news@localhost.localdomain>")
        with Server(os.path.join(work, "mail"), env=env) as server:
            before = scrape(server.url)
            register(server, "mailreader", PASSWORD, email="reader@example.test")
            c = server.client()
            status = c.request("POST", "/password/forgot", {"csrf_token": c.token("/password/forgot"),
                                                           "email": "reader@example.test"})[0]
            deadline = time.monotonic() + 20
            after = before
            while time.monotonic() < deadline:
                after = scrape(server.url)
                if after.value("herald_mail_total", result="sent"):
                    break
                time.sleep(0.1)
            received = sorted(f for f in os.listdir(inbox) if f.endswith(".json"))
            check("with SMTP configured, a reset mail sent is counted: herald_mail_total{result=\"sent\"} 0 → 1",
                  status == 303 and before.value("herald_mail_total", result="sent") == 0
                  and after.value("herald_mail_total", result="sent") == 1
                  and after.value("herald_mail_total", result="failed") == 0 and len(received) == 1,
                  f"forgot {status}; before {before.value('herald_mail_total', result='sent')}, after "
                  f"sent {after.value('herald_mail_total', result='sent')} failed "
                  f"{after.value('herald_mail_total', result='failed')}; messages {received}")
    finally:
        sink.stdin.close()
        sink.wait(10)


def main():
    work = tempfile.mkdtemp(prefix="herald-ops-metrics-")
    try:
        results.run(off_by_default, work)
        results.run(with_token, work)
        results.run(metrics_port, work)
        results.run(mail, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results.finish()


if __name__ == "__main__":
    sys.exit(main())
