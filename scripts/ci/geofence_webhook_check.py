#!/usr/bin/env python3
"""End-to-end check of `geo-enrich enrich --geofence-webhook` (contract rule 11) against faulty
HTTP servers on loopback (geoenrich_tools/faulty_http.py), and of `push --replay
--geofence-webhook`.

The fences and the stream are made here from the seed: a grid of rectangle and circle fences
(and a few large ones overlapping them, ids with a quote, a backslash, non-ASCII letters and a
number) and a few hundred sessions walking and driving in and out of them, some with odd ids;
`--geofence-dwell 60` so that dwells occur. Every run writes --geofence-events, whose lines are
what the server must receive. Checks, then prints `N passed, M failed` (exit 1 on a failure):

  events        the first run gave transitions of every kind (enter, exit, dwell) for many
                sessions: a stream without transitions fails instead of passing vacuously
  faulty        a server failing one request in four (500, 429 with Retry-After, a dropped
                connection, an answer slower than --push-timeout 1):
    run           exit 0, or 3 with a dead-letter file
    requests      every request is a POST to the webhook's path with the key and
                  Content-Type: application/json; some were retried (the faults were met)
    arrived       every line of --geofence-events arrived as a body, byte for byte, and every
                  body received is a line of that file (none invented)
    order         per session, the bodies received, with consecutive repeats removed (a retry
                  of a request whose answer was lost), are the session's lines in file order
                  (followed by its dead letters, if any)
    counts        statistics: geofence_transitions = the file's lines by kind;
                  geofence_webhook delivered = lines - dead letters, failed = dead letters,
                  delivered <= requests received <= delivered + failed + retries
    key           the key is in no output, error, statistic, event or dead letter
  backpressure  --geofence-queue 8 against a server that answers nothing for --stall seconds
                from its first request (the client's --push-timeout 1 gives up and retries):
                exit 0, everything arrives in order, the run lasts at least the stall, no more
                than 8 different transitions reached the server during the stall, and the
                stream (on standard input) was held up: less than half of it had been taken
                when the stall ended; the transitions are those of the first run
  dead          a server answering 503 to everything, --push-retry-time 1: exit 3, every
                transition is in the dead-letter file, per session in order, the first with
                the failure (HTTP 503) and attempts, the later ones "held back" (attempts 0),
                kind geofence_transition; only sessions' first transitions were ever sent;
                the key is not in the file
  drain         a server silent for longer than --push-drain-timeout 2 (and --push-timeout):
                exit 3 after the drain timeout, not the silence, with every transition in the
                dead-letter file in order, the first of each session "not delivered within the
                drain timeout", the later ones held back
  replay        `push --replay` of that file with --geofence-webhook to a healthy server:
                exit 0, each transition delivered once, byte for byte, in order per session
  replay-kind   that file replayed with --push-url instead is refused (exit 1) and sends
                nothing; a location-update dead letter replayed with --geofence-webhook too
  refused       a healthy server answering 400 to one session's first transition: exit 3,
                that session's transitions all in the dead-letter file (the first with HTTP 400,
                the rest held back, only the first sent), every other session's delivered in order;
                no session's request sent before the answer to its previous one (one in flight)

The seed (printed; --seed replays it) fixes the fences, the stream, the refused session and each
server's sequence of faults; which request meets which fault still depends on timing.

usage: PYTHONPATH=scripts python3 scripts/ci/geofence_webhook_check.py --bin PATH/geo-enrich [--seed K] [--sessions N] [--stall S]
"""
import argparse
import datetime
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

from geoenrich_tools.faulty_http import FaultyServer

KEY = "gf-hook-check-" + os.urandom(6).hex()
KINDS = ("enter", "exit", "dwell")
QUEUE = 8  # --geofence-queue of the backpressure run
# the servers' listen() backlog: the client opens up to --push-max-in-flight (64) connections at
# once; with a short backlog some would be accepted only seconds later, and the server would then
# read requests the client had long given up on (see faulty_http.FaultyServer)
BACKLOG = 256
DRAIN, DRAIN_STALL = 2, 30  # the drain run's --push-drain-timeout, and how long its server is silent
LAT0, LNG0 = 45.30, -75.80  # the grid's south-west corner (south-west of Ottawa)
M_LAT = 111_132.0
M_LNG = 111_320.0 * math.cos(math.radians(LAT0))
CELL = 700.0  # metres
GRID = 6  # cells a side
T0_MS = 1764237600000  # 2025-11-27T10:00:00Z


# --- the fences and the stream -------------------------------------------------------------

def to_lnglat(x, y):
    """Metres east and north of the grid's corner -> [longitude, latitude] (7 decimals)."""
    return [round(LNG0 + x / M_LNG, 7), round(LAT0 + y / M_LAT, 7)]


def rectangle(fid, cx, cy, hw, hh):
    ring = [to_lnglat(cx - hw, cy - hh), to_lnglat(cx + hw, cy - hh), to_lnglat(cx + hw, cy + hh),
            to_lnglat(cx - hw, cy + hh), to_lnglat(cx - hw, cy - hh)]
    return {"type": "Feature", "id": fid, "geometry": {"type": "Polygon", "coordinates": [ring]}, "properties": {}}


def circle(fid, cx, cy, r):
    return {"type": "Feature", "id": fid, "geometry": {"type": "Point", "coordinates": to_lnglat(cx, cy)},
            "properties": {"radius_m": round(r, 1)}}


def make_fences(rng):
    """A FeatureCollection: one fence in most cells of the grid (a rectangle or a circle a few
    hundred metres across) and four large ones over several cells."""
    features = []
    for i in range(GRID):
        for j in range(GRID):
            if rng.random() < 0.15:
                continue
            cx, cy = (i + 0.5) * CELL + rng.uniform(-80, 80), (j + 0.5) * CELL + rng.uniform(-80, 80)
            if rng.random() < 0.5:
                features.append(rectangle(f"r-{i}{j}", cx, cy, rng.uniform(150, 300), rng.uniform(150, 300)))
            else:
                features.append(circle(f"c-{i}{j}", cx, cy, rng.uniform(150, 320)))
    side = GRID * CELL
    features.append(rectangle("zone-é-south", side * 0.3, side * 0.25, side * 0.25, side * 0.2))
    features.append(circle('gate "7" \\ west', side * 0.2, side * 0.7, 900))
    features.append(circle(42, side * 0.7, side * 0.6, 1100))  # an integer id
    features.append(rectangle("Ωmega", side * 0.75, side * 0.2, 600, 900))
    return {"type": "FeatureCollection", "features": features}


def iso(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def session_id(k):
    if k % 47 == 5:
        return f"gw-ü-{k}"
    if k % 53 == 7:
        return f'gw "q" \\ {k}'
    return f"gw-{k:04d}"


def make_stream(rng, sessions):
    """NDJSON lines (bytes) in time order: each session walks (steps of 110-170 m every 40-70 s,
    so it stays a while in a fence) or drives (250-500 m every 20-40 s) over the grid and a cell
    beyond it, turning gently, with an event now and then."""
    lo, hi = -CELL, (GRID + 1) * CELL
    records = []  # (time ms, session index, sequence, line)
    for k in range(sessions):
        sid = session_id(k)
        epoch_ms = rng.random() < 0.3  # this producer writes epoch milliseconds
        t = T0_MS + int(rng.uniform(0, 600_000))
        x, y = rng.uniform(lo, hi), rng.uniform(lo, hi)
        heading = rng.uniform(0, 2 * math.pi)
        walking = rng.random() < 0.5
        for n in range(rng.randint(20, 45)):
            if n:
                if rng.random() < 0.2:
                    walking = not walking
                step = rng.uniform(110, 170) if walking else rng.uniform(250, 500)
                t += int(rng.uniform(40_000, 70_000) if walking else rng.uniform(20_000, 40_000))
                heading += rng.gauss(0, 0.6)
                x, y = x + step * math.cos(heading), y + step * math.sin(heading)
                if not lo <= x <= hi:
                    x, heading = min(max(x, lo), hi), math.pi - heading
                if not lo <= y <= hi:
                    y, heading = min(max(y, lo), hi), -heading
            lng, lat = to_lnglat(x, y)
            fix = {"type": "location", "session_id": sid, "timestamp": t if epoch_ms else iso(t),
                   "latitude": round(lat, 6), "longitude": round(lng, 6), "accuracy": round(rng.uniform(3, 25), 1)}
            records.append((t, k, 2 * n, fix))
            if rng.random() < 0.3:
                te = t + int(rng.uniform(1000, 15000))
                event = {"type": "track", "session_id": sid, "timestamp": te if epoch_ms else iso(te),
                         "event_name": rng.choice(("ScreenView", "Search", "AddToCart")), "data": {"n": n}}
                records.append((te, k, 2 * n + 1, event))
    records.sort(key=lambda r: (r[0], r[1], r[2]))
    return [json.dumps(r[3], ensure_ascii=False, separators=(",", ":")).encode() for r in records]


# --- reading what a run did ----------------------------------------------------------------

def session_of(body):
    try:
        value = json.loads(body)
        return value.get("session_id") if isinstance(value, dict) else None
    except ValueError:
        return None


def by_session(bodies):
    """{session id: [body, ...] in the given order}."""
    out = {}
    for b in bodies:
        out.setdefault(session_of(b), []).append(b)
    return out


def without_repeats(seq):
    return [b for i, b in enumerate(seq) if i == 0 or b != seq[i - 1]]


def order_problems(events, received, letters):
    """Per session: the bodies received (in arrival order, consecutive repeats removed) must be
    the session's events in file order up to its dead letters (the first of which may have
    arrived without its answer), and its dead letters the rest, in order. `events` and
    `letters` map session -> bodies; `received` is a list of bodies in arrival order."""
    problems = []
    got = by_session(received)
    for sid in set(got) | set(letters):
        if sid not in events:
            problems.append(f"{sid!r}: bodies of a session with no transition in the file")
    for sid, lines in events.items():
        d = letters.get(sid, [])
        r = without_repeats(got.get(sid, []))
        k = len(lines) - len(d)
        if d and d != lines[k:]:
            problems.append(f"{sid!r}: the dead letters are not the session's last {len(d)} transitions in order")
        elif r != lines[:k] and not (d and r == lines[:k + 1]):
            pos = {b: i for i, b in enumerate(lines)}
            seq = " ".join(str(pos.get(b, "?")) for b in r)
            problems.append(f"{sid!r}: the bodies received (repeats removed) are not the first {k} of its "
                            f"{len(lines)} transitions in order; they are its transitions number {seq}")
    return sorted(problems)


def reason_problems(letters, sessions, first_reason, first_attempts):
    """Per session with dead letters: the first must give `first_reason` (a substring) with
    attempts that `first_attempts` accepts, every later one be "held back" with attempts 0, and
    each a kind geofence_transition. `letters` are the dead-letter file's objects."""
    problems = []
    for sid in sessions:
        mine = [d for d in letters if d.get("session_id") == sid]
        for i, d in enumerate(mine):
            reason, attempts = str(d.get("reason")), d.get("attempts")
            good = (first_reason in reason and isinstance(attempts, int) and first_attempts(attempts) if i == 0
                    else reason.startswith("held back") and first_reason in reason and attempts == 0)
            if not good or d.get("kind") != "geofence_transition":
                problems.append(f"{sid!r}: its letter {i + 1} of {len(mine)}: reason {reason!r}, attempts {attempts}, "
                                f"kind {d.get('kind')!r}")
                break
    return problems


class Run:
    """One `geo-enrich` run: exit status, time, and what it wrote."""

    def __init__(self, rc, elapsed, files):
        self.rc = rc
        self.elapsed = elapsed
        self.files = files
        self.events = read_lines(files.get("events"))
        self.letters = [json.loads(l) for l in read_lines(files.get("dead"))]
        try:
            self.stats = json.load(open(files["stats"])) if "stats" in files else {}
        except (OSError, ValueError):
            self.stats = {}

    def letter_bodies(self):
        """{session: [dead-letter body bytes in file order]}."""
        out = {}
        for d in self.letters:
            out.setdefault(d.get("session_id"), []).append(str(d.get("body")).encode())
        return out

    def key_leaks(self):
        return [name for name, path in self.files.items()
                if os.path.exists(path) and KEY.encode() in open(path, "rb").read()]


def read_lines(path):
    if not path or not os.path.exists(path):
        return []
    data = open(path, "rb").read()
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")


# --- the check -----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--stall", type=float, default=2.5, help="seconds the backpressure run's server answers nothing")
    a = ap.parse_args()
    # the runs work in a temporary folder (cwd, so that a default dead-letter file lands there):
    # a relative path, as the test command gives, is taken from here first
    a.bin = os.path.abspath(a.bin)
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"geofence_webhook_check: seed {seed}, {a.sessions} sessions (replay with --seed {seed})")
    rng = random.Random(seed)
    results = []
    started = time.time()

    def check(name, ok, detail):
        results.append(bool(ok))
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")

    env = dict(os.environ, GEO_ENRICH_API_KEY=KEY)
    hook_path = f"/hooks/geofence-{rng.getrandbits(32):08x}"

    with tempfile.TemporaryDirectory() as tmp:
        fences = os.path.join(tmp, "fences.json")
        with open(fences, "w") as f:
            json.dump(make_fences(rng), f, ensure_ascii=False)
        stream = os.path.join(tmp, "in.ndjson")
        stream_lines = make_stream(rng, a.sessions)
        stream_bytes = b"".join(l + b"\n" for l in stream_lines)
        with open(stream, "wb") as f:
            f.write(stream_bytes)

        def enrich(name, server, extra=(), feed=False, feed_log=None):
            """Runs `enrich` with the fences and the webhook at `server`; with `feed`, the stream
            goes to standard input 16 KiB at a time, each write logged to `feed_log` as
            (time.monotonic(), bytes written so far)."""
            files = {x: os.path.join(tmp, f"{name}.{x}") for x in ("out", "stderr", "errors", "stats", "events", "dead")}
            argv = [a.bin, "enrich", "-" if feed else stream, "-o", files["out"], "--errors", files["errors"],
                    "--stats", files["stats"], "--geofences", fences, "--geofence-events", files["events"],
                    "--geofence-dwell", "60", "--geofence-webhook", server.url + hook_path,
                    "--geofence-dead-letter", files["dead"], *extra]
            t = time.time()
            with open(files["stderr"], "wb") as fe:
                p = subprocess.Popen(argv, stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=fe, env=env, cwd=tmp)
                if feed:
                    def writer():
                        done = 0
                        try:
                            for i in range(0, len(stream_bytes), 16384):
                                p.stdin.write(stream_bytes[i:i + 16384])
                                p.stdin.flush()
                                done += len(stream_bytes[i:i + 16384])
                                feed_log.append((time.monotonic(), done))
                        except BrokenPipeError:
                            pass
                        finally:
                            try:
                                p.stdin.close()
                            except BrokenPipeError:
                                pass
                    w = threading.Thread(target=writer, daemon=True)
                    w.start()
                rc = p.wait()
                if feed:
                    w.join()
            return Run(rc, time.time() - t, files)

        def request_problems(server, method="POST", path=hook_path):
            bad = [r for r in server.requests
                   if r.method != method or r.path != path or r.key != KEY or r.content_type != "application/json"]
            return f"{len(bad)} of {len(server.requests)} requests wrong (first: {bad[0]!r}, key {'right' if bad[0].key == KEY else 'WRONG'}, " \
                   f"Content-Type {bad[0].content_type!r})" if bad else ""

        def webhook_counts(run, server):
            """The statistics' problems (empty: none) and a summary."""
            st = run.stats
            tr, wh = st.get("geofence_transitions"), st.get("geofence_webhook")
            kinds = {k: 0 for k in KINDS}
            for line in run.events:
                kind = json.loads(line).get("transition")
                kinds[kind] = kinds.get(kind, 0) + 1
            problems = []
            if tr != kinds:
                problems.append(f"geofence_transitions {tr} != the events file's {kinds}")
            if not isinstance(wh, dict) or not all(isinstance(wh.get(k), int) for k in ("delivered", "retries", "failed")):
                problems.append(f"geofence_webhook missing or incomplete: {wh}")
                return problems, f"geofence_webhook {wh}"
            n, dead, req = len(run.events), len(run.letters), len(server.requests)
            if wh["failed"] != dead:
                problems.append(f"failed {wh['failed']} != {dead} dead letters")
            if wh["delivered"] != n - dead:
                problems.append(f"delivered {wh['delivered']} != {n} transitions - {dead} dead letters")
            if not wh["delivered"] <= req <= wh["delivered"] + wh["failed"] + wh["retries"]:
                problems.append(f"{req} requests received, not within delivered {wh['delivered']} .. "
                                f"delivered + failed + retries {wh['delivered'] + wh['failed'] + wh['retries']}")
            return problems, (f"{sum(kinds.values())} transitions {kinds}; delivered {wh['delivered']}, retries "
                              f"{wh['retries']}, failed {wh['failed']}; {req} requests received")

        def delivery_checks(name, run, server, events_ref=None):
            """arrived, order, counts and key of a run that should deliver (dead letters allowed)."""
            lines = set(run.events)
            bodies = [r.body for r in server.requests]
            received = set(bodies)
            letters = run.letter_bodies()
            # a dead letter need not have arrived (held back, never sent)
            dead = {b for bs in letters.values() for b in bs}
            arrived = sum(1 for l in run.events if l in received)
            missing = [l for l in run.events if l not in received and l not in dead]
            invented = [b for b in bodies if b not in lines]
            check(f"{name}/arrived", run.events and not missing and not invented,
                  f"{len(run.events)} transitions: {arrived} arrived byte for byte"
                  f"{f', {len(dead)} dead letters' if dead else ''}; {len(bodies)} bodies received, {len(invented)} invented"
                  + (f"; first missing {missing[0][:160]!r}" if missing else "")
                  + (f"; first invented {invented[0][:160]!r}" if invented else ""))
            problems = order_problems(by_session(run.events), bodies, letters)
            check(f"{name}/order", run.events and not problems,
                  f"{len(by_session(run.events))} sessions in order" + (f"; {len(problems)} not, first: {problems[0]}" if problems else ""))
            counts, summary = webhook_counts(run, server)
            check(f"{name}/counts", not counts, summary + (f"; {'; '.join(counts)}" if counts else ""))
            leaks = run.key_leaks()
            check(f"{name}/key", not leaks, "the key in no output" if not leaks else f"the key is in {', '.join(leaks)}")
            if events_ref is not None:
                check(f"{name}/events", run.events == events_ref,
                      "the same transitions as the first run" if run.events == events_ref
                      else f"{len(run.events)} transitions, the first run {len(events_ref)}: they differ")

        # 1. the faulty server
        server = FaultyServer(seed, KEY, backlog=BACKLOG, methods=("POST",)).start()
        run = enrich("faulty", server, ["--push-timeout", "1"])
        server.stop()
        events = run.events
        sessions = by_session(events)
        kinds = {k: sum(1 for l in events if json.loads(l)["transition"] == k) for k in KINDS}
        several = sum(1 for v in sessions.values() if len(v) >= 3)
        check("events", all(kinds.values()) and several >= min(20, a.sessions // 4),
              f"{len(stream_lines)} lines, {len(events)} transitions {kinds}, {len(sessions)} sessions "
              f"({several} with 3 or more)")
        if not events:
            print(f"geofence_webhook_check: no transitions, so nothing to deliver: the other runs would check nothing (seed {seed})")
            sys.exit(1)
        check("faulty/run", run.rc == 0 or (run.rc == 3 and os.path.exists(run.files["dead"])),
              f"exit {run.rc} after {run.elapsed:.1f} s")
        bad = request_problems(server)
        faults = sum(1 for r in server.requests if r.status is None or r.status != 200)
        check("faulty/requests", server.requests and not bad and faults and run.stats.get("geofence_webhook", {}).get("retries"),
              bad or f"{len(server.requests)} POSTs to {hook_path} with the key and Content-Type; {faults} not answered 200; "
                     f"answers {dict(sorted(server.statuses().items(), key=str))}")
        delivery_checks("faulty", run, server)

        # 2. backpressure: a small queue and a server that answers nothing for a while
        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="stall", methods=("POST",), stall=a.stall).start()
        feed_log = []
        run = enrich("backpressure", server, ["--geofence-queue", str(QUEUE), "--push-timeout", "1", "--batch-size", "16"],
                     feed=True, feed_log=feed_log)
        server.stop()
        check("backpressure/run", run.rc == 0 and run.elapsed >= a.stall,
              f"exit {run.rc} after {run.elapsed:.1f} s (the stall: {a.stall} s)")
        bad = request_problems(server)
        check("backpressure/requests", server.requests and not bad,
              bad or f"{len(server.requests)} POSTs to {hook_path} with the key and Content-Type")
        end = server.stall_end
        during = {r.body for r in server.requests if end is not None and r.time < end}
        check("backpressure/queue", 1 <= len(during) <= QUEUE,
              f"{len(during)} different transitions reached the server during the stall (--geofence-queue {QUEUE})")
        taken = max([n for t, n in feed_log if end is not None and t <= end] or [0])
        check("backpressure/stream", end is not None and taken < len(stream_bytes) / 2,
              f"{taken} of the stream's {len(stream_bytes)} bytes taken when the stall ended")
        delivery_checks("backpressure", run, server, events_ref=events)

        # 3. a server that is down, and a short retry budget: everything to the dead letters
        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="down", methods=("POST",)).start()
        run = enrich("dead", server, ["--push-retry-time", "1", "--push-drain-timeout", "30", "--quiet"])
        server.stop()
        letters = run.letter_bodies()
        problems = order_problems(sessions, [], letters)
        complete = {sid: bs for sid, bs in letters.items()} == sessions
        reasons = reason_problems(run.letters, sessions, "HTTP 503", lambda n: n >= 1)
        heads = {bs[0] for bs in sessions.values()}
        sent_later = [r.body for r in server.requests if r.body not in heads]
        wh = run.stats.get("geofence_webhook", {})
        check("dead/run", run.rc == 3 and os.path.exists(run.files["dead"]) and run.events == events,
              f"exit {run.rc} after {run.elapsed:.1f} s; the same transitions as the first run: {run.events == events}")
        check("dead/letters", run.letters and complete and not problems and not reasons,
              f"{len(run.letters)} dead letters for {len(events)} transitions of {len(sessions)} sessions"
              + ("" if complete else "; NOT every transition in order") + (f"; {problems[0]}" if problems else "")
              + (f"; {len(reasons)} sessions with a wrong reason, attempts or kind, first: {reasons[0]}" if reasons else ""))
        check("dead/sent", server.requests and not sent_later and not request_problems(server),
              f"{len(server.requests)} requests, all of sessions' first transitions"
              if not sent_later else f"{len(sent_later)} requests sent a transition that should have been held back")
        check("dead/counts", wh.get("delivered") == 0 and wh.get("failed") == len(events) == len(run.letters),
              f"geofence_webhook {wh}, {len(run.letters)} dead letters, {len(events)} transitions")
        leaks = run.key_leaks()
        check("dead/key", not leaks, "the key in no output or dead letter" if not leaks else f"the key is in {', '.join(leaks)}")
        dead_file = run.files["dead"]

        # 4. a server that answers nothing for longer than the drain: what is left is given up
        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="stall", methods=("POST",), stall=DRAIN_STALL).start()
        run = enrich("drain", server, ["--push-timeout", str(DRAIN_STALL), "--push-drain-timeout", str(DRAIN), "--quiet"])
        server.stop()
        problems = order_problems(sessions, [], run.letter_bodies())
        # attempts 1: in flight when the drain ended; 0: still waiting for one of the 64 slots
        reasons = reason_problems(run.letters, sessions, "drain timeout", lambda n: n in (0, 1))
        check("drain", run.rc == 3 and DRAIN <= run.elapsed < DRAIN_STALL and run.letter_bodies() == sessions
              and not problems and not reasons and not request_problems(server)
              and run.stats.get("geofence_webhook", {}).get("failed") == len(events),
              f"a server silent for {DRAIN_STALL} s, --push-drain-timeout {DRAIN}: exit {run.rc} after {run.elapsed:.1f} s; "
              f"{len(run.letters)} dead letters for {len(events)} transitions"
              + (f"; {problems[0]}" if problems else "") + (f"; {reasons[0]}" if reasons else "")
              + f"; geofence_webhook {run.stats.get('geofence_webhook')}")

        # 5. the replay of the down server's dead letters to a healthy server
        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="healthy", methods=("POST",)).start()
        again = os.path.join(tmp, "replay.dead")
        t = time.time()
        p = subprocess.run([a.bin, "push", "--replay", dead_file, "--geofence-webhook", server.url + hook_path,
                            "--geofence-dead-letter", again], capture_output=True, env=env, cwd=tmp)
        elapsed = time.time() - t
        server.stop()
        bodies = [r.body for r in server.requests]
        problems = order_problems(letters, bodies, {})
        exact = sorted(bodies) == sorted(events)
        said = " ".join(l for l in p.stderr.decode(errors="replace").split("\n") if l.strip() and set(l) != {"-"})
        check("replay", p.returncode == 0 and not os.path.exists(again) and bodies and exact and not problems
              and not request_problems(server) and KEY.encode() not in p.stdout + p.stderr,
              f"exit {p.returncode} after {elapsed:.1f} s" + (f" saying {said[:200]!r}" if p.returncode else "")
              + f"; {len(bodies)} POSTs for {len(run.letters)} dead letters, "
              f"{'each transition once, byte for byte' if exact else 'NOT each transition once byte for byte'}"
              + (f"; {problems[0]}" if problems else "") + (f"; {request_problems(server)}" if request_problems(server) else "")
              + ("; still undelivered: " + again if os.path.exists(again) else ""))

        # 6. a replay of the wrong kind is refused before anything is sent
        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="healthy", methods=("PUT", "POST")).start()
        p1 = subprocess.run([a.bin, "push", "--replay", dead_file, "--push-url", server.url,
                             "--push-dead-letter", os.path.join(tmp, "kind1.dead")], capture_output=True, env=env, cwd=tmp)
        location = os.path.join(tmp, "location.dead")
        with open(location, "w") as f:
            f.write(json.dumps({"session_id": "gw-0001", "body": '{"latitude":45.3,"longitude":-75.8}',
                                "reason": "HTTP 503", "attempts": 3}) + "\n")
        p2 = subprocess.run([a.bin, "push", "--replay", location, "--geofence-webhook", server.url + hook_path,
                             "--geofence-dead-letter", os.path.join(tmp, "kind2.dead")], capture_output=True, env=env, cwd=tmp)
        server.stop()
        check("replay-kind", p1.returncode == 1 and p2.returncode == 1 and not server.requests,
              f"geofence letters with --push-url: exit {p1.returncode} ({p1.stderr.decode().strip()[:160]!r}); "
              f"a location letter with --geofence-webhook: exit {p2.returncode} ({p2.stderr.decode().strip()[:160]!r}); "
              f"{len(server.requests)} requests sent")

        # 7. one session's first transition refused (400): that session given up, no other
        chosen = rng.choice(sorted(sid for sid, v in sessions.items() if len(v) >= 3))
        seen = set()

        def refuse(request):
            sid = session_of(request.body)
            if sid == chosen and sid not in seen:
                seen.add(sid)
                return 400
            return None

        server = FaultyServer(seed, KEY, backlog=BACKLOG, mode="healthy", methods=("POST",), refuse=refuse).start()
        run = enrich("refused", server)
        server.stop()
        mine = [d for d in run.letters if d.get("session_id") == chosen]
        own = [r for r in server.requests if session_of(r.body) == chosen]
        right = ([str(d.get("body")).encode() for d in run.letters] == sessions[chosen]
                 and not reason_problems(run.letters, [chosen], "HTTP 400", lambda n: n == 1))
        check("refused/run", run.rc == 3 and run.events == events and right and len(own) == 1,
              f"exit {run.rc}; {len(run.letters)} dead letters, session {chosen!r} has {len(sessions[chosen])} transitions"
              + ("" if right else f" (NOT exactly them, first 400 then held back: {[(d.get('reason'), d.get('attempts')) for d in mine[:3]]})")
              + f"; {len(own)} of its transitions sent")
        delivery_checks("refused", run, server)
        # every answer prompt here: a session's request comes only after the answer to its previous one
        overlaps, last = [], {}
        for r in sorted(server.requests, key=lambda r: r.time):
            sid = session_of(r.body)
            if sid in last and (last[sid].answered is None or r.time < last[sid].answered):
                overlaps.append(sid)
            last[sid] = r
        check("refused/one-in-flight", server.requests and not overlaps,
              f"{len(server.requests)} requests of {len(last)} sessions, none before the answer to its session's previous one"
              if not overlaps else f"{len(overlaps)} requests sent while their session's previous one was unanswered, "
                                   f"first of session {overlaps[0]!r}")

    failed = results.count(False)
    print(f"geofence_webhook_check: {len(results) - failed} passed, {failed} failed in {time.time() - started:.1f} s (seed {seed})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
