"""Headless Chromium driven over the DevTools protocol, with the websockets library we already use.

Debian's ``chromium`` is started with a fresh profile and ``--remote-debugging-port=0``; each
:class:`Page` lives in its own browser context (its own cookies and storage, like a separate
browser). Clicks, taps and keys are real input events dispatched at the element's position, so
the page sees exactly what a person's mouse and keyboard would make.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--remote-debugging-port=0",
]


def find_chromium() -> str | None:
    """Debian's chromium (or CHROMIUM=path); None when none is installed."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    """One Chromium process and its DevTools socket."""

    def __init__(self, process: subprocess.Popen[bytes], ws: ClientConnection, profile: str):
        self.process, self.ws, self.profile = process, ws, profile
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pages: dict[str, Page] = {}
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    @contextlib.asynccontextmanager
    async def launch(cls, binary: str) -> AsyncIterator[Browser]:
        profile = tempfile.mkdtemp(prefix="muggins-chromium-")
        process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        browser: Browser | None = None
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + 30
            while not port_file.exists() or len(port_file.read_text().split()) < 2:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise CdpError("chromium did not start")
                await asyncio.sleep(0.05)
            port, path = port_file.read_text().split()[:2]
            ws = await connect(f"ws://127.0.0.1:{port}{path}", max_size=None)
            browser = cls(process, ws, profile)
            yield browser
        finally:
            if browser is not None:
                browser.reader.cancel()
                await browser.ws.close()
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            shutil.rmtree(profile, ignore_errors=True)

    async def _read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if "id" in message:
                future = self.waiting.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif "sessionId" in message and message["sessionId"] in self.pages:
                self.pages[message["sessionId"]].on_event(message["method"], message["params"])

    async def call(self, method: str, session: str | None = None, **params: Any) -> Any:
        number = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[number] = future
        frame: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session is not None:
            frame["sessionId"] = session
        await self.ws.send(json.dumps(frame))
        reply = await asyncio.wait_for(future, 30)
        if "error" in reply:
            raise CdpError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def new_page(
        self,
        width: int = 1280,
        height: int = 800,
        *,
        mobile: bool = False,
        beside: Page | None = None,
    ) -> Page:
        """A tab in a fresh browser context: its own storage, as a separate person's browser;
        or, ``beside`` another page, a new tab of that same browser (its storage shared)."""
        if beside is not None:
            context = beside.context
        else:
            context = (await self.call("Target.createBrowserContext"))["browserContextId"]
        target = (
            await self.call("Target.createTarget", url="about:blank", browserContextId=context)
        )["targetId"]
        session = (await self.call("Target.attachToTarget", targetId=target, flatten=True))[
            "sessionId"
        ]
        page = Page(self, session, target)
        page.context = context
        self.pages[session] = page
        for domain in ("Page", "Runtime", "Log"):
            await page.call(f"{domain}.enable")
        await page.viewport(width, height, mobile=mobile)
        return page


class Page:
    """One tab: navigate, read, click, type, screenshot."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser, self.session, self.target = browser, session, target
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.console: list[str] = []
        """Everything the page wrote with console.log and friends, and every log entry."""
        self.loaded = asyncio.Event()
        self.context = ""
        """The browser context (a person's browser: its storage) this tab is in."""

    def on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Log.entryAdded":
            self.console.append(json.dumps(params["entry"]))
        if method == "Page.javascriptDialogOpening":
            self.dialogs.append(params.get("message", ""))
            asyncio.get_running_loop().create_task(
                self.call("Page.handleJavaScriptDialog", accept=False)
            )
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(str(details.get("exception", {}).get("description", details)))
        elif method == "Runtime.consoleAPICalled":
            self.console.append(json.dumps(params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"]["source"] in ("security", "javascript"):
            # Content-Security-Policy refusals and script errors the page did not throw to us.
            if params["entry"]["level"] == "error":
                self.errors.append(params["entry"]["text"])
        elif method == "Page.loadEventFired":
            self.loaded.set()

    async def call(self, method: str, **params: Any) -> Any:
        return await self.browser.call(method, self.session, **params)

    async def close(self) -> None:
        """Close the tab, as a person closing it would (its page is gone, not cached)."""
        await self.browser.call("Target.closeTarget", targetId=self.target)
        self.browser.pages.pop(self.session, None)

    async def viewport(self, width: int, height: int, *, mobile: bool = False) -> None:
        await self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        await self.call("Emulation.setTouchEmulationEnabled", enabled=mobile)

    async def goto(self, url: str) -> None:
        self.loaded.clear()
        await self.call("Page.navigate", url=url)
        await asyncio.wait_for(self.loaded.wait(), 30)

    async def reload(self) -> None:
        self.loaded.clear()
        await self.call("Page.reload")
        await asyncio.wait_for(self.loaded.wait(), 30)

    async def js(self, expression: str) -> Any:
        """Evaluate in the page and return the JSON value (promises are awaited)."""
        result = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise CdpError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait(self, expression: str, timeout: float = 20.0, what: str = "") -> Any:
        """Poll until the expression is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = await self.js(expression)
            except CdpError as error:  # a link was followed: ask the new page next time
                if "navigated" not in str(error) and "context" not in str(error):
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"waited {timeout} s for {what or expression}; page errors: {self.errors}"
                )
            await asyncio.sleep(0.05)

    async def click(self, selector: str) -> None:
        """A real mouse click (left button) in the middle of the element."""
        box = await self.wait(
            f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e || e.disabled || e.offsetParent === null && e.tagName !== 'svg') return null;
            e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""",
            what=f"{selector} to be clickable",
        )
        x, y = box
        await self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ("mousePressed", "mouseReleased"):
            await self.call(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    async def type(self, selector: str, text: str) -> None:
        """Focus a field and type into it."""
        await self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        await self.call("Input.insertText", text=text)

    async def press(self, key: str) -> None:
        """A key press: "Enter", or one character ("1", "m")."""
        if key == "Enter":
            params = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"}
        else:
            params = {"key": key, "text": key, "windowsVirtualKeyCode": ord(key.upper())}
        await self.call("Input.dispatchKeyEvent", type="keyDown", **params)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **params)

    async def screenshot(self, path: Path) -> None:
        """The whole page from the top, as a person scrolling down would see it."""
        await self.js("window.scrollTo(0, 0)")
        width, height = await self.js(
            "[Math.max(document.documentElement.scrollWidth, window.innerWidth),"
            " document.documentElement.scrollHeight]"
        )
        clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        data = (
            await self.call(
                "Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True
            )
        )["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    async def screenshot_viewport(self, path: Path) -> None:
        """What the screen shows now, where the page stands (no scrolling)."""
        data = (await self.call("Page.captureScreenshot", format="png"))["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    async def everything(self) -> str:
        """The whole DOM (text, attributes, hidden elements), field values, and both storages."""
        return str(
            await self.js(
                """JSON.stringify({
                dom: document.documentElement.outerHTML,
                values: [...document.querySelectorAll('input, textarea, select')].map(e => e.value),
                local: Object.fromEntries(Object.entries(localStorage)),
                session: Object.fromEntries(Object.entries(sessionStorage)),
                })"""
            )
        )
