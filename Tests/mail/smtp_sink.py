#!/usr/bin/env python3
"""A real SMTP server for Herald's mail tests (aiosmtpd, Debian's python3-aiosmtpd).

    python3 Tests/mail/smtp_sink.py DIR [--port N] [--auth USER:PASSWORD] [--starttls]

Listens on 127.0.0.1 (port 0 picks a free one), prints the port on a line of its own, and for
each message received writes DIR/N.eml (the message as received, after the SMTP dot-unstuffing)
and then DIR/N.json: the envelope plus what Python's `email` package reads in the message
(decoded headers, each part's decoded text, any defects) — an independent parser to check
Herald's MIME against. With --auth, AUTH is required and only those credentials are accepted;
it is offered without TLS (for tests of a client that must refuse that) unless --starttls.
With --starttls, STARTTLS is offered and required before anything else, with a certificate for
127.0.0.1 made here by openssl (DIR/cert.pem: what the client must trust). Every EHLO, STARTTLS
and AUTH command is appended to DIR/commands.log as it arrives, with whether the connection was
encrypted then ("AUTH tls", "AUTH plain"), so a test can see what a client tried, not only what
succeeded. Stops at the end of standard input, so it never outlives the test that started it.
"""

import argparse
import warnings
import asyncio
import email
import email.policy
import json
import os
import ssl
import subprocess
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword, syntax

# AUTH without TLS is what these tests want; say nothing about it.
warnings.filterwarnings("ignore")


class Sink:
    def __init__(self, directory):
        self.directory = directory
        self.count = 0
        self.logins = []

    def record(self, command, encrypted):
        with open(os.path.join(self.directory, "commands.log"), "a", encoding="utf-8") as f:
            f.write(f"{command} {'tls' if encrypted else 'plain'}\n")

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        raw = envelope.original_content
        with open(base + ".eml", "wb") as f:
            f.write(raw)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            if not part.is_multipart():
                parts[part.get_content_type()] = part.get_content()
        summary = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "logins": self.logins,
            "from": str(message["From"]),
            "to": str(message["To"]),
            "subject": str(message["Subject"]),
            "date": str(message["Date"]),
            "message_id": str(message["Message-ID"]),
            "content_type": message.get_content_type(),
            # Every header as Python reads it (decoded, unfolded): List-Unsubscribe and the like.
            "headers": {name: str(value) for name, value in message.items()},
            "parts": parts,
            "defects": [type(d).__name__ for d in message.defects]
            + [type(d).__name__ for p in message.walk() for d in p.defects],
        }
        # The .json appears last and whole: a test that sees it can read both files.
        with open(base + ".tmp", "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False)
        os.rename(base + ".tmp", base + ".json")
        return "250 OK"


class RecordingSMTP(SMTP):
    """aiosmtpd's server, noting each EHLO, STARTTLS and AUTH before answering it."""

    def note(self, command):
        self.event_handler.record(command, self._tls_protocol is not None)

    @syntax("EHLO hostname")
    async def smtp_EHLO(self, hostname):
        self.note("EHLO")
        return await super().smtp_EHLO(hostname)

    @syntax("STARTTLS", when="tls_context")
    async def smtp_STARTTLS(self, arg):
        self.note("STARTTLS")
        return await super().smtp_STARTTLS(arg)

    @syntax("AUTH <mechanism>")
    async def smtp_AUTH(self, arg):
        self.note("AUTH")
        return await super().smtp_AUTH(arg)


def tls_context(directory):
    """A server context with a new self-signed certificate for 127.0.0.1 (DIR/cert.pem)."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--auth")
    parser.add_argument("--starttls", action="store_true")
    arguments = parser.parse_args()
    sink = Sink(arguments.directory)

    options = {}
    if arguments.starttls:
        options.update(tls_context=tls_context(arguments.directory), require_starttls=True)
    if arguments.auth:
        user, _, password = arguments.auth.partition(":")

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password
            if ok:
                sink.logins.append({"mechanism": mechanism, "login": user})
            return AuthResult(success=ok)

        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=arguments.starttls)

    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: RecordingSMTP(sink, hostname="sink.test", **options), host="127.0.0.1", port=arguments.port
    )
    print(server.sockets[0].getsockname()[1], flush=True)

    stdin_closed = loop.create_future()

    def watch_stdin():
        sys.stdin.buffer.read()
        loop.call_soon_threadsafe(stdin_closed.set_result, None)

    loop.run_in_executor(None, watch_stdin)
    await stdin_closed
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
