#!/usr/bin/env python3
"""`geo-enrich enrich` with and without options that add to `geo`, on the same stream.

Two cases (`--case`): `rule12` (the default), where issue 21 asks that `enrich --timezone
--postal-countries CA,US` on the 1 M-line benchmark stream stay within 10 % of the speed of
`enrich` without them; and `geofences`, where issue 19 (item 8) asks that `enrich --geofences
FILE` with 20,000 fences (`--fences`, written by anchors/geofence_anchor.py) keep at least 80 % of
the speed without them (a ratio of at most 1.25; reported for the whole run, the fences' loading
included, and for the lines alone, below). The release CLI runs the stream (output to
/dev/null, bad lines' reports to /dev/null) --runs times each way, alternately (without, with, without, with, …) so that a noisy
neighbour weighs on both alike. For each: the median wall time, the median CPU time (user + system
of all cores, per line: the steadier figure on a shared machine) and the median peak RSS; and the
ratios with / without of the two medians, against the target of 1.10 (and, beside them, the
median of the ratios of each pair of runs). Each run also gives, on its summary line (so the runs
are without --quiet), its start-up (the data and any fences loaded, before the first line is read)
and the time of the lines themselves; their medians and the lines' ratio are reported too: a
fence file's loading is paid once, whatever the stream's length, and the lines' ratio is the
stream's speed once it runs.

Before timing, one run each way is kept and compared: the same number of lines, and the output
with the options, once its `"timezone"` and `"utc_offset_s"` keys are taken out, byte-identical to
the output without them (a fast wrong answer cannot pass for a result); the count of `geo` objects
that carry a time zone (or a non-empty fence list) is reported.

Prints JSON (and writes it to --output when given).

usage: enrich_options_ab.py --stream FILE [--case rule12|geofences --fences FILE] [--bin BIN] [--runs 7] [--output FILE]
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

from ab_enrich import timed_run  # the same measurement as the A/B against the base build

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "geo-enrich")

# Per case: the options under test, the bound on their cost, what they add to a `geo`
# object (taken out before comparing), and the mark of a line that carries something of theirs.
CASES = {
    # rule 12: the zone, then (for a fix's time) its offset
    "rule12": dict(options=["--timezone", "--postal-countries", "CA,US"], target=1.10,
                   added=re.compile(rb',"timezone":"[^"]*"(,"utc_offset_s":-?[0-9]+)?'), marker=b'"timezone":'),
    # rule 11: the fence list, the last key (the benchmark's ids are plain: p<k>, c<k>)
    "geofences": dict(options=["--geofences", None], target=1.25,
                      added=re.compile(rb',"geofences":\[[^\]]*\]'), marker=b'"geofences":["'),
}


def run(argv, stdout_path=os.devnull):
    """One run: (wall s, user+sys CPU s, peak RSS bytes, start-up s, the lines' s); argv without
    --quiet, so that the summary line gives the last two."""
    return timed_run(argv, stdout_path, tool="enrich_options_ab", summary=True)


def check(plain_argv, options_argv, case):
    """Runs both once and compares their outputs; returns (output lines, lines that carry the
    options' values)."""
    with tempfile.TemporaryDirectory() as tmp:
        plain_path, options_path = os.path.join(tmp, "plain.ndjson"), os.path.join(tmp, "options.ndjson")
        run(plain_argv, plain_path)
        run(options_argv, options_path)
        plain_digest, stripped_digest = hashlib.sha256(), hashlib.sha256()
        lines = options_lines = zoned = 0
        with open(plain_path, "rb") as f:
            for line in f:
                lines += 1
                plain_digest.update(line)
        with open(options_path, "rb") as f:
            for line in f:
                options_lines += 1
                if case["marker"] in line:
                    zoned += 1
                line = case["added"].sub(b"", line)
                stripped_digest.update(line)
    if lines != options_lines:
        sys.exit(f"enrich_options_ab: {lines:,} output lines without the options, {options_lines:,} with them")
    if plain_digest.digest() != stripped_digest.digest():
        sys.exit("enrich_options_ab: with the options, less their keys, the output differs from the one without")
    return lines, zoned


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stream", required=True)
    ap.add_argument("--bin", default=BINARY, help="the release CLI (default .build/release/geo-enrich)")
    ap.add_argument("--runs", type=int, default=7, help="runs each way (at least 5)")
    ap.add_argument("--output")
    ap.add_argument("--case", choices=sorted(CASES), default="rule12")
    ap.add_argument("--fences", help="the fence file of --case geofences")
    args = ap.parse_args()
    case = CASES[args.case]
    OPTIONS = [o if o is not None else args.fences for o in case["options"]]
    if None in OPTIONS:
        sys.exit("enrich_options_ab: --case geofences needs --fences FILE")
    TARGET_RATIO = case["target"]
    if args.runs < 5:
        sys.exit("enrich_options_ab: --runs must be at least 5")
    if not os.path.exists(args.bin):
        subprocess.run(["bash", "scripts/build_cli.sh", "--product", "geo-enrich"], cwd=ROOT, check=True)
    with open(args.stream, "rb") as f:
        lines = sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))

    plain = [args.bin, "enrich", args.stream, "--errors", os.devnull]
    with_options = plain + OPTIONS
    output_lines, zoned = check(plain, with_options, case)

    loadavg = open("/proc/loadavg").read().split()[:3]
    figures = {"without": [], "with": []}
    for _ in range(args.runs):
        for name, argv in (("without", plain), ("with", with_options)):
            figures[name].append(run(argv))

    report = {
        "stream": os.path.basename(args.stream),
        "lines": lines,
        "bytes": os.path.getsize(args.stream),
        "bin": os.path.relpath(args.bin, ROOT) if args.bin.startswith(ROOT) else args.bin,
        "command_without": " ".join(["geo-enrich", "enrich", "STREAM", "--errors", "/dev/null", ">", "/dev/null"]),
        "command_with": " ".join(["geo-enrich", "enrich", "STREAM", "--errors", "/dev/null"] + OPTIONS + [">", "/dev/null"]),
        "options": " ".join(OPTIONS),
        "case": args.case,
        "runs": args.runs,
        "order": "alternating, without first",
        "statistic": "median",
        "loadavg_before": loadavg,
        "output_lines": output_lines,
        "lines_with_timezone" if args.case == "rule12" else "lines_in_a_fence": zoned,
        "identical_less_added_keys": True,
        "target_ratio": TARGET_RATIO,
    }
    for name, rows in figures.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        rss = statistics.median(r[2] for r in rows)
        startup = statistics.median(r[3] for r in rows)
        lines_s = statistics.median(r[4] for r in rows)
        report[name] = {"wall_s": round(wall, 4), "lines_per_s": round(lines / wall),
                        "cpu_ns_per_line": round(cpu / lines * 1e9, 1), "peak_rss_mb": round(rss / 1e6, 1),
                        "startup_s": round(startup, 4), "lines_s": round(lines_s, 4),
                        "wall_runs": [round(r[0], 4) for r in rows],
                        "cpu_runs": [round(r[1], 4) for r in rows],
                        "startup_runs": [round(r[3], 4) for r in rows], "lines_runs": [round(r[4], 4) for r in rows]}
    report["ratio_wall"] = round(report["with"]["wall_s"] / report["without"]["wall_s"], 3)
    report["ratio_cpu"] = round(report["with"]["cpu_ns_per_line"] / report["without"]["cpu_ns_per_line"], 3)
    # each run with the options over the run without them just before it: the pairs share the
    # machine's load of the moment, so their median ratio is the steadier figure when it varies
    report["ratio_wall_paired"] = round(statistics.median(
        w[0] / wo[0] for wo, w in zip(figures["without"], figures["with"])), 3)
    # the lines alone: from the first line read to the last written, as each run's own summary
    # line measured it (its start-up, the data and the fences loaded, left out), in the same runs
    report["ratio_lines"] = round(report["with"]["lines_s"] / report["without"]["lines_s"], 3)
    report["ratio_lines_paired"] = round(statistics.median(
        w[4] / wo[4] for wo, w in zip(figures["without"], figures["with"])), 3)
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
