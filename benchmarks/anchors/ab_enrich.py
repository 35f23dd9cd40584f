#!/usr/bin/env python3
"""`geo-enrich enrich` of two builds on the same stream, interleaved, in the same session.

What a change to the stream is judged by: the build before it (--base, e.g. a release binary
of the commit before, built in a separate work tree) and this tree's (--bin), each run --runs
times on the stream with its output to /dev/null, alternately (base, ours, base, ours, …) so
that a noisy neighbour weighs on both alike. For each: the median wall time, the median CPU
time (user + system, both cores: the steadier figure on a shared machine) per line, the median
peak RSS, and the ratios ours / base. Both outputs are compared byte for byte first, so a fast
wrong answer cannot pass for a result. The same with --workers 1 when --single is given.

Prints JSON (and writes it to --output when given).

usage: ab_enrich.py --base BIN --bin BIN --stream FILE [--runs 7] [--single] [--output FILE]
"""
import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


# `enrich`'s summary line (without --quiet): the start-up (data and fences loaded) and the lines
SUMMARY = re.compile(rb"start-up ([0-9.]+) s, the lines ([0-9.]+) s")


def timed_run(argv, stdout_path=os.devnull, tool="ab_enrich", summary=False):
    """One run of `argv`, its output to `stdout_path`: (wall s, user+sys CPU s, peak RSS bytes),
    and with `summary` (argv without --quiet) also the start-up and the lines' seconds that the
    run's summary line gives. Also used by enrich_options_ab.py."""
    with open(stdout_path, "wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err if summary else subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{tool}: {' '.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    figures = (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)
    if not summary:
        return figures
    # the summary is the last line (bad lines' reports, which echo input, come before it)
    found = SUMMARY.search(stderr.rstrip(b"\n").rsplit(b"\n", 1)[-1])
    if not found:
        sys.exit(f"{tool}: no start-up and lines times in the summary of {' '.join(argv)}: {stderr[-300:]!r}")
    return figures + (float(found.group(1)), float(found.group(2)))


def run(binary, stream, workers, stdout_path=os.devnull):
    """One run of `binary enrich`: (wall s, user+sys CPU s, peak RSS bytes)."""
    argv = [binary, "enrich", stream, "--quiet"]
    if workers:
        argv += ["--workers", str(workers)]
    return timed_run(argv, stdout_path)


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compare(base, ours, stream, runs, workers, lines):
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "base.ndjson"), os.path.join(tmp, "ours.ndjson")
        run(base, stream, workers, a)
        run(ours, stream, workers, b)
        if digest(a) != digest(b):
            sys.exit("ab_enrich: the two builds' outputs differ; no figures for a different answer")
    figures = {"base": [], "ours": []}
    for _ in range(runs):
        for name, binary in (("base", base), ("ours", ours)):
            figures[name].append(run(binary, stream, workers))
    result = {"workers": workers or "all", "runs": runs}
    for name, rows in figures.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        rss = statistics.median(r[2] for r in rows)
        result[name] = {"wall_s": round(wall, 4), "lines_per_s": round(lines / wall),
                        "cpu_ns_per_line": round(cpu / lines * 1e9, 1), "peak_rss_mb": round(rss / 1e6, 1),
                        "wall_runs": [round(r[0], 4) for r in rows]}
    result["ratio_wall"] = round(result["ours"]["wall_s"] / result["base"]["wall_s"], 3)
    result["ratio_cpu"] = round(result["ours"]["cpu_ns_per_line"] / result["base"]["cpu_ns_per_line"], 3)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the build before the change")
    ap.add_argument("--bin", required=True, help="this tree's build")
    ap.add_argument("--stream", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--single", action="store_true", help="also compare with --workers 1")
    ap.add_argument("--output")
    args = ap.parse_args()
    with open(args.stream, "rb") as f:
        lines = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
    report = {"stream": args.stream, "lines": lines, "base": args.base, "bin": args.bin,
              "loadavg_before": open("/proc/loadavg").read().split()[:3],
              "all_cores": compare(args.base, args.bin, args.stream, args.runs, None, lines)}
    if args.single:
        report["one_worker"] = compare(args.base, args.bin, args.stream, args.runs, 1, lines)
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
