#!/usr/bin/env python3
"""Geofence transitions through `geo-enrich enrich --geofences` (contract rule 11) against an
independent reference in this file: rules 1-4, 7 and 11 in plain Python, with shapely's `covers`
(polygons, in the lon/lat plane) and pyproj's WGS84 geodesic (circles, the distance filter).

What it generates (seeded; the seed is printed and --seed replays it):
  fences    scripts/geoenrich_tools/geofence_gen.py's (as geofence_check.py): star polygons with
            and without holes, multipolygons, rectangles on binary fractions of a degree, circles
            from metres to 300 km, a nested pair, overlaps; plus a small rectangle with integer
            corners and an integer id. Written as a FeatureCollection or one Feature a line.
  stream    canonical NDJSON of --sessions sessions (ids with quotes, backslashes, non-ASCII),
            about --fixes fixes in all, interleaved in time: fixes placed on fences (random in
            the box, exactly on polygon vertices, rectangle sides and corners, 1e-12 outside a
            side, inside and on holes, in a multipolygon's second part, circle centres, 1e-7 of
            the radius inside and outside), steps of 100.5-400 m and jitter under 95 m (distance
            rejects), stale fixes up to 30 s old, events now and up to 59 s late, events 59.999
            and 60 s after a fix, gaps of exactly 60 s, of 61-119 s (expiry, no eviction), over
            120 s, and pairs of fixes exactly E and E + 1 ms apart (E = 90 s and 120 s: eviction's
            boundary), opt-outs on an event or a fix and later opt-ins, "notSet", accuracies (some
            exactly 50), a few bad lines; timestamps as epoch ms, ISO Z, whole seconds or offsets;
            coordinates written shortest (repr), with 6 decimals, or as integers. No fix lies
            within 1 mm of 100 m from a fix it could be compared with (rule 1's tie is not the
            subject here).

The reference models:
  rule 7    a record with "optOut" drops its session's state (location, fence set, stays:
            silently) before the record is looked at; until "optIn" its fixes are rejected as
            consent and its events get no geo; "notSet" changes nothing (the default policy)
  checks    consent, then --max-accuracy (a fix without accuracy passes; equal passes), then
            stale (older than the last accepted fix), then distance (< 100 m from the last
            accepted fix while it is live, i.e. less than 60 s older; pyproj Geod.inv)
  rule 4    an event gets the latest accepted fix (the last one accepted, among equal times)
            whose time is <= the event's, when less than 60 s older
  rule 11   at each accepted fix its fences (geofence_gen.memberships); against the set at the
            previous accepted fix: exits, then enters, then (with --geofence-dwell S) dwells for
            stays whose enter fix is >= S s older and that have not dwelled, each group in UTF-8
            byte order of ids. The previous set and the stays are forgotten, silently, when the
            fix comes more than evict-after (default 120 s) after the previous accepted fix, and
            on an opt-out. Expiry ends no stay.
It compares, for several runs (--workers 1 and 2; no dwell, dwell 90, dwell 0 with
--max-accuracy 50, dwell 30 with --evict-after 90): which lines are written and that each is its
input line plus geo; every geo's "geofences" (its last key), fix_timestamp and age_ms; the
--geofence-events file line by line (keys in order, latitude/longitude as the geo object writes
them: the record's number, an integer kept an integer, in its shortest form);
the statistics with "geofence_transitions". A run without --geofences must write the same lines
without `,"geofences":[...]` and no "geofence_transitions". Broken fence files (a duplicate id,
not JSON) must be refused before input is read: non-zero exit, nothing in -o. The stream must
have produced enters, exits, dwells, each kind of reject, events with non-empty arrays, both
sides of the eviction boundary with a non-empty set, or the check fails (it compared nothing).

usage: PYTHONPATH=scripts python3 scripts/ci/geofence_stream_check.py --bin PATH [--sessions N]
           [--fixes N] [--fences N] [--seed N] [--data DIR]
       PYTHONPATH=scripts python3 scripts/ci/geofence_stream_check.py --self-test
exit status: 0 when every check passes, 1 otherwise.
"""
import argparse
import bisect
import json
import math
import os
import random
import subprocess
import tempfile
import time
from datetime import datetime, timezone

import orjson
from shapely.geometry import Polygon

from geoenrich_tools.checks import Checks, seed as pick_seed
from geoenrich_tools.geofence_gen import GEOD, id_order, make_fences_and_cities, memberships, shapes, write_file

TOOL = "geofence_stream_check"
T0_MS = 1764237600000          # 2025-11-27T10:00:00Z
EXPIRY_MS = 60_000
DISTANCE_M = 100.0
TIE_MARGIN_M = 1e-3            # no compared pair of fixes within 1 mm of the distance filter
KINDS = ("enter", "exit", "dwell")


# --- records -------------------------------------------------------------------------------------

def iso(ms):
    """ISO 8601 UTC with milliseconds, as rule 5 writes fix_timestamp."""
    return datetime.fromtimestamp(ms // 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def ts_text(rng, ms):
    """A timestamp of `ms` as some producer writes it: epoch ms, ISO Z, whole seconds, an offset."""
    k = rng.random()
    if k < 0.35:
        return str(ms)
    if k < 0.7:
        return f'"{iso(ms)}"'
    if k < 0.8 and ms % 1000 == 0:
        return f'"{iso(ms)[:19]}Z"'
    minutes = rng.choice((-300, -420, 60, 330, 0, -210))
    local = ms + minutes * 60_000
    sign = "-" if minutes < 0 else "+"
    return f'"{iso(local)[:-1]}{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"'


class Record:
    """One input line and what the reference needs of it. kind: "fix", "event" or "bad"."""
    __slots__ = ("kind", "sid", "ts", "lat", "lng", "lat_text", "lng_text", "acc", "consent", "line", "tag")

    def __init__(self, kind, sid, ts, line, lat_text=None, lng_text=None, acc=None, consent=None, tag=None):
        self.kind, self.sid, self.ts, self.line = kind, sid, ts, line
        self.lat_text, self.lng_text = lat_text, lng_text
        self.lat = float(lat_text) if lat_text is not None else None
        self.lng = float(lng_text) if lng_text is not None else None
        self.acc, self.consent, self.tag = acc, consent, tag


def fix_record(sid, ts, tstext, lat_text, lng_text, acc_text=None, consent=None, tag=None):
    parts = [f'{{"type":"location","session_id":{json.dumps(sid, ensure_ascii=False)},"timestamp":{tstext}',
             f',"latitude":{lat_text},"longitude":{lng_text}']
    if acc_text is not None:
        parts.append(f',"accuracy":{acc_text}')
    if consent is not None:
        parts.append(f',"consent":"{consent}"')
    parts.append("}")
    return Record("fix", sid, ts, "".join(parts), lat_text, lng_text,
                  float(acc_text) if acc_text is not None else None, consent, tag)


def event_record(sid, ts, tstext, name, consent=None, tag=None):
    line = (f'{{"type":"track","session_id":{json.dumps(sid, ensure_ascii=False)},"timestamp":{tstext},'
            f'"event_name":"{name}","data":{{"n":1,"geofences":["x"],"x":"}}"}}'
            + (f',"consent":"{consent}"' if consent is not None else "") + "}")
    return Record("event", sid, ts, line, consent=consent, tag=tag)


# --- the reference -------------------------------------------------------------------------------

class Session:
    __slots__ = ("opted_out", "times", "fixes", "fences", "stays")

    def __init__(self):
        self.opted_out = False
        self.drop()

    def drop(self):
        self.times = []      # accepted fixes' times, ascending (stale fixes are rejected)
        self.fixes = []      # their record indices
        self.fences = ()     # the fence set at the last accepted fix
        self.stays = {}      # fence id -> [enter time, dwelled]


class Reference:
    """Rules 1-4, 7 and 11 over `records` with `members[i]` the fence ids of record i's point.
    Gives: geo[i] (the index of the fix whose geo line i carries, or None), written[i],
    transitions [(record index, session, fence, kind)], stats, and `evidence`: counts of the
    situations the check must have met."""

    def __init__(self, records, members, dwell_ms=None, evict_ms=2 * EXPIRY_MS, max_accuracy=None):
        self.records = records
        n = len(records)
        self.geo = [None] * n
        self.written = [False] * n
        self.arrays = [None] * n       # accepted fixes: their fence list
        self.transitions = []
        self.closest_tie = math.inf    # |distance - 100 m| nearest the threshold that decided a fix
        rejected = dict(distance=0, stale=0, accuracy=0, consent=0)
        st = dict(lines=n, events=0, events_enriched=0, fixes=0, fixes_accepted=0,
                  fixes_rejected=rejected, errors=0)
        counts = dict.fromkeys(KINDS, 0)
        ev = {k: 0 for k in ("evict boundary kept", "evict boundary forgot", "stay over expiry",
                             "opt-out with fences", "events with fences", "late events on an older fix",
                             "fixes in 2+ fences")}
        tags = {}
        sessions = {}
        for i, r in enumerate(records):
            if r.kind == "bad":
                st["errors"] += 1
                continue
            s = sessions.get(r.sid)
            if s is None:
                s = sessions[r.sid] = Session()
            if r.consent == "optOut":
                if s.fences:
                    ev["opt-out with fences"] += 1
                s.opted_out = True
                s.drop()
            elif r.consent == "optIn":
                s.opted_out = False
            if r.kind == "event":
                st["events"] += 1
                self.written[i] = True
                k = bisect.bisect_right(s.times, r.ts) - 1
                if k >= 0 and r.ts - s.times[k] < EXPIRY_MS:
                    j = s.fixes[k]
                    self.geo[i] = j
                    st["events_enriched"] += 1
                    if self.arrays[j]:
                        ev["events with fences"] += 1
                    if k < len(s.times) - 1:
                        ev["late events on an older fix"] += 1
                continue
            st["fixes"] += 1
            last = s.times[-1] if s.times else None
            if s.opted_out:
                rejected["consent"] += 1
                continue
            if max_accuracy is not None and r.acc is not None and r.acc > max_accuracy:
                rejected["accuracy"] += 1
                continue
            if last is not None and r.ts < last:
                rejected["stale"] += 1
                continue
            if last is not None and r.ts - last < EXPIRY_MS:
                p = records[s.fixes[-1]]
                d = GEOD.inv(p.lng, p.lat, r.lng, r.lat)[2]
                self.closest_tie = min(self.closest_tie, abs(d - DISTANCE_M))
                if d < DISTANCE_M:
                    rejected["distance"] += 1
                    continue
            # accepted
            st["fixes_accepted"] += 1
            self.written[i] = True
            self.geo[i] = i
            now = tuple(members[i])
            self.arrays[i] = now
            previous = s.fences
            if last is not None and r.ts - last > evict_ms:
                if r.ts - last == evict_ms + 1 and previous:
                    ev["evict boundary forgot"] += 1
                previous = ()
                s.stays = {}
            elif last is not None:
                if r.ts - last == evict_ms and previous:
                    ev["evict boundary kept"] += 1
                if r.ts - last >= EXPIRY_MS and set(previous) & set(now):
                    ev["stay over expiry"] += 1
            left = sorted(set(previous) - set(now), key=id_order)
            entered = sorted(set(now) - set(previous), key=id_order)
            for f in left:
                del s.stays[f]
                self.transitions.append((i, r.sid, f, "exit"))
            for f in entered:
                s.stays[f] = [r.ts, False]
                self.transitions.append((i, r.sid, f, "enter"))
            if dwell_ms is not None:
                for f in now:   # already in id order
                    stay = s.stays[f]
                    if not stay[1] and r.ts - stay[0] >= dwell_ms:
                        stay[1] = True
                        self.transitions.append((i, r.sid, f, "dwell"))
            s.fences = now
            s.times.append(r.ts)
            s.fixes.append(i)
            if len(now) >= 2:
                ev["fixes in 2+ fences"] += 1
            if r.tag:
                t = tags.setdefault(r.tag, [0, 0])
                t[0] += 1
                t[1] += bool(now)
        for _, _, _, kind in self.transitions:
            counts[kind] += 1
        st["geofence_transitions"] = counts
        self.stats = st
        self.evidence = ev
        self.tags = tags   # point tag -> [accepted fixes, of those in some fence]

    def expected_events(self):
        """The --geofence-events lines as lists of (key, value) pairs, numbers as RawNumber."""
        out = []
        for i, sid, fence, kind in self.transitions:
            r = self.records[i]
            out.append((i, [("session_id", sid), ("fence", fence), ("transition", kind),
                            ("timestamp", iso(r.ts)), ("latitude", RawNumber(geo_number(r.lat_text))),
                            ("longitude", RawNumber(geo_number(r.lng_text)))]))
        return out


# --- comparing -----------------------------------------------------------------------------------

def geo_number(text):
    """A coordinate as the geo object writes it: the record's number (an integer stays an
    integer) as orjson 3.8.3, the peer's JSON library, reads and writes it (`45.500000` ->
    `45.5`, `7.2e-05` -> `0.000072`). Python's repr differs below 1e-4: with it, about one seed
    in fifteen (fixes within 11 m of the equator) failed on the events file's text."""
    return orjson.dumps(orjson.loads(text)).decode()


class RawNumber:
    """A JSON number kept as the text it was written with (equal only to another number)."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, RawNumber) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return self.text


def parse_keep_order(text):
    """JSON with objects as lists of (key, value) pairs and numbers as their text."""
    return json.loads(text, object_pairs_hook=list, parse_float=RawNumber, parse_int=RawNumber)


def compare_output(ref, lines):
    """Which lines are written, each its input line with geo inserted; each geo's geofences
    (last key), fix_timestamp and age_ms. Returns (mismatch descriptions, geo lines checked)."""
    records = ref.records
    want = [i for i, w in enumerate(ref.written) if w]
    bad = []
    if len(lines) != len(want):
        bad.append(f"{len(lines)} output lines, expected {len(want)}")
    checked = 0
    for i, out in zip(want, lines):
        r = records[i]
        where = f"line {i + 1} (session {r.sid!r}, {r.kind}, {iso(r.ts)})"
        j = ref.geo[i]
        if j is None:
            if out != r.line:
                bad.append(f"{where}: expected the input line without geo, got {out[:300]}")
            continue
        prefix = r.line[:-1] + ',"geo":'
        if not (out.startswith(prefix) and out.endswith("}")):
            bad.append(f"{where}: expected the input line with geo (fix of line {j + 1}), got {out[:300]}")
            continue
        try:
            geo = parse_keep_order(out[len(prefix):-1])
        except ValueError as e:
            bad.append(f"{where}: geo is not JSON ({e}): {out[len(prefix):][:300]}")
            continue
        keys = dict(geo)
        fix = records[j]
        expected = [iso(fix.ts), RawNumber(str(r.ts - fix.ts)), list(ref.arrays[j])]
        got = [keys.get("fix_timestamp"), keys.get("age_ms"), keys.get("geofences")]
        if geo[-1][0] != "geofences" or got != expected:
            bad.append(f"{where}: expected fix_timestamp, age_ms, geofences {expected} (fix of line {j + 1}) "
                       f"with geofences last; got {got}, last key {geo[-1][0]!r}")
        checked += 1
    return bad, checked


def compare_events(ref, lines):
    """The --geofence-events file, line by line, keys in order, numbers as written. A difference
    is reported per session (at its first differing transition, with the input line that should
    have caused it), so that one missing transition does not hide the rest behind a cascade."""
    want = ref.expected_events()
    got = []
    for line in lines:
        try:
            got.append(parse_keep_order(line))
        except ValueError as e:
            got.append([("not JSON", f"{e}: {line[:200]}")])
    if got == [w for _, w in want]:
        return []
    by_session = {}
    for n, (i, w) in enumerate(want):
        by_session.setdefault(w[0][1], ([], []))[0].append((i, w))
    for g in got:
        sid = g[0][1] if g and g[0][0] == "session_id" else None
        by_session.setdefault(sid, ([], []))[1].append(g)
    # the input line of the fix a transition names (the first fix of that session, time and place)
    fix_line = {}
    for i, r in enumerate(ref.records):
        if r.kind == "fix":
            fix_line.setdefault((r.sid, iso(r.ts), geo_number(r.lat_text), geo_number(r.lng_text)), i)

    def line_of(t):
        d = dict(t)
        i = fix_line.get((d.get("session_id"), d.get("timestamp"), getattr(d.get("latitude"), "text", None),
                          getattr(d.get("longitude"), "text", None)))
        return math.inf if i is None else i

    bad = []
    for sid, (ws, gs) in by_session.items():
        if [w for _, w in ws] == gs:
            continue
        k = next((k for k, (w, g) in enumerate(zip(ws, gs)) if w[1] != g), min(len(ws), len(gs)))
        wi = ws[k][0] if k < len(ws) else math.inf
        gi = line_of(gs[k]) if k < len(gs) else math.inf
        w = f"{dict(ws[k][1])} (input line {wi + 1})" if k < len(ws) else "nothing more"
        g = f"{dict(gs[k])} (input line {gi + 1})" if k < len(gs) else "nothing more"
        bad.append((min(wi, gi), f"session {sid!r}, its transition {k + 1} ({len(ws)} expected, {len(gs)} got): "
                                 f"expected {w}, got {g}"))
    bad = [b for _, b in sorted(bad, key=lambda x: x[0])]
    if not bad:
        n = next(n for n, (w, g) in enumerate(zip(want, got)) if w[1] != g)
        bad.append(f"each session's transitions are right but not in input order: transition {n + 1} should be "
                   f"{dict(want[n][1])} (input line {want[n][0] + 1}), got {dict(got[n])}")
    if len(lines) != len(want):
        bad.insert(0, f"{len(lines)} transition lines, expected {len(want)}")
    return bad


COUNTER_KEYS = ("lines", "events", "events_enriched", "fixes", "fixes_accepted", "fixes_rejected", "errors")


def compare_stats(ref, stats, geofences=True):
    bad = []
    keys = COUNTER_KEYS + (("geofence_transitions",) if geofences else ())
    for k in keys:
        if stats.get(k) != ref.stats[k]:
            bad.append(f"{k}: expected {ref.stats[k]}, got {stats.get(k)}")
    if not geofences and "geofence_transitions" in stats:
        bad.append(f"geofence_transitions present without --geofences: {stats['geofence_transitions']}")
    return bad


def strip_geofences(line):
    """The line without its geo's `,"geofences":[...]` (the last key of the last object), or
    None when it has none there."""
    if not line.endswith("}}"):
        return None
    key = ',"geofences":['
    at = line.rfind(key)
    while at >= 0:
        start = at + len(key) - 1
        try:
            _, end = json.JSONDecoder().raw_decode(line, start)
        except ValueError:
            end = -1
        if end == len(line) - 2:
            return line[:at] + line[end:]
        at = line.rfind(key, 0, at)
    return None


# --- the stream ----------------------------------------------------------------------------------

def wrap_lng(lng):
    return lng if -180 <= lng <= 180 else (lng + 180) % 360 - 180


def clamp(lat, lng):
    return float(max(-90.0, min(90.0, lat))), float(max(-180.0, min(180.0, lng)))


class FencePlaces:
    """Where a fix can be put on a fence: the special places rule 11's membership is fragile at."""

    def __init__(self, fences, cities):
        self.fences = fences
        self.shapes = shapes(fences)
        self.cluster = []
        self.info = []
        for f, (kind, shape, radius) in zip(fences, self.shapes):
            if kind == "circle":
                lng, lat = shape
                self.info.append({"kind": "circle", "centre": (lat, lng), "radius": radius})
            else:
                polys = [f["geometry"]["coordinates"]] if f["geometry"]["type"] == "Polygon" else f["geometry"]["coordinates"]
                flat = [p for poly in polys for ring in poly for p in ring]
                xs, ys = [p[0] for p in flat], [p[1] for p in flat]
                d = {"kind": "polygon", "box": (min(xs), min(ys), max(xs), max(ys)), "vertices": flat}
                ring = polys[0][0]
                if len(polys) == 1 and len(polys[0]) == 1 and len(ring) == 5 and len({x for x, _ in ring}) == 2 \
                        and len({y for _, y in ring}) == 2:
                    d["rect"] = True
                if len(polys[0]) > 1:
                    p = Polygon(polys[0][1]).representative_point()    # inside the hole
                    d["hole"] = (p.y, p.x)
                    d["hole_vertices"] = polys[0][1]
                if len(polys) > 1:
                    p = Polygon(polys[1][0]).representative_point()
                    d["part2"] = (p.y, p.x)
                self.info.append(d)
            d = self.info[-1]
            lat, lng = d["centre"] if kind == "circle" else ((d["box"][1] + d["box"][3]) / 2, (d["box"][0] + d["box"][2]) / 2)
            # the cluster a fence belongs to: the nearest city (sessions walk among one cluster's fences)
            self.cluster.append(min(range(len(cities)), key=lambda c: (cities[c][0] - lat) ** 2 + (cities[c][1] - lng) ** 2))
        self.by_cluster = [[i for i, c in enumerate(self.cluster) if c == k] for k in range(len(cities))]

    def place(self, rng, i):
        """A point on or about fence i: (lat text, lng text, tag)."""
        d = self.info[i]
        r = repr
        if d["kind"] == "circle":
            lat0, lng0 = d["centre"]
            k = rng.random()
            if k < 0.15:
                return r(lat0), r(lng0), "circle centre"
            if k < 0.5:
                factor, tag = (1 - 1e-7, "radius - 1e-7") if rng.random() < 0.5 else (1 + 1e-7, "radius + 1e-7")
            else:
                factor, tag = rng.uniform(0, 1.5), "disc"
            lng, lat, _ = GEOD.fwd(lng0, lat0, rng.uniform(-180, 180), d["radius"] * factor)
            lat, lng = clamp(lat, wrap_lng(lng))
            return r(lat), r(lng), tag
        x0, y0, x1, y1 = d["box"]
        w, h = (x1 - x0) or 1e-6, (y1 - y0) or 1e-6
        k = rng.random()
        if d.get("rect") and k < 0.5:
            a, b = rng.uniform(x0, x1), rng.uniform(y0, y1)
            choice = rng.randrange(7)
            corners = [(y, x) for y in (y0, y1) for x in (x0, x1)]
            whole = [c for c in corners if float(c[0]).is_integer() and float(c[1]).is_integer()]
            corner = rng.choice(whole if whole and rng.random() < 0.7 else corners)
            lat, lng, tag = [(y0, a, "side"), (y1, a, "side"), (b, x0, "side"), (b, x1, "side"),
                             (corner[0], corner[1], "corner"),
                             (y0 - 1e-12, a, "1e-12 outside a side"), (b, x1 + 1e-12, "1e-12 outside a side")][choice]
            lat, lng = clamp(lat, lng)
            if tag in ("side", "corner") and (lat.is_integer() or lng.is_integer()) and rng.random() < 0.7:
                # an integer-valued coordinate written as the integer, or with ".0"
                if lat.is_integer() and lng.is_integer():
                    tag = "integer corner"
                return self.num_text(rng, lat), self.num_text(rng, lng), tag
            return r(lat), r(lng), tag
        if "hole" in d and k < 0.65:
            if rng.random() < 0.6:
                return r(d["hole"][0]), r(d["hole"][1]), "in a hole"
            x, y = rng.choice(d["hole_vertices"])
            return r(y), r(x), "hole vertex"
        if "part2" in d and k < 0.75:
            return r(d["part2"][0]), r(d["part2"][1]), "second part"
        if k < 0.8:
            x, y = rng.choice(d["vertices"])
            return r(y), r(x), "vertex"
        lat, lng = clamp(rng.uniform(y0 - 0.2 * h, y1 + 0.2 * h), rng.uniform(x0 - 0.2 * w, x1 + 0.2 * w))
        if rng.random() < 0.3:
            return f"{lat:.6f}", f"{lng:.6f}", "box, 6 decimals"
        return r(lat), r(lng), "box"

    @staticmethod
    def num_text(rng, v):
        if not v.is_integer():
            return repr(v)
        return str(int(v)) if rng.random() < 0.6 else f"{int(v)}.0"


def session_ids(rng, n):
    odd = ['s"q', "s\\b", "sé", "日本", "s/"]
    return [f"{rng.choice(odd)}-{k}" if rng.random() < 0.15 else f"g-{k:05d}" for k in range(n)]


class StreamGen:
    """The stream of one session after another, interleaved by the time each record is sent."""

    def __init__(self, rng, places):
        self.rng = rng
        self.places = places

    def session(self, sid, start, n_fixes):
        rng = self.rng
        cluster = rng.randrange(len(self.places.by_cluster))
        pool = self.places.by_cluster[cluster] or list(range(len(self.places.fences)))
        target = rng.choice(pool)
        clock = start
        out = []              # (time sent, record)
        fixes = []            # (ts, lat, lng) of every fix sent
        self.fix_count = 0

        def send(rec):
            out.append((clock, rec))
            if rec.kind == "fix":
                fixes.append((rec.ts, rec.lat, rec.lng))
                self.fix_count += 1

        def clear_of_ties(ts, lat, lng):
            for t, a, b in fixes:
                if ts - EXPIRY_MS < t <= ts and abs(GEOD.inv(b, a, lng, lat)[2] - DISTANCE_M) < TIE_MARGIN_M:
                    return False
            return True

        def consent():
            return "notSet" if rng.random() < 0.02 else None

        def accuracy():
            if rng.random() < 0.3:
                if rng.random() < 0.1:
                    return rng.choice(("50", "50.0"))
                return repr(round(rng.uniform(1, 80), rng.randrange(3)))
            return None

        def point(ts, how):
            """Text of a point by `how` (target, step, jitter, same), clear of distance ties."""
            nonlocal target
            for _ in range(50):
                if how == "target" or not fixes:
                    if rng.random() < 0.25:
                        # now and then the integer-cornered rectangle, wherever it is
                        target = rng.choice(pool) if rng.random() < 0.92 else len(self.places.fences) - 1
                    lat_t, lng_t, tag = self.places.place(rng, target)
                else:
                    _, lat, lng = fixes[-1]
                    if how == "same":
                        d = 0.0
                    else:
                        d = rng.uniform(100.5, 400) if how == "step" else rng.uniform(0.5, 95)
                    lng2, lat2, _ = GEOD.fwd(lng, lat, rng.uniform(-180, 180), d)
                    lat2, lng2 = clamp(lat2, wrap_lng(lng2))
                    lat_t, lng_t, tag = (repr(lat), repr(lng), None) if d == 0 else (repr(lat2), repr(lng2), None)
                    if how != "same" and rng.random() < 0.2:
                        lat_t, lng_t = f"{float(lat_t):.6f}", f"{float(lng_t):.6f}"
                if clear_of_ties(ts, float(lat_t), float(lng_t)):
                    return lat_t, lng_t, tag
                how = "target"
            raise RuntimeError("no point clear of a distance tie in 50 draws")

        def fix(ts, how, consent_value=None):
            lat_t, lng_t, tag = point(ts, how)
            send(fix_record(sid, ts, ts_text(rng, ts), lat_t, lng_t, accuracy(),
                            consent_value if consent_value else consent(), tag))

        def event(ts, consent_value=None, name="view"):
            send(event_record(sid, ts, ts_text(rng, ts), name, consent_value if consent_value else consent()))

        actions = (("target", 30), ("step", 16), ("jitter", 10), ("stale", 5), ("event", 15), ("late event", 6),
                   ("event at expiry", 3), ("expiry gap", 5), ("long gap", 2), ("evict boundary", 4),
                   ("opt-out", 2), ("bad", 0.4))
        names = [a for a, _ in actions]
        weights = [w for _, w in actions]
        fix(clock, "target")
        while self.fix_count < n_fixes:
            a = rng.choices(names, weights)[0]
            newest = max(t for t, _, _ in fixes)
            if a in ("target", "step", "jitter"):
                clock += rng.randrange(*{"target": (2000, 40000), "step": (5000, 40000), "jitter": (1000, 20000)}[a])
                fix(clock, a)
            elif a == "stale":
                fix(newest - rng.randrange(1, 30000), "target")
            elif a == "event":
                clock += rng.randrange(0, 10000)
                event(clock)
            elif a == "late event":
                event(newest - rng.randrange(0, 59000), name="late")
            elif a == "event at expiry":
                t = fixes[-1][0] + rng.choice((EXPIRY_MS - 1, EXPIRY_MS))
                clock = max(clock, t)
                event(t, name="edge")
            elif a == "expiry gap":
                # after the newest fix, so exactly 60 s after it when it was accepted
                t = newest + rng.choice((EXPIRY_MS - 1, EXPIRY_MS, rng.randrange(61000, 119000)))
                clock = max(clock, t)
                fix(t, rng.choice(("same", "jitter", "target", "step")))
            elif a == "long gap":
                clock = max(clock, newest) + rng.randrange(121000, 900000)
                fix(clock, rng.choice(("same", "target")))
            elif a == "evict boundary":
                # a fix surely accepted (the last one expired), then one exactly E or E + 1 ms later
                clock = max(clock, newest) + rng.randrange(61000, 100000)
                fix(clock, "target")
                clock += rng.choice((90000, 90001, 120000, 120001))
                fix(clock, rng.choice(("same", "same", "target", "step")))
            elif a == "opt-out":
                clock += rng.randrange(1000, 10000)
                if rng.random() < 0.5:
                    event(clock, "optOut", "consent")
                else:
                    fix(clock, "step", "optOut")
                for _ in range(rng.randrange(1, 5)):
                    clock += rng.randrange(2000, 20000)
                    if rng.random() < 0.5:
                        event(clock)
                    else:
                        fix(clock, rng.choice(("step", "target")))
                clock += rng.randrange(1000, 200000)
                if rng.random() < 0.5:
                    event(clock, "optIn", "consent")
                else:
                    fix(clock, "target", "optIn")
            else:
                clock += rng.randrange(0, 5000)
                line = rng.choice((
                    f'{{"type":"location","session_id":{json.dumps(sid, ensure_ascii=False)},"timestamp":{clock},"latitude":91.5,"longitude":0}}',
                    f'{{"type":"location","session_id":{json.dumps(sid, ensure_ascii=False)},"timestamp":"{iso(clock)[:19]}","latitude":1,"longitude":2}}',
                    f'{{"type":"track","session_id":"","timestamp":{clock}}}'))
                out.append((clock, Record("bad", sid, clock, line)))
        return out


def extra_fences(rng, cities, fences):
    """A small rectangle with an integer corner and an integer id, by the second cluster (last
    in the list: StreamGen sends sessions of every cluster to it now and then)."""
    lat, lng = cities[1]
    y0, x0 = round(lat), round(lng)
    step = 2.0 ** -8
    ring = [[x0, y0], [x0 + step * rng.randint(2, 20), y0], [x0 + step * rng.randint(2, 20), y0 + step * rng.randint(2, 20)]]
    ring = [[x0, y0], [ring[1][0], y0], [ring[1][0], ring[2][1]], [x0, ring[2][1]], [x0, y0]]
    used = {str(f["id"]) for f in fences}
    fid = 7
    while str(fid) in used:
        fid += 1
    return [{"id": fid, "geometry": {"type": "Polygon", "coordinates": [ring]}}]


def make_stream(rng, places, n_sessions, n_fixes):
    gen = StreamGen(rng, places)
    per = max(6, n_fixes // n_sessions)
    sent = []
    for k, sid in enumerate(session_ids(rng, n_sessions)):
        start = T0_MS + rng.randrange(0, 1_200_000)
        for seq, (t, rec) in enumerate(gen.session(sid, start, rng.randint(per // 2, per * 3 // 2))):
            sent.append((t, k, seq, rec))
    sent.sort(key=lambda x: x[:3])
    return [rec for _, _, _, rec in sent]


# --- running geo-enrich --------------------------------------------------------------------------

def run_enrich(args, tmp, name, input_path, fences_path=None, dwell=None, workers=1, max_accuracy=None,
               evict=None):
    paths = {k: os.path.join(tmp, f"{name}.{k}") for k in ("out", "events", "stats", "errors")}
    argv = [args.bin, "enrich", input_path, "-o", paths["out"], "--stats", paths["stats"],
            "--errors", paths["errors"], "--workers", str(workers), "--quiet"]
    if args.data:
        argv += ["--data", args.data]
    if fences_path:
        argv += ["--geofences", fences_path, "--geofence-events", paths["events"]]
    if dwell is not None:
        argv += ["--geofence-dwell", str(dwell)]
    if max_accuracy is not None:
        argv += ["--max-accuracy", str(max_accuracy)]
    if evict is not None:
        argv += ["--evict-after", str(evict)]
    started = time.monotonic()
    p = subprocess.run(argv, capture_output=True, timeout=600)
    elapsed = time.monotonic() - started

    def read(path):
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    stats = {}
    if os.path.exists(paths["stats"]):
        with open(paths["stats"]) as fh:
            stats = json.load(fh)
    return {"argv": argv, "rc": p.returncode, "stderr": p.stderr.decode(errors="replace"), "out": read(paths["out"]),
            "events": read(paths["events"]), "stats": stats, "errors": read(paths["errors"]), "elapsed": elapsed}


def show(name, failures, limit=5):
    for f in failures[:limit]:
        print(f"       {name}: {f}")
    if len(failures) > limit:
        print(f"       {name}: ... {len(failures) - limit} more")


def check_broken(args, tmp, checks):
    """A fence file enrich must refuse before reading a line: non-zero exit, nothing in -o."""
    ok = {"type": "Feature", "id": "dup-1", "geometry": {"type": "Point", "coordinates": [1.5, 2.5]},
          "properties": {"radius_m": 5}}
    cases = (("a duplicate id", json.dumps({"type": "FeatureCollection", "features": [ok, dict(ok)]}), ("dup-1", "duplicate")),
             ("not JSON", '{"type":"FeatureCollection","features":[', ("not JSON",)))
    for name, text, words in cases:
        path = os.path.join(tmp, "broken.geojson")
        out, ev = os.path.join(tmp, "broken.out"), os.path.join(tmp, "broken.events")
        for p in (out, ev):
            if os.path.exists(p):
                os.remove(p)
        with open(path, "w") as fh:
            fh.write(text)
        argv = [args.bin, "enrich", "-o", out, "--geofences", path, "--geofence-events", ev, "--quiet"] + (
            ["--data", args.data] if args.data else [])
        # standard input stays open and empty: an engine that read it before the fences would wait
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            _, err = proc.communicate(timeout=30)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            rc = "still running after 30 s (waiting for input?)"
        err = err.decode(errors="replace").strip()
        written = [p for p in (out, ev) if os.path.exists(p) and os.path.getsize(p) > 0]
        good = isinstance(rc, int) and rc != 0 and not written and all(w in err for w in words)
        checks.expect(good, f"broken fence file refused by enrich: {name}",
                      f"exit {rc}, written {written}, message {err[:200]!r} (must name {words})")


def coverage(ref, dwell, max_accuracy):
    """What the run must have met for its comparisons to mean something, with its counts."""
    tr = ref.stats["geofence_transitions"]
    rej = ref.stats["fixes_rejected"]
    needed = {"enter": tr["enter"], "exit": tr["exit"], "distance rejects": rej["distance"],
              "stale rejects": rej["stale"], "consent rejects": rej["consent"], "bad lines": ref.stats["errors"],
              **ref.evidence}
    if dwell:
        needed["dwell"] = tr["dwell"]
    if max_accuracy:
        needed["accuracy rejects"] = rej["accuracy"]
    for tag in ("side", "corner", "integer corner", "vertex", "hole vertex", "radius - 1e-7"):
        needed[f"accepted fixes in a fence at: {tag}"] = ref.tags.get(tag, [0, 0])[1]
    for tag in ("in a hole", "radius + 1e-7", "1e-12 outside a side"):
        needed[f"accepted fixes at: {tag}"] = ref.tags.get(tag, [0, 0])[0]
    return needed


def main_check(args):
    seed = pick_seed(args.seed, TOOL)
    rng = random.Random(seed)
    checks = Checks()
    started = time.monotonic()
    fences, cities = make_fences_and_cities(rng, args.fences)
    fences += extra_fences(rng, cities, fences)
    places = FencePlaces(fences, cities)
    records = make_stream(rng, places, args.sessions, args.fixes)
    fix_points = [(r.lat, r.lng) if r.kind == "fix" else (0.0, 0.0) for r in records]
    members = memberships(fences, fix_points)
    print(f"{TOOL}: {len(fences)} fences, {len(records)} lines ({sum(r.kind == 'fix' for r in records)} fixes, "
          f"{sum(r.kind == 'event' for r in records)} events, {sum(r.kind == 'bad' for r in records)} bad) of "
          f"{args.sessions} sessions, generated in {time.monotonic() - started:.1f} s")
    configs = (  # name, workers, dwell, max accuracy, evict-after
        ("workers 1", 1, None, None, None),
        ("workers 2, dwell 90", 2, 90, None, None),
        ("workers 2, dwell 0, max-accuracy 50", 2, 0, 50, None),
        ("workers 1, dwell 30, evict-after 90", 1, 30, None, 90),
    )
    with tempfile.TemporaryDirectory() as tmp:
        input_path = os.path.join(tmp, "stream.ndjson")
        with open(input_path, "w", encoding="utf-8") as fh:
            fh.write("".join(r.line + "\n" for r in records))
        fences_path = os.path.join(tmp, "fences.geojson")
        write_file(rng, fences, fences_path)
        check_broken(args, tmp, checks)
        first = None
        for name, workers, dwell, max_acc, evict in configs:
            ref = Reference(records, members, None if dwell is None else dwell * 1000,
                            (evict or 2 * EXPIRY_MS // 1000) * 1000, max_acc)
            run = run_enrich(args, tmp, name.replace(" ", "_").replace(",", ""), input_path, fences_path, dwell,
                             workers, max_acc, evict)
            tr = ref.stats["geofence_transitions"]
            label = f"[{name}]"
            needed = coverage(ref, dwell is not None, max_acc is not None)
            missing = [k for k, v in needed.items() if not v]
            fewest = min(needed, key=needed.get)
            checks.expect(not missing, f"{label} the stream met each of {len(needed)} cases (fewest: {fewest}, "
                          f"{needed[fewest]})", f"none of: {', '.join(missing)} (seed {seed}: a bigger --sessions, "
                          f"--fixes?); {needed}")
            if first is None:
                print("       the cases: " + ", ".join(f"{k} {v}" for k, v in needed.items()))
                checks.expect(ref.closest_tie >= TIE_MARGIN_M, f"the stream has no distance decision within "
                              f"{TIE_MARGIN_M} m of {DISTANCE_M:g} m (closest {ref.closest_tie:.4f} m)",
                              f"closest {ref.closest_tie} m: the generator broke its promise")
            checks.expect(run["rc"] == 0, f"{label} enrich ran ({run['elapsed']:.1f} s)",
                          f"exit {run['rc']}: {run['stderr'][-400:]} ({' '.join(run['argv'])})")
            if first is None:
                first = (ref, run)
            if run["rc"] != 0:
                continue
            bad, checked = compare_output(ref, run["out"])
            show(label, bad)
            checks.expect(not bad, f"{label} output: {sum(ref.written)} lines, {checked} geo arrays",
                          f"{len(bad)} mismatches (seed {seed})")
            bad = compare_events(ref, run["events"])
            show(label, bad)
            checks.expect(not bad, f"{label} transitions: {len(ref.transitions)} ({tr['enter']} enter, "
                          f"{tr['exit']} exit, {tr['dwell']} dwell)", f"{len(bad)} mismatches (seed {seed})")
            bad = compare_stats(ref, run["stats"])
            checks.expect(not bad, f"{label} statistics", "; ".join(bad))
        # without --geofences: the same lines less the geofences key, no geofence_transitions
        ref, run = first
        if run["rc"] != 0:
            print(f"{TOOL}: seed {seed}, {time.monotonic() - started:.1f} s")
            checks.finish(TOOL)
        plain = run_enrich(args, tmp, "plain", input_path, None, None, 2)
        checks.expect(plain["rc"] == 0, "[no --geofences] enrich ran", f"exit {plain['rc']}: {plain['stderr'][-400:]}")
        bad = []
        written = [i for i, w in enumerate(ref.written) if w]
        for n, (i, a, b) in enumerate(zip(written, run["out"], plain["out"])):
            stripped = a if ref.geo[i] is None else strip_geofences(a)
            if stripped is None or stripped != b:
                bad.append(f"output line {n + 1} (input line {i + 1}): with --geofences, less the key: "
                           f"{stripped!r}; without: {b!r}")
        if len(run["out"]) != len(plain["out"]):
            bad.append(f"{len(plain['out'])} lines without --geofences, {len(run['out'])} with")
        show("[no --geofences]", bad)
        checks.expect(not bad, f"[no --geofences] {len(plain['out'])} lines equal the run with, less \"geofences\"",
                      f"{len(bad)} differ")
        bad = compare_stats(ref, plain["stats"], geofences=False)
        checks.expect(not bad, "[no --geofences] statistics, without geofence_transitions", "; ".join(bad))
    print(f"{TOOL}: seed {seed}, {time.monotonic() - started:.1f} s")
    checks.finish(TOOL)


# --- the reference's own test --------------------------------------------------------------------

def self_test():
    """The reference on a hand-written stream whose transitions were worked out by hand, and the
    comparisons on fake engine answers, right and wrong."""
    checks = Checks()
    fences = [
        {"id": "Z1", "geometry": {"type": "Polygon", "coordinates": [[[-75.5, 45.0], [-75.25, 45.0], [-75.25, 45.25], [-75.5, 45.25], [-75.5, 45.0]]]}},
        {"id": 10, "geometry": {"type": "Point", "coordinates": [-75.5, 45.0]}, "radius": 1000.0},
        {"id": "é1", "geometry": {"type": "Polygon", "coordinates": [[[-75.5, 45.0], [-75.4375, 45.0], [-75.4375, 45.0625], [-75.5, 45.0625], [-75.5, 45.0]]]}},
        {"id": "a1", "geometry": {"type": "Polygon", "coordinates": [
            [[-75.0, 45.0], [-74.5, 45.0], [-74.5, 45.5], [-75.0, 45.5], [-75.0, 45.0]],
            [[-74.875, 45.125], [-74.625, 45.125], [-74.625, 45.375], [-74.875, 45.375], [-74.875, 45.125]]]}},
    ]
    s = "s1"

    def F(t, lat, lng, acc=None, consent=None):
        return fix_record(s, T0_MS + t, f'"{iso(T0_MS + t)}"', lat, lng, acc, consent)

    def E(t, consent=None):
        return event_record(s, T0_MS + t, str(T0_MS + t), "e", consent)

    records = [
        F(0, "45.125", "-75.375"),             # 1  enter Z1
        F(30000, "45", "-75.5"),               # 2  corner of Z1 and é1, centre of 10: enter 10, é1
        F(45000, "45.00005", "-75.5"),         # 3  5.6 m: distance
        E(50000),                              # 4  fix 2's [10, Z1, é1]
        E(29000),                              # 5  late: fix 1's [Z1]
        F(100000, "45.125", "-75.375"),        # 6  70 s later (expired): exit 10, é1; dwell Z1 (100 s)
        F(220000, "45.125", "-75.375"),        # 7  exactly 120 s: kept, nothing
        F(340001, "45.125", "-75.375"),        # 8  120.001 s: forgotten, enter Z1 again
        F(350000, "45.25", "-75.3"),           # 9  top side of Z1: nothing
        E(355000, "optOut"),                   # 10 drops the state silently; no geo
        F(360000, "45.5", "-75"),              # 11 consent
        E(365000, "optIn"),                    # 12 no geo (no state)
        F(370000, "45.25", "-75.25"),          # 13 corner of Z1: enter Z1 (from empty)
        F(369000, "45.3", "-75.3"),            # 14 stale
        F(380000, "45.25", "-74.75"),          # 15 in a1's hole: exit Z1
        F(390000, "45.125", "-74.75"),         # 16 the hole's side (a1's boundary): enter a1
        F(400000, "45.0625", "-74.5", "60"),   # 17 a1's outer side, accuracy 60
        F(480000, "45.0625", "-74.5", "50"),   # 18 same point 80 s later: dwell a1 (exactly 90 s)
        E(539999),                             # 19 59.999 s after fix 18: [a1]
        E(540000),                             # 20 60 s: none
        Record("bad", "s2", T0_MS, '{"type":"location","session_id":"s2","timestamp":"2025-11-27T10:00:00","latitude":1,"longitude":2}'),
        fix_record("s2", T0_MS, str(T0_MS), "45", "-75.5"),   # 22 a new session at three fences' corner
    ]
    members = memberships(fences, [(r.lat, r.lng) if r.kind == "fix" else (0.0, 0.0) for r in records])
    checks.expect(members[1] == ["10", "Z1", "é1"] and members[14] == [] and members[15] == ["a1"],
                  "memberships: a shared corner, a circle's centre, a hole, a hole's side",
                  f"{members[1]}, {members[14]}, {members[15]}")

    def expect(dwell, evict, max_acc, want, stats_want, name):
        ref = Reference(records, members, dwell, evict, max_acc)
        got = [(i + 1, sid, f, k) for i, sid, f, k in ref.transitions]
        checks.expect(got == want, f"reference transitions: {name}",
                      f"\n  expected {want}\n  got      {got}")
        st = {k: v for k, v in ref.stats.items()}
        checks.expect(all(st[k] == v for k, v in stats_want.items()), f"reference statistics: {name}",
                      f"expected {stats_want}, got {st}")
        return ref

    base = [(1, s, "Z1", "enter"), (2, s, "10", "enter"), (2, s, "é1", "enter"), (6, s, "10", "exit"),
            (6, s, "é1", "exit")]
    tail = [(8, s, "Z1", "enter"), (13, s, "Z1", "enter"), (15, s, "Z1", "exit"), (16, s, "a1", "enter")]
    s2 = [(22, "s2", "10", "enter"), (22, "s2", "Z1", "enter"), (22, "s2", "é1", "enter")]
    stats = {"lines": 22, "events": 6, "events_enriched": 3, "fixes": 15, "fixes_accepted": 12,
             "fixes_rejected": {"distance": 1, "stale": 1, "accuracy": 0, "consent": 1}, "errors": 1}
    expect(None, 120000, None, base + tail + s2,
           dict(stats, geofence_transitions={"enter": 9, "exit": 3, "dwell": 0}), "no dwell")
    ref = expect(90000, 120000, None, base + [(6, s, "Z1", "dwell")] + tail + [(18, s, "a1", "dwell")] + s2,
                 dict(stats, geofence_transitions={"enter": 9, "exit": 3, "dwell": 2}), "dwell 90 s")
    checks.expect([ref.geo[i] for i in (3, 4, 9, 11, 18, 19)] == [1, 0, None, None, 17, None]
                  and ref.arrays[1] == ("10", "Z1", "é1"),
                  "reference attach: on time, late (an older fix), opted out, 59.999 s and 60 s after",
                  f"{[ref.geo[i] for i in (3, 4, 9, 11, 18, 19)]}")
    checks.expect(ref.evidence["evict boundary kept"] == 1 and ref.evidence["evict boundary forgot"] == 1
                  and ref.evidence["stay over expiry"] == 3 and ref.evidence["opt-out with fences"] == 1,
                  "reference evidence counts", f"{ref.evidence}")
    expect(0, 120000, None,
           [(1, s, "Z1", "enter"), (1, s, "Z1", "dwell"), (2, s, "10", "enter"), (2, s, "é1", "enter"),
            (2, s, "10", "dwell"), (2, s, "é1", "dwell"), (6, s, "10", "exit"), (6, s, "é1", "exit"),
            (8, s, "Z1", "enter"), (8, s, "Z1", "dwell"), (13, s, "Z1", "enter"), (13, s, "Z1", "dwell"),
            (15, s, "Z1", "exit"), (16, s, "a1", "enter"), (16, s, "a1", "dwell")]
           + s2 + [(22, "s2", "10", "dwell"), (22, "s2", "Z1", "dwell"), (22, "s2", "é1", "dwell")],
           dict(stats, geofence_transitions={"enter": 9, "exit": 3, "dwell": 9}), "dwell 0 s")
    expect(90000, 90000, None,
           base + [(6, s, "Z1", "dwell"), (7, s, "Z1", "enter")] + tail + [(18, s, "a1", "dwell")] + s2,
           dict(stats, geofence_transitions={"enter": 10, "exit": 3, "dwell": 2}), "dwell 90 s, evict-after 90 s")
    # fix 17 (accuracy 60) rejected: fix 18 is 90 s after fix 16, still a1's dwell; 50 passes
    expect(90000, 120000, 50, base + [(6, s, "Z1", "dwell")] + tail + [(18, s, "a1", "dwell")] + s2,
           dict(stats, fixes_accepted=11, fixes_rejected={"distance": 1, "stale": 1, "accuracy": 1, "consent": 1},
                geofence_transitions={"enter": 9, "exit": 3, "dwell": 2}), "max-accuracy 50")

    # the comparisons: a fake engine that answers as the reference passes; each wrong answer fails
    def fake_output(ref, mutate=None):
        lines = []
        for i, r in enumerate(records):
            if not ref.written[i]:
                continue
            j = ref.geo[i]
            if j is None:
                lines.append(r.line)
                continue
            arr = list(ref.arrays[j])
            if mutate and mutate[0] == i:
                arr = mutate[1](arr)
            geo = {"latitude": 0, "fix_timestamp": iso(records[j].ts), "age_ms": r.ts - records[j].ts, "geofences": arr}
            lines.append(r.line[:-1] + ',"geo":' + json.dumps(geo, ensure_ascii=False, separators=(",", ":")) + "}")
        return lines

    def fake_events(ref):
        return ['{"session_id":%s,"fence":%s,"transition":"%s","timestamp":"%s","latitude":%s,"longitude":%s}'
                % (json.dumps(sid, ensure_ascii=False), json.dumps(f, ensure_ascii=False), k, iso(records[i].ts),
                   records[i].lat_text, records[i].lng_text) for i, sid, f, k in ref.transitions]

    out = fake_output(ref)
    ev = fake_events(ref)
    checks.expect(compare_output(ref, out)[0] == [] and compare_events(ref, ev) == [],
                  "comparisons pass a right answer", f"{compare_output(ref, out)[0][:2]} {compare_events(ref, ev)[:2]}")
    wrong = {
        "a missing fence": (compare_output, fake_output(ref, (3, lambda a: a[:-1]))),
        "ids out of order": (compare_output, fake_output(ref, (3, lambda a: a[::-1]))),
        "a line missing": (compare_output, out[:4] + out[5:]),
        "geofences not last": (compare_output, [l.replace('"latitude":0,', '').replace('}}', ',"latitude":0}}') if '"geofences":["a1"]' in l else l for l in out]),
        "no geo on an enriched event": (compare_output, [records[18].line if '"timestamp":%d' % records[18].ts in l else l for l in out]),
        "transitions swapped": (compare_events, ev[:1] + [ev[2], ev[1]] + ev[3:]),
        "a latitude's text": (compare_events, [l.replace('"latitude":45,', '"latitude":45.0,') for l in ev]),
        "a latitude as a string": (compare_events, [l.replace('"latitude":45,', '"latitude":"45",') for l in ev]),
        "keys reordered": (compare_events, [l.replace('"session_id":"s1","fence":"Z1"', '"fence":"Z1","session_id":"s1"') for l in ev]),
        "a transition missing": (compare_events, ev[:-1]),
        "two sessions' transitions interleaved otherwise": (compare_events, ev[:-4] + [ev[-3], ev[-4]] + ev[-2:]),
    }
    for name, (fn, lines) in wrong.items():
        res = fn(ref, lines)
        res = res[0] if isinstance(res, tuple) else res
        checks.expect(bool(res), f"comparisons catch: {name}", "passed a wrong answer")
    checks.expect(compare_stats(ref, dict(ref.stats, geofence_transitions={"enter": 9, "exit": 3, "dwell": 1})) != [],
                  "comparisons catch: a dwell count", "passed")
    line = out[2]   # event 4: fix 2's three fences
    checks.expect(strip_geofences(line) == line.replace(',"geofences":["10","Z1","é1"]', "")
                  and strip_geofences('{"a":{"geofences":["x]}"]}}') is None
                  and strip_geofences('{"g":1,"geo":{"h3":"x","geofences":["q\\"]}",",\\"geofences\\":["]}}')
                  == '{"g":1,"geo":{"h3":"x"}}',
                  "strip_geofences: the last key only, ids with brackets and quotes", strip_geofences(line))
    checks.finish(TOOL + " --self-test")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", help="the geo-enrich executable")
    ap.add_argument("--data", default=None, help="its data folder (default: its own search)")
    ap.add_argument("--sessions", type=int, default=400)
    ap.add_argument("--fixes", type=int, default=16000, help="fixes in all, about")
    ap.add_argument("--fences", type=int, default=120)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--self-test", action="store_true", help="test the reference alone (no geo-enrich)")
    args = ap.parse_args()
    if args.self_test:
        self_test()
    if not args.bin:
        ap.error("--bin is required (or --self-test)")
    main_check(args)


if __name__ == "__main__":
    main()
