#!/usr/bin/env python3
"""The geofence benchmarks' inputs and their anchor, shapely 2.2's STRtree (issue 19, item 8).

Writes, from the benchmark stream (`--stream`, the 1 M-line stream of `make bench`):
  OUT/fences-20k.geojson    20,000 fences clustered in the stream's cities: half polygons of 6-24
                            vertices (star-shaped about a point), half circles (`radius_m`), each
                            centred on a fix of the stream, sized log-uniformly from 30 m to 1 km
                            across (a shop to a neighbourhood), ids "p<k>" and "c<k>";
  OUT/fences-100k.geojson   100,000 such fences (the load benchmark);
  OUT/fence-points.txt      the positions of the stream's first 200,000 fixes, `LAT LNG` a line
                            (the points each membership benchmark queries, in stream order).
Then times shapely 2.2's `STRtree(geometries).query(points, predicate="intersects")` over the same
20,000 fences and points (the issue's anchor: about 1.2 us a point here): polygons as they are,
circles as 64-gon polygons of the same radius in the local plane (shapely has no geodesic
circles; the count of candidates is what it pays for). The tree is built once, apart (its time is
reported), then the query of all points is timed `--runs` times and the median reported, with the
mean number of fences a point is in.

With --bin, it also times the release CLI loading each fence file: `geo-enrich lookup --geofences
FILE` on no input (read, checked with GEOS, indexed; then it exits), against the same command
without fences, `--runs` times each: the medians of wall time and peak RSS, and their differences
(what the fences cost).

Prints JSON (and writes it to --output):
    {"anchor": "shapely STRtree", "version": "2.2.0", "fences": 20000, "points": 200000,
     "build_s": 0.05, "ns_per_point": 1234.5, "runs_ns_per_point": [...], "fences_per_point": 3.8}

Usage: python3 benchmarks/anchors/geofence_anchor.py --stream FILE --out DIR [--bin geo-enrich] [--runs N] [--output FILE]
"""
import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import time

import numpy as np
import shapely
from shapely.geometry import Polygon

REQUIRED_VERSION = "2.2.0"
POINTS = 200_000
SEED = 20_000


def stream_points(path, limit):
    """(lat, lng) of the stream's first `limit` fixes."""
    points = []
    with open(path, "rb") as f:
        for raw in f:
            if b'"location"' not in raw:
                continue
            d = json.loads(raw)
            if d.get("type") == "location":
                points.append((d["latitude"], d["longitude"]))
                if len(points) >= limit:
                    break
    return points


def fences(points, count, seed):
    """`count` fences centred on random points of `points` (see the module's doc)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        lat, lng = rng.choice(points)
        radius = math.exp(rng.uniform(math.log(15), math.log(500)))  # metres: 30 m to 1 km across
        if k % 2:
            out.append({"type": "Feature", "id": f"c{k}", "properties": {"radius_m": radius},
                        "geometry": {"type": "Point", "coordinates": [lng, lat]}})
            continue
        m = rng.randint(6, 24)
        dlat = radius / 111_320
        dlng = dlat / math.cos(math.radians(lat))
        ring = []
        for j in range(m):
            # angles spread round the centre (every gap under 180°), one radius a vertex: simple
            a = (j + rng.uniform(0, 0.8)) * 2 * math.pi / m
            q = rng.uniform(0.5, 1)
            ring.append([lng + dlng * q * math.cos(a), lat + dlat * q * math.sin(a)])
        ring.append(ring[0])
        out.append({"type": "Feature", "id": f"p{k}", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [ring]}})
    return out


def shapely_geometry(feature):
    g = feature["geometry"]
    if g["type"] == "Polygon":
        return Polygon(g["coordinates"][0])
    lng, lat = g["coordinates"]
    r = feature["properties"]["radius_m"] / 111_320
    s = r / math.cos(math.radians(lat))
    return Polygon([(lng + s * math.cos(t), lat + r * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 64, endpoint=False)])


def timed(argv):
    """(wall s, peak RSS bytes) of one run of `argv`, with no input and its output dropped.

    Through /usr/bin/time, not os.wait4 here: a child forked from this process (hundreds of MB of
    points and shapely) starts with this process's resident size as its peak."""
    proc = subprocess.run(["/usr/bin/time", "-f", "@@ %e %M", *argv], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = proc.stderr.decode()
    if proc.returncode != 0:
        raise SystemExit(f"geofence_anchor: {' '.join(argv)} failed: {said[-400:]}")
    wall, kib = said.rsplit("@@ ", 1)[1].split()
    return float(wall), int(kib) * 1024


def loading(binary, paths, runs):
    """The CLI's load of each fence file against no fences: medians and differences."""
    plain = [binary, "lookup"]
    base = [timed(plain) for _ in range(runs)]
    out = {"without": {"wall_s": statistics.median(w for w, _ in base), "peak_rss_mb": statistics.median(r for _, r in base) / 1e6}}
    for name, path in paths:
        rows = [timed(plain + ["--geofences", path]) for _ in range(runs)]
        wall = statistics.median(w for w, _ in rows)
        rss = statistics.median(r for _, r in rows) / 1e6
        out[name] = {"wall_s": round(wall, 4), "peak_rss_mb": round(rss, 1), "runs_wall_s": [round(w, 4) for w, _ in rows],
                     "load_s": round(wall - out["without"]["wall_s"], 4),
                     "memory_mb": round(rss - out["without"]["peak_rss_mb"], 1)}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stream", required=True)
    parser.add_argument("--out", required=True, help="directory for the fences and points")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--output", help="also write the JSON to this file")
    parser.add_argument("--bin", help="the release CLI, to time its loading of the fence files")
    args = parser.parse_args()
    if shapely.__version__ != REQUIRED_VERSION:
        raise SystemExit(f"geofence_anchor: shapely {REQUIRED_VERSION} is required, not {shapely.__version__}")

    points = stream_points(args.stream, POINTS)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "fence-points.txt"), "w") as f:
        f.writelines(f"{lat!r} {lng!r}\n" for lat, lng in points)
    twenty = fences(points, 20_000, SEED)
    for name, features in (("fences-20k.geojson", twenty), ("fences-100k.geojson", fences(points, 100_000, SEED + 1))):
        with open(os.path.join(args.out, name), "w") as f:
            json.dump({"type": "FeatureCollection", "features": features}, f)

    geometries = [shapely_geometry(f) for f in twenty]
    xy = shapely.points(np.array([(lng, lat) for lat, lng in points]))
    start = time.perf_counter()
    tree = shapely.STRtree(geometries)
    tree.query(xy[:1], predicate="intersects")  # the tree is built lazily: build it here
    build = time.perf_counter() - start
    runs, pairs = [], 0
    for _ in range(args.runs):
        start = time.perf_counter_ns()
        found = tree.query(xy, predicate="intersects")
        runs.append((time.perf_counter_ns() - start) / len(points))
        pairs = found.shape[1]
    result = {"anchor": "shapely STRtree", "version": shapely.__version__, "geos": shapely.geos_version_string,
              "python": platform.python_version(), "fences": len(twenty), "points": len(points),
              "build_s": round(build, 4), "ns_per_point": statistics.median(runs),
              "runs_ns_per_point": runs, "fences_per_point": pairs / len(points)}
    if args.bin:
        result["cli_load"] = loading(args.bin, [(name, os.path.join(args.out, f"fences-{name}.geojson")) for name in ("20k", "100k")],
                                     args.runs)
    text = json.dumps(result)
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
