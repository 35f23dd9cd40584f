#!/usr/bin/env python3
"""Spark local[2] against one process: `integrations/spark/geo_enrich_spark.py` must give the output
of `geo-enrich enrich` alone, as a multiset of lines byte for byte, the same bad-line reports (line
numbers of the input files included) and the same summed statistics.

Two runs, each against the single process on the same input:
1. as a user runs it (`python3 geo_enrich_spark.py ...`, default time order, 2 partitions): a fresh
   gen_stream.py stream (time-ordered) with lines that cannot be keyed (not JSON, no session id, bad
   timestamps, blank lines) spliced in;
2. `--order input`, 4 partitions, `--ship` (binary and data sent with the job), on two input files:
   the same stream with scripts/geoenrich_tools/broken_lines.py's corpus spliced in (stale fixes, late events, consent
   transitions, every reason code, 1 MiB lines, CRLF ends). Corpus lines Spark cannot carry unchanged
   (invalid UTF-8, a CR inside a line: Spark reads text and splits at a bare CR; see the README) are
   left out; CRLF ends stay, and the statistics' `bytes` must differ by exactly their CRs.
3. geofences (`--geofences`, `--geofence-dwell`), `--ship` (the fence file sent with the job too),
   input order, 3 partitions, on the first run's input with fences (circles and rectangles) drawn
   around its own fixes: the output, the transitions (OUTPUT/_geofence_events against the single
   process's --geofence-events, as multisets) and the statistics with geofence_transitions.
It also checks that the driver keys every line geo-enrich accepts (a session and a time).

usage: PYTHONPATH=scripts:integrations/spark python3 scripts/ci/spark_check.py --bin .build/release/geo-enrich --gen ../shared/bench/gen_stream.py [--lines 200000]
"""
import argparse
import collections
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import geo_enrich_spark  # integrations/spark, on PYTHONPATH as scripts/test.sh sets it
from geoenrich_tools import broken_lines
from geoenrich_tools.paths import REPO

DRIVER = os.path.join(REPO, "integrations", "spark", "geo_enrich_spark.py")

NOT_COMPARED = ("elapsed_s", "partitions", "partitions_run")


class Report:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok    {name}")
        else:
            self.failed += 1
            print(f"  FAIL  {name}: {detail}")


def single(binary, inputs, work, tag, extra=()):
    out, err, stats = (os.path.join(work, f"{tag}.{x}") for x in ("out", "err", "json"))
    with open(out, "wb") as o:
        subprocess.run([binary, "enrich", *inputs, "--quiet", "--errors", err, "--stats", stats, *extra],
                       stdout=o, check=True)
    with open(out, "rb") as f:
        lines = f.read().splitlines()
    with open(err, "rb") as f:
        errors = f.read().splitlines()
    with open(stats) as f:
        return lines, errors, json.load(f)


def spark_outputs(directory):
    lines = []
    for part in sorted(glob.glob(os.path.join(directory, "part-*"))):
        with open(part, "rb") as f:
            lines += f.read().splitlines()
    return lines


def first_difference(a, b):
    ca, cb = collections.Counter(a), collections.Counter(b)
    only_a = list((ca - cb).elements())[:2]
    only_b = list((cb - ca).elements())[:2]
    return f"{sum((ca - cb).values())} only alone, {sum((cb - ca).values())} only in Spark; " \
           f"e.g. alone {[x[:300] for x in only_a]} / Spark {[x[:300] for x in only_b]}"


def compare(rep, name, alone, spark_dir, spark_stats_path, bytes_less=0):
    lines, errors, stats = alone
    out = spark_outputs(spark_dir)
    rep.check(f"{name}: output lines, a multiset byte for byte ({len(lines)} lines)",
              collections.Counter(out) == collections.Counter(lines), first_difference(lines, out))
    errs = spark_outputs(os.path.join(spark_dir, "_errors"))
    rep.check(f"{name}: bad-line reports, with the input files' line numbers ({len(errors)} reports)",
              collections.Counter(errs) == collections.Counter(errors), first_difference(errors, errs))
    with open(spark_stats_path) as f:
        summed = json.load(f)
    expected = {k: v for k, v in stats.items() if k not in NOT_COMPARED}
    expected["bytes"] = stats["bytes"] - bytes_less
    got = {k: v for k, v in summed.items() if k not in NOT_COMPARED}
    rep.check(f"{name}: summed statistics equal one process's (bytes {'less ' + str(bytes_less) + ' CRs' if bytes_less else 'equal'})",
              got == expected, f"alone {expected} / Spark {got}")
    parts = spark_outputs(os.path.join(spark_dir, "_stats"))
    rep.check(f"{name}: one statistics object per partition run ({len(parts)} of {summed['partitions']})",
              len(parts) == summed["partitions_run"] and 0 < len(parts) <= summed["partitions"], f"{len(parts)}")


def fences_around(path, seed, count=300):
    """A fence file of circles (300 m to 3 km) and rectangles (about 1 to 4 km) centred on fixes
    of the stream at `path`, so that its sessions walk in and out of them."""
    rng = random.Random(seed)
    points = []
    with open(path, "rb") as f:
        for raw in f:
            try:
                d = json.loads(raw)
            except ValueError:
                continue
            if isinstance(d, dict) and d.get("type") == "location" and isinstance(d.get("latitude"), (int, float)):
                points.append((d["latitude"], d["longitude"]))
    features = []
    for k, (lat, lng) in enumerate(rng.sample(points, min(count, len(points)))):
        if k % 2:
            features.append({"type": "Feature", "id": f"c{k}", "properties": {"radius_m": rng.uniform(300, 3000)},
                             "geometry": {"type": "Point", "coordinates": [lng, lat]}})
        else:
            h = rng.uniform(0.005, 0.02)
            ring = [[lng - h, lat - h], [lng + h, lat - h], [lng + h, lat + h], [lng - h, lat + h], [lng - h, lat - h]]
            features.append({"type": "Feature", "id": k, "properties": {},
                             "geometry": {"type": "Polygon", "coordinates": [ring]}})
    return {"type": "FeatureCollection", "features": features}


def stream(gen, lines, seed, sessions):
    return subprocess.run([sys.executable, gen, str(lines), "--seed", str(seed), "--sessions", str(sessions)],
                          stdout=subprocess.PIPE, check=True).stdout.splitlines(keepends=True)


def unkeyable_lines():
    """Lines the driver cannot key, or keys but geo-enrich refuses: they still reach a process."""
    return [b"not json\n", b"[1,2]\n", b"\n", b"   \n", b'{"type":"track","timestamp":1}\n',
            b'{"type":"location","session_id":"","timestamp":1,"latitude":1,"longitude":1}\n',
            b'{"type":"track","session_id":"s-000003","timestamp":"2025-11-27T10:00:00"}\n',
            b'{"type":"track","session_id":"s-000004","timestamp":true}\n',
            b'{"type":"location","session_id":"s-000005","timestamp":1764237600000,"latitude":91,"longitude":0}\n',
            b'{"session_id":"\\ud800","timestamp":1764237600000}\n'] * 3


def carried_by_spark(line):
    """Whether Spark's text reading hands this corpus line over unchanged (but for a CRLF end)."""
    if b"\r" in line.raw:
        return False
    try:
        line.raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return line.end in (b"\n", b"\r\n")


def driver(args, inputs, output, stats, extra_driver=(), enrich=()):
    command = [sys.executable, DRIVER, *inputs, "--output", output, "--overwrite", "--stats", stats,
               "--master", "local[2]", "--binary", os.path.abspath(args.bin), *extra_driver]
    if enrich:
        command += ["--", *enrich]
    started = time.monotonic()
    done = subprocess.run(command, stderr=subprocess.PIPE)
    said = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0:
        print(said[-4000:], file=sys.stderr)
        raise SystemExit(f"spark_check: the driver failed (exit {done.returncode})")
    summary = [x for x in said.splitlines() if x.startswith("geo_enrich_spark:")]
    print(f"  {summary[-1] if summary else '(no summary)'} (wall {time.monotonic() - started:.1f} s)")


def keys_cover_accepted(rep, path, errors):
    """Every non-blank line geo-enrich accepts must be keyed by the driver (session and time)."""
    refused = set()
    for report in errors:
        refused.add(json.loads(report)["line"])
    unkeyed = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            raw = raw.rstrip(b"\r\n")
            if not raw.strip() or number in refused:
                continue
            session, ms = geo_enrich_spark.session_and_time(raw.decode("utf-8"), "canonical")
            if session is None or ms is None:
                unkeyed.append(number)
    rep.check(f"the driver keys every line geo-enrich accepts ({path.rsplit('/', 1)[-1]})", not unkeyed,
              f"lines {unkeyed[:10]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--gen", required=True, help="gen_stream.py")
    ap.add_argument("--lines", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=None, help="default: a fresh one, printed")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    sessions = max(10, args.lines // 100)
    work = tempfile.mkdtemp(prefix="spark-check-")
    print(f"spark_check: {args.lines} lines, seed {seed}, work {work}")
    rep = Report()
    base = stream(args.gen, args.lines, seed, sessions)

    # 1. time order, 2 partitions, as a user runs it
    first = os.path.join(work, "ordered.ndjson")
    with open(first, "wb") as f:
        f.write(b"".join(broken_lines.splice(random.Random(seed), base, unkeyable_lines())))
    alone = single(args.bin, [first], work, "ordered")
    keys_cover_accepted(rep, first, alone[1])
    driver(args, [first], os.path.join(work, "spark-ordered"), os.path.join(work, "spark-ordered.json"),
           ["--partitions", "2"])
    compare(rep, "time order, 2 partitions", alone, os.path.join(work, "spark-ordered"),
            os.path.join(work, "spark-ordered.json"))

    # 2. input order, 4 partitions, shipped binary, the corpus, two files
    corpus = [ln for ln in broken_lines.corpus(seed, exotic=True, stream_sessions=sessions) if carried_by_spark(ln)]
    mixed = broken_lines.splice(random.Random(seed + 1), base, [ln.raw + ln.end for ln in corpus])
    half = len(mixed) // 2
    parts = [os.path.join(work, "mixed-a.ndjson"), os.path.join(work, "mixed-b.ndjson")]
    for path, chunk in zip(parts, (mixed[:half], mixed[half:])):
        with open(path, "wb") as f:
            f.write(b"".join(chunk))
    crs = sum(1 for ln in corpus if ln.end == b"\r\n")
    alone = single(args.bin, parts, work, "mixed")
    for path in parts:
        keys_cover_accepted(rep, path, [e for e in alone[1] if json.loads(e).get("file") == path])
    reasons = collections.Counter(json.loads(e)["reason"] for e in alone[1])
    print(f"  corpus: {len(corpus)} lines ({crs} with CRLF), reports by reason {dict(reasons)}")
    driver(args, parts, os.path.join(work, "spark-mixed"), os.path.join(work, "spark-mixed.json"),
           ["--partitions", "4", "--order", "input", "--ship"])
    compare(rep, "input order, 4 partitions, two files, shipped", alone, os.path.join(work, "spark-mixed"),
            os.path.join(work, "spark-mixed.json"), bytes_less=crs)

    # 3. geofences, shipped with the job: transitions as a multiset equal one process's
    fence_file = os.path.join(work, "fences.geojson")
    with open(fence_file, "w") as f:
        json.dump(fences_around(first, seed), f)
    events = os.path.join(work, "fenced.events")
    fenced = ["--geofences", fence_file, "--geofence-dwell", "60"]
    alone = single(args.bin, [first], work, "fenced", [*fenced, "--geofence-events", events])
    with open(events, "rb") as f:
        transitions = f.read().splitlines()
    kinds = collections.Counter(json.loads(t)["transition"] for t in transitions)
    rep.check(f"geofences: one process gave enters, exits and dwells ({dict(kinds)})",
              all(kinds[k] > 0 for k in ("enter", "exit", "dwell")), f"{dict(kinds)}")
    spark_dir = os.path.join(work, "spark-fenced")
    driver(args, [first], spark_dir, os.path.join(work, "spark-fenced.json"),
           ["--partitions", "3", "--order", "input", "--ship"], fenced)
    compare(rep, "geofences, input order, 3 partitions, shipped", alone, spark_dir, os.path.join(work, "spark-fenced.json"))
    got = spark_outputs(os.path.join(spark_dir, "_geofence_events"))
    rep.check(f"geofences: transitions, a multiset byte for byte ({len(transitions)})",
              collections.Counter(got) == collections.Counter(transitions), first_difference(transitions, got))

    print(f"spark_check: {rep.passed} passed, {rep.failed} failed")
    if not args.keep and rep.failed == 0:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
