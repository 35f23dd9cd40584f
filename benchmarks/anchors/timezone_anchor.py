#!/usr/bin/env python3
"""The timezonefinder anchor for the time-zone benchmarks: PyPI timezonefinder's per-point cost.

Issue 21 asks for a time zone in at most 100 ns per core for city points, against timezonefinder's
`timezone_at` measured in the same run. This is `TimezoneFinder().timezone_at(lng=, lat=)` (the
package's defaults: its data files read from disk as it needs them, `in_memory=False`) in a plain
Python loop over pre-generated lists of latitudes and longitudes, timed with time.perf_counter_ns,
each point set `--runs` times, the median reported; the instance is made once, apart (its time is
reported too), and one untimed pass over the points comes first. The points are the benchmarks'
own (anchors/lookup_points.py): the Canadian city points of "time zone city points"
(LookupInputs.cityPoints) and the US city points of "time zone US city points"
(LookupInputs.usCityPoints), the first --points of each.

Prints JSON (and writes it to --output when given), for example:

    {"anchor": "timezonefinder", "version": "9.0.0", "points": 200000, "runs": 5,
     "results": {"time zone city points": {"ns_per_point": 6800.0, "runs_ns_per_point": [...]}}}

Usage: python3 benchmarks/anchors/timezone_anchor.py [--points N] [--runs N] [--output FILE]
Requires timezonefinder==9.0.0 (scripts/setup.sh installs it into .venv).
"""
import argparse
import collections
import json
import platform
import statistics
import time

import timezonefinder
from timezonefinder import TimezoneFinder

from lookup_points import city_points, us_city_points

REQUIRED_VERSION = "9.0.0"

# The benchmark each point set pairs with, its points, and how the report describes them.
POINT_SETS = [
    ("time zone city points", city_points, "LookupInputs.cityPoints: the twelve Canadian cities of gen_stream.py"),
    ("time zone US city points", us_city_points, "LookupInputs.usCityPoints: the twelve most populous US cities"),
]


def one_pass(finder, lats, lngs):
    """Nanoseconds per point of one pass, and the answers."""
    timezone_at = finder.timezone_at
    start = time.perf_counter_ns()
    answers = [timezone_at(lng=lng, lat=lat) for lat, lng in zip(lats, lngs)]
    return (time.perf_counter_ns() - start) / len(lats), answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200_000, help="points per set (default 200,000)")
    parser.add_argument("--runs", type=int, default=5, help="timed passes per set; the median is reported")
    parser.add_argument("--output", help="also write the JSON to this file")
    args = parser.parse_args()

    version = getattr(timezonefinder, "__version__", None)
    if version is None:
        from importlib.metadata import version as installed
        version = installed("timezonefinder")

    start = time.perf_counter()
    finder = TimezoneFinder()
    init_seconds = time.perf_counter() - start

    results = {}
    for name, make_points, description in POINT_SETS:
        lats, lngs = make_points(args.points)
        _, answers = one_pass(finder, lats, lngs)  # untimed: the file pages and the caches
        runs = [one_pass(finder, lats, lngs)[0] for _ in range(args.runs)]
        zones = collections.Counter(answers)
        results[name] = {
            "api": "TimezoneFinder().timezone_at(lng=, lat=)",
            "point_set": description,
            "ns_per_point": round(statistics.median(runs), 1),
            "runs_ns_per_point": [round(r, 1) for r in runs],
            "zones": dict(zones.most_common(8)),
        }

    report = {
        "anchor": "timezonefinder",
        "version": version,
        "required_version": REQUIRED_VERSION,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "points": args.points,
        "runs": args.runs,
        "statistic": "median",
        "loop": "[tf.timezone_at(lng=lng, lat=lat) for lat, lng in zip(lats, lngs)]",
        "init_seconds": round(init_seconds, 3),
        "results": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
