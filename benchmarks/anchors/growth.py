#!/usr/bin/env python3
"""How `geo-enrich enrich`'s cost grows with the work: lines and live sessions.

Lines: the stream of `gen_stream.py` (2,000 sessions) cut to 100 k lines, the 1 M-line stream,
and the 10 M-line run of anchors/enrich_cli.py (--enrich, read from its JSON): wall time (linear
is the aim), lines per second and peak RSS (flat is the aim). Sessions: 1 M-line streams of
`gen_stream.py --sessions S` for S = 1 k, 100 k, 1 M: nanoseconds a line and peak RSS. Each run
is the release CLI on a file, output to /dev/null, peak RSS from os.wait4; the median of --runs
runs (one for the 10 M lines). Held sessions: 1 M sessions of one fix each, all within 50 s of
stream time (so none is evicted), with --workers 1 and 2: peak RSS, and bytes a session over the
same run on 1,000 such sessions. Prints JSON (and writes it to --output when given).

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


def held_stream(path, sessions):
    """`sessions` sessions of one fix each (9-character ids), spread over 50 s and over Canada."""
    t0 = 1764237600000
    with open(path, "w") as f:
        for i in range(sessions):
            f.write('{"type":"location","session_id":"s-%07d","timestamp":%d,"latitude":%.4f,"longitude":%.4f}\n'
                    % (i, t0 + i * 50_000 // sessions, 43 + (i % 1000) * 0.009, -120 + (i // 1000) * 0.04))


def held_sessions(tmp, runs):
    """Peak RSS holding 1 M live sessions, with one worker and with two, and bytes a session."""
    rows = []
    small, large = os.path.join(tmp, "held1k.ndjson"), os.path.join(tmp, "held1m.ndjson")
    held_stream(small, 1_000)
    held_stream(large, 1_000_000)
    for workers in (1, 2):
        base = max(timed([BINARY, "enrich", "--quiet", "--workers", str(workers), small])[1] for _ in range(runs))
        results = [timed([BINARY, "enrich", "--quiet", "--workers", str(workers), large])[:2] for _ in range(runs)]
        rss = max(r for _, r in results)
        rows.append({"sessions": 1_000_000, "workers": workers, "wall_s": statistics.median(w for w, _ in results),
                     "rss_bytes": rss, "base_rss_bytes": base, "bytes_per_session": (rss - base) / 999_000})
    os.remove(small)
    os.remove(large)
    return rows


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
        result["held"] = held_sessions(tmp, a.runs)
    text = json.dumps(result, indent=2)
    print(text)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
