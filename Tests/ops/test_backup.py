#!/usr/bin/env python3
"""`herald backup FILE` (issue #21): a consistent copy of the SQLite database taken while the
server runs, and a restore from it that loses nothing acknowledged before the backup began.

  python3 Tests/ops/test_backup.py       # HERALD_BINARY picks the build (default .build/debug/herald)

The permissions test (issue #29): the copy holds the password hashes, so it must never be
readable by others, not even while it is being written. A database of about 200 MB makes the copy
last long enough to watch the file's mode all along (under umask 022, where SQLite would have
made it 0644); a copy that fails half-way (a file size limit, as a full disk would) leaves no file.

The restore test: a real server on a database of 1,000 imported articles (so that the copy takes
a while), a like storm (6 threads, 24 logged-in readers liking, unliking and liking again, each
acknowledgement timed), `herald backup` run in the middle of it, then the backup copied into a new
data directory as herald.sqlite3 and served: every like acknowledged before the backup started
must be there, none sent after it ended may be, each article's count must match its like rows,
and the copy must pass PRAGMA integrity_check.
"""
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import LIKES, Results, Server, environment, herald_binary, register, run_herald  # noqa: E402

PASSWORD = "backup-pass-phrase-1"
THREADS = 6
READERS_PER_THREAD = 4
REPORT = re.compile(r"backed up (.+) to (.+): (\d+\.\d) MB in (\d+\.\d\d) s, integrity ok")
results = Results("backup")
check = results.check


def bulk_feed(path, count):
    """A JSON Feed of `count` articles of about 4 KB each."""
    rng = random.Random(21)
    words = ("harbour council ferry storm budget election river bridge market school festival minister "
             "tramway archive lighthouse quarry orchard evening witness report").split()
    items = []
    for i in range(count):
        body = "\n\n".join(" ".join(rng.choice(words) for _ in range(110)).capitalize() + "." for _ in range(6))
        items.append({"id": f"bulk-{i}", "title": f"Bulk article {i} about the {rng.choice(words)}",
                      "summary": "An article made for the backup test.", "content_text": body,
                      "date_published": f"2026-{1 + i % 9:02d}-{1 + i % 27:02d}T{i % 24:02d}:00:00Z"})
    with open(path, "w") as f:
        json.dump({"version": "https://jsonfeed.org/version/1.1", "title": "Bulk", "items": items}, f)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def command_line(work):
    """What `herald backup` does without a server: refusals, PostgreSQL."""
    data = os.path.join(work, "cli")
    os.makedirs(data)
    missing = run_herald(["backup", "--data", data, os.path.join(work, "nothing.sqlite3")])
    check("with no database in --data, backup exits 1 and writes nothing",
          missing.returncode == 1 and not os.path.exists(os.path.join(work, "nothing.sqlite3"))
          and "no database" in missing.stderr, f"exit {missing.returncode}, stderr {missing.stderr!r}")

    target = os.path.join(work, "pg.dump")
    postgres = run_herald(["backup", "--database", "postgres://herald@127.0.0.1:1/herald", target])
    check("on PostgreSQL (--database postgres://…) it explains pg_dump and exits 2, writing nothing",
          postgres.returncode == 2 and "pg_dump" in postgres.stderr and not os.path.exists(target),
          f"exit {postgres.returncode}, stderr {postgres.stderr!r}, file {os.path.exists(target)}")
    by_environment = run_herald(["backup", target],
                                env=environment(HERALD_DATABASE_URL="postgres://herald@127.0.0.1:1/herald"))
    check("… also when PostgreSQL comes from HERALD_DATABASE_URL",
          by_environment.returncode == 2 and "pg_dump" in by_environment.stderr and not os.path.exists(target),
          f"exit {by_environment.returncode}, stderr {by_environment.stderr!r}")
    usage = run_herald(["backup", "--data", data])
    check("backup without a FILE is a usage error (exit 2)", usage.returncode == 2 and "backup" in usage.stderr,
          f"exit {usage.returncode}, stderr {usage.stderr[:200]!r}")


def big_database(data, megabytes):
    """DATA/herald.sqlite3 holding `megabytes` MB of random blobs: a copy of it takes a while."""
    os.makedirs(data)
    with sqlite3.connect(os.path.join(data, "herald.sqlite3")) as database:
        database.execute("CREATE TABLE ballast (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
        for _ in range(megabytes):
            database.executemany("INSERT INTO ballast (data) VALUES (?)", [(os.urandom(64 * 1024),) for _ in range(16)])
    database.close()


def watch_backup(data, target, file_size_limit=None):
    """Runs `herald backup` under umask 022 (and, if given, a file size limit whose signal is
    ignored, so writes past it fail like a full disk), stat-ing `target` as often as it can until
    the command ends. Returns the finished process and the set of modes the file was seen with."""
    def child():
        os.umask(0o022)
        if file_size_limit:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    proc = subprocess.Popen([herald_binary(), "backup", "--data", data, target], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment(), preexec_fn=child)
    modes, sightings = set(), 0
    while proc.poll() is None:
        try:
            modes.add(stat.S_IMODE(os.lstat(target).st_mode))
            sightings += 1
        except FileNotFoundError:
            pass
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err, modes, sightings


def permissions_test(work):
    data = os.path.join(work, "big")
    big_database(data, 200)
    target = os.path.join(work, "big-backup.sqlite3")
    status, out, err, modes, sightings = watch_backup(data, target)
    final = stat.S_IMODE(os.stat(target).st_mode) if os.path.exists(target) else None
    check(f"under umask 022 the copy is 0600 from its first byte to its last ({sightings} looks while it was written)",
          status == 0 and sightings > 100 and modes == {0o600} and final == 0o600,
          f"exit {status}, modes seen {sorted(oct(m) for m in modes)}, final {final and oct(final)}, stderr {err!r}")

    failed = os.path.join(work, "failed-backup.sqlite3")
    status, out, err, modes, sightings = watch_backup(data, failed, file_size_limit=32 << 20)
    check("a copy that fails half-way (file size limit) exits 1, says why, and leaves no file behind; "
          f"while it lasted it was 0600 ({sightings} looks)",
          status == 1 and "removed" in err and not os.path.exists(failed) and sightings > 0 and modes == {0o600},
          f"exit {status}, stderr {err!r}, file left: {os.path.exists(failed)}, modes seen {sorted(oct(m) for m in modes)}")
    shutil.rmtree(data, ignore_errors=True)


class Storm:
    """Logged-in readers liking, unliking and liking again, article after article. Each pair
    (reader, article) goes like → unlike → like and is then left alone; every request's send and
    acknowledgement (303) times are kept, in order, per pair."""

    def __init__(self, server, readers, slugs):
        self.server, self.readers, self.slugs = server, readers, slugs
        self.ops = {}  # (reader index, slug) -> [(kind, sent, acknowledged or None, status)]
        self.errors = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(t,)) for t in range(THREADS)]

    def run(self, t):
        mine = list(range(t * READERS_PER_THREAD, (t + 1) * READERS_PER_THREAD))
        # Each reader starts at another article, so that all of them get likes.
        position = {r: (r * 3) % len(self.slugs) for r in mine}
        step = {r: 0 for r in mine}
        done = {r: 0 for r in mine}
        while not self.stop.is_set():
            busy = False
            for r in mine:
                if self.stop.is_set() or done[r] >= len(self.slugs):
                    continue
                busy = True
                slug = self.slugs[position[r]]
                kind = ("like", "unlike", "like")[step[r]]
                # Sec-Fetch-Site is what a browser sends with the form (no token needed then).
                sent = time.monotonic()
                try:
                    status, _, _ = self.readers[r].request("POST", f"/articles/{slug}/{kind}",
                                                           headers={"Sec-Fetch-Site": "same-origin"})
                except Exception as error:  # noqa: BLE001
                    status = repr(error)
                acknowledged = time.monotonic() if status == 303 else None
                with self.lock:
                    self.ops.setdefault((r, slug), []).append((kind, sent, acknowledged, status))
                    if status != 303:
                        self.errors.append(f"{kind} {slug}: {status}")
                step[r] += 1
                if step[r] == 3:
                    step[r] = 0
                    done[r] += 1
                    position[r] = (position[r] + 1) % len(self.slugs)
            if not busy:
                return

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def expectations(self, started, ended):
        """Per pair, what a copy taken at some moment in [started, ended] must show:
        True (liked), False (not liked) or None (either, depending on when exactly)."""
        expected = {}
        for pair, ops in self.ops.items():
            if any(status != 303 for _, _, _, status in ops):
                expected[pair] = None
                continue
            state = False
            possible = set()
            for kind, sent, acknowledged, _ in ops:
                after = kind == "like"
                if acknowledged < started:
                    state = after          # committed before the copy began
                elif sent > ended:
                    break                  # sent after the copy was done: cannot be in it
                else:
                    possible.add(state)    # in flight while the copy was made: either
                    state = after
            possible.add(state)
            expected[pair] = possible.pop() if len(possible) == 1 else None
        return expected


def restore_test(work):
    data = os.path.join(work, "live")
    feed = os.path.join(work, "bulk.json")
    bulk_feed(feed, 1000)
    imported = run_herald(["import", "--data", data, feed], timeout=300)
    check("1,000 articles imported for a database worth copying", imported.returncode == 0,
          f"exit {imported.returncode} {imported.stderr[:300]!r}")

    env = environment(HERALD_ACCESS_LOG="off", HERALD_REGISTRATIONS_PER_ADDRESS="1000")
    server = Server(data, env=env)
    backup = os.path.join(work, "herald-backup.sqlite3")
    try:
        # More articles than the storm can get through: it is still going when the backup is taken.
        with sqlite3.connect(f"file:{os.path.join(data, 'herald.sqlite3')}?mode=ro", uri=True) as live:
            slugs = [slug for (slug,) in live.execute("SELECT slug FROM articles ORDER BY id LIMIT 400")]
        readers = [register(server, f"storm{i}", PASSWORD) for i in range(THREADS * READERS_PER_THREAD)]
        storm = Storm(server, readers, slugs)
        storm.start()
        time.sleep(1.5)
        started = time.monotonic()
        run = run_herald(["backup", "--data", data, backup], env=env)
        ended = time.monotonic()
        time.sleep(0.7)
        storm.finish()
    finally:
        status = server.stop()
    acknowledged = sum(1 for ops in storm.ops.values() for op in ops if op[2] is not None)
    during = sum(1 for ops in storm.ops.values() for _, sent, ack, _ in ops if ack and sent < ended and ack > started)
    print(f"     storm: {acknowledged} acknowledged likes and unlikes, {during} of them in flight during the "
          f"{ended - started:.2f} s backup; {len(storm.errors)} errors {storm.errors[:3]}")
    unfinished = sum(1 for t in storm.threads if t.is_alive())
    check("the storm ran without errors until stopped, and the server stopped cleanly (exit 0)",
          not storm.errors and acknowledged > 100 and during > 0 and not unfinished and status == 0
          and len(storm.ops) < len(readers) * len(slugs),
          f"{len(storm.errors)} errors {storm.errors[:5]}, {acknowledged} acknowledged, {during} during the backup, "
          f"{len(storm.ops)} of {len(readers) * len(slugs)} pairs touched, {unfinished} threads still running, "
          f"exit {status}")

    report = REPORT.fullmatch(run.stdout.strip())
    size = os.path.getsize(backup) if os.path.exists(backup) else 0
    reported = float(report.group(3)) if report else -1
    check("`herald backup` during the storm exits 0 and reports size and time "
          f"({run.stdout.strip()!r})",
          run.returncode == 0 and report and os.path.samefile(report.group(2), backup)
          and min(abs(reported - size / 1048576), abs(reported - size / 1e6)) <= 0.051 and size > 5_000_000
          and float(report.group(4)) <= ended - started + 0.05,
          f"exit {run.returncode}, stdout {run.stdout!r}, stderr {run.stderr!r}, file {size} bytes")
    mode = stat.S_IMODE(os.stat(backup).st_mode) if size else None
    check("the copy is readable by its owner only (0600: it holds password hashes)", mode == 0o600,
          f"mode {mode and oct(mode)}")

    # An existing file is never overwritten: the backup just made, or any other file.
    before = (sha256(backup), os.stat(backup).st_mtime_ns)
    again = run_herald(["backup", "--data", data, backup])
    check("backup to an existing file (the last backup) exits 1 and leaves it as it was",
          again.returncode == 1 and (sha256(backup), os.stat(backup).st_mtime_ns) == before
          and "exists" in again.stderr, f"exit {again.returncode}, stderr {again.stderr!r}")
    precious = os.path.join(work, "precious.txt")
    with open(precious, "w") as f:
        f.write("not a database\n")
    again = run_herald(["backup", "--data", data, precious])
    check("backup to any other existing file exits 1, nothing written",
          again.returncode == 1 and open(precious).read() == "not a database\n",
          f"exit {again.returncode}, stderr {again.stderr!r}")
    empty = os.path.join(work, "empty.sqlite3")
    open(empty, "w").close()
    again = run_herald(["backup", "--data", data, empty])
    check("… even an empty one", again.returncode == 1 and os.path.getsize(empty) == 0,
          f"exit {again.returncode}, {os.path.getsize(empty)} bytes, stderr {again.stderr!r}")

    # Restore: the copy alone, as herald.sqlite3 in a new data directory, under the same secret.
    restored = os.path.join(work, "restored")
    os.makedirs(restored)
    shutil.copyfile(backup, os.path.join(restored, "herald.sqlite3"))
    database = sqlite3.connect(f"file:{os.path.join(restored, 'herald.sqlite3')}?mode=ro", uri=True)
    integrity = database.execute("PRAGMA integrity_check").fetchall()
    foreign = database.execute("PRAGMA foreign_key_check").fetchall()
    journal = database.execute("PRAGMA journal_mode").fetchone()[0]
    check("the restored database passes PRAGMA integrity_check (and foreign_key_check)",
          integrity == [("ok",)] and foreign == [], f"integrity {integrity[:5]}, foreign keys {foreign[:5]}")
    rows = {}
    for username, slug in database.execute(
            "SELECT users.username, articles.slug FROM likes JOIN users ON users.id = likes.user_id "
            "JOIN articles ON articles.id = likes.article_id"):
        rows.setdefault(slug, set()).add(int(username.removeprefix("storm")))
    counts = dict(database.execute("SELECT slug, like_count FROM articles WHERE like_count > 0"))
    database.close()

    expected = storm.expectations(started, ended)
    must_have = [pair for pair, liked in expected.items() if liked is True]
    must_not = [pair for pair, liked in expected.items() if liked is False]
    uncertain = [pair for pair, liked in expected.items() if liked is None]
    print(f"     {len(must_have)} likes acknowledged before the backup and not undone; {len(must_not)} pairs "
          f"certainly not liked; {len(uncertain)} in flight while it ran (either is right); journal {journal}")
    lost = [pair for pair in must_have if pair[0] not in rows.get(pair[1], set())]
    check(f"every like acknowledged before the backup started is in it (like rows: {len(must_have)} checked)",
          must_have and not lost, f"{len(lost)} lost, e.g. {lost[:5]}")
    early = [pair for pair in must_not if pair[0] in rows.get(pair[1], set())]
    check(f"nothing sent after the backup ended is in it ({len(must_not)} pairs checked)", not early,
          f"{len(early)} pairs liked in the copy though not liked at any moment of the backup, e.g. {early[:5]}")
    mismatched = {s: (counts.get(s, 0), len(rows.get(s, ()))) for s in set(counts) | set(rows)
                  if counts.get(s, 0) != len(rows.get(s, ()))}
    check("each article's like_count equals its like rows in the copy", not mismatched, f"{mismatched}")

    # The restored database served: the same readers (their sessions are in the copy) see their likes.
    server = Server(restored, env=env)
    try:
        wrong = []
        for r, slug in must_have + must_not:
            reader = readers[r]
            jar = server.client()
            jar.cookies = dict(reader.cookies)
            page = jar.request("GET", f"/articles/{slug}")[2]
            liked = f'action="/articles/{slug}/unlike"' in page
            if liked != expected[(r, slug)] or f"storm{r}" not in page:
                wrong.append((r, slug, expected[(r, slug)], liked))
        check(f"served from the restored copy, each reader's page shows what the copy holds ({len(must_have + must_not)} pages)",
              not wrong, f"{len(wrong)} wrong (reader, article, expected liked, shown liked), e.g. {wrong[:5]}")
        shown = {}
        touched = sorted({slug for _, slug in storm.ops})
        for slug in touched:
            match = LIKES.search(server.client().request("GET", f"/articles/{slug}")[2])
            shown[slug] = int(match.group(1)) if match else None
        check(f"each article's data-like-count on the restored server equals its like rows ({len(touched)} articles)",
              all(shown[s] == len(rows.get(s, ())) for s in touched),
              f"{[(s, shown[s], len(rows.get(s, ()))) for s in touched if shown[s] != len(rows.get(s, ()))]}")
    finally:
        status = server.stop()
    check("the restored server stops cleanly", status == 0, f"exit {status}")


def main():
    work = tempfile.mkdtemp(prefix="herald-ops-backup-")
    try:
        results.run(command_line, work)
        results.run(permissions_test, work)
        results.run(restore_test, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results.finish()


if __name__ == "__main__":
    sys.exit(main())
