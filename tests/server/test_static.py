"""The browser client's files on the WebSocket's port: routes, types, caching, security headers."""

from __future__ import annotations

import asyncio
import http.client

import pytest
from conftest import with_options
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from muggins.server.app import Server, running_server
from muggins.server.net.static import content_security_policy


async def get(server: Server, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    def fetch() -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        found = (response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        conn.close()
        return found

    return await asyncio.to_thread(fetch)


@pytest.mark.parametrize("path", ["/", "/r/KXPWTR", "/w/kxpwtr", "/r/KXPWTR?x=1"])
async def test_page_routes_give_the_page(server: Server, path: str) -> None:
    """The front page, a room link and a watch link all give index.html, as HTML."""
    status, headers, body = await get(server, path)
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b'<script type="module" src="/static/app.js">' in body


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/static/app.js", "text/javascript; charset=utf-8"),
        ("/static/style.css", "text/css; charset=utf-8"),
        ("/static/icon.svg", "image/svg+xml"),
    ],
)
async def test_static_files_have_their_content_type(server: Server, path: str, kind: str) -> None:
    """Each file is served with its own type and a content-hash ETag."""
    status, headers, body = await get(server, path)
    assert status == 200 and headers["content-type"] == kind and body
    assert headers["etag"].startswith('"') and len(headers["etag"]) == 22


async def test_security_headers_on_every_page(server: Server) -> None:
    """CSP without inline script and with connections only to this host, nosniff, no referrer,
    no framing, and revalidation through the ETag (304 with no body)."""
    _, headers, _ = await get(server, "/static/app.js", Host=f"127.0.0.1:{server.port}")
    csp = headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert f"connect-src 'self' ws://127.0.0.1:{server.port} wss://127.0.0.1:{server.port};" in csp
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-cache"
    again, headers2, body = await get(
        server, "/static/app.js", **{"If-None-Match": headers["etag"]}
    )
    assert (again, body) == (304, b"") and headers2["etag"] == headers["etag"]


def test_a_strange_host_header_is_not_copied_into_the_policy() -> None:
    """A Host header that is not a host name (an injection attempt) leaves only 'self'."""
    policy = content_security_policy("evil.example; script-src *")
    assert "connect-src 'self';" in policy and "evil" not in policy


@pytest.mark.parametrize("path", ["/nope", "/static/../server/app.py", "/static/", "/r/AB1"])
async def test_anything_else_is_404(server: Server, path: str) -> None:
    """Unknown paths, path climbing and malformed room links are a plain 404."""
    status, headers, _ = await get(server, path)
    assert status == 404 and headers["x-content-type-options"] == "nosniff"


async def test_health_metrics_and_the_websocket_still_work(server: Server) -> None:
    """/healthz and /metrics answer as before, and a WebSocket upgrade on / still plays."""
    assert (await get(server, "/healthz"))[2] == b"ok\n"
    assert b"muggins" in (await get(server, "/metrics"))[2]
    async with connect(server.url) as ws:
        await ws.send('{"type": "ping"}')
        assert "pong" in str(await ws.recv())


async def test_the_page_of_this_server_may_connect_with_allowed_origins_set() -> None:
    """With --allowed-origin, the server's own pages (Origin = its own address) still connect;
    other origins are refused with 403."""
    config = with_options(allowed_origins=("https://cards.example",))
    async with running_server(config) as server:
        own = f"http://127.0.0.1:{server.port}"
        async with connect(server.url, origin=own) as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "ping"}')
            assert "pong" in str(await ws.recv())
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, origin="http://127.0.0.1:1")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403


async def test_text_files_are_served_gzipped_to_a_browser_that_takes_gzip(server: Server) -> None:
    """A browser sending Accept-Encoding: gzip gets the page, its modules and its style
    compressed (smaller, the same bytes once unpacked, Vary set); each copy has its own ETag and
    revalidates to 304."""
    import gzip

    for path in ("/", "/static/app.js", "/static/style.css"):
        _, plain_headers, plain = await get(server, path)
        status, headers, body = await get(server, path, **{"Accept-Encoding": "gzip, deflate, br"})
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
        assert headers["vary"] == "Accept-Encoding" == plain_headers["vary"]
        assert "content-encoding" not in plain_headers
        assert headers["etag"] != plain_headers["etag"]
        again, _, empty = await get(
            server, path, **{"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]}
        )
        assert (again, empty) == (304, b"")


@pytest.mark.parametrize("accept", ["identity", "gzip;q=0", "br", "deflate, gzip ; q=0.0"])
async def test_no_gzip_to_a_client_that_refuses_it(server: Server, accept: str) -> None:
    """gzip is sent only when the client takes it: not named, or named with q=0, gives the
    plain bytes."""
    _, _, plain = await get(server, "/static/app.js")
    _, headers, body = await get(server, "/static/app.js", **{"Accept-Encoding": accept})
    assert "content-encoding" not in headers and body == plain
