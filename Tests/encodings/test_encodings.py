#!/usr/bin/env python3
"""Every page Herald compresses decodes, with real decoders, to the page it sends uncompressed
(issue #31, SPEC "Compression").

Starts the real `herald` (HERALD_BINARY, default .build/debug/herald) on a loopback port and asks
for pages with `Accept-Encoding: br`, `zstd` and `gzip`, decoding each with Python's `brotli`
(Google's), `zstandard` (libzstd's bindings) and `gzip`, and compares every byte with the same
page asked for without an encoding by the same reader: anonymous readers on a first visit (a new
id cookie, so a new form token stitched in) and returning, logged-in readers (their name and
unread count stitched in), an article with many comments (many token holes), feeds, JSON and
error pages. Then: the shared pages were compressed once, not per request (`/metrics`);
negotiation by q-values end to end; malformed headers never make a 5xx; images and media are
never compressed; `Vary: Accept-Encoding` on every compressible response.

Prints one line per check and "encodings: N passed, N failed"; exit status 0 only when all pass.
"""
import gzip
import os
import re
import secrets
import sys
import tempfile

import brotli
import zstandard

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ops"))
from support import Results, Server, environment, front_slugs, register, run_herald  # noqa: E402

CODINGS = ("br", "zstd", "gzip")
METRICS_TOKEN = "encodings-metrics-token-0123456789"
PASSWORD = "a-long-pass-phrase-for-encodings"
COUNT = re.compile(r'^herald_compressions_total\{encoding="(\w+)",kind="(\w+)"\} (\d+)', re.M)


def decode(coding, body):
    if coding == "br":
        return brotli.decompress(body)
    if coding == "zstd":
        # One frame; stream_reader would also read frames that follow, which Herald never sends.
        return zstandard.ZstdDecompressor().decompress(body)
    if coding == "gzip":
        return gzip.decompress(body)
    return body


def get(client, path, coding=None, headers=None):
    """(status, headers dict with lower-case names, body bytes)."""
    sent = dict(headers or {})
    if coding is not None:
        sent["Accept-Encoding"] = coding
    status, _, _ = client.request("GET", path, headers=sent)
    return status, {k.lower(): v for k, v in client.last_headers}, client.last_body


def compressions(server, client):
    status, _, body = get(client, "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert status == 200, status
    return {(c, k): int(n) for c, k, n in COUNT.findall(body.decode())}


def same_as_identity(results, client, path, label):
    """Each coding, decoded, is byte for byte the identity page of the same reader."""
    for coding in CODINGS:
        status, headers, body = get(client, path, coding)
        sent = headers.get("content-encoding")
        try:
            decoded = decode(sent, body) if sent else body
            error = ""
        except Exception as e:  # noqa: BLE001
            decoded, error = b"", repr(e)
        # Asked for after the encoded copy: a first visit's new id cookie is now in the jar, so
        # both are that reader's page.
        identity_status, identity_headers, identity = get(client, path)
        results.check(
            f"{label}: {coding} ({len(body)} bytes) decodes to the identity page ({len(identity)} bytes)",
            status == identity_status and sent == coding and decoded == identity
            and "content-encoding" not in identity_headers and len(body) < len(identity),
            f"status {status}/{identity_status}, Content-Encoding {sent!r}, {error}"
            f"{first_difference(decoded, identity)}")


def first_difference(a, b):
    if a == b:
        return ""
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f" first difference at {at}: {a[at - 20:at + 40]!r} vs {b[at - 20:at + 40]!r}"


def anonymous_readers(results, server, slug):
    # A first visit: no cookie at all, so the page's token is minted for this request (and the id
    # cookie set on the compressed response).
    for coding in CODINGS:
        first = server.client()
        status, headers, body = get(first, f"/articles/{slug}", coding)
        cookie = headers.get("set-cookie", "")
        decoded = decode(headers.get("content-encoding"), body)
        identity = get(first, f"/articles/{slug}")[2]  # the same browser, its new cookie sent back
        token = re.search(rb'name="csrf_token" value="([^"]+)"', decoded)
        results.check(
            f"first visit, {coding}: the id cookie is set and the page decodes to that reader's identity page",
            status == 200 and "herald_csrf=" in cookie and headers.get("content-encoding") == coding
            and decoded == identity and token is not None,
            f"{status} {cookie!r}{first_difference(decoded, identity)}")
    returning = server.client()
    get(returning, "/")
    get(returning, f"/articles/{slug}")
    for path, label in [("/", "front page"), (f"/articles/{slug}", "article"), ("/sections/world", "section"),
                        (f"/articles/{slug}?utm=mail", "article at another address"),
                        ("/search?q=the", "search (per response)"), ("/login", "login page")]:
        same_as_identity(results, returning, path, f"anonymous, {label}")


def logged_in_readers(results, server, slug):
    # Names of several lengths (the name's hole has a fixed width), one with unread replies.
    alice_name = "al" + secrets.token_hex(1)
    alice = register(server, alice_name, PASSWORD)
    alice.username = alice_name
    long_name = register(server, "a_reader_with_a_long_name_" + secrets.token_hex(3), PASSWORD)
    bob = register(server, "bob" + secrets.token_hex(2), PASSWORD)
    # Alice comments, Bob replies: Alice has an unread reply (the header's badge, another hole).
    token = alice.token(f"/articles/{slug}")
    alice.request("POST", f"/articles/{slug}/comments", {"csrf_token": token, "body": "First, from Alice."})
    page = bob.request("GET", f"/articles/{slug}")[2]
    parent = re.search(r'name="parent" value="(\d+)"', page)
    if parent:
        bob.request("POST", f"/articles/{slug}/comments",
                    {"csrf_token": bob.token(f"/articles/{slug}"), "body": "A reply to Alice.", "parent": parent.group(1)})
    # What the posts left to show once (a flash) is shown now, so that it is in neither copy below.
    for client in (alice, bob):
        get(client, f"/articles/{slug}")
    badge = b"data-unread-count" in get(alice, "/")[2]
    results.check("the reader with a reply sees the unread badge", badge)
    for client, who in [(alice, "reader with an unread reply"), (long_name, "reader with a long name"), (bob, "reader")]:
        for path, label in [("/", "front page"), (f"/articles/{slug}", "article they commented on"),
                            ("/sections/world", "section"), ("/account", "account (per response)")]:
            same_as_identity(results, client, path, f"{who}, {label}")
    return alice


def many_comments(results, server):
    # An article with many forms (each a token hole) and enough text to pass deflate's 32 KB window.
    slugs = front_slugs(server)
    slug = slugs[-1]
    writers = [register(server, f"writer{index}x{secrets.token_hex(2)}", PASSWORD) for index in range(5)]
    for writer in writers:
        for index in range(5):
            token = writer.token(f"/articles/{slug}")
            writer.request("POST", f"/articles/{slug}/comments",
                           {"csrf_token": token, "body": f"Comment {index}: " + "words of a reader " * 30})
    reader = server.client()
    get(writers[0], f"/articles/{slug}")  # the flash of the last post, shown once
    page = get(reader, f"/articles/{slug}")[2]
    holes = page.count(b'name="csrf_token"')
    results.check(f"the commented article has many token holes ({holes}) and is over 32 KB ({len(page)})",
                  holes >= 40 and len(page) > 32 * 1024)
    same_as_identity(results, reader, f"/articles/{slug}", "anonymous, article with 25 comments")
    same_as_identity(results, writers[0], f"/articles/{slug}", "commenter, article with 25 comments (per response)")


def compressed_once(results, server, slug):
    reader = server.client()
    start = compressions(server, reader)
    get(reader, f"/articles/{slug}", "br")  # fills the page and makes its first template
    get(reader, f"/articles/{slug}", "br")  # makes it again at the strong level
    before = compressions(server, reader)
    made = {kind: before.get(("br", kind), 0) - start.get(("br", kind), 0) for kind in ("first", "shared")}
    results.check("the page's first template is made at once, its strong one by the next request",
                  made == {"first": 1, "shared": 1}, f"{made}")
    for _ in range(10):
        get(server.client(), f"/articles/{slug}", "br")  # first visits: a new token each time
    after = compressions(server, reader)
    delta = {kind: after.get(("br", kind), 0) - before.get(("br", kind), 0)
             for kind in ("first", "shared", "per_response", "from_template")}
    results.check("10 first visits to a shared article: served from its template, not compressed again",
                  delta == {"first": 0, "shared": 0, "per_response": 0, "from_template": 10}, f"{delta}")


def negotiation(results, server, slug):
    client = server.client()
    cases = [
        ("gzip, deflate, br, zstd", "br"), ("gzip, deflate, zstd", "zstd"), ("br;q=0.5, gzip;q=0.9", "gzip"),
        ("br;q=0, zstd;q=0, gzip", "gzip"), ("*", "br"), ("*;q=0.1, br;q=0", "zstd"), ("identity", None),
        ("deflate", None), ("br;q=0, zstd;q=0, gzip;q=0", None),
    ]
    for header, expected in cases:
        status, headers, body = get(client, f"/articles/{slug}", header)
        sent = headers.get("content-encoding")
        results.check(f"Accept-Encoding {header!r}: {expected or 'identity'}",
                      status == 200 and sent == expected and varies_by_encoding(headers)
                      and decode(sent, body).startswith(b"<!doctype html>"), f"{status} {sent!r}")
    for header in ["br;q=2", ";;;", "\x7f", "br;q=abc, gzip;q=", "x" * 2000, "br, " * 300, "zstd;q=0.0001"]:
        status, headers, body = get(client, f"/articles/{slug}", header)
        results.check(f"a malformed Accept-Encoding ({header[:20]!r}…) is never a 5xx",
                      status < 500 and decode(headers.get("content-encoding"), body).startswith(b"<!doctype html>"),
                      f"{status}")


def varies_by_encoding(headers) -> bool:
    """`Vary` names Accept-Encoding (pages also vary by Accept-Language: the interface's language)."""
    return "accept-encoding" in [v.strip().lower() for v in headers.get("vary", "").split(",")]


def other_responses(results, server, alice):
    client = server.client()
    same_as_identity(results, client, "/feed.atom", "the site's feed")
    same_as_identity(results, client, "/sitemap.xml", "the sitemap")
    same_as_identity(results, client, "/no-such-page-" + secrets.token_hex(4), "a 404 page")
    status, headers, body = get(alice, "/account/export", "br")
    results.check("JSON (the account export) is offered compressed when large enough, else sent as is",
                  status == 200 and varies_by_encoding(headers)
                  and (headers.get("content-encoding") == "br" or len(body) < 1024), f"{status} {headers}")
    # Images are never compressed again (they are compressed already): an editor uploads one.
    name = alice.username
    granted = run_herald(["users", "--data", server.data, "grant", name, "editor"])
    png = tiny_png()
    status, location, _ = alice.request(
        "POST", "/editor/articles",
        {"csrf_token": alice.token("/editor/articles/new"), "title": "An image " + secrets.token_hex(3),
         "section": "world", "body": "Text.", "image_alt": "A square", "action": "publish"},
        files={"image": ("square.png", "image/png", png)})
    page = get(alice, location or "/", None)[2] if location else b""
    media = re.search(rb'/media/[0-9a-f]+\.png', page)
    if media:
        status, headers, body = get(client, media.group(0).decode(), "br, zstd, gzip")
        results.check("an image from /media is never content-encoded",
                      status == 200 and "content-encoding" not in headers and body == png, f"{status} {headers}")
    else:
        results.check("an editor's upload gives an image to ask for", False,
                      f"grant {granted.returncode}, POST {status} {location}")


def tiny_png():
    """A real 40x40 PNG: four thousand bytes of noise, which no encoding would shrink."""
    import struct
    import zlib
    raw = b"".join(b"\0" + os.urandom(40 * 3) for _ in range(40))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 40, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    results = Results("encodings")
    work = tempfile.mkdtemp(prefix="herald-encodings-")
    env = environment(HERALD_METRICS_TOKEN=METRICS_TOKEN, HERALD_ACCESS_LOG="off", HERALD_COMMENTS_PER_MINUTE="100")
    with Server(os.path.join(work, "data"), env=env) as server:
        slug = front_slugs(server)[0]
        results.run(anonymous_readers, results, server, slug)
        alice = None

        def readers():
            nonlocal alice
            alice = logged_in_readers(results, server, slug)

        results.run(readers)
        results.run(many_comments, results, server)
        results.run(compressed_once, results, server, front_slugs(server)[1])
        results.run(negotiation, results, server, slug)
        if alice is not None:
            results.run(other_responses, results, server, alice)
        status = server.stop()
        results.check("the server exits 0 on SIGTERM", status == 0, f"exit {status}")
    return results.finish()


if __name__ == "__main__":
    sys.exit(main())
