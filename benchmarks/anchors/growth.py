#!/usr/bin/env python3
"""How `geo-enrich enrich`'s cost grows with the work: lines and live sessions.

Lines: the stream of `gen_stream.py` (2,000 sessions) cut to 100 k lines, the 1 M-line stream,
and the 10 M-line run of anchors/enrich_cli.py (--enrich, read from its JSON): wall time (linear
is the aim), lines per second and peak RSS (flat is the aim). Sessions: 1 M-line streams of
`gen_stream.py --sessions S` for S = 1 k, 100 k, 1 M: nanoseconds a line and peak RSS. Each run
is the release CLI on a file, output to /dev/null, peak RSS from os.wait4; the median of --runs
runs (one for the 10 M lines). Prints JSON (and writes it to --output when given).

usage: growth.py --stream STREAM_1M --enrich ENRICH_JSON [--gen GEN_STREAM] [--runs 3] [--output FILE]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from enrich_cli import BINARY, ROOT, timed


def median_run(path, runs):
    """Median wall time and the largest peak RSS of `runs` runs of enrich on `path`."""
    results = [timed([BINARY, "enrich", "--quiet", path])[:2] for _ in range(runs)]
    return statistics.median(w for w, _ in results), max(r for _, r in results)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stream", required=True, help="the 1 M-line gen_stream.py stream")
    ap.add_argument("--enrich", help="anchors/enrich_cli.py's JSON, for the 10 M-line run")
    ap.add_argument("--gen", default=os.path.join(ROOT, "..", "shared", "bench", "gen_stream.py"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--output")
    a = ap.parse_args()
    result = {"lines": [], "sessions": []}
    with tempfile.TemporaryDirectory() as tmp:
        small = os.path.join(tmp, "100k.ndjson")
        with open(a.stream, "rb") as src, open(small, "wb") as dst:
            for i, line in enumerate(src):
                if i >= 100_000:
                    break
                dst.write(line)
        for n, path in ((100_000, small), (1_000_000, a.stream)):
            wall, rss = median_run(path, a.runs)
            result["lines"].append({"lines": n, "wall_s": wall, "lines_per_s": n / wall, "rss_bytes": rss})
        if a.enrich and os.path.exists(a.enrich):
            big = json.load(open(a.enrich)).get("big")
            if big:
                result["lines"].append({"lines": big["lines"], "wall_s": big["wall_s"],
                                        "lines_per_s": big["lines_per_s"], "rss_bytes": big["rss_bytes"]})
        for sessions in (1_000, 100_000, 1_000_000):
            path = os.path.join(tmp, f"s{sessions}.ndjson")
            with open(path, "wb") as f:
                subprocess.run([sys.executable, a.gen, "1000000", "--sessions", str(sessions)], stdout=f, check=True)
            wall, rss = median_run(path, a.runs)
            result["sessions"].append({"sessions": sessions, "lines": 1_000_000, "wall_s": wall,
                                       "ns_per_line": wall * 1e9 / 1_000_000, "rss_bytes": rss})
            os.remove(path)
    text = json.dumps(result, indent=2)
    print(text)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
