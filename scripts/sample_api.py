#!/usr/bin/env python3
"""A small JSON sample backend for the package's integration tests.

It serves a JSONPlaceholder-style API (todos, one article, bearer-token auth)
over a real loopback socket, so the Swift tests can exercise what an
in-process fake cannot: real timeouts, cancellation, dropped and reset
connections, truncated bodies. An in-process Swift twin implements the same
contract and a contract test compares the two, so names, status codes, JSON
keys and the seed-data algorithm here must stay in sync with it.

Usage:
    python3 scripts/sample_api.py [--host 127.0.0.1] [--port 0]
                                  [--exit-on-stdin-eof] [--verbose]
    python3 scripts/sample_api.py --serve-many [--host 127.0.0.1] [--verbose]

The first line written to stdout is the base URL (e.g.
``http://127.0.0.1:54321``), flushed as soon as the socket is listening.
Nothing else is ever written to stdout. SIGTERM and SIGINT stop the server
cleanly with exit code 0.

With --serve-many the process starts servers on request instead (see
serve_many): each is a forked child with its own state, so a test run pays
Python's start-up once rather than once per server.

Routes (JSON in and out; errors are ``{"error": "<short message>"}``):
    GET    /todos              ?userId=<int>&completed=true|false[&page=<n>&pageSize=<1-100>]
    POST   /todos              {"title", "userId"?, "completed"?}      -> 201
    GET    /todos/{id}
    PATCH  /todos/{id}         any of {"title", "completed", "userId"}
    DELETE /todos/{id}                                                 -> 204
    GET    /articles/today
    POST   /auth/login         {"username", "password"}
    POST   /auth/refresh       {"refreshToken"}   (rotates the refresh token)
Todo routes require a bearer access token while the ``requireAuth`` config
flag is on, which it is by default. Checks run in this order: unknown path
404, other method 405, bearer token 401, then the handler's own 404 (unknown
or non-numeric id) and 400 (bad body).

Control hooks for tests (never counted, faulted or protected):
    POST   /_control/reset         restore the seed state and defaults -> 204
    GET    /_control/config        {"tokenLifetime", "requireAuth"}
    POST   /_control/config        change any of those
    POST   /_control/faults        queue a fault (see Fault below)     -> 201
    DELETE /_control/faults        clear all faults                    -> 204
    POST   /_control/release       end every delay in progress now     -> {"released"}
    POST   /_control/revoke        every access token issued so far stops working; refresh
                                   tokens keep working                 -> {"revoked"}
    GET    /_control/counters      request/login/refresh/cancel counts
    GET    /_control/routes        the route table: [{"method", "path", "authenticated"}]
    GET    /_control/received      the raw request lines and headers received
    ANY    /_control/echo          answers ?status= (default 400) echoing the request;
                                   ?part=body|query|path|header:<name> echoes only those,
                                   each ?contentType= is sent as a Content-Type header;
                                   ?ascii=1 escapes what is not ASCII, as Django's
                                   JsonResponse and Flask's jsonify do
Transport probes (``/_probe/``, see TransportProbes): 401 challenges,
floods, a compressed body, replies framed or written exactly as asked, and an
echo and a redirect that record what arrived.

Python standard library only; runs on Python 3.9+.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import email.policy
import json
import math
import os
import re
import secrets
import select
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
import traceback
import zlib
from email.message import Message
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, parse_qsl, quote, unquote

# ---------------------------------------------------------------------------
# Fixed data. Must match the Swift twin value for value.
# ---------------------------------------------------------------------------

WORDS = [
    "delectus", "aut", "autem", "quis", "ut", "nam", "facere", "fugiat",
    "veniam", "laboriosam", "qui", "sint", "omnis", "et", "illo", "expedita",
    "consequatur", "molestiae", "nesciunt", "repellendus",
]
SEED_TODO_COUNT = 200

ARTICLE = {
    "id": 1,
    "title": "Streams that outlive their errors",
    "body": (
        "A failed request should end one piece of work, "
        "never the stream of user input that started it."
    ),
    "publishedAt": "2026-11-21T08:00:00Z",
}

USERNAME = "demo"
PASSWORD = "correct-horse-battery-staple"

DEFAULT_TOKEN_LIFETIME = 3600  # seconds
MAX_EXPIRES_IN = 2**63 - 1  # the largest expiresIn reported, whatever the lifetime
DEFAULT_REQUIRE_AUTH = True

JSON_CONTENT_TYPE = "application/json; charset=utf-8"
MALFORMED_BODY = b'{"this is": not json'
BODY_MODIFIERS = ("truncated", "malformed", "empty", "reset", "close")
CONTROL_PREFIX = "/_control/"
RECEIVED_LIMIT = 100  # request lines kept for GET /_control/received
ECHO_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

# How often a delayed request checks whether its client is still there, and
# whether POST /_control/release has ended its delay.
DISCONNECT_POLL_SECONDS = 0.05


def seed_todos() -> Dict[int, dict]:
    """Build the 200 deterministic seed todos, keyed by id."""
    todos = {}
    for todo_id in range(1, SEED_TODO_COUNT + 1):
        word_count = 3 + todo_id % 4
        words = [WORDS[(todo_id * 7 + k * 11) % 20] for k in range(word_count)]
        todos[todo_id] = {
            "userId": (todo_id - 1) // 20 + 1,
            "id": todo_id,
            "title": " ".join(words),
            "completed": (todo_id * 37) % 5 < 2,
        }
    return todos


# ---------------------------------------------------------------------------
# Requests, responses and JSON validation helpers
# ---------------------------------------------------------------------------


class HTTPError(Exception):
    """Raised by route handlers to answer with an error response."""

    def __init__(self, status: int, message: str, headers: List[Tuple[str, str]] = ()):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = list(headers)


@dataclasses.dataclass
class Request:
    method: str
    path: str  # without the query string, not percent-decoded
    query: Dict[str, List[str]]
    headers: Message
    body: bytes


@dataclasses.dataclass
class Response:
    status: int
    body: bytes = b""
    content_type: Optional[str] = None
    headers: List[Tuple[str, str]] = dataclasses.field(default_factory=list)


def json_response(status: int, value: Any, headers: List[Tuple[str, str]] = ()) -> Response:
    body = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Response(status, body, JSON_CONTENT_TYPE, list(headers))


def page_response(request: "Request", items: List[dict], link: str) -> Optional[Response]:
    """One page of `items` with links to its neighbours, `{count, next, previous, results}`, when
    the request asks for pages (`page`, from 1, or `pageSize`, 1-100, default 20); a 400 for a bad
    value; None when it does not ask, for the whole list. `link` is the list's path and query so
    far, ending with `?` or `&`."""
    page_text = query_value(request, "page")
    size_text = query_value(request, "pageSize")
    if page_text is None and size_text is None:
        return None
    page = int(page_text) if page_text is not None and _INTEGER_TEXT.fullmatch(page_text) else None
    if page_text is None:
        page = 1
    if page is None or not 1 <= page <= _MAX_INT:
        raise HTTPError(400, "'page' must be a positive integer")
    size = int(size_text) if size_text is not None and _INTEGER_TEXT.fullmatch(size_text) else None
    if size_text is None:
        size = 20
    if size is None or not 1 <= size <= 100:
        raise HTTPError(400, "'pageSize' must be an integer from 1 to 100")

    def url(number: int) -> str:
        return f"{link}page={number}&pageSize={size}"

    start = min((page - 1) * size, len(items))  # Python's integers cannot overflow
    return json_response(200, {
        "count": len(items),
        "next": url(page + 1) if start + size < len(items) else None,
        "previous": url(page - 1) if page > 1 else None,
        "results": items[start:start + size],
    })


def error_response(status: int, message: str, headers: List[Tuple[str, str]] = ()) -> Response:
    return json_response(status, {"error": message}, headers)


def _reject_constant(name: str) -> None:
    # The json module accepts NaN and Infinity by default; they are not JSON.
    raise ValueError(f"invalid JSON constant {name}")


def _first_member_wins(pairs: List[Tuple[str, Any]]) -> dict:
    # Of two members with one name, the in-process twin's JSONDecoder keeps the first.
    members: dict = {}
    for name, value in pairs:
        members.setdefault(name, value)
    return members


def _number(text: str) -> Any:
    # The in-process twin's JSONDecoder reads a number with a whole value in Int's range (4.0,
    # 1e2) as an integer, and refuses the whole body for one too large for a Double (1e400).
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return int(value) if value.is_integer() and _fits_int(value) else value


def parse_json_object(body: bytes) -> dict:
    """Decode a request body that must be a JSON object, or raise a 400. Read as the
    in-process twin reads it: a leading byte order mark is skipped, and a string holding half
    of a surrogate pair, which no UTF-8 text can carry, makes the body malformed."""
    try:
        text = body.decode("utf-8")
        value = json.loads(text[1:] if text.startswith("\ufeff") else text,
                           parse_constant=_reject_constant, parse_float=_number,
                           object_pairs_hook=_first_member_wins)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError, RecursionError):
        raise HTTPError(400, "malformed JSON body") from None
    if not isinstance(value, dict):
        raise HTTPError(400, "JSON body must be an object")
    return value


# Type checks. bool is a subclass of int in Python, so `true` must be
# explicitly excluded wherever an integer or number is expected.
def is_string(value: Any) -> bool:
    return isinstance(value, str)


def is_boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fits_int(value: Any) -> bool:
    """Whether `value` is in the range of Swift's Int, which the in-process twin reads it as."""
    return -_MAX_INT - 1 <= value <= _MAX_INT


def is_integer(value: Any) -> bool:
    return _is_whole(value) and _fits_int(value)


def is_non_negative_number(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value) and value >= 0
    return _is_whole(value) and value >= 0


def get_field(payload: dict, key: str, check: Callable[[Any], bool],
              expected: str, required: bool = False) -> Any:
    """Return payload[key] after a type check, or None when it is absent.

    An explicit JSON null counts as absent, like an optional property
    decoded with Swift's Codable.
    """
    value = payload.get(key)
    if value is None:
        if required:
            raise HTTPError(400, f"missing field '{key}'")
        return None
    if not check(value):
        raise HTTPError(400, f"'{key}' must be {expected}")
    return value


# The code points with Unicode's White_Space property, which the Swift twin trims. `str.strip()`
# would also take the separators U+001C to U+001F, and keep none of a title made of them.
WHITE_SPACE = ("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
               "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def get_title(payload: dict, required: bool) -> Optional[str]:
    """A todo title: a string that is not empty once the White_Space at its ends is stripped."""
    title = get_field(payload, "title", is_string, "a string", required)
    if title is None:
        return None
    title = title.strip(WHITE_SPACE)
    if not title:
        raise HTTPError(400, "'title' must not be empty")
    return title


_INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")
_MAX_INT = 2**63 - 1  # Swift's Int: a larger number is no integer to the in-process twin


def query_value(request: Request, name: str) -> Optional[str]:
    values = request.query.get(name)
    return values[0] if values else None


def lower_each(text: str) -> str:
    """`text` with each character lower-cased on its own, as Swift's `lowercased()` does:
    `str.lower()` writes a capital sigma at a word's end as a final ς, Swift always as σ."""
    return "".join(character.lower() for character in text)


def title_search(request: Request) -> Tuple[Optional[str], str]:
    """A list's `q`: what a lower-cased title must contain (see `lower_each`), and `q=…&` for
    the page links (RFC 3986 unreserved characters kept, as the Swift twin writes it), or ""."""
    search = query_value(request, "q")
    if search is None:
        return None, ""
    return lower_each(search), f"q={quote(search, safe='-._~')}&"


def bearer_token(authorization: Optional[str]) -> Optional[str]:
    """Extract the token from an `Authorization: Bearer <token>` header."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


# ---------------------------------------------------------------------------
# Routing
# ---------------------------------------------------------------------------

Handler = Callable[..., Response]


class Router:
    """Matches a path against regex patterns and calls the method's handler.

    Answers 404 for unknown paths and 405 (with an Allow header) for a known
    path with an unsupported method. Named groups in the pattern become
    keyword arguments of the handler.
    """

    def __init__(self, routes: List[Tuple[str, Dict[str, Handler], bool]],
                 authorize: Optional[Callable[[Request], None]] = None):
        self._routes = [(re.compile(pattern), handlers, protected)
                        for pattern, handlers, protected in routes]
        self._authorize = authorize

    def dispatch(self, request: Request) -> Response:
        for pattern, handlers, protected in self._routes:
            match = pattern.fullmatch(request.path)
            if match is None:
                continue
            handler = handlers.get(request.method)
            if handler is None:
                allow = ", ".join(sorted(handlers))
                return error_response(405, "method not allowed", [("Allow", allow)])
            try:
                if protected and self._authorize is not None:
                    self._authorize(request)
                return handler(request, **match.groupdict())
            except HTTPError as error:
                return error_response(error.status, error.message, error.headers)
        return error_response(404, "not found")


@dataclasses.dataclass
class Route:
    """One contract route: method, path template and handler.

    A ``{name}`` segment of the template matches any one path segment and
    reaches the handler as a keyword argument, percent-decoded.
    """

    method: str
    path: str
    authenticated: bool
    handler: Handler

    def match(self, segments: List[str]) -> Optional[Dict[str, str]]:
        template = [part for part in self.path.split("/") if part]
        if len(template) != len(segments):
            return None
        params = {}
        for part, value in zip(template, segments):
            if len(part) > 2 and part.startswith("{") and part.endswith("}"):
                params[part[1:-1]] = value
            elif part != value:
                return None
        return params

    def to_json(self) -> dict:
        return {"method": self.method, "path": self.path, "authenticated": self.authenticated}


def path_segments(path: str) -> List[str]:
    """Split a path as sent, then percent-decode each segment on its own.

    Empty segments are dropped, so `/todos/` is `/todos`. An encoded slash
    or dot stays inside its segment and cannot reach another route.
    A segment that does not decode as UTF-8 is kept as sent.
    """
    segments = []
    for raw in path.split("/"):
        if not raw:
            continue
        try:
            segments.append(unquote(raw, errors="strict"))
        except UnicodeDecodeError:
            segments.append(raw)
    return segments


class RouteTable:
    """The contract's dispatch, shared with the Swift twin (`SampleAPI+Dispatch.swift`).

    The order of the checks is part of the contract: an unknown path is
    404; a known path with another method is 405 with Allow; then the
    bearer check of an authenticated route (401); only then the handler,
    which decides about ids (404) and bodies (400). A protected collection
    never tells a caller without a valid token which ids exist or are
    well-formed.
    """

    def __init__(self, routes: List[Route], authorize: Callable[[Request], None]):
        self.routes = routes
        self._authorize = authorize

    def dispatch(self, request: Request) -> Response:
        segments = path_segments(request.path)
        allowed = set()
        for route in self.routes:
            params = route.match(segments)
            if params is None:
                continue
            if route.method != request.method:
                allowed.add(route.method)
                continue
            try:
                if route.authenticated:
                    self._authorize(request)
                return route.handler(request, **params)
            except HTTPError as error:
                return error_response(error.status, error.message, error.headers)
        if allowed:
            return error_response(405, "method not allowed", [("Allow", ", ".join(sorted(allowed)))])
        return error_response(404, "not found")


# ---------------------------------------------------------------------------
# Faults
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Fault:
    """A misbehaviour injected for the next `count` matching requests.

    Applied in this order: `delay` (abandoned if the client disconnects,
    cut short by POST /_control/release),
    `body == "reset"` (abort the connection, nothing written), `body ==
    "close"` (close it cleanly, nothing written), `status`
    (replace the route's response with an injected error), then the body
    modifiers "malformed", "empty" and "truncated" on whatever response
    was produced.
    """

    path: str
    method: Optional[str]  # None matches any method
    count: int  # remaining uses; -1 means forever
    status: Optional[int] = None
    retry_after: Optional[str] = None
    delay: Optional[float] = None
    body: Optional[str] = None
    location: Optional[str] = None  # sent as a Location header with `status` (redirect tests)

    @classmethod
    def from_json(cls, payload: dict) -> "Fault":
        path = get_field(payload, "path", is_string, "a string", required=True)
        if not path.startswith("/"):
            raise HTTPError(400, "'path' must start with '/'")

        method = get_field(payload, "method", is_string, "a string")
        if method is not None:
            method = method.strip().upper()
            if not method:
                raise HTTPError(400, "'method' must not be empty")

        count = get_field(payload, "count", is_integer, "an integer")
        if count is None:
            count = 1
        elif count < 1 and count != -1:
            raise HTTPError(400, "'count' must be positive, or -1 for forever")

        status = get_field(payload, "status", is_integer, "an integer")
        if status is not None and not 200 <= status <= 599:
            raise HTTPError(400, "'status' must be between 200 and 599")

        retry_after = get_field(payload, "retryAfter", is_string, "a string")
        if retry_after is not None and ("\r" in retry_after or "\n" in retry_after):
            raise HTTPError(400, "'retryAfter' must be a single-line header value")

        delay = get_field(payload, "delay", is_non_negative_number, "a non-negative number")

        body = get_field(payload, "body", is_string, "a string")
        if body is not None and body not in BODY_MODIFIERS:
            raise HTTPError(400, "'body' must be one of " + ", ".join(BODY_MODIFIERS))

        location = get_field(payload, "location", is_string, "a string")
        if location is not None and ("\r" in location or "\n" in location):
            raise HTTPError(400, "'location' must be a single-line header value")

        return cls(path, method, count, status, retry_after, delay, body, location)

    def matches(self, method: str, path: str) -> bool:
        return self.path == path and (self.method is None or self.method == method)

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "method": self.method,
            "count": self.count,
            "status": self.status,
            "retryAfter": self.retry_after,
            "delay": self.delay,
            "body": self.body,
            "location": self.location,
        }


# ---------------------------------------------------------------------------
# The API: shared state plus route handlers
# ---------------------------------------------------------------------------


class SampleAPI:
    """All mutable state and the route handlers that use it.

    Handler threads run concurrently, so every read or write of the state
    happens while holding `self.lock`. The lock is never held while sleeping
    or doing socket I/O.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._restore_defaults()
        # Live figures, not state: a reset does not touch them. A delay ends
        # early once the generation differs from the one it began in.
        self.delays_in_progress = 0
        self.release_generation = 0

        # The same table, in the same order, as the Swift twin's `builtInRoutes`;
        # GET /_control/routes lists it for the contract tests.
        self.api_router = RouteTable(
            [
                Route("GET", "/todos", True, self.list_todos),
                Route("POST", "/todos", True, self.create_todo),
                Route("GET", "/todos/{id}", True, self.get_todo),
                Route("PATCH", "/todos/{id}", True, self.update_todo),
                Route("DELETE", "/todos/{id}", True, self.delete_todo),
                Route("GET", "/articles/today", False, self.get_article),
                Route("POST", "/auth/login", False, self.login),
                Route("POST", "/auth/refresh", False, self.refresh),
                # The collections scripts/new-feature wrote, as in the Swift twin's
                # `scaffoldedRoutes`: one line per feature.
                # new-feature: routes
            ],
            authorize=self.authorize,
        )
        self.control_router = Router(
            [
                (r"/_control/reset", {"POST": self.reset}, False),
                (r"/_control/config", {"GET": self.get_config, "POST": self.set_config}, False),
                (r"/_control/faults", {"POST": self.add_fault, "DELETE": self.clear_faults}, False),
                (r"/_control/release", {"POST": self.release_delays}, False),
                (r"/_control/revoke", {"POST": self.revoke_access_tokens}, False),
                (r"/_control/counters", {"GET": self.get_counters}, False),
                (r"/_control/routes", {"GET": self.get_routes}, False),
                (r"/_control/received", {"GET": self.get_received}, False),
                (r"/_control/echo", {m: self.echo for m in ECHO_METHODS}, False),
            ]
        )

    def _restore_defaults(self) -> None:
        """(Re)initialise all state. Callers hold the lock (or are __init__)."""
        self.todos = seed_todos()
        self.next_id = SEED_TODO_COUNT + 1
        self.access_tokens: Dict[str, float] = {}  # token -> time.monotonic() expiry
        self.refresh_tokens: set = set()
        self.faults: List[Fault] = []
        self.requests = 0
        self.logins = 0
        self.refreshes = 0
        self.cancelled = 0
        self.authorized = 0  # requests that carried an Authorization header
        self.path_counts: Dict[str, int] = {}
        self.token_lifetime: float = DEFAULT_TOKEN_LIFETIME
        self.require_auth = DEFAULT_REQUIRE_AUTH
        self.received: List[dict] = []  # see record_received
        # Scaffolded collections by name: {"records": {id: record}, "next_id": int}.
        self.collections: Dict[str, dict] = {}

    # -- bookkeeping called by the request handler ---------------------------

    def begin_request(self, method: str, path: str,
                      has_authorization: bool) -> Tuple[Optional[Fault], int]:
        """Count a non-control request and consume the first matching fault.

        Returns a snapshot of that fault, or None, and the release generation
        its delay begins in. Counting happens here, on arrival, so faulted and
        cancelled requests are counted too. A delay is in progress from here
        on, under the same lock, so a release sent after a test saw the
        request counted always finds it.
        """
        with self.lock:
            self.requests += 1
            if has_authorization:
                self.authorized += 1
            key = f"{method} {path}"
            self.path_counts[key] = self.path_counts.get(key, 0) + 1
            if method == "POST" and path == "/auth/login":
                self.logins += 1
            elif method == "POST" and path == "/auth/refresh":
                self.refreshes += 1

            for index, fault in enumerate(self.faults):
                if fault.matches(method, path):
                    snapshot = dataclasses.replace(fault)
                    if fault.count != -1:
                        fault.count -= 1
                        if fault.count == 0:
                            del self.faults[index]
                    if snapshot.delay:
                        self.delays_in_progress += 1
                    return snapshot, self.release_generation
            return None, self.release_generation

    def count_cancelled(self) -> None:
        with self.lock:
            self.cancelled += 1

    def end_delay(self) -> None:
        with self.lock:
            self.delays_in_progress -= 1

    def released_since(self, generation: int) -> bool:
        with self.lock:
            return self.release_generation != generation

    def authorize(self, request: Request) -> None:
        """Enforce bearer auth on protected routes when requireAuth is on."""
        token = bearer_token(request.headers.get("Authorization"))
        with self.lock:
            if not self.require_auth:
                return
            expiry = self.access_tokens.get(token) if token else None
        if token is None:
            raise HTTPError(401, "unauthorized", [("WWW-Authenticate", "Bearer")])
        # A lifetime of 0 yields expiry == issue time, i.e. already expired.
        if expiry is None or time.monotonic() >= expiry:
            raise HTTPError(401, "unauthorized",
                            [("WWW-Authenticate", 'Bearer error="invalid_token"')])

    # -- todos ----------------------------------------------------------------

    def list_todos(self, request: Request) -> Response:
        user_id = None
        text = query_value(request, "userId")
        if text is not None:
            user_id = int(text) if _INTEGER_TEXT.fullmatch(text) else None
            if user_id is None or not _fits_int(user_id):
                raise HTTPError(400, "'userId' must be an integer")

        completed = None
        text = query_value(request, "completed")
        if text is not None:
            if text not in ("true", "false"):
                raise HTTPError(400, "'completed' must be true or false")
            completed = text == "true"

        needle, search_filter = title_search(request)
        with self.lock:
            todos = [
                dict(todo) for todo in sorted(self.todos.values(), key=lambda t: t["id"])
                if (user_id is None or todo["userId"] == user_id)
                and (completed is None or todo["completed"] == completed)
                and (needle is None or needle in lower_each(todo["title"]))
            ]
        # The links keep the filters, in the order the contract gives, so both servers write them alike.
        filters = "".join(
            f"{name}={value}&" for name, value in (
                ("userId", None if user_id is None else str(user_id)),
                ("completed", None if completed is None else ("true" if completed else "false")),
            ) if value is not None
        ) + search_filter
        return page_response(request, todos, f"/todos?{filters}") or json_response(200, todos)

    @staticmethod
    def _todo_id(params: Dict[str, str]) -> int:
        """The `{id}` of a todo route: ASCII digits only, else 404 (after auth)."""
        text = params.get("id", "")
        if not re.fullmatch(r"[0-9]+", text, flags=re.ASCII):
            raise HTTPError(404, "not found")
        return int(text)

    def get_todo(self, request: Request, **params: str) -> Response:
        todo_id = self._todo_id(params)
        with self.lock:
            todo = self.todos.get(todo_id)
            if todo is None:
                raise HTTPError(404, "not found")
            return json_response(200, todo)

    def create_todo(self, request: Request) -> Response:
        payload = parse_json_object(request.body)
        title = get_title(payload, required=True)
        user_id = get_field(payload, "userId", is_integer, "an integer")
        completed = get_field(payload, "completed", is_boolean, "a boolean")
        with self.lock:
            todo = {
                "userId": 1 if user_id is None else user_id,
                "id": self.next_id,
                "title": title,
                "completed": False if completed is None else completed,
            }
            self.todos[todo["id"]] = todo
            self.next_id += 1
            return json_response(201, todo)

    def update_todo(self, request: Request, **params: str) -> Response:
        todo_id = self._todo_id(params)
        with self.lock:
            # An unknown id is reported before a bad body.
            todo = self.todos.get(todo_id)
            if todo is None:
                raise HTTPError(404, "not found")
            payload = parse_json_object(request.body)
            # Validate every field before changing anything.
            title = get_title(payload, required=False)
            completed = get_field(payload, "completed", is_boolean, "a boolean")
            user_id = get_field(payload, "userId", is_integer, "an integer")
            if title is not None:
                todo["title"] = title
            if completed is not None:
                todo["completed"] = completed
            if user_id is not None:
                todo["userId"] = user_id
            return json_response(200, todo)

    def delete_todo(self, request: Request, **params: str) -> Response:
        todo_id = self._todo_id(params)
        with self.lock:
            if self.todos.pop(todo_id, None) is None:
                raise HTTPError(404, "not found")
        return Response(204)

    # -- scaffolded collections ---------------------------------------------------

    def collection_routes(self, name: str, singular: str, operations: str,
                          id_prefix: Optional[str] = None) -> List[Route]:
        """The routes of a collection of titled records at /<name>, as the Swift
        twin's `SampleCollection`: three seed records ("<singular> 1" to 3, ids
        1 to 3) restored by a reset; `operations` names some of list, detail,
        create, update, delete. Routes come in the contract's order. With an
        `id_prefix` the ids are strings, the number after the prefix
        ("api-key-3")."""
        wanted = set(operations.split())

        def sent(record: dict) -> dict:
            if id_prefix is None:
                return dict(record)
            return {"id": f"{id_prefix}-{record['id']}", "title": record["title"]}

        def record_id(params: Dict[str, str]) -> int:
            if id_prefix is None:
                return self._todo_id(params)
            text = params.get("id", "")
            if not text.startswith(id_prefix + "-"):
                raise HTTPError(404, "not found")
            return self._todo_id({"id": text[len(id_prefix) + 1:]})

        def storage() -> dict:
            # Callers hold the lock.
            if name not in self.collections:
                self.collections[name] = {
                    "records": {i: {"id": i, "title": f"{singular} {i}"} for i in (1, 2, 3)},
                    "next_id": 4,
                }
            return self.collections[name]

        def list_records(request: Request) -> Response:
            needle, search_filter = title_search(request)
            with self.lock:
                records = storage()["records"]
                listed = [sent(records[i]) for i in sorted(records)
                          if needle is None or needle in lower_each(records[i]["title"])]
            return page_response(request, listed, f"/{name}?{search_filter}") or json_response(200, listed)

        def create_record(request: Request) -> Response:
            title = get_title(parse_json_object(request.body), required=True)
            with self.lock:
                store = storage()
                record = {"id": store["next_id"], "title": title}
                store["records"][record["id"]] = record
                store["next_id"] += 1
                return json_response(201, sent(record))

        def get_record(request: Request, **params: str) -> Response:
            number = record_id(params)
            with self.lock:
                record = storage()["records"].get(number)
                if record is None:
                    raise HTTPError(404, "not found")
                return json_response(200, sent(record))

        def update_record(request: Request, **params: str) -> Response:
            number = record_id(params)
            with self.lock:
                record = storage()["records"].get(number)
                if record is None:
                    raise HTTPError(404, "not found")
                title = get_title(parse_json_object(request.body), required=False)
                if title is not None:
                    record["title"] = title
                return json_response(200, sent(record))

        def delete_record(request: Request, **params: str) -> Response:
            number = record_id(params)
            with self.lock:
                if storage()["records"].pop(number, None) is None:
                    raise HTTPError(404, "not found")
            return Response(204)

        table = [
            ("list", "GET", f"/{name}", list_records),
            ("create", "POST", f"/{name}", create_record),
            ("detail", "GET", f"/{name}/{{id}}", get_record),
            ("update", "PATCH", f"/{name}/{{id}}", update_record),
            ("delete", "DELETE", f"/{name}/{{id}}", delete_record),
        ]
        return [Route(method, path, True, handler) for op, method, path, handler in table if op in wanted]

    # -- article ----------------------------------------------------------------

    def get_article(self, request: Request) -> Response:
        return json_response(200, ARTICLE)

    # -- auth -------------------------------------------------------------------

    def _issue_tokens(self) -> dict:
        """Create a fresh access/refresh token pair. Caller holds the lock."""
        access_token = "at-" + secrets.token_hex(16)
        refresh_token = "rt-" + secrets.token_hex(16)
        self.access_tokens[access_token] = time.monotonic() + self.token_lifetime
        self.refresh_tokens.add(refresh_token)
        return {
            "accessToken": access_token,
            "refreshToken": refresh_token,
            # Whole seconds, truncated: a 0.2 s test lifetime reports 0. At most the largest
            # 64-bit integer, as the embedded server reports, whose clients decode an Int.
            "expiresIn": min(int(self.token_lifetime), MAX_EXPIRES_IN),
        }

    def login(self, request: Request) -> Response:
        payload = parse_json_object(request.body)
        username = get_field(payload, "username", is_string, "a string", required=True)
        password = get_field(payload, "password", is_string, "a string", required=True)
        if username != USERNAME or password != PASSWORD:
            raise HTTPError(401, "invalid credentials")
        with self.lock:
            return json_response(200, self._issue_tokens())

    def refresh(self, request: Request) -> Response:
        payload = parse_json_object(request.body)
        token = get_field(payload, "refreshToken", is_string, "a string", required=True)
        with self.lock:
            if token not in self.refresh_tokens:
                raise HTTPError(401, "invalid refresh token")
            # Rotation: a refresh token works once. The old access token is
            # left alone and stays valid until it expires.
            self.refresh_tokens.discard(token)
            return json_response(200, self._issue_tokens())

    # -- control hooks ------------------------------------------------------------

    def reset(self, request: Request) -> Response:
        with self.lock:
            self._restore_defaults()
        return Response(204)

    def _config_json(self) -> dict:
        return {"tokenLifetime": self.token_lifetime, "requireAuth": self.require_auth}

    def get_config(self, request: Request) -> Response:
        with self.lock:
            return json_response(200, self._config_json())

    def set_config(self, request: Request) -> Response:
        payload = parse_json_object(request.body)
        lifetime = get_field(payload, "tokenLifetime", is_non_negative_number,
                             "a non-negative number")
        require_auth = get_field(payload, "requireAuth", is_boolean, "a boolean")
        with self.lock:
            if lifetime is not None:
                self.token_lifetime = lifetime
            if require_auth is not None:
                self.require_auth = require_auth
            return json_response(200, self._config_json())

    def add_fault(self, request: Request) -> Response:
        fault = Fault.from_json(parse_json_object(request.body))
        with self.lock:
            self.faults.append(fault)
            return json_response(201, fault.to_json())

    def clear_faults(self, request: Request) -> Response:
        with self.lock:
            self.faults.clear()
        return Response(204)

    def revoke_access_tokens(self, request: Request) -> Response:
        """Forget every access token issued so far, as a server that rotates its
        signing key does: each is then unknown (401), while refresh tokens still
        work. So a client that believes its token valid meets a real 401."""
        with self.lock:
            revoked = len(self.access_tokens)
            self.access_tokens.clear()
        return json_response(200, {"revoked": revoked})

    def release_delays(self, request: Request) -> Response:
        """End every injected delay in progress now; each request goes on as
        if its delay had run out. Delays that begin later are not affected."""
        with self.lock:
            released = self.delays_in_progress
            self.release_generation += 1
        return json_response(200, {"released": released})

    def get_routes(self, request: Request) -> Response:
        return json_response(200, [route.to_json() for route in self.api_router.routes])

    def get_counters(self, request: Request) -> Response:
        with self.lock:
            return json_response(200, {
                "requests": self.requests,
                "logins": self.logins,
                "refreshes": self.refreshes,
                "cancelled": self.cancelled,
                "authorized": self.authorized,
                "paths": dict(self.path_counts),
            })


    # -- what reached the server (request line and header tests) ---------------

    def record_received(self, raw_line: bytes, headers: Optional[Message]) -> None:
        """Keep the request line and headers exactly as they arrived, before any parsing
        or routing could normalise them; control requests are left out."""
        line = raw_line.decode("latin-1").rstrip("\r\n")
        target = line.split(" ")[1] if line.count(" ") >= 2 else ""
        if target.startswith(CONTROL_PREFIX):
            return
        fields = [[name, value] for name, value in headers.items()] if headers is not None else []
        with self.lock:
            self.received.append({"line": line, "headers": fields})
            del self.received[:-RECEIVED_LIMIT]

    def get_received(self, request: Request) -> Response:
        with self.lock:
            return json_response(200, {"requests": list(self.received)})

    def echo(self, request: Request) -> Response:
        """An error answer that repeats the request, as careless servers do, so tests can
        check that nothing the request carried leaks from an error into logs."""
        status_text = query_value(request, "status") or "400"
        status = int(status_text) if re.fullmatch(r"[0-9]{3}", status_text) else 400
        # Each ?contentType= becomes a header of its own, so a test can send the field twice.
        content_types = [value for value in request.query.get("contentType", [])
                         if "\r" not in value and "\n" not in value]
        echoed = {
            "error": "echo",
            "path": request.path,
            "query": {name: values for name, values in request.query.items()},
            "headers": dict(request.headers.items()),
            "body": request.body.decode("utf-8", "replace"),
        }
        # ?part=body or ?part=header:X-Name keeps the answer short enough to be read whole.
        parts = request.query.get("part")
        if parts:
            echoed = {"error": "echo", **{
                part: request.headers.get(part[len("header:"):]) if part.startswith("header:")
                else echoed.get(part) for part in parts}}
        response = json_response(status, echoed)
        if query_value(request, "ascii") == "1":
            response.body = json.dumps(echoed, separators=(",", ":")).encode("ascii")
        if content_types:
            response.content_type = None
            response.headers.extend(("Content-Type", value) for value in content_types)
        return response


# ---------------------------------------------------------------------------
# Transport probes: what only the client's transport can get wrong
# ---------------------------------------------------------------------------

PROBE_PREFIX = "/_probe/"
FLOOD_CHUNK = b"x" * 65536
FLOOD_CAP = 1024 * 1024 * 1024  # bytes; a flood nobody stops still ends, and soon
FLOOD_TRICKLE_PAUSE = 0.01  # seconds between chunks once a flood's burst is spent


def parse_multipart(content_type: str, body: bytes) -> Optional[List[dict]]:
    """The parts of a multipart/form-data body as Python's email parser reads them, or
    None if it is not multipart: [{"name", "filename", "contentType", "base64"}]."""
    head = b"Content-Type: " + content_type.encode("latin-1", errors="replace") + b"\r\n\r\n"
    message = BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        return None
    return [{"name": part.get_param("name", header="content-disposition"),
             "filename": part.get_filename(),
             "contentType": None if part["Content-Type"] is None else str(part["Content-Type"]),
             "base64": base64.b64encode(part.get_payload(decode=True) or b"").decode("ascii")}
            for part in message.iter_parts()]


class TransportProbes:
    """Hooks for the transport tests, all under ``/_probe/``; never counted or faulted.

        POST /_probe/challenge  {"path", "scheme", "count"?}: the next `count`
                                (default 1) requests for `path` answer 401 with
                                `WWW-Authenticate: <scheme>`
        ANY  /_probe/echo       records the request (a form body also as the
                                [name, value] pairs a form parser reads from it,
                                a multipart one as the parts the email parser
                                reads); answers {"echo": true}
        ANY  /_probe/redirect   ?status=307&to=<url>: records the request and
                                redirects it to `to` (`Location` exactly as
                                given); with ?loop=1, to itself
        GET  /_probe/deflated   ?size=<bytes>: `size` zero bytes, sent gzip-
                                compressed (about a thousandth of that on the
                                wire) with `Content-Encoding: gzip`
        GET  /_probe/raw        ?reply=<text>: exactly `text` (UTF-8, or Latin-1
                                with ?encoding=latin-1) as the whole reply,
                                status line and all, then a close
        GET  /_probe/flood      ?length=<bytes>: a body that never ends (or
                                announces `length` and sends up to it) as fast
                                as the socket takes it; without `length`, no
                                Content-Length and the connection closes.
                                ?burst=<bytes>: only that much as fast as the
                                socket takes it, then a chunk every 10 ms;
                                ?status=<code>: with that status (200)
        GET  /_probe/framing    ?contentLength=<v> (repeatable), ?chunked=1,
                                ?body=<text>: a 200 with exactly those
                                Content-Length fields, however invalid, and
                                that body (chunked if asked), then a close
        GET  /_probe/log        what arrived: {"received": [{"method", "path",
                                "headers", "body", "form"?, "parts"?}], "challenged",
                                "floodsBegun", "floods": [{"bytesSent",
                                "clientLeft", "seconds"}]}; a flood is in
                                "floods" once it has ended, and counted in
                                "floodsBegun" as soon as its request arrives
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.challenges: Dict[str, List[Any]] = {}  # path -> [scheme, remaining]
        self.received: List[dict] = []
        self.challenged = 0
        self.floods: List[dict] = []
        self.floods_begun = 0

    def handle(self, handler: "SampleRequestHandler", request: Request) -> bool:
        """Answer `request` if it is a probe's; return whether it was."""
        if request.path.startswith(PROBE_PREFIX):
            name = request.path[len(PROBE_PREFIX):]
            action = {
                "challenge": self._add_challenge, "echo": self._echo,
                "redirect": self._redirect, "flood": self._flood, "log": self._log,
                "framing": self._framing, "deflated": self._deflated, "raw": self._raw,
            }.get(name)
            if action is None:
                handler._send(error_response(404, "no such probe"))
            else:
                action(handler, request)
            return True
        with self.lock:
            pending = self.challenges.get(request.path)
            if pending is None:
                return False
            scheme = pending[0]
            pending[1] -= 1
            if pending[1] == 0:
                del self.challenges[request.path]
            self.challenged += 1
        handler._send(error_response(401, "authentication required", [("WWW-Authenticate", scheme)]))
        return True

    def _add_challenge(self, handler: "SampleRequestHandler", request: Request) -> None:
        try:
            payload = parse_json_object(request.body)
            path = get_field(payload, "path", is_string, "a string", required=True)
            scheme = get_field(payload, "scheme", is_string, "a string", required=True)
            count = get_field(payload, "count", is_integer, "an integer") or 1
        except HTTPError as error:
            handler._send(error_response(error.status, error.message))
            return
        with self.lock:
            self.challenges[path] = [scheme, count]
        handler._send(Response(201))

    def _record(self, request: Request) -> None:
        entry = {
            "method": request.method,
            "path": request.path,
            "headers": {name.lower(): value for name, value in request.headers.items()},
            "body": request.body.decode("utf-8", errors="replace"),
        }
        content_type = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type == "application/x-www-form-urlencoded":
            text = request.body.decode("utf-8", errors="replace")
            entry["form"] = [list(pair) for pair in parse_qsl(text, keep_blank_values=True)]
        elif content_type == "multipart/form-data":
            entry["parts"] = parse_multipart(request.headers.get("Content-Type") or "", request.body)
        with self.lock:
            self.received.append(entry)

    def _echo(self, handler: "SampleRequestHandler", request: Request) -> None:
        self._record(request)
        handler._send(json_response(200, {"echo": True}))

    def _redirect(self, handler: "SampleRequestHandler", request: Request) -> None:
        self._record(request)
        status = int(query_value(request, "status") or "307")
        target = query_value(request, "to") or "/"
        if query_value(request, "loop") == "1":
            target = handler.path
        handler._send(error_response(status, "moved", [("Location", target)]))

    def _log(self, handler: "SampleRequestHandler", request: Request) -> None:
        with self.lock:
            value = {"received": list(self.received), "challenged": self.challenged,
                     "floodsBegun": self.floods_begun, "floods": list(self.floods)}
        handler._send(json_response(200, value))

    def _framing(self, handler: "SampleRequestHandler", request: Request) -> None:
        body = (query_value(request, "body") or "").encode("utf-8")
        lines = [f"{handler.protocol_version} 200 OK", "Content-Type: application/octet-stream",
                 "Connection: close"]
        lines += [f"Content-Length: {value}" for value in request.query.get("contentLength", [])]
        if query_value(request, "chunked") == "1":
            lines.append("Transfer-Encoding: chunked")
            body = f"{len(body):x}\r\n".encode("ascii") + body + b"\r\n0\r\n\r\n"
        handler.close_connection = True
        try:
            handler.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            handler.wfile.flush()
        except OSError:
            pass

    def _deflated(self, handler: "SampleRequestHandler", request: Request) -> None:
        size = int(query_value(request, "size") or "0")
        compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip framing
        zeros = bytes(1 << 20)
        parts = []
        for offset in range(0, size, len(zeros)):
            parts.append(compressor.compress(zeros[: min(len(zeros), size - offset)]))
        parts.append(compressor.flush())
        body = b"".join(parts)
        handler._send(Response(200, body, "application/octet-stream", [("Content-Encoding", "gzip")]))

    def _raw(self, handler: "SampleRequestHandler", request: Request) -> None:
        handler.close_connection = True
        try:
            encoding = "latin-1" if query_value(request, "encoding") == "latin-1" else "utf-8"
            handler.wfile.write((query_value(request, "reply") or "").encode(encoding))
            handler.wfile.flush()
        except OSError:
            pass

    def _flood(self, handler: "SampleRequestHandler", request: Request) -> None:
        with self.lock:
            self.floods_begun += 1
        length_text = query_value(request, "length")
        length = int(length_text) if length_text else None
        burst_text = query_value(request, "burst")
        burst = int(burst_text) if burst_text else None
        status_text = query_value(request, "status")
        status = int(status_text) if status_text else 200
        reason = handler.responses.get(status, ("",))[0]
        lines = [f"{handler.protocol_version} {status} {reason}", "Content-Type: application/json"]
        if length is None:
            lines.append("Connection: close")
        else:
            lines.append(f"Content-Length: {length}")
        handler.close_connection = True
        limit = FLOOD_CAP if length is None else min(length, FLOOD_CAP)
        started = time.monotonic()
        sent = 0
        client_left = False
        try:
            handler.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            handler.wfile.flush()
            while sent < limit:
                if burst is not None and sent >= burst:
                    # A client whose call has ended may go on reading (corelibs
                    # lets its cancel through only when the socket is empty for a
                    # moment): the pause gives it that moment.
                    time.sleep(FLOOD_TRICKLE_PAUSE)
                chunk = FLOOD_CHUNK[: limit - sent]
                handler.connection.sendall(chunk)
                sent += len(chunk)
        except OSError:
            client_left = True
        with self.lock:
            self.floods.append({"bytesSent": sent, "clientLeft": client_left,
                                "seconds": time.monotonic() - started})


# ---------------------------------------------------------------------------
# HTTP transport
# ---------------------------------------------------------------------------


class SampleRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    # A fully buffered wfile plus one flush per response. Writing headers and
    # body separately would make every keep-alive request wait for the
    # client's delayed ACK (Nagle's algorithm).
    wbufsize = -1

    server: "SampleServer"

    def parse_request(self) -> bool:
        self.headers = None  # not the previous request's, on a kept-alive connection
        parsed = super().parse_request()
        self.server.api.record_received(self.raw_requestline, getattr(self, "headers", None))
        return parsed

    def _handle(self) -> None:
        path, _, query = self.path.partition("?")
        try:
            body = self._read_body()
        except HTTPError as error:
            # The stream position is unknown, so this connection is done.
            self.close_connection = True
            self._send(error_response(error.status, error.message))
            return

        request = Request(self.command, path, parse_qs(query, keep_blank_values=True),
                          self.headers, body)
        api = self.server.api

        if path.startswith(CONTROL_PREFIX) or path == CONTROL_PREFIX.rstrip("/"):
            self._send(api.control_router.dispatch(request))
            return

        if self.server.probes.handle(self, request):
            return

        fault, generation = api.begin_request(self.command, path, "Authorization" in self.headers)
        if fault is None:
            self._send(api.api_router.dispatch(request))
        else:
            self._send_with_fault(request, fault, generation)

    # Every method goes through the router, so an unsupported method on a
    # known path gets a 405 rather than the base class's 501.
    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _handle

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            raise HTTPError(411, "send request bodies with Content-Length")
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            return b""
        if not re.fullmatch(r"[0-9]+", length_text.strip()):
            raise HTTPError(400, "invalid Content-Length")
        length = int(length_text)
        body = self.rfile.read(length)
        if len(body) < length:
            raise HTTPError(400, "incomplete request body")
        return body

    def _send_with_fault(self, request: Request, fault: Fault, generation: int) -> None:
        api = self.server.api
        if fault.delay and not self._wait_while_client_connected(fault.delay, generation):
            api.count_cancelled()
            self.close_connection = True
            self._log_outcome("cancelled by client during delay")
            return

        if fault.body == "close":
            # An orderly close (FIN) before any response, as a server that restarts does.
            self.close_connection = True
            self._log_outcome("connection closed before a response (fault)")
            return

        if fault.body == "reset":
            self._reset_connection()
            self._log_outcome("connection reset (fault)")
            return

        if fault.status is not None:
            headers = [] if fault.retry_after is None else [("Retry-After", fault.retry_after)]
            if fault.location is not None:
                headers.append(("Location", fault.location))
            response = error_response(fault.status, "injected fault", headers)
        else:
            response = api.api_router.dispatch(request)

        if fault.body == "malformed":
            response.body = MALFORMED_BODY
        elif fault.body == "empty":
            response.body = b""
        self._send(response, truncate=fault.body == "truncated")

    def _wait_while_client_connected(self, seconds: float, generation: int) -> bool:
        """Sleep for `seconds`, or until a POST /_control/release after
        `generation`; return False early if the client hangs up. Ends the
        delay that begin_request began.

        A readable socket whose MSG_PEEK read returns b"" (orderly close) or
        fails (reset) means the client is gone. Peeking leaves any real
        bytes in place for the next request on this connection.
        """
        api = self.server.api
        try:
            return self._wait_for_end_of_delay(seconds, generation)
        finally:
            api.end_delay()

    def _wait_for_end_of_delay(self, seconds: float, generation: int) -> bool:
        api = self.server.api
        deadline = time.monotonic() + seconds
        sock = self.connection
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or api.released_since(generation):
                return True
            slice_seconds = min(remaining, DISCONNECT_POLL_SECONDS)
            readable, _, _ = select.select([sock], [], [], slice_seconds)
            if not readable:
                continue
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return False
            except OSError:
                return False
            # The client pipelined more data; the socket stays readable, so
            # sleep instead of spinning on select().
            time.sleep(slice_seconds)

    def _reset_connection(self) -> None:
        """Abort the connection so the client sees ECONNRESET, not a clean EOF."""
        # SO_LINGER on with a zero timeout makes close() send RST and drop
        # anything unsent, instead of the usual FIN handshake.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                   struct.pack("ii", 1, 0))
        self.close_connection = True
        # rfile and wfile hold references to the socket, so the descriptor is
        # really closed (and the RST sent) by finish(), which closes them as
        # soon as this handler returns. Closing them here would break the
        # base class, which flushes wfile after every request.
        self.connection.close()

    def _send(self, response: Response, truncate: bool = False) -> None:
        """Write the whole response with a single write and a single flush.

        With `truncate`, the full Content-Length is declared but only the
        first half of the body is sent before the connection is closed.
        """
        status = response.status
        body = b"" if status in (204, 304) else response.body

        lines = [
            f"{self.protocol_version} {status} {self.responses.get(status, ('',))[0]}",
            f"Date: {self.date_time_string()}",
        ]
        if response.content_type:
            lines.append(f"Content-Type: {response.content_type}")
        lines.append(f"Content-Length: {len(body)}")
        lines.extend(f"{name}: {value}" for name, value in response.headers)
        if self.close_connection:
            lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

        payload = b"" if self.command == "HEAD" else body
        if truncate:
            payload = payload[: len(payload) // 2]
            self.close_connection = True
        self.wfile.write(head + payload)
        self.wfile.flush()
        self._log_outcome(f"{status}{' (truncated)' if truncate else ''}")

    def handle_expect_100(self) -> bool:
        # The base class writes "100 Continue" without flushing; with a fully
        # buffered wfile the client would wait for it in vain.
        result = super().handle_expect_100()
        self.wfile.flush()
        return result

    def _log_outcome(self, outcome: str) -> None:
        # Method and path only: never headers (Authorization), query or body.
        path = self.path.partition("?")[0]
        self.log_message("%s %s -> %s", self.command, path, outcome)

    def log_message(self, format: str, *args: Any) -> None:
        # The base class logs every request to stderr; stay quiet by default.
        if self.server.verbose:
            super().log_message(format, *args)


class SampleServer(ThreadingHTTPServer):
    daemon_threads = True  # idle keep-alive connections must not block exit
    allow_reuse_address = True
    request_queue_size = 128  # bursts of concurrent test connections

    def __init__(self, address: Tuple[str, int], api: SampleAPI, verbose: bool = False,
                 share_port: bool = False):
        self.api = api
        self.verbose = verbose
        self.share_port = share_port
        self.probes = TransportProbes()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, SampleRequestHandler)

    def server_bind(self) -> None:
        # A port the caller holds in reserve (bound with SO_REUSEPORT and never
        # listening, so that it refuses connections while no server runs and
        # no other process can take it meanwhile) is served by setting it here
        # too: Linux lets only sockets of one user that all set it share a port.
        if self.share_port and hasattr(socket, "SO_REUSEPORT"):
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        # HTTPServer.server_bind() looks up the host's FQDN, which can stall
        # on a slow resolver and is not needed here.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def get_request(self) -> Tuple[socket.socket, Any]:
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client going away mid-request is routine in these tests
        # (timeouts, cancellation); only report real errors.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError,
                                          ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{port}"


# ---------------------------------------------------------------------------
# Process lifecycle
# ---------------------------------------------------------------------------


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="JSON sample backend for integration tests.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0,
                        help="port to bind; 0 picks a free ephemeral port (default 0)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="shut down when stdin reaches EOF (e.g. the parent test process died)")
    parser.add_argument("--verbose", action="store_true",
                        help="log one line per request to stderr")
    parser.add_argument("--serve-many", action="store_true",
                        help="start and stop servers as stdin asks (see serve_many)")
    return parser.parse_args(argv)


def watch_stdin(stop: Callable[[], None]) -> None:
    """Block until stdin reaches EOF (or fails), then stop the server."""
    try:
        fd = sys.stdin.fileno()
        while os.read(fd, 65536):
            pass
    except (AttributeError, OSError, ValueError):
        pass  # no usable stdin: treat as EOF
    stop()


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if args.serve_many:
        return serve_many(args.host, args.verbose)
    server = SampleServer((args.host, args.port), SampleAPI(), verbose=args.verbose)
    # The socket is already listening (bound in the constructor), so the URL
    # is usable the moment the parent reads this line.
    return serve(server, args.exit_on_stdin_eof,
                 ready=lambda: print(server.base_url, flush=True))


def serve(server: SampleServer, exit_on_stdin_eof: bool,
          ready: Callable[[], None] = lambda: None) -> int:
    """Serve until SIGTERM, SIGINT or (if asked) EOF on stdin; `ready` runs once
    the signals are handled."""
    stopping = threading.Event()

    def stop() -> None:
        # shutdown() blocks until serve_forever() returns. serve_forever()
        # runs on the main thread, which is also where signal handlers run,
        # so shutdown() must be called from another thread.
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.shutdown, name="shutdown", daemon=True).start()

    signal.signal(signal.SIGTERM, lambda signum, frame: stop())
    signal.signal(signal.SIGINT, lambda signum, frame: stop())
    # A parent may start us from a thread that blocks every signal (Foundation's
    # Process does, from a dispatch worker), and the mask is inherited across
    # exec. Unblock the two we handle, or SIGTERM would never arrive.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    if exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, args=(stop,), name="stdin-watch", daemon=True).start()
    ready()
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        server.server_close()
    return 0


def serve_many(host: str, verbose: bool) -> int:
    """Start and stop servers as stdin asks, each a forked child process.

    Commands, one a line: ``start TAG [PORT]`` binds a server (PORT 0 or none
    picks a free one; a PORT given is shared with the caller's reservation of
    it, see SampleServer.server_bind), forks a child that serves it with a
    fresh SampleAPI and answers ``started TAG URL`` (or ``failed TAG
    REASON``); ``stop TAG`` sends that child SIGTERM and answers ``stopped
    TAG`` once it has exited, so its port refuses connections by then. TAG is
    any word the caller picks. At EOF on stdin every child is stopped and this
    process exits; a child whose parent dies any other way sees EOF on its
    lifeline and stops too.

    A child is what a server started on its own is: its own process and state,
    listening before its URL is printed. It only skips Python's start-up
    (~0.1-0.2 s of CPU, paid ~100 times by one test run).
    """
    lifeline_read, lifeline_write = os.pipe()
    devnull = os.open(os.devnull, os.O_RDWR)
    children: Dict[str, int] = {}  # tag -> pid
    stopping: Dict[int, str] = {}  # pid -> tag, answered once it has exited
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    def answer(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def start(tag: str, port: int) -> None:
        try:
            # A port given by number is one the caller reserved (see server_bind).
            server = SampleServer((host, port), SampleAPI(), verbose=verbose, share_port=port != 0)
        except OSError as error:
            answer(f"failed {tag} {error}")
            return
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            # The lifeline becomes stdin, so EOF on it stops the server as in
            # --exit-on-stdin-eof; stdout belongs to the parent's answers.
            os.dup2(lifeline_read, 0)
            os.dup2(devnull, 1)
            for fd in (lifeline_read, lifeline_write, devnull):
                os.close(fd)
            status = 1
            try:
                status = serve(server, exit_on_stdin_eof=True)
            except BaseException:  # noqa: B036 - a child must never return into the parent's loop
                traceback.print_exc()
            finally:
                sys.stderr.flush()
                os._exit(status)
        server.server_close()  # the child's copy keeps listening
        children[tag] = pid
        answer(f"started {tag} {server.base_url}")

    def stop(tag: str) -> None:
        pid = children.pop(tag, None)
        if pid is None:
            answer(f"stopped {tag}")
            return
        stopping[pid] = tag
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass  # already gone; reaped below

    def reap() -> None:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid in stopping:
                answer(f"stopped {stopping.pop(pid)}")
            else:
                for tag in [tag for tag, child in children.items() if child == pid]:
                    del children[tag]

    pending = b""
    while True:
        # Exits are polled while a stop waits for one; otherwise only stdin wakes us.
        ready, _, _ = select.select([0], [], [], 0.01 if stopping else None)
        reap()
        if not ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            words = line.decode("utf-8", "replace").split()
            if len(words) in (2, 3) and words[0] == "start":
                port = words[2] if len(words) == 3 else "0"
                if port.isdigit():
                    start(words[1], int(port))
                else:
                    answer(f"failed {words[1]} bad port {port}")
            elif len(words) == 2 and words[0] == "stop":
                stop(words[1])
            elif words:
                print(f"sample_api.py --serve-many: unknown command {line!r}", file=sys.stderr)
    for tag in list(children):
        stop(tag)
    while stopping:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        stopping.pop(pid, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
