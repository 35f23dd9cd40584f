#!/usr/bin/env python3
"""geo-enrich's own synthetic stream: canonical NDJSON (../shared/CONTRACT.md) of GPS fixes and
analytics events from many app sessions, in time order, for the checks that need a realistic
stream (workers_check, push_check, spark_check, the allocation gate's engine benchmarks).

What a stream holds, and which rule of the contract it exercises:
  places     sessions live around Canadian cities, a few across the US border (Windsor/Detroit,
             Niagara) or abroad (no postal code), some on harbour water (no country)
  movement   each session goes through periods: still (fixes close together: distance
             rejections), walking, cycling, driving (fixes 100 m and more apart: accepted),
             indoors (events but no fixes: locations expire after 60 s) and in the background
             (nothing for one to fifteen minutes: expiry, then eviction)
  fixes      GPS noise that matches the fix's accuracy; devices of several kinds (GPS a few
             metres, city GPS, Wi-Fi, coarse cell fixes of hundreds of metres: what --max-accuracy
             rejects); a few devices that never send an accuracy
  events     bursts of screen views, searches, cart and purchase events between fixes, with
             nested data, non-ASCII text and escaped quotes; a few producers omit "type"
  consent    some sessions opt out ("consent":"optOut" on an event) and some of those opt back
             in; some say "optIn" or "notSet" at the start
  sessions   --sessions live at once; a session ends after minutes to an hour or two and a new
             one (a new id) takes its place, so a long stream has many more sessions in all
  encodings  per producer: timestamps as epoch milliseconds or ISO 8601 (Z, a local offset,
             whole seconds, microseconds); 5 to 7 decimals; accuracy with 0 to 2 decimals; extra
             device fields (altitude, speed, bearing) kept as they are. Compact JSON by default:
             the shape the allocation gate's thresholds were measured on (the peer's streams).
  --wide     also producers that write the full float (17 significant digits, as a JavaScript
             or Gson client does) and JSON with spaces after ':' and ','. geo-enrich reads them
             alike, but its line parser allocates for them (the allocation gate's "NDJSON parse
             and splice, per line" gives a p90 of 48 mallocs per 1,000 lines instead of 0), so
             they are not in the default stream
  late lines --late F delays a fraction F of the records by 1 to 30 s (an offline buffer sending
             later): stale fixes and late events. Off by default, because Spark's default time
             order (integrations/spark) would put such lines back in order and then differ from
             one process reading them as they come; broken_lines.py has stale fixes and late
             events for the checks that compare in input order.

Session ids are s-000000, s-000001, ... (the first --sessions are the ones live at the start;
broken_lines.py's stream consent changes name them). The stream starts at 2025-11-27T10:00:00Z,
the time of the contract's examples. Deterministic for a given seed; the seed and the stream's
figures go to standard error. Standard library only (the benchmarks run it with any python3).

usage: stream_gen.py LINES [--sessions S] [--seed K] [--late F] [--wide] > stream.ndjson
       (the command line of ../shared/bench/gen_stream.py, so either serves the checks)
"""
import argparse
import heapq
import math
import random
import sys
import time

T0_MS = 1764237600000  # 2025-11-27T10:00:00Z
DEFAULT_SEED = 1
DEFAULT_SESSIONS = 2000

# (name, latitude, longitude, radius in km, weight, UTC offset in minutes on 2025-11-27)
PLACES = (
    ("Toronto", 43.7200, -79.4000, 15, 14, -300),     # its south edge on Lake Ontario
    ("Montréal", 45.5088, -73.5878, 13, 11, -300),
    ("Vancouver", 49.2781, -123.1207, 12, 8, -480),   # English Bay and the harbour: water
    ("Calgary", 51.0453, -114.0581, 13, 6, -420),
    ("Edmonton", 53.5409, -113.4937, 12, 5, -420),
    ("Ottawa", 45.4201, -75.7003, 11, 5, -300),
    ("Winnipeg", 49.8998, -97.1375, 9, 4, -360),
    ("Québec", 46.8131, -71.2075, 8, 3, -300),
    ("Hamilton", 43.2560, -79.8690, 8, 3, -300),
    ("Halifax", 44.6470, -63.5800, 7, 2, -240),       # the harbour: water
    ("Victoria", 48.4280, -123.3650, 6, 2, -480),
    ("Saskatoon", 52.1300, -106.6600, 6, 2, -360),
    ("Regina", 50.4470, -104.6100, 5, 1.5, -360),
    ("St. John's", 47.5650, -52.7100, 4, 1, -210),
    ("Moncton", 46.0900, -64.7800, 4, 1, -240),
    ("Yellowknife", 62.4540, -114.3720, 3, 0.3, -420),
    ("Windsor", 42.3100, -83.0300, 8, 1.5, -300),     # astride the Detroit River: CA and US
    ("Niagara Falls", 43.0900, -79.0750, 5, 1, -300),  # astride the Niagara River
    ("Seattle", 47.6100, -122.3300, 10, 1, -480),
    ("Buffalo", 42.8900, -78.8600, 7, 0.7, -300),
    ("Paris", 48.8570, 2.3500, 8, 0.5, 60),
)

# period kinds: (speed range m/s, seconds between fixes or None, mean seconds between events or
# None, duration range s, weight of moving into it)
PERIODS = {
    "still": ((0.0, 0.0), (8, 30), 6, (60, 900), 3.0),
    "walk": ((0.9, 1.7), (4, 12), 8, (60, 900), 3.0),
    "cycle": ((3.5, 7.0), (3, 8), 25, (120, 1200), 0.8),
    "drive": ((6.0, 22.0), (2, 6), 30, (120, 1500), 1.6),
    "indoor": ((0.0, 0.5), None, 6, (90, 600), 1.5),
    "background": ((0.0, 0.0), None, None, (65, 900), 0.9),
}
PERIOD_NAMES = tuple(PERIODS)
PERIOD_WEIGHTS = tuple(p[4] for p in PERIODS.values())

# device kinds: (accuracy range in metres, chance of a poor fix, weight)
DEVICES = (
    ("gps", (3.0, 16.0), 0.05, 50),
    ("city", (8.0, 45.0), 0.10, 25),
    ("wifi", (15.0, 90.0), 0.05, 12),
    ("coarse", (150.0, 1500.0), 0.0, 5),
    ("none", None, 0.0, 3),             # sends no accuracy
)

BRANDS = (925, 101, 3307, 4410)
SCREENS = ("Home", "Search", "Catalog", "Product", "Cart", "Checkout", "Account", "Map", "Offers")
QUERIES = ("pizza", "poutine", "café", "crème brûlée", "running shoes", "vin \"rouge\"", "épicerie",
           "parking", "pharmacy", "hockey tickets", "日本食", "bike repair", "\\back\\slash", "tacos")
QUERY_JSON = tuple('"' + q.replace("\\", "\\\\").replace('"', '\\"') + '"' for q in QUERIES)
CURRENCIES = ("CAD", "CAD", "CAD", "USD", "EUR")


def iso_utc_seconds(sec, _cache={}):
    """'YYYY-MM-DDTHH:MM:SS' of epoch seconds, UTC (cached: the stream moves slowly)."""
    s = _cache.get(sec)
    if s is None:
        if len(_cache) > 4096:
            _cache.clear()
        g = time.gmtime(sec)
        s = _cache[sec] = "%04d-%02d-%02dT%02d:%02d:%02d" % (g.tm_year, g.tm_mon, g.tm_mday,
                                                               g.tm_hour, g.tm_min, g.tm_sec)
    return s


def offset_suffix(minutes):
    sign = "-" if minutes < 0 else "+"
    m = abs(minutes)
    return "%s%02d:%02d" % (sign, m // 60, m % 60)


class Session:
    __slots__ = ("sid", "place", "clat", "clon", "reach", "lat", "lon", "heading", "speed", "t",
                 "moved", "period", "period_end", "fix_gap", "event_mean", "next_fix", "next_event",
                 "end", "device", "ts_style", "offset", "offset_text", "coord", "acc_style",
                 "spaced", "typed", "extras", "brand", "seq", "consent_at", "optin_after",
                 "first_consent", "records")


class Generator:
    def __init__(self, seed, live, late, wide=False):
        self.rng = random.Random(seed)
        self.late = late
        self.wide = wide
        self.next_id = 0
        self.place_weights = [p[4] for p in PLACES]
        self.device_weights = [d[3] for d in DEVICES]
        # the stream is seen from the middle of a day: every session is live from the start
        self.sessions = [self.new_session(T0_MS + self.rng.randrange(0, 30_000)) for _ in range(live)]
        self.started = live
        self.fixes = self.events = 0

    # --- sessions -------------------------------------------------------------------------------

    def new_session(self, start):
        rng = self.rng
        s = Session()
        s.sid = "s-%06d" % self.next_id
        self.next_id += 1
        place = rng.choices(PLACES, self.place_weights)[0]
        s.place = place
        s.clat, s.clon = place[1], place[2]
        s.reach = place[3] * 1000.0
        # a uniform point of the disc around the centre
        r = s.reach * math.sqrt(rng.random())
        a = rng.uniform(0, 2 * math.pi)
        s.lat = s.clat + r * math.cos(a) / 111_132.0
        s.lon = s.clon + r * math.sin(a) / (111_320.0 * math.cos(math.radians(s.clat)))
        s.heading = rng.uniform(0, 2 * math.pi)
        s.t = s.moved = start
        s.end = start + rng.randrange(5 * 60_000, 120 * 60_000)
        s.device = rng.choices(DEVICES, self.device_weights)[0]
        s.ts_style = rng.choices(("ms", "isoz", "offset", "seconds", "micros"), (45, 38, 10, 4, 3))[0]
        s.offset = place[5] * 60_000
        s.offset_text = offset_suffix(place[5])
        s.coord = rng.choices(("%.5f", "%.6f", "%.7f", "repr"), (10, 60, 20, 10))[0]
        s.acc_style = rng.choices(("%.1f", "%d", "%.2f"), (60, 25, 15))[0]
        s.spaced = rng.random() < 0.03
        if not self.wide:  # the same draws either way: --wide changes only these encodings
            s.coord = "%.6f" if s.coord == "repr" else s.coord
            s.spaced = False
        s.typed = rng.random() >= 0.03
        s.extras = rng.random() < 0.2
        s.brand = rng.choice(BRANDS)
        s.seq = 0
        s.records = 0
        # consent: a few opt out after some records, half of those opt back in later
        s.consent_at = rng.randrange(3, 200) if rng.random() < 0.04 else -1
        s.optin_after = rng.randrange(60_000, 900_000) if rng.random() < 0.5 else -1
        s.first_consent = rng.choices((None, "optIn", "notSet"), (88, 10, 2))[0]
        self.start_period(s, start, rng.choice(("still", "walk", "walk", "drive", "indoor")))
        return s

    def start_period(self, s, now, kind=None):
        rng = self.rng
        if kind is None:
            kind = rng.choices(PERIOD_NAMES, PERIOD_WEIGHTS)[0]
            if kind == s.period:
                kind = rng.choices(PERIOD_NAMES, PERIOD_WEIGHTS)[0]
        speeds, fix_gap, event_mean, duration, _ = PERIODS[kind]
        s.period = kind
        s.speed = rng.uniform(*speeds)
        s.heading += rng.uniform(-2.0, 2.0)
        s.period_end = now + int(rng.uniform(*duration) * 1000)
        s.fix_gap = fix_gap
        s.event_mean = event_mean
        s.next_fix = now + self.gap_ms(fix_gap) if fix_gap else None
        s.next_event = now + self.event_gap_ms(event_mean) if event_mean else None

    def gap_ms(self, gap):
        return int(self.rng.uniform(gap[0], gap[1]) * 1000)

    def event_gap_ms(self, mean):
        # bursts of taps with pauses: exponential gaps, at least 0.2 s
        return 200 + int(self.rng.expovariate(1.0 / mean) * 1000)

    def schedule(self, s):
        """Set s.t to the time of the session's next record, moving through its periods."""
        while True:
            nf, ne = s.next_fix, s.next_event
            if s.ts_style == "seconds":
                # its timestamps have no fraction: keep its records on whole seconds, so that the
                # stream stays in time order as written
                if nf is not None and nf % 1000:
                    nf = s.next_fix = nf + 1000 - nf % 1000
                if ne is not None and ne % 1000:
                    ne = s.next_event = ne + 1000 - ne % 1000
            if nf is None:
                nxt = ne
            elif ne is None:
                nxt = nf
            else:
                nxt = nf if nf <= ne else ne
            if nxt is not None and nxt < s.period_end:
                s.t = nxt
                return
            self.start_period(s, s.period_end)

    def move(self, s, now):
        dt = (now - s.moved) / 1000.0
        s.moved = now
        if s.speed <= 0.0 or dt <= 0.0:
            return
        s.heading += self.rng.uniform(-0.3, 0.3)
        d = s.speed * dt
        coslat = math.cos(math.radians(s.lat))
        s.lat += d * math.cos(s.heading) / 111_132.0
        s.lon += d * math.sin(s.heading) / (111_320.0 * coslat)
        # turn back towards the centre when beyond the place's reach
        dy = (s.lat - s.clat) * 111_132.0
        dx = (s.lon - s.clon) * 111_320.0 * coslat
        if dx * dx + dy * dy > s.reach * s.reach:
            s.heading = math.atan2(-dx, -dy) + self.rng.uniform(-0.5, 0.5)

    # --- records --------------------------------------------------------------------------------

    def timestamp(self, s, ms):
        style = s.ts_style
        if style == "ms":
            return str(ms)
        if style == "isoz":
            return '"%s.%03dZ"' % (iso_utc_seconds(ms // 1000), ms % 1000)
        if style == "offset":
            local = ms + s.offset
            return '"%s.%03d%s"' % (iso_utc_seconds(local // 1000), local % 1000, s.offset_text)
        if style == "seconds":
            return '"%sZ"' % iso_utc_seconds(ms // 1000)
        return '"%s.%03d%03dZ"' % (iso_utc_seconds(ms // 1000), ms % 1000, self.rng.randrange(1000))

    def fix(self, s, ms):
        rng = self.rng
        device = s.device
        if device[1] is None:
            acc = None
            sigma = 6.0
        else:
            lo, hi = device[1]
            acc = rng.uniform(lo, hi)
            if rng.random() < device[2]:
                acc *= rng.uniform(3, 12)  # a poor fix: under a bridge, between towers
            sigma = acc / 2.0
        coslat = math.cos(math.radians(s.lat))
        lat = s.lat + rng.gauss(0.0, sigma) / 111_132.0
        lon = s.lon + rng.gauss(0.0, sigma) / (111_320.0 * coslat)
        if s.coord == "repr":
            lat_t, lon_t = repr(lat), repr(lon)
        else:
            lat_t, lon_t = s.coord % lat, s.coord % lon
        # a fix always says "type":"location" (that is what makes it a fix)
        pairs = [('"type"', '"location"')]
        pairs.append(('"session_id"', '"' + s.sid + '"'))
        pairs.append(('"timestamp"', self.timestamp(s, ms)))
        pairs.append(('"latitude"', lat_t))
        pairs.append(('"longitude"', lon_t))
        if acc is not None:
            pairs.append(('"accuracy"', s.acc_style % acc))
        if s.extras:
            pairs.append(('"altitude"', "%.1f" % rng.uniform(20, 400)))
            pairs.append(('"speed"', "%.2f" % max(0.0, s.speed + rng.gauss(0, 0.4))))
            pairs.append(('"bearing"', str(int(math.degrees(s.heading)) % 360)))
        self.fixes += 1
        return self.render(s, pairs)

    def event(self, s, ms):
        rng = self.rng
        s.seq += 1
        seq = s.seq
        consent = None
        if s.records == 0 and s.first_consent:
            consent = s.first_consent
        if s.consent_at >= 0 and s.records >= s.consent_at:
            consent, name, data = "optOut", "consent_changed", '{"seq":%d}' % seq
            s.consent_at = -1
            if s.optin_after >= 0:
                s.consent_at = -2
                s.optin_after += ms  # the time of the opt-in
        elif s.consent_at == -2 and ms >= s.optin_after:
            consent, name, data = "optIn", "consent_changed", '{"seq":%d}' % seq
            s.consent_at = -1
        else:
            k = rng.random()
            if k < 0.38:
                name, data = "screen_view", '{"seq":%d,"screen":"%s"}' % (seq, rng.choice(SCREENS))
            elif k < 0.60:
                name = "product_view"
                data = '{"seq":%d,"product_id":"p-%d","price":%.2f,"currency":"%s"}' % (
                    seq, rng.randrange(1, 50000), rng.uniform(1, 400), rng.choice(CURRENCIES))
            elif k < 0.72:
                name = "search"
                data = '{"seq":%d,"query":%s,"results":%d}' % (seq, rng.choice(QUERY_JSON), rng.randrange(0, 120))
            elif k < 0.84:
                name = "add_to_cart"
                data = '{"seq":%d,"product_id":"p-%d","quantity":%d,"price":%.2f}' % (
                    seq, rng.randrange(1, 50000), rng.randint(1, 4), rng.uniform(1, 400))
            elif k < 0.88:
                name = "purchase"
                items = ",".join('{"sku":"p-%d","qty":%d}' % (rng.randrange(1, 50000), rng.randint(1, 3))
                                 for _ in range(rng.randint(1, 4)))
                data = '{"seq":%d,"order_id":"o-%08x","total":%.2f,"items":[%s]}' % (
                    seq, rng.getrandbits(32), rng.uniform(5, 900), items)
            else:
                name = rng.choice(("app_open", "app_background", "notification_open", "share"))
                data = '{"seq":%d}' % seq
        pairs = []
        if s.typed:
            pairs.append(('"type"', '"screen"' if name == "screen_view" else '"track"'))
        pairs.append(('"brand_id"', str(s.brand)))
        pairs.append(('"session_id"', '"' + s.sid + '"'))
        pairs.append(('"timestamp"', self.timestamp(s, ms)))
        pairs.append(('"event_name"', '"' + name + '"'))
        if consent:
            pairs.append(('"consent"', '"' + consent + '"'))
        pairs.append(('"data"', data))
        self.events += 1
        return self.render(s, pairs)

    @staticmethod
    def render(s, pairs):
        if s.spaced:
            return "{" + ", ".join(k + ": " + v for k, v in pairs) + "}"
        return "{" + ",".join(k + ":" + v for k, v in pairs) + "}"

    def record(self, i):
        """The record of session slot i at its time s.t; then the slot's next time."""
        s = self.sessions[i]
        ms = s.t
        self.move(s, ms)
        if s.next_fix == ms:  # s.t is the earlier of the two; a fix first on a tie
            line = self.fix(s, ms)
            s.next_fix = ms + self.gap_ms(s.fix_gap)
        else:
            line = self.event(s, ms)
            s.next_event = ms + self.event_gap_ms(s.event_mean)
        s.records += 1
        if s.t >= s.end:
            # the session ends; a new one takes the slot a little later
            s = self.sessions[i] = self.new_session(ms + self.rng.randrange(1000, 60_000))
            self.started += 1
        self.schedule(s)
        return line

    def lines(self, count):
        """Yield `count` lines in time order (but for the records --late holds back)."""
        heap = []
        for i, s in enumerate(self.sessions):
            self.schedule(s)
            heap.append((s.t, i))
        heapq.heapify(heap)
        held = []  # (release time, order, line) of the records sent late
        order = 0
        rng = self.rng
        late = self.late
        for _ in range(count):
            t, i = heap[0]
            while held and held[0][0] <= t:
                yield heapq.heappop(held)[2]
            line = self.record(i)
            heapq.heapreplace(heap, (self.sessions[i].t, i))
            if late and rng.random() < late:
                order += 1
                heapq.heappush(held, (t + rng.randrange(1000, 30_000), order, line))
            else:
                yield line
        while held:
            yield heapq.heappop(held)[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lines", type=int, help="number of lines to write")
    ap.add_argument("--sessions", type=int, default=DEFAULT_SESSIONS,
                    help=f"sessions live at once (default: {DEFAULT_SESSIONS})")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default: {DEFAULT_SEED})")
    ap.add_argument("--late", type=float, default=0.0,
                    help="fraction of records sent 1 to 30 s late (default: 0, time order)")
    ap.add_argument("--wide", action="store_true",
                    help="also full-precision floats and spaced JSON (see above)")
    a = ap.parse_args()
    if a.lines < 0 or a.sessions < 1 or not 0.0 <= a.late <= 1.0:
        ap.error("LINES >= 0, --sessions >= 1 and --late in [0, 1] are required")
    print(f"stream_gen: seed {a.seed}, {a.lines} lines, {a.sessions} sessions at once"
          + (f", {a.late:g} of the records late" if a.late else "") + (", wide encodings" if a.wide else ""),
          file=sys.stderr, flush=True)
    gen = Generator(a.seed, a.sessions, a.late, a.wide)
    out = sys.stdout.buffer
    buf = []
    for line in gen.lines(a.lines):
        buf.append(line)
        if len(buf) >= 20000:
            out.write(("\n".join(buf) + "\n").encode("utf-8"))
            buf.clear()
    if buf:
        out.write(("\n".join(buf) + "\n").encode("utf-8"))
    out.flush()
    print(f"stream_gen: {gen.fixes} fixes, {gen.events} events, {gen.started} sessions in all",
          file=sys.stderr)


if __name__ == "__main__":
    main()
