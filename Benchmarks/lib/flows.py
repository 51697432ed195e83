#!/usr/bin/env python3
"""Multi-step load for Herald benchmarks (loopback only, bounded in time).

  flows.py flow  BASE SECONDS THREADS    anonymous like -> login -> liked article; prints flows/s
  flows.py login BASE SECONDS THREADS    logs in continuously (argon2id each time); prints logins/s

Each thread uses its own account (created first) and keeps its own cookie jar. BASE may be
https://…: the certificate is verified against HERALD_CA_FILE when set (scripts/cluster.sh's
DIR/conf/herald-cert.pem), else against the system's certificates.
"""
import functools
import http.client
import os
import re
import secrets
import ssl
import sys
import threading
import time
import urllib.parse

TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')
ARTICLE = re.compile(r'href="(/articles/[^"]+)"')


def multipart(fields, files):
    """A multipart/form-data body: `fields` a dict or (name, value) pairs, `files` a dict of
    name -> (filename, content type, bytes). Returns (body bytes, Content-Type header)."""
    boundary = "----herald" + secrets.token_hex(16)
    parts = []
    for name, value in (fields.items() if isinstance(fields, dict) else fields):
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                     + str(value).encode("utf-8") + b"\r\n")
    for name, (filename, content_type, data) in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f"Content-Type: {content_type}\r\n\r\n".encode() + bytes(data) + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


@functools.lru_cache(maxsize=None)
def tls_context(cafile=None):
    """What an HTTPS Client verifies the server against: `cafile` (a PEM certificate, e.g. the
    cluster's self-signed one), else the system's certificates. One context per file, shared."""
    return ssl.create_default_context(cafile=cafile)


class Client:
    def __init__(self, host, port, scheme="http", context=None):
        """A browser talking to host:port; with scheme "https", over TLS verified with `context`
        (an ssl.SSLContext; default: tls_context(HERALD_CA_FILE))."""
        self.host, self.port, self.scheme = host, port, scheme
        self.context = context if context is not None or scheme != "https" \
            else tls_context(os.environ.get("HERALD_CA_FILE") or None)
        self.cookies = {}
        self.conn = self._connect()
        # The last response's headers (name, value) and undecoded body, for images and caching headers.
        self.last_headers, self.last_body = [], b""

    @classmethod
    def for_url(cls, url, context=None):
        """A Client for `url`'s scheme, host and port (its path is ignored)."""
        parsed = urllib.parse.urlparse(url)
        return cls(parsed.hostname, parsed.port or (443 if parsed.scheme == "https" else 80), parsed.scheme, context)

    def _connect(self):
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=30, context=self.context)
        return http.client.HTTPConnection(self.host, self.port, timeout=30)

    def request(self, method, path, form=None, files=None, headers=None):
        """(status, Location, body text). `form` goes urlencoded, or with `files` (see multipart)
        as multipart/form-data; `headers` are sent as given."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if files is not None:
            body, headers["Content-Type"] = multipart(form or {}, files)
        elif form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            self.conn = self._connect()
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        raw = response.read()
        self.last_headers, self.last_body = response.getheaders(), raw
        text = raw.decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                if "Max-Age=0" in value:
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val
        return response.status, response.getheader("Location"), text

    def header(self, name):
        """A header of the last response (the first of that name), or None."""
        return next((v for k, v in self.last_headers if k.lower() == name.lower()), None)

    def token(self, path):
        return TOKEN.search(self.request("GET", path)[2]).group(1)


def main():
    mode, base, seconds, threads = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    articles = ARTICLE.findall(Client.for_url(base).request("GET", "/")[2])
    counts = [0] * threads
    errors = []
    password = "bench-pass-phrase-1"

    def worker(index):
        name = f"bench{index}x{int(time.time() * 1000) % 100000}"
        setup = Client.for_url(base)
        status, _, _ = setup.request("POST", "/register", {"csrf_token": setup.token("/register"),
                                                          "username": name, "password": password})
        if status != 303:
            errors.append(f"register {status}")
            return
        deadline = time.time() + seconds
        n = 0
        while time.time() < deadline:
            client = Client.for_url(base)
            if mode == "flow":
                article = articles[n % len(articles)]
                token = client.token(article)
                status, location, _ = client.request("POST", article + "/like", {"csrf_token": token})
                if status != 303 or location != "/login":
                    errors.append(f"like {status}")
                    continue
                token = client.token("/login")
                status, location, _ = client.request(
                    "POST", "/login", {"csrf_token": token, "username": name, "password": password})
                if status != 303 or location != article:
                    errors.append(f"login {status} {location}")
                    continue
                page = client.request("GET", article)[2]
                if "You liked" not in page:
                    errors.append("not liked")
                    continue
                # Unlike again so the next round performs a real like.
                token = TOKEN.search(page).group(1)
                client.request("POST", article + "/unlike", {"csrf_token": token})
            else:
                token = client.token("/login")
                status, _, _ = client.request(
                    "POST", "/login", {"csrf_token": token, "username": name, "password": password})
                if status != 303:
                    errors.append(f"login {status}")
                    continue
            n += 1
            counts[index] = n

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    started = time.time()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.time() - started
    print(f"{sum(counts) / max(elapsed, 0.001):.1f} {len(errors)}")
    if errors:
        print("errors:", errors[:5], file=sys.stderr)


if __name__ == "__main__":
    main()
