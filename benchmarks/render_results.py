#!/usr/bin/env python3
"""Write benchmarks/RESULTS.md from one `make bench` run.

Reads package-benchmark's JMH export (`--format jmh`) and the h3-py anchor's JSON, and writes a
Markdown report: the machine, date, commit and commands, the per-operation medians of every
benchmark, the ratio of ours to h3-py measured in the same run, and the reference figures the
issue published (labelled as such, since they were not measured here).

Usage (as the Makefile runs it):
    python3 benchmarks/render_results.py --jmh benchmarks/output/Current_run.jmh.json \
        --anchor benchmarks/output/h3py_anchor.json --command '...' --output benchmarks/RESULTS.md
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys

# Operations per measured iteration: BenchmarkInputs.scalingFactor (.kilo) in
# Benchmarks/H3Benchmarks/BenchmarkInputs.swift. The JMH export is per iteration, not scaled.
OPERATIONS_PER_ITERATION = 1_000

# Inputs per set: BenchmarkInputs.count.
INPUT_COUNT = 1_000_000

JMH_PREFIX = "package.benchmark."

# Operations whose every call must allocate nothing (the allocation gate CI will enforce).
ZERO_ALLOCATION_OPERATIONS = ("latLngToCell", "cellToLatLng")

# The order of operations in the report; within one, by the numbers in the name.
OPERATION_ORDER = ("latLngToCell", "cellToLatLng", "cellToBoundary", "gridDisk", "isValidCell", "stringToH3")

# Published in the issue, not measured here (other machines, other builds).
PUBLISHED = [
    ("H3 C library 4.5.0, built with -O3",
     "latLngToCell 0.98 µs at res 15 and 0.80 µs at res 9; cellToLatLng 0.46 µs; cellToBoundary 1.4 µs"),
    ("h3o (Rust)", "0.87 µs"),
    ("h3-py in a Python loop", "2.0 µs"),
]


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jmh", required=True, help="package-benchmark's --format jmh export")
    parser.add_argument("--anchor", required=True, help="the JSON written by anchors/h3py_anchor.py")
    parser.add_argument("--command", action="append", default=[], help="a command the run used (repeatable)")
    parser.add_argument("--loadavg", help="a copy of /proc/loadavg taken before the run")
    parser.add_argument("--output", required=True, help="the Markdown file to write")
    return parser.parse_args()


def run(*argv):
    """The stripped standard output of a command, or None when it fails."""
    try:
        return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    """A list of (label, value) describing this machine."""
    model, processors = None, 0
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model is None:
                    model = value.strip()
                elif key.strip() == "processor":
                    processors += 1
    except OSError:
        pass
    memory = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    swift = run("swift", "--version")
    return [
        ("CPU", model or platform.processor() or "unknown"),
        ("Cores", str(processors or os.cpu_count() or "unknown")),
        ("Memory", memory or "unknown"),
        ("OS", f"{platform.system()} {platform.release()}"),
        ("Swift", swift.splitlines()[0] if swift else "unknown"),
    ]


def commit():
    sha = run("git", "rev-parse", "--short", "HEAD") or "unknown"
    if run("git", "status", "--porcelain"):
        sha += " (the working tree had uncommitted changes)"
    return sha


def metric(element, fragment):
    """The secondary metric whose name contains `fragment` (case-insensitive), or None."""
    for name, value in element.get("secondaryMetrics", {}).items():
        if fragment in name.lower():
            return value
    return None


def load_benchmarks(path):
    """One dict per benchmark: name, target, per-operation wall-clock percentiles (ns),
    throughput (operations/s), allocations per operation and the number of iterations."""
    with open(path, encoding="utf-8") as f:
        elements = json.load(f)
    rows = []
    for element in elements:
        key = element["benchmark"]
        if key.startswith(JMH_PREFIX):
            key = key[len(JMH_PREFIX):]
        target, _, name = key.partition(".")
        # the JMH export writes spaces as underscores; our names have no underscores
        name = name.replace("_", " ")
        wall = metric(element, "wall clock")
        mallocs = metric(element, "malloc (total)")
        if wall is None:
            sys.exit(f"{path}: {key} has no wall-clock metric")
        # wall clock is exported in µs per iteration: µs × 1000 / operations = ns per operation
        per_op = 1_000 / OPERATIONS_PER_ITERATION
        rows.append({
            "name": name,
            "target": target,
            "p50": wall["scorePercentiles"]["50.0"] * per_op,
            "p90": wall["scorePercentiles"]["90.0"] * per_op,
            "throughput": element["primaryMetric"]["scorePercentiles"]["50.0"] * OPERATIONS_PER_ITERATION,
            "mallocs_p50": mallocs["scorePercentiles"]["50.0"] / OPERATIONS_PER_ITERATION if mallocs else None,
            "mallocs_max": mallocs["scorePercentiles"]["100.0"] / OPERATIONS_PER_ITERATION if mallocs else None,
            "iterations": element["measurementIterations"],
        })
    rows.sort(key=order)
    return rows


def order(row):
    operation = row["name"].split()[0]
    rank = OPERATION_ORDER.index(operation) if operation in OPERATION_ORDER else len(OPERATION_ORDER)
    return (rank, "near" in row["name"], [int(n) for n in re.findall(r"\d+", row["name"])], row["name"])


def ns(value):
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def count(value):
    if value is None:
        return "–"
    return f"{value:g}" if value == int(value) else f"{value:.3f}"


def render(args):
    rows = load_benchmarks(args.jmh)
    with open(args.anchor, encoding="utf-8") as f:
        anchor = json.load(f)
    by_name = {row["name"]: row for row in rows}

    out = []
    w = out.append
    w("# Benchmark results")
    w("")
    w("Written by `make bench` (`benchmarks/render_results.py`); rerun it rather than editing this file.")
    w("")
    w("## Run")
    w("")
    for label, value in machine():
        w(f"- {label}: {value}")
    if args.loadavg:
        with open(args.loadavg, encoding="utf-8") as f:
            w(f"- Load average before the run (1, 5, 15 min): {' '.join(f.read().split()[:3])}")
    w(f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    w(f"- Commit: {commit()}")
    w(f"- h3-py: {anchor.get('h3_version', '?')} on {anchor.get('python', '?')}")
    w("")
    w("`make bench` ran, from the repository root:")
    w("")
    w("```sh")
    for command in args.command:
        w(command)
    w("```")
    w("")

    w("## Ours (geo-enrich H3Core, package-benchmark, release build)")
    w("")
    w(f"Each benchmark runs in its own process over a set of {INPUT_COUNT:,} inputs generated before "
      f"measurement (SplitMix64, fixed seed). An iteration performs {OPERATIONS_PER_ITERATION:,} operations, "
      "one per input, cycling through the set; the figures are per operation, from the distribution "
      "over iterations (p50 is the median). Points are uniform on the sphere, less the 12 pentagon "
      "base cells (\"hexagon areas\"); \"near pentagons\" points lie within 1 km of a resolution-0 "
      "pentagon centre. Cells are those points' cells at the stated resolution.")
    w("")
    w("| Benchmark | p50 ns/op | p90 ns/op | throughput p50 (M op/s) | mallocs/op p50 | mallocs/op max | iterations |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        w(f"| {row['name']} | {ns(row['p50'])} | {ns(row['p90'])} | {row['throughput'] / 1e6:,.2f} | "
          f"{count(row['mallocs_p50'])} | {count(row['mallocs_max'])} | {row['iterations']:,} |")
    w("")
    allocating = [row["name"] for row in rows
                  if row["name"].split()[0] in ZERO_ALLOCATION_OPERATIONS and (row["mallocs_max"] or 0) > 0]
    gate = ", ".join(ZERO_ALLOCATION_OPERATIONS)
    if allocating:
        w(f"Allocation check ({gate} must not allocate): **failed** for {', '.join(allocating)}.")
    else:
        w(f"Allocation check ({gate} must not allocate): passed, no allocation in any iteration.")
    w("")

    w("## Against h3-py, measured in the same run")
    w("")
    w(f"h3-py's `{anchor.get('api', 'h3.latlng_to_cell')}` (its default string API) in a plain Python loop, "
      f"`{anchor.get('loop', '')}`, over the same {anchor.get('points', 0):,} points as ours, pre-generated in "
      f"two lists; the {anchor.get('statistic', 'median')} of {anchor.get('runs', '?')} timed passes. "
      "A ratio below 1 means ours is faster.")
    w("")
    w("| Operation | ours p50 ns/op | h3-py ns/op | ours / h3-py |")
    w("|---|---:|---:|---:|")
    for name, result in anchor.get("results", {}).items():
        theirs = result["ns_per_point"]
        ours = by_name.get(name)
        if ours is None:
            w(f"| {name} | not run | {ns(theirs)} | – |")
        else:
            w(f"| {name} | {ns(ours['p50'])} | {ns(theirs)} | {ours['p50'] / theirs:.2f} |")
    w("")

    w("## Published in the issue, not measured here")
    w("")
    w("Reference figures from other machines and builds, for context only; compare against the "
      "h3-py anchor above, which ran on this machine.")
    w("")
    for implementation, figures in PUBLISHED:
        w(f"- {implementation}: {figures}")
    w("")
    return "\n".join(out)


def main():
    args = parse_args()
    text = render(args)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
