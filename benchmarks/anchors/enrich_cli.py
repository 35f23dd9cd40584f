#!/usr/bin/env python3
"""End-to-end `geo-enrich enrich` against the peer, measured in the same session.

What the enrich issue asks to size a deployment by, on the stream of
`../shared/bench/gen_stream.py 1000000` (push off, output to /dev/null):

  throughput   wall time of `geo-enrich enrich STREAM --quiet > /dev/null`, the median of --runs
               runs, and lines per second; its CPU time (user + system, all threads) and peak RSS
               (os.wait4's rusage of the process), CPU being the steadier figure on a shared machine
  one worker   the same with `--workers 1`, each run right after one of the above (alternating, so
               that both see the machine in the same state): issue 25's single-worker rate
  peer         `peer_enrich.py < STREAM > /dev/null` (orjson, h3-py, pyproj, scipy, shapely), the
               median of --peer-runs runs (about 48 s each here), and its peak RSS; the ratio
               peer / ours of the two medians
  start-up     `geo-enrich enrich` on an empty input: process start, data mapped and checked,
               GEOS contexts made, exit; the median of 11 runs. The peer's start-up likewise (one run)
  big stream   with --big N: one run on a N-line stream (generated first, outside the timing), for
               the peak RSS the issue bounds at 300 MB on 10 M lines

Both programs' outputs are compared (byte for byte) on the measured stream, so a fast wrong
answer cannot pass for a result. Prints JSON (and writes it to --output when given).

usage: enrich_cli.py --stream FILE [--runs 5] [--peer-runs 1] [--big N] [--output FILE]
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "geo-enrich")
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared", "bench"))
PEER = os.environ.get("GEO_ENRICH_PEER", SHARED)


def timed(argv, stdin_path=None, stdout_path=os.devnull):
    """Runs argv; returns (wall seconds, peak RSS in bytes, exit status, CPU seconds)."""
    with open(stdin_path or os.devnull, "rb") as fin, open(stdout_path, "wb") as fout:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    return wall, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def count_lines(path):
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stream", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peer-runs", type=int, default=1)
    ap.add_argument("--big", type=int, default=0, help="also run once on a stream of this many lines")
    ap.add_argument("--output")
    a = ap.parse_args()
    if not os.path.exists(BINARY):
        subprocess.run(["bash", "scripts/build_cli.sh", "--product", "geo-enrich"], cwd=ROOT, check=True)
    peer = [sys.executable, os.path.join(PEER, "peer_enrich.py")]
    ours = [BINARY, "enrich", "--quiet"]
    lines = count_lines(a.stream)
    result = {"stream": os.path.basename(a.stream), "lines": lines, "bytes": os.path.getsize(a.stream),
              "command": " ".join(ours + ["STREAM", ">", "/dev/null"]),
              "peer_command": " ".join(["python3", "peer_enrich.py", "<", "STREAM", ">", "/dev/null"])}

    with tempfile.TemporaryDirectory() as tmp:
        # agreement first: the same bytes out
        ours_out, peer_out = os.path.join(tmp, "ours.out"), os.path.join(tmp, "peer.out")
        timed(ours + [a.stream], stdout_path=ours_out)
        peer_runs = []
        wall, rss, status, cpu = timed(peer, stdin_path=a.stream, stdout_path=peer_out)
        peer_runs.append((wall, rss, cpu))
        result["identical_output"] = digest(ours_out) == digest(peer_out)
        result["output_lines"] = count_lines(ours_out)
        for _ in range(a.peer_runs - 1):
            wall, rss, _, cpu = timed(peer, stdin_path=a.stream)
            peer_runs.append((wall, rss, cpu))

        runs, one_worker = [], []
        for _ in range(a.runs):
            wall, rss, _, cpu = timed(ours + [a.stream])
            runs.append((wall, rss, cpu))
            wall, rss, _, cpu = timed(ours + ["--workers", "1", a.stream])
            one_worker.append((wall, rss, cpu))
        startup = sorted(timed(ours)[0] for _ in range(11))
        peer_startup = timed(peer)[0]

    ours_wall = statistics.median(w for w, _, _ in runs)
    peer_wall = statistics.median(w for w, _, _ in peer_runs)
    ours_cpu = statistics.median(c for _, _, c in runs)
    peer_cpu = statistics.median(c for _, _, c in peer_runs)
    one_wall = statistics.median(w for w, _, _ in one_worker)
    one_cpu = statistics.median(c for _, _, c in one_worker)
    result.update({
        "runs": [round(w, 4) for w, _, _ in runs],
        "cpu_runs": [round(c, 4) for _, _, c in runs],
        "wall_s": ours_wall,
        "cpu_s": ours_cpu,
        "cpu_ns_per_line": ours_cpu * 1e9 / lines,
        "lines_per_s": lines / ours_wall,
        "rss_bytes": max(r for _, r, _ in runs),
        "peer_runs": [round(w, 3) for w, _, _ in peer_runs],
        "peer_wall_s": peer_wall,
        "peer_cpu_s": peer_cpu,
        "peer_lines_per_s": lines / peer_wall,
        "peer_rss_bytes": max(r for _, r, _ in peer_runs),
        "ratio": peer_wall / ours_wall,
        "cpu_ratio": peer_cpu / ours_cpu,
        "startup_s": statistics.median(startup),
        "one_worker": {
            "runs": [round(w, 4) for w, _, _ in one_worker],
            "cpu_runs": [round(c, 4) for _, _, c in one_worker],
            "wall_s": one_wall,
            "cpu_s": one_cpu,
            "cpu_ns_per_line": one_cpu * 1e9 / lines,
            "lines_per_s": lines / one_wall,
            "rss_bytes": max(r for _, r, _ in one_worker),
        },
        "peer_startup_s": peer_startup,
    })
    if a.big:
        with tempfile.TemporaryDirectory() as tmp:
            big = os.path.join(tmp, "big.ndjson")
            with open(big, "wb") as f:
                subprocess.run([sys.executable, os.path.join(SHARED, "gen_stream.py"), str(a.big)], stdout=f, check=True)
            wall, rss, status, _ = timed(ours + [big])
            result["big"] = {"lines": a.big, "bytes": os.path.getsize(big), "wall_s": wall, "rss_bytes": rss,
                             "lines_per_s": a.big / wall, "exit": status}
    text = json.dumps(result, indent=2)
    print(text)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
