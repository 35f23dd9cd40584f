#!/usr/bin/env python3
"""Checks our stream generator (scripts/geoenrich_tools/stream_gen.py), which the checks use when
the peer's gen_stream.py is not beside the repository: a stream that lost a feature would let
workers_check, push_check, spark_check and the allocation gate pass on less than they claim.

On a fresh seed (printed) unless --seed:
  lines        it writes exactly the lines asked for, each a JSON object with a session id and a
               timestamp the contract accepts, in time order (epoch ms non-decreasing)
  seeded       the same seed gives the same bytes; another seed other bytes
  variety      fixes and events; timestamps as numbers, ISO 8601 with Z and with an offset;
               fixes without accuracy, events without type; optOut and optIn
  sessions     the sessions live at once all appear; in a stream of more than 30 minutes, more
               sessions than that (sessions end and new ones start)
  enrich       `geo-enrich enrich --max-accuracy 100` reads every line (no error line) and accepts
               fixes, rejects some for distance, accuracy and consent, enriches events and leaves
               others without a location (expired or opted out); the accepted fixes lie in
               Canada (with postal codes), in the US and outside every country (water)
  late         with --late 0.02 the stream is out of order and enrich rejects stale fixes
  wide         the default stream is compact JSON with at most 7 decimals (the allocation gate's
               shape); with --wide it has spaced JSON and full-precision floats, and enrich reads
               every line
Prints one line per check and `N passed, M failed`; exits 1 on a failure.

usage: PYTHONPATH=scripts python3 scripts/ci/stream_gen_check.py --bin PATH/geo-enrich [--lines 100000] [--seed K]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

from geoenrich_tools.paths import OWN_GEN_STREAM

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def generate(lines, seed, sessions, late=0.0, wide=False):
    cmd = [sys.executable, OWN_GEN_STREAM, str(lines), "--seed", str(seed), "--sessions", str(sessions)]
    if late:
        cmd += ["--late", str(late)]
    if wide:
        cmd.append("--wide")
    started = time.monotonic()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return done.stdout, done.stderr.decode(), time.monotonic() - started


def epoch_ms(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value)
    t = datetime.fromisoformat(value)
    if t.tzinfo is None:
        raise ValueError(f"timestamp without a zone: {value}")
    return (t - EPOCH) // timedelta(milliseconds=1)  # exact: no float on the way


def enrich(binary, data, work, tag, extra=()):
    path = os.path.join(work, tag + ".ndjson")
    with open(path, "wb") as f:
        f.write(data)
    out, err, stats = (os.path.join(work, f"{tag}.{x}") for x in ("out", "err", "json"))
    with open(out, "wb") as o:
        rc = subprocess.run([binary, "enrich", path, "--quiet", "--errors", err, "--stats", stats, *extra],
                            stdout=o).returncode
    with open(stats) as f:
        st = json.load(f)
    with open(err, "rb") as f:
        errors = f.read().splitlines()
    return rc, st, errors, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the geo-enrich executable")
    ap.add_argument("--lines", type=int, default=100_000, help="lines of the stream checked (default: 100000)")
    ap.add_argument("--sessions", type=int, default=200, help="sessions live at once (default: 200)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: fresh; printed)")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"stream_gen_check: seed {seed}, {a.lines} lines, {a.sessions} sessions at once, {OWN_GEN_STREAM}",
          flush=True)
    passed = failed = 0

    def check(name, ok, detail):
        nonlocal passed, failed
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        passed, failed = passed + bool(ok), failed + (not ok)

    stream, said, took = generate(a.lines, seed, a.sessions)
    lines = stream.split(b"\n")
    ends_in_newline = lines[-1] == b""
    lines = lines[:-1] if ends_in_newline else lines
    bad, disorder, previous, first = [], 0, None, None
    kinds = collections.Counter()
    sessions = set()
    for n, raw in enumerate(lines, 1):
        try:
            rec = json.loads(raw)
            if not isinstance(rec, dict) or not isinstance(rec.get("session_id"), str) or not rec["session_id"]:
                raise ValueError("not an object with a session id")
            ms = epoch_ms(rec["timestamp"])
        except (ValueError, KeyError, TypeError) as e:
            bad.append(f"line {n}: {e}: {raw[:120]!r}")
            continue
        sessions.add(rec["session_id"])
        first = ms if first is None else first
        if previous is not None and ms < previous:
            disorder += 1
        previous = ms
        ts = rec["timestamp"]
        fix = rec.get("type") == "location"
        kinds["fix" if fix else "event"] += 1
        kinds["ts number" if isinstance(ts, int) else "ts Z" if ts.endswith("Z") else "ts offset"] += 1
        if fix and "accuracy" not in rec:
            kinds["fix without accuracy"] += 1
        if not fix and "type" not in rec:
            kinds["event without type"] += 1
        if "consent" in rec:
            kinds[rec["consent"]] += 1
    check("lines", len(lines) == a.lines and ends_in_newline and not bad and disorder == 0,
          f"{len(lines)} lines of {a.lines} asked, {len(bad)} not valid, {disorder} out of time order, "
          f"{a.lines / took:,.0f} lines/s" + (f"; first: {bad[0]}" if bad else ""))
    check("seed printed", f"seed {seed}" in said, said.strip().replace("\n", " / "))

    again, _, _ = generate(a.lines, seed, a.sessions)
    other, _, _ = generate(min(a.lines, 20_000), seed + 1, a.sessions)
    check("seeded", again == stream and not stream.startswith(other),
          "the same seed gives the same bytes, the next seed others")

    wanted = ("fix", "event", "ts number", "ts Z", "ts offset", "fix without accuracy", "event without type",
              "optOut", "optIn")
    missing = [k for k in wanted if not kinds[k]]
    check("variety", not missing, ", ".join(f"{k} {kinds[k]}" for k in wanted)
          + (f"; MISSING {', '.join(missing)}" if missing else ""))
    # every session is live from the start; a session lasts 5 to 120 minutes, then a new one follows
    span_min = (previous - first) / 60_000 if first is not None else 0
    churn = len(sessions) > a.sessions if span_min > 30 else len(sessions) >= a.sessions * 0.99
    check("sessions", churn, f"{len(sessions)} sessions in a stream of {span_min:.0f} minutes, "
          f"{a.sessions} live at once: {'new ones started' if span_min > 30 else 'all of them there'}")

    with tempfile.TemporaryDirectory(prefix="stream_gen_check.") as work:
        rc, st, errors, out = enrich(a.bin, stream, work, "ordered", ["--max-accuracy", "100"])
        rejected = st.get("fixes_rejected", {})
        countries = collections.Counter()
        postal = 0
        with open(out, "rb") as f:
            for raw in f:
                geo = json.loads(raw).get("geo")
                if geo and geo["age_ms"] == 0:
                    countries[geo.get("country", "none")] += 1
                    postal += "postalcode" in geo
        figures = {"accepted": st.get("fixes_accepted", 0), "distance": rejected.get("distance", 0),
                   "accuracy": rejected.get("accuracy", 0), "consent": rejected.get("consent", 0),
                   "events enriched": st.get("events_enriched", 0),
                   "events without a location": st.get("events", 0) - st.get("events_enriched", 0)}
        empty = [k for k, v in figures.items() if not v]
        check("enrich", rc == 0 and not errors and st.get("errors") == 0 and not empty
              and st.get("lines") == a.lines,
              f"exit {rc}, {len(errors)} error lines, " + ", ".join(f"{k} {v}" for k, v in figures.items())
              + (f"; NONE {', '.join(empty)}" if empty else ""))
        places = [c for c in ("CA", "US", "none") if not countries[c]]
        check("places", not places and postal > 0,
              f"accepted fixes by country {dict(countries.most_common(6))}, {postal} with a postal code"
              + (f"; NONE in {', '.join(places)}" if places else ""))

        late, _, _ = generate(a.lines, seed, a.sessions, late=0.02)
        rc, st, errors, _ = enrich(a.bin, late, work, "late")
        stale = st.get("fixes_rejected", {}).get("stale", 0)
        check("late", rc == 0 and not errors and stale > 0 and late.count(b"\n") == a.lines,
              f"--late 0.02: exit {rc}, {len(errors)} error lines, {stale} stale fixes rejected")

        long_float = re.compile(rb'"l(?:at|ong)itude": ?-?[0-9]+\.[0-9]{8,}')
        spaced = re.compile(rb'^\{"[a-z_]+": ')
        narrow = (sum(1 for ln in lines if spaced.match(ln)), sum(1 for ln in lines if long_float.search(ln)))
        wide, _, _ = generate(a.lines, seed, a.sessions, wide=True)
        wide_lines = wide.splitlines()
        widened = (sum(1 for ln in wide_lines if spaced.match(ln)), sum(1 for ln in wide_lines if long_float.search(ln)))
        rc, st, errors, _ = enrich(a.bin, wide, work, "wide")
        check("wide", narrow == (0, 0) and min(widened) > 0 and rc == 0 and not errors
              and st.get("lines") == a.lines == len(wide_lines),
              f"default: {narrow[0]} spaced lines, {narrow[1]} with full-precision floats; --wide: "
              f"{widened[0]} and {widened[1]}, enrich exit {rc}, {len(errors)} error lines")

    print(f"{passed} passed, {failed} failed" + (f" (seed {seed})" if failed else ""))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
