"""How Herald's main pages look and read in a real browser (issue #32, item 6).

One step of Tests/browser/test_browser.py, in a browser of its own with script on (axe-core and
the measurements run as script in the page; Herald's pages need none). It makes what a day on the
site leaves behind — an editor and moderator who publishes an article written in Markdown (a
body starting at `##`, a quote), comments on it, gets a reply and a report from another reader —
then opens each main page at 1280 and 390 px, light and dark, and for each:

  - saves a full-page screenshot, look-PAGE-WIDTH-SCHEME.png (and for the front page and the
    article the first screen alone, look-PAGE-WIDTH-SCHEME-fold.png);
  - checks the heading order in the page itself: one h1, first, and no level skipped going down;
  - runs axe-core (the axe-selenium-python package ships it) and fails on any violation;
  - on a phone, checks that the header takes at most 20 % of the screen; nowhere does the page
    scroll sideways;
  - wherever the unread badge shows, checks its contrast from the computed styles (≥ 4.5:1);
  - checks what #32 fixed on the page: the main area's top padding, the drop cap only on the
    body's own first paragraph, the comment actions on one row with targets ≥ 24 px, fields of
    every type styled, danger buttons unlike ordinary ones.

Every problem found is listed before the step fails, so one run shows them all.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Callable

from axe_selenium_python import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

VIEWS = {"1280": (1280, 900), "390": (390, 844)}
SCHEMES = ("light", "dark")
HEADER_SHARE = 0.20
BADGE_CONTRAST = 4.5
TARGET_PX = 24
# Pages whose first screen is also kept on its own (the README shows two of them).
FOLD_PAGES = {"front", "article"}

ARTICLE_BODY = (
    "The harbour reopened at dawn after three days of storms, and the first ferry left on time.\n\n"
    "## What changed\n\n"
    "> Nobody expected the pier to hold. It did, and we were back at work by noon.\n>\n"
    "> — a harbour pilot\n\n"
    "Crews inspected the moorings overnight.\n\n"
    "### The timetable\n\n"
    "| Route | Sailings |\n|-------|---------:|\n| North | 4 |\n| South | 2 |\n\n"
    "#### Further south\n\nServices there resume on Monday.\n"
)

# --- measurements made in the page -----------------------------------------------------------

HEADINGS = """
return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
  .filter(h => !h.closest('[hidden]'))
  .map(h => [Number(h.tagName.substring(1)), h.textContent.trim().slice(0, 60)]);
"""

BOX = """
const e = document.querySelector(arguments[0]);
if (!e) return null;
const r = e.getBoundingClientRect();
return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, height: r.height, width: r.width,
        visible: r.width > 0 && r.height > 0};
"""

VISIBLE_COLORS = """
return Array.from(document.querySelectorAll(arguments[0]))
  .filter(e => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0)
  .map(e => { const s = getComputedStyle(e); return [s.color, s.backgroundColor]; });
"""

STYLE = """
const e = document.querySelector(arguments[0]);
if (!e) return null;
const s = getComputedStyle(e, arguments[1] || null);
return {fontSize: parseFloat(s.fontSize), paddingTop: parseFloat(s.paddingTop), color: s.color,
        background: s.backgroundColor, border: s.borderTopColor, height: e.getBoundingClientRect().height};
"""

COMMENT_ACTIONS = """
return Array.from(document.querySelectorAll('.comment-actions')).map(row =>
  Array.from(row.querySelectorAll(':scope > details > summary, :scope > a'))
    .filter(e => e.getClientRects().length > 0)
    .map(e => { const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.top, r.height, r.width]; }));
"""


def parse_rgb(text: str) -> tuple[float, float, float, float]:
    """`rgb(r, g, b)` or `rgba(r, g, b, a)` as the browser computes it."""
    match = re.fullmatch(r"rgba?\(\s*([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\s*\)", text.strip())
    if not match:
        raise ValueError(f"cannot read the colour {text!r}")
    r, g, b, a = match.groups()
    return float(r), float(g), float(b), float(a) if a is not None else 1.0


def luminance(rgb: tuple[float, float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b, _ = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two opaque computed colours."""
    fg, bg = parse_rgb(foreground), parse_rgb(background)
    if bg[3] < 1:
        raise ValueError(f"the background {background!r} is not opaque")
    light, dark = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def heading_problems(headings: list[list]) -> list[str]:
    """One h1, first; going down, never more than one level at a time."""
    problems = []
    levels = [level for level, _ in headings]
    if levels.count(1) != 1:
        problems.append(f"{levels.count(1)} h1 elements, expected one")
    if levels and levels[0] != 1:
        problems.append(f"the first heading is h{levels[0]} {headings[0][1]!r}, not the h1")
    for (before, _), (level, text) in zip(headings, headings[1:]):
        if level > before + 1:
            problems.append(f"h{level} {text!r} follows an h{before}: a level is skipped")
    return problems


# --- the step ---------------------------------------------------------------------------------


@dataclass
class Look:
    """The browser (a test_browser.Session with script on), and every problem found so far."""

    s: object
    problems: list[str] = field(default_factory=list)
    checked: int = 0

    @property
    def driver(self):
        return self.s.driver

    def problem(self, where: str, text: str) -> None:
        self.problems.append(f"{where}: {text}")

    def view(self, width: int, height: int, scheme: str) -> None:
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        # Let the new layout and colours settle before anything is measured.
        self.driver.execute_script("return document.body.getBoundingClientRect().height;")
        time.sleep(0.15)

    def reset_view(self) -> None:
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def js(self, script: str, *arguments):
        return self.driver.execute_script(script, *arguments)

    # Each page, in every view.

    def page(self, name: str, path: str, extra: Callable[["Look", str, int], None] | None = None,
             status_ok: bool = True) -> None:
        self.s.open(path)
        if status_ok:
            self.s.one("footer.site-footer")
        try:
            for width_name, (width, height) in VIEWS.items():
                for scheme in SCHEMES:
                    where = f"{name} ({path}) at {width_name} px, {scheme}"
                    self.view(width, height, scheme)
                    self.s.screenshot(f"look-{name}-{width_name}-{scheme}.png", full_page=True)
                    if name in FOLD_PAGES:
                        self.s.screenshot(f"look-{name}-{width_name}-{scheme}-fold.png")
                    self.common_checks(where, width, height)
                    if extra:
                        extra(self, where, width)
                    self.axe(where)
                    self.checked += 1
        finally:
            self.reset_view()

    def common_checks(self, where: str, width: int, height: int) -> None:
        for problem in heading_problems(self.js(HEADINGS)):
            self.problem(where, problem)
        header = self.js(BOX, "header.masthead")
        if header is None:
            self.problem(where, "no header.masthead")
            return
        if width < 600 and header["height"] > HEADER_SHARE * height:
            self.problem(where, f"the header is {header['height']:.0f} px tall, more than "
                                f"{HEADER_SHARE:.0%} of a {height} px screen")
        page_width = self.js("return document.documentElement.scrollWidth;")
        if page_width > width:
            self.problem(where, f"the page is {page_width} px wide: it scrolls sideways on a {width} px screen")
        main = self.js(STYLE, "main")
        if main and main["paddingTop"] < 16:
            self.problem(where, f"the main area's top padding is {main['paddingTop']} px (headings touch the header)")
        for color, background in self.js(VISIBLE_COLORS, ".unread"):
            try:
                ratio = contrast(color, background)
            except ValueError as error:
                self.problem(where, f"the unread badge: {error}")
                continue
            if ratio < BADGE_CONTRAST:
                self.problem(where, f"the unread badge's contrast is {ratio:.2f}:1 ({color} on {background}), "
                                    f"below {BADGE_CONTRAST}:1")

    def axe(self, where: str) -> None:
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run(options='{"resultTypes": ["violations"]}')
        for violation in results.get("violations", []):
            targets = "; ".join(" ".join(node["target"]) if isinstance(node["target"], list) else str(node["target"])
                                for node in violation["nodes"][:4])
            self.problem(where, f"axe {violation['id']} ({violation['impact']}): {violation['help']} — {targets}")


# What each page shows of #32's fixes.

def article_checks(look: Look, where: str, width: int) -> None:
    body_p = look.js(STYLE, ".article-body > p:first-child")
    cap = look.js(STYLE, ".article-body > p:first-child", "::first-letter")
    if not body_p or not cap or cap["fontSize"] < 2 * body_p["fontSize"]:
        look.problem(where, "the body's first paragraph has no drop cap")
    quote_p = look.js(STYLE, ".article-body blockquote p")
    quote_cap = look.js(STYLE, ".article-body blockquote p", "::first-letter")
    if not quote_p or not quote_cap:
        look.problem(where, "the test article's quote is missing")
    elif quote_cap["fontSize"] > quote_p["fontSize"] + 0.5:
        look.problem(where, f"the quote's first paragraph has a drop cap ({quote_cap['fontSize']} px letters)")
    rows = [row for row in look.js(COMMENT_ACTIONS) if row]
    if not rows:
        look.problem(where, "no comment actions to measure")
    for row in rows:
        tops = {round(top) for _, top, _, _ in row}
        if max(tops) - min(tops) > 2:
            look.problem(where, f"the comment actions {[t for t, *_ in row]} are not on one row")
        for text, _, height, target_width in row:
            if height < TARGET_PX or target_width < TARGET_PX:
                look.problem(where, f"the action {text!r} is {target_width:.0f}×{height:.0f} px, under {TARGET_PX} px")
    reading = look.driver.find_elements(By.CSS_SELECTOR, ".article-header [data-reading-time]")
    if not reading or not re.fullmatch(r"\d+ min read", reading[0].text.strip()):
        look.problem(where, "no reading time under the title")


def delete_asks_first(look: Look, path: str) -> None:
    """On a phone, Delete opens its question in place: the row of actions stays, the confirming
    button shows below it (no script: a <details>). Screenshot look-delete-open-390-light.png."""
    s = look.s
    s.open(path)
    where = f"the delete question ({path}) at 390 px"
    try:
        look.view(*VIEWS["390"], "light")
        summaries = look.driver.find_elements(By.CSS_SELECTOR, ".comment-actions details.delete > summary")
        if not summaries:
            look.problem(where, "Delete does not ask first (no <details class=\"delete\"> on the reader's comment)")
            return
        summaries[0].click()
        button = s.one(".comment-actions details.delete[open] button.danger")
        if not button.is_displayed() or button.text.strip() != "Delete comment":
            look.problem(where, f"the confirming button is not shown ({button.text!r})")
        row = look.js(COMMENT_ACTIONS)[0]
        tops = {round(top) for _, top, _, _ in row}
        if max(tops) - min(tops) > 2:
            look.problem(where, f"opening Delete broke the row of actions: {row}")
        question = s.one(".comment-actions details.delete[open] p").text.strip()
        if question != "Delete this comment? This cannot be undone.":
            look.problem(where, f"the question reads {question!r}")
        look.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
        s.screenshot("look-delete-open-390-light.png")
    finally:
        look.reset_view()


def fields_checks(*selectors: str) -> Callable[[Look, str, int], None]:
    """Each field is a real control, not a browser default (177×21 px, 13 px text)."""
    def check_fields(look: Look, where: str, width: int) -> None:
        for selector in selectors:
            style = look.js(STYLE, selector)
            if style is None:
                look.problem(where, f"no field {selector}")
            elif style["height"] < 40 or style["fontSize"] < 15:
                look.problem(where, f"{selector} is {style['height']:.0f} px tall with {style['fontSize']} px text")
    return check_fields


def danger_checks(danger: str, ordinary: str) -> Callable[[Look, str, int], None]:
    def check_danger(look: Look, where: str, width: int) -> None:
        bad, plain = look.js(STYLE, danger), look.js(STYLE, ordinary)
        if bad is None or plain is None:
            look.problem(where, f"missing {danger} or {ordinary}")
            return
        if (bad["background"], bad["color"]) == (plain["background"], plain["color"]):
            look.problem(where, f"{danger} looks like {ordinary}")
        r, g, b, _ = parse_rgb(bad["color"])
        if not r > 1.3 * max(g, b):
            look.problem(where, f"{danger}'s text ({bad['color']}) is not red")
    return check_danger


def both(*checks: Callable[[Look, str, int], None]) -> Callable[[Look, str, int], None]:
    def run(look: Look, where: str, width: int) -> None:
        for check in checks:
            check(look, where, width)
    return run


# The day that leaves something on every page.

def publish(s, title: str) -> tuple[str, str]:
    """The new-article form with a Markdown body; returns (edit path, article path)."""
    s.open("/editor/articles/new")
    form = s.one("form.article-form")
    for name, value in (("title", title), ("summary", "Both routes run again after the storms."),
                        ("section", "Harbour"), ("body", ARTICLE_BODY)):
        form.find_element(By.NAME, name).send_keys(value)
    s.click_and_load('form.article-form button[name="action"][value="publish"]', post=True)
    edit = s.path()
    public = s.one('.article-state a[href^="/articles/"]').get_attribute("href")
    return edit, "/articles/" + public.rsplit("/articles/", 1)[1]


def comment_in_place(s, form_css: str, text: str) -> None:
    """Posts with the page's script (no reload) and waits for the comment to appear."""
    s.one(f"{form_css} textarea[name=body]").send_keys(text)
    s.one(f"{form_css} button[type=submit]").click()
    s.wait().until(lambda d: any(text in li.text for li in d.find_elements(By.CSS_SELECTOR, "li.comment")))


def run(s, other, grant: Callable[[str, str], None], check: Callable[[bool, str], None]) -> None:
    """`s` and `other`: Sessions in one browser with script on (they take turns); `grant(name,
    role)` runs `herald users grant`."""
    s.open("/register")
    s.fill_account_form("/register", "Create account")
    grant(s.username, "editor")
    grant(s.username, "moderator")
    edit_path, article_path = publish(s, f"Ferries return to the harbour ({secrets.token_hex(2)})")

    s.open(article_path)
    comment_in_place(s, "form#comment-form", "The north route was busy already at seven.")
    first = s.driver.find_elements(By.CSS_SELECTOR, "ol.comment-list > li.comment")[0].get_attribute("id")
    s.click_and_load('header .account form[action="/logout"] button[type="submit"]', post=True)

    # Another reader answers, and reports the answer's parent for the moderation queue.
    other.open("/register")
    other.fill_account_form("/register", "Create account")
    other.open(article_path)
    other.one(f"#{first} details.reply > summary").click()
    comment_in_place(other, f"#{first} details.reply form", "And the south one at nine.")
    other.open(article_path)
    other.one(f"#{first} details.report > summary").click()
    other.one(f"#{first} details.report input[value=off-topic]").click()
    other.click_and_load(f"#{first} details.report button[type=submit]", post=True)
    other.open(article_path)
    comment_in_place(other, "form#comment-form", "Will the timetable change again in winter?")
    other.click_and_load('header .account form[action="/logout"] button[type="submit"]', post=True)

    s.open("/login")
    s.fill_account_form("/login", "Log in")
    check(bool(s.driver.find_elements(By.CSS_SELECTOR, "header [data-unread-count='1']")),
          "the header shows no unread reply after the other reader's answer")

    look = Look(s)
    look.page("front", "/")
    look.page("article", article_path, article_checks)
    delete_asks_first(look, article_path)
    look.page("account", "/account", both(fields_checks("#email-field", "#current_password"),
                                          danger_checks("form[action='/account/delete'] button.danger",
                                                        "form[action='/account/password'] button")))
    look.page("desk", "/editor")
    look.page("editor", edit_path, both(fields_checks("#title", "#publish_at", "#image"),
                                        danger_checks("button[value=unpublish]", "button[value=save]")))
    look.page("moderation", "/moderation")
    look.page("not-found", "/articles/no-such-article")

    # Logged out: the forms, with an action pending.
    s.click_and_load('header .account form[action="/logout"] button[type="submit"]', post=True)
    s.open(article_path)
    s.click_and_load('form.like-form button[type="submit"]', post=True)
    look.page("login", "/login", fields_checks("#username", "#password"))
    look.page("register", "/register", fields_checks("#username", "#password", "#email"))

    print(f"  looked at {look.checked} page views", flush=True)
    check(not look.problems, f"{len(look.problems)} problem(s):\n  " + "\n  ".join(look.problems))
