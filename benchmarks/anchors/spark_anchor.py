#!/usr/bin/env python3
"""`geo-enrich enrich` alone against the same job under Spark local[2], on one stream.

  one process   `geo-enrich enrich STREAM --quiet > /dev/null` with every core (the default) and with
                `--workers 1`, the median of --runs runs
  Spark         `integrations/spark/geo_enrich_spark.py`'s job on a local[2] context made once, with
                2 and 4 session partitions (--partitions), the median of --runs runs each, from the
                job's start to the last file written (output, bad-line reports, statistics)
  Spark alone   the same keying, shuffle and sort with a count in place of geo-enrich: Spark's own
                share of the job
  start-up      a fresh Python process that makes a local[2] context (UI off) and runs a one-element
                job, until that job is done: the median of --startup-runs runs

Each Spark run's output is compared with the single process's as a multiset of lines (SHA-256 of
each line), so that a fast wrong answer cannot pass. Prints JSON (and writes it to --output).

usage: spark_anchor.py --stream FILE [--runs 3] [--partitions 2 4] [--output FILE]
"""
import argparse
import collections
import glob
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "geo-enrich")
import geo_enrich_spark  # integrations/spark, on PYTHONPATH as the Makefile sets it
from enrich_cli import timed  # beside this file

MASTER = "local[2]"
STARTUP = (
    "import os, sys, time\n"
    "t0 = time.perf_counter()\n"
    "os.environ.setdefault('SPARK_LOCAL_IP', '127.0.0.1')\n"
    "os.environ.setdefault('PYSPARK_PYTHON', sys.executable)\n"
    "from pyspark import SparkConf, SparkContext\n"
    "sc = SparkContext(conf=SparkConf().setMaster('" + MASTER + "').setAppName('startup')"
    ".set('spark.ui.enabled', 'false'))\n"
    "t1 = time.perf_counter()\n"
    "sc.parallelize([1], 1).count()\n"
    "t2 = time.perf_counter()\n"
    "sc.stop()\n"
    "print(t1 - t0, t2 - t0)\n"
)


def line_digests(paths):
    counts = collections.Counter()
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                counts[hashlib.sha256(line.rstrip(b"\n")).digest()] += 1
    return counts


def startup(runs):
    context, first_job, wall = [], [], []
    for _ in range(runs):
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", STARTUP], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, check=True)
        wall.append(time.perf_counter() - began)
        made, job = (float(x) for x in done.stdout.split())
        context.append(made)
        first_job.append(job)
    return dict(context_s=statistics.median(context), first_job_s=statistics.median(first_job),
                process_s=statistics.median(wall), runs=len(wall))


def spark_only(sc, stream, partitions):
    """Keying, shuffle and sort as the driver does them, counted instead of piped."""
    _, uris = geo_enrich_spark.list_inputs(sc, [stream])
    began = time.perf_counter()
    count = geo_enrich_spark.by_session(sc, uris, "time", "canonical", partitions).count()
    return time.perf_counter() - began, count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stream", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--startup-runs", type=int, default=3)
    ap.add_argument("--partitions", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--output")
    a = ap.parse_args()
    stream = os.path.abspath(a.stream)
    work = tempfile.mkdtemp(prefix="spark-anchor-")
    result = dict(stream_lines=sum(1 for _ in open(stream, "rb")), stream_bytes=os.path.getsize(stream),
                  master=MASTER, python=platform.python_version())
    try:
        import pyspark
        result["pyspark"] = pyspark.__version__

        reference = os.path.join(work, "alone.ndjson")
        single = {}
        for label, extra in (("all_cores", []), ("one_worker", ["--workers", "1"])):
            runs = []
            for _ in range(a.runs):
                wall, rss, status, _ = timed([BINARY, "enrich", stream, "--quiet", *extra], stdout_path=reference)
                if status != 0:
                    raise SystemExit(f"spark_anchor: geo-enrich exited {status}")
                runs.append(wall)
            single[label] = dict(runs=runs, median_s=statistics.median(runs))
        result["single"] = single
        expected = line_digests([reference])
        print(f"one process: {single['all_cores']['median_s']:.2f} s (all cores), "
              f"{single['one_worker']['median_s']:.2f} s (one worker)", file=sys.stderr)

        result["startup"] = startup(a.startup_runs)
        print(f"Spark start-up: {result['startup']}", file=sys.stderr)

        args = geo_enrich_spark.parse_args([stream, "--output", os.path.join(work, "out"), "--overwrite",
                                            "--master", MASTER])
        sc, _ = geo_enrich_spark.spark_context(args)
        try:
            sc.textFile(stream).count()  # warm-up, untimed: the JVM's first jobs run slower
            spark = {}
            for partitions in a.partitions:
                args.partitions = partitions
                runs, shares = [], []
                identical = True
                for _ in range(a.runs):
                    began = time.perf_counter()
                    geo_enrich_spark.run(sc, args)
                    runs.append(time.perf_counter() - began)
                    got = line_digests(glob.glob(os.path.join(work, "out", "part-*")))
                    identical = identical and got == expected
                    shares.append(spark_only(sc, stream, partitions)[0])
                spark[str(partitions)] = dict(runs=runs, median_s=statistics.median(runs), identical_output=identical,
                                              spark_only_runs=shares, spark_only_median_s=statistics.median(shares))
                print(f"Spark, {partitions} partitions: {spark[str(partitions)]}", file=sys.stderr)
            result["spark"] = spark
        finally:
            sc.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(result, indent=2)
    print(text)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
