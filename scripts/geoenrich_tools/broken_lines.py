#!/usr/bin/env python3
"""Broken and edge-case NDJSON lines for `geo-enrich enrich`, mixed into small realistic sessions.

The corpus exercises every reason code of the peer's `validate` (../shared/bench/peer_enrich.py):
line_too_long (just over 1 MiB, exactly 1 MiB, 1 MiB plus a trailing CR, a cut inside a
multi-byte character), invalid_utf8, invalid_json, not_an_object, missing_session_id,
bad_timestamp, bad_consent, bad_coordinates and bad_accuracy; and valid edge cases: integer and
exponent coordinates, the +-90 / +-180 edges, -0.0, escaped and non-ASCII session ids, duplicate
keys (the last one wins), white space around and inside the object, CRLF line ends, blank lines,
ISO 8601 offsets and fractions, epoch milliseconds as floats, number formats of the echoed
`geo` values, the 100 m and 60 s thresholds, stale fixes, late events and consent transitions
(optOut -> events -> optIn). The broken lines sit between the valid ones of the sessions, so the
run still accepts fixes, enriches events and rejects fixes for distance, staleness and consent.

Every line carries the outcome the peer gives it (geo, plain, reject:<reason>, err:<reason> or
skip for a blank line) and a case label. `--verify` runs the peer on the corpus and checks every
line's outcome, the statistics, and that each reason code occurs. Cases marked exotic follow from
details of Python 3.11's datetime.fromisoformat, orjson and bytes.strip() rather than from the
contract (ISO week dates, `+01` offsets, a comma before the fraction, a vertical tab taken for a
blank line, ...); `--no-exotic` leaves them out. Deterministic for a given seed. Needs pyproj
(installed by setup_peer.sh) for the points 99.7 m and 100.3 m from a fix.

usage (PYTHONPATH=scripts): python3 -m geoenrich_tools.broken_lines [--seed K] [--no-exotic] [--stream-sessions S] > corpus.ndjson
       python3 -m geoenrich_tools.broken_lines [--seed K] [...] --list        line number, expected outcome, label (TSV)
       python3 -m geoenrich_tools.broken_lines [--seed K] [...] --verify [--peer PATH] [--data DIR]
As a module: corpus(seed, exotic=True, stream_sessions=0) -> [Line]; render(lines) -> bytes.
`stream_sessions` S > 0 adds optOut / optIn events for a few of gen_stream.py's sessions
(s-000000 .. s-<S-1>): the opt-outs in the first half of the corpus, the opt-ins in the second.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta

from geoenrich_tools.paths import PEER

MAX_LINE = 1 << 20
T0 = 1764237600000  # 2025-11-27T10:00:00Z, the start of gen_stream.py's streams
REASONS = ("line_too_long", "invalid_utf8", "invalid_json", "not_an_object", "missing_session_id",
           "bad_timestamp", "bad_consent", "bad_coordinates", "bad_accuracy")
REJECTS = ("distance", "stale", "accuracy", "consent")
PLACES = [(43.6532, -79.3832), (45.5019, -73.5674), (49.2827, -123.1207), (51.0447, -114.0719),
          (49.8951, -97.1384), (44.6488, -63.5752), (45.4215, -75.6972), (53.5461, -113.4938),
          (46.8139, -71.2080), (50.4452, -104.6189)]
ABROAD = [(48.8566, 2.3522), (40.7128, -74.0060), (-33.8688, 151.2093), (35.6762, 139.6503),
          (-23.5505, -46.6333), (47.6062, -122.3321)]
EVENTS = ["VIEW_PAGE", "BUTTON_CLICK", "AddToCart", "ProductView", "Search", "PURCHASE"]


@dataclass
class Line:
    raw: bytes            # the line without its terminator
    end: bytes            # its terminator: b"\n", b"\r\n", ...
    expect: str           # geo | plain | reject:<reason> | err:<reason> | skip
    label: str
    kind: str = "event"   # event | fix (for valid lines)
    exotic: bool = False

    def peer_raw(self):
        """The line as the peer sees it: trailing CR and LF stripped."""
        return (self.raw + self.end).rstrip(b"\r\n")


def js(s):
    """A JSON string literal; non-ASCII stays UTF-8."""
    return json.dumps(s, ensure_ascii=False)


def obj(*pairs):
    """b'{"k":v,...}' from (key, JSON text) pairs; text may be str or bytes."""
    parts = []
    for k, v in pairs:
        parts.append(b'"' + k.encode() + b'":' + (v.encode() if isinstance(v, str) else v))
    return b"{" + b",".join(parts) + b"}"


def iso(ms, zone="Z", frac=3):
    """ISO 8601 text of epoch milliseconds: zone 'Z', '+00:00', '-00:00' or an offset in minutes."""
    off = zone if isinstance(zone, int) else 0
    sec, milli = divmod(ms + off * 60000, 1000)
    s = (datetime(1970, 1, 1) + timedelta(seconds=sec)).strftime("%Y-%m-%dT%H:%M:%S")
    digits = f"{milli:03d}"
    if frac < 3:
        assert digits[frac:] == "0" * (3 - frac), (ms, frac)
    if frac:
        s += "." + (digits + "0" * frac)[:frac]
    if isinstance(zone, int):
        h, m = divmod(abs(zone), 60)
        s += f"{'+' if zone >= 0 else '-'}{h:02d}:{m:02d}"
    else:
        s += zone
    return s


def offset(lat, lon, metres, bearing):
    """A point about `metres` away (local flat approximation, good to ~0.5 %)."""
    lat2 = lat + metres * math.cos(bearing) / 111_132.0
    lon2 = lon + metres * math.sin(bearing) / (111_320.0 * math.cos(math.radians(lat)))
    return lat2, lon2


class Session:
    """One session's valid lines in order; `anchor` is its last accepted fix."""

    def __init__(self, c, name, lat, lon, sid=None, t=None):
        self.c, self.rng = c, c.rng
        self.sid = sid if sid is not None else f"bl-{c.tag}-{name}"
        self.sj = js(self.sid)
        self.anchor = (lat, lon)
        self.t = t if t is not None else T0 + self.rng.randrange(0, 600) * 1000
        self.lines = []
        self.n = 0
        c.groups.append(self.lines)

    def ts(self, fmt=None):
        fmt = fmt or self.rng.choice(("ms", "iso"))
        return str(self.t) if fmt == "ms" else js(iso(self.t))

    def add(self, raw, expect, label, kind="event", end=b"\n", exotic=False):
        self.lines.append(Line(raw, end, expect, label, kind, exotic))

    def event(self, expect, label, dt=1000, ts=None, sid=None, extra=(), end=b"\n", exotic=False):
        self.t += dt
        self.n += 1
        pairs = [("type", '"track"'), ("session_id", sid or self.sj), ("timestamp", ts or self.ts()),
                 ("event_name", js(self.rng.choice(EVENTS))), ("data", f'{{"seq":{self.n}}}'), *extra]
        self.add(obj(*pairs), expect, label, "event", end, exotic)

    def fix(self, expect, label, dt=1000, near=False, at=None, lat=None, lon=None, acc="auto",
            ts=None, sid=None, extra=(), end=b"\n", exotic=False):
        """A fix `near` (10-40 m) or far (300-900 m) from the anchor, or `at` a point, or with
        `lat`/`lon` given as JSON text. An accepted fix (expect geo) becomes the anchor."""
        self.t += dt
        if at is None:
            m = self.rng.uniform(10, 40) if near else self.rng.uniform(300, 900)
            at = offset(*self.anchor, m, self.rng.uniform(0, 2 * math.pi))
        lat_t = lat if lat is not None else f"{at[0]:.6f}"
        lon_t = lon if lon is not None else f"{at[1]:.6f}"
        if acc == "auto":
            acc = f"{self.rng.choice([4, 8, 12, 16, 25, 35])}.{self.rng.randrange(10)}"
        pairs = [("type", '"location"'), ("session_id", sid or self.sj), ("timestamp", ts or self.ts()),
                 ("latitude", lat_t), ("longitude", lon_t)]
        if acc is not None:
            pairs.append(("accuracy", acc))
        self.add(obj(*pairs, *extra), expect, label, "fix", end, exotic)
        if expect == "geo":
            self.anchor = (float(lat_t), float(lon_t))


class Corpus:
    def __init__(self, seed, exotic=True, stream_sessions=0):
        self.rng = random.Random(seed)
        self.tag = f"{self.rng.randrange(1 << 16):04x}"
        self.exotic = exotic
        self.stream_sessions = stream_sessions
        self.groups = []   # lists of lines whose order is kept; interleaved at random

    def session(self, name, where=None, **kw):
        lat, lon = where or self.rng.choice(PLACES)
        if where is None:
            lat, lon = offset(lat, lon, self.rng.uniform(0, 8000), self.rng.uniform(0, 2 * math.pi))
        return Session(self, name, lat, lon, **kw)

    def lone(self, raw, expect, label, end=b"\n", exotic=False, kind="event"):
        self.groups.append([Line(raw, end, expect, label, kind, exotic)])

    # ---- sessions of valid lines -----------------------------------------------------------

    def basic(self):
        for i in range(3):
            s = self.session(f"basic{i}")
            s.fix("geo", "basic/first fix")
            s.event("geo", "basic/event after fix", dt=5000)
            s.fix("reject:distance", "basic/fix 10-40 m away", dt=3000, near=True)
            s.event("geo", "basic/event", dt=2000)
            s.fix("geo", "basic/fix 300-900 m away", dt=4000)
            s.event("geo", "basic/event on new fix", dt=1000)
            s.event("plain", "basic/event 70 s after the fix", dt=70000)
            s.fix("reject:stale", "basic/fix older than the last accepted", dt=-75000)
            s.t += 75000
            s.fix("geo", "basic/fix near but after expiry", dt=10000, near=True)
            for _ in range(4):
                s.event("geo", "basic/event", dt=self.rng.choice([1000, 2000, 5000]))

    def thresholds(self):
        s = self.session("expiry")
        s.fix("geo", "expiry/fix")
        t = s.t
        s.event("geo", "expiry/event at +59 999 ms (age 59999)", dt=59999, ts=str(t + 59999))
        s.event("plain", "expiry/event at +60 000 ms", dt=1)
        s.fix("reject:distance", "expiry/near fix at +59 999 ms", dt=-1, near=True)
        s.fix("geo", "expiry/near fix at +60 000 ms", dt=1, near=True)
        s.event("geo", "expiry/event at the fix's time (age 0)", dt=0)

        s = self.session("samets")
        s.fix("geo", "same-ts/fix")
        s.fix("geo", "same-ts/far fix at the same timestamp", dt=0)
        s.event("geo", "same-ts/event at that timestamp gets the second fix", dt=0)
        s.fix("reject:distance", "same-ts/near fix at the same timestamp", dt=0, near=True)

        s = self.session("late")
        s.fix("geo", "late/fix A")
        s.fix("geo", "late/fix B 30 s later", dt=30000)
        s.event("geo", "late/event 20 s behind B gets A", dt=-20000)
        s.event("plain", "late/event before A", dt=-20000)
        s.t += 40000
        s.fix("geo", "late/fix C 100 s after A (A kept: within 2 x expiry)", dt=70000)
        s.event("geo", "late/event 90 s behind C gets A", dt=-90000)
        s.t += 90000
        s.fix("geo", "late/fix D 130 s after C (C pruned)", dt=130000)
        s.event("plain", "late/event 120 s behind D: C was pruned", dt=-120000)
        s.event("plain", "late/event before every fix", dt=-400000)

        from pyproj import Geod
        geod = Geod(ellps="WGS84")
        spots = [self.rng.choice(PLACES), (74.7, -95.0), (0.4, 9.5), (-54.8, -68.3)]
        for i, (lat, lon) in enumerate(spots):
            s = self.session(f"geodesic{i}", where=(lat, lon))
            s.fix("geo", "threshold/fix", at=(lat, lon))
            for az in (self.rng.uniform(0, 360), self.rng.uniform(0, 360)):
                for dist, expect in ((99.7, "reject:distance"), (100.3, "geo")):
                    lo2, la2, _ = geod.fwd(s.anchor[1], s.anchor[0], az, dist)
                    la2, lo2 = round(la2, 9), round(lo2, 9)
                    assert abs(geod.inv(s.anchor[1], s.anchor[0], lo2, la2)[2] - dist) < 0.001
                    s.fix(expect, f"threshold/fix {dist} m away (geodesic)", at=(la2, lo2),
                          lat=f"{la2:.9f}", lon=f"{lo2:.9f}")

    def consent(self):
        s = self.session("consent")
        s.fix("geo", "consent/fix")
        s.event("geo", "consent/event")
        s.event("plain", "consent/optOut event drops the location", extra=[("consent", '"optOut"')])
        s.fix("reject:consent", "consent/fix while opted out")
        s.event("plain", "consent/event while opted out")
        s.fix("reject:consent", "consent/fix with consent notSet while opted out",
              extra=[("consent", '"notSet"')])
        s.event("plain", "consent/optIn event", extra=[("consent", '"optIn"')])
        s.event("plain", "consent/event after optIn, no fix yet")
        s.fix("geo", "consent/first fix after optIn")
        s.event("geo", "consent/event after optIn")
        s.event("geo", "consent/event with notSet (allowed by default)", extra=[("consent", '"notSet"')])
        s.event("geo", "consent/event with consent null", extra=[("consent", "null")])
        s.fix("reject:consent", "consent/fix carrying optOut", extra=[("consent", '"optOut"')])
        s.event("plain", "consent/event after the fix that opted out")
        s.fix("geo", "consent/fix carrying optIn", near=True, extra=[("consent", '"optIn"')])
        s.event("geo", "consent/event after it")

        s = self.session("consent2")
        s.event("plain", "consent/optOut in \\u escapes before any fix", extra=[("consent", '"\\u006fpt\\u004fut"')])
        s.fix("reject:consent", "consent/fix while opted out")
        s.fix("reject:consent", "consent/fix while opted out", dt=5000)
        s.event("plain", "consent/optIn with a session id in escapes", extra=[("consent", '"optIn"')],
                sid=js(s.sid).replace("-", "\\u002d"))
        s.fix("geo", "consent/fix after optIn")
        s.event("geo", "consent/event")

    def number_formats(self):
        s = self.session("int", where=(50.0, -97.0))
        s.fix("geo", "number/integer latitude and longitude", at=(50, -97), lat="50", lon="-97", acc="10")
        s.event("geo", "number/event")
        s.fix("geo", "number/exponents 4.99e1 -9.71E+1, accuracy 1.5e1", lat="4.99e1", lon="-9.71E+1",
              acc="1.5e1")
        s.fix("geo", "number/trailing zeros", lat="49.8000000000", lon="-97.1000000", acc="12.50")
        s.fix("geo", "number/exponent 0.4985e2, negative exponent", lat="0.4985e2", lon="-9712e-2",
              acc="125E-1")
        s.fix("geo", "number/17 significant digits", lat="49.87654321098765", lon="-97.23456789012345",
              acc="0.30000000000000004")
        s.fix("geo", "number/more digits than a double", lat="49.9012345678901234567",
              lon="-97.3012345678901234567", acc="7.00000000000000000001")
        s.event("geo", "number/event")

        accs = ["-0.0", "0", "0.0", "null", "1e16", "1e15", "123456789.123", "0.00001", "0.000015",
                "1e-7", "5e-324", "1.7976931348623157e308", "2.5E+3", "1E2", "100000000000000000000"]
        for i, acc in enumerate(accs):
            s = self.session(f"acc{i}")
            s.fix("geo", f"number/accuracy {acc}", acc=acc)
            s.event("geo", "number/event")
        s = self.session("noacc")
        s.fix("geo", "number/no accuracy", acc=None)
        s.event("geo", "number/event")

        s = self.session("poles", where=(0.0, 0.0))
        for lat, lon, expect in (("90", "180", "geo"), ("-90", "-180", "geo"), ("90.0", "-180.0", "geo"),
                                 ("-90.0", "180.0", "geo"), ("0", "180", "geo"),
                                 ("0", "-180", "reject:distance"), ("-0.0", "-0.0", "geo"),
                                 ("0.0", "0.0", "reject:distance"), ("1e-7", "-1e-7", "reject:distance"),
                                 ("89.99999", "179.99999", "geo"), ("-89.99999", "-179.99999", "geo")):
            s.fix(expect, f"edges/latitude {lat} longitude {lon}", lat=lat, lon=lon)
            s.event("geo", "edges/event")
        s = self.session("nullisland", where=(0.0, 0.0))
        s.fix("geo", "edges/latitude 1e-7 longitude -1e-7", lat="1e-7", lon="-1e-7")
        s.event("geo", "edges/event")
        for i, where in enumerate(ABROAD):
            s = self.session(f"abroad{i}", where=where)
            s.fix("geo", "abroad/fix outside Canada")
            s.event("geo", "abroad/event")
        s = self.session("sea", where=(45.0, -40.0))
        s.fix("geo", "sea/fix in the Atlantic", at=(45.0, -40.0))
        s = self.session("border", where=(49.0, -97.2))
        s.fix("geo", "border/fix on the 49th parallel", lat="49.0", lon="-97.2")
        s.fix("geo", "border/fix 200 m north", lat="49.0018", lon="-97.2")
        s.fix("geo", "border/fix 200 m south", lat="48.9982", lon="-97.2")

    def session_ids(self):
        s = self.session("esc-1")   # the id holds a '-', so '\u002d' spells it too
        esc = js(s.sid).replace("-", "\\u002d")
        s.fix("geo", "sid/fix with the session id in \\u escapes", sid=esc)
        s.event("geo", "sid/event with the literal session id")
        s.event("geo", "sid/event with the session id in escapes", sid=esc)

        s = self.session("uni", sid=f"bl-{self.tag}-sessión-日本-😀")
        s.fix("geo", "sid/fix with a non-ASCII session id")
        s.event("geo", "sid/event with that id in \\u escapes (surrogate pair)",
                sid=json.dumps(s.sid, ensure_ascii=True))
        s.event("geo", "sid/event with upper-case hex escapes",
                sid=re.sub(r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(),
                           json.dumps(s.sid, ensure_ascii=True)))
        s = self.session("quote", sid=f"bl-{self.tag}-q\"u\\o/te\t")
        s.fix("geo", "sid/session id with quote, backslash, tab escapes")
        s.event("geo", "sid/event with '/' escaped as \\/", sid=js(s.sid).replace("/", "\\/"))
        s = self.session("space", sid=" ")
        s.event("plain", "sid/session id of one space is valid")
        s = self.session("nul", sid=f"bl-{self.tag}-\u0000")
        s.fix("geo", "sid/session id with an escaped NUL")
        s.event("geo", "sid/event")
        s = self.session("long", sid=f"bl-{self.tag}-" + "x" * 20000)
        s.fix("geo", "sid/20 000-character session id")
        s.event("geo", "sid/event")

    def keys_and_space(self):
        s = self.session("dups")
        s.fix("geo", "dup/fix")
        s.event("geo", "dup/session_id twice, the last one is ours",
                extra=[("session_id", s.sj)])
        s.lines[-1].raw = s.lines[-1].raw.replace(b'"session_id":' + s.sj.encode(),
                                                  b'"session_id":"someone-else"', 1)
        raw = obj(("type", '"location"'), ("type", '"track"'), ("session_id", s.sj),
                  ("timestamp", str(s.t + 1000)), ("latitude", "1"), ("longitude", "2"))
        s.t += 1000
        s.add(raw, "geo", "dup/type location then track: an event")
        t = s.t = s.t + 1000
        lat, lon = offset(*s.anchor, 500, 1.0)
        raw = obj(("type", '"location"'), ("session_id", s.sj), ("timestamp", '"yesterday"'),
                  ("timestamp", str(t)), ("latitude", '"north"'), ("latitude", f"{lat:.6f}"),
                  ("longitude", f"{lon:.6f}"), ("accuracy", "-1"), ("accuracy", "9.5"))
        s.add(raw, "geo", "dup/bad values overwritten by good ones", "fix")
        s.anchor = (lat, lon)
        s.event("geo", "dup/event carrying its own geo key",
                extra=[("geo", '{"latitude":1,"longitude":2}')])
        s.event("geo", "dup/event with type null")
        s.lines[-1].raw = s.lines[-1].raw.replace(b'"type":"track"', b'"type":null', 1)
        s.event("geo", "dup/event without a type")
        s.lines[-1].raw = s.lines[-1].raw.replace(b'"type":"track",', b"", 1)
        s.fix("plain", "dup/type Location (capital L) is an event")
        s.lines[-1].raw = s.lines[-1].raw.replace(b'"location"', b'"Location"', 1)
        s.lines[-1].kind, s.lines[-1].expect = "event", "geo"
        s.event("geo", "dup/event with a bad latitude (events are not checked)",
                extra=[("latitude", '"x"'), ("accuracy", "-5")])
        s.event("geo", "dup/escapes and non-ASCII in other fields",
                extra=[("note", '"a\\/b \\u00e9\\n\\t\\"q\\" ü € \\ud83d\\ude00"'), ("deep", "[[[[[[{}]]]]]]")])

        s = self.session("space")
        s.fix("geo", "space/fix with spaces around the object")
        s.lines[-1].raw = b"  \t" + s.lines[-1].raw + b" \t "
        s.event("geo", "space/event with spaces around (kept when not enriched)")
        s.lines[-1].raw = b"   " + s.lines[-1].raw + b"   "
        s.event("geo", "space/white space between every token")
        s.lines[-1].raw = (s.lines[-1].raw.replace(b'":', b'" :  ').replace(b",", b" ,\t")
                           .replace(b"{", b"{ ").replace(b"}", b" }"))
        s.event("geo", "space/CR as white space inside the object")
        s.lines[-1].raw = s.lines[-1].raw.replace(b",", b",\r", 2)
        s.fix("geo", "space/CRLF fix", end=b"\r\n")
        s.event("geo", "space/CRLF event", end=b"\r\n")
        s.event("geo", "space/CRLF event with trailing spaces", end=b"\r\n")
        s.lines[-1].raw += b"  "
        s.event("plain", "space/CRLF event 2 min later (not enriched, trailing spaces kept)",
                dt=120000, end=b"\r\n")
        s.lines[-1].raw += b" \t"
        s.fix("geo", "space/CRLF fix with spaces inside before the brace", end=b"\r\n")
        s.lines[-1].raw = s.lines[-1].raw[:-1] + b"  }"
        s.event("geo", "space/event in one line with a CR at its very start")
        s.lines[-1].raw = b"\r" + s.lines[-1].raw
        if self.exotic:
            s.event("geo", "space/CRLF after CRs: all trailing CRs go", end=b"\r\r\r\n", exotic=True)
            s.event("geo", "space/CR before trailing spaces stays in the line", end=b"\r \n", exotic=True)
            s.event("plain", "space/not enriched: CR and spaces kept", dt=130000, end=b"\r  \r\n",
                    exotic=True)
            s.fix("geo", "space/fix ending in CR space: stripped when enriched", end=b"\r \r\n",
                  exotic=True)

    def timestamps(self):
        s = self.session("ts")
        s.fix("geo", "ts/fix")
        for zone in ("Z", "+00:00", "-00:00", 60, -300, 330, -210, 840, -720):
            s.event("geo", f"ts/offset {zone}", ts=js(iso(s.t + 1000, zone)))
        for frac in (0, 1, 2, 3, 6):
            s.t -= s.t % 1000
            s.event("geo", f"ts/{frac} fraction digits", ts=js(iso(s.t + 1000, "Z", frac)))
        s.fix("geo", "ts/fix with an offset", ts=js(iso(s.t + 1000, 120)))
        s.event("geo", "ts/fraction .123456 rounds to .123", dt=1000,
                ts=js(iso(s.t + 1000, "Z", 3)[:-1] + "456Z"))
        s.event("geo", "ts/fraction .1236 rounds up to .124", dt=1000,
                ts=js(iso(s.t + 1000, "Z", 3)[:-4] + "1236Z"))
        s.event("geo", "ts/fraction .9996 rounds up into the next second", dt=1000,
                ts=js(iso(s.t + 1000, "Z", 0)[:-1] + ".9996Z"))
        s.event("geo", "ts/space instead of T", ts=js(iso(s.t + 1000).replace("T", " ")))
        s.event("geo", "ts/epoch ms as a float", ts=f"{s.t + 1000}.0")
        s.event("geo", "ts/epoch ms with a fraction (truncated)", ts=f"{s.t + 1000}.9")
        s.fix("geo", "ts/fix at epoch ms with a fraction", ts=f"{s.t + 1000}.75")
        s.event("geo", "ts/epoch ms in exponent form", ts=f"{(s.t + 1000) / 1000:.3f}e3")
        s.event("geo", "ts/epoch ms as 1.764...E12", ts=f"{(s.t + 1000) / 1e12:.12f}E12")
        s.event("plain", "ts/epoch 0", ts="0")
        s.event("plain", "ts/negative epoch ms", ts="-1")
        s.event("plain", "ts/far future", ts=js("9999-12-31T23:59:59.999Z"))
        s.event("plain", "ts/year 1", ts=js("0001-01-01T00:00:00+00:00"))
        s = self.session("moon", t=-14182939877)   # 1969-07-20T20:17:40.123Z
        s.fix("geo", "ts/fix before 1970", ts=js(iso(s.t, "Z")), dt=0)
        s.event("geo", "ts/event 2 s later, epoch ms < 0", ts=str(s.t + 2000), dt=2000)
        s.event("plain", "ts/event 2 s before the fix", ts=str(s.t - 4000), dt=0)
        s.event("geo", "ts/event with an offset", ts=js(iso(s.t + 1000, -300)), dt=1000)

        if self.exotic:
            s = self.session("tsx", t=T0)
            s.fix("geo", "ts/hour only: T10Z", ts=js("2025-11-27T10Z"), dt=0, exotic=True)
            for text in ("2025-11-27T10:00Z", "2025-11-27T10:00:01,5Z", "2025-11-27X10:00:02Z",
                         "2025-11-27T10:00:03.Z", "2025-11-27T10:00:04 Z", "2025-11-27T10:00:05 +00:00",
                         "20251127T100006Z", "2025-W48-4T10:00:07Z",
                         "2025-11-27T11:00:09+0100", "2025-11-27T11:00:10+01", "2025-11-27T11:01:11+01:00:30",
                         "2025-11-27T11:01:12+01:00:30.5", "2025-11-27T10:00:13.1234567Z",
                         "2025-11-27T10:00:14.0005Z", "2025-11-27T10:00:15.0015Z", "2025-11-27T10:00:16.0025Z",
                         "2025-11-27T10:00:17.999999999Z", "2025-11-27T100018Z", "2025-11-27T10:00:19.5+00",
                         "2025-11-27T05:00:20-05:00",
                         "2025-11-27T23:59:59+13:59"):
                s.event("geo", f"ts/{text}", ts=js(text), dt=0, exotic=True)
            s.event("plain", "ts/epoch ms 2^64 (a float to orjson)", ts="18446744073709551616", exotic=True)
            s.event("plain", "ts/epoch ms 1e300", ts="1e300", exotic=True)
            s.event("plain", "ts/epoch ms 2^64-1", ts="18446744073709551615", exotic=True)
            s.event("plain", "ts/epoch ms -2^63-1", ts="-9223372036854775809", exotic=True)

    def big_lines(self):
        s = self.session("big")

        def padded(line, size, fill=b"x"):
            """`line` with a "pad" string field grown so that the line is `size` bytes."""
            head = line[:-1] + b',"pad":"'
            n = size - len(head) - 2
            body = (fill * (n // len(fill) + 1))[:n]
            return head + body + b'"}'

        s.fix("geo", "big/fix of exactly 1 MiB")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE)
        s.event("geo", "big/event of exactly 1 MiB, then CRLF", end=b"\r\n")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE)
        s.event("geo", "big/event of 1 MiB - 2 bytes and 2 trailing spaces")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE - 2) + b"  "
        s.event("err:line_too_long", "big/event of 1 MiB + 1 byte")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE + 1)
        s.event("err:line_too_long", "big/event of 1 MiB and one trailing space")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE) + b" "
        s.event("err:line_too_long", "big/1.5 MiB, the cut inside a 3-byte character")
        raw = s.lines[-1].raw
        while (MAX_LINE - (len(raw) - 1 + 8)) % 3 != 1:   # the cut after the first byte of a character
            raw = raw[:-1] + b" }"
        raw = padded(raw, MAX_LINE * 3 // 2 + 1, "日".encode())
        assert 0x80 <= raw[MAX_LINE] < 0xC0 and 0x80 <= raw[MAX_LINE - 1], raw[MAX_LINE - 3:MAX_LINE + 3]
        s.lines[-1].raw = raw
        s.event("err:line_too_long", "big/over 1 MiB with invalid UTF-8 too")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE + 100, b"\xff")
        s.event("err:invalid_utf8", "big/exactly 1 MiB with invalid UTF-8")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE, b"\xc3")
        s.event("err:invalid_json", "big/exactly 1 MiB of broken JSON")
        s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE)[:-1] + b"]"
        s.event("geo", "big/event after the big lines")
        if self.exotic:
            s.event("geo", "big/exactly 1 MiB then CR CR LF", end=b"\r\r\n", exotic=True)
            s.lines[-1].raw = padded(s.lines[-1].raw, MAX_LINE)

    # ---- lines the peer refuses --------------------------------------------------------------

    def errors(self):
        ses = [self.session(f"err{i}") for i in range(4)]
        for s in ses:
            s.fix("geo", "err-session/fix")
            for _ in range(6):
                s.event("geo", "err-session/event", dt=self.rng.choice([2000, 3000, 5000]))
                if self.rng.random() < 0.5:
                    near = self.rng.random() < 0.5
                    s.fix("reject:distance" if near else "geo", "err-session/fix", near=near)
        for reason, label, tpl, exotic in ERROR_CASES:
            if exotic and not self.exotic:
                continue
            s = self.rng.choice(ses)
            lat, lon = offset(*s.anchor, 500, self.rng.uniform(0, 6.28))
            raw = (tpl.replace(b"$SID", s.sj.encode()).replace(b"$TS", s.ts().encode())
                   .replace(b"$LAT", f"{lat:.6f}".encode()).replace(b"$LON", f"{lon:.6f}".encode()))
            end = b"\r\n" if self.rng.random() < 0.1 else b"\n"
            s.lines.insert(self.rng.randrange(len(s.lines) + 1),
                           Line(raw, end, f"err:{reason}", f"{reason}/{label}", "event", exotic))

    def blanks(self):
        for raw, end, label, exotic in (
                (b"", b"\n", "empty line", False), (b"   ", b"\n", "spaces", False),
                (b"\t \t", b"\n", "tabs and spaces", False), (b"", b"\r\n", "CRLF only", False),
                (b"  \t ", b"\r\n", "spaces then CRLF", False), (b"", b"\r\r\n", "CR CR LF", False),
                (b" \r ", b"\n", "space CR space", False), (b"\x0b", b"\n", "vertical tab", True),
                (b"\x0c", b"\n", "form feed", True), (b" \x0c\t\x0b ", b"\r\n", "mixed FF/VT", True)):
            if exotic and not self.exotic:
                continue
            for _ in range(2):
                self.lone(raw, "skip", f"blank/{label}", end, exotic)

    def stream(self):
        """Consent changes for sessions of gen_stream.py, far apart in the corpus."""
        if not self.stream_sessions:
            return [], []
        ids = self.rng.sample(range(self.stream_sessions), min(6, self.stream_sessions))
        outs, ins = [], []
        for i in ids:
            sj = js(f"s-{i:06d}")
            t = T0 + self.rng.randrange(60, 900) * 1000
            ev = lambda c, t: obj(("type", '"consent"'), ("session_id", sj), ("timestamp", str(t)),
                                  ("consent", c))
            outs.append(Line(ev('"optOut"', t), b"\n", "plain", "stream/optOut of a gen_stream session"))
            ins.append(Line(ev('"optIn"', t + 600000), b"\n", "plain", "stream/optIn of a gen_stream session"))
        return outs, ins


E = (b'{"type":"track","session_id":$SID,"timestamp":$TS,"event_name":"VIEW_PAGE","data":{"seq":1}}')
F = (b'{"type":"location","session_id":$SID,"timestamp":$TS,"latitude":$LAT,"longitude":$LON,'
     b'"accuracy":8.0}')


def _ev(repl):
    return E.replace(b'"VIEW_PAGE"', repl)


def _cases():
    """(reason, label, template, exotic); $SID, $TS, $LAT, $LON are filled in per line."""
    c = []
    add = lambda r, l, t, x=False: c.append((r, l, t, x))
    # invalid_utf8
    for label, b in (("overlong 2-byte /", b"\xc0\xaf"), ("overlong NUL", b"\xc0\x80"),
                     ("overlong 3-byte", b"\xe0\x80\xaf"), ("overlong 4-byte", b"\xf0\x80\x80\xaf"),
                     ("high surrogate ED A0 80", b"\xed\xa0\x80"), ("low surrogate ED BF BF", b"\xed\xbf\xbf"),
                     ("CESU-8 surrogate pair", b"\xed\xa0\xbd\xed\xb8\x80"),
                     ("truncated 3-byte", b"\xe2\x82"), ("truncated 4-byte", b"\xf0\x9f\x98"),
                     ("lone continuation byte", b"\x80"), ("two continuation bytes", b"\xbf\xbf"),
                     ("F5 lead byte", b"\xf5\x80\x80\x80"), ("F8 5-byte form", b"\xf8\x88\x80\x80\x80"),
                     ("FE", b"\xfe"), ("FF", b"\xff"), ("above U+10FFFF", b"\xf4\x90\x80\x80"),
                     ("Latin-1 e-acute", b"caf\xe9"), ("C1 lead byte", b"\xc1\xbf")):
        add("invalid_utf8", label, _ev(b'"' + b + b'"'))
    add("invalid_utf8", "in the session id", F.replace(b"$SID", b'"bl-\xe9t\xe9"'))
    add("invalid_utf8", "in a key", E.replace(b'"data"', b'"d\xffta"'))
    add("invalid_utf8", "truncated at the end of the line", E + b"\xe2\x82")
    add("invalid_utf8", "and invalid JSON too", b"{'session_id': '\xff'}")
    add("invalid_utf8", "and not an object", b'["\xc0\xaf"]')
    # invalid_json
    for label, t in (("trailing comma in the object", E[:-1] + b",}"),
                     ("trailing comma in an array", E.replace(b'{"seq":1}', b"[1,2,]")),
                     ("NaN latitude", F.replace(b"$LAT", b"NaN")), ("Infinity", F.replace(b"$LON", b"Infinity")),
                     ("-Infinity accuracy", F.replace(b"8.0", b"-Infinity")),
                     ("single quotes", E.replace(b'"', b"'")), ("trailing garbage", E + b" x"),
                     ("extra brace", E + b"}"), ("two objects", E + E), ("object and comma", E + b","),
                     ("two objects split by a CR", E + b"\r" + E),
                     ("unclosed object", E[:-1]), ("unclosed string", b'{"type":"tra'), ("only {", b"{"),
                     ("only }", b"}"), ("bare word", b"hello"), ("lone quote", b'"'),
                     ("leading zero", F.replace(b"8.0", b"08.0")), ("dot without digits", F.replace(b"8.0", b"8.")),
                     ("leading dot", F.replace(b"8.0", b".8")), ("plus sign", F.replace(b"8.0", b"+8")),
                     ("hex number", F.replace(b"8.0", b"0x8")), ("minus alone", F.replace(b"8.0", b"-")),
                     ("block comment", b"/* c */" + E), ("line comment", E + b" // c"),
                     ("raw tab in a string", _ev(b'"VIEW\tPAGE"')), ("raw 0x01 in a string", _ev(b'"VIEW\x01"')),
                     ("raw NUL in a string", _ev(b'"VIEW\x00"')), ("NUL after the object", E + b"\x00"),
                     ("bad escape \\x41", _ev(b'"\\x41"')), ("short \\u escape", _ev(b'"\\u12"')),
                     ("lone high surrogate escape", _ev(b'"\\ud800"')),
                     ("lone low surrogate escape", _ev(b'"\\udc00x"')),
                     ("reversed surrogate escapes", _ev(b'"\\ude00\\ud83d"')),
                     ("byte order mark", b"\xef\xbb\xbf" + E), ("missing colon", E.replace(b'"type":', b'"type"')),
                     ("missing value", E.replace(b'"track"', b"")), ("unquoted key", E.replace(b'"type"', b"type")),
                     ("number key", b'{1:2}'), ("empty pair", b"{,}"), ("True", E.replace(b"1}", b"True}")),
                     ("truncated literal", E.replace(b"1}", b"tru}")), ("DEL and U+2028 kept in raw", b"\x7f\xe2\x80\xa8"),
                     ("control characters in raw", b"\x01\x02\x1b[0m\x1f")):
        add("invalid_json", label, t)
    add("invalid_json", "form feed before the object", b"\x0c" + E, True)
    add("invalid_json", "vertical tab after the object", E + b"\x0b", True)
    add("invalid_json", "1e400 in data", E.replace(b'{"seq":1}', b"1e400"), True)
    add("invalid_json", "latitude 1e309", F.replace(b"$LAT", b"1e309"), True)
    add("invalid_json", "timestamp -1e400", E.replace(b"$TS", b"-1e400"), True)
    # not_an_object
    for label, t in (("empty array", b"[]"), ("array of the record", b"[" + E + b"]"), ("number", b"42"),
                     ("negative exponent number", b"-1.5e3"), ("string", b'"session"'), ("true", b"true"),
                     ("false", b"false"), ("null", b"null"), ("empty string", b'""'),
                     ("array with spaces around", b"  [1, 2]  ")):
        add("not_an_object", label, t)
    add("not_an_object", "array nested 3000 deep", b"[" * 3000 + b"]" * 3000, True)
    # missing_session_id
    for label, v in (("empty", b'""'), ("number", b"42"), ("null", b"null"), ("true", b"true"),
                     ("array", b'["s"]'), ("object", b'{"id":"s"}')):
        add("missing_session_id", label, E.replace(b"$SID", v))
    add("missing_session_id", "absent", E.replace(b'"session_id":$SID,', b""))
    add("missing_session_id", "absent from a fix", F.replace(b'"session_id":$SID,', b""))
    add("missing_session_id", "Session_ID spelt otherwise", E.replace(b'"session_id"', b'"Session_ID"'))
    add("missing_session_id", "duplicate, the last empty", E.replace(b'"session_id":$SID', b'"session_id":$SID,"session_id":""'))
    add("missing_session_id", "duplicate, the last null", E.replace(b'"session_id":$SID', b'"session_id":$SID,"session_id":null'))
    add("missing_session_id", "before a bad timestamp", E.replace(b"$SID", b"null").replace(b"$TS", b'"x"'))
    add("missing_session_id", "empty object", b"{}")
    # bad_timestamp
    for label, v in (("no zone", b'"2025-11-27T10:00:00"'), ("no zone, fraction", b'"2025-11-27T10:00:00.123"'),
                     ("date only", b'"2025-11-27"'), ("true", b"true"), ("false", b"false"),
                     ("garbage string", b'"yesterday"'), ("empty string", b'""'), ("null", b"null"),
                     ("nested object", b'{"$date":"2025-11-27T10:00:00Z"}'), ("array", b"[1764237600000]"),
                     ("epoch ms as a string", b'"1764237600000"'), ("lower-case z", b'"2025-11-27T10:00:00z"'),
                     ("hour 24", b'"2025-11-27T24:00:00Z"'), ("month 13", b'"2025-13-01T00:00:00Z"'),
                     ("30 February", b'"2025-02-30T10:00:00Z"'), ("leap second", b'"2016-12-31T23:59:60Z"'),
                     ("offset +24:00", b'"2025-11-27T10:00:00+24:00"'),
                     ("offset and Z", b'"2025-11-27T10:00:00+01:00Z"'), ("ZZ", b'"2025-11-27T10:00:00ZZ"'),
                     ("leading space", b'" 2025-11-27T10:00:00Z"'), ("RFC 2822", b'"Thu, 27 Nov 2025 10:00:00 GMT"'),
                     ("date then Z", b'"2025-11-27Z"'), ("slashes", b'"2025/11/27T10:00:00Z"')):
        add("bad_timestamp", label, E.replace(b"$TS", v))
    add("bad_timestamp", "absent", E.replace(b'"timestamp":$TS,', b""))
    add("bad_timestamp", "ordinal date 2025331 (not taken by fromisoformat)", E.replace(b"$TS", b'"2025331T10:00:08Z"'), True)
    add("bad_timestamp", "on a fix", F.replace(b"$TS", b'"2025-11-27T10:00:00"'))
    add("bad_timestamp", "before a bad consent", E[:-1].replace(b"$TS", b"null") + b',"consent":"maybe"}')
    # bad_consent
    for label, v in (("optin", b'"optin"'), ("OPTOUT", b'"OPTOUT"'), ("opt_out", b'"opt_out"'), ("empty", b'""'),
                     ("number", b"1"), ("true", b"true"), ("false", b"false"), ("object", b"{}"),
                     ("array", b'["optIn"]'), ("trailing space", b'"optIn "'), ("escaped", b'"opt\\u0049n "')):
        add("bad_consent", label, E[:-1] + b',"consent":' + v + b"}")
    add("bad_consent", "on a fix", F[:-1] + b',"consent":"no"}')
    add("bad_consent", "before bad coordinates", F.replace(b"$LAT", b'"x"')[:-1] + b',"consent":"no"}')
    # bad_coordinates
    for label, lat, lon in (("latitude 90.000001", b"90.000001", b"$LON"), ("latitude -90.5", b"-90.5", b"$LON"),
                            ("longitude 180.0000001", b"$LAT", b"180.0000001"), ("longitude -181", b"$LAT", b"-181"),
                            ("latitude a string", b'"49.9"', b"$LON"), ("longitude true", b"$LAT", b"true"),
                            ("latitude false", b"false", b"$LON"), ("latitude null", b"null", b"$LON"),
                            ("latitude an array", b"[49.9]", b"$LON"), ("longitude an object", b"$LAT", b'{"v":1}'),
                            ("latitude 1e3", b"1e3", b"$LON"), ("latitude 2^100 as an integer",
                                                                 b"1267650600228229401496703205376", b"$LON")):
        add("bad_coordinates", label, F.replace(b"$LAT", lat).replace(b"$LON", lon))
    add("bad_coordinates", "no latitude", F.replace(b'"latitude":$LAT,', b""))
    add("bad_coordinates", "no longitude", F.replace(b',"longitude":$LON', b""))
    add("bad_coordinates", "neither", F.replace(b'"latitude":$LAT,"longitude":$LON,', b""))
    add("bad_coordinates", "duplicate, the last bad", F.replace(b'"latitude":$LAT', b'"latitude":$LAT,"latitude":"x"'))
    add("bad_coordinates", "before a bad accuracy", F.replace(b"$LAT", b"91").replace(b"8.0", b"-1"))
    # bad_accuracy
    for label, v in (("-1", b"-1"), ("-0.5", b"-0.5"), ("-1e-300", b"-1e-300"), ("string", b'"5"'),
                     ("true", b"true"), ("false", b"false"), ("array", b"[5]"), ("object", b"{}"),
                     ("empty string", b'""'), ("-5e-324", b"-5e-324"), ("huge negative", b"-1e308")):
        add("bad_accuracy", label, F.replace(b"8.0", v))
    add("bad_accuracy", "duplicate, the last negative", F.replace(b'"accuracy":8.0', b'"accuracy":8.0,"accuracy":-8'))
    return c


ERROR_CASES = _cases()


def splice(rng, lines, extra):
    """`lines` with the `extra` lines inserted at places drawn from `rng`, both in their own order."""
    at = sorted(rng.randrange(len(lines) + 1) for _ in extra)
    out, j = [], 0
    for i in range(len(lines) + 1):
        while j < len(extra) and at[j] == i:
            out.append(extra[j])
            j += 1
        if i < len(lines):
            out.append(lines[i])
    return out


def corpus(seed=7, exotic=True, stream_sessions=0):
    """The corpus as a list of Line, deterministic for (seed, exotic, stream_sessions)."""
    c = Corpus(seed, exotic, stream_sessions)
    c.basic()
    c.thresholds()
    c.consent()
    c.number_formats()
    c.session_ids()
    c.keys_and_space()
    c.timestamps()
    c.big_lines()
    c.errors()
    c.blanks()
    order = [i for i, g in enumerate(c.groups) for ln in g if exotic or not ln.exotic]
    c.rng.shuffle(order)
    its = [iter([ln for ln in g if exotic or not ln.exotic]) for g in c.groups]
    lines = [next(its[i]) for i in order]
    outs, ins = c.stream()
    half = len(lines) // 2
    for ln in outs:
        lines.insert(c.rng.randrange(0, half), ln)
    for ln in ins:
        lines.insert(c.rng.randrange(half + len(outs), len(lines) + 1), ln)
    for ln in lines:
        assert b"\n" not in ln.raw, ln.label
    return lines


def render(lines):
    return b"".join(ln.raw + ln.end for ln in lines)


def expected_stats(lines):
    st = dict(lines=0, events=0, events_enriched=0, fixes=0, fixes_accepted=0,
              fixes_rejected={r: 0 for r in REJECTS}, errors=0)
    for ln in lines:
        if ln.expect == "skip":
            continue
        st["lines"] += 1
        if ln.expect.startswith("err:"):
            st["errors"] += 1
        elif ln.kind == "fix":
            st["fixes"] += 1
            if ln.expect == "geo":
                st["fixes_accepted"] += 1
            else:
                st["fixes_rejected"][ln.expect.split(":")[1]] += 1
        else:
            st["events"] += 1
            st["events_enriched"] += ln.expect == "geo"
    return st


def verify(lines, peer, data=None, python=sys.executable):
    """Run the peer on the corpus; return (problems, reason counts, stats)."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        inp, err, stf = (os.path.join(tmp, n) for n in ("in.ndjson", "err.ndjson", "stats.json"))
        with open(inp, "wb") as f:
            f.write(render(lines))
        cmd = [python, peer, "--errors", err, "--stats", stf] + (["--data", data] if data else [])
        with open(inp, "rb") as f:
            proc = subprocess.run(cmd, stdin=f, capture_output=True)
        if proc.returncode != 0:
            return [f"peer exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}"], {}, {}
        out = proc.stdout.split(b"\n")
        assert out[-1] == b""
        out = out[:-1]
        errs = [json.loads(x) for x in open(err, "rb").read().splitlines()]
        stats = json.load(open(stf))
    by_line = {e["line"]: e for e in errs}
    if len(by_line) != len(errs):
        problems.append("the peer reported a line twice")
    reasons = {}
    for e in errs:
        reasons[e["reason"]] = reasons.get(e["reason"], 0) + 1
    k, aligned = 0, True
    for n, ln in enumerate(lines, 1):
        e = by_line.pop(n, None)
        where = f"line {n} ({ln.label}, expected {ln.expect})"
        if ln.expect.startswith("err:"):
            if e is None:
                problems.append(f"{where}: no error")
            elif e["reason"] != ln.expect[4:]:
                problems.append(f"{where}: reason {e['reason']}")
            elif e["raw"] != ln.peer_raw()[:MAX_LINE].decode("utf-8", "replace"):
                problems.append(f"{where}: raw differs from the line")
            continue
        if e is not None:
            problems.append(f"{where}: error {e['reason']}")
            continue
        if ln.expect in ("geo", "plain") and aligned:
            got = out[k] if k < len(out) else None
            k += 1
            raw = ln.peer_raw()
            if not (got == raw if ln.expect == "plain" else
                    got is not None and got.startswith(raw.rstrip()[:-1] + b',"geo":{')):
                problems.append(f"{where}: output line {k} is {got[:150] if got else got!r}; "
                                "outputs not compared further")
                aligned = False
    if aligned and k != len(out):
        problems.append(f"{len(out)} output lines, {k} expected")
    if by_line:
        problems.append(f"errors at unexpected lines {sorted(by_line)[:10]}")
    want = expected_stats(lines)
    if stats != want:
        problems.append(f"stats {stats}, expected {want}")
    for r in REASONS:
        if not reasons.get(r):
            problems.append(f"reason {r} never reported")
    for key in ("events_enriched", "fixes_accepted"):
        if not stats.get(key):
            problems.append(f"no {key}")
    for r in ("distance", "stale", "consent"):
        if not stats["fixes_rejected"].get(r):
            problems.append(f"no fix rejected for {r}")
    return problems, reasons, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-exotic", action="store_true", help="leave out the Python/orjson-specific cases")
    ap.add_argument("--stream-sessions", type=int, default=0,
                    help="add consent changes for gen_stream.py sessions s-000000 .. s-<S-1>")
    ap.add_argument("--list", action="store_true", help="print line number, expected outcome and label")
    ap.add_argument("--verify", action="store_true", help="run the peer on the corpus and check it")
    ap.add_argument("--peer", default=PEER)
    ap.add_argument("--data", default=None, help="the peer's --data (default: its own default)")
    a = ap.parse_args()
    lines = corpus(a.seed, not a.no_exotic, a.stream_sessions)
    if a.list:
        for n, ln in enumerate(lines, 1):
            print(f"{n}\t{ln.expect}\t{ln.label}{' (exotic)' if ln.exotic else ''}")
        return
    if not a.verify:
        sys.stdout.buffer.write(render(lines))
        return
    problems, reasons, stats = verify(lines, a.peer, a.data)
    print(f"broken_lines: seed {a.seed}, {len(lines)} lines, {sum(ln.exotic for ln in lines)} exotic")
    for r in REASONS:
        print(f"  {r:20s} {reasons.get(r, 0)}")
    print(f"  stats {json.dumps(stats)}")
    for p in problems[:40]:
        print(f"FAIL {p}")
    print("ok: every line as expected" if not problems else f"{len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
