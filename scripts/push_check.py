#!/usr/bin/env python3
"""End-to-end check of `geo-enrich enrich --push-url` against a faulty HTTP server.

A threaded HTTP/1.1 server on loopback (Python's http.server, keep-alive) records every PUT and
fails one request in four: 500, 429 with `Retry-After: 1`, a dropped connection, or an answer
slower than the client's timeout. geo-enrich enriches a generated stream (gen_stream.py) and
pushes each accepted fix. Checks, then prints `N passed, M failed` (exit 1 on a failure):
  run       exit status 0, or 3 with a dead-letter file
  key       every request carried the key from GEO_ENRICH_API_KEY (set here), the right method,
            path and Content-Type; the key appears in no output, error, statistic or dead letter
  final     for every session, the last location the server accepted (2xx) is the session's last
            accepted fix in the output (latitude, longitude, accuracy), or the dead-letter file
            holds that location with a reason
  order     per session, the locations that arrived follow the order of the session's accepted
            fixes (an older one never after a newer one), and none was invented
  counts    fixes_accepted = pushed + coalesced + push_failed, and push_failed = dead letters

usage: push_check.py --bin PATH/geo-enrich [--lines N] [--seed K] [--gen ../shared/bench/gen_stream.py]
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = "push-check-" + os.urandom(6).hex()


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, seed):
        super().__init__(("127.0.0.1", 0), Handler)
        self.lock = threading.Lock()
        self.requests = []  # (path, method, key, content type, body bytes, status or None)
        self.rng = random.Random(seed)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_PUT(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        s = self.server
        with s.lock:
            fault = s.rng.randrange(16)
            index = len(s.requests)
            s.requests.append([self.path, "PUT", self.headers.get("X-API-Key"), self.headers.get("Content-Type"), body, None])
        if self.headers.get("X-API-Key") != KEY:
            return self.answer(index, 401)
        if fault == 0:
            return self.answer(index, 500)
        if fault == 1:
            return self.answer(index, 429, {"Retry-After": "1"})
        if fault == 2:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if fault == 3:
            time.sleep(1.5)  # beyond the client's --push-timeout 1
            try:
                self.answer(index, 200)
            except OSError:
                pass
            return
        self.answer(index, 200)

    def answer(self, index, status, headers=None):
        with self.server.lock:
            self.server.requests[index][5] = status
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--gen", default=os.path.join(here, "..", "..", "shared", "bench", "gen_stream.py"))
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"push_check: seed {seed}, {a.lines} lines")
    server = Server(seed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    results = []

    def check(name, ok, detail):
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")

    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "in.ndjson")
        with open(stream, "wb") as f:
            subprocess.run([sys.executable, a.gen, str(a.lines), "--seed", str(seed % 100000), "--sessions", "300"],
                           stdout=f, check=True)
        out, err, stats, dead = (os.path.join(tmp, x) for x in ("out.ndjson", "err.txt", "stats.json", "dead.ndjson"))
        env = dict(os.environ, GEO_ENRICH_API_KEY=KEY)
        start = time.time()
        with open(out, "wb") as fo, open(err, "wb") as fe:
            rc = subprocess.run([a.bin, "enrich", stream, "--stats", stats, "--push-url", f"http://127.0.0.1:{port}",
                                 "--push-timeout", "1", "--push-dead-letter", dead], stdout=fo, stderr=fe, env=env).returncode
        elapsed = time.time() - start
        server.shutdown()
        check("run", rc == 0 or (rc == 3 and os.path.exists(dead)), f"exit {rc} after {elapsed:.1f} s")
        st = json.load(open(stats))
        letters = [json.loads(l) for l in open(dead)] if os.path.exists(dead) else []
        texts = [open(p, "rb").read() for p in (out, err, stats) + ((dead,) if letters else ())]
        reqs = server.requests
        good = all(r[1] == "PUT" and r[2] == KEY and r[3] == "application/json" for r in reqs)
        check("key", good and not any(KEY.encode() in t for t in texts),
              f"{len(reqs)} requests with the key, header and method; the key in no output")

        # the accepted fixes of each session, in order, as (lat, lng, acc)
        accepted = {}
        for line in open(out, "rb"):
            rec = json.loads(line)
            if rec.get("type") == "location" and "geo" in rec and rec["geo"]["age_ms"] == 0:
                accepted.setdefault(rec["session_id"], []).append(
                    (rec["latitude"], rec["longitude"], rec.get("accuracy")))
        arrived, delivered = {}, {}
        for path, _, _, _, body, status in reqs:
            sid = urllib.parse.unquote(path[len("/v2/tracking-session/"):-len("/location")])
            b = json.loads(body)
            loc = (b["latitude"], b["longitude"], b.get("accuracy"))
            arrived.setdefault(sid, []).append(loc)
            if status is not None and 200 <= status < 300:
                delivered[sid] = loc
        dead_last = {}
        for d in letters:
            b = json.loads(d["body"])
            dead_last[d["session_id"]] = ((b["latitude"], b["longitude"], b.get("accuracy")), d["reason"])
        missing = [s for s, fixes in accepted.items()
                   if delivered.get(s) != fixes[-1] and not (s in dead_last and dead_last[s][0] == fixes[-1] and dead_last[s][1])]
        check("final", not missing and set(arrived) <= set(accepted),
              f"{len(accepted)} sessions: {len(accepted) - len(missing)} end at their last accepted fix "
              f"({len(dead_last)} of them via the dead-letter file)" + (f"; first misses {missing[:3]}" if missing else ""))
        disorder = []
        for sid, locs in arrived.items():
            pos = {loc: i for i, loc in enumerate(accepted.get(sid, []))}
            idx = [pos.get(loc, -1) for loc in locs]
            if -1 in idx or any(x > y for x, y in zip(idx, idx[1:])):
                disorder.append(sid)
        check("order", not disorder, f"{sum(map(len, arrived.values()))} arrivals in order, none invented"
              + (f"; out of order: {disorder[:3]}" if disorder else ""))
        recon = st["fixes_accepted"] == st["pushed"] + st["coalesced"] + st["push_failed"] and st["push_failed"] == len(letters)
        check("counts", recon, f"accepted {st['fixes_accepted']} = pushed {st['pushed']} + coalesced {st['coalesced']} "
              f"+ failed {st['push_failed']}; retries {st['push_retries']}; dead letters {len(letters)}")
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
