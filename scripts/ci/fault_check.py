#!/usr/bin/env python3
"""Faults during a run of the CLI, each of which once crashed it, lost output or did damage:
every case runs `geo-enrich` and checks the exit status, the message, and that no byte of
output or input was lost.

- extreme timestamps (-9223372036854775807, -1e19, 1e300, year 10000), in every format: once a
  SIGILL with nothing written; now a fix is `bad_timestamp` and an event passes without `geo` (as
  the peer passes it), the records around them enriched;
- one session's clock years ahead among many sessions: its record no longer makes the others'
  state look stale (their events keep `geo`);
- standard error full (`2>/dev/full`) or closed (`2>&-`) in `enrich`, `lookup` and `h3`: once a
  SIGILL; now the output complete and exit status 74 (a message was lost);
- a regular file on standard input read from its offset (`{ read -r header; geo-enrich enrich; } < f`);
- an input truncated while it is read (copy-and-truncate rotation): once SIGBUS and a torn line;
  now a message naming the file, the statistics written, `bytes` the end of the last line kept;
  a data file truncated in place: a message and exit status 74, not a silent SIGBUS;
- `bytes` after `--max-errors` is where the next line starts (a resume offset);
- a `--stats` path that cannot be written is refused before the run;
- a second SIGINT while the output is blocked ends the run at once; a SIGINT during the push's
  final wait ends the wait, writes the dead letters and says so in the statistics;
- the push keeps one dead letter per session, its newest location;
- `lookup` refuses `0x10` and a NUL byte; `h3 disk --k -1` and `h3 children` of a coarser
  resolution say what is wrong; a data file longer than its header says is not "truncated".

usage: fault_check.py --bin BIN [--data DIR]
"""
import argparse
import http.server
import json
import os
import select
import shutil
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

from geoenrich_tools.checks import Checks

T0 = 1764237600000


def fix(sid, t, lat=49.888171, lng=-97.131112):
    return json.dumps({"type": "location", "session_id": sid, "timestamp": t, "latitude": lat, "longitude": lng})


def event(sid, t):
    return json.dumps({"type": "track", "session_id": sid, "timestamp": t})


def finish(proc, data=None, timeout=30):
    """Waits for `proc` (sending `data` to its standard input): its exit status (None when it had
    to be killed after `timeout` seconds), standard output and standard error."""
    try:
        out, err = proc.communicate(data, timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return None, out, err


def jsonl(data):
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "data"))
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    data = os.path.abspath(args.data)
    c = Checks()
    env = dict(os.environ)
    env.pop("GEO_ENRICH_API_KEY", None)

    def run(argv, stdin=subprocess.DEVNULL, cwd=None, timeout=120, **kw):
        return subprocess.run([binary, *argv], stdin=stdin, capture_output=True, cwd=cwd, env=env,
                              timeout=timeout, **kw)

    with tempfile.TemporaryDirectory() as tmp:
        path = lambda name: os.path.join(tmp, name)

        def write(name, lines):
            with open(path(name), "w") as f:
                f.write("\n".join(lines) + "\n")
            return path(name)

        # 1. extreme timestamps, every format: bad_timestamp, never a trap
        extremes = ["-9223372036854775807", "-9223372036854775808", "9223372036854775807", "-1e19", "1e19",
                    "1e300", '"10000-01-01T00:00:00Z"', "253402300800000", "-62135596800001"]
        shapes = {
            "canonical": (lambda sid, ts: '{"type":"location","session_id":"%s","timestamp":%s,"latitude":49.9,"longitude":-97.1}' % (sid, ts),
                          lambda sid, ts: '{"type":"track","session_id":"%s","timestamp":%s}' % (sid, ts)),
            "mobiletracker": (lambda sid, ts: '{"latitude":49.9,"longitude":-97.1,"session_id":"%s","timestamp":%s}' % (sid, ts),
                              lambda sid, ts: '{"brand_id":"b","session_id":"%s","event_name":"e","data":{},"timestamp":%s}' % (sid, ts)),
            "datacloud": (lambda sid, ts: '{"latitude":49.9,"longitude":-97.1,"expiresIn":60,"session_id":"%s","timestamp":%s}' % (sid, ts),
                          lambda sid, ts: '{"event_name":"e","session_id":"%s","timestamp":%s}' % (sid, ts)),
            "eqworks": (lambda sid, ts: '{"cmd":"logEvent","userId":"%s","timestamp":%s,"name":"location_update","location":{"longitude":-97.1,"latitude":49.9}}' % (sid, ts),
                        lambda sid, ts: '{"cmd":"logEvent","userId":"%s","timestamp":%s,"name":"e","properties":{}}' % (sid, ts)),
        }
        for fmt, (mkfix, mkevent) in shapes.items():
            lines = []
            for ts in extremes:
                lines += [mkfix("x", ts), mkevent("x", ts)]
            # after them, the same session works normally: a fix, and an event that gets its location
            lines += [mkfix("x", T0), mkevent("x", T0 + 1000)]
            src = write(f"extreme-{fmt}.ndjson", lines)
            p = run(["enrich", src, "--format", fmt, "-o", path("out"), "--errors", path("err"),
                     "--stats", path("stats"), "--quiet"])
            ok = p.returncode == 0 and os.path.exists(path("stats"))
            stats = json.load(open(path("stats"))) if ok else {}
            errs = jsonl(open(path("err"), "rb").read()) if ok else []
            out = open(path("out")).read() if ok else ""
            # a fix outside years 1-9999 is bad_timestamp; an event passes through without geo,
            # as the peer passes it (a string out of range is bad_timestamp there too)
            c.expect(ok and stats.get("errors") == len(extremes) + 1
                     and all(e["reason"] == "bad_timestamp" for e in errs)
                     and stats.get("fixes_accepted") == 1 and stats.get("events_enriched") == 1
                     and stats.get("events") == len(extremes) and len(out.splitlines()) == len(extremes) + 1,
                     f"extreme timestamps, {fmt}: fixes bad_timestamp, events unenriched, the records after them enriched",
                     f"exit {p.returncode}, stderr {p.stderr[-300:]!r}, stats {stats}")
        # the range's own ends are fine
        src = write("edges.ndjson", [fix("e", -62135596800000), event("e", -62135596799000),
                                     fix("f", 253402300799999), event("f", 253402300799999)])
        p = run(["enrich", src, "-o", path("out"), "--stats", path("stats"), "--quiet"])
        stats = json.load(open(path("stats"))) if p.returncode == 0 else {}
        out = open(path("out")).read() if p.returncode == 0 else ""
        c.expect(stats.get("errors") == 0 and stats.get("events_enriched") == 2
                 # year 1 as the peer writes it: Python's strftime("%Y") on glibc does not pad
                 and '"fix_timestamp":"1-01-01T00:00:00.000Z"' in out
                 and '"fix_timestamp":"9999-12-31T23:59:59.999Z"' in out,
                 "timestamps at the ends of years 1 and 9999 are taken", f"exit {p.returncode} {stats}")

        # 12. one session's clock years ahead among many: the others' events keep geo
        # (more sessions than a table holds before it evicts at all, 65,536, in each of the 4
        # partitions of one worker)
        n = 300_000
        lines = [fix(f"s{i}", T0 + i // 300, 49.0 + (i % 1000) * 0.001) for i in range(n)]
        lines.append(fix("future", T0 + 10 * 365 * 86400 * 1000))
        # every event within its session's expiry; stream time moves over 50 s, so sweeps run
        lines += [event(f"s{i}", T0 + 5000 + i // 6) for i in range(n)]
        src = write("future.ndjson", lines)
        p = run(["enrich", src, "-o", "/dev/null", "--stats", path("stats"), "--quiet", "--workers", "1"])
        stats = json.load(open(path("stats"))) if p.returncode == 0 else {}
        c.expect(stats.get("events_enriched") == n, "a far-future record does not evict the other sessions",
                 f"exit {p.returncode} {p.stderr[-300:]!r} {stats}")

        # 8. standard error full or closed
        # (no bad line: its report would go to standard error, an output whose failure is exit 1)
        src = write("small.ndjson", [fix("a", T0), event("a", T0 + 1000), event("a", T0 + 2000)])
        for name, extra in [("2>/dev/full", {"stderr": open("/dev/full", "w")}), ("2>&-", {"stderr": None})]:
            if extra["stderr"] is None:
                p = subprocess.run(f'"{binary}" enrich "{src}" -o "{path("o8")}" 2>&-', shell=True, env=env, timeout=60)
            else:
                p = subprocess.run([binary, "enrich", src, "-o", path("o8")], env=env, timeout=60, **extra)
            lines_out = open(path("o8")).read().splitlines() if os.path.exists(path("o8")) else []
            c.expect(p.returncode == 74 and len(lines_out) == 3, f"enrich {name}: output complete, exit 74",
                     f"exit {p.returncode}, {len(lines_out)} lines")
            os.remove(path("o8"))
        for tool, stdin_text in [(["lookup"], "nonsense\n49.9 -97.1\n"), (["h3", "cell"], "x\n49.9 -97.1 9\n")]:
            p = subprocess.run(f'"{binary}" {" ".join(tool)} 2>/dev/full', shell=True, env=env, timeout=60,
                               input=stdin_text.encode(), capture_output=True)
            c.expect(p.returncode == 1 and len(p.stdout.splitlines()) == 2 and -p.returncode not in (4, 5, 6, 11),
                     f"{' '.join(tool)} 2>/dev/full: both answers written, exit 1 (a line had none)",
                     f"exit {p.returncode}, stdout {p.stdout!r}")

        src = write("small-bad.ndjson", [fix("a", T0), "not json", event("a", T0 + 2000)])
        p = subprocess.run([binary, "enrich", src, "-o", path("o8")], env=env, timeout=60, stderr=open("/dev/full", "w"))
        c.expect(p.returncode == 1 and len(open(path("o8")).read().splitlines()) == 2,
                 "enrich 2>/dev/full with a bad line: its report cannot be written, exit 1, the output complete",
                 f"exit {p.returncode}")

        # 9. a regular file on standard input is read from its offset
        src = write("offset.ndjson", ["header line, not a record", fix("a", T0), event("a", T0 + 1000)])
        p = subprocess.run(f'{{ read -r header; "{binary}" enrich --quiet --stats "{path("s9")}" -o "{path("o9")}"; }} < "{src}"',
                           shell=True, env=env, timeout=60, capture_output=True)
        stats = json.load(open(path("s9"))) if p.returncode == 0 else {}
        c.expect(stats.get("lines") == 2 and stats.get("errors") == 0,
                 "standard input read from its offset: the header read before is not read again",
                 f"exit {p.returncode} {p.stderr!r} {stats}")
        p = subprocess.run(f'"{binary}" enrich --quiet --stats "{path("s9")}" -o "{path("o9")}" - - < "{src}"',
                           shell=True, env=env, timeout=60, capture_output=True)
        stats = json.load(open(path("s9"))) if p.returncode == 0 else {}
        c.expect(stats.get("lines") == 3, "`enrich - -` reads standard input once", f"{stats}")

        # 4. an input truncated while it is read
        big = path("big.ndjson")
        with open(big, "w") as f:
            for i in range(800_000):
                f.write(fix(f"s{i % 5000}", T0 + i * 10, 49.0 + (i % 997) * 0.001) + "\n")
        size = os.path.getsize(big)
        proc = subprocess.Popen([binary, "enrich", big, "-o", path("o4"), "--stats", path("s4"), "--batch-size", "64",
                                 "--workers", "1"], stderr=subprocess.PIPE, env=env)
        # cut it once the run is under way: its first output has appeared
        deadline = time.time() + 30
        while proc.poll() is None and time.time() < deadline:
            if os.path.exists(path("o4")) and os.path.getsize(path("o4")) > 0:
                break
            time.sleep(0.001)
        cut_to = size // 10
        os.truncate(big, cut_to)
        _, err = proc.communicate(timeout=120)
        err = err.decode("utf-8", "replace")
        stats = json.load(open(path("s4"))) if os.path.exists(path("s4")) else {}
        out = open(path("o4"), "rb").read()
        if proc.returncode == 0 and "shrank" not in err and stats.get("lines") == 800_000:
            print("note: the run finished before the truncation (a fast machine); the case is not shown")
        else:
            c.expect(proc.returncode == 1 and "big.ndjson" in err and stats.get("stopped_early") is True
                     and out.endswith(b"\n") and stats.get("lines") == out.count(b"\n")
                     and stats.get("bytes", 0) >= cut_to - 300,
                     "an input truncated while read: a message, whole lines, statistics, exit 1",
                     f"exit {proc.returncode} {err[-400:]!r} {stats}")

        # 11. bytes after --max-errors: where the line after the last counted one starts
        lines = [fix("a", T0), "bad one", event("a", T0 + 1000), "bad two", event("a", T0 + 2000)]
        src = write("maxerr.ndjson", lines)
        p = run(["enrich", src, "--max-errors", "2", "-o", "/dev/null", "--errors", "/dev/null",
                 "--stats", path("s11"), "--quiet"])
        stats = json.load(open(path("s11")))
        expected = len(("\n".join(lines[:4]) + "\n").encode())
        c.expect(p.returncode == 1 and stats.get("bytes") == expected,
                 "bytes after --max-errors is the offset of the next line", f"{stats.get('bytes')} != {expected}")

        # 11. an unusable --stats path is refused before the run, and before -o is truncated
        with open(path("o11"), "w") as f:
            f.write("kept\n")
        p = run(["enrich", src, "-o", path("o11"), "--stats", path("no/such/dir/stats"), "--quiet"])
        c.expect(p.returncode != 0 and open(path("o11")).read() == "kept\n",
                 "an unusable --stats path is refused before -o is opened",
                 f"exit {p.returncode}, {p.stderr!r}, -o holds {open(path('o11')).read()!r}")

        # 10. a second SIGINT while the output is blocked ends the run at once
        with open(big, "w") as f:
            for i in range(200_000):
                f.write(fix(f"s{i % 5000}", T0 + i * 10, 49.0 + (i % 997) * 0.001) + "\n")
        r, w = os.pipe()  # nobody reads r: the output blocks
        proc = subprocess.Popen([binary, "enrich", big, "--quiet"], stdout=w, stderr=subprocess.PIPE, env=env)
        os.close(w)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
        first_alive = proc.poll() is None
        proc.send_signal(signal.SIGINT)
        rc, _, err = finish(proc, timeout=5)
        os.close(r)
        c.expect(first_alive and rc == 130 and b"second signal" in err,
                 "a second SIGINT with the output blocked ends the run at once (exit 130)",
                 f"alive after the first: {first_alive}, exit {rc}, {err[-200:]!r}")

        # 10. a SIGINT during the push's final wait ends it; 11. one dead letter per session
        class Busy(http.server.BaseHTTPRequestHandler):
            def do_PUT(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass

        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Busy)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
        src = write("push.ndjson", [fix("a", T0), fix("a", T0 + 70_000, 50.5), fix("b", T0, 43.6, -79.4)])
        push_env = dict(env, GEO_ENRICH_API_KEY="k-secret-123")
        proc = subprocess.Popen([binary, "enrich", src, "-o", "/dev/null", "--stats", path("s10"), "--quiet",
                                 "--push-url", f"http://127.0.0.1:{port}", "--push-dead-letter", path("dead"),
                                 "--push-drain-timeout", "60"], env=push_env, stderr=subprocess.PIPE)
        time.sleep(2.0)
        started = time.time()
        proc.send_signal(signal.SIGINT)
        rc, _, err = finish(proc, timeout=10)
        took = time.time() - started
        server.shutdown()
        stats = json.load(open(path("s10"))) if os.path.exists(path("s10")) else {}
        letters = jsonl(open(path("dead"), "rb").read()) if os.path.exists(path("dead")) else []
        sessions = sorted(l.get("session_id") for l in letters)
        newest_a = [l for l in letters if l.get("session_id") == "a"]
        c.expect(rc == 3 and took < 5 and stats.get("push_drain_interrupted") is True and sessions == ["a", "b"]
                 and newest_a and '50.5' in json.dumps(newest_a[0])
                 and stats.get("push_failed") == 2
                 and stats.get("fixes_accepted") == stats.get("pushed", 0) + stats.get("coalesced", 0) + stats.get("push_failed", 0)
                 and b"k-secret-123" not in err and b"k-secret-123" not in open(path("dead"), "rb").read(),
                 "SIGINT in the push's final wait: ends it, one dead letter per session (the newest), exit 3",
                 f"exit {rc} after {took:.1f} s, stats {stats}, letters {letters}")

        # 11. lookup and h3 inputs and options
        p = run(["lookup"], input=b"0x10 20\n49.9 -97.1\x00\n49.9 -97.1\n", stdin=None)
        answers = p.stdout.decode().splitlines()
        c.expect(p.returncode == 1 and len(answers) == 3 and '"error"' in answers[0] and '"error"' in answers[1]
                 and '"country":"CA"' in answers[2], "lookup refuses 0x10 and a NUL byte", f"{answers}")
        p = run(["h3", "disk", "--k", "-1"], input=b"", stdin=None)
        c.expect(p.returncode == 64 and b"must be 0 or more" in p.stderr, "h3 disk --k -1: must be 0 or more",
                 f"exit {p.returncode} {p.stderr!r}")
        # (issue 22) a negative number on any numeric option says what is wrong, not "Missing value"
        for argv in [["enrich", o, "-1"] for o in ("--distance-filter", "--expiry", "--h3-resolution",
                                                   "--postal-max-distance", "--max-accuracy", "--evict-after",
                                                   "--max-errors", "--workers", "--batch-size",
                                                   "--push-drain-timeout", "--push-max-in-flight",
                                                   "--push-retry-time", "--push-timeout")] \
                    + [["lookup", "--postal-max-distance", "-1"], ["h3", "parent", "--resolution", "-1"]]:
            p = run(argv, input=b"", stdin=None)
            c.expect(p.returncode == 64 and b"Missing value" not in p.stderr and argv[-2].encode() in p.stderr,
                     f"{' '.join(argv)}: refused with the reason", f"exit {p.returncode} {p.stderr[:200]!r}")
        p = run(["h3", "children", "--resolution", "3"], input=b"85283473fffffff\n", stdin=None)
        c.expect(p.returncode == 1 and b"coarser than the cell" in p.stdout, "h3 children of a coarser resolution",
                 f"{p.stdout!r}")

        # 11. a data file longer than its header says
        shutil.copytree(data, path("data"))
        with open(path("data/countries.bin"), "ab") as f:
            f.write(b"\0" * 8)
        p = run(["lookup", "--data", path("data")], input=b"49.9 -97.1\n", stdin=None)
        c.expect(p.returncode != 0 and b"longer than its header says" in p.stderr and b"truncated" not in p.stderr,
                 "a data file with bytes appended is called longer, not truncated", f"{p.stderr!r}")

        # (issue 22) gzip inputs are decompressed; a binary file is named as such
        import gzip
        plain = write("plain.ndjson", [fix("a", T0), event("a", T0 + 1000), fix("b", T0, 43.6, -79.4)])
        body = open(plain, "rb").read()
        with open(path("one.gz"), "wb") as f:
            f.write(gzip.compress(body))
        with open(path("two.gz"), "wb") as f:
            f.write(gzip.compress(body) + gzip.compress(body))   # two members, one stream
        reference = run(["enrich", plain, "--quiet"]).stdout
        p1 = run(["enrich", path("one.gz"), "--quiet"])
        p2 = subprocess.run(f'cat "{path("one.gz")}" | "{binary}" enrich --quiet', shell=True, env=env,
                            capture_output=True, timeout=60)
        p3 = run(["enrich", path("two.gz"), "--quiet", "--stats", path("sgz")])
        c.expect(p1.returncode == 0 and p1.stdout == reference and p2.stdout == reference
                 and json.load(open(path("sgz")))["lines"] == 6,
                 "a gzip input (a file, a pipe, two members) reads as its text", f"{p1.returncode} {p1.stderr!r}")
        with open(path("cut.gz"), "wb") as f:
            f.write(gzip.compress(body * 50)[:-30])
        p = run(["enrich", path("cut.gz"), "--quiet", "-o", "/dev/null"])
        c.expect(p.returncode == 1 and b"cut.gz" in p.stderr and b"gzip" in p.stderr,
                 "gzip data cut short: a message naming the file, exit 1", f"{p.returncode} {p.stderr!r}")
        with open(path("image.png"), "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200))
        p = run(["enrich", path("image.png"), "--quiet", "-o", path("png.out")])
        c.expect(p.returncode == 1 and b"binary file" in p.stderr and os.path.getsize(path("png.out")) == 0,
                 "a binary input is named as such, no line reported", f"{p.returncode} {p.stderr!r}")

        # 4. a data file truncated in place while a run reads it: a message and exit 74
        shutil.copy(os.path.join(data, "countries.bin"), path("data/countries.bin"))
        proc = subprocess.Popen([binary, "lookup", "--data", path("data")], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        proc.stdin.write(b"49.9 -97.1\n")
        proc.stdin.flush()
        # the answer comes before more input is read (the line tools flush before each read)
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        first = proc.stdout.readline() if ready else b""
        os.truncate(path("data/countries.bin"), 0)
        rc, _, err = finish(proc, b"43.65 -79.38\n-33.9 18.4\n", timeout=30)
        c.expect(b'"country":"CA"' in first and rc == 74 and b"changed under the run" in err,
                 "a data file truncated in place during a run: a message and exit 74, not a silent SIGBUS",
                 f"first {first!r}, exit {rc}, {err[-300:]!r}")

    print(f"fault_check: {c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
