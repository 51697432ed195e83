#!/usr/bin/env python3
"""Several Herald nodes on one PostgreSQL database behind nginx (scripts/cluster.sh), driven
like browsers: what one node starts, another finishes. Loopback only, bounded.

nginx runs the repository's deploy/nginx.conf as it is, over HTTPS with a self-signed
certificate that every HTTPS request here is verified against; the nodes themselves are reached
over plain HTTP. The deployment is checked too: Secure cookies, Strict-Transport-Security, HTTP/2,
static files served by nginx itself, nginx's request id reaching Herald.

  python3 Tests/cluster/test_cluster.py     # starts and stops its own cluster (and removes it,
                                            # unless HERALD_KEEP_CLUSTER=1: then its logs stay)
"""
import hashlib
import html
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "lib"))
from flows import Client, tls_context  # noqa: E402  (the benchmarks' small cookie-jar client)

TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')
ARTICLE = re.compile(r'href="/articles/([^"]+)"')
LIKES = re.compile(r'data-like-count="(\d+)"')
STATE = re.compile(r'data-article-state="([a-z]+)"')
BODY = re.compile(r'<textarea id="body" name="body"[^>]*>(.*?)</textarea>', re.S)
IMAGE = re.compile(r'<img src="/media/([0-9a-f]{64})\.png" width="(\d+)" height="(\d+)" alt="([^"]*)"')
FLASH = re.compile(r'<p class="flash" role="status">([^<]*)</p>')
PASSWORD = "cluster-pass-phrase"
# The database scripts/cluster.sh makes (its PG_PORT), which `herald users --database` reaches too.
DATABASE = "postgres://herald@127.0.0.1:55433/herald"
results = []
# scripts/cluster.sh's self-signed certificate (DIR/conf/herald-cert.pem), set once the cluster is up.
CERTIFICATE = None


def client(url):
    """A new browser for `url`: HTTPS (the balancer) is verified against the cluster's certificate."""
    return Client.for_url(url, tls_context(CERTIFICATE) if url.startswith("https:") else None)


def move(jar, url):
    """The same browser (cookie jar) talking to another node."""
    other = client(url)
    other.cookies = jar.cookies
    return other


def check(name, condition, detail=""):
    results.append((name, bool(condition)))
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f" — {detail}"))


def register(url, name):
    c = client(url)
    status, _, _ = c.request("POST", "/register", {"csrf_token": c.token("/register"), "username": name,
                                                   "password": PASSWORD})
    assert status == 303, f"register {name}: {status}"
    return c


def age_sessions(username, seconds):
    """Moves every session of `username` `seconds` into the past, as if its browser had been idle
    that long (the nodes read sessions from the database on every request)."""
    sql = ("UPDATE sessions SET created_at = created_at - :seconds, last_seen_at = last_seen_at - :seconds "
           "WHERE user_id = (SELECT id FROM users WHERE username_key = :'name');\n")
    subprocess.run(["psql", DATABASE, "-q", "-v", "ON_ERROR_STOP=1", "-v", f"seconds={int(seconds)}",
                    "-v", f"name={username.lower()}"], input=sql, text=True, check=True, timeout=60)


def herald_binary():
    binary = os.environ.get("HERALD_BINARY", ".build/release/herald")
    return binary if os.path.isabs(binary) else os.path.join(ROOT, binary)


def tiny_png(width, height, noise=False):
    """A valid RGB PNG (IHDR, one IDAT, IEND, correct CRCs), made here so no file is needed;
    with `noise`, random pixels (which do not compress: the file is about 3 bytes a pixel)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    if noise:
        rows = b"".join(b"\x00" + os.urandom(3 * width) for _ in range(height))
    else:
        rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (40 * x % 256, 90 * y % 256, 200))
                        for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def long_text(length, marker):
    """`length` characters of varied prose in paragraphs (some non-ASCII), ending with `marker`."""
    words = ("harbour council ferry storm budget election river bridge market school festival minister "
             "tramway Zürich café naïve façade Ørsted timetable archive lighthouse quarry orchard evening "
             "witness report delayed reopened quietly announced").split()
    rng = random.Random(20240611)
    paragraphs, size = [], 0
    while size < length:
        sentences = [" ".join(rng.choice(words) for _ in range(rng.randint(6, 16))).capitalize() + "."
                     for _ in range(rng.randint(3, 6))]
        paragraphs.append(" ".join(sentences))
        size += len(paragraphs[-1]) + 2
    text = "\n\n".join(paragraphs)[:length - len(marker) - 1].rstrip()
    text += "x" * (length - len(marker) - 1 - len(text))
    return text + " " + marker


def poll(condition, seconds):
    """Seconds until `condition()` held, or None if it did not within `seconds`."""
    started = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            return None
        time.sleep(0.05)


def article_fields(token, title, body, action, section="World News", **extra):
    fields = {"csrf_token": token, "title": title, "summary": f"Summary of {title}", "section": section,
              "byline": "", "body": body, "image_alt": "", "publish_at": "", "action": action}
    fields.update(extra)
    return fields


def set_cookies(c):
    """The Set-Cookie headers of `c`'s last response."""
    return [v for k, v in c.last_headers if k.lower() == "set-cookie"]


def check_deployment(balancer, nodes):
    """What deploy/nginx.conf and HERALD_TRUST_PROXY/HERALD_BASE_URL give over HTTPS."""
    host, port = urllib.parse.urlparse(balancer).hostname, urllib.parse.urlparse(balancer).port

    # Every HTTPS request in this test verifies nginx's certificate; one that does not trust it fails.
    try:
        Client.for_url(balancer, ssl.create_default_context()).request("GET", "/healthz")
        untrusted = "accepted"
    except ssl.SSLCertVerificationError:
        untrusted = "refused"
    except Exception as error:  # noqa: BLE001
        untrusted = f"other error {error!r}"
    anonymous = client(balancer)
    status, _, page = anonymous.request("GET", "/register")
    check("the balancer speaks HTTPS with the cluster's certificate (and refuses clients that do not trust it)",
          status == 200 and "csrf_token" in page and untrusted == "refused", f"GET /register {status}; {untrusted}")

    hsts = anonymous.header("Strict-Transport-Security") or ""
    check("Strict-Transport-Security is sent over HTTPS", "max-age=" in hsts, f"{hsts!r}")
    csrf_cookie = set_cookies(anonymous)
    reader = client(balancer)
    status, _, _ = reader.request("POST", "/register", {"csrf_token": reader.token("/register"),
                                                        "username": "secure1", "password": PASSWORD})
    session_cookie = [v for v in set_cookies(reader) if v.startswith("__Host-herald_session=")]
    secure = lambda value: "secure" in [a.strip().lower() for a in value.split(";")[1:]]  # noqa: E731
    # SPEC third wave: over HTTPS every cookie is named with the __Host- prefix (Secure, Path=/, no Domain).
    host_prefixed = lambda value: (value.startswith("__Host-") and "path=/" in value.lower()  # noqa: E731
                                   and "domain=" not in value.lower())
    every = csrf_cookie + set_cookies(reader)
    check("Set-Cookie over HTTPS: every cookie __Host- prefixed and Secure (the browser id and the session)",
          status == 303 and csrf_cookie and session_cookie and all(secure(v) and host_prefixed(v) for v in every),
          f"register {status}; {every}")

    # nginx's $request_id reaches Herald (proxy_set_header X-Request-Id), which keeps it and sends it back.
    reader.request("GET", "/")
    request_id = reader.header("X-Request-Id") or ""
    check("nginx's request id reaches Herald and comes back as X-Request-Id",
          re.fullmatch(r"[0-9a-f]{32}", request_id), f"X-Request-Id {request_id!r}")

    # HTTP/2: offered by ALPN, and (with curl) spoken.
    context = ssl.create_default_context(cafile=CERTIFICATE)
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection((host, port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname=host) as tls:
            alpn = tls.selected_alpn_protocol()
    curl = shutil.which("curl")
    spoken = None
    if curl:
        spoken = subprocess.run([curl, "-sS", "--http2", "-I", "--cacert", CERTIFICATE, balancer + "/"],
                                capture_output=True, text=True, timeout=30)
    check("HTTP/2 is offered (ALPN h2)" + (", and curl --http2 -I gets HTTP/2 200" if curl else " (no curl here)"),
          alpn == "h2" and (spoken is None or spoken.stdout.startswith("HTTP/2 200")),
          f"ALPN {alpn!r}; curl {spoken and (spoken.stdout[:60] + spoken.stderr[:200])!r}")

    # Static files come from Public/ through nginx itself: Herald never sees the request.
    css = client(balancer)
    status, _, _ = css.request("GET", "/static/css/herald.css")
    with open(os.path.join(ROOT, "Public", "css", "herald.css"), "rb") as f:
        expected = f.read()
    # nginx's `expires 1h` and `add_header Cache-Control "public"` make two headers.
    cache_control = ", ".join(v for k, v in css.last_headers if k.lower() == "cache-control")
    # Herald's own /static/ answer would carry its X-Request-Id and Content-Security-Policy.
    check("/static/css/herald.css is served by nginx (Server: nginx, text/css, the file's bytes, no Herald headers)",
          status == 200 and (css.header("Server") or "").startswith("nginx")
          and (css.header("Content-Type") or "").startswith("text/css") and css.last_body == expected
          and css.header("X-Request-Id") is None and css.header("Content-Security-Policy") is None
          and "max-age=3600" in cache_control,
          f"{status} Server {css.header('Server')!r} Content-Type {css.header('Content-Type')!r} "
          f"{len(css.last_body)} of {len(expected)} bytes, X-Request-Id {css.header('X-Request-Id')!r}, "
          f"Cache-Control {cache_control!r}")

    # One client address may have 64 requests in progress at nginx (limit_conn); the 65th is 429 at
    # once. Each held request is a POST whose body never comes: nginx counts it from its head on.
    head = (f"POST /login HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 100\r\n\r\n").encode()
    held = []
    http1 = ssl.create_default_context(cafile=CERTIFICATE)
    try:
        for _ in range(64):
            tls = http1.wrap_socket(socket.create_connection((host, port), timeout=10), server_hostname=host)
            tls.sendall(head)
            held.append(tls)
        time.sleep(0.3)
        over = client(balancer).request("GET", "/healthz")[0]
    finally:
        for tls in held:
            tls.close()
    after = 0
    for _ in range(20):
        after = client(balancer).request("GET", "/healthz")[0]
        if after == 200:
            break
        time.sleep(0.1)
    check("nginx lets one address have 64 requests in progress: the 65th is 429, and once they end it is served",
          len(held) == 64 and over == 429 and after == 200, f"{len(held)} held; the next {over}; after {after}")

    # The nodes themselves stay plain HTTP.
    direct = client(nodes[0])
    status = direct.request("GET", "/healthz")[0]
    check("the nodes answer plain HTTP directly", nodes[0].startswith("http://") and status == 200,
          f"{nodes[0]} {status}")


class MailSink:
    """A real SMTP server for the nodes: Tests/mail/smtp_sink.py (aiosmtpd) on a loopback port,
    writing each message it receives to DIR/N.json (envelope, headers, decoded parts). It stops
    when its standard input closes."""

    def __init__(self, directory):
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        # Debian's Python, where python3-aiosmtpd is installed.
        python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        self.process = subprocess.Popen([python, os.path.join(ROOT, "Tests", "mail", "smtp_sink.py"), directory],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.port = int(self.process.stdout.readline())

    def messages(self):
        """Every message received so far, in order (each DIR/N.json appears whole)."""
        found, n = [], 1
        while os.path.exists(os.path.join(self.directory, f"{n}.json")):
            with open(os.path.join(self.directory, f"{n}.json"), encoding="utf-8") as f:
                found.append(json.load(f))
            n += 1
        return found

    def to(self, address):
        return [m for m in self.messages() if address in m["rcpt_tos"]]

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


LINK = re.compile(r"https://127\.0\.0\.1:18100(/login/link/[A-Za-z0-9_-]{43})")


def check_mail_link_across_nodes(nodes, slug, sink):
    """SPEC third wave: a sign-in link asked on node 1 with an anonymous like pending, opened in
    another browser on node 2, the carried like confirmed on node 3: performed once, never twice."""
    register_with_email(nodes[2], "linker", "linker@example.com")
    laptop = client(nodes[0])
    before = int(LIKES.search(laptop.request("GET", f"/articles/{slug}")[2]).group(1))
    status, location, _ = laptop.request("POST", f"/articles/{slug}/like",
                                         {"csrf_token": laptop.token(f"/articles/{slug}")})
    asked, _, _ = laptop.request("POST", "/login/link", {"csrf_token": laptop.token("/login/link"),
                                                         "email": "linker@example.com"})
    waited = poll(lambda: sink.to("linker@example.com"), 15)
    mails = sink.to("linker@example.com")
    found = LINK.search(mails[-1]["parts"].get("text/plain", "")) if mails else None
    check("node 1 captures the like and mails a sign-in link for it",
          status == 303 and location == "/login" and asked == 303 and waited is not None and found,
          f"like {status} {location}, ask {asked}, mails {len(mails)}")
    if not found:
        return None
    link = found.group(1)
    phone = client(nodes[1])
    status, _, page = phone.request("GET", link)
    opened = status == 200 and "Log in as linker" in page
    status, location, _ = phone.request("POST", link, {"csrf_token": phone.token(link)})
    check("node 2 opens the link in another browser: logs in and asks to confirm the carried like",
          opened and status == 303 and location == link + "/confirm", f"{status} {location}")
    on_three = move(phone, nodes[2])
    shown = on_three.request("GET", link + "/confirm")[2]
    confirm = {"csrf_token": on_three.token(link + "/confirm")}
    status, location, _ = on_three.request("POST", link + "/confirm", confirm)
    again, _, _ = move(phone, nodes[0]).request("POST", link + "/confirm", confirm)
    reused, _, _ = client(nodes[0]).request("POST", link, {"csrf_token": "x"})
    after = int(LIKES.search(client(nodes[1]).request("GET", f"/articles/{slug}")[2]).group(1))
    check("node 3 performs the carried like after Confirm, once (a second Confirm on node 1 is 404, the link is spent)",
          "data-carried-action" in shown and status == 303 and (location or "").startswith(f"/articles/{slug}")
          and again == 404 and reused in (403, 404) and after == before + 1,
          f"confirm {status} {location}, again {again}, reused {reused}, likes {before}→{after}")
    return phone


def check_reply_digest_once(nodes, slug, sink, reader):
    """Every node runs the reply-digest rounds (each second here): a reply is mailed once, in one
    mail, however many nodes claim at the same moment."""
    status, _, _ = reader.request("POST", "/account/reply-mail", {"csrf_token": reader.token("/account"),
                                                                  "mail": "on"})
    on_two = move(reader, nodes[1])
    _, location, _ = on_two.request("POST", f"/articles/{slug}/comments",
                                    {"csrf_token": on_two.token(f"/articles/{slug}"), "body": "Cluster thought."})
    parent = (location or "").rsplit("#comment-", 1)[-1]
    replier = register(nodes[2], "replier")
    replied, _, _ = replier.request("POST", f"/articles/{slug}/comments",
                                    {"csrf_token": replier.token(f"/articles/{slug}"),
                                     "body": "A reply seen from three nodes.", "parent": parent})
    digests = lambda: [m for m in sink.to("linker@example.com") if m["headers"].get("List-Unsubscribe")]  # noqa: E731
    waited = poll(digests, 20)
    time.sleep(3)  # every node runs three more rounds
    mails = digests()
    text = mails[0]["parts"].get("text/plain", "") if mails else ""
    check("the reply digest goes out once with three nodes running rounds (one mail, the reply once, one-click headers)",
          status == 303 and replied == 303 and waited is not None and len(mails) == 1
          and text.count("A reply seen from three nodes.") == 1
          and mails[0]["headers"].get("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click",
          f"setting {status}, reply {replied}, digests {len(mails)}")


def register_with_email(url, name, email):
    c = client(url)
    status, _, _ = c.request("POST", "/register", {"csrf_token": c.token("/register"), "username": name,
                                                   "password": PASSWORD, "email": email})
    assert status == 303, f"register {name}: {status}"
    return c


def main():
    global CERTIFICATE
    work = tempfile.mkdtemp(prefix="herald-cluster-")
    sink = MailSink(os.path.join(work, "mail"))
    # Every node mails through the sink, and looks for reply digests each second.
    env = dict(os.environ, HERALD_PASSWORD_COST="minimum", HERALD_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
               HERALD_MAIL_FROM="Herald <news@herald.test>", HERALD_REPLY_MAIL_CHECK_SECONDS="1")
    started = subprocess.run([os.path.join(ROOT, "scripts", "cluster.sh"), "start", work + "/c", "3"],
                             capture_output=True, text=True, env=env, timeout=300)
    if started.returncode != 0:
        print(started.stdout, started.stderr)
        return 1
    balancer, *nodes = started.stdout.split()
    CERTIFICATE = os.path.join(work, "c", "conf", "herald-cert.pem")
    try:
        check_deployment(balancer, nodes)

        front = client(balancer).request("GET", "/")[2]
        slugs = ARTICLE.findall(front)

        # 1. An anonymous like captured by node 1 is performed after a login answered by node 2.
        register(nodes[2], "traveller")
        jar = client(nodes[0])
        slug = slugs[0]
        status, location, _ = jar.request("POST", f"/articles/{slug}/like",
                                          {"csrf_token": jar.token(f"/articles/{slug}")})
        check("node 1 captures the anonymous like", status == 303 and location == "/login", f"{status} {location}")
        on_two = move(jar, nodes[1])
        status, location, _ = on_two.request("POST", "/login", {"csrf_token": on_two.token("/login"),
                                                                "username": "traveller", "password": PASSWORD})
        check("node 2 performs it at login", status == 303 and location == f"/articles/{slug}#like", f"{status} {location}")
        page = move(on_two, nodes[2]).request("GET", f"/articles/{slug}")[2]
        check("node 3 shows it liked", "/unlike" in page and LIKES.search(page).group(1) == "1")

        # 2. A session made on node 1 is honoured by the others, and revoked everywhere by a logout on node 3.
        session = register(nodes[0], "roamer")
        check("node 2 knows the session", "roamer" in move(session, nodes[1]).request("GET", "/")[2])
        copied = dict(session.cookies)
        on_three = move(session, nodes[2])
        on_three.request("POST", "/logout", {"csrf_token": on_three.token("/")})
        stale = client(nodes[0])
        stale.cookies = copied
        check("the logout on node 3 ends it on node 1", "roamer" not in stale.request("GET", "/")[2])

        # 2b. A sign-in link asked on one node is opened and confirmed on others; replies by mail, once.
        linked = check_mail_link_across_nodes(nodes, slugs[2], sink)
        if linked:
            check_reply_digest_once(nodes, slugs[3], sink, linked)

        # 3. 50 concurrent likers through the balancer leave an exact count.
        target = slugs[1]
        likers = [register(balancer, f"liker{i}") for i in range(50)]
        tokens = [c.token(f"/articles/{target}") for c in likers]
        statuses = []
        threads = [threading.Thread(target=lambda c=c, t=t: statuses.append(
            c.request("POST", f"/articles/{target}/like", {"csrf_token": t})[0])) for c, t in zip(likers, tokens)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        count = LIKES.search(likers[0].request("GET", f"/articles/{target}")[2]).group(1)
        check("50 concurrent likes over 3 nodes count exactly 50", statuses.count(303) == 50 and count == "50",
              f"statuses {sorted(set(statuses))}, count {count}")

        # 4. The newsroom across nodes. An editor is made on the command line, on the shared database.
        editor = register(nodes[0], "editor1")
        before = move(editor, nodes[1]).request("GET", "/editor")[0]
        granted = subprocess.run([herald_binary(), "users", "--database", DATABASE, "grant", "editor1", "editor"],
                                 capture_output=True, text=True, timeout=60)
        status, _, desk = move(editor, nodes[1]).request("GET", "/editor")
        check("a role granted on the command line counts at once on node 2",
              before == 403 and granted.returncode == 0 and status == 200 and "Newsroom" in desk,
              f"before {before}, grant {granted.returncode} {granted.stderr.strip()}, after {status}")

        # 4a. Published on node 1: on node 2's and 3's front page, section page and section feed within 3 s
        # (each node's page cache trusts writes it did not see for at most 1 s). Their caches are warmed first.
        section = "/sections/world-news"
        watched = ["/", section, section + "/feed.atom"]
        for node in nodes[1:]:
            for path in watched:
                client(node).request("GET", path)
        title = "Harbour reopens after the storm"
        body = "The ferry ran again at dawn.\n\n| Route | Sailings |\n|---|---:|\n| North | 4 |\n"
        status, location, _ = editor.request(
            "POST", "/editor/articles", article_fields(editor.token("/editor/articles/new"), title, body, "publish"),
            files={})
        published_at = time.monotonic()
        status_page, _, page = editor.request("GET", location or "/")
        match = re.search(r'href="/articles/([^"]+)"', page)
        published = match.group(1) if match else "?"
        flash = FLASH.search(page)
        check("node 1 publishes an article with a section",
              status == 303 and re.fullmatch(r"/editor/articles/\d+", location or "")
              and STATE.search(page).group(1) == "published" and flash and flash.group(1).startswith("Published"),
              f"POST {status} {location}; edit page {status_page} {STATE.findall(page)} {flash and flash.group(1)}")
        readers = [client(node) for node in nodes[1:]]

        def shows(reader, path):
            status, _, text = reader.request("GET", path)
            return status == 200 and f"/articles/{published}" in text

        def everywhere():
            return all(shows(r, path) for r in readers for path in watched)

        waited = poll(everywhere, 3.0)
        total = None if waited is None else time.monotonic() - published_at
        check("nodes 2 and 3 show it on /, its section and the section's feed within 3 s"
              + ("" if total is None else f" ({total:.2f} s)"), waited is not None,
              "; ".join(f"{node}{path} {'shows' if shows(r, path) else 'lacks'} it"
                        for node, r in zip(nodes[1:], readers) for path in watched))

        # 4b. A draft is 404 to anonymous readers on every node.
        status, location, _ = editor.request(
            "POST", "/editor/articles",
            article_fields(editor.token("/editor/articles/new"), "Embargoed budget plans", "Not yet.", "save"),
            files={})
        draft_path = location or "/"
        page = editor.request("GET", draft_path)[2]
        match = re.search(r'href="/articles/([^"]+)"', page)
        draft = match.group(1) if match else "?"
        statuses = [client(node).request("GET", f"/articles/{draft}")[0] for node in nodes]
        check("a draft's page is 404 for anonymous readers on every node",
              status == 303 and STATE.search(page).group(1) == "draft" and statuses == [404, 404, 404],
              f"POST {status} {location}, state {STATE.findall(page)}, reader statuses {statuses}")

        # 4c. A save made after the session ended, across nodes: the edit form was rendered on node 1 while
        # the session was valid; the session then expires (14 days and an hour idle: dead, but the editor's
        # within the last day, which a body past 64 KiB needs); the save (100,000 characters and an image)
        # is sent to node 2, the login made on node 3.
        form_token = editor.token(draft_path)
        expired = client(nodes[1])
        expired.cookies = dict(editor.cookies)
        age_sessions("editor1", 14 * 86400 + 3600)
        probe = client(nodes[2])
        probe.cookies = dict(expired.cookies)
        probe_status, probe_location, _ = probe.request("GET", "/editor")
        marker = "END-OF-DRAFT-" + os.urandom(6).hex()
        long_body = long_text(100_000, marker)
        png = tiny_png(4, 3)
        digest = hashlib.sha256(png).hexdigest()
        status, location, _ = expired.request(
            "POST", draft_path,
            article_fields(form_token, "Embargoed budget plans", long_body, "save", image_alt="A test pattern"),
            files={"image": ("pattern.png", "image/png", png)})
        intent = expired.cookies.get("__Host-herald_intent")
        check("node 2 parks the save of an ended session (100,000 characters and an image) and asks for a login",
              probe_status == 303 and (probe_location or "").startswith("/login")
              and status == 303 and location == "/login" and intent,
              f"session probe {probe_status} {probe_location}; POST {status} {location}, intent cookie {bool(intent)}")
        on_three = move(expired, nodes[2])
        login_page = on_three.request("GET", "/login")[2]
        status, location, _ = on_three.request("POST", "/login", {"csrf_token": TOKEN.search(login_page).group(1),
                                                                  "username": "editor1", "password": PASSWORD})
        # The login page says what will be done without naming the draft (SPEC third wave).
        check("node 3 performs it at login and returns to the edit page",
              "save your changes to an article" in login_page and "Embargoed budget plans" not in login_page
              and status == 303 and location == draft_path,
              f"login page describes it generically: {'save your changes to an article' in login_page}, "
              f"names the draft: {'Embargoed budget plans' in login_page}; POST /login {status} {location}")
        on_one = move(on_three, nodes[0])
        page = on_one.request("GET", draft_path)[2]
        flash = FLASH.search(page)
        kept = BODY.search(page)
        kept = html.unescape(kept.group(1)) if kept else ""
        image = IMAGE.search(page)
        check("node 1's edit page holds the whole text and the image",
              flash and flash.group(1).startswith("Saved") and kept == long_body and marker in page
              and image and image.groups() == (digest, "4", "3", "A test pattern"),
              f"flash {flash and flash.group(1)!r}; text {len(kept)} of {len(long_body)} characters, "
              f"marker {'present' if marker in page else 'missing'}; image {image and image.groups()}")

        second = "The second version, saved while logged in."
        status, _, _ = on_one.request("POST", draft_path, article_fields(TOKEN.search(page).group(1),
                                      "Embargoed budget plans", second, "save", image_alt="A test pattern"), files={})
        replay = client(nodes[1])
        # The same browser (its id cookie too), so that only the replay check can refuse it.
        replay.cookies = {"__Host-herald_intent": intent,
                          "__Host-herald_csrf": expired.cookies.get("__Host-herald_csrf", "")}
        replay_status, replay_location, _ = replay.request(
            "POST", "/login", {"csrf_token": replay.token("/login"), "username": "editor1", "password": PASSWORD})
        page = on_one.request("GET", draft_path)[2]
        kept = BODY.search(page)
        kept = html.unescape(kept.group(1)) if kept else ""
        check("the same intent cookie replayed at another login does nothing",
              status == 303 and replay_status == 303 and replay_location != draft_path and kept == second
              and marker not in page,
              f"second save {status}; replayed login {replay_status} {replay_location}; text now {kept[:60]!r}")

        # A reader who logs in with a captured save is refused, and shown the text back.
        stranger = client(nodes[1])
        status, location, _ = stranger.request(
            "POST", "/editor/articles",
            article_fields(stranger.token("/login"), "Not an editor's", "Words to keep " + marker, "save"), files={})
        status_login, _, returned = move(stranger, nodes[2]).request(
            "POST", "/login", {"csrf_token": stranger.token("/login"), "username": "traveller", "password": PASSWORD})
        check("a non-editor logging in with a captured save gets 403 and the text back",
              status == 303 and location == "/login" and status_login == 403
              and re.search(r"<textarea[^>]*>Words to keep " + marker, returned),
              f"capture {status} {location}; login {status_login} {returned[:200]!r}")

        # 4d. The image is served identically by every node: same bytes, same strong ETag, a year of caching.
        served = []
        for node in nodes:
            c = client(node)
            status, _, _ = c.request("GET", f"/media/{digest}.png")
            served.append((status, c.last_body == png, c.header("ETag"), c.header("Cache-Control")))
            status, _, _ = c.request("GET", f"/media/{digest}.png", headers={"If-None-Match": f'"{digest}"'})
            served.append((status,))
        check("every node serves the image with the same bytes and ETag (and 304 when it matches)",
              all(s == (200, True, f'"{digest}"', "public, max-age=31536000, immutable") for s in served[0::2])
              and all(s == (304,) for s in served[1::2]), f"{served}")

        # 4d'. Through nginx both ways: a save of 100,000 characters and a 1.8 MB image (more than nginx's
        # 1 MiB body buffer: nginx takes the whole upload into a temporary file before passing it on), then
        # the edit page, larger than nginx's proxy buffers.
        via = move(on_one, balancer)
        page = via.request("GET", draft_path)[2]
        big = tiny_png(1000, 600, noise=True)
        big_digest = hashlib.sha256(big).hexdigest()
        marker = "THROUGH-NGINX-" + os.urandom(6).hex()
        big_body = long_text(100_000, marker)
        status, location, _ = via.request(
            "POST", draft_path,
            article_fields(TOKEN.search(page).group(1), "Embargoed budget plans", big_body, "save", image_alt="Noise"),
            files={"image": ("noise.png", "image/png", big)})
        status_page, _, page = via.request("GET", draft_path)
        kept = BODY.search(page)
        kept = html.unescape(kept.group(1)) if kept else ""
        image = IMAGE.search(page)
        status_image = via.request("GET", f"/media/{big_digest}.png")[0]
        check(f"a {len(big) / 1e6:.1f} MB image and 100,000 characters saved through nginx, and the page shown back",
              len(big) > 1 << 20 and status == 303 and status_page == 200 and kept == big_body
              and image and image.group(1) == big_digest and status_image == 200 and via.last_body == big,
              f"POST {status} {location}; page {status_page}, text {len(kept)} of {len(big_body)}, "
              f"image {image and image.groups()}; GET image {status_image} {len(via.last_body)} bytes")

        # 4e. Moderation across nodes. A moderator is made on the command line; a comment hidden on node 1
        # leaves node 2's and node 3's anonymous article pages (and their front pages' counts) within 3 s,
        # though both were loaded first, so cached (each node trusts writes it did not see for at most 1 s).
        moderator = register(nodes[0], "moderator1")
        granted = subprocess.run([herald_binary(), "users", "--database", DATABASE, "grant", "moderator1", "moderator"],
                                 capture_output=True, text=True, timeout=60)
        moderated = slugs[0]
        commenter = register(nodes[2], "commenter1")
        words = "Words a moderator will hide " + os.urandom(4).hex()
        status, location, _ = commenter.request("POST", f"/articles/{moderated}/comments", {
            "csrf_token": commenter.token(f"/articles/{moderated}"), "body": words})
        match = re.search(r"#comment-(\d+)$", location or "")
        comment_id = match.group(1) if match else "0"
        comment_count = re.compile(r'href="/articles/' + re.escape(moderated) + r'".*?data-comment-count="(\d+)"', re.S)

        def anonymous_view(node):
            """(article page shows the text, the comment's element is marked hidden, front page count)."""
            c = client(node)
            page = c.request("GET", f"/articles/{moderated}")[2]
            element = re.search(r'<li class="comment[^"]*" id="comment-' + comment_id + r'"[^>]*>', page)
            count = comment_count.search(c.request("GET", "/")[2])
            return (words in page, bool(element) and "data-hidden" in element.group(0),
                    count and int(count.group(1)))

        warmed = [anonymous_view(node) for node in nodes[1:] for _ in range(2)]
        status_hide, location_hide, _ = moderator.request("POST", f"/comments/{comment_id}/hide", {
            "csrf_token": moderator.token(f"/articles/{moderated}"), "note": "cluster check"})
        hidden_at = time.monotonic()
        check("a moderator granted on the command line hides a comment on node 1",
              granted.returncode == 0 and status == 303 and match and warmed == [(True, False, 1)] * 4
              and status_hide == 303 and location_hide == f"/articles/{moderated}#comment-{comment_id}",
              f"grant {granted.returncode} {granted.stderr.strip()}; comment {status} {location}; "
              f"nodes 2 and 3 before {warmed}; hide {status_hide} {location_hide}")
        waited = poll(lambda: all(anonymous_view(node) == (False, True, 0) for node in nodes[1:]), 3.0)
        total = None if waited is None else time.monotonic() - hidden_at
        check("the hidden comment's text and count leave node 2's and node 3's cached anonymous pages within 3 s"
              + ("" if total is None else f" ({total:.2f} s)"), waited is not None,
              "; ".join(f"{node}: (text shown, marked hidden, front count) = {anonymous_view(node)}" for node in nodes[1:]))

        # A ban on the command line: the banned reader's next POST on node 3, with the session it made on
        # node 1, is 403 and logs it out; its login on node 2 is refused.
        banned = register(nodes[0], "banned1")
        on_three = move(banned, nodes[2])
        form_token = on_three.token(f"/articles/{moderated}")
        ban = subprocess.run([herald_binary(), "users", "--database", DATABASE, "ban", "banned1"],
                             capture_output=True, text=True, timeout=60)
        status, _, page = on_three.request("POST", f"/articles/{moderated}/comments",
                                           {"csrf_token": form_token, "body": "Posted after the ban"})
        refused = client(nodes[1])
        status_login, _, login_page = refused.request("POST", "/login", {
            "csrf_token": refused.token("/login"), "username": "banned1", "password": PASSWORD})
        check("a ban on the command line: the reader's next POST on node 3 is 403 and logs it out; node 2 refuses its login",
              ban.returncode == 0 and status == 403 and "This account is suspended" in page
              and "__Host-herald_session" not in on_three.cookies and status_login == 403
              and "This account is suspended" in login_page
              and "Posted after the ban" not in client(nodes[1]).request("GET", f"/articles/{moderated}")[2],
              f"ban {ban.returncode} {ban.stderr.strip()}; POST {status} {page[:200]!r}, "
              f"session cookie {'kept' if '__Host-herald_session' in on_three.cookies else 'expired'}; login {status_login}")

        # 5. SIGKILL one node under load: nothing acknowledged is lost, the balancer keeps serving.
        victim_pid = int(open(f"{work}/c/node2.pid").read())
        storm = [register(balancer, f"storm{i}") for i in range(6)]
        acknowledged = []
        stop = threading.Event()

        def like_all(c):
            for s in slugs:
                if stop.is_set():
                    return
                try:
                    status, _, _ = c.request("POST", f"/articles/{s}/like",
                                             {"csrf_token": TOKEN.search(c.request("GET", f"/articles/{s}")[2]).group(1)})
                    if status == 303:
                        acknowledged.append((c, s))
                except Exception:
                    pass

        workers = [threading.Thread(target=like_all, args=(c,)) for c in storm]
        for w in workers:
            w.start()
        time.sleep(0.5)
        os.kill(victim_pid, signal.SIGKILL)
        time.sleep(1.0)
        stop.set()
        for w in workers:
            w.join()
        serving = all(client(balancer).request("GET", "/")[0] == 200 for _ in range(6))
        check("the balancer keeps serving after a node is killed", serving)
        lost = [s for c, s in acknowledged if f'action="/articles/{s}/unlike"' not in c.request("GET", f"/articles/{s}")[2]]
        check(f"all {len(acknowledged)} acknowledged likes survive the kill", acknowledged and not lost, f"lost {lost[:3]}")
    finally:
        subprocess.run([os.path.join(ROOT, "scripts", "cluster.sh"), "stop", work + "/c"], timeout=120)
        sink.stop()
        if os.environ.get("HERALD_KEEP_CLUSTER") != "1":
            shutil.rmtree(work, ignore_errors=True)
    passed = sum(1 for _, ok in results if ok)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
