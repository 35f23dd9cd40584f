"""A threaded HTTP/1.1 server on loopback that records every request and answers as a flaky
service would, for the end-to-end checks of geo-enrich's HTTP clients: the location push
(scripts/ci/push_check.py, PUT) and the geofence webhook (scripts/ci/geofence_webhook_check.py,
POST).

Modes (how a request that carries the expected method is answered):
  faulty   one request in four fails, drawn from a generator seeded with the check's seed: 500,
           429 with `Retry-After: 1`, a dropped connection (no answer at all), or an answer
           `slow` seconds late (beyond a client timeout shorter than that); the rest 200. A
           request without the key gets 401.
  down     503 to everything.
  healthy  200 to everything.
  stall    as healthy, but the server answers nothing for `stall` seconds from the first
           request: every request that arrives in that window is read and recorded, then held
           until the window ends (a client with a shorter timeout gives up and tries again).

`refuse`, when given, is asked first about every request (under the server's lock, so that it
may count): a status to answer instead of the mode's, or None. `backlog` is listen()'s: give a
client that opens many connections at once a large one (see __init__).

Every request is recorded as a `Request` (in arrival order, with its body read whole) before it
is answered; its `status` is the status the server answered, or None when it answered nothing.

    server = FaultyServer(seed, key, methods=("POST",)).start()
    ... run the client against server.url ...
    server.stop()
    for r in server.requests: r.method, r.path, r.key, r.content_type, r.body, r.status
"""
import random
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = ("faulty", "down", "healthy", "stall")


class Request:
    """One request as the server saw it."""
    __slots__ = ("path", "method", "key", "content_type", "body", "status", "time", "answered", "connection")

    def __init__(self, path, method, key, content_type, body, at, connection):
        self.path = path
        self.method = method
        self.key = key  # the X-API-Key header, or None
        self.content_type = content_type
        self.body = body  # bytes
        self.status = None  # what the server answered; None: no answer (yet)
        self.time = at  # time.monotonic() when the request was read
        self.answered = None  # time.monotonic() when the status was sent
        self.connection = connection  # the client's port: which connection it came on

    def __repr__(self):
        return f"Request({self.method} {self.path} -> {self.status}, {len(self.body)} bytes)"


class FaultyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, seed, key, mode="faulty", methods=("PUT",), slow=1.5, stall=0.0, refuse=None, backlog=5):
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
        # listen()'s backlog. socketserver's default, 5, is too short for a client that opens
        # dozens of connections at once: Linux then ignores the handshake's last ACK of the
        # connections beyond it, the client believes them open and sends on them, and the server
        # accepts them only when it resends its SYN-ACK (1, 3, 7, 15 s later), reading requests
        # that the client gave up on (timed out, sent again elsewhere) long before.
        self.request_queue_size = backlog
        super().__init__(("127.0.0.1", 0), _Handler)
        self.key = key
        self.mode = mode
        self.methods = tuple(methods)
        self.slow = slow
        self.stall = stall
        self.refuse = refuse
        self.lock = threading.Lock()
        self.requests = []
        self.rng = random.Random(seed)
        self.stall_end = None  # monotonic time the stall ends (set at the first request)
        self._thread = None

    @property
    def url(self):
        """http://127.0.0.1:PORT (no path)."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self):
        """Serves on a daemon thread; returns the server."""
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Stops serving (requests still being answered finish on their own threads)."""
        self.shutdown()
        self.server_close()

    def statuses(self):
        """How many requests were answered with each status (None: not answered)."""
        counts = {}
        with self.lock:
            for r in self.requests:
                counts[r.status] = counts.get(r.status, 0) + 1
        return counts


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_PUT(self):
        self.handle_request("PUT")

    def do_POST(self):
        self.handle_request("POST")

    def handle_request(self, method):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        s = self.server
        key = self.headers.get("X-API-Key")
        request = Request(self.path, method, key, self.headers.get("Content-Type"), body, time.monotonic(),
                          self.client_address[1])
        with s.lock:
            s.requests.append(request)
            fault = s.rng.randrange(16) if s.mode == "faulty" else None
            if s.mode == "stall" and s.stall_end is None:
                s.stall_end = request.time + s.stall
            stall_end = s.stall_end
            override = s.refuse(request) if s.refuse is not None else None
        if method not in s.methods:
            return self.answer(request, 405)
        if override is not None:
            return self.answer(request, override)
        if s.mode == "down":
            return self.answer(request, 503)
        if s.mode == "healthy":
            return self.answer(request, 200)
        if s.mode == "stall":
            wait = stall_end - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            return self.answer_late(request, 200)
        # faulty
        if key != s.key:
            return self.answer(request, 401)
        if fault == 0:
            return self.answer(request, 500)
        if fault == 1:
            return self.answer(request, 429, {"Retry-After": "1"})
        if fault == 2:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if fault == 3:
            time.sleep(s.slow)  # beyond the client's timeout
            return self.answer_late(request, 200)
        self.answer(request, 200)

    def answer_late(self, request, status):
        """An answer the client may have stopped waiting for (its connection then closed)."""
        try:
            self.answer(request, status)
        except OSError:
            pass

    def answer(self, request, status, headers=None):
        with self.server.lock:
            request.status = status
            request.answered = time.monotonic()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()
