#!/usr/bin/env python3
"""Several workers against one: `geo-enrich enrich --workers N` must write exactly what
`--workers 1` writes, whatever the number of threads that parse and decide.

Input (fresh seed unless --seed; printed): a gen_stream.py stream of --lines lines over --sessions
sessions (200,000 over 20,000 by default: many sessions, so that every batch spreads over many
session partitions), in each format the CLI reads:
  canonical      the stream with broken_lines.py's corpus spliced in (every reason code, consent
                 changes of the stream's own sessions, 1 MiB lines, CRLF, blank lines)
  mobiletracker  the same records as MobileTracker payloads: location updates (the PUT body plus
                 session_id and timestamp) and track payloads (brand_id, event_name, data; some
                 without data)
  datacloud      as Data Cloud payloads: location updates with expiresIn, and events
                 (event_name, catalogObjectId, quantity)
  eqworks        as EQWorks logEvent payloads (userId, timestamp, location), some consecutive
                 records grouped in {"cmd":"batch","batch_info":[...]} lines
The SDK inputs get bad lines spliced in too (not JSON, not an object, no session, bad timestamp,
bad coordinates, invalid UTF-8, blank lines, and for eqworks a batch with a broken element).

Runs, per format: `geo-enrich enrich --format F --workers W --quiet --errors E --stats S INPUT`
for W = 1, 2, 4 (the input as a file: the mapped reader); canonical also from standard input
(the pipe reader cuts batches elsewhere). Checks, per format and way of reading:
  W vs 1     for W = 2 and 4: exit status, standard output, the error file, standard error and
             the statistics byte for byte equal to W = 1's (elapsed_s, a wall-clock time, masked)
  not empty  W = 1 exits 0 and wrote output lines and error lines, counted at least the generated
             records (statistics `records`; an EQWorks batch line holds several), accepted fixes, enriched events and rejected fixes for distance: a run that
             produced nothing fails instead of agreeing with itself
Prints one line per check and `N passed, M failed`; exits 1 on a failure. With --keep DIR the
inputs and outputs stay in DIR.

usage: PYTHONPATH=scripts python3 scripts/ci/workers_check.py --bin PATH/geo-enrich
           [--gen ../shared/bench/gen_stream.py] [--lines 200000] [--sessions 20000] [--seed K]
           [--workers 2,4] [--formats canonical,mobiletracker,datacloud,eqworks] [--keep DIR]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from geoenrich_tools import broken_lines
from geoenrich_tools.paths import GEN_STREAM

FORMATS = ("canonical", "mobiletracker", "datacloud", "eqworks")
NL = b"\n"
ELAPSED = re.compile(rb'("elapsed_s"\s*:\s*)[-+0-9.eE]+')


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


# --- inputs -------------------------------------------------------------------------------------


def with_accuracy(fix, rec):
    """The fix's accuracy, when the record has one (the contract makes it optional)."""
    if "accuracy" in rec:
        fix["accuracy"] = rec["accuracy"]
    return fix


def to_mobiletracker(rec, rng):
    if rec.get("type") == "location":  # an event may have no type at all
        return {**with_accuracy({"latitude": rec["latitude"], "longitude": rec["longitude"]}, rec),
                "session_id": rec["session_id"], "timestamp": rec["timestamp"]}
    out = {"brand_id": rec["brand_id"], "session_id": rec["session_id"], "event_name": rec["event_name"]}
    if rng.random() < 0.9:  # an event without a data object gets geo top-level
        out["data"] = rec["data"]
    out["timestamp"] = rec["timestamp"]
    return out


def to_datacloud(rec, rng):
    if rec.get("type") == "location":
        return {**with_accuracy({"latitude": rec["latitude"], "longitude": rec["longitude"]}, rec),
                "expiresIn": 60, "session_id": rec["session_id"], "timestamp": rec["timestamp"]}
    return {"event_name": rec["event_name"], "catalogObjectId": f"prod-{rec['data']['seq']}",
            "quantity": rng.randint(1, 3), "session_id": rec["session_id"], "timestamp": rec["timestamp"]}


def to_eqworks(rec, rng):
    out = {"cmd": "logEvent", "userId": rec["session_id"], "timestamp": rec["timestamp"]}
    if rec.get("type") == "location":
        out["location"] = {"longitude": rec["longitude"], "latitude": rec["latitude"]}
        out["name"] = "location_update"
    else:
        out["name"] = rec["event_name"]
        out["properties"] = rec["data"]
    return out


def sdk_bad_lines(rng, fmt, n):
    """Bad lines of every common kind, in the format's own shape where the shape matters."""
    sid = "userId" if fmt == "eqworks" else "session_id"
    kinds = [
        b'{"latitude":49.9,"longitude":-97.1',                                   # invalid_json
        b"[1,2,3]",                                                              # not_an_object
        dumps({"latitude": 49.9, "longitude": -97.1, "timestamp": 1764237600000}),  # missing session
        dumps({sid: "bad-ts", "latitude": 49.9, "longitude": -97.1, "timestamp": "yesterday"}),
        dumps({sid: "bad-coord", "latitude": 123.0, "longitude": -97.1, "timestamp": 1764237600000}),
        b'{"session_id":"bad-\xff-utf8","timestamp":1764237600000}',            # invalid_utf8
        b"",                                                                     # blank
    ]
    if fmt == "eqworks":
        kinds[4] = dumps({"cmd": "logEvent", "userId": "bad-coord", "timestamp": 1764237600000,
                          "location": {"longitude": -97.1, "latitude": 123.0}})
        kinds.append(dumps({"cmd": "batch", "batch_info": [
            {"cmd": "logEvent", "userId": "batch-ok", "timestamp": 1764237600000, "name": "x"},
            {"cmd": "logEvent", "timestamp": 1764237600000, "name": "no user"}]}))  # bad_batch
    return [rng.choice(kinds) for _ in range(n)]


def build_inputs(a, seed, work, formats):
    """{format: (path, generated line count)}."""
    gen = subprocess.run([a.python, a.gen, str(a.lines), "--seed", str(seed % 1_000_000),
                          "--sessions", str(a.sessions)], stdout=subprocess.PIPE, check=True).stdout
    stream = gen.splitlines()
    if len(stream) != a.lines:
        raise SystemExit(f"workers_check: {a.gen} wrote {len(stream)} lines, asked for {a.lines}")
    rng = random.Random(seed)
    inputs = {}
    for fmt in formats:
        if fmt == "canonical":
            corpus = broken_lines.corpus(seed, exotic=True, stream_sessions=min(a.sessions, 2000))
            lines = broken_lines.splice(rng, [ln + b"\n" for ln in stream], [ln.raw + ln.end for ln in corpus])
        else:
            convert = {"mobiletracker": to_mobiletracker, "datacloud": to_datacloud, "eqworks": to_eqworks}[fmt]
            recs = [convert(json.loads(ln), rng) for ln in stream]
            body = []
            i = 0
            while i < len(recs):
                if fmt == "eqworks" and rng.random() < 0.03:  # 2 to 4 records in one batch line
                    k = rng.randint(2, 4)
                    body.append(dumps({"cmd": "batch", "batch_info": recs[i:i + k]}))
                    i += k
                else:
                    body.append(dumps(recs[i]))
                    i += 1
            lines = [b + b"\n" for b in broken_lines.splice(rng, body, sdk_bad_lines(rng, fmt, max(20, len(body) // 500)))]
        path = os.path.join(work, f"{fmt}.ndjson")
        with open(path, "wb") as f:
            f.writelines(lines)
        inputs[fmt] = (path, len(stream))
    return inputs


# --- runs and checks ----------------------------------------------------------------------------

def run(a, fmt, workers, inp, mode, work):
    """One run; returns {exit, out, err, stderr, stats} as bytes (stats with elapsed_s masked)."""
    tag = os.path.join(work, f"{fmt}.{mode}.w{workers}")
    err, stats = tag + ".err", tag + ".stats.json"
    cmd = [a.bin, "enrich", "--format", fmt, "--workers", str(workers), "--quiet",
           "--errors", err, "--stats", stats]
    if mode == "file":
        cmd.append(inp)
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    else:
        with open(inp, "rb") as i:
            p = subprocess.run(cmd, stdin=i, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    result = {"exit": str(p.returncode).encode(), "out": p.stdout, "stderr": p.stderr,
              "err": open(err, "rb").read() if os.path.exists(err) else b"",
              "stats": ELAPSED.sub(rb"\1_", open(stats, "rb").read()) if os.path.exists(stats) else b""}
    if a.keep:
        with open(tag + ".out", "wb") as f:
            f.write(p.stdout)
    return result, cmd


def first_difference(x, y):
    """Where two byte strings part: the line number and both lines."""
    xs, ys = x.split(b"\n"), y.split(b"\n")
    for n, (p, q) in enumerate(zip(xs, ys), 1):
        if p != q:
            return f"line {n}:\n       one  {p[:300]!r}\n       many {q[:300]!r}"
    return f"line counts {len(xs)} and {len(ys)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the geo-enrich executable")
    ap.add_argument("--gen", default=GEN_STREAM, help="the stream generator (default: the peer's gen_stream.py "
                    "when ../shared/bench has it, else scripts/geoenrich_tools/stream_gen.py)")
    ap.add_argument("--python", default=sys.executable, help="Python for the generator")
    ap.add_argument("--lines", type=int, default=200_000, help="generated lines (default: 200000)")
    ap.add_argument("--sessions", type=int, default=20_000, help="sessions in the stream (default: 20000)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: fresh; printed)")
    ap.add_argument("--workers", default="2,4", help="worker counts compared with 1 (default: 2,4)")
    ap.add_argument("--formats", default=",".join(FORMATS), help=f"some of {','.join(FORMATS)}")
    ap.add_argument("--keep", default=None, help="keep the inputs and outputs in DIR")
    a = ap.parse_args()
    formats = [f for f in a.formats.split(",") if f]
    for f in formats:
        if f not in FORMATS:
            ap.error(f"unknown format {f!r}; choose from {', '.join(FORMATS)}")
    many = [int(w) for w in a.workers.split(",") if w]
    if not many or any(w < 2 for w in many):
        ap.error("--workers takes worker counts of 2 or more, compared with 1")
    if a.lines < 1 or a.sessions < 1:
        ap.error("--lines and --sessions must be positive")
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    work = a.keep or tempfile.mkdtemp(prefix="workers_check.")
    os.makedirs(work, exist_ok=True)
    print(f"workers_check: seed {seed}, {a.lines} lines over {a.sessions} sessions, formats "
          f"{', '.join(formats)}, --workers 1 against {', '.join(map(str, many))}"
          + (f"; files in {work}" if a.keep else ""), flush=True)
    passed = failed = 0

    def check(name, ok, detail):
        nonlocal passed, failed
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        passed, failed = passed + bool(ok), failed + (not ok)

    try:
        inputs = build_inputs(a, seed, work, formats)
        for fmt in formats:
            inp, generated = inputs[fmt]
            for mode in (("file", "stdin") if fmt == "canonical" else ("file",)):
                name = f"[{fmt}, {mode}]"
                one, cmd = run(a, fmt, 1, inp, mode, work)
                try:
                    st = json.loads(one["stats"].replace(b'"elapsed_s":_', b'"elapsed_s":0'))
                except ValueError:
                    st = {}
                rejected = st.get("fixes_rejected") if isinstance(st.get("fixes_rejected"), dict) else {}
                figures = {k: st.get(k) for k in ("records", "fixes_accepted", "events_enriched")}
                empty = [f"exit {one['exit'].decode()}" if one["exit"] != b"0" else None,
                         "no output lines" if not one["out"].count(b"\n") else None,
                         "no error lines" if not one["err"].count(b"\n") else None,
                         f"records {figures['records']} < {generated} generated"
                         if not isinstance(figures["records"], int) or figures["records"] < generated else None,
                         "no fixes accepted" if not figures["fixes_accepted"] else None,
                         "no events enriched" if not figures["events_enriched"] else None,
                         "no fixes rejected for distance" if not rejected.get("distance") else None]
                empty = [e for e in empty if e]
                check(f"{name} not empty", not empty,
                      "; ".join(empty) + f" ({' '.join(cmd)})" if empty else
                      f"{one['out'].count(NL)} output lines, {one['err'].count(NL)} error lines, "
                      + ", ".join(f"{k} {v}" for k, v in figures.items())
                      + f", rejected for distance {rejected.get('distance')}")
                for w in many:
                    other, cmd = run(a, fmt, w, inp, mode, work)
                    differ = [k for k in ("exit", "out", "err", "stderr", "stats") if one[k] != other[k]]
                    detail = (f"stdout, errors, stderr, statistics and exit status identical "
                              f"({len(one['out'])} + {len(one['err'])} bytes)")
                    if differ:
                        detail = f"{', '.join(differ)} differ ({' '.join(cmd)}); first in {differ[0]}: " + \
                                 first_difference(one[differ[0]], other[differ[0]])
                    check(f"{name} --workers {w} vs 1", not differ, detail)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed" + (f" (seed {seed})" if failed else ""))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
