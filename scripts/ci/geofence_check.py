#!/usr/bin/env python3
"""Geofence membership (contract rule 11) against an independent reference: shapely's `covers`
for polygons and pyproj's WGS84 geodesic for circles, on fences and points generated fresh each
run, through `geo-enrich lookup --geofences FILE`; and broken fence files, which must be refused
before any line is read, naming the feature and the reason.

The fences (clustered in a few cities, one by the antimeridian and one by the north pole):
star-shaped polygons of 6-24 vertices from metres to tens of kilometres across, some with a
hole, some multipolygons; rectangles whose sides lie on binary fractions of a degree (the
geo-enrich grid's lines); circles from 1 m to 300 km; fences nested in others and overlapping;
ids that are strings (with quotes, backslashes and non-ASCII), integers and properties.id. The
file is written as a FeatureCollection or as one Feature a line, at random.

The points: random in and around each fence's box; exactly on rectangle sides and corners;
polygon vertices; points on the grid's lines; points 1e-7 of the radius inside and outside
circles (pyproj's forward geodesic); circle centres; uniform random points; the poles and ±180.
Every point's list of ids must equal the reference's exactly (ascending, UTF-8 byte order).

The fences, the file writer and the reference are scripts/geoenrich_tools/geofence_gen.py's
(shared with geofence_stream_check.py). The seed is printed; --seed replays a run.

usage: PYTHONPATH=scripts python3 scripts/ci/geofence_check.py --bin PATH [--fences N] [--points N] [--seed N]
exit status: 0 when every check passes, 1 otherwise.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

from geoenrich_tools.geofence_gen import GEOD, make_fences, memberships, write_file


def make_points(rng, fences, count):
    pts = []
    for f in fences:
        g = f["geometry"]
        if g["type"] == "Point":
            lng0, lat0 = g["coordinates"]
            r = f["radius"]
            pts.append((lat0, lng0))
            for factor in (1 - 1e-7, 1 + 1e-7, 0.5, 1.5):
                az = rng.uniform(-180, 180)
                lng, lat, _ = GEOD.fwd(lng0, lat0, az, r * factor)
                if -90 <= lat <= 90:
                    pts.append((lat, (lng + 180) % 360 - 180 if abs(lng) > 180 else lng))
            continue
        polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
        flat = [p for poly in polys for ring in poly for p in ring]
        xs, ys = [p[0] for p in flat], [p[1] for p in flat]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        w, h = (x1 - x0) or 1e-6, (y1 - y0) or 1e-6
        for _ in range(6):
            pts.append((rng.uniform(y0 - 0.2 * h, y1 + 0.2 * h), rng.uniform(x0 - 0.2 * w, x1 + 0.2 * w)))
        for x, y in rng.sample(flat, min(3, len(flat))):
            pts.append((y, x))
        if len(flat) == 5:  # a rectangle: its sides and corners exactly
            pts += [(y0, rng.uniform(x0, x1)), (y1, rng.uniform(x0, x1)), (rng.uniform(y0, y1), x0),
                    (rng.uniform(y0, y1), x1), (y0, x0), (y1, x1), (y0 + h / 2, x0 + w / 2)]
            pts += [(y0 - 1e-12, x0 + w / 3), (y1 + 1e-12, x1 - w / 3)]
        # points on the grid's lines near the fence
        k = rng.randint(4, 18)
        s = 2.0 ** -k
        gx = math.floor(rng.uniform(x0, x1) / s) * s
        gy = math.floor(rng.uniform(y0, y1) / s) * s
        pts += [(gy, rng.uniform(x0, x1)), (rng.uniform(y0, y1), gx), (gy, gx)]
    while len(pts) < count:
        pts.append((math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)))
    pts += [(90.0, 0.0), (-90.0, 0.0), (0.0, 180.0), (0.0, -180.0), (87.5, 180.0), (87.5, -180.0)]
    return [(max(-90.0, min(90.0, a)), max(-180.0, min(180.0, b))) for a, b in pts]


def run_lookup(binary, data, path, points):
    text = "".join(f"{lat!r} {lng!r}\n" for lat, lng in points)
    args = [binary, "lookup", "--geofences", path] + (["--data", data] if data else [])
    proc = subprocess.run(args, input=text, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"lookup exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return [json.loads(line).get("geofences") for line in proc.stdout.splitlines()]


BROKEN = [
    ("not JSON", "{\"type\": \"FeatureCollection\", \"features\": [", None, "not JSON"),
    ("a LineString", {"type": "Feature", "id": "line1", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}, "line1", "LineString"),
    ("no id", {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius_m": 5}}, "feature 1", "no id"),
    ("a duplicate id", {"type": "Feature", "id": "ok", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius_m": 5}}, "ok", "duplicate"),
    ("no radius", {"type": "Feature", "id": "c1", "geometry": {"type": "Point", "coordinates": [0, 0]}}, "c1", "radius_m"),
    ("a zero radius", {"type": "Feature", "id": "c2", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius_m": 0}}, "c2", "radius_m"),
    ("a negative radius", {"type": "Feature", "id": "c3", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius_m": -3}}, "c3", "radius_m"),
    ("an unclosed ring", {"type": "Feature", "id": "p1", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}}, "p1", "not closed"),
    ("a self-intersecting ring", {"type": "Feature", "id": "p2", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}}, "p2", "Self-intersection"),
    ("a coordinate out of range", {"type": "Feature", "id": "p3", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [181, 0], [1, 1], [0, 0]]]}}, "p3", "out of range"),
    ("a hole outside its shell", {"type": "Feature", "id": "p4", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]], [[5, 5], [6, 5], [6, 6], [5, 5]]]}}, "p4", "Hole"),
]


def check_broken(binary, data, tmp):
    failures = []
    good = {"type": "Feature", "id": "ok", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"radius_m": 5}}
    for name, bad, who, why in BROKEN:
        path = os.path.join(tmp, "broken.geojson")
        with open(path, "w") as fh:
            fh.write(bad if isinstance(bad, str) else json.dumps({"type": "FeatureCollection", "features": [good, bad]}))
        args = [binary, "lookup", "--geofences", path] + (["--data", data] if data else [])
        proc = subprocess.run(args, input="0 0\n", capture_output=True, text=True, timeout=60)
        message = proc.stderr.strip()
        ok = proc.returncode != 0 and proc.stdout == "" and why in message and (who is None or who in message)
        print(f"{'ok' if ok else 'FAIL':4s} broken file: {name}: {message[:160]}")
        if not ok:
            failures.append(name)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", default=None)
    ap.add_argument("--fences", type=int, default=400)
    ap.add_argument("--points", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--form", choices=["collection", "lines"], default=None,
                    help="the fence file's form (default: either, at random); a collection of a few "
                         "thousand fences is read and indexed in parts, one a processor")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"geofence_check: seed {seed}")
    rng = random.Random(seed)
    fences = make_fences(rng, args.fences)
    points = make_points(rng, fences, args.points)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fences.geojson")
        write_file(rng, fences, path, args.form)
        want = memberships(fences, points)
        got = run_lookup(args.bin, args.data, path, points)
        mismatches = [(p, w, g) for p, w, g in zip(points, want, got) if w != g]
        inside = sum(1 for w in want if w)
        verdict = "ok" if not mismatches and len(got) == len(points) else "FAIL"
        print(f"{verdict:4s} membership: {len(points)} points, {len(fences)} fences, {inside} points in some fence, "
              f"{sum(len(w) for w in want)} memberships, {len(mismatches)} mismatches")
        for p, w, g in mismatches[:10]:
            print(f"       [seed {seed}] {p[0]!r} {p[1]!r}: reference {w}, geo-enrich {g}")
        broken = check_broken(args.bin, args.data, tmp)
    failed = (1 if mismatches or len(got) != len(points) else 0) + len(broken)
    print(f"geofence_check: {'passed' if not failed else f'{failed} failed'} (seed {seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
