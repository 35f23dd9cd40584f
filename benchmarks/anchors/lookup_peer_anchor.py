#!/usr/bin/env python3
"""The peer anchor for the lookup benchmarks: the reference peer's per-point cost of the country
and postal-code lookup.

The peer (/work/shared/bench/peer_enrich.py) is what a data engineer would write instead of our
engine: a shapely STRtree over the Natural Earth polygons (`Countries.of_many`) and a scipy k-d tree
over the GeoNames centroids with pyproj geodesics (`Postal.nearest_many`), both vectorised with
numpy. This script loads its classes from its file and calls them as its `flush()` does: chunks of
20,000 points, `of_many` on all of them, then `nearest_many` on those in Canada. The points are the
benchmark's city points (anchors/lookup_points.py); each measurement is timed `--runs` times with
time.perf_counter_ns and the median reported. Loading the peer's data is timed once, apart.

Three measurements, named after the benchmarks they pair with:
  lookup (country+postal) city points   of_many, then nearest_many on the Canadian points
  country only city points              of_many alone
  postal nearest city points            nearest_many on every point

Prints JSON (and writes it to --output when given), for example:

    {"anchor": "peer", "points": 200000, "runs": 3,
     "results": {"lookup (country+postal) city points": {"ns_per_point": 9000.0, ...}}}

Usage: python3 benchmarks/anchors/lookup_peer_anchor.py [--points N] [--runs N] [--output FILE]
Requires the peer's set-up (/work/shared/bench/setup_peer.sh: numpy, scipy, shapely, pyproj, pyshp,
h3, orjson, and its data in ~/.cache/geo-enrich-peer).
"""
import argparse
import importlib.util
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

from lookup_points import city_points

DEFAULT_PEER = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "bench", "peer_enrich.py"))
DEFAULT_DATA = os.environ.get("PEER_DATA", os.path.expanduser("~/.cache/geo-enrich-peer"))

# peer_enrich.py's defaults: the chunk its flush() works on, and the postal limit in metres.
PEER_CHUNK = 20_000
MAX_POSTAL_METRES = 20_000.0


def load_peer(path):
    """The peer's module, loaded from its file."""
    spec = importlib.util.spec_from_file_location("peer_enrich", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chunks(lats, lngs, size):
    for start in range(0, len(lats), size):
        yield lats[start:start + size], lngs[start:start + size]


def lookup(countries, postal, lats, lngs, chunk):
    """The peer's flush(): countries of every point, then postal codes of the Canadian ones.

    Returns (countries, postal answers) per point, postal None outside Canada.
    """
    codes, answers = [], []
    for la, lo in chunks(lats, lngs, chunk):
        cc = countries.of_many(la, lo)
        ca = [i for i, c in enumerate(cc) if c == "CA"]
        near = postal.nearest_many(la[ca], lo[ca]) if ca else []
        by_index = dict(zip(ca, near))
        codes.extend(cc)
        answers.extend(by_index.get(i) for i in range(len(cc)))
    return codes, answers


def country_only(countries, postal, lats, lngs, chunk):
    for la, lo in chunks(lats, lngs, chunk):
        countries.of_many(la, lo)


def postal_only(countries, postal, lats, lngs, chunk):
    for la, lo in chunks(lats, lngs, chunk):
        postal.nearest_many(la, lo)


def time_per_point(function, countries, postal, lats, lngs, chunk):
    start = time.perf_counter_ns()
    function(countries, postal, lats, lngs, chunk)
    return (time.perf_counter_ns() - start) / len(lats)


def versions(*names):
    found = {}
    for name in names:
        try:
            found[name] = __import__(name).__version__
        except (ImportError, AttributeError):
            found[name] = "?"
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200_000, help="number of city points (default 200,000)")
    parser.add_argument("--runs", type=int, default=3, help="timed passes per measurement; the median is reported")
    parser.add_argument("--chunk", type=int, default=PEER_CHUNK, help="points per vectorised call (the peer's 20,000)")
    parser.add_argument("--peer", default=DEFAULT_PEER, help="the peer's peer_enrich.py")
    parser.add_argument("--data", default=DEFAULT_DATA, help="the peer's data folder (setup_peer.sh)")
    parser.add_argument("--output", help="also write the JSON to this file")
    args = parser.parse_args()

    for name in ("postalcodes.db", "ne_10m_admin_0_countries_deu.shp"):
        if not os.path.exists(os.path.join(args.data, name)):
            sys.exit(f"{args.data}/{name} is missing: run /work/shared/bench/setup_peer.sh")
    peer = load_peer(args.peer)

    start = time.perf_counter()
    countries = peer.Countries(os.path.join(args.data, "ne_10m_admin_0_countries_deu.shp"))
    countries_seconds = time.perf_counter() - start
    start = time.perf_counter()
    postal = peer.Postal(os.path.join(args.data, "postalcodes.db"), MAX_POSTAL_METRES)
    postal_seconds = time.perf_counter() - start

    lat_list, lng_list = city_points(args.points)
    lats = np.array(lat_list, dtype=float)
    lngs = np.array(lng_list, dtype=float)

    # one untimed pass: warms the trees and numpy, and gives the shares of the answers
    codes, answers = lookup(countries, postal, lats, lngs, args.chunk)

    measurements = [
        ("lookup (country+postal) city points", lookup,
         "Countries.of_many, then Postal.nearest_many on the points in CA"),
        ("country only city points", country_only, "Countries.of_many"),
        ("postal nearest city points", postal_only, "Postal.nearest_many on every point"),
    ]
    results = {}
    for name, function, api in measurements:
        runs = [time_per_point(function, countries, postal, lats, lngs, args.chunk) for _ in range(args.runs)]
        results[name] = {
            "api": api,
            "ns_per_point": round(statistics.median(runs), 1),
            "runs_ns_per_point": [round(r, 1) for r in runs],
        }

    report = {
        "anchor": "peer",
        "peer": args.peer,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "versions": versions("numpy", "scipy", "shapely", "pyproj"),
        "points": args.points,
        "point_set": "LookupInputs.cityPoints (anchors/lookup_points.py)",
        "chunk": args.chunk,
        "runs": args.runs,
        "statistic": "median",
        "load_seconds": {"countries": round(countries_seconds, 3), "postal": round(postal_seconds, 3)},
        "share_in_canada": round(sum(c == "CA" for c in codes) / len(codes), 4),
        "share_with_postal": round(sum(a is not None for a in answers) / len(answers), 4),
        "results": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
