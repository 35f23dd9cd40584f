#!/usr/bin/env python3
"""Differential check of US ZIP codes (`--postal-countries CA,US`, rule 12) against a reference of
our own on PyPI `zipcodes==3.0.0` and pyproj's WGS84 geodesic.

The reference: the active `STANDARD` codes of `zipcodes.list_all()`, their `lat`/`long` as
Python's float() reads them, codes sharing a centroid standing as the smallest; for a point, the
centroid nearest by `pyproj.Geod(ellps="WGS84").inv`, ties (to 1e-6 m) to the smallest code,
within the maximum distance (20 km), its distance rounded as Python's round(d, 1). The nearest is
found exactly: a spherical prefilter keeps every centroid whose great-circle distance is within
1 % (plus a metre) of the best geodesic distance among the eight nearest on the sphere, and all of
them are measured geodesically (the ellipsoid moves a distance by less than 0.4 %).

Fresh random points each run (the seed is printed): US cities, the Canada-US and Mexico-US
borders, Alaska, Hawaii, Puerto Rico, the coasts and open ocean, and the whole contiguous US.
Checks, on `geo-enrich lookup --postal-countries CA,US`:
  us points    every point the lookup puts in the US has the reference's ZIP code and distance
               (or none beyond 20 km), and no `fsa`
  others       no point outside Canada and the US has a postal code; Canadian points keep a
               Canadian code (with its FSA)
  US alone     with `--postal-countries US`, Canadian points have none and US points the same codes
  enrich       `enrich --postal-countries CA,US` on one fix per point: each `geo` carries the
               lookup's postal keys, in the contract's order
Prints one line per check and `N passed, M failed`; exits 1 on a failure.

usage: PYTHONPATH=scripts python3 scripts/ci/zip_diffcheck.py --bin PATH/geo-enrich [--points 20000] [--seed N]
"""
import argparse
import json
import math
import os
import random
import sys
import tempfile

import numpy as np
import pyproj
import zipcodes

from geoenrich_tools import checks
from geoenrich_tools.checks import run_cli

MAX_M = 20_000.0
GEOD = pyproj.Geod(ellps="WGS84")
R = 6_371_008.8

CITIES = [(40.7128, -74.0060, 0.3), (34.0522, -118.2437, 0.4), (41.8781, -87.6298, 0.3), (29.7604, -95.3698, 0.3),
          (33.4484, -112.0740, 0.3), (39.9526, -75.1652, 0.2), (32.7767, -96.7970, 0.3), (37.7749, -122.4194, 0.15),
          (47.6062, -122.3321, 0.2), (25.7617, -80.1918, 0.2), (42.3601, -71.0589, 0.2), (39.7392, -104.9903, 0.3),
          (39.7684, -86.1581, 0.4), (38.2527, -85.7585, 0.4), (46.8772, -96.7898, 0.6), (43.6150, -116.2023, 0.6)]
# the Canada-US border (Detroit-Windsor, Niagara, Sault Ste. Marie, Blaine, the 49th parallel,
# Maine-New Brunswick) and the Mexico-US border (San Diego-Tijuana, El Paso-Juárez, Laredo, Nogales)
BORDERS = [(42.32, -83.04, 0.1), (43.09, -79.06, 0.08), (46.51, -84.35, 0.08), (49.0, -122.75, 0.1),
           (49.0, -97.2, 0.2), (45.2, -67.3, 0.15), (32.54, -117.03, 0.1), (31.76, -106.45, 0.1),
           (27.50, -99.50, 0.1), (31.33, -110.94, 0.1)]
REGIONS = {  # (lat0, lat1, lng0, lng1)
    "alaska": (55.0, 71.0, -168.0, -130.0),
    "hawaii": (18.8, 22.3, -160.3, -154.7),
    "puerto rico": (17.9, 18.5, -67.3, -65.6),
    "ocean": (20.0, 50.0, -135.0, -60.0),
    "contiguous": (24.5, 49.0, -124.8, -66.9),
}


def reference_table():
    if zipcodes.__version__ != "3.0.0":
        sys.exit(f"zip_diffcheck: zipcodes {zipcodes.__version__} is installed, the reference is 3.0.0")
    chosen = {}
    for r in zipcodes.list_all():
        if r["zip_code_type"] == "STANDARD" and r["active"]:
            at = (float(r["lat"]), float(r["long"]))
            if at not in chosen or r["zip_code"] < chosen[at]:
                chosen[at] = r["zip_code"]
    at = list(chosen)
    lat = np.array([p[0] for p in at])
    lng = np.array([p[1] for p in at])
    codes = [chosen[p] for p in at]
    la, lo = np.radians(lat), np.radians(lng)
    unit = np.c_[np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)]
    return lat, lng, codes, unit


def reference(points, table):
    """(code, distance rounded to 0.1 m) or None for each point."""
    lat, lng, codes, unit = table
    out = []
    for start in range(0, len(points), 256):
        chunk = np.array(points[start:start + 256])
        qa, qo = np.radians(chunk[:, 0]), np.radians(chunk[:, 1])
        q = np.c_[np.cos(qa) * np.cos(qo), np.cos(qa) * np.sin(qo), np.sin(qa)]
        arc = R * np.arccos(np.clip(q @ unit.T, -1.0, 1.0))
        near = np.argpartition(arc, 8, axis=1)[:, :8]
        for row, (plat, plng) in enumerate(chunk):
            k = near[row]
            _, _, m = GEOD.inv(np.full(len(k), plng), np.full(len(k), plat), lng[k], lat[k])
            bound = float(m.min()) * 1.01 + 1.0
            k = np.nonzero(arc[row] <= bound)[0]
            _, _, m = GEOD.inv(np.full(len(k), plng), np.full(len(k), plat), lng[k], lat[k])
            best = min(range(len(k)), key=lambda j: (round(float(m[j]), 6), codes[k[j]]))
            d = float(m[best])
            out.append(None if d > MAX_M else (codes[k[best]], round(d, 1)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--points", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    rng = random.Random(checks.seed(a.seed, "zip_diffcheck"))
    n = a.points
    points = []
    for _ in range(n * 4 // 10):
        c = rng.choice(CITIES)
        points.append((c[0] + rng.uniform(-c[2], c[2]), c[1] + rng.uniform(-c[2], c[2]) / math.cos(math.radians(c[0]))))
    for _ in range(n * 2 // 10):
        c = rng.choice(BORDERS)
        points.append((c[0] + rng.uniform(-c[2], c[2]), c[1] + rng.uniform(-c[2], c[2]) / math.cos(math.radians(c[0]))))
    per_region = (n - len(points)) // len(REGIONS)
    for la0, la1, lo0, lo1 in REGIONS.values():
        for _ in range(per_region):
            points.append((rng.uniform(la0, la1), rng.uniform(lo0, lo1)))
    # coordinates as a client writes them: six decimals
    points = [(round(p[0], 6), round(p[1], 6)) for p in points]
    text = "".join(f"{p[0]:.6f} {p[1]:.6f}\n" for p in points)

    both = [json.loads(line) for line in run_cli("zip_diffcheck", [a.bin, "lookup", "--postal-countries", "CA,US"], text)]
    us_alone = [json.loads(line) for line in run_cli("zip_diffcheck", [a.bin, "lookup", "--postal-countries", "US"], text)]
    if len(both) != len(points) or len(us_alone) != len(points):
        sys.exit(f"zip_diffcheck: {len(both)} and {len(us_alone)} answers for {len(points)} points")
    us = [i for i, r in enumerate(both) if r.get("country") == "US"]
    expected = reference([points[i] for i in us], reference_table())

    tally = checks.Checks()
    check = tally.compare

    bad = []
    found = 0
    for i, want in zip(us, expected):
        r = both[i]
        got = (r["postalcode"], r["postal_distance_m"]) if "postalcode" in r else None
        found += got is not None
        if got != want or "fsa" in r or (got and (len(got[0]) != 5 or not got[0].isdigit())):
            bad.append(f"{points[i]}: {r} against {want}")
    check("us points", bad, f"{len(us)} points in the US, {found} with a ZIP code within 20 km, all equal")

    bad = []
    canadian = 0
    for i, r in enumerate(both):
        c = r.get("country")
        if c == "CA":
            canadian += "fsa" in r
            if "postalcode" in r and (len(r["postalcode"]) != 7 or r.get("fsa") != r["postalcode"][:3]):
                bad.append(f"{points[i]}: {r}")
        elif c != "US" and "postalcode" in r:
            bad.append(f"{points[i]}: {r}")
    others = len(points) - len(us)
    check("others", bad, f"{others} points elsewhere ({canadian} Canadian with a code), no ZIP code among them")

    bad = [f"{points[i]}: {u} against {b}" for i, (b, u) in enumerate(zip(both, us_alone))
           if (u != b if b.get("country") == "US" else ("postalcode" in u))]
    check("US alone", bad, "Canadian points without a code, US points as with CA,US")

    # enrich: one session per point, so that each fix is accepted and carries its own geo
    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "fixes.ndjson")
        with open(stream, "w") as f:
            for k, (la, lo) in enumerate(points):
                f.write(json.dumps({"type": "location", "session_id": f"z{k}", "timestamp": 1764237600000 + k,
                                    "latitude": la, "longitude": lo, "accuracy": 5.0}, separators=(",", ":")) + "\n")
        lines = run_cli("zip_diffcheck", [a.bin, "enrich", "--quiet", "--postal-countries", "CA,US", stream], "")
    bad = []
    if len(lines) != len(points):
        bad.append(f"{len(lines)} output lines for {len(points)} fixes")
    for line, r in zip(lines, both):
        geo = json.loads(line)["geo"]
        keys = [k for k in geo if k in ("country", "postalcode", "fsa", "postal_distance_m")]
        want = [k for k in ("country", "postalcode", "fsa", "postal_distance_m") if k in r]
        if keys != want or any(geo[k] != r[k] for k in want):
            bad.append(f"{line[:200]} against {r}")
    check("enrich", bad, f"{len(lines)} fixes, each geo with the lookup's postal keys in order")

    tally.finish("zip_diffcheck")


if __name__ == "__main__":
    main()
