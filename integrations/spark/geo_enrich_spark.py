#!/usr/bin/env python3
"""Run `geo-enrich enrich` under Apache Spark, partitioned by session.

Every line of a session must reach the same geo-enrich process, in order, because the engine keeps
per-session state. The driver keys each input line by (timestamp in ms, file, line number) and sends
it to partition crc32(session id) mod P; `repartitionAndSortWithinPartitions` then hands every
partition its sessions' lines in time order, and each partition streams through one geo-enrich
process (stdin to stdout). Lines that cannot be keyed (not JSON, no session id) go to partition 0,
where geo-enrich reports them as it would alone. Each partition's bad-line reports are renumbered to
the line of the input file they came from, and its statistics are summed into one JSON object that
reconciles with the lines read.

usage (from a checkout, after `./scripts/build_cli.sh`):
  python3 integrations/spark/geo_enrich_spark.py INPUT... --output DIR [options] [-- ENRICH OPTIONS]
or with spark-submit:
  spark-submit integrations/spark/geo_enrich_spark.py INPUT... --output DIR --binary /abs/geo-enrich ...

Options after `--` go to `geo-enrich enrich` (e.g. `-- --distance-filter 50 --format datacloud`);
the driver owns input, output, errors, stats, --workers, --quiet, --data and --geofence-events
(with --geofences, each partition's transitions go to OUTPUT/_geofence_events). See the README's
"Spark" section for what differs from one process and how to ship the binary.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from array import array
from datetime import datetime

try:
    import orjson

    def _loads(text):
        return orjson.loads(text)

    def _dumps_str(s):
        return orjson.dumps(s).decode("utf-8")
except ImportError:  # the standard library is slower, and lets lone surrogates through (the engine does not)
    def _loads(text):
        return json.loads(text)

    def _dumps_str(s):
        return json.dumps(s, ensure_ascii=False)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_BINARY = os.path.join(REPO, ".build", "release", "geo-enrich")
DEFAULT_DATA = os.path.join(REPO, "data")
DATA_FILES = ("countries.bin", "postal_ca.bin", "postal_us.bin", "timezones.bin")

# `geo-enrich enrich` options the driver sets itself, per partition
OWNED = {"-o", "--output", "--errors", "--stats", "--workers", "--quiet", "--data", "--max-errors",
         "--geofence-events"}
# options that take a value (so that the value is not taken for an input path)
VALUED = {"--distance-filter", "--expiry", "--h3-resolution", "--postal-max-distance", "--postal-countries", "--max-accuracy",
          "--consent-not-set", "--evict-after", "--format", "--batch-size", "--push-url", "--api-key-file",
          "--push-drain-timeout", "--push-dead-letter", "--push-max-in-flight", "--push-retry-time",
          "--push-timeout", "--geofences", "--geofence-dwell", "--geofence-webhook", "--geofence-queue",
          "--geofence-dead-letter"}
# exit statuses of geo-enrich enrich a partition may end with: read to the end (3: some pushes undelivered)
ACCEPTED_EXIT = (0, 3)
# statistics keys that are not counts
FLAG_KEYS = ("stopped_early", "push_enabled")


# ---------------------------------------------------------------------------------------------
# keying: pure functions, run on the executors


def parse_timestamp_ms(value):
    """The contract's timestamp in epoch ms, as the engine reads it, or None when it reads none:
    a JSON number is epoch ms (truncated); a string is ISO 8601 with `Z` or an offset."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return int(value)
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            return None
        try:
            return int(round(moment.timestamp() * 1000))
        except (OverflowError, ValueError):
            return None
    return None


def session_and_time(text, record_format):
    """(session id, timestamp in ms) of one input line as geo-enrich would read them; None for what
    is missing or broken. Never raises: a line nobody can key still has to reach geo-enrich."""
    try:
        record = _loads(text)
    except Exception:
        return None, None
    if not isinstance(record, dict):
        return None, None
    if record_format == "eqworks":
        if record.get("cmd") == "batch":
            elements = record.get("batch_info")
            first = elements[0] if isinstance(elements, list) and elements else None
            record = first if isinstance(first, dict) else {}
        session = record.get("userId")
    else:
        session = record.get("session_id")
    if not isinstance(session, str) or not session:
        session = None
    return session, parse_timestamp_ms(record.get("timestamp"))


def partition_of(session, partitions):
    """A stable partition for a session id: crc32 of its UTF-8 bytes (Python's `hash` of a string
    changes from process to process). Lines without a session go to partition 0."""
    if session is None:
        return 0
    return zlib.crc32(session.encode("utf-8", "surrogatepass")) % partitions


NO_TIME = float("-inf")  # lines without a readable time sort first; the engine never sees them


def keyed(order, record_format, partitions):
    """The map from ((line, index), file index) to (key, line). The key ends with the partition, so
    that the partitioner reads it there; what comes before it is the order within a partition."""

    def key_line(item):
        (text, index), file_index = item
        session, ms = session_and_time(text, record_format)
        part = partition_of(session, partitions)
        if order == "time":
            return (NO_TIME if ms is None else ms, file_index, index, part), text
        return (file_index, index, part), text

    return key_line


# ---------------------------------------------------------------------------------------------
# one partition through one geo-enrich process


def renumber(report, origin, file_names):
    """A bad-line report of a partition's process (line N of what it was fed) with the line number
    of the input file it came from, and that file's name when there are several."""
    head = '{"line":'
    if not report.startswith(head):
        raise ValueError("geo-enrich wrote an unexpected error line: %r" % report[:200])
    comma = report.index(",", len(head))
    fed_line = int(report[len(head):comma])
    file_index, line_index = divmod(origin[fed_line - 1], 1 << 40)
    where = "%s%d" % (head, line_index + 1)
    if len(file_names) > 1:
        where += ',"file":' + _dumps_str(file_names[file_index])
    return where + report[comma:]


def _blank(line_bytes):
    return not line_bytes.strip()


def enrich_partition(settings):
    """The function of `mapPartitionsWithIndex`: feed the partition's lines to geo-enrich, yield
    its output lines (str), then ("e", report) for each bad line and ("s", index, stats JSON)."""

    def run(index, items):
        from pyspark import SparkFiles, TaskContext

        items = iter(items)
        first = next(items, None)
        if first is None:  # an empty partition starts no process
            return
        if settings["ship"]:
            binary = SparkFiles.get(os.path.basename(settings["binary"]))
            data = SparkFiles.getRootDirectory()
        else:
            binary, data = settings["binary"], settings["data"]
        work = tempfile.mkdtemp(prefix="geo-enrich-part-%05d-" % index)
        errors_path = os.path.join(work, "errors.ndjson")
        events_path = os.path.join(work, "geofence-events.ndjson")
        stats_path = os.path.join(work, "stats.json")
        stderr_path = os.path.join(work, "stderr.txt")
        argv = [binary, "enrich", *settings["enrich_options"], "--quiet",
                "--workers", str(settings["workers"]), "--data", data,
                "--errors", errors_path, "--stats", stats_path]
        if settings["dead_letter_dir"]:
            os.makedirs(settings["dead_letter_dir"], exist_ok=True)
            attempt = TaskContext.get().attemptNumber() if TaskContext.get() else 0
            argv += ["--push-dead-letter", os.path.join(
                settings["dead_letter_dir"], "dead-letter-part-%05d-attempt-%d.ndjson" % (index, attempt))]
        if settings["geofences"]:
            fences = settings["geofences"]
            if settings["ship"]:
                fences = SparkFiles.get(os.path.basename(fences))
            argv += ["--geofences", fences, "--geofence-events", events_path]
            if settings["fence_dead_letter_dir"]:
                os.makedirs(settings["fence_dead_letter_dir"], exist_ok=True)
                attempt = TaskContext.get().attemptNumber() if TaskContext.get() else 0
                argv += ["--geofence-dead-letter", os.path.join(
                    settings["fence_dead_letter_dir"],
                    "geofence-dead-letter-part-%05d-attempt-%d.ndjson" % (index, attempt))]
        origin = array("q")  # (file index << 40) + line index of each line fed, in order
        fed = {"lines": 0, "blank": 0, "error": None}
        try:
            with open(stderr_path, "wb") as stderr:
                process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=stderr, env=settings["env"], close_fds=True)

                def feed():
                    try:
                        for (key, text) in _chain(first, items):
                            position = key[1:3] if settings["order"] == "time" else key[0:2]
                            origin.append((position[0] << 40) + position[1])
                            line = text.encode("utf-8", "surrogatepass")
                            if _blank(line):
                                fed["blank"] += 1
                            fed["lines"] += 1
                            process.stdin.write(line)
                            process.stdin.write(b"\n")
                        process.stdin.close()
                    except BaseException as failure:  # BrokenPipe: the process ended early
                        fed["error"] = failure
                        try:
                            process.stdin.close()
                        except OSError:
                            pass

                feeder = threading.Thread(target=feed, name="geo-enrich-feed-%d" % index, daemon=True)
                feeder.start()
                for raw in process.stdout:
                    yield raw[:-1].decode("utf-8") if raw.endswith(b"\n") else raw.decode("utf-8")
                status = process.wait()
                feeder.join()
            with open(stderr_path, "rb") as f:
                said = f.read()[-4000:].decode("utf-8", "replace").strip()
            if status not in ACCEPTED_EXIT:
                raise RuntimeError("geo-enrich exited with status %d on partition %d: %s"
                                   % (status, index, said or "(no message)"))
            if fed["error"] is not None:
                raise RuntimeError("geo-enrich on partition %d stopped reading its input: %r; %s"
                                   % (index, fed["error"], said))
            with open(stats_path, "rb") as f:
                stats = json.loads(f.read())
            # nothing lost: every line fed is counted, or blank
            if stats.get("lines", -1) + fed["blank"] != fed["lines"] or stats.get("stopped_early"):
                raise RuntimeError("partition %d: fed %d lines (%d blank) but geo-enrich counted %s"
                                   % (index, fed["lines"], fed["blank"], stats.get("lines")))
            with open(errors_path, "r", encoding="utf-8") as f:
                for report in f:
                    yield ("e", renumber(report.rstrip("\n"), origin, settings["file_names"]))
            if settings["geofences"]:
                with open(events_path, "r", encoding="utf-8") as f:
                    for transition in f:
                        yield ("g", transition.rstrip("\n"))
            stats["partition"] = index
            yield ("s", index, json.dumps(stats))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    return run


def _chain(first, rest):
    yield first
    yield from rest


# ---------------------------------------------------------------------------------------------
# statistics


def sum_stats(parts):
    """One statistics object from the partitions': counts added (nested objects key by key), flags
    or-ed; `elapsed_s` is left out (the driver measures the whole run)."""
    total = {}
    for part in parts:
        for key, value in part.items():
            if key in ("elapsed_s", "partition"):
                continue
            if isinstance(value, bool):
                total[key] = total.get(key, False) or value
            elif isinstance(value, dict):
                inner = total.setdefault(key, {})
                for k, v in value.items():
                    inner[k] = inner.get(k, 0) + v
            else:
                total[key] = total.get(key, 0) + value
    return total


def reconcile(stats):
    """Contract rule 10 on the summed statistics, as geo-enrich checks its own: records = events +
    fixes accepted + fixes rejected + errors (records = lines but in the EQWorks format, where a batch
    line holds several records), and fixes = accepted + rejected."""
    rejected = sum(stats.get("fixes_rejected", {}).values())
    g = stats.get
    return (g("records", 0) == g("events", 0) + g("fixes_accepted", 0) + rejected + g("errors", 0)
            and g("fixes", 0) == g("fixes_accepted", 0) + rejected)


# ---------------------------------------------------------------------------------------------
# the driver


def split_enrich_options(argv):
    """(driver arguments, enrich options): everything after the first `--` is geo-enrich's."""
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1:]
    return argv, []


def check_enrich_options(options):
    """Refuses the options the driver owns and input paths; returns a dict of what the driver needs
    to know: format, push (wanted), dead_letter (dir), geofences (file), webhook (wanted),
    fence_dead_letter (dir)."""
    found = dict(format="canonical", push=False, dead_letter=None, geofences=None, webhook=False,
                 fence_dead_letter=None)
    i = 0
    while i < len(options):
        option = options[i]
        name = option.split("=", 1)[0]
        if name in OWNED:
            raise SystemExit("geo_enrich_spark: %s is set by the driver per partition; use the driver's own option "
                             "(see --help)" % name)
        if not name.startswith("-"):
            raise SystemExit("geo_enrich_spark: %r after -- looks like an input path; inputs go before --" % option)
        value = option.split("=", 1)[1] if "=" in option else None
        if name in VALUED and value is None:
            if i + 1 >= len(options):
                raise SystemExit("geo_enrich_spark: %s needs a value" % name)
            value = options[i + 1]
            i += 1
        if name == "--format":
            found["format"] = value
        elif name == "--push-url":
            found["push"] = True
        elif name == "--push-dead-letter":
            found["dead_letter"] = value
        elif name == "--geofences":
            found["geofences"] = value
        elif name == "--geofence-webhook":
            found["webhook"] = True
        elif name == "--geofence-dead-letter":
            found["fence_dead_letter"] = value
        i += 1
    return found


def without_option(options, name):
    out, i = [], 0
    while i < len(options):
        if options[i] == name:
            i += 2
            continue
        if options[i].startswith(name + "="):
            i += 1
            continue
        out.append(options[i])
        i += 1
    return out


def list_inputs(sc, paths):
    """The input files, in the order given; a directory or glob expands to its files (names not
    starting with `_` or `.`) sorted by path. Any file system Hadoop reads (file:, hdfs:, s3a:, ...).
    Returns (names as reported, paths for textFile)."""
    jvm = sc._jvm
    conf = sc._jsc.hadoopConfiguration()
    names, uris = [], []
    for given in paths:
        path = jvm.org.apache.hadoop.fs.Path(given)
        fs = path.getFileSystem(conf)
        statuses = fs.globStatus(path)
        if statuses is None or len(statuses) == 0:
            raise SystemExit("geo_enrich_spark: no input at %s" % given)
        found = []
        for status in statuses:
            if status.isDirectory():
                for child in fs.listStatus(status.getPath()):
                    base = child.getPath().getName()
                    if child.isFile() and not base.startswith(("_", ".")):
                        found.append(child.getPath().toString())
            else:
                found.append(status.getPath().toString())
        found.sort()
        plain = len(statuses) == 1 and not statuses[0].isDirectory() and not any(c in given for c in "*?[{")
        for uri in found:
            names.append(given if plain else uri)
            uris.append(uri)
    return names, uris


def hadoop_delete(sc, path):
    jvm = sc._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    fs = p.getFileSystem(sc._jsc.hadoopConfiguration())
    if fs.exists(p):
        fs.delete(p, True)


def dry_run(binary, data, options, env):
    """Runs geo-enrich on no input with the options, so that a usage error stops the driver before
    Spark starts (only when the binary is on the driver's machine)."""
    if not os.path.isfile(binary):
        return
    done = subprocess.run([binary, "enrich", *options, "--quiet", "--data", data], input=b"",
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise SystemExit("geo_enrich_spark: geo-enrich refuses the options after --: %s" % message)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="geo_enrich_spark.py",
        description="Run `geo-enrich enrich` under Spark, partitioned by session. Options after -- go to "
                    "geo-enrich enrich.")
    parser.add_argument("inputs", nargs="+", help="NDJSON inputs: files, directories or globs, on any file "
                        "system Spark reads; read in the order given, as one stream")
    parser.add_argument("--output", required=True, help="directory for the enriched lines (part-NNNNN files); "
                        "bad-line reports go to OUTPUT/_errors and each partition's statistics to OUTPUT/_stats")
    parser.add_argument("--overwrite", action="store_true", help="replace OUTPUT if it exists")
    parser.add_argument("--errors", help="directory for the bad-line reports instead of OUTPUT/_errors")
    parser.add_argument("--stats", help="local file for the summed statistics (JSON)")
    parser.add_argument("--partitions", type=int, help="session partitions, one geo-enrich process each "
                        "(default: Spark's default parallelism)")
    parser.add_argument("--order", choices=("time", "input"), default="time",
                        help="order of the lines within a partition: by timestamp (default; a late-arriving "
                             "line takes its place in time), or as in the input (identical to one process "
                             "on any input)")
    parser.add_argument("--binary", default=DEFAULT_BINARY, help="absolute path of geo-enrich on the executors "
                        "(default: this checkout's .build/release/geo-enrich)")
    parser.add_argument("--data", default=DEFAULT_DATA, help="absolute path of the data folder on the executors "
                        "(default: this checkout's data/)")
    parser.add_argument("--ship", action="store_true", help="send the binary and the data files with the job "
                        "(SparkContext.addFile) instead of expecting them on every executor")
    parser.add_argument("--master", default=None, help="Spark master when run with plain python "
                        "(default: local[*]; spark-submit's --master wins)")
    parser.add_argument("--driver-memory", default="2g", help="driver memory when run with plain python")
    driver_args, enrich_options = split_enrich_options(argv)
    args = parser.parse_args(driver_args)
    args.enrich_options = enrich_options
    if args.partitions is not None and args.partitions < 1:
        parser.error("--partitions must be at least 1")
    for path, what in ((args.binary, "--binary"), (args.data, "--data")):
        if not os.path.isabs(path):
            parser.error("%s must be an absolute path (executors run it without a shell or a working "
                         "directory of ours): %s" % (what, path))
    return args


def spark_context(args):
    from pyspark import SparkConf, SparkContext

    if SparkContext._active_spark_context is not None:
        return SparkContext._active_spark_context, False
    conf = SparkConf().setAppName("geo-enrich")
    if not conf.contains("spark.master"):
        conf.setMaster(args.master or "local[*]")
    if conf.get("spark.master", "").startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        conf.setIfMissing("spark.ui.enabled", "false")
        conf.setIfMissing("spark.driver.memory", args.driver_memory)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    return sc, True


def by_session(sc, uris, order, record_format, partitions):
    """The input lines as (key, line), each session's in one partition, sorted within it (see
    ``keyed``): what each partition's geo-enrich process reads."""
    lines = sc.union([sc.textFile(uri).zipWithIndex().map(lambda item, i=i: (item, i))
                      for i, uri in enumerate(uris)])
    return (lines.map(keyed(order, record_format, partitions))
            .repartitionAndSortWithinPartitions(partitions, partitionFunc=lambda key: key[-1]))


# the whole environment of each geo-enrich process: nothing of the driver's or the executor's
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


def prepare(args):
    """Checks the options after `--` (refusing the driver's own, and a push without a key file),
    and runs the binary once on no input with them when it is on this machine, so that a usage
    error, or a broken fence file, stops the driver before any Spark work. Returns the options as
    check_enrich_options finds them, with "options": what every partition passes as it is (the
    driver sets the fence file's path and each partition's dead-letter files itself)."""
    found = check_enrich_options(args.enrich_options)
    enrich_options = args.enrich_options
    for owned in ("--push-dead-letter", "--geofences", "--geofence-dead-letter"):
        enrich_options = without_option(enrich_options, owned)
    for wanted, option in ((found["push"], "--push-url"), (found["webhook"], "--geofence-webhook")):
        if wanted and not any(o == "--api-key-file" or o.startswith("--api-key-file=") for o in enrich_options):
            raise SystemExit("geo_enrich_spark: %s under Spark needs --api-key-file (a path readable on every "
                             "executor); $GEO_ENRICH_API_KEY is not forwarded, so that the key travels in no task"
                             % option)
    fences = found["geofences"]
    if fences is not None:
        if not os.path.isabs(fences):
            raise SystemExit("geo_enrich_spark: --geofences needs an absolute path (readable on every executor, "
                             "or on the driver with --ship): %s" % fences)
    dry_run(args.binary, args.data, enrich_options + (["--geofences", fences] if fences else []), ENVIRONMENT)
    found["options"] = enrich_options
    return found


def run(sc, args):
    """Runs the job on a SparkContext; returns the summed statistics (written to --stats if given)."""
    from pyspark import StorageLevel

    started = time.monotonic()
    found = prepare(args)
    record_format, enrich_options, dead_letter = found["format"], found["options"], found["dead_letter"]

    partitions = args.partitions or sc.defaultParallelism
    if __name__ != "__main__":  # imported: the executors' Python needs this module to unpickle its functions
        sc.addPyFile(os.path.abspath(__file__))
    names, uris = list_inputs(sc, args.inputs)
    if args.ship:
        sc.addFile(args.binary)
        for name in DATA_FILES:
            sc.addFile(os.path.join(args.data, name))
        if found["geofences"]:
            sc.addFile(found["geofences"])
    workers = int(sc.getConf().get("spark.task.cpus", "1"))
    settings = dict(binary=args.binary, data=args.data, ship=args.ship, env=ENVIRONMENT, order=args.order,
                    enrich_options=enrich_options, workers=workers, file_names=names,
                    dead_letter_dir=dead_letter, geofences=found["geofences"],
                    fence_dead_letter_dir=found["fence_dead_letter"])

    results = (by_session(sc, uris, args.order, record_format, partitions)
               .mapPartitionsWithIndex(enrich_partition(settings), preservesPartitioning=True)
               .persist(StorageLevel.MEMORY_AND_DISK))
    errors_dir = args.errors or args.output.rstrip("/") + "/_errors"
    if args.overwrite:
        hadoop_delete(sc, args.output)
        if args.errors:
            hadoop_delete(sc, args.errors)
    try:
        results.filter(lambda x: isinstance(x, str)).saveAsTextFile(args.output)
        results.filter(lambda x: isinstance(x, tuple) and x[0] == "e").map(lambda x: x[1]) \
            .saveAsTextFile(errors_dir)
        if found["geofences"]:
            results.filter(lambda x: isinstance(x, tuple) and x[0] == "g").map(lambda x: x[1]) \
                .saveAsTextFile(args.output.rstrip("/") + "/_geofence_events")
        per_partition = results.filter(lambda x: isinstance(x, tuple) and x[0] == "s").map(lambda x: x[2])
        per_partition.saveAsTextFile(args.output.rstrip("/") + "/_stats")
        parts = [json.loads(s) for s in per_partition.collect()]
    finally:
        results.unpersist()
    stats = sum_stats(parts)
    stats["partitions"] = partitions
    stats["partitions_run"] = len(parts)
    stats["elapsed_s"] = round(time.monotonic() - started, 3)
    if not reconcile(stats):
        raise RuntimeError("the summed statistics do not reconcile: %r" % stats)
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump(stats, f, separators=(",", ":"))
            f.write("\n")
    return stats


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    prepare(args)  # before the JVM starts: a usage error costs no Spark start-up
    sc, owned = spark_context(args)
    try:
        stats = run(sc, args)
    finally:
        if owned:
            sc.stop()
    print("geo_enrich_spark: %d lines, %d events (%d enriched), %d fixes (%d accepted), %d errors, "
          "%d partitions, %.1f s" % (stats.get("lines", 0), stats.get("events", 0), stats.get("events_enriched", 0),
                                     stats.get("fixes", 0), stats.get("fixes_accepted", 0), stats.get("errors", 0),
                                     stats["partitions"], stats["elapsed_s"]), file=sys.stderr)
    undelivered = stats.get("push_failed", 0) + stats.get("geofence_webhook", {}).get("failed", 0)
    return 3 if undelivered else 0


if __name__ == "__main__":
    sys.exit(main())
