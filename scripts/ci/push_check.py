#!/usr/bin/env python3
"""End-to-end check of `geo-enrich enrich --push-url` against a faulty HTTP server.

A threaded HTTP/1.1 server on loopback (geoenrich_tools/faulty_http.py: Python's http.server,
keep-alive) records every PUT and fails one request in four: 500, 429 with `Retry-After: 1`, a
dropped connection, or an answer slower than the client's timeout. geo-enrich enriches a generated stream (gen_stream.py) and
pushes each accepted fix. Checks, then prints `N passed, M failed` (exit 1 on a failure):
  run       exit status 0, or 3 with a dead-letter file
  stats     the statistics hold fixes_accepted and the push figures (pushed, coalesced,
            push_failed, push_retries)
  received  the server received requests and answered some 2xx, and some fixes were accepted:
            an empty run (no stream, no fixes, no requests) fails instead of passing vacuously
  key       every request carried the key from GEO_ENRICH_API_KEY (set here), the right method,
            path and Content-Type; the key appears in no output, error, statistic or dead letter
  final     for every session, the last location the server accepted (2xx) is the session's last
            accepted fix in the output (latitude, longitude, accuracy), or the dead-letter file
            holds that location with a reason
  order     per session, the locations that arrived follow the order of the session's accepted
            fixes (an older one never after a newer one), and none was invented
  counts    fixes_accepted = pushed + coalesced + push_failed, and push_failed = dead letters
  replay    against a server that answers 503 to everything, with a short retry budget, the run
            exits 3 and every session's last accepted fix is in the dead-letter file with its
            reason (at least one); `geo-enrich push --replay` of that file to a healthy server then delivers
            each of them (exit 0), and the file's lines are what arrives, byte for byte

usage: PYTHONPATH=scripts python3 scripts/ci/push_check.py --bin PATH/geo-enrich [--lines N] [--seed K] [--gen ../shared/bench/gen_stream.py]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

from geoenrich_tools.faulty_http import FaultyServer
from geoenrich_tools.paths import GEN_STREAM

KEY = "push-check-" + os.urandom(6).hex()
PUSH_STATS = ("fixes_accepted", "pushed", "coalesced", "push_failed", "push_retries")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--gen", default=GEN_STREAM)
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"push_check: seed {seed}, {a.lines} lines")
    # a backlog for the client's 64 connections at once (with 5, some were accepted seconds late,
    # and the server read requests the client had already given up on: repeats out of order)
    server = FaultyServer(seed, KEY, backlog=256).start()
    port = server.server_address[1]
    results = []

    def check(name, ok, detail):
        results.append(bool(ok))
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
        server.stop()
        check("run", rc == 0 or (rc == 3 and os.path.exists(dead)), f"exit {rc} after {elapsed:.1f} s")
        try:
            st = json.load(open(stats))
        except (OSError, ValueError) as e:
            st = {}
            print(f"     cannot read the statistics: {e}")
        # a key missing from the statistics fails the run (the counts below would compare nothing)
        absent = [k for k in PUSH_STATS if not isinstance(st.get(k), int) or isinstance(st.get(k), bool)]
        check("stats", not absent, "the push figures are in the statistics" if not absent
              else f"missing or not an integer: {', '.join(absent)}")
        st = {k: st.get(k) if k not in absent else 0 for k in PUSH_STATS}
        letters = [json.loads(l) for l in open(dead)] if os.path.exists(dead) else []
        texts = [open(p, "rb").read() for p in (out, err, stats) + ((dead,) if letters else ())]
        reqs = server.requests
        good = all(r.method == "PUT" and r.key == KEY and r.content_type == "application/json" for r in reqs)
        check("key", good and not any(KEY.encode() in t for t in texts),
              f"{len(reqs)} requests with the key, header and method; the key in no output")
        # an empty run proves nothing: the server must have been asked, for fixes in the output
        delivered_any = any(r.status is not None and 200 <= r.status < 300 for r in reqs)
        check("received", len(reqs) > 0 and delivered_any and st["fixes_accepted"] > 0,
              f"{len(reqs)} requests received, {'some' if delivered_any else 'none'} answered 2xx, "
              f"fixes_accepted {st['fixes_accepted']}")

        # the accepted fixes of each session, in order, as (lat, lng, acc)
        accepted = {}
        for line in open(out, "rb"):
            rec = json.loads(line)
            if rec.get("type") == "location" and "geo" in rec and rec["geo"]["age_ms"] == 0:
                accepted.setdefault(rec["session_id"], []).append(
                    (rec["latitude"], rec["longitude"], rec.get("accuracy")))
        arrived, delivered = {}, {}
        for r in reqs:
            sid = urllib.parse.unquote(r.path[len("/v2/tracking-session/"):-len("/location")])
            b = json.loads(r.body)
            loc = (b["latitude"], b["longitude"], b.get("accuracy"))
            arrived.setdefault(sid, []).append(loc)
            if r.status is not None and 200 <= r.status < 300:
                delivered[sid] = loc
        dead_last = {}
        for d in letters:
            b = json.loads(d["body"])
            dead_last[d["session_id"]] = ((b["latitude"], b["longitude"], b.get("accuracy")), d["reason"])
        missing = [s for s, fixes in accepted.items()
                   if delivered.get(s) != fixes[-1] and not (s in dead_last and dead_last[s][0] == fixes[-1] and dead_last[s][1])]
        check("final", accepted and not missing and set(arrived) <= set(accepted),
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
        # dead letters and their replay
        down = FaultyServer(seed, KEY, mode="down", backlog=256).start()
        dead2 = os.path.join(tmp, "dead2.ndjson")
        with open(os.path.join(tmp, "out2"), "wb") as fo, open(os.path.join(tmp, "err2"), "wb") as fe:
            rc2 = subprocess.run([a.bin, "enrich", stream, "--quiet", "--push-url", f"http://127.0.0.1:{down.server_address[1]}",
                                  "--push-retry-time", "1", "--push-drain-timeout", "5", "--push-dead-letter", dead2],
                                 stdout=fo, stderr=fe, env=env).returncode
        down.stop()
        letters2 = [json.loads(l) for l in open(dead2)] if os.path.exists(dead2) else []
        last_fix = {s: f[-1] for s, f in accepted.items()}
        in_file = {d["session_id"]: json.loads(d["body"]) for d in letters2 if d.get("reason")}
        complete = all(s in in_file and (in_file[s]["latitude"], in_file[s]["longitude"], in_file[s].get("accuracy")) == loc
                       for s, loc in last_fix.items())
        healthy = FaultyServer(seed, KEY, mode="healthy", backlog=256).start()
        rc3 = subprocess.run([a.bin, "push", "--replay", dead2, "--push-url", f"http://127.0.0.1:{healthy.server_address[1]}",
                              "--push-dead-letter", os.path.join(tmp, "dead3.ndjson")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env).returncode
        healthy.stop()
        got = {urllib.parse.unquote(r.path[len("/v2/tracking-session/"):-len("/location")]): r.body for r in healthy.requests}
        last_letter = {d["session_id"]: d["body"].encode() for d in letters2}  # a session's newest line
        replayed = all(got.get(sid) == b for sid, b in last_letter.items())
        check("replay", rc2 == 3 and letters2 and complete and rc3 == 0 and replayed and len(got) == len(last_letter),
              f"down server: exit {rc2}, {len(letters2)} dead letters for {len(last_fix)} sessions "
              f"({'each its last fix' if complete else 'NOT each its last fix'}); replay: exit {rc3}, "
              f"{len(got)} delivered byte for byte" + ("" if replayed else " (MISMATCH)"))
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
