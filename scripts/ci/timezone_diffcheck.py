#!/usr/bin/env python3
"""Differential check of `geo-enrich lookup --timezone` against PyPI `timezonefinder==9.0.0`'s own
`TimezoneFinder().timezone_at(lng=, lat=)` (with timezonefinder-data 3.2026.3.post1, as
scripts/setup.sh installs them into .venv).

Fresh random points each run (the seed is printed; --seed replays a run):
  uniform        100,000 points uniform on the sphere
  US boxes       100,000 in the contiguous US (50 %), Alaska with the Aleutians past 180 (18 %),
                 Hawaii (8 %), the states that zone borders cross (Indiana, Kentucky, North
                 Dakota, Idaho: 21 %) and Puerto Rico (3 %)
  near vertices  50,000 within 0.01 degree (each axis) of vertices of the package's own
                 boundary polygons, drawn uniformly over all their vertices
  exact          20,000 points on vertices and edge midpoints (degrees that truncate to the
                 vertex's 1e-7 degree integer), on the antimeridian (both -180 and 180) and on
                 the poles: the predicate's boundary rules
Coordinates are written as Python's repr (the shortest text that reads back as the same double),
so the CLI and the package see the same doubles.

Every point must get the package's zone. Without --strict, a point whose answer differs is
excused, and counted apart, when nudging it by 1e-6 degree (either way in latitude or longitude)
changes the package's own answer; with --strict (as scripts/test.sh runs it) nothing is excused:
the lookup follows the package's integer rules on borders too, and no point has ever needed an
excuse. The check also confirms that
without --timezone the lookup writes exactly the same bytes less the `"timezone"` key.
Prints one line per set and `N passed, M failed`; exits 1 on a failure.

It fails when it should: run against a timezones.bin whose tree answers the next zone id in 314
tiles of the central US, or whose candidate lists each test one polygon fewer (checksums made
good), it reports thousands of differences and exits 1.

usage: PYTHONPATH=scripts python3 scripts/ci/timezone_diffcheck.py --bin PATH/geo-enrich [--data DIR]
       [--scale 1.0] [--seed N] [--strict]
"""
import argparse
import json
import sys
import time

import numpy as np

from geoenrich_tools import checks
from geoenrich_tools.checks import run_cli

TIMEZONEFINDER_VERSION = "9.0.0"
NUDGE = 1e-6


def reference():
    import timezonefinder
    from timezonefinder import TimezoneFinder
    if timezonefinder.__version__ != TIMEZONEFINDER_VERSION:
        sys.exit(f"timezone_diffcheck: timezonefinder {timezonefinder.__version__} is installed, the reference is {TIMEZONEFINDER_VERSION}")
    return TimezoneFinder()


def vertices(tf):
    """All boundary vertices of the package's data, as 1e-7 degree integers, and the rings'
    offsets (for edge midpoints)."""
    rings = [np.asarray(tf.boundaries.coords_of(p), dtype=np.int64) for p in range(len(tf.boundaries))]
    off = np.concatenate([[0], np.cumsum([r.shape[1] for r in rings])])
    return np.concatenate([r[0] for r in rings]), np.concatenate([r[1] for r in rings]), off


def point_sets(rng, scale, tf):
    n = lambda k: max(1, int(k * scale))  # noqa: E731
    sets = {}
    m = n(100_000)
    sets["uniform"] = (rng.uniform(-180.0, 180.0, m), np.degrees(np.arcsin(rng.uniform(-1.0, 1.0, m))))
    m = n(100_000)
    boxes = [((-125.0, -66.9, 24.4, 49.4), 0.50), ((-180.0, -129.9, 51.2, 71.5), 0.15),
             ((172.4, 180.0, 51.2, 53.1), 0.03), ((-160.3, -154.8, 18.9, 22.3), 0.08),
             # the zone borders inside states: Indiana, Kentucky, North Dakota, Idaho; Puerto Rico
             ((-88.2, -84.7, 37.7, 41.8), 0.06), ((-89.6, -81.9, 36.5, 39.2), 0.05),
             ((-104.1, -96.5, 45.9, 49.0), 0.05), ((-117.3, -111.0, 41.9, 49.0), 0.05),
             ((-67.3, -65.2, 17.9, 18.6), 0.03)]
    counts = [int(round(w * m)) for _, w in boxes]
    counts[0] += m - sum(counts)
    lngs = np.concatenate([rng.uniform(b[0], b[1], c) for (b, _), c in zip(boxes, counts)])
    lats = np.concatenate([rng.uniform(b[2], b[3], c) for (b, _), c in zip(boxes, counts)])
    sets["US boxes"] = (lngs, lats)
    vx, vy, off = vertices(tf)
    m = n(50_000)
    k = rng.integers(0, len(vx), m)
    sets["near vertices"] = (np.clip(vx[k] / 1e7 + rng.uniform(-0.01, 0.01, m), -180.0, 180.0),
                             np.clip(vy[k] / 1e7 + rng.uniform(-0.01, 0.01, m), -90.0, 90.0))

    def degrees(i, limit):  # a double whose int(d * 1e7) is i (truncation toward zero)
        return np.clip((i + 0.5 * np.sign(i)) / 1e7, -limit, limit)

    m = n(20_000)
    k = rng.integers(0, len(vx), m // 2)
    ex_lng, ex_lat = [degrees(vx[k], 180.0)], [degrees(vy[k], 90.0)]
    k = rng.integers(0, len(vx), m // 4)
    ring = np.searchsorted(off, k, side="right") - 1
    nxt = np.where(k + 1 == off[ring + 1], off[ring], k + 1)
    mx, my = vx[k] + vx[nxt], vy[k] + vy[nxt]
    even = (mx % 2 == 0) & (my % 2 == 0)
    ex_lng.append(degrees(mx[even] // 2, 180.0))
    ex_lat.append(degrees(my[even] // 2, 90.0))
    q = max(1, m // 16)
    ex_lng += [np.full(q, 180.0), np.full(q, -180.0), rng.uniform(-180, 180, q), rng.uniform(-180, 180, q),
               np.array([0.0, 180.0, -180.0, 0.0, 180.0, -180.0])]
    ex_lat += [rng.uniform(-90, 90, q), rng.uniform(-90, 90, q), np.full(q, 90.0), np.full(q, -90.0),
               np.array([90.0, 90.0, 90.0, -90.0, -90.0, -90.0])]
    sets["exact"] = (np.concatenate(ex_lng), np.concatenate(ex_lat))
    return sets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", help="the data directory (default: the CLI's own)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every set's number of points")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--strict", action="store_true", help="excuse no point (the test command's setting: the lookup is exact)")
    a = ap.parse_args()
    rng = np.random.default_rng(checks.seed(a.seed, "timezone_diffcheck"))
    tf = reference()
    sets = point_sets(rng, a.scale, tf)
    data = ["--data", a.data] if a.data else []

    names, points = [], []
    for name, (lngs, lats) in sets.items():
        points += list(zip(lats.tolist(), lngs.tolist()))
        names += [name] * len(lngs)
    text = "".join(f"{lat!r} {lng!r}\n" for lat, lng in points)
    t0 = time.time()
    with_zone = run_cli("timezone_diffcheck", [a.bin, "lookup", "--timezone", *data], text)
    t_cli = time.time() - t0
    without = run_cli("timezone_diffcheck", [a.bin, "lookup", *data], text)
    if len(with_zone) != len(points) or len(without) != len(points):
        sys.exit(f"timezone_diffcheck: {len(with_zone)} and {len(without)} answers for {len(points)} points")

    tally = checks.Checks()
    check = tally.compare

    t0 = time.time()
    want = [tf.timezone_at(lng=lng, lat=lat) for lat, lng in points]
    t_ref = time.time() - t0
    got = [json.loads(line).get("timezone") for line in with_zone]
    for name in sets:
        idx = [i for i, s in enumerate(names) if s == name]
        bad, excused = [], 0
        for i in idx:
            if got[i] == want[i]:
                continue
            lat, lng = points[i]
            nudged = {tf.timezone_at(lng=min(180.0, max(-180.0, lng + dx)), lat=min(90.0, max(-90.0, lat + dy)))
                      for dx, dy in ((NUDGE, 0), (-NUDGE, 0), (0, NUDGE), (0, -NUDGE))}
            if nudged != {want[i]} and not a.strict:
                excused += 1
                if excused <= 10:
                    print(f"     excused (a 1e-6 degree nudge changes timezone_at): {lat!r} {lng!r}: "
                          f"timezone_at {want[i]}, lookup {got[i]}")
            else:
                bad.append(f"{lat!r} {lng!r}: timezone_at {want[i]}, lookup {got[i]}")
        zones = len({want[i] for i in idx})
        check(name, bad, f"{len(idx)} points, {zones} zones, {len(idx) - len(bad) - excused} equal, "
                         f"{len(bad)} differ, {excused} excused")

    # the keys before "timezone" are the lookup's without the option, byte for byte
    bad = []
    for i, (w, wo) in enumerate(zip(with_zone, without)):
        zone = json.loads(w).get("timezone")
        suffix = f'"timezone":"{zone}"}}'
        head = w[:-len(suffix)] if w.endswith(suffix) else None
        expected = None if head is None else (head[:-1] + "}" if head.endswith(",") else head + "}")
        if zone is None or expected != wo:
            bad.append(f"{w} against {wo}")
    check("without --timezone", bad, "the same bytes, less the timezone key at the end of each object")

    print(f"timezone_diffcheck: {len(points)} points; lookup {1e6 * t_cli / len(points):.2f} us a point (CLI, "
          f"including start and I/O), timezone_at {1e6 * t_ref / len(points):.1f} us")
    tally.finish("timezone_diffcheck")


if __name__ == "__main__":
    main()
