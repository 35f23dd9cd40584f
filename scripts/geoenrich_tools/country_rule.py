"""The country rule of geo-enrich, as the reference peer applies it, and a reader of countries.bin.

Shared by scripts/data/build_country_data.py, scripts/data/check_country_data.py and
scripts/dev/gen_country_fixture.py.

The rule (CONTRACT.md rule 5, /work/shared/bench/peer_enrich.py class `Countries`): the records
of the Natural Earth 10 m admin-0 shapefile are read with pyshp and turned into shapely
geometries through `__geo_interface__`; a point (lat, lng) is taken planar as x = longitude,
y = latitude and belongs to the lowest-index record whose geometry intersects it (so a point on
a boundary is inside); that record's ISO_A2_EH is the country, `-99` meaning no code. No record:
no country.

`CountryFile` reads data/countries.bin (layout in build_country_data.py) and answers points the
way Sources/GeoLookup/CountryLocator.swift does: coarse tile, quadtree, candidate list.
"""
import math
import struct

import numpy as np
import shapefile  # pyshp
import shapely
from shapely.geometry import shape

NO_RECORD = -1

# Entry encoding of coarse tiles and quadtree children (see build_country_data.py).
EMPTY = 0xFFFFFFFF
KIND_MASK = 0xC0000000
KIND_SOLID = 0x00000000
KIND_NODE = 0x40000000
KIND_LIST = 0x80000000
VALUE_MASK = 0x3FFFFFFF

MAGIC = b"GECNTRY1"
VERSION = 1
RECORD_SIZE = 48
TILE_ROWS, TILE_COLS = 180, 360


def load(shp):
    """(codes, geoms): ISO_A2_EH per record (None for -99) and the shapely geometries, prepared.

    Built exactly as the peer builds them: pyshp shapes through `__geo_interface__`.
    """
    r = shapefile.Reader(shp)
    names = [f[0] for f in r.fields[1:]]
    iso = names.index("ISO_A2_EH")
    codes, geoms = [], []
    for rec, shp_ in zip(r.records(), r.shapes()):
        codes.append(rec[iso] if rec[iso] != "-99" else None)
        geoms.append(shape(shp_.__geo_interface__))
    geoms = np.array(geoms, dtype=object)
    shapely.prepare(geoms)
    r.close()
    return codes, geoms


def shapefile_points(shp):
    """Each record's vertices as the shapefile stores them (float64 array of shape (n, 2))."""
    r = shapefile.Reader(shp)
    out = [np.array(s.points, dtype=np.float64).reshape(-1, 2) for s in r.shapes()]
    r.close()
    return out


class BruteForce:
    """The peer's rule: STRtree on bounding boxes, then the lowest-index record that intersects."""

    def __init__(self, geoms):
        self.geoms = geoms
        self.tree = shapely.STRtree(geoms)

    def records(self, lats, lons):
        """Record index per point (NO_RECORD when none intersects)."""
        lats = np.asarray(lats, dtype=np.float64)
        lons = np.asarray(lons, dtype=np.float64)
        out = np.full(len(lats), NO_RECORD, dtype=np.int64)
        pi, gi = self.tree.query(shapely.points(lons, lats))
        for g in np.unique(gi):  # ascending: the first record to claim a point keeps it
            sel = pi[gi == g]
            sel = sel[out[sel] == NO_RECORD]
            if len(sel):
                hit = sel[shapely.intersects_xy(self.geoms[g], lons[sel], lats[sel])]
                out[hit] = g
        return out


class CountryFile:
    """data/countries.bin, parsed with numpy views; `records` answers points like the Swift reader."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        magic, version, header_size, payload_size, _ = struct.unpack_from("<8sIIQQ", data, 0)
        assert magic == MAGIC and version == VERSION and header_size == 128, "not a countries.bin v1"
        assert payload_size == len(data) - 128, "truncated"
        n_records, n_nodes, n_words, per_degree = struct.unpack_from("<4Q", data, 32)
        assert per_degree == 1
        self.source = data[64:128].rstrip(b"\0").decode()
        p = data[128:]
        off = 0
        self.records_raw = p[off:off + RECORD_SIZE * n_records]
        off += RECORD_SIZE * n_records
        self.tiles = np.frombuffer(p, dtype="<u4", count=TILE_ROWS * TILE_COLS, offset=off)
        off += 4 * TILE_ROWS * TILE_COLS
        lists_bytes = 4 * n_words + (-4 * n_words) % 8
        wkb_size = len(p) - off - 16 * n_nodes - lists_bytes
        self.wkb = p[off:off + wkb_size]
        off += wkb_size
        self.nodes = np.frombuffer(p, dtype="<u4", count=4 * n_nodes, offset=off).reshape(-1, 4)
        off += 16 * n_nodes
        self.lists = np.frombuffer(p, dtype="<u4", count=n_words, offset=off)
        self.codes, self.spans, self.bboxes = [], [], []
        for i in range(n_records):
            code, wkb_off, wkb_len, *bbox = struct.unpack_from("<2s6xII4d", self.records_raw, RECORD_SIZE * i)
            self.codes.append(None if code == b"\0\0" else code.decode("ascii"))
            self.spans.append((wkb_off, wkb_len))
            self.bboxes.append(bbox)
        self.n_records = n_records
        self._geoms = None

    def geometry(self, i):
        o, n = self.spans[i]
        return shapely.from_wkb(self.wkb[o:o + n])

    def geoms(self):
        if self._geoms is None:
            self._geoms = np.array([self.geometry(i) for i in range(self.n_records)], dtype=object)
            shapely.prepare(self._geoms)
        return self._geoms

    def entries(self, lats, lons):
        """(entry, depth) per point: the tile/quadtree entry that answers it, and the quadtree depth."""
        lats = np.asarray(lats, dtype=np.float64)
        lons = np.asarray(lons, dtype=np.float64)
        # floor(lat) + 90 rather than floor(lat + 90): the sum can round up across an integer.
        row = np.clip(np.floor(lats).astype(np.int64) + 90, 0, TILE_ROWS - 1)
        col = np.clip(np.floor(lons).astype(np.int64) + 180, 0, TILE_COLS - 1)
        entry = self.tiles[row * TILE_COLS + col].astype(np.int64)
        min_lat = (row - 90).astype(np.float64)
        min_lng = (col - 180).astype(np.float64)
        size = np.ones(len(lats))
        depth = np.zeros(len(lats), dtype=np.int64)
        while True:
            inner = (entry & KIND_MASK) == KIND_NODE
            if not inner.any():
                break
            size[inner] /= 2
            mid_lat = min_lat + size
            mid_lng = min_lng + size
            north = inner & (lats >= mid_lat)
            east = inner & (lons >= mid_lng)
            min_lat[north] = mid_lat[north]
            min_lng[east] = mid_lng[east]
            child = north.astype(np.int64) * 2 + east.astype(np.int64)
            idx = np.nonzero(inner)[0]
            entry[idx] = self.nodes[entry[idx] & VALUE_MASK, child[idx]]
            depth[idx] += 1
        return entry, depth

    def records(self, lats, lons):
        """(record per point or NO_RECORD, whether it needed a polygon test)."""
        lats = np.asarray(lats, dtype=np.float64)
        lons = np.asarray(lons, dtype=np.float64)
        out = np.full(len(lats), NO_RECORD, dtype=np.int64)
        valid = (np.abs(lats) <= 90) & (np.abs(lons) <= 180)
        entry, _ = self.entries(np.where(valid, lats, 0), np.where(valid, lons, 0))
        entry = np.where(valid, entry, EMPTY)
        solid = (entry & KIND_MASK) == KIND_SOLID
        out[solid] = entry[solid]
        listed = np.nonzero(((entry & KIND_MASK) == KIND_LIST) & (entry != EMPTY))[0]
        geoms = self.geoms()
        for i in listed:
            m = int(entry[i] & VALUE_MASK)
            for r in self.lists[m + 1:m + 1 + int(self.lists[m])]:
                if shapely.intersects_xy(geoms[r], lons[i], lats[i]):
                    out[i] = r
                    break
        needs_test = np.zeros(len(lats), dtype=bool)
        needs_test[listed] = True
        return out, needs_test


# Canadian cities of the benchmark stream (/work/shared/bench/gen_stream.py: name, lat, lng,
# spread in degrees) and the border towns of the tests, for the "points in Canadian cities" figure.
BENCH_CITIES = [
    ("Toronto", 43.6532, -79.3832, 0.15), ("Montreal", 45.5019, -73.5674, 0.12),
    ("Vancouver", 49.2827, -123.1207, 0.10), ("Calgary", 51.0447, -114.0719, 0.12),
    ("Winnipeg", 49.8951, -97.1384, 0.08), ("Halifax", 44.6488, -63.5752, 0.06),
    ("Ottawa", 45.4215, -75.6972, 0.08), ("Edmonton", 53.5461, -113.4938, 0.10),
    ("Quebec", 46.8139, -71.2080, 0.06), ("Regina", 50.4452, -104.6189, 0.05),
    ("StJohns", 47.5615, -52.7126, 0.04), ("Whitehorse", 60.7212, -135.0568, 0.03),
    ("Windsor", 42.3149, -83.0364, 0.06), ("Niagara", 43.0896, -79.0849, 0.06),
    ("SaultSteMarie", 46.5219, -84.3461, 0.05), ("Surrey", 49.1913, -122.8490, 0.08),
]


def city_points(rng, n_per_city):
    """Uniform points in each city's square of ±spread degrees (longitude widened by 1/cos(lat))."""
    lats, lons, names = [], [], []
    for name, lat, lon, spread in BENCH_CITIES:
        lats.append(lat + rng.uniform(-spread, spread, n_per_city))
        lons.append(lon + rng.uniform(-spread, spread, n_per_city) / math.cos(math.radians(lat)))
        names += [name] * n_per_city
    return np.concatenate(lats), np.concatenate(lons), np.array(names)


def world_points(rng, n):
    """Uniform in latitude and longitude (not area): every tile gets points, the poles included."""
    return rng.uniform(-90, 90, n), rng.uniform(-180, 180, n)


def near_edge_points(rng, geoms, n, scales=(1e-3, 1e-5, 1e-7, 1e-9)):
    """Points on and near polygon edges: vertices, points along edges, and small offsets of both."""
    coords = shapely.get_coordinates(geoms)
    k = rng.integers(0, len(coords) - 1, n)
    t = rng.uniform(0, 1, n)
    a, b = coords[k], coords[k + 1]
    along = a + (b - a) * t[:, None]
    which = rng.integers(0, 3, n)
    base = np.where((which == 0)[:, None], a, along)   # a vertex, or a point along an edge
    scale = np.array(scales)[rng.integers(0, len(scales), n)]
    offset = rng.normal(0, 1, (n, 2)) * scale[:, None]
    offset[which == 1] = 0                               # exactly on (as close as doubles get)
    p = base + offset
    lons = np.clip(p[:, 0], -180, 180)
    lats = np.clip(p[:, 1], -90, 90)
    return lats, lons


def grid_line_points(rng, n):
    """Points on the lines of the quadtree (integer and dyadic degrees), where rounding would show."""
    depth = rng.integers(0, 13, n)
    step = 2.0 ** -depth
    lats = np.floor(rng.uniform(-90, 90, n) / step) * step
    lons = np.floor(rng.uniform(-180, 180, n) / step) * step
    free = rng.integers(0, 3, n)  # 0: both on lines, 1: lat free, 2: lng free
    lats = np.where(free == 1, rng.uniform(-90, 90, n), lats)
    lons = np.where(free == 2, rng.uniform(-180, 180, n), lons)
    return lats, lons


def city_line_points(rng, n_per_city, max_depth=11):
    """City points moved onto a dyadic line of the quadtree (depth 0 to max_depth - 1), where it is deep."""
    lats, lons, _ = city_points(rng, n_per_city)
    step = 2.0 ** -rng.integers(0, max_depth, len(lats))
    return np.floor(lats / step) * step, np.floor(lons / step) * step
