"""The browser client's pages, served from package data on the WebSocket's own port.

Every file under ``server/www/`` is read once, when the server starts, and served from memory
with its content type, an ``ETag`` (a hash of its bytes; ``If-None-Match`` gets 304),
compressed with gzip once at start (text files, when that is smaller) and sent so to any browser
whose ``Accept-Encoding`` takes gzip (``Vary: Accept-Encoding``; the compressed copy has its own
ETag, the plain one's with ``-gz``),
``Cache-Control: no-cache`` (the browser revalidates, so a new version is picked up at once)
and the security headers: a strict Content-Security-Policy (scripts, styles and images only from
this server, no inline script, connections only to this server and to the cluster nodes that may
send a page on), ``nosniff``, no referrer (room
links name a room) and no framing.

Routes: ``/`` and ``/r/CODE`` (play) and ``/w/CODE`` (watch) all give ``index.html``, which reads
the path itself; ``/static/NAME`` gives a file. Anything else is a plain 404.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import http
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}
"""The only kinds of file served; anything else under www/ is left out."""

PAGE_ROUTE = re.compile(r"^/(?:(?:r|w)/[A-Za-z]{4,12}/?|moderation/?)?$")
HOST = re.compile(r"^[A-Za-z0-9.\-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$")


def content_security_policy(host: str | None, connect: tuple[str, ...] = ()) -> str:
    """The page may load only this server's own files and talk only to this server (and to the
    cluster's nodes in ``connect``, where a node may send it: see :func:`connect_sources`).

    ``connect-src 'self'`` covers ws:/wss: to the same host in CSP level 3; the explicit
    ``ws://HOST wss://HOST`` sources keep older browsers working too.
    """
    connect_src = "'self'"
    if host is not None and HOST.match(host):
        connect_src += f" ws://{host} wss://{host}"
    connect = tuple(c for c in connect if c not in connect_src.split())
    connect_src = " ".join((connect_src, *connect))
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect_src}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


def connect_sources(allowed_origins: tuple[str, ...], node_url: str | None) -> tuple[str, ...]:
    """Where else a cluster node's pages may open their WebSocket, since a node may send them on
    to a room's owner (close code 4001): each ``--allowed-origin`` (the cluster's other nodes, as
    ``ws:``/``wss:``), and with ``--node-url`` its host on any port (the other processes of this
    machine). Anything that is not a plain scheme and host is left out.

    >>> connect_sources(("https://a.example", "http://10.0.0.2:8765"), "ws://10.0.0.1:9001")
    ('wss://a.example', 'ws://10.0.0.2:8765', 'ws://10.0.0.1:*')
    >>> connect_sources(("https://x; script-src *",), None)
    ()
    """
    sources = []
    for origin in allowed_origins:
        scheme, _, host = origin.partition("://")
        if scheme in ("http", "https") and HOST.match(host):
            sources.append(f"{'wss' if scheme == 'https' else 'ws'}://{host}")
    if node_url is not None:
        scheme, _, rest = node_url.partition("://")
        host = rest.split("/", 1)[0]
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if scheme in ("ws", "wss") and HOST.match(name):
            sources.append(f"{scheme}://{name}:*")
    return tuple(sources)


COMPRESSIBLE = ("text/", "image/svg+xml", "application/json")
"""Kinds worth compressing (PNG and icons already are)."""

ACCEPTS_GZIP = re.compile(
    r"(?:^|,)\s*(?:gzip|\*)\s*(?:;\s*q\s*=\s*(?P<q>[0-9.]+))?\s*(?=,|$)", re.I
)


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None
    """The body compressed once at start (None: not worth it)."""

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gz"'


def make_asset(body: bytes, content_type: str) -> Asset:
    """A file as served: its ETag (a hash of its bytes) and its gzip copy when that is smaller."""
    tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    packed = None
    if content_type.startswith(COMPRESSIBLE):
        packed = gzip.compress(body, compresslevel=9, mtime=0)  # mtime 0: the same bytes each start
        if len(packed) >= len(body):
            packed = None
    return Asset(body, content_type, tag, packed)


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (named or ``*``, with q above 0)."""
    for found in ACCEPTS_GZIP.finditer(accept_encoding):
        q = found.group("q")
        try:
            if q is None or float(q) > 0:
                return True
        except ValueError:
            continue
    return False


def load_assets(root: Traversable | None = None) -> dict[str, Asset]:
    """Every servable file under www/, keyed by its path below it ("index.html", "app.js")."""
    root = root or resources.files("muggins.server") / "www"
    assets: dict[str, Asset] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            name = prefix + entry.name
            if entry.is_dir():
                walk(entry, name + "/")
                continue
            suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
            kind = CONTENT_TYPES.get(suffix)
            if kind is None or entry.name.endswith(".d.ts"):
                continue
            assets[name] = make_asset(entry.read_bytes(), kind)

    if root.is_dir():
        walk(root, "")
    return assets


class StaticSite:
    """Answers the plain HTTP GETs that are not WebSocket upgrades."""

    def __init__(
        self, assets: dict[str, Asset] | None = None, *, connect: tuple[str, ...] = ()
    ) -> None:
        self.assets = load_assets() if assets is None else assets
        self.connect = connect
        """Other nodes the pages may connect to (:func:`connect_sources`)."""

    def respond(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0].split("#", 1)[0]
        if PAGE_ROUTE.match(path):
            asset = self.assets.get("index.html")
        elif path.startswith("/static/") and ".." not in path:
            asset = self.assets.get(path.removeprefix("/static/"))
        else:
            asset = None
        host = request.headers.get("Host")
        if asset is None:
            return self._response(http.HTTPStatus.NOT_FOUND, b"not found\n", host)
        body, etag = asset.body, asset.etag
        headers = {"Content-Type": asset.content_type}
        if asset.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
            if accepts_gzip(request.headers.get("Accept-Encoding", "")):
                body, etag = asset.gzipped, asset.gzip_etag
                headers["Content-Encoding"] = "gzip"
        headers["ETag"] = etag
        if etag in request.headers.get("If-None-Match", ""):
            return self._response(http.HTTPStatus.NOT_MODIFIED, b"", host, headers)
        return self._response(http.HTTPStatus.OK, body, host, headers)

    def _response(
        self,
        status: http.HTTPStatus,
        body: bytes,
        host: str | None,
        extra: dict[str, str] | None = None,
    ) -> Response:
        headers = Headers(
            [
                ("Date", email.utils.formatdate(usegmt=True)),
                ("Connection", "close"),
                ("Content-Type", "text/plain; charset=utf-8"),
            ]
        )
        for key, value in (extra or {}).items():
            if key in headers:
                del headers[key]
            headers[key] = value
        if status != http.HTTPStatus.NOT_MODIFIED:
            headers["Content-Length"] = str(len(body))
        headers["Cache-Control"] = "no-cache"
        headers["Content-Security-Policy"] = content_security_policy(host, self.connect)
        headers["X-Content-Type-Options"] = "nosniff"
        headers["Referrer-Policy"] = "no-referrer"
        headers["X-Frame-Options"] = "DENY"
        headers["Cross-Origin-Opener-Policy"] = "same-origin"
        return Response(status.value, status.phrase, headers, body)


def same_origin(origin: str, host: str | None) -> bool:
    """Whether a browser's ``Origin`` is this server itself (the page it served)."""
    if host is None:
        return False
    return origin in (f"http://{host}", f"https://{host}")
