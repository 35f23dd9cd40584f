"""The city points of the lookup benchmarks, rebuilt bit for bit in Python.

LookupInputs.cityPoints in Benchmarks/LookupBenchmarks/LookupInputs.swift: points uniform in the
boxes of the Canadian cities of the stream generator (CITIES in /work/shared/bench/gen_stream.py;
centre ± spread degrees of latitude, ± spread / cos(centre latitude) of longitude), a city chosen
uniformly for each, from the same SplitMix64 generator, seed and order of draws; and
LookupInputs.usCityPoints, the same in the boxes of the twelve most populous US cities. The anchors
import it (lookup_peer_anchor.py, lookup_startup.py, timezone_anchor.py) so that they measure the
benchmark's points.
"""
import math

# LookupInputs.seed, the bytes of "geo-enri", XOR the tag of the city set, "cities".
SEED = 0x6765_6F2D_656E_7269
CITIES_TAG = 0x6369_7469_6573_0000
# ... and of the US city set, "uscity".
US_CITIES_TAG = 0x7573_6369_7479_0000
MASK64 = (1 << 64) - 1

# LookupInputs.cities: (name, latitude, longitude, spread in degrees), as gen_stream.py's CITIES.
CITIES = [
    ("Toronto", 43.6532, -79.3832, 0.15), ("Montreal", 45.5019, -73.5674, 0.12),
    ("Vancouver", 49.2827, -123.1207, 0.10), ("Calgary", 51.0447, -114.0719, 0.12),
    ("Winnipeg", 49.8951, -97.1384, 0.08), ("Halifax", 44.6488, -63.5752, 0.06),
    ("Ottawa", 45.4215, -75.6972, 0.08), ("Edmonton", 53.5461, -113.4938, 0.10),
    ("Quebec", 46.8139, -71.2080, 0.06), ("Regina", 50.4452, -104.6189, 0.05),
    ("StJohns", 47.5615, -52.7126, 0.04), ("Whitehorse", 60.7212, -135.0568, 0.03),
]

# LookupInputs.usCities: the twelve most populous US cities (2020 census), the same form.
US_CITIES = [
    ("New York", 40.7128, -74.0060, 0.15), ("Los Angeles", 34.0522, -118.2437, 0.15),
    ("Chicago", 41.8781, -87.6298, 0.12), ("Houston", 29.7604, -95.3698, 0.12),
    ("Phoenix", 33.4484, -112.0740, 0.12), ("Philadelphia", 39.9526, -75.1652, 0.10),
    ("San Antonio", 29.4241, -98.4936, 0.10), ("San Diego", 32.7157, -117.1611, 0.08),
    ("Dallas", 32.7767, -96.7970, 0.12), ("Jacksonville", 30.3322, -81.6557, 0.10),
    ("Austin", 30.2672, -97.7431, 0.08), ("San Jose", 37.3382, -121.8863, 0.08),
]


class SplitMix64:
    """A line-for-line copy of Benchmarks/LookupBenchmarks/SplitMix64.swift."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
        return z ^ (z >> 31)

    def next_unit(self):
        """A float uniform in [0, 1): the top 53 bits scaled by 2**-53."""
        return (self.next() >> 11) * 2.0 ** -53


def city_points(count):
    """The first `count` of LookupInputs.cityPoints, as two lists (latitudes, longitudes) in degrees."""
    return box_points(count, CITIES, CITIES_TAG)


def us_city_points(count):
    """The first `count` of LookupInputs.usCityPoints, as two lists (latitudes, longitudes) in degrees."""
    return box_points(count, US_CITIES, US_CITIES_TAG)


def box_points(count, boxes, tag):
    """Points uniform in `boxes`, a box chosen uniformly for each, from the seed XOR `tag`.

    Three draws per point, as LookupInputs.point(in:using:): the box, then u and v.
    """
    rng = SplitMix64(SEED ^ tag)
    lats, lngs = [], []
    for _ in range(count):
        _, lat, lng, spread = boxes[int(rng.next_unit() * len(boxes))]
        u = rng.next_unit()
        v = rng.next_unit()
        lats.append(lat + (2 * u - 1) * spread)
        lngs.append(lng + (2 * v - 1) * spread / math.cos(lat * (math.pi / 180)))
    return lats, lngs
