"""The front page's bytes and load time, served plain and gzipped, in one run.

    nice -n 19 python bench/front_page.py [--loads 7]

Starts a server in-process and Debian's Chromium (headless, as the browser tests do), then loads
the front page ``--loads`` times each way with the browser's cache off: "plain" serves every file
uncompressed (as the server did before it learnt gzip), "gzip" as it does now. Each load is timed
twice: on the loopback, and under a throttled link (1.6 Mbit/s down, 750 kbit/s up, 150 ms round
trip, DevTools' "fast 3G"). Prints the bytes the browser took off the wire (bodies and headers, the
sum of the Resource Timing ``transferSize``s), the page's files, and the median first contentful
paint and load event of each way.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
from cdp import Browser, Page, find_chromium

from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.server.net.static import load_assets

FAST_3G = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
LOOPBACK = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
MEASURE = """(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const files = [nav, ...performance.getEntriesByType('resource')]
    .filter(e => !e.name.startsWith('ws'));
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {bytes: files.reduce((n, e) => n + e.transferSize, 0),
          body: files.reduce((n, e) => n + e.decodedBodySize, 0),
          files: files.length, paint: paint ? paint.startTime : null, load: nav.loadEventEnd};
})()"""


async def load(page: Page, url: str) -> dict[str, Any]:
    await page.goto(url)
    await page.wait("performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
    await page.wait("performance.getEntriesByName('first-contentful-paint').length > 0")
    value: dict[str, Any] = await page.js(MEASURE)
    return value


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=7, help="loads of each kind (median shown)")
    args = parser.parse_args()
    binary = find_chromium()
    if binary is None:
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    gzipped = load_assets()
    plain = {name: dataclasses.replace(a, gzipped=None) for name, a in gzipped.items()}
    async with running_server(ServerConfig(port=0)) as server, Browser.launch(binary) as browser:
        url = f"http://127.0.0.1:{server.port}/"
        page = await browser.new_page()
        await page.call("Network.enable")
        await page.call("Network.setCacheDisabled", cacheDisabled=True)
        rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for _ in range(args.loads):  # interleaved, so a busy moment hurts both ways alike
            for way, assets in (("plain", plain), ("gzip", gzipped)):
                server.site.assets = assets
                for link, conditions in (("loopback", LOOPBACK), ("fast 3G", FAST_3G)):
                    await page.call("Network.emulateNetworkConditions", **conditions)
                    rows.setdefault((way, link), []).append(await load(page, url))
        print(f"front page, {args.loads} loads each, browser cache off (median)")
        print(
            f"{'served':<6} {'link':<9} {'files':>5} {'bytes':>8} {'unpacked':>8} "
            f"{'paint ms':>8} {'load ms':>8}"
        )
        for (way, link), runs in rows.items():
            first = runs[0]
            print(
                f"{way:<6} {link:<9} {first['files']:>5} {first['bytes']:>8} {first['body']:>8} "
                f"{statistics.median(r['paint'] for r in runs):>8.0f} "
                f"{statistics.median(r['load'] for r in runs):>8.0f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
