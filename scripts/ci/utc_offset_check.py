#!/usr/bin/env python3
"""Differential check of `geo-enrich enrich --timezone` (rule 12): each accepted fix's `geo` must
hold `timezone` = PyPI `timezonefinder==9.0.0`'s `timezone_at(lng=, lat=)` for its point and
`utc_offset_s` = Python's `zoneinfo` offset of that zone at the fix's own time:
`(datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=t)).astimezone(ZoneInfo(zone))
.utcoffset()`, integer arithmetic throughout; zoneinfo reads the same system tz database as the CLI.

Fresh random fixes each run (the seed is printed; --seed replays a run), each in a session of its
own so that every fix is accepted:
  changes      fixes one millisecond before and exactly at a UTC-offset change of the point's
               zone: a year drawn from 1850-2100 (one in five from 2100-2500, where the zone's
               POSIX TZ rule applies), its changes found with zoneinfo by a 6-hour scan and a
               bisection to the second. Points: the contiguous US, Alaska, Hawaii, Puerto Rico,
               the zone borders of Indiana, Kentucky, North Dakota and Idaho, Canada, Europe
               and the whole world.
  any time     fixes at uniform times from 1800 to 9000 at the same kinds of points.
  events       an event 30 s after each pre-change fix, in its session: its `geo` must carry the
               fix's zone and the fix's offset (the offset at the fix's time, not the event's).
Also checked: without --timezone the output is the same bytes less the two keys; in the EQWorks
format a `logEvent` gets a top-level `"timezone"` beside `h3Index` and keeps its
`context.timezone`; and with TZDIR naming a folder without the database, the run is refused
before any line is read, naming the zone file it could not read.

It fails when it should: run against a wrapper of the CLI that rewrites each utc_offset_s to
zoneinfo's offset at the event's own time, every event differs; rewritten to the offset at the
fix's time rounded down to the minute, the changes at odd seconds (local mean time ending, before
1920) differ; both exit 1 (tried when the check was written, seed 1, --scale 0.25).

usage: PYTHONPATH=scripts python3 scripts/ci/utc_offset_check.py --bin PATH/geo-enrich
       [--data DIR] [--scale 1.0] [--seed N]
"""
import argparse
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import numpy as np

from geoenrich_tools import checks
from geoenrich_tools.checks import run_cli

TIMEZONEFINDER_VERSION = "9.0.0"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
# (west, east, south, north, weight): where the points are drawn
REGIONS = [
    ((-125.0, -66.9, 24.4, 49.4), 0.30),   # contiguous US
    ((-88.2, -84.7, 37.7, 41.8), 0.08),    # Indiana
    ((-89.6, -81.9, 36.5, 39.2), 0.06),    # Kentucky
    ((-104.1, -96.5, 45.9, 49.0), 0.05),   # North Dakota
    ((-117.3, -111.0, 41.9, 49.0), 0.05),  # Idaho
    ((-180.0, -129.9, 51.2, 71.5), 0.06),  # Alaska
    ((-160.3, -154.8, 18.9, 22.3), 0.03),  # Hawaii
    ((-67.3, -65.2, 17.9, 18.6), 0.02),    # Puerto Rico
    ((-141.0, -52.6, 41.7, 70.0), 0.10),   # Canada
    ((-10.0, 40.0, 35.0, 70.0), 0.10),     # Europe
    ((-180.0, 180.0, -90.0, 90.0), 0.15),  # the world, oceans included
]


def utc_offset(zone, milliseconds):
    """zoneinfo's offset in seconds of `zone` at `milliseconds` since the epoch."""
    return int((EPOCH + timedelta(milliseconds=int(milliseconds))).astimezone(ZoneInfo(zone)).utcoffset()
               .total_seconds())


def changes(zone, year):
    """The UTC seconds in `year` at which `zone`'s offset changes (6-hour scan, then bisection)."""
    start = int((datetime(year, 1, 1, tzinfo=timezone.utc) - EPOCH).total_seconds())
    end = int((datetime(year + 1, 1, 1, tzinfo=timezone.utc) - EPOCH).total_seconds())
    found = []
    step = 6 * 3600
    t, before = start, utc_offset(zone, start * 1000)
    while t < end:
        u = min(t + step, end)
        after = utc_offset(zone, u * 1000)
        if after != before:
            lo, hi = t, u  # offset(lo) == before, offset(hi) != before
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if utc_offset(zone, mid * 1000) == before:
                    lo = mid
                else:
                    hi = mid
            found.append(hi)
        t, before = u, after
    return found


def points(rng, m):
    weights = np.array([w for _, w in REGIONS])
    region = rng.choice(len(REGIONS), size=m, p=weights / weights.sum())
    boxes = np.array([b for b, _ in REGIONS])[region]
    lng = rng.uniform(boxes[:, 0], boxes[:, 1])
    lat = np.degrees(np.arcsin(rng.uniform(np.sin(np.radians(boxes[:, 2])), np.sin(np.radians(boxes[:, 3])))))
    return [(float(a), float(b)) for a, b in zip(lat, lng)]


def fix_line(session, ms, lat, lng):
    return json.dumps({"type": "location", "session_id": session, "timestamp": int(ms), "latitude": lat,
                       "longitude": lng}, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    tool = "utc_offset_check"
    rng = np.random.default_rng(checks.seed(args.seed, tool))
    import timezonefinder
    from timezonefinder import TimezoneFinder
    if timezonefinder.__version__ != TIMEZONEFINDER_VERSION:
        sys.exit(f"{tool}: timezonefinder {timezonefinder.__version__} is installed, the reference is {TIMEZONEFINDER_VERSION}")
    tf = TimezoneFinder()
    began = time.time()

    # what each line is, and what it must get: (kind, zone, offset), None for a line without geo
    lines, expected = [], []
    n = max(1, int(4000 * args.scale))
    year_changes = {}
    for i, (lat, lng) in enumerate(points(rng, n)):
        zone = tf.timezone_at(lng=lng, lat=lat)
        year = int(rng.integers(2100, 2500)) if rng.random() < 0.2 else int(rng.integers(1850, 2101))
        key = (zone, year)
        if key not in year_changes:
            year_changes[key] = changes(zone, year) if zone else []
        found = year_changes[key]
        if not found:  # a zone without a change that year: a time inside the year
            ms = int((datetime(year, 1, 1, tzinfo=timezone.utc) - EPOCH).total_seconds() * 1000) \
                + int(rng.integers(0, 365 * 86_400_000))
            lines.append(fix_line(f"c{i}", ms, lat, lng))
            expected.append(("changes", zone, utc_offset(zone, ms) if zone else None))
            continue
        t = found[int(rng.integers(0, len(found)))] * 1000
        for suffix, ms in (("a", t - 1), ("b", t)):
            lines.append(fix_line(f"c{i}{suffix}", ms, lat, lng))
            expected.append(("changes", zone, utc_offset(zone, ms)))
        lines.append(json.dumps({"type": "track", "session_id": f"c{i}a", "timestamp": t + 29_999,
                                 "event_name": "e"}, separators=(",", ":")))
        expected.append(("events", zone, utc_offset(zone, t - 1)))
    lo = int((datetime(1800, 1, 1, tzinfo=timezone.utc) - EPOCH).total_seconds() * 1000)
    hi = int((datetime(9000, 1, 1, tzinfo=timezone.utc) - EPOCH).total_seconds() * 1000)
    for i, (lat, lng) in enumerate(points(rng, n)):
        zone = tf.timezone_at(lng=lng, lat=lat)
        ms = int(rng.integers(lo, hi))
        lines.append(fix_line(f"t{i}", ms, lat, lng))
        expected.append(("any time", zone, utc_offset(zone, ms) if zone else None))
    text = "\n".join(lines) + "\n"

    data = ["--data", args.data] if args.data else []
    base = [args.bin, "enrich", "--quiet", "--postal-countries", "CA,US"] + data
    zoned = run_cli(tool, base + ["--timezone", "-"], text)
    plain = run_cli(tool, base + ["-"], text)
    result = checks.Checks()
    if len(zoned) != len(lines):
        sys.exit(f"{tool}: {len(zoned)} output lines for {len(lines)} input lines")

    failures = {"changes": [], "any time": [], "events": []}
    counts = dict.fromkeys(failures, 0)
    for line_in, out, (kind, zone, offset) in zip(lines, zoned, expected):
        counts[kind] += 1
        geo = json.loads(out).get("geo")
        got = (geo or {}).get("timezone"), (geo or {}).get("utc_offset_s")
        if got != (zone, offset):
            failures[kind].append(f"{line_in} -> {got}, expected {(zone, offset)}")
        elif geo is not None and list(geo)[-2:] != ["timezone", "utc_offset_s"] and zone is not None:
            failures[kind].append(f"{out}: timezone and utc_offset_s are not the last keys")
    for kind, failed in failures.items():
        result.compare(kind, failed, f"{counts[kind] - len(failed)}/{counts[kind]} equal")

    def without_keys(line):
        return line.replace(',"timezone":"', '\0').split('\0')[0] + "}}" if ',"timezone":"' in line else line
    differ = [(a, b) for a, b in zip(zoned, plain) if without_keys(a) != b]
    result.expect(not differ, f"without --timezone: the same {len(plain)} lines less the two keys",
                  f"{len(differ)} differ; first: {differ[:1]}")

    # EQWorks: a top-level "timezone" beside h3Index; the SDK's context.timezone stays
    eq = {"userId": "u1", "cmd": "logEvent", "timestamp": "2022-05-31T20:48:32.208Z",
          "location": {"latitude": 49.888171, "longitude": -97.131112},
          "context": {"timezone": "Device/Setting"}}
    out = run_cli(tool, [args.bin, "enrich", "--quiet", "--format", "eqworks", "--timezone"] + data + ["-"],
                  json.dumps(eq, separators=(",", ":")) + "\n")
    record = json.loads(out[0]) if out else {}
    want = tf.timezone_at(lng=-97.131112, lat=49.888171)
    result.expect(record.get("timezone") == want and record.get("context") == eq["context"]
                  and list(record)[-3:] == ["h3Index", "postalcode", "timezone"],
                  f"eqworks: top-level timezone {want} after h3Index, context kept", f"got {out[:1]}")
    # without the tz database: refused before any line is read, naming the file and the remedy
    env = dict(os.environ, TZDIR="/nonexistent-tzdb")
    p = subprocess.run(base + ["--timezone", "-"], input=text.encode(), capture_output=True, env=env)
    message = p.stderr.decode()
    result.expect(p.returncode == 1 and not p.stdout and "/nonexistent-tzdb/Africa/Abidjan" in message
                  and "tzdata" in message, "no tz database: exit 1, nothing written, the file named",
                  f"exit {p.returncode}, {len(p.stdout)} bytes out, {message[-300:]!r}")
    print(f"{tool}: {len(lines)} lines in {time.time() - began:.1f} s")
    result.finish(tool)


if __name__ == "__main__":
    main()
