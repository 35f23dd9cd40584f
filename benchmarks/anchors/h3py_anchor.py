#!/usr/bin/env python3
"""The h3-py anchor for the H3 benchmarks: h3-py's per-point cost of latlng_to_cell.

A plain Python loop over pre-generated lists of latitudes and longitudes, timed with
time.perf_counter_ns; each resolution is timed `--runs` times and the median reported. The
points are the benchmark harness's own hexagon-area points (BenchmarkInputs.hexagonPoints in
Benchmarks/H3Benchmarks): the same SplitMix64 generator, seed and mapping, so both sides
measure the same 1,000,000 points.

Prints JSON (and writes it to --output when given), for example:

    {"anchor": "h3-py", "h3_version": "4.5.0", "points": 1000000, "runs": 5,
     "results": {"latLngToCell res 15": {"ns_per_point": 2012.3, "runs_ns_per_point": [...]}}}

Usage: python3 benchmarks/anchors/h3py_anchor.py [--points N] [--runs N] [--output FILE]
Requires h3==4.5.0 (python3 -m pip install 'h3==4.5.0').
"""
import argparse
import json
import math
import platform
import statistics
import sys
import time

import h3

REQUIRED_H3 = "4.5.0"

# BenchmarkInputs.seed: the bytes of "geo-enri".
SEED = 0x6765_6F2D_656E_7269
MASK64 = (1 << 64) - 1


class SplitMix64:
    """A line-for-line copy of Benchmarks/H3Benchmarks/SplitMix64.swift."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
        return z ^ (z >> 31)

    def next_unit(self):
        """A float uniform in [0, 1): the top 53 bits scaled by 2**-53."""
        return (self.next() >> 11) * 2.0 ** -53


def hexagon_points(count, seed=SEED):
    """Points uniform on the sphere, less those in the 12 pentagon base cells.

    Returns two lists, latitudes and longitudes in degrees, as BenchmarkInputs.hexagonPoints.
    """
    rng = SplitMix64(seed)
    lats, lngs = [], []
    while len(lats) < count:
        u = rng.next_unit()
        v = rng.next_unit()
        lat = math.asin(2.0 * u - 1.0) * (180.0 / math.pi)
        lng = v * 360.0 - 180.0
        if h3.is_pentagon(h3.latlng_to_cell(lat, lng, 0)):
            continue
        lats.append(lat)
        lngs.append(lng)
    return lats, lngs


def time_latlng_to_cell(lats, lngs, res):
    """Nanoseconds per point for one pass of h3.latlng_to_cell over the lists."""
    latlng_to_cell = h3.latlng_to_cell  # a local name, as a careful Python caller would write
    start = time.perf_counter_ns()
    for lat, lng in zip(lats, lngs):
        latlng_to_cell(lat, lng, res)
    return (time.perf_counter_ns() - start) / len(lats)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=1_000_000, help="number of points (default 1,000,000)")
    parser.add_argument("--runs", type=int, default=5, help="timed passes per resolution; the median is reported")
    parser.add_argument("--resolutions", type=int, nargs="+", default=[15, 9], help="H3 resolutions (default 15 9)")
    parser.add_argument("--output", help="also write the JSON to this file")
    args = parser.parse_args()

    if h3.__version__ != REQUIRED_H3:
        sys.exit(f"h3-py {REQUIRED_H3} is required (found {h3.__version__}); "
                 f"install it with: python3 -m pip install 'h3=={REQUIRED_H3}'")

    lats, lngs = hexagon_points(args.points)
    results = {}
    for res in args.resolutions:
        runs = [time_latlng_to_cell(lats, lngs, res) for _ in range(args.runs)]
        results[f"latLngToCell res {res}"] = {
            "ns_per_point": round(statistics.median(runs), 1),
            "runs_ns_per_point": [round(r, 1) for r in runs],
        }

    report = {
        "anchor": "h3-py",
        "h3_version": h3.__version__,
        "api": "h3.latlng_to_cell",
        "loop": "for lat, lng in zip(lats, lngs): latlng_to_cell(lat, lng, res)",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "points": args.points,
        "seed": f"0x{SEED:016x}",
        "runs": args.runs,
        "statistic": "median",
        "results": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
