#!/usr/bin/env python3
"""Several Herald nodes on one PostgreSQL database behind nginx (scripts/cluster.sh), driven
like browsers: what one node starts, another finishes. Loopback only, bounded.

  python3 Tests/cluster/test_cluster.py     # starts and stops its own cluster
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "lib"))
from flows import Client  # noqa: E402  (the benchmarks' small cookie-jar client)

TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')
ARTICLE = re.compile(r'href="/articles/([^"]+)"')
LIKES = re.compile(r'data-like-count="(\d+)"')
PASSWORD = "cluster-pass-phrase"
results = []


def client(url):
    parsed = urllib.parse.urlparse(url)
    return Client(parsed.hostname, parsed.port)


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


def main():
    work = tempfile.mkdtemp(prefix="herald-cluster-")
    env = dict(os.environ, HERALD_PASSWORD_COST="minimum")
    started = subprocess.run([os.path.join(ROOT, "scripts", "cluster.sh"), "start", work + "/c", "3"],
                             capture_output=True, text=True, env=env, timeout=300)
    if started.returncode != 0:
        print(started.stdout, started.stderr)
        return 1
    balancer, *nodes = started.stdout.split()
    try:
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
        check("node 2 performs it at login", status == 303 and location == f"/articles/{slug}", f"{status} {location}")
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

        # 4. SIGKILL one node under load: nothing acknowledged is lost, the balancer keeps serving.
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
    passed = sum(1 for _, ok in results if ok)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
