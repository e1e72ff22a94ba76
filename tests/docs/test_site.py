"""The docs site (issue 45): it builds with ``mkdocs build --strict``; its API page names
everything ``import objmcp`` gives; and the built site, served on 127.0.0.1, works in a
real headless browser (Debian's Chromium, driven by selenium): the home page, a search that
finds its page, a guide page, and every link of every page followed to a page that exists
(and to the anchor it names)."""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
from conftest import ROOT

import objmcp

SCREENSHOT = "home.png"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strict from this checkout."""
    where = tmp_path_factory.mktemp("site") / "site"
    built = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "-q", "-d", str(where)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(where.parent)},
        check=False,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-6000:]
    return where


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site over HTTP on 127.0.0.1: its base URL."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_api_page_documents_everything_objmcp_exports() -> None:
    page = (ROOT / "docs" / "reference" / "api.md").read_text()
    documented = re.findall(r"^::: objmcp\.(\w+)$", page, re.M)
    assert sorted(documented) == sorted(objmcp.__all__)


def test_the_generated_pages_hold_every_option_and_verb(site: Path) -> None:
    from objmcp._options import SERVER_RECORDS

    options = (site / "reference" / "options" / "index.html").read_text()
    for record in SERVER_RECORDS.values():
        assert f"<code>{record.__name__}</code>" in options
    assert "--call-timeout" in options and "--max-body" in options
    cli = (site / "reference" / "cli" / "index.html").read_text()
    for verb in ("run", "worker", "inspect", "call", "config", "dev", "bundle"):
        assert f"usage: objmcp {verb}" in cli


def test_the_site_works_in_a_browser(served: str, site: Path, tmp_path: Path) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,900",
    ):  # fmt: skip
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        wait = WebDriverWait(browser, 30)
        browser.get(served)
        assert "objmcp" in browser.title
        heading = browser.find_element(By.CSS_SELECTOR, "article h1").text
        assert heading.startswith("objmcp")
        browser.save_screenshot(str(tmp_path / SCREENSHOT))

        # the search: a word only a guide has finds that guide
        browser.find_element(By.CSS_SELECTOR, "label.md-search__icon, .md-search__input").click()
        field = wait.until(
            expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, ".md-search__input"))
        )
        field.send_keys("elicitation")
        # the results are read in one script: the list is drawn again as the search's worker
        # answers, and an element found before that would be stale
        hrefs = "return [...document.querySelectorAll('.md-search-result__link')].map(a => a.href)"
        wait.until(lambda b: any("asking-the-user" in href for href in b.execute_script(hrefs)))

        # a guide page, by its nav link
        browser.get(served + "guides/asking-the-user/")
        assert browser.find_element(By.CSS_SELECTOR, "article h1").text
        assert browser.find_elements(By.CSS_SELECTOR, "nav.md-nav a")
    finally:
        browser.quit()


def test_every_link_of_every_page_reaches_a_page_and_its_anchor(served: str, site: Path) -> None:
    # every page of the site is fetched from the server, and every link on it to this site
    # is fetched too (once a URL): it answers 200, and holds the anchor the link names
    fetched: dict[str, tuple[int, set[str]]] = {}

    def fetch(url: str) -> tuple[int, set[str]]:
        if url not in fetched:
            try:
                with urllib.request.urlopen(url, timeout=30) as answer:
                    body = answer.read().decode(errors="replace")
                    fetched[url] = (
                        answer.status,
                        set(_ids(body))
                        if "html" in answer.headers.get("Content-Type", "")
                        else set(),
                    )
            except urllib.error.HTTPError as error:
                fetched[url] = (error.code, set())
        return fetched[url]

    broken: list[str] = []
    for page in sorted(site.rglob("*.html")):
        url = urljoin(served, page.relative_to(site).as_posix())
        with urllib.request.urlopen(url, timeout=30) as answer:
            html = answer.read().decode()
        for href in _links(html):
            target = urlparse(urljoin(url, href))
            if target.netloc != urlparse(served).netloc:
                continue  # the world outside: not this site's to check
            status, ids = fetch(target._replace(fragment="", query="").geturl())
            if status != 200:
                broken.append(f"{page.relative_to(site)} -> {href} ({status})")
            elif target.fragment and target.fragment not in ids:
                broken.append(f"{page.relative_to(site)} -> {href} (no such anchor)")
    assert len(fetched) > 20  # the pages link each other: this followed them
    assert not broken, "\n".join(broken[:40])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


class _Hrefs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and name == "id":
                self.ids.append(value)
            if value is not None and tag == "a" and name == "href":
                self.hrefs.append(value)


def _links(html: str) -> list[str]:
    parser = _Hrefs()
    parser.feed(html)
    return [href for href in parser.hrefs if not href.startswith(("mailto:", "javascript:"))]


def _ids(html: str) -> list[str]:
    parser = _Hrefs()
    parser.feed(html)
    return parser.ids
