#!/usr/bin/env python3
"""The JWT todo backend of Examples/JWTTodos over real loopback sockets: the twin of
`JWTTodosBackend`, which serves the same routes in process. Python standard library only.

    python3 scripts/jwt_backend.py [--port 0] [--access-lifetime 300]

It prints its base URL on its first line and exits when its standard input closes (its parent
test went away). Routes, as the JWT backends it imitates answer them:

    POST  /api/token/            {username, password}   -> {access, refresh} | 401 {detail}
    POST  /api/token/refresh/    {refresh}              -> {access, refresh}, the old one blacklisted | 401
    POST  /api/token/blacklist/  {refresh}              -> {}
    GET   /api/todos/?page=N                            -> {count, next (absolute), previous, results}, two a page
    POST  /api/todos/            {title}                -> 201 | 400 {"title": ["…"]}
    PATCH /api/todos/{id}/       {completed}            -> 200 | 403 {detail} | 404

A path without its trailing slash is redirected (301). Control, for tests:

    GET  /_control/state         {paths: {"METHOD /path": n}, refreshTokensReceived, blacklisted}
    POST /_control/config        {accessLifetime}
    POST /_control/revoke        forgets every access token
"""

import argparse
import base64
import json
import re
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

USERNAME, PASSWORD = "demo", "correct-horse-battery-staple"


def b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


class Backend:
    def __init__(self, access_lifetime: float):
        self.lock = threading.Lock()
        self.access_lifetime = access_lifetime
        self.access_tokens = {}  # token -> (expiry, user id)
        self.refresh_tokens = {}  # token -> user id
        self.blacklisted = set()
        self.received = []
        self.paths = {}
        self.issued = 0
        self.todos = {
            1: {"title": "Write the contract", "completed": True, "owner": 1},
            2: {"title": "Page the list", "completed": False, "owner": 1},
            3: {"title": "Refuse a blank title", "completed": False, "owner": 1},
            4: {"title": "Blacklist on logout", "completed": False, "owner": 1},
            5: {"title": "Someone else's", "completed": False, "owner": 2},
        }

    def issue_pair(self, user_id: int) -> dict:
        # Callers hold the lock.
        self.issued += 1
        issued_at = time.time()
        expiry = issued_at + self.access_lifetime
        claims = {"token_type": "access", "exp": int(expiry), "iat": int(issued_at), "jti": str(self.issued)}
        payload = json.dumps(claims, separators=(",", ":"))
        access = b64url('{"alg":"HS256","typ":"JWT"}') + "." + b64url(payload) + ".c2lnbmF0dXJl"
        refresh = f"refresh-{self.issued}-{uuid.uuid4()}"
        self.access_tokens[access] = (expiry, user_id)
        self.refresh_tokens[refresh] = user_id
        return {"access": access, "refresh": refresh}

    def user(self, authorization: str):
        if not authorization.startswith("Bearer "):
            return None
        with self.lock:
            entry = self.access_tokens.get(authorization[len("Bearer "):])
        if entry is None or entry[0] <= time.time():
            return None
        return entry[1]


def todo_json(todo_id: int, todo: dict) -> dict:
    return {"id": todo_id, "title": todo["title"], "completed": todo["completed"], "owner_id": todo["owner"]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    backend: Backend

    def log_message(self, *args):  # quiet
        pass

    def send(self, status: int, value=None, headers=()):
        body = b"" if value is None else json.dumps(value, separators=(",", ":")).encode()
        # One buffered write: headers and body written apart cost a delayed ACK each request.
        head = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}"]
        if value is not None:
            head.append("Content-Type: application/json")
        head += [f"{name}: {content}" for name, content in headers]
        head.append(f"Content-Length: {len(body)}")
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        self.wfile.flush()

    def fields(self) -> dict:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            value = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def handle_any(self, method: str):
        parts = urlsplit(self.path)
        backend = self.backend
        if parts.path.startswith("/_control/"):
            return self.control(parts.path)
        with backend.lock:
            key = f"{method} {parts.path}"
            backend.paths[key] = backend.paths.get(key, 0) + 1
        if not parts.path.endswith("/"):
            self.fields()
            return self.send(301, None, [("Location", parts.path + "/")])
        body = self.fields()
        unauthorized = (401, {"detail": "Given token not valid for any token type"}, [("WWW-Authenticate", 'Bearer realm="api"')])
        if (method, parts.path) == ("POST", "/api/token/"):
            if body.get("username") != USERNAME or body.get("password") != PASSWORD:
                return self.send(401, {"detail": "No active account found with the given credentials"})
            with backend.lock:
                return self.send(200, backend.issue_pair(1))
        if (method, parts.path) == ("POST", "/api/token/refresh/"):
            refresh = body.get("refresh") or ""
            with backend.lock:
                backend.received.append(refresh)
                user_id = backend.refresh_tokens.get(refresh)
                if user_id is None or refresh in backend.blacklisted:
                    return self.send(401, {"detail": "Token is blacklisted", "code": "token_not_valid"})
                backend.blacklisted.add(refresh)
                return self.send(200, backend.issue_pair(user_id))
        if (method, parts.path) == ("POST", "/api/token/blacklist/"):
            with backend.lock:
                backend.received.append(body.get("refresh") or "")
                backend.blacklisted.add(body.get("refresh") or "")
            return self.send(200, {})
        if parts.path == "/api/todos/":
            user_id = backend.user(self.headers.get("Authorization") or "")
            if user_id is None:
                return self.send(*unauthorized)
            if method == "GET":
                page = int((parse_qs(parts.query).get("page") or ["1"])[0])
                with backend.lock:
                    visible = sorted(i for i, t in backend.todos.items() if t["owner"] == user_id or i == 5)
                    results = [todo_json(i, backend.todos[i]) for i in visible[(page - 1) * 2:page * 2]]
                host = self.headers.get("Host") or "localhost"
                following = f"http://{host}/api/todos/?page={page + 1}" if page * 2 < len(visible) else None
                return self.send(200, {"count": len(visible), "next": following, "previous": None, "results": results})
            if method == "POST":
                title = body.get("title") or ""
                if not title.strip():
                    return self.send(400, {"title": ["This field may not be blank."]})
                if len(title) > 20:
                    return self.send(400, {"title": ["Ensure this field has no more than 20 characters."]})
                with backend.lock:
                    todo_id = max(backend.todos) + 1
                    backend.todos[todo_id] = {"title": title, "completed": False, "owner": user_id}
                    return self.send(201, todo_json(todo_id, backend.todos[todo_id]))
        match = re.fullmatch(r"/api/todos/([0-9]+)/", parts.path)
        if match and method == "PATCH":
            user_id = backend.user(self.headers.get("Authorization") or "")
            if user_id is None:
                return self.send(*unauthorized)
            with backend.lock:
                todo = backend.todos.get(int(match.group(1)))
                if todo is None:
                    return self.send(404, {"detail": "Not found."})
                if todo["owner"] != user_id:
                    return self.send(403, {"detail": "You do not have permission to perform this action."})
                if isinstance(body.get("completed"), bool):
                    todo["completed"] = body["completed"]
                return self.send(200, todo_json(int(match.group(1)), todo))
        return self.send(404, {"detail": "Not found."})

    def control(self, path: str):
        body = self.fields()
        backend = self.backend
        with backend.lock:
            if path == "/_control/state":
                return self.send(200, {
                    "paths": backend.paths, "refreshTokensReceived": backend.received,
                    "blacklisted": sorted(backend.blacklisted),
                })
            if path == "/_control/config":
                backend.access_lifetime = float(body.get("accessLifetime", backend.access_lifetime))
                return self.send(200, {})
            if path == "/_control/revoke":
                backend.access_tokens.clear()
                return self.send(200, {})
        return self.send(404, {"detail": "Not found."})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-lifetime", type=float, default=300)
    args = parser.parse_args()
    Handler.backend = Backend(args.access_lifetime)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    sys.stdin.read()  # until the parent goes away
    server.shutdown()


if __name__ == "__main__":
    main()
