#!/usr/bin/env python3
"""Logs (issue #21): HERALD_LOG_FORMAT=json writes one JSON object a line, requests with their
method, route, status, bytes, microseconds and request id (the response's X-Request-Id, or a
well-formed one the client sent); HERALD_LOG_LEVEL=warning drops the info lines; and no log line,
in either format, ever holds a password, a cookie value, a reset token, a form value or a query.

  python3 Tests/ops/test_logs.py
"""
import json
import os
import re
import secrets
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Results, Server, TOKEN, environment, front_slugs, run_herald  # noqa: E402

LEVELS = {"debug", "info", "warning", "error"}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
results = Results("logs")
check = results.check


class Recorder:
    """A Client whose every request is noted: (method, path, status, X-Request-Id of the answer);
    every cookie value and form token it was given is kept, for the secrecy check."""

    def __init__(self, server, requests, secrets_seen):
        self.c = server.client()
        self.requests, self.secrets_seen = requests, secrets_seen

    def request(self, method, path, form=None, headers=None, route=None):
        status, location, text = self.c.request(method, path, form, headers=headers)
        self.requests.append({"method": method, "path": path, "status": status, "route": route,
                              "id": self.c.header("X-Request-Id")})
        for name, value in self.c.last_headers:
            if name.lower() == "set-cookie":
                cookie = value.split(";", 1)[0].partition("=")[2]
                if len(cookie) >= 8:
                    self.secrets_seen[f"cookie {value.split('=', 1)[0]}"].add(cookie)
        for token in TOKEN.findall(text):
            self.secrets_seen["form token (csrf_token)"].add(token)
        return status, location, text

    def token(self, path, route=None):
        return TOKEN.search(self.request("GET", path, route=route)[2]).group(1)


def secrecy_flow(work, log_format):
    """The whole flow a reader makes, with markers; what the server's stderr must never hold."""
    data = os.path.join(work, f"flow-{log_format}")
    env = environment(HERALD_LOG_FORMAT=log_format)
    server = Server(data, env=env)
    requests = []
    seen = {k: set() for k in ("cookie herald_session", "cookie herald_csrf", "cookie herald_intent",
                               "cookie herald_flash", "form token (csrf_token)")}
    tag = secrets.token_hex(5)
    name = f"logreader{tag[:4]}"
    password = f"Pass-{tag}-phrase"
    new_password = f"Newpass-{tag}-phrase"
    email = f"mailbox{tag}@example.test"
    comment = f"CommentMarker{tag}"
    query = f"secretmarker{tag}"
    kept_id = f"ops-request-{tag}"
    try:
        slug = front_slugs(server)[0]
        r = Recorder(server, requests, seen)
        status, _, _ = r.request("POST", "/register", {"csrf_token": r.token("/register", "/register"),
                                                       "username": name, "password": password, "email": email},
                                 route="/register")
        steps = {"register": status}
        steps["logout"] = r.request("POST", "/logout", {"csrf_token": r.token("/", "/")}, route="/logout")[0]
        # The like that survives login: captured (herald_intent), then performed at login.
        steps["anonymous like"] = r.request("POST", f"/articles/{slug}/like",
                                            {"csrf_token": r.token(f"/articles/{slug}", "/articles/:slug")},
                                            route="/articles/:slug/like")[0]
        steps["login"] = r.request("POST", "/login", {"csrf_token": r.token("/login", "/login"), "username": name,
                                                      "password": password}, route="/login")[0]
        steps["comment"] = r.request("POST", f"/articles/{slug}/comments",
                                     {"csrf_token": r.token(f"/articles/{slug}"), "body": f"{comment} said here"},
                                     route="/articles/:slug/comments")[0]
        steps["unlike"] = r.request("POST", f"/articles/{slug}/unlike", {"csrf_token": r.token(f"/articles/{slug}")},
                                    route="/articles/:slug/unlike")[0]
        link = run_herald(["users", "--data", data, "reset-link", name], env=env)
        reset_token = link.stdout.strip().rsplit("/", 1)[-1]
        reader = Recorder(server, requests, seen)
        reset_page = reader.request("GET", f"/password/reset/{reset_token}", route="/password/reset/:token")
        steps["reset form"] = reset_page[0]
        steps["reset"] = reader.request("POST", f"/password/reset/{reset_token}",
                                        {"csrf_token": TOKEN.search(reset_page[2]).group(1),
                                         "new_password": new_password}, route="/password/reset/:token")[0]
        steps["search"] = reader.request("GET", f"/search?q={query}", route="/search")[0]
        steps["profile"] = reader.request("GET", f"/users/{name}", route="/users/:name")[0]
        steps["kept id"] = reader.request("GET", "/", headers={"X-Request-Id": kept_id}, route="/")[0]
        kept_answer = reader.c.header("X-Request-Id")
        bad_id = "not a good id; " + tag
        steps["bad id"] = reader.request("GET", "/", headers={"X-Request-Id": bad_id}, route="/")[0]
        bad_answer = reader.c.header("X-Request-Id")
    finally:
        status = server.stop()
    stderr = server.stderr()
    check(f"[{log_format}] the flow ran: register, logout, anonymous like, login, comment, unlike, "
          "reset link opened and used, search; the server stopped cleanly",
          link.returncode == 0 and steps == {"register": 303, "logout": 303, "anonymous like": 303, "login": 303,
                                             "comment": 303, "unlike": 303, "reset form": 200, "reset": 303,
                                             "search": 200, "profile": 200, "kept id": 200, "bad id": 200}
          and status == 0 and all(seen[k] for k in ("cookie herald_session", "cookie herald_intent")),
          f"steps {steps}, reset-link {link.returncode} {link.stderr!r}, exit {status}, "
          f"cookies seen {[k for k, v in seen.items() if v]}")

    secret_values = {"the password": {password}, "the new password": {new_password}, "the email address": {email},
                     "the reset token": {reset_token}, "the comment's text": {comment}, "the search query": {query},
                     **seen}
    found = {what: [v for v in values if v and v in stderr] for what, values in secret_values.items()}
    found = {what: values for what, values in found.items() if values}
    check(f"[{log_format}] the whole stderr ({len(stderr.splitlines())} lines) holds none of: the password, the new "
          f"password, the email, the reset token, the comment text, the search query, any cookie value "
          f"({sum(len(seen[k]) for k in seen if k.startswith('cookie'))} seen), any form token",
          not found and len(stderr.splitlines()) >= len(requests),
          f"found {', '.join(found)}: " + "; ".join(
              line for line in stderr.splitlines() if any(v in line for vs in found.values() for v in vs))[:1500])
    return stderr, requests, (kept_id, kept_answer, bad_id, bad_answer)


def json_lines(work):
    stderr, requests, (kept_id, kept_answer, bad_id, bad_answer) = secrecy_flow(work, "json")
    lines = [line for line in stderr.split("\n") if line != ""]
    parsed, unparsed = [], []
    for line in lines:
        try:
            value = json.loads(line)
            (parsed if isinstance(value, dict) else unparsed).append(value if isinstance(value, dict) else line)
        except ValueError:
            unparsed.append(line)
    check(f"HERALD_LOG_FORMAT=json: every stderr line ({len(lines)}) is one JSON object",
          lines and not unparsed and stderr.endswith("\n"), f"not JSON objects: {unparsed[:3]}")
    malformed = [p for p in parsed if not (isinstance(p.get("time"), str) and TIME.fullmatch(p["time"])
                                           and p.get("level") in LEVELS and isinstance(p.get("message"), str))]
    check("each has time (RFC 3339, UTC), level and message", parsed and not malformed, f"{malformed[:3]}")
    access = [p for p in parsed if "request_id" in p or "method" in p]
    fields = {"method": str, "route": str, "status": int, "bytes": int, "microseconds": int, "request_id": str}
    incomplete = [p for p in access if not all(isinstance(p.get(k), t) and not isinstance(p.get(k), bool)
                                               for k, t in fields.items())]
    check("request lines carry method, route, status, bytes, microseconds and request_id",
          len(access) >= len(requests) and not incomplete, f"{len(access)} request lines; incomplete {incomplete[:3]}")

    by_id = {}
    for p in access:
        by_id.setdefault(p.get("request_id"), []).append(p)
    unmatched = []
    for r in requests:
        lines_for = by_id.get(r["id"], [])
        if (len(lines_for) != 1 or lines_for[0]["method"] != r["method"] or lines_for[0]["status"] != r["status"]
                or (r["route"] is not None and lines_for[0]["route"] != r["route"])):
            unmatched.append((r["method"], r["path"].split("?")[0], r["status"], r["route"], r["id"], lines_for))
    check(f"each of the test's {len(requests)} requests has exactly one line whose request_id is its X-Request-Id, "
          "with its method, status and route pattern", requests and not unmatched, f"{unmatched[:3]}")
    kept_lines = by_id.get(kept_id, [])
    check("a well-formed incoming X-Request-Id is kept: sent back and logged as the request_id",
          kept_answer == kept_id and len(kept_lines) == 1, f"answered {kept_answer!r}, lines {kept_lines}")
    check("a malformed one is replaced by the server's own (answered and logged alike)",
          bad_answer and bad_answer != bad_id and len(by_id.get(bad_answer, [])) == 1
          and not any(bad_id in line for line in lines), f"answered {bad_answer!r}")
    ids = [p["request_id"] for p in access if p["request_id"] != kept_id]
    check("the server's request ids are all different", len(ids) == len(set(ids)),
          f"{len(ids) - len(set(ids))} repeated")
    paths = [p.get("path", "") for p in access]
    check("a request line's path has no query string, and the reset link's token is replaced",
          not any("?" in path for path in paths) and "/password/reset/[token]" in paths,
          f"{[p for p in paths if '?' in p or p.startswith('/password/reset/')][:5]}")


def levels(work, log_format):
    """HERALD_LOG_LEVEL=warning: the access log's info lines go, a warning stays."""
    env = environment(HERALD_LOG_FORMAT=log_format, HERALD_LOG_LEVEL="warning")
    server = Server(os.path.join(work, f"level-{log_format}"), env=env)
    try:
        slug = front_slugs(server)[0]
        c = server.client()
        c.request("GET", "/no-such-page")
        # A tampered intent cookie at login: Herald logs a warning and ignores it.
        c.request("POST", f"/articles/{slug}/like", {"csrf_token": c.token(f"/articles/{slug}")})
        intent = c.cookies.get("herald_intent", "")
        c.cookies["herald_intent"] = intent[:-2] + ("AA" if not intent.endswith("AA") else "BB")
        c.request("POST", "/register", {"csrf_token": c.token("/register"), "username": "levelreader",
                                        "password": "level-pass-phrase-1"})
    finally:
        status = server.stop()
    lines = [line for line in server.stderr().split("\n") if line]
    if log_format == "json":
        levels_seen = [json.loads(line).get("level") for line in lines]
    else:
        levels_seen = [line.split(" ")[1] if len(line.split(" ")) > 1 else line for line in lines]
    check(f"[{log_format}] HERALD_LOG_LEVEL=warning: no info line (requests, start, stop), the warning kept",
          status == 0 and "warning" in levels_seen and not {"info", "debug"} & set(levels_seen),
          f"exit {status}, levels {levels_seen}, lines {lines[:4]}")


def usage_errors(work):
    bad = {}
    for name, value in (("HERALD_LOG_FORMAT", "xml"), ("HERALD_LOG_LEVEL", "verbose")):
        run = run_herald(["serve", "--port", "0", "--data", os.path.join(work, "usage")],
                         env=environment(**{name: value}), timeout=30)
        bad[name] = (run.returncode, name in run.stderr)
    check("an unknown HERALD_LOG_FORMAT or HERALD_LOG_LEVEL stops start-up with a usage error (exit 2)",
          bad == {"HERALD_LOG_FORMAT": (2, True), "HERALD_LOG_LEVEL": (2, True)}, f"{bad}")


def main():
    work = tempfile.mkdtemp(prefix="herald-ops-logs-")
    try:
        results.run(json_lines, work)
        results.run(secrecy_flow, work, "text")
        results.run(levels, work, "json")
        results.run(levels, work, "text")
        results.run(usage_errors, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results.finish()


if __name__ == "__main__":
    sys.exit(main())
