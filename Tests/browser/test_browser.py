#!/usr/bin/env python3
"""Real-browser end-to-end test of Herald's "like that survives login" and of its newsroom.

Starts `herald serve --port 0` on a fresh data directory, drives headless Chromium (Debian's
chromium + chromium-driver, through Selenium) through the steps below, then stops the server
with SIGTERM and checks that it exits 0. JavaScript is switched off in the browser: every step
works with plain links and forms. The only script a page may carry is Herald's own file from
/static/ (SPEC "Discovery"), never inline script. A real browser sends
`Sec-Fetch-Site` with each POST, the path of Herald's cross-site check that curl and the Swift
tests do not take; every form submission here checks, in Chromium's network log, that exactly
one POST went out with `Sec-Fetch-Site: same-origin`.

  1. An anonymous reader opens the first article, clicks Like, is sent to log in (the page says
     what is pending), follows the link to register (which offers to create an account to like it,
     and to "Cancel the like"), registers, and lands on the article, liked, with the count at 1.
  2. They log out with the header's button and are anonymous again on the front page.
  3. Anonymous again, they like another article, log in with the account from step 1, and land
     on that article, liked, with the count at 1.
  4. The account is made an editor on the command line (`herald users --data DIR grant NAME
     editor`, on the server's database while it serves). From Account → Open the newsroom → Write
     a new article they fill the real form — Markdown with a table and a link, and a PNG chosen in
     the file input — and press Publish (a multipart POST): the edit page says "Published", shows
     the state and a preview with the table and the link; its link leads to the article page,
     which shows the table, the link and the image with its width and height (and the browser
     loaded it from /media/). Screenshots: editor-js-off.png, article-js-off.png.
  5. The same in a second browser with JavaScript switched on (it logs in first): nothing on the
     way needs script, and nothing changes when the browser could run it. Screenshots:
     editor-js-on.png, article-js-on.png.
  6. Likes and comments in place, in a third browser with JavaScript on (SPEC "Discovery"): an
     anonymous Like still goes to /login the ordinary way and is performed after logging in; then,
     logged in, on another article, Like, Unlike, a comment and an empty comment all happen
     without a page load (a marker set on `window` survives, and exactly one POST goes out each
     time): the count and the button change, the comment appears in the list and the textarea is
     emptied, the error appears in the comment form. A reload shows what the server kept.
     Screenshots inplace-*-1280.png and inplace-*-390.png.
  7. The same actions with JavaScript off, each a full page load (a flash, the 422 page with its
     message), and a search from the header's box. Screenshots reload-*-1280.png, -390.png.
  8. The look of the main pages (Tests/browser/look.py, issue #32): front, article, account, desk,
     editor, moderation, a 404, login and register, each at 1280 and 390 px, light and dark —
     a screenshot of each (look-*.png), the header's height on a phone (≤ 20 % of the screen),
     the unread badge's contrast (≥ 4.5:1), the heading order, and axe-core on every view.
  9. Chromium asks for br, zstd and gzip in turn and decodes them itself: logged in, on a first
     visit and returning, what it decoded is byte for byte the identity page of the same reader.
 10. A second Chromium started with --lang=zh-TW (and zh-TW first in intl.accept_languages) opens
     the front page and an article at 390 px: `<html lang="zh-Hant">`, the header, the heading and
     the like button in Chinese. Screenshots lang-zh-TW-front-390.png, lang-zh-TW-article-390.png.

Run it with scripts/browser-test.sh, which installs what it needs. It prints one line per step
and a last line "N passed, N failed" (", N skipped" when an earlier step failed); the exit
status is 0 only when every step passed and the server exited 0.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import secrets
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

import look

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
STARTUP_SECONDS = 60  # a new database is filled with the demo articles first
PAGE_SECONDS = 20
STOP_SECONDS = 20
LISTENING = re.compile(r"^listening on (http://127\.0\.0\.1:(\d+))$")


class StepFailed(AssertionError):
    pass


class Terminated(Exception):
    """SIGTERM (from `timeout`, say): stop, but still quit the browser and stop the server."""


def on_sigterm(signum, frame):
    raise Terminated("terminated by SIGTERM (time limit?)")


def check(condition: bool, message: str) -> None:
    if not condition:
        raise StepFailed(message)


# --- the server ---------------------------------------------------------------------------


class Server:
    """`herald serve --port 0` on a temporary data directory, stderr kept in a file."""

    def __init__(self, herald: Path, root: Path, data: Path, log: Path):
        env = {k: v for k, v in os.environ.items() if not k.startswith("HERALD_")}
        env.update(HERALD_PASSWORD_COST="minimum", HERALD_ACCESS_LOG="off")
        self.log_path = log
        self._log = open(log, "wb")
        self.process = subprocess.Popen(
            [str(herald), "serve", "--port", "0", "--data", str(data), "--root", str(root)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )
        self.base_url = self._read_listening_line()
        # Keep reading stdout so the server can never block on a full pipe.
        self._drain = threading.Thread(target=self._discard_stdout, daemon=True)
        self._drain.start()

    def _read_listening_line(self) -> str:
        assert self.process.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + STARTUP_SECONDS
        line = b""
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                self.kill()
                raise RuntimeError(f"herald printed no listening line within {STARTUP_SECONDS}s\n{self.log_tail()}")
            chunk = os.read(self.process.stdout.fileno(), 1)
            if not chunk:
                code = self.process.wait()
                raise RuntimeError(f"herald exited with status {code} before listening\n{self.log_tail()}")
            line += chunk
        selector.close()
        text = line.decode().strip()
        match = LISTENING.match(text)
        if not match:
            self.kill()
            raise RuntimeError(f"unexpected first stdout line from herald: {text!r}")
        return match.group(1)

    def _discard_stdout(self) -> None:
        assert self.process.stdout is not None
        while self.process.stdout.read(4096):
            pass

    def stop(self) -> int:
        """SIGTERM, then the exit status (SIGKILL and -9 after STOP_SECONDS)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()
        return self.process.returncode

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log_tail(self, lines: int = 30) -> str:
        self._log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        return "herald stderr (last lines):\n" + "\n".join("  " + l for l in text[-lines:])


# --- the browser --------------------------------------------------------------------------


def start_browser(log: Path, javascript: bool = False, language: str = "en-US") -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1280,1000",
        "--disable-dev-shm-usage",
        "--no-first-run",
        f"--lang={language}",
    ):
        options.add_argument(argument)
    # No step may rely on JavaScript: switch it off for every page (step 5 turns it on, to see that
    # nothing changes when the browser could run script). The accepted languages are set as the
    # profile's own too: --lang alone does not always reach Accept-Language in headless Chromium.
    options.add_experimental_option(
        "prefs", {
            "profile.managed_default_content_settings.javascript": 1 if javascript else 2,
            "intl.accept_languages": language if language == "en-US" else f"{language},zh,en-US,en",
        }
    )
    # Chromium's network log, to see the headers it really sends (Sec-Fetch-Site).
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    service = Service(executable_path=CHROMEDRIVER, log_output=str(log))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(PAGE_SECONDS)
    return driver


@dataclass
class Session:
    """What the steps share: the browser, the server's address and the account made in step 1."""

    driver: webdriver.Chrome
    base_url: str
    screenshots: Path
    username: str = field(default_factory=lambda: "reader" + secrets.token_hex(4))
    password: str = field(default_factory=lambda: "browser-pass-" + secrets.token_hex(6))
    liked_slugs: list[str] = field(default_factory=list)
    # What the newsroom steps need: the binary (for `herald users`), the server's data directory,
    # a scratch directory (the image to upload, the second browser's log).
    herald: Path | None = None
    data: Path | None = None
    work: Path | None = None

    # Navigation. Every click that submits a form or follows a link waits for the old page to
    # go and the new one to load; nothing here runs script in the page.

    def wait(self) -> WebDriverWait:
        return WebDriverWait(self.driver, PAGE_SECONDS)

    def open(self, path: str) -> None:
        self.driver.get(self.base_url + path)
        self.assert_no_script()

    def click_and_load(self, target: WebElement | str, post: bool = False) -> None:
        """Click, wait for the next page. With `post`, the click submits a form: check that
        exactly one POST went out, carrying `Sec-Fetch-Site: same-origin` as a real browser's.

        `target` may be a CSS selector, found right before the click: Chromium can renumber a
        page's nodes (after a full-page screenshot, say), and an element found earlier then
        "does not belong to the document". Nothing is clicked until the element is found."""
        if post:
            self.posts_sent()  # forget earlier requests
        for attempt in range(3):
            try:
                page = self.driver.find_element(By.TAG_NAME, "html")
                element = self.one(target) if isinstance(target, str) else target
                break
            except WebDriverException:
                if attempt == 2 or not isinstance(target, str):
                    raise
                time.sleep(0.2)
        element.click()

        def left(_driver: webdriver.Chrome) -> bool:
            # The old page is gone once its root is stale. Chromium sometimes says so with
            # "Node … does not belong to the document" instead of StaleElementReference.
            try:
                page.is_enabled()
                return False
            except WebDriverException:
                return True

        self.wait().until(left)
        self.wait().until(lambda d: d.find_elements(By.CSS_SELECTOR, "footer.site-footer"))
        self.assert_no_script()
        if post:
            posts = self.posts_sent()
            check(len(posts) == 1, f"expected one POST from the click, Chromium sent {posts}")
            url, site = posts[0]
            check(site == "same-origin", f"the POST to {url} carried Sec-Fetch-Site {site!r}, expected 'same-origin'")

    def click_and_load_by_enter(self, field: WebElement) -> None:
        """Press Enter in `field` (a GET form's only field) and wait for the next page."""
        page = self.driver.find_element(By.TAG_NAME, "html")
        field.send_keys("\n")

        def left(_driver: webdriver.Chrome) -> bool:
            try:
                page.is_enabled()
                return False
            except WebDriverException:
                return True

        self.wait().until(left)
        self.wait().until(lambda d: d.find_elements(By.CSS_SELECTOR, "footer.site-footer"))
        self.assert_no_script()

    def posts_sent(self) -> list[tuple[str, str | None]]:
        """(URL, Sec-Fetch-Site) of each POST since the last call, from Chromium's network log.
        `requestWillBeSentExtraInfo` has the headers as sent; a redirect reuses the request id,
        so the first such event of an id belongs to the POST itself."""
        posts: dict[str, str] = {}
        sites: dict[str, str | None] = {}
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent":
                if params["request"]["method"] == "POST":
                    posts.setdefault(params["requestId"], params["request"]["url"])
            elif message.get("method") == "Network.requestWillBeSentExtraInfo":
                headers = {name.lower(): value for name, value in params.get("headers", {}).items()}
                sites.setdefault(params["requestId"], headers.get("sec-fetch-site"))
        return [(url, sites.get(request_id)) for request_id, url in posts.items()]

    def path(self) -> str:
        return urlsplit(self.driver.current_url).path

    def one(self, css: str) -> WebElement:
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        check(len(found) >= 1, f"no element matches {css!r} on {self.driver.current_url}")
        return found[0]

    def assert_no_script(self) -> None:
        """No inline script, and no script but Herald's own file from /static/ on this site."""
        for script in self.driver.find_elements(By.TAG_NAME, "script"):
            src = script.get_dom_attribute("src") or ""
            check(src.startswith("/static/"), f"{self.driver.current_url} has a <script> with src {src!r}")
            inline = (script.get_property("text") or "").strip()
            check(not inline, f"{self.driver.current_url} has inline script {inline[:60]!r}")

    def screenshot(self, name: str, full_page: bool = False) -> None:
        """The viewport, or with `full_page` the whole page (through DevTools, not page script)."""
        path = self.screenshots / name
        if not full_page:
            check(self.driver.save_screenshot(str(path)), f"could not save {path}")
            return
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 8000), "scale": 1}
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True}
        )
        path.write_bytes(base64.b64decode(shot["data"]))

    # The pieces of the flow.

    def open_article_from_front(self, avoid: list[str]) -> tuple[str, str]:
        """From the front page, click the first article title whose slug is not in `avoid`."""
        self.open("/")
        links = self.driver.find_elements(By.CSS_SELECTOR, "h2.story-title a")
        check(len(links) >= 2, f"the front page lists {len(links)} article(s), expected the demo articles")
        for link in links:
            slug = urlsplit(link.get_attribute("href")).path.rsplit("/", 1)[-1]
            if slug not in avoid:
                title = link.text.strip()
                check(title != "", f"the link to {slug} has no text")
                self.click_and_load(link)
                check(self.path() == f"/articles/{slug}", f"clicking {title!r} led to {self.driver.current_url}")
                check(self.one("article.article h1").text.strip() == title, f"the article page is not titled {title!r}")
                return slug, title
        raise StepFailed("no article left to like on the front page")

    def click_like_anonymously(self, title: str) -> None:
        check(not self.is_signed_in(), "expected an anonymous reader")
        self.click_and_load('form.like-form[action$="/like"] button[type="submit"]', post=True)
        check(self.path() == "/login", f"Like while logged out led to {self.driver.current_url}, not /login")
        pending = self.one('.pending[role="note"]').text
        expected = f"Log in to like “{title}”"
        check(expected in pending, f"the login page says {pending!r}, expected it to contain {expected!r}")

    def fill_account_form(self, action: str, button_text: str) -> None:
        form = self.one(f'main form[action="{action}"]')
        username = form.find_element(By.NAME, "username")
        username.clear()
        username.send_keys(self.username)
        form.find_element(By.NAME, "password").send_keys(self.password)
        button = form.find_element(By.CSS_SELECTOR, 'button[type="submit"]')
        check(button.text.strip() == button_text, f"the {action} button says {button.text!r}")
        self.click_and_load(button, post=True)

    def assert_liked(self, slug: str, title: str) -> None:
        check(self.path() == f"/articles/{slug}", f"expected /articles/{slug}, landed on {self.driver.current_url}{self.errors_on_page()}")
        status = self.one('[role="status"]').text.strip()
        check(status.startswith("You liked"), f"the status message is {status!r}, expected 'You liked …'")
        check(title in status, f"the status message {status!r} does not name {title!r}")
        count = self.one("article.article [data-like-count]")
        check(count.text.strip() == "1", f"the like count shows {count.text!r}, expected 1")
        check(count.get_attribute("data-like-count") == "1", "data-like-count is not 1")
        forms = self.driver.find_elements(By.CSS_SELECTOR, "form.like-form")
        check(len(forms) == 1, f"expected one like form, found {len(forms)}")
        action = forms[0].get_attribute("action") or ""
        check(action.endswith("/unlike"), f"the like form's action is {action!r}, expected …/unlike")
        check(self.is_signed_in(), "the header does not show the reader as signed in")

    def is_signed_in(self) -> bool:
        return bool(self.driver.find_elements(By.CSS_SELECTOR, 'header .account form[action="/logout"]'))

    def errors_on_page(self) -> str:
        errors = self.driver.find_elements(By.CSS_SELECTOR, '[role="alert"], h1')
        return "".join(f"\n  page says: {e.text.strip()!r}" for e in errors if e.text.strip())


# --- the steps ----------------------------------------------------------------------------


def step_like_then_register(s: Session) -> None:
    slug, title = s.open_article_from_front(avoid=[])
    s.click_like_anonymously(title)
    s.screenshot("login-pending.png")

    register = s.one('main section.form-page a[href^="/register"]')
    check(register.text.strip() == "Register", f"the link to register says {register.text!r}")
    s.click_and_load(register)
    check(s.path() == "/register", f"the register link led to {s.driver.current_url}")
    pending = s.one('.pending[role="note"]').text
    check(f"Create an account to like “{title}”" in pending, f"the register page says {pending!r}")
    cancel = s.one('.pending[role="note"] button').text.strip()
    check(cancel == "Cancel the like", f"the cancel button says {cancel!r}")

    s.fill_account_form("/register", "Create account")
    s.assert_liked(slug, title)
    check(s.username in s.one("header .account .reader").text, "the header does not name the new account")
    s.screenshot("article-liked.png", full_page=True)
    s.liked_slugs.append(slug)


def step_log_out(s: Session) -> None:
    check(s.is_signed_in(), "expected to be signed in after step 1")
    s.click_and_load('header .account form[action="/logout"] button[type="submit"]', post=True)
    check(s.path() == "/", f"logging out led to {s.driver.current_url}, not the front page")
    check(not s.is_signed_in(), "the header still offers Log out")
    log_in = s.driver.find_elements(By.CSS_SELECTOR, 'header .account a[href^="/login"]')
    check(len(log_in) == 1 and log_in[0].text.strip() == "Log in", "the header does not show 'Log in'")
    check(s.driver.find_elements(By.CSS_SELECTOR, "h2.story-title a"), "the front page lists no articles")
    s.screenshot("front.png")


def step_like_then_log_in(s: Session) -> None:
    check(s.liked_slugs, "step 1 liked nothing")
    slug, title = s.open_article_from_front(avoid=s.liked_slugs)
    s.click_like_anonymously(title)
    s.fill_account_form("/login", "Log in")
    s.assert_liked(slug, title)
    s.liked_slugs.append(slug)


def tiny_png(width: int, height: int) -> bytes:
    """A valid RGB PNG (IHDR, IDAT, IEND with correct CRCs): a gradient, made here."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 160))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


IMAGE_SIZE = (240, 160)
SECTION, SECTION_SLUG = "World News", "world-news"
LINK = "https://example.com/timetables"
ALT = "A colour gradient"


def grant_editor(s: Session) -> None:
    """`herald users --data DIR grant NAME editor` on the running server's database."""
    grant_role(s, s.username, "editor")


def grant_role(s: Session, username: str, role: str) -> None:
    """`herald users --data DIR grant NAME ROLE` on the running server's database."""
    assert s.herald is not None and s.data is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERALD_")}
    done = subprocess.run(
        [str(s.herald), "users", "--data", str(s.data), "grant", username, role],
        env=env, capture_output=True, text=True, timeout=60,
    )
    check(done.returncode == 0 and role in done.stdout,
          f"herald users grant exited {done.returncode}: {done.stdout.strip()} {done.stderr.strip()}")


def write_and_publish(s: Session, label: str) -> None:
    """Account → newsroom → new article; fill the form (a table, a link, an image); Publish; check
    the edit page and the article page, with screenshots editor-LABEL.png and article-LABEL.png."""
    assert s.work is not None
    title = f"Ferries sail again ({label})"
    image = s.work / f"lead-{label}.png"
    image.write_bytes(tiny_png(*IMAGE_SIZE))

    s.open("/account")
    s.click_and_load('a[href="/editor"]')
    check(s.path() == "/editor", f"Open the newsroom led to {s.driver.current_url}{s.errors_on_page()}")
    s.click_and_load('a[href="/editor/articles/new"]')
    check(s.path() == "/editor/articles/new", f"Write a new article led to {s.driver.current_url}")
    form = s.one('form.article-form[method="post"][action="/editor/articles"]')
    check(form.get_attribute("enctype") == "multipart/form-data", "the article form is not multipart/form-data")
    body = (
        "The harbour reopened at dawn after three days of storms.\n\n"
        "| Route | Sailings |\n"
        "|-------|---------:|\n"
        "| North | 4 |\n"
        "| South | 2 |\n\n"
        f"The new timetable is at [the harbour office]({LINK}).\n"
    )
    for name, value in (("title", title), ("summary", "Services resume on both routes."),
                        ("section", SECTION), ("body", body), ("image_alt", ALT)):
        form.find_element(By.NAME, name).send_keys(value)
    form.find_element(By.CSS_SELECTOR, 'input[type="file"][name="image"]').send_keys(str(image))
    s.click_and_load('form.article-form button[name="action"][value="publish"]', post=True)

    check(re.fullmatch(r"/editor/articles/\d+", s.path()) is not None,
          f"Publish led to {s.driver.current_url}{s.errors_on_page()}")
    flash = s.one('p.flash[role="status"]').text.strip()
    check(flash.startswith("Published"), f"the flash says {flash!r}, expected 'Published…'")
    state = s.one("[data-article-state]").get_attribute("data-article-state")
    check(state == "published", f"the edit page's state is {state!r}")
    preview = s.one("section.preview[data-preview]")
    headers = [th.text.strip() for th in preview.find_elements(By.CSS_SELECTOR, "table th")]
    check(headers == ["Route", "Sailings"], f"the preview's table headers are {headers}")
    check(preview.find_elements(By.CSS_SELECTOR, f'a[href="{LINK}"]'), "the preview lacks the link")
    current = s.one("figure.current-image img")
    check((current.get_dom_attribute("width"), current.get_dom_attribute("height")) == tuple(map(str, IMAGE_SIZE)),
          "the edit page's image lacks its width and height")
    s.screenshot(f"editor-{label}.png", full_page=True)

    s.click_and_load('.article-state a[href^="/articles/"]')
    check(s.path().startswith("/articles/"), f"the article link led to {s.driver.current_url}")
    check(s.one("article.article h1").text.strip() == title, "the article page has another title")
    kicker = s.one("article.article .kicker a")
    check(urlsplit(kicker.get_attribute("href")).path == f"/sections/{SECTION_SLUG}",
          f"the section links to {kicker.get_attribute('href')}")
    cells = [td.text.strip() for td in s.driver.find_elements(By.CSS_SELECTOR, "article.article .article-body table td")]
    check(cells == ["North", "4", "South", "2"], f"the article's table cells are {cells}")
    link = s.driver.find_elements(By.CSS_SELECTOR, f'article.article .article-body a[href="{LINK}"]')
    check(link and link[0].text.strip() == "the harbour office", "the article lacks the link")
    img = s.one("article.article figure.lead-image img")
    src = urlsplit(img.get_attribute("src")).path
    check(re.fullmatch(r"/media/[0-9a-f]{64}\.png", src) is not None, f"the image's src is {src}")
    check((img.get_dom_attribute("width"), img.get_dom_attribute("height")) == tuple(map(str, IMAGE_SIZE)),
          f"the image says width={img.get_dom_attribute('width')} height={img.get_dom_attribute('height')}")
    check(img.get_attribute("alt") == ALT, f"the image's alt is {img.get_attribute('alt')!r}")
    loaded = s.wait().until(lambda d: img.get_property("complete")) and img.get_property("naturalWidth")
    check(loaded == IMAGE_SIZE[0], f"the browser did not load the image from {src} (naturalWidth {loaded})")
    s.screenshot(f"article-{label}.png", full_page=True)


def javascript_runs(driver: webdriver.Chrome) -> bool:
    """Whether this browser runs a page's script: a data: page that retitles itself."""
    driver.get("data:text/html," + quote("<title>off</title><script>document.title = 'on'</script>"))
    return driver.title == "on"


def step_newsroom_without_javascript(s: Session) -> None:
    check(s.is_signed_in(), "expected to be signed in after step 3")
    check(not javascript_runs(s.driver), "this browser runs script, but should not")
    grant_editor(s)
    write_and_publish(s, "js-off")


def step_newsroom_with_javascript(s: Session) -> None:
    assert s.work is not None
    driver = start_browser(s.work / "chromedriver-js.log", javascript=True)
    try:
        check(javascript_runs(driver), "the second browser does not run script")
        other = Session(driver, s.base_url, s.screenshots, username=s.username, password=s.password,
                        herald=s.herald, data=s.data, work=s.work)
        other.open("/login")
        other.fill_account_form("/login", "Log in")
        check(other.is_signed_in(), f"logging in led to {driver.current_url}{other.errors_on_page()}")
        try:
            write_and_publish(other, "js-on")
        except (AssertionError, WebDriverException):
            try:
                driver.save_screenshot(str(s.screenshots / "failed-js-on.png"))
            except WebDriverException:
                pass
            raise
    finally:
        driver.quit()


# --- likes and comments in place (SPEC "Discovery") ---------------------------------------

WIDTHS = (1280, 390)


def screenshots_at_widths(s: Session, name: str) -> None:
    """`name`-1280.png and `name`-390.png: the whole page at a desktop's and a phone's width."""
    try:
        for width in WIDTHS:
            # Through DevTools: a window cannot be made as narrow as a phone everywhere.
            s.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": width < 600})
            s.screenshot(f"{name}-{width}.png", full_page=True)
    finally:
        s.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def like_count(s: Session) -> int:
    count = s.one("article.article [data-like-count]")
    text, attribute = count.text.strip(), count.get_attribute("data-like-count")
    check(text == attribute, f"the count shows {text!r} but data-like-count is {attribute!r}")
    return int(text)


def like_form_action(s: Session) -> str:
    forms = s.driver.find_elements(By.CSS_SELECTOR, "form.like-form")
    check(len(forms) == 1, f"expected one like form, found {len(forms)}")
    return forms[0].get_attribute("action") or ""


class StaysOnPage:
    """Proves an action happened without a page load: a marker set on `window` and the page's
    root element must both survive it, and exactly one POST (same-origin) must go out to `path`."""

    def __init__(self, s: Session, path: str):
        self.s, self.path = s, path
        self.marker = secrets.token_hex(6)

    def __enter__(self) -> "StaysOnPage":
        self.s.posts_sent()  # forget earlier requests
        self.root = self.s.driver.find_element(By.TAG_NAME, "html")
        self.s.driver.execute_script("window.__heraldStay = arguments[0];", self.marker)
        return self

    def __exit__(self, kind, value, trace) -> None:
        if kind is not None:
            return
        stayed = self.s.driver.execute_script("return window.__heraldStay || null;")
        check(stayed == self.marker, f"the page was reloaded (the marker on window is {stayed!r})")
        try:
            self.root.is_enabled()
        except WebDriverException:
            raise StepFailed("the page was replaced (its root element is gone)")
        posts = self.s.posts_sent()
        check(len(posts) == 1, f"expected one POST, Chromium sent {posts}")
        url, site = posts[0]
        check(urlsplit(url).path == self.path, f"the POST went to {url}, expected {self.path}")
        check(site == "same-origin", f"the POST to {url} carried Sec-Fetch-Site {site!r}")


def comment_items_with(s: Session, text: str) -> list[WebElement]:
    return [li for li in s.driver.find_elements(By.CSS_SELECTOR, 'ol.comment-list > li[id^="comment-"]')
            if text in li.text]


def step_in_place_with_javascript(s: Session) -> None:
    assert s.work is not None
    driver = start_browser(s.work / "chromedriver-inplace.log", javascript=True)
    try:
        check(javascript_runs(driver), "the third browser does not run script")
        other = Session(driver, s.base_url, s.screenshots, username=s.username, password=s.password,
                        herald=s.herald, data=s.data, work=s.work)
        try:
            in_place(other, s)
        except (AssertionError, WebDriverException):
            try:
                driver.save_screenshot(str(s.screenshots / "failed-inplace.png"))
            except WebDriverException:
                pass
            raise
    finally:
        driver.quit()


def in_place(s: Session, first: Session) -> None:
    # Anonymous, with script on: the Like is an ordinary form post, to /login, resumed after it.
    slug, title = s.open_article_from_front(avoid=first.liked_slugs)
    s.click_like_anonymously(title)
    s.fill_account_form("/login", "Log in")
    s.assert_liked(slug, title)
    first.liked_slugs.append(slug)

    # Logged in: another article, and every action in place.
    slug, title = s.open_article_from_front(avoid=first.liked_slugs)
    wait = s.wait()
    before = like_count(s)
    check(like_form_action(s).endswith(f"/articles/{slug}/like"), "expected the Like form")
    with StaysOnPage(s, f"/articles/{slug}/like"):
        s.one("form.like-form button[type=submit]").click()
        wait.until(lambda d: like_form_action(s).endswith("/unlike"))
        check(like_count(s) == before + 1, f"the count shows {like_count(s)}, expected {before + 1}")
        button = s.one("form.like-form button[type=submit]").text.strip()
        check("Unlike" in button, f"the button says {button!r} after liking")
    screenshots_at_widths(s, "inplace-liked")

    with StaysOnPage(s, f"/articles/{slug}/unlike"):
        s.one("form.like-form button[type=submit]").click()
        wait.until(lambda d: like_form_action(s).endswith(f"/articles/{slug}/like"))
        check(like_count(s) == before, f"the count shows {like_count(s)} after unliking, expected {before}")
        button = s.one("form.like-form button[type=submit]").text.strip()
        check("Like" in button and "Unlike" not in button, f"the button says {button!r} after unliking")
    screenshots_at_widths(s, "inplace-unliked")

    text = f"Posted in place, without a reload ({secrets.token_hex(3)})."
    s.one("form#comment-form textarea[name=body]").send_keys(text)
    with StaysOnPage(s, f"/articles/{slug}/comments"):
        s.one("form#comment-form button[type=submit]").click()
        wait.until(lambda d: comment_items_with(s, text))
        items = comment_items_with(s, text)
        check(len(items) == 1, f"the comment appears {len(items)} times")
        check(s.username in items[0].text, "the new comment does not show its author")
        value = s.one("form#comment-form textarea[name=body]").get_property("value")
        check(value == "", f"the textarea still holds {value!r}")
    screenshots_at_widths(s, "inplace-commented")

    with StaysOnPage(s, f"/articles/{slug}/comments"):
        s.one("form#comment-form button[type=submit]").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'form#comment-form [role="alert"]'))
        error = s.one('form#comment-form [role="alert"]').text.strip()
        check("empty" in error.lower(), f"the error next to the form says {error!r}")
        check(len(comment_items_with(s, text)) == 1, "the empty comment changed the list")
    screenshots_at_widths(s, "inplace-comment-error")

    # What the server kept: a reload shows the same.
    s.driver.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "footer.site-footer"))
    check(like_count(s) == before, f"after a reload the count is {like_count(s)}, expected {before}")
    check(like_form_action(s).endswith("/like"), "after a reload the article is liked")
    check(len(comment_items_with(s, text)) == 1, "after a reload the comment is not there once")


def step_reloads_without_javascript(s: Session) -> None:
    check(s.is_signed_in(), "expected to be signed in")
    check(not javascript_runs(s.driver), "this browser runs script, but should not")
    slug, title = s.open_article_from_front(avoid=s.liked_slugs)
    before = like_count(s)

    s.click_and_load('form.like-form button[type="submit"]', post=True)
    check(s.path() == f"/articles/{slug}", f"Like led to {s.driver.current_url}")
    status = s.one('[role="status"]').text.strip()
    check(status.startswith("You liked"), f"the status message is {status!r}")
    check(like_count(s) == before + 1 and like_form_action(s).endswith("/unlike"), "the article is not liked")
    screenshots_at_widths(s, "reload-liked")

    s.click_and_load('form.like-form button[type="submit"]', post=True)
    status = s.one('[role="status"]').text.strip()
    check(status.startswith("You no longer like"), f"the status message is {status!r}")
    check(like_count(s) == before and like_form_action(s).endswith("/like"), "the article is still liked")
    screenshots_at_widths(s, "reload-unliked")

    text = f"Posted with a full page load ({secrets.token_hex(3)})."
    s.one("form#comment-form textarea[name=body]").send_keys(text)
    s.click_and_load("form#comment-form button[type=submit]", post=True)
    check(s.path() == f"/articles/{slug}", f"the comment led to {s.driver.current_url}")
    check(re.fullmatch(r"#comment-\d+", "#" + (urlsplit(s.driver.current_url).fragment or "")) is not None,
          f"the comment did not land on its anchor: {s.driver.current_url}")
    check(len(comment_items_with(s, text)) == 1, "the comment is not on the page once")
    screenshots_at_widths(s, "reload-commented")

    s.click_and_load("form#comment-form button[type=submit]", post=True)
    error = s.one("form#comment-form #comment-error").text.strip()
    check("empty" in error.lower(), f"the 422 page says {error!r}")
    check(len(comment_items_with(s, text)) == 1, "the empty comment changed the list")
    screenshots_at_widths(s, "reload-comment-error")

    # The header's search box finds the article by a word of its title.
    word = max(re.findall(r"\w+", title), key=len)
    box = s.one('header form[action="/search"] input[name="q"]')
    box.send_keys(word)
    s.click_and_load_by_enter(box)
    check(s.path() == "/search", f"the search box led to {s.driver.current_url}")
    links = [urlsplit(a.get_attribute("href")).path for a in
             s.driver.find_elements(By.CSS_SELECTOR, "ol.search-results h2.story-title a")]
    check(f"/articles/{slug}" in links, f"searching {word!r} did not list /articles/{slug}: {links}")
    marks = [m.text for m in s.driver.find_elements(By.CSS_SELECTOR, "ol.search-results mark")]
    check(any(word.lower() == m.lower() for m in marks) or not marks, f"the snippets mark {marks}")
    screenshots_at_widths(s, "search")


def step_look(s: Session) -> None:
    """Tests/browser/look.py, in a browser of its own with script on (axe-core runs in the page)."""
    assert s.work is not None
    driver = start_browser(s.work / "chromedriver-look.log", javascript=True)
    driver.set_script_timeout(60)
    try:
        looker = Session(driver, s.base_url, s.screenshots, herald=s.herald, data=s.data, work=s.work)
        other = Session(driver, s.base_url, s.screenshots, herald=s.herald, data=s.data, work=s.work)
        try:
            look.run(looker, other, grant=lambda name, role: grant_role(s, name, role), check=check)
        except (AssertionError, WebDriverException):
            try:
                driver.save_screenshot(str(s.screenshots / "failed-look.png"))
            except WebDriverException:
                pass
            raise
    finally:
        driver.quit()


def document_as_decoded(s: Session, path: str) -> tuple[str | None, str | None, bytes]:
    """Opens `path` and reads, from Chromium's own network log, the Accept-Encoding it sent, the
    Content-Encoding it received and the body it decoded (DevTools' getResponseBody)."""
    s.driver.get_log("performance")  # what came before
    s.open(path)
    url = s.base_url + path
    request_id = sent = received = None
    for entry in s.driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.responseReceived" and params["response"]["url"] == url:
            request_id = params["requestId"]
            received = {k.lower(): v for k, v in params["response"]["headers"].items()}.get("content-encoding")
        elif message.get("method") == "Network.requestWillBeSentExtraInfo" and sent is None:
            sent = {k.lower(): v for k, v in params.get("headers", {}).items()}.get("accept-encoding")
    check(request_id is not None, f"no response for {url} in Chromium's network log")
    body = s.driver.execute_cdp_cmd("Network.getResponseBody", {"requestId": request_id})
    decoded = base64.b64decode(body["body"]) if body.get("base64Encoded") else body["body"].encode("utf-8")
    return sent, received, decoded


def identity_page(s: Session, path: str) -> bytes:
    """The same page without an encoding, asked for with the browser's cookies (the same reader)."""
    import urllib.request
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in s.driver.get_cookies())
    request = urllib.request.Request(s.base_url + path, headers={"Cookie": cookies, "Accept-Encoding": "identity"})
    with urllib.request.urlopen(request, timeout=PAGE_SECONDS) as response:
        check(response.headers.get("Content-Encoding") is None, "the identity page came encoded")
        return response.read()


def step_encodings(s: Session) -> None:
    """9. Chromium asks for each encoding in turn (DevTools' Network.setAcceptedEncodings, or the
    header set through Network.setExtraHTTPHeaders where that is missing) and
    decodes it itself: the logged-in reader's front page, article and account page, then, with
    its cookies cleared, an anonymous first visit (a new id cookie, so a token minted for that
    response) and a return. What Chromium decoded is, byte for byte, the page the same reader gets
    without an encoding."""
    article = s.liked_slugs[0]
    s.open("/")
    if not s.is_signed_in():
        s.open("/login")
        s.fill_account_form("/login", "Log in")
    def accept_only(coding: str | None) -> None:
        # DevTools' own switch where this Chromium has it; else the header itself, which
        # Chromium sends as given and still decodes the answer of.
        try:
            s.driver.execute_cdp_cmd("Network.enable", {})
            if coding is None:
                s.driver.execute_cdp_cmd("Network.clearAcceptedEncodingsOverride", {})
            else:
                s.driver.execute_cdp_cmd("Network.setAcceptedEncodings", {"encodings": [coding]})
        except WebDriverException:
            headers = {} if coding is None else {"Accept-Encoding": coding}
            s.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": headers})

    try:
        for coding in ("br", "zstd", "gzip"):
            accept_only(coding)
            for phase, paths in (("logged in", ["/", f"/articles/{article}", "/account"]),
                                 ("first visit", [f"/articles/{article}"]),
                                 ("returning", [f"/articles/{article}", "/"])):
                if phase == "first visit":
                    s.driver.delete_all_cookies()
                for path in paths:
                    sent, received, decoded = document_as_decoded(s, path)
                    identity = identity_page(s, path)
                    check(sent == coding, f"{phase} {path}: Chromium sent Accept-Encoding {sent!r}, not {coding!r}")
                    check(received == coding, f"{phase} {path}: asked for {coding}, got Content-Encoding {received!r}")
                    check(decoded == identity,
                          f"{phase} {path} in {coding}: Chromium decoded {len(decoded)} bytes, identity has "
                          f"{len(identity)}")
                    print(f"    {coding:4} {phase:11} {path}: {len(identity)} bytes, as decoded by Chromium", flush=True)
            # Back to the logged-in reader for the next coding.
            s.open("/login")
            s.fill_account_form("/login", "Log in")
    finally:
        accept_only(None)


def step_traditional_chinese(s: Session) -> None:
    """Issue #33: a browser started with --lang=zh-TW gets the interface in Traditional Chinese:
    `<html lang="zh-Hant">`, the header and the like button in Chinese, on the front page and an
    article at a phone's width. Screenshots lang-zh-TW-front-390.png and lang-zh-TW-article-390.png."""
    assert s.work is not None
    driver = start_browser(s.work / "chromedriver-zh-TW.log", language="zh-TW")
    try:
        other = Session(driver, s.base_url, s.screenshots)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 1000, "deviceScaleFactor": 1, "mobile": True})
        other.open("/")
        html_lang = driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
        check(html_lang == "zh-Hant", f"<html lang> is {html_lang!r}, expected zh-Hant")
        source = driver.page_source
        check("最新新聞" in source, "the front page's heading is not in Chinese")
        check("登入" in source and "註冊" in source, "the header's Log in and Register are not in Chinese")
        check("繁體中文" in source and "English" in source, "the footer has no language switcher")
        other.screenshot("lang-zh-TW-front-390.png", full_page=True)
        link = driver.find_element(By.CSS_SELECTOR, ".story-title a")
        other.click_and_load(link)
        check("/articles/" in other.path(), f"not on an article: {other.path()}")
        check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hant", "article not zh-Hant")
        button = driver.find_element(By.CSS_SELECTOR, "form.like-form button")
        check("按讚" in button.text, f"the like button says {button.text!r}")
        check("留言" in driver.page_source, "the comments heading is not in Chinese")
        other.screenshot("lang-zh-TW-article-390.png", full_page=True)
    finally:
        driver.quit()


STEPS = [
    ("anonymous like, then register", step_like_then_register),
    ("log out", step_log_out),
    ("anonymous like, then log in", step_like_then_log_in),
    ("editor publishes with a table, a link and an image (JavaScript off)", step_newsroom_without_javascript),
    ("the same with JavaScript on", step_newsroom_with_javascript),
    ("likes and comments in place (JavaScript on), anonymous like resumed", step_in_place_with_javascript),
    ("likes, comments and search with full page loads (JavaScript off)", step_reloads_without_javascript),
    ("the look of the main pages at 1280 and 390 px, light and dark: screenshots, header, badge, headings, axe",
     step_look),
    ("each encoding decoded by Chromium is the identity page", step_encodings),
    ("a browser asking for zh-TW gets the interface in Traditional Chinese at 390 px", step_traditional_chinese),
]


# --- the runner ---------------------------------------------------------------------------


def main() -> int:
    repo = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--herald", type=Path, default=repo / ".build/debug/herald")
    parser.add_argument("--root", type=Path, default=repo)
    parser.add_argument("--screenshots", type=Path, default=repo / ".build/browser-screenshots")
    parser.add_argument("--only", metavar="WORD", help="run only the steps whose name holds WORD "
                        "(the look step needs no other; the others build on the steps before them)")
    args = parser.parse_args()
    steps = [(name, step) for name, step in STEPS if args.only is None or args.only in name]
    if not steps:
        parser.error(f"no step's name holds {args.only!r}")

    herald, root, screenshots = args.herald.resolve(), args.root.resolve(), args.screenshots.resolve()
    screenshots.mkdir(parents=True, exist_ok=True)
    for old in screenshots.glob("*.png"):
        old.unlink()

    signal.signal(signal.SIGTERM, on_sigterm)
    passed = failed = skipped = 0
    work = Path(tempfile.mkdtemp(prefix="herald-browser-"))
    server = driver = None
    keep_work = False
    try:
        started = time.monotonic()
        server = Server(herald, root, work / "data", work / "herald.log")
        print(f"herald at {server.base_url} (ready in {time.monotonic() - started:.1f}s)", flush=True)
        driver = start_browser(work / "chromedriver.log")
        caps = driver.capabilities
        print(f"browser {caps.get('browserName')} {caps.get('browserVersion')}, "
              f"chromedriver {caps.get('chrome', {}).get('chromedriverVersion', '?').split(' ')[0]}", flush=True)
        session = Session(driver, server.base_url, screenshots, herald=herald, data=work / "data", work=work)

        for name, step in steps:
            if failed:
                skipped += 1
                print(f"SKIP {name} (an earlier step failed)", flush=True)
                continue
            started = time.monotonic()
            try:
                step(session)
            except (AssertionError, WebDriverException) as error:
                failed += 1
                keep_work = True
                shot = f"failed-{passed + failed}.png"
                try:
                    driver.save_screenshot(str(screenshots / shot))
                except WebDriverException:
                    shot = "(no screenshot)"
                print(f"FAIL {name}: {error}\n  at {driver.current_url}, screenshot {shot}", flush=True)
                traceback.print_exc()
                print(server.log_tail(), flush=True)
            else:
                passed += 1
                print(f"PASS {name} ({time.monotonic() - started:.1f}s)", flush=True)
    except Terminated as error:
        failed += 1
        keep_work = True
        print(f"FAIL {error}", flush=True)
    except Exception:
        failed += 1
        keep_work = True
        print("FAIL unexpected error (starting the server or the browser?):", flush=True)
        traceback.print_exc()
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception:  # already gone (SIGTERM reaches the whole process group)
                pass
        if server is not None:
            status = server.stop()
            if status == 0:
                print("herald exited 0 on SIGTERM", flush=True)
            else:
                failed += 1
                keep_work = True
                print(f"FAIL herald exited {status} on SIGTERM, expected 0\n{server.log_tail()}", flush=True)
        if keep_work:
            print(f"logs kept in {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)

    summary = f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")
    print(summary, flush=True)
    return 0 if failed == 0 and passed == len(steps) else 1


if __name__ == "__main__":
    sys.exit(main())
