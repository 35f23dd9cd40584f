#!/usr/bin/env python3
"""Start-up, memory and end-to-end throughput of the release CLI's `geo-enrich lookup`.

The issue asks for the data to be ready to query within 100 ms of process start and for the
resident memory to stay within twice the data size. Measured on the release binary
(.build/release/geo-enrich, built with `scripts/build_cli.sh --product geo-enrich` if missing),
with `--data` pointing at the repository's data/:

  first answer   the wall time from process start to exit of `geo-enrich lookup` answering one line
                 (49.888171 -97.131112, Winnipeg), the median of --runs runs; beside it, the median
                 of `geo-enrich --help`, the cost of a process that opens no data (and its
                 peak RSS: the runtime's and libraries' share of the memory); and the same with
                 all the data open, `--postal-countries CA,US --timezone` (issue 21: still under
                 100 ms), its runs alternating with the first's
  memory         the peak resident set size of `geo-enrich lookup` answering the benchmark's
                 1,000,000 city points (anchors/lookup_points.py, printed to 6 decimals as the
                 stream generator does), from `/usr/bin/time -v` ("Maximum resident set size") when
                 it is installed, else from os.wait4's rusage; against the size of data/*.bin
  throughput     the same runs' lines per second of wall time (start-up, parsing, lookup, JSON
                 output to a pipe), the median of --throughput-runs runs
  data           the size of each data/*.bin (issue 21 asks for them in RESULTS.md)

Prints JSON (and writes it to --output when given).

Usage: python3 benchmarks/anchors/lookup_startup.py [--runs N] [--points N] [--output FILE]
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from lookup_points import city_points

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "geo-enrich")
DATA = os.path.join(ROOT, "data")
TIME = "/usr/bin/time"

# The targets.
STARTUP_TARGET_MS = 100.0
RSS_TARGET_RATIO = 2.0

FIRST_LINE = b"49.888171 -97.131112\n"
# every data file open: US ZIP codes (postal_us.bin) and time zones (timezones.bin) too
ALL_DATA_OPTIONS = ["--postal-countries", "CA,US", "--timezone"]
POSTAL_KEY = b'"postalcode"'


def ensure_binary(build):
    if build or not os.path.exists(BINARY):
        print("building the release CLI: scripts/build_cli.sh --product geo-enrich", file=sys.stderr)
        subprocess.run(["bash", "scripts/build_cli.sh", "--product", "geo-enrich"], cwd=ROOT, check=True)


def wall_ms(argv, stdin_bytes):
    """Milliseconds from spawning `argv` to its exit, its standard output, and its peak RSS in KiB."""
    start = time.perf_counter_ns()
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    process.stdin.write(stdin_bytes)
    process.stdin.close()
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with status {process.returncode}")
    return elapsed, out, usage.ru_maxrss


def first_answer(runs):
    """The median wall time of a one-line lookup, and of --help, over `runs` runs each; and of the
    one-line lookup with all the data open (ALL_DATA_OPTIONS), its runs alternating with the first's.

    Returns (the plain lookup's figures, the all-data lookup's figures)."""
    variants = {"plain": [BINARY, "lookup", "--data", DATA],
                "all": [BINARY, "lookup", "--data", DATA] + ALL_DATA_OPTIONS}
    answers = {}
    times = {name: [] for name in variants}
    rss = {name: [] for name in variants}
    for _ in range(runs):
        for name, argv in variants.items():
            ms, out, peak = wall_ms(argv, FIRST_LINE)
            times[name].append(ms)
            rss[name].append(peak)
            answers[name] = out.decode().strip()
    help_runs = [wall_ms([BINARY, "--help"], b"") for _ in range(runs)]
    help_ms = [ms for ms, _, _ in help_runs]

    def figures(name):
        return {
            "input": FIRST_LINE.decode().strip(),
            "answer": answers[name],
            "runs": runs,
            "median_ms": round(statistics.median(times[name]), 2),
            "min_ms": round(min(times[name]), 2),
            "runs_ms": [round(m, 2) for m in times[name]],
            "peak_rss_kib": max(rss[name]),
            "target_ms": STARTUP_TARGET_MS,
        }

    plain = figures("plain") | {"help_median_ms": round(statistics.median(help_ms), 2),
                                "help_peak_rss_kib": max(peak for _, _, peak in help_runs)}
    everything = figures("all") | {"options": " ".join(ALL_DATA_OPTIONS)}
    return plain, everything


def big_run(input_path):
    """One run of `geo-enrich lookup` over the points file: wall seconds, CPU seconds, peak RSS in
    KiB (and where it came from), output lines and lines with a postal code."""
    argv = [BINARY, "lookup", "--data", DATA]
    use_time = os.access(TIME, os.X_OK)
    if use_time:
        argv = [TIME, "-v"] + argv
    with open(input_path, "rb") as stdin, tempfile.TemporaryFile() as stderr:
        start = time.perf_counter_ns()
        process = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr)
        lines = postal = 0
        tail = b""
        while True:
            block = process.stdout.read(1 << 20)
            if not block:
                break
            lines += block.count(b"\n")
            joined = tail + block
            postal += joined.count(POSTAL_KEY)
            tail = joined[-(len(POSTAL_KEY) - 1):]
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = (time.perf_counter_ns() - start) / 1e9
        process.returncode = os.waitstatus_to_exitcode(status)
        stderr.seek(0)
        report = stderr.read().decode(errors="replace")
    if process.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited with status {process.returncode}:\n{report[-2000:]}")
    rss_kib, source = usage.ru_maxrss, "os.wait4 rusage"
    if use_time:
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
        if match:
            rss_kib, source = int(match.group(1)), "/usr/bin/time -v"
    # with /usr/bin/time in between, rusage is time's own children's (the CLI's) CPU
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall_s": elapsed, "cpu_s": cpu, "rss_kib": rss_kib, "rss_source": source,
            "lines": lines, "with_postal": postal}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="one-line runs; the median is reported (default 20)")
    parser.add_argument("--points", type=int, default=1_000_000, help="city points for memory and throughput")
    parser.add_argument("--throughput-runs", type=int, default=3, help="runs over the points; the median wall time is reported")
    parser.add_argument("--build", action="store_true", help="rebuild the release CLI first (default: only if missing)")
    parser.add_argument("--output", help="also write the JSON to this file")
    args = parser.parse_args()

    ensure_binary(args.build)
    data_files = sorted(glob.glob(os.path.join(DATA, "*.bin")))
    data_bytes = sum(os.path.getsize(p) for p in data_files)

    startup, startup_all_data = first_answer(args.runs)

    lats, lngs = city_points(args.points)
    workdir = tempfile.mkdtemp(prefix="geo-enrich-lookup-")
    try:
        input_path = os.path.join(workdir, "city_points.txt")
        with open(input_path, "w", encoding="ascii") as f:
            f.writelines(f"{lat:.6f} {lng:.6f}\n" for lat, lng in zip(lats, lngs))
        runs = [big_run(input_path) for _ in range(args.throughput_runs)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for run in runs:
        if run["lines"] != args.points:
            sys.exit(f"the CLI answered {run['lines']:,} lines for {args.points:,} points")

    wall = statistics.median(r["wall_s"] for r in runs)
    cpu = statistics.median(r["cpu_s"] for r in runs)
    peak_kib = max(r["rss_kib"] for r in runs)
    report = {
        "binary": os.path.relpath(BINARY, ROOT),
        "data": {"files": [os.path.relpath(p, ROOT) for p in data_files], "bytes": data_bytes,
                 "file_bytes": {os.path.basename(p): os.path.getsize(p) for p in data_files}},
        "first_answer": startup,
        "first_answer_all_data": startup_all_data,
        "memory": {
            "points": args.points,
            "peak_rss_bytes": peak_kib * 1024,
            "runs_peak_rss_kib": [r["rss_kib"] for r in runs],
            "source": runs[0]["rss_source"],
            "ratio_to_data": round(peak_kib * 1024 / data_bytes, 3),
            "target_ratio": RSS_TARGET_RATIO,
        },
        "throughput": {
            "points": args.points,
            "runs": args.throughput_runs,
            "median_wall_s": round(wall, 3),
            "median_cpu_s": round(cpu, 3),
            "lines_per_second": round(args.points / wall),
            "lines_per_cpu_second": round(args.points / cpu) if cpu > 0 else None,
            "runs_wall_s": [round(r["wall_s"], 3) for r in runs],
            "share_with_postal": round(runs[0]["with_postal"] / args.points, 4),
        },
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
