#!/usr/bin/env python3
"""Differential check of `geo-enrich enrich` against the peer (../shared/bench/peer_enrich.py).

The input is a gen_stream.py stream (N lines, fresh seed unless --seed, printed) with the corpus
of broken_lines.py (same seed; every reason code, 1 MiB lines, CRLF, blank lines, consent
changes, also for some of the stream's own sessions) spliced in at random places, its order
kept; the last line has no line feed. Both programs run on it under a few configurations:
  default     ours: INPUT as a file argument, output on stdout
  filter      ours: --distance-filter 50 --expiry 30 on stdin, --output FILE
              peer: --distance-m 50 --expiry-ms 30000
  res-postal  ours: --h3-resolution 9 --postal-max-distance 5000
              peer: --res 9 --max-postal-m 5000
(--consent-not-set has no peer equivalent and is not checked.) Per configuration:
  run      both exit 0
  lines    the same number of output lines, each ending in a line feed, and more than none
  records  line by line: byte-identical, or else the record bytes before the appended
           `,"geo":{...}` are identical and the geo objects are equal as JSON values, except
           that postal_distance_m may differ by 0.5 % (at least 0.1 m, the output resolution);
           postalcode/fsa may then differ only for a tie: our code must be a candidate centroid
           (smallest code of its centroid, not H0H 0H0) whose geodesic distance from the point
           is within that tolerance of the peer's distance; and one side may lack postal fields
           only when the other's distance is within 0.5 % of the configured maximum.
           Lines that are equivalent but not identical are shown, and pass unless --strict
           (the test command runs it with --strict: the README promises byte-identical output).
  errors   the error lines are byte-identical, and there are some (the corpus has bad lines)
  stats    the rule-10 keys (lines, events, events_enriched, fixes, fixes_accepted,
           fixes_rejected.{distance,stale,accuracy,consent}, errors) are present on both sides
           and equal, and lines is not 0; other keys
           (elapsed_s, push counters) are ignored; ours add up (rule 10) and match the line counts.
Mismatches are reported with the corpus case they come from (first 10 in full). Prints one line
per check and `N passed, M failed`; exits 1 on any failure.

usage: PYTHONPATH=scripts python3 scripts/ci/enrich_diffcheck.py --bin PATH/geo-enrich [--peer ../shared/bench/peer_enrich.py]
                           [--lines N] [--seed K] [--keep DIR] [--configs default,filter,res-postal]
                           [--sessions S] [--no-exotic] [--strict] [--data DIR]
The peer takes about 48 s per million lines and each configuration runs it once.
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

from geoenrich_tools import broken_lines
from geoenrich_tools.paths import PEER

CONFIGS = {  # name: (our options, the peer's options, how ours reads and writes, postal maximum)
    "default": ([], [], "file", 20000.0),
    "filter": (["--distance-filter", "50", "--expiry", "30"], ["--distance-m", "50", "--expiry-ms", "30000"],
               "stdin", 20000.0),
    "res-postal": (["--h3-resolution", "9", "--postal-max-distance", "5000"],
                   ["--res", "9", "--max-postal-m", "5000"], "file", 5000.0),
}
TOL = 0.005
MIN_TOL_M = 0.1
POSTAL = ("postalcode", "fsa", "postal_distance_m")
REJECTS = ("distance", "stale", "accuracy", "consent")
COUNTS = ("lines", "events", "events_enriched", "fixes", "fixes_accepted", "errors")
GEO = b',"geo":{'
NL = b"\n"


def show(b, limit=2000):
    """A line for the report: whole unless longer than `limit` bytes."""
    if len(b) > limit:
        b = b[:limit // 2] + f" ...[{len(b)} bytes]... ".encode() + b[-limit // 2:]
    return b.decode("utf-8", "backslashreplace")


def split_geo(line):
    """(record bytes, geo object bytes or None): the peer appends `,"geo":{...}` last."""
    i = line.rfind(GEO)
    if i < 0 or not line.endswith(b"}}"):
        return line, None
    return line[:i], line[i + len(GEO) - 1:-1]


def same(a, b):
    """Equal as JSON values: numbers by value (45 == 45.0), booleans only with booleans."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


class Postal:
    """The peer's candidate centroids, for checking a tie: code -> (lat, lon)."""

    def __init__(self, data):
        self.data = data
        self.codes = None

    def distance(self, code, lat, lon):
        if self.codes is None:
            from pyproj import Geod
            self.geod = Geod(ellps="WGS84")
            rows = sqlite3.connect(os.path.join(self.data, "postalcodes.db")).execute(
                "select min(code), latitude, longitude from PostalCodes where code != 'H0H 0H0' "
                "group by latitude, longitude").fetchall()
            self.codes = {c: (la, lo) for c, la, lo in rows}
        if code not in self.codes:
            return None
        la, lo = self.codes[code]
        return self.geod.inv(lon, lat, lo, la)[2]


def geo_diff(pg, og, max_m, postal):
    """None when our geo object is acceptable, else what is wrong with it."""
    if not isinstance(pg, dict) or not isinstance(og, dict):
        return "geo is not an object"
    for k in sorted(set(pg) | set(og)):
        if k in POSTAL:
            continue
        if k not in pg or k not in og:
            return f"geo.{k} only in {'the peer' if k in pg else 'ours'}"
        if not same(pg[k], og[k]):
            return f"geo.{k}: peer {pg[k]!r}, ours {og[k]!r}"
    for side, g in (("peer", pg), ("ours", og)):
        n = sum(k in g for k in POSTAL)
        if n not in (0, 3):
            return f"{side}: postal fields incomplete"
    if "postalcode" not in pg and "postalcode" not in og:
        return None
    if "postalcode" not in pg or "postalcode" not in og:
        d = (pg if "postalcode" in pg else og)["postal_distance_m"]
        if isinstance(d, (int, float)) and d >= max_m * (1 - TOL):
            return None
        return f"postal code only in {'the peer' if 'postalcode' in pg else 'ours'} ({d} m)"
    pd, od = pg["postal_distance_m"], og["postal_distance_m"]
    if isinstance(od, bool) or not isinstance(od, (int, float)):
        return f"ours: postal_distance_m {od!r}"
    tol = max(TOL * pd, MIN_TOL_M) + 1e-9
    if abs(pd - od) > tol:
        return f"postal_distance_m: peer {pd}, ours {od}"
    if og["fsa"] != og["postalcode"][:3]:
        return f"ours: fsa {og['fsa']!r} for {og['postalcode']!r}"
    if pg["postalcode"] != og["postalcode"]:
        d = postal.distance(og["postalcode"], og["latitude"], og["longitude"])
        if d is None:
            return f"postalcode: peer {pg['postalcode']}, ours {og['postalcode']} (not a candidate centroid)"
        if abs(d - od) > tol:
            return (f"postalcode: peer {pg['postalcode']} at {pd} m, ours {og['postalcode']} "
                    f"said {od} m but is {d:.1f} m away")
    elif pg["fsa"] != og["fsa"]:
        return f"fsa: peer {pg['fsa']!r}, ours {og['fsa']!r}"
    return None


def compare_line(p, o, max_m, postal):
    """None when equivalent, else what differs."""
    pr, pg = split_geo(p)
    orec, og = split_geo(o)
    if (pg is None) != (og is None):
        return "geo in the peer's line only" if og is None else "geo in our line only"
    if pr != orec:
        return "record bytes differ"
    if pg is None:
        return "lines differ"
    try:
        pgj, ogj = json.loads(pg), json.loads(og)
    except ValueError:
        return "geo is not JSON"
    return geo_diff(pgj, ogj, max_m, postal)


class Report:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, cfg, name, ok, text):
        print(f"{'ok  ' if ok else 'FAIL'} [{cfg}] {name}: {text}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def build_input(a, seed, work):
    """gen_stream.py output with the broken-lines corpus spliced in; returns (path, labels)."""
    gen = subprocess.run([a.python, a.gen, str(a.lines), "--seed", str(seed), "--sessions", str(a.sessions)],
                         stdout=subprocess.PIPE, check=True).stdout
    stream = gen.splitlines(keepends=True)
    corpus = broken_lines.corpus(seed, exotic=not a.no_exotic, stream_sessions=a.sessions)
    rng = random.Random(seed)
    at = sorted(rng.randrange(len(stream) + 1) for _ in corpus)
    path = os.path.join(work, "input.ndjson")
    labels = {}       # input line number -> corpus line
    by_record = {}    # record bytes as the peer writes them -> corpus line
    n = 0
    with open(path, "wb") as f:
        chunks = []
        j = 0
        for i in range(len(stream) + 1):
            while j < len(corpus) and at[j] == i:
                ln = corpus[j]
                chunks.append(ln.raw + ln.end)
                n += 1
                labels[n] = ln
                raw = ln.peer_raw()
                by_record[raw] = ln
                if raw.strip():
                    by_record[raw.rstrip()[:-1]] = ln
                j += 1
            if i < len(stream):
                chunks.append(stream[i])
                n += 1
        data = b"".join(chunks)
        if data.endswith(b"\n"):
            data = data[:-1]          # the last line ends without a line feed
        f.write(data)
    with open(os.path.join(work, "corpus_lines.tsv"), "w") as f:
        for k, ln in labels.items():
            f.write(f"{k}\t{ln.expect}\t{ln.label}\n")
    return path, labels, by_record, n, len(corpus)


def run_config(a, name, inp, work, rep, labels, by_record, postal):
    ours_opts, peer_opts, mode, max_m = CONFIGS[name]
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    f = {k: os.path.join(d, k) for k in ("peer.out", "peer.err", "peer.stats.json",
                                          "ours.out", "ours.err", "ours.stats.json")}
    peer_cmd = [a.python, a.peer, *peer_opts, "--errors", f["peer.err"], "--stats", f["peer.stats.json"]]
    if a.data:
        peer_cmd += ["--data", a.data]
    ours_cmd = [a.bin, "enrich", *ours_opts, "--errors", f["ours.err"], "--stats", f["ours.stats.json"]]
    if mode == "file":
        ours_cmd.append(inp)
    else:
        ours_cmd += ["--output", f["ours.out"]]
    with open(os.path.join(d, "commands.txt"), "w") as c:
        c.write(" ".join(peer_cmd) + f" < {inp} > {f['peer.out']}\n")
        c.write(" ".join(ours_cmd) + (f" > {f['ours.out']}\n" if mode == "file" else f" < {inp}\n"))

    t = time.monotonic()
    with open(inp, "rb") as i, open(f["peer.out"], "wb") as o:
        peer = subprocess.run(peer_cmd, stdin=i, stdout=o, stderr=subprocess.PIPE)
    tp = time.monotonic() - t
    t = time.monotonic()
    if mode == "file":
        with open(f["ours.out"], "wb") as o:
            ours = subprocess.run(ours_cmd, stdin=subprocess.DEVNULL, stdout=o, stderr=subprocess.PIPE)
    else:
        with open(inp, "rb") as i:
            ours = subprocess.run(ours_cmd, stdin=i, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if ours.stdout:
            print(f"     [{name}] ours wrote {len(ours.stdout)} bytes on stdout despite --output")
    to = time.monotonic() - t
    ok = peer.returncode == 0 and ours.returncode == 0
    text = f"peer {tp:.1f} s (exit {peer.returncode}), ours {to:.1f} s (exit {ours.returncode})"
    for who, p in (("peer", peer), ("ours", ours)):
        if p.returncode != 0:
            text += f"\n     {who} stderr: {show(p.stderr[-1500:])}"
    rep.check(name, "run", ok, text)
    if peer.returncode != 0:
        rep.check(name, "compare", False, "skipped: the peer failed")
        return

    # lines and records, streamed
    bad, equiv, ident, shown_equiv = 0, 0, 0, 0
    first = []
    kinds = {}
    np_ = no = 0
    o_nl = True
    ours_out = f["ours.out"] if os.path.exists(f["ours.out"]) else os.devnull
    with open(f["peer.out"], "rb") as pf, open(ours_out, "rb") as of:
        while True:
            p, o = pf.readline(), of.readline()   # b"" only at the end of the file
            if not p and not o:
                break
            np_ += bool(p)
            no += bool(o)
            if o:
                o_nl = o.endswith(b"\n")
            p, o = p[:-1] if p.endswith(b"\n") else p, o[:-1] if o.endswith(b"\n") else o
            if np_ != no:
                bad += 1
                why = "missing in ours" if np_ > no else "extra in ours"
                kinds[why] = kinds.get(why, 0) + 1
                if len(first) < 10 and kinds[why] <= 3:
                    first.append((max(np_, no), why, p, o))
                continue
            if p == o:
                ident += 1
                continue
            why = compare_line(p, o, max_m, postal)
            if why is None:
                equiv += 1
                if shown_equiv < 5:
                    shown_equiv += 1
                    print(f"     [{name}] equivalent, not identical, output line {np_}"
                          f"{where(p, by_record)}:\n       peer {show(p)}\n       ours {show(o)}")
                continue
            bad += 1
            k = why.split(":")[0]
            kinds[k] = kinds.get(k, 0) + 1
            if len(first) < 10:
                first.append((np_, why, p, o))
    # an empty run proves nothing: no output on both sides is a failure, not agreement
    ok = np_ == no and o_nl and np_ > 0
    rep.check(name, "lines", ok, f"peer {np_}, ours {no}" + ("" if o_nl else "; our last line has no line feed")
              + ("" if np_ else "; no output lines: nothing was compared"))
    ok = bad == 0 and (equiv == 0 or not a.strict) and ident + equiv > 0
    text = f"{ident} identical, {equiv} equivalent, {bad} mismatches"
    if a.strict and equiv:
        text += " (--strict: equivalent lines fail)"
    if kinds:
        text += " (" + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items(), key=lambda x: -x[1])) + ")"
    if np_ != no and first:
        text += (f"; the comparison is by position, so with {abs(np_ - no)} line(s) "
                 f"{'missing' if np_ > no else 'extra'} the mismatches from output line {first[0][0]} on "
                 "may follow from the first")
    rep.check(name, "records", ok, text)
    for n, why, p, o in first:
        print(f"     output line {n}{where(p or o, by_record)}: {why}\n       peer {show(p)}\n       ours {show(o)}")

    # error lines
    pe = open(f["peer.err"], "rb").read()
    oe = open(f["ours.err"], "rb").read() if os.path.exists(f["ours.err"]) else b""
    if pe == oe and pe.count(NL) == 0:
        # the input always holds the corpus's bad lines: no report on either side is a failure
        rep.check(name, "errors", False, "no error lines on either side, but the input has bad lines")
    elif pe == oe:
        rep.check(name, "errors", True, f"{pe.count(NL)} lines byte-identical")
    else:
        plines, olines = pe.split(b"\n"), oe.split(b"\n")
        pmap = {json.loads(x)["line"]: x for x in plines if x}
        omap, unparsed = {}, []
        for x in olines:
            if not x:
                continue
            try:
                omap.setdefault(json.loads(x)["line"], x)
            except (ValueError, KeyError, TypeError):
                unparsed.append(x)
        diffs = []
        for n in sorted(set(pmap) | set(omap)):
            if pmap.get(n) != omap.get(n):
                diffs.append(n)
        text = (f"peer {len(pmap)} lines, ours {len([x for x in olines if x])}; "
                f"{len(diffs)} input lines differ")
        if not diffs and not unparsed:
            text += "; the same lines, but the files differ (order, blank lines or final line feed)"
        if unparsed:
            text += f"; {len(unparsed)} of ours are not JSON with a line number"
        rep.check(name, "errors", False, text)
        for n in diffs[:10]:
            ln = labels.get(n)
            tag = f" (corpus: {ln.label}, expected {ln.expect})" if ln else " (a gen_stream line)"
            print(f"     input line {n}{tag}\n       peer {show(pmap.get(n, b'-'))}\n"
                  f"       ours {show(omap.get(n, b'-'))}")
        for x in unparsed[:3]:
            print(f"     ours, not JSON: {show(x)}")

    # statistics
    try:
        ps = json.load(open(f["peer.stats.json"]))
        os_ = json.load(open(f["ours.stats.json"]))
    except (OSError, ValueError) as e:
        rep.check(name, "stats", False, f"cannot read the statistics: {e}")
        return
    problems = []

    def missing(k, p, o, label=None):
        """A key absent on either side is a failure (absent on both is not agreement)."""
        gone = [who for who, s in (("the peer", p), ("ours", o)) if not isinstance(s, dict) or k not in s]
        if gone:
            problems.append(f"{label or k}: missing in {' and '.join(gone)}")
        return bool(gone)

    for k in COUNTS:
        if not missing(k, ps, os_) and not same(ps[k], os_[k]):
            problems.append(f"{k}: peer {ps[k]}, ours {os_[k]}")
    prj, orj = ps.get("fixes_rejected"), os_.get("fixes_rejected")
    if not missing("fixes_rejected", ps, os_):
        for r in REJECTS:
            if not missing(r, prj, orj, f"fixes_rejected.{r}") and not same(prj[r], orj[r]):
                problems.append(f"fixes_rejected.{r}: peer {prj[r]}, ours {orj[r]}")
    if not problems and not ps["lines"]:
        problems.append("lines 0 on both sides: nothing was read")
    if not isinstance(orj, dict):
        orj = {}
    try:
        rejected = sum(orj.values())
        if os_["lines"] != os_["events"] + os_["fixes_accepted"] + rejected + os_["errors"]:
            problems.append("ours: lines != events + fixes_accepted + fixes_rejected + errors")
        if os_["fixes"] != os_["fixes_accepted"] + rejected:
            problems.append("ours: fixes != fixes_accepted + fixes_rejected")
        if no != os_["events"] + os_["fixes_accepted"]:
            problems.append(f"ours: {no} output lines, events + fixes_accepted = "
                            f"{os_['events'] + os_['fixes_accepted']}")
        if oe.count(NL) != os_["errors"]:
            problems.append(f"ours: {oe.count(NL)} error lines, errors = {os_['errors']}")
    except (KeyError, TypeError) as e:
        problems.append(f"ours: cannot add up the statistics ({e!r})")
    text = "; ".join(problems) if problems else (
        ", ".join(f"{k} {ps[k]}" for k in COUNTS) + ", rejected " +
        "/".join(str(ps["fixes_rejected"][r]) for r in REJECTS))
    rep.check(name, "stats", not problems, text)


def where(line, by_record):
    """ ' (corpus: label)' when the output line comes from a corpus line."""
    rec, g = split_geo(line)
    ln = by_record.get(rec if g is not None else line) or by_record.get(line)
    return f" (corpus: {ln.label})" if ln else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="our geo-enrich executable")
    ap.add_argument("--peer", default=PEER)
    ap.add_argument("--gen", default=None, help="gen_stream.py (default: beside the peer)")
    ap.add_argument("--python", default=sys.executable, help="Python for the peer and the generator")
    ap.add_argument("--data", default=os.environ.get("PEER_DATA", os.path.expanduser("~/.cache/geo-enrich-peer")))
    ap.add_argument("--lines", type=int, default=200000)
    ap.add_argument("--sessions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", default=None, help="keep the input and every output in DIR")
    ap.add_argument("--configs", default=",".join(CONFIGS), help=f"some of {','.join(CONFIGS)}")
    ap.add_argument("--no-exotic", action="store_true", help="leave out the corpus's Python/orjson-specific cases")
    ap.add_argument("--strict", action="store_true", help="fail on lines that are equivalent but not identical")
    a = ap.parse_args()
    a.gen = a.gen or os.path.join(os.path.dirname(os.path.abspath(a.peer)), "gen_stream.py")
    configs = [c for c in a.configs.split(",") if c]
    for c in configs:
        if c not in CONFIGS:
            ap.error(f"unknown configuration {c!r}; choose from {', '.join(CONFIGS)}")
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        work = a.keep
    else:
        work = tempfile.mkdtemp(prefix="enrich_diffcheck.")
    try:
        inp, labels, by_record, n, nc = build_input(a, seed, work)
        print(f"enrich_diffcheck: seed {seed}, {n} input lines ({a.lines} generated, {nc} from "
              f"broken_lines.py{'' if not a.no_exotic else ' without exotic cases'}), "
              f"configurations {', '.join(configs)}" + (f"; files in {work}" if a.keep else ""), flush=True)
        rep = Report()
        postal = Postal(a.data)
        for c in configs:
            run_config(a, c, inp, work, rep, labels, by_record, postal)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{rep.passed} passed, {rep.failed} failed" + (f" (seed {seed})" if rep.failed else ""))
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
