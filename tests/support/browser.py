"""A real headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium.

Selenium's calls block, and the gateway under test serves HTTP on the test's own event
loop, so every call goes through a thread (`asyncio.to_thread`): the page loads while
the loop answers it. The browser is a peer: missing, it skips the test with the reason,
and fails it under ``CLOCKBOT_REQUIRE_PEERS=1``.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.peers import PEER_FIXTURES, require_peer

__all__ = ["Browser", "browser"]

PEER_FIXTURES["browser"] = "chromium"

DESKTOP = (1280, 900)
PHONE = (390, 844)
ZOOMED = (640, 900)
"""A 1280-pixel screen at 200% zoom lays the page out in 640 CSS pixels."""


class Browser:
    """One Chromium window; `base` is the site's root (``http://127.0.0.1:<port>``)."""

    def __init__(self, driver: Any, base: str = "") -> None:
        self.driver = driver
        self.base = base

    async def _call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def open(self, path: str) -> None:
        await self._call(self.driver.get, path if "://" in path else self.base + path)

    async def click(self, css: str) -> None:
        """Click what `css` finds, a button that submits, and wait for the next page."""
        from selenium.webdriver.common.by import By

        await self._navigating(lambda: self.driver.find_element(By.CSS_SELECTOR, css).click())

    async def _navigating(self, act: Any) -> None:
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.wait import WebDriverWait

        def go() -> None:
            old = self.driver.find_element(By.TAG_NAME, "html")
            act()

            def gone(_driver: Any) -> bool:
                # Chromium 156 answers a query of a node from the previous page with
                # "does not belong to the document", not a stale-element error.
                try:
                    old.is_enabled()
                except WebDriverException:
                    return True
                return False

            WebDriverWait(self.driver, 15).until(gone)
            WebDriverWait(self.driver, 15).until(
                lambda d: d.execute_script("return document.readyState") == "complete"
            )

        await self._call(go)

    async def fill(self, css: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        element = await self._call(self.driver.find_element, By.CSS_SELECTOR, css)
        await self._call(element.clear)
        await self._call(element.send_keys, text)

    async def text(self, css: str = "body") -> str:
        from selenium.webdriver.common.by import By

        element = await self._call(self.driver.find_element, By.CSS_SELECTOR, css)
        return str(await self._call(lambda: element.text))

    async def count(self, css: str) -> int:
        from selenium.webdriver.common.by import By

        return len(await self._call(self.driver.find_elements, By.CSS_SELECTOR, css))

    async def path(self) -> str:
        url = str(await self._call(lambda: self.driver.current_url))
        return url.removeprefix(self.base)

    async def script(self, source: str, *args: Any) -> Any:
        return await self._call(self.driver.execute_script, source, *args)

    async def submit(self, source: str, *args: Any) -> None:
        """Run a script that submits a form, and wait for the next page."""
        await self._navigating(lambda: self.driver.execute_script(source, *args))

    async def size(self, width: int, height: int) -> None:
        await self._call(self.driver.set_window_size, width, height)

    async def overflows(self) -> bool:
        """The page is wider than the window: it would scroll sideways."""
        return bool(
            await self.script(
                "return document.documentElement.scrollWidth > window.innerWidth + 1;"
            )
        )

    async def forget(self) -> None:
        """Drop every cookie: a new visitor."""
        await self._call(self.driver.delete_all_cookies)

    async def language(self, accept_language: str) -> None:
        """Send `accept_language` as the browser's ``Accept-Language`` from now on."""

        def override() -> None:
            agent = self.driver.execute_script("return navigator.userAgent;")
            self.driver.execute_cdp_cmd(
                "Network.setUserAgentOverride",
                {"userAgent": agent, "acceptLanguage": accept_language},
            )

        await self._call(override)

    async def screenshot(self, path: Path) -> None:
        """The whole page (not just the window) as a PNG."""
        path.parent.mkdir(parents=True, exist_ok=True)

        def shoot() -> None:
            width = self.driver.execute_script("return window.innerWidth;")
            height = self.driver.execute_script(
                "return Math.max(document.body.scrollHeight, window.innerHeight);"
            )
            self.driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
            )
            try:
                self.driver.save_screenshot(str(path))
            finally:
                self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

        await self._call(shoot)


def _programs() -> tuple[str, str] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return None
    return chromium, driver


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium at desktop size, closed after the test."""
    found = _programs()
    if found is None:
        require_peer("chromium", "install Debian's chromium and chromium-driver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        require_peer("chromium", "selenium is not installed (the dev extra)")
    chromium, chromedriver = found
    options = Options()
    options.binary_location = chromium
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--lang=en-US",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ):  # fmt: skip
        options.add_argument(argument)
    driver = await asyncio.to_thread(
        webdriver.Chrome, options=options, service=Service(executable_path=chromedriver)
    )
    try:
        yield Browser(driver)
    finally:
        await asyncio.to_thread(driver.quit)
