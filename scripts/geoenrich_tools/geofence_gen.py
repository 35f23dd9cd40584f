"""Generated geofences (contract rule 11) and the independent membership reference, shared by
the checks that test fences: scripts/ci/geofence_check.py (`lookup --geofences`) and
scripts/ci/geofence_stream_check.py (`enrich --geofences`, the transitions).

  make_fences    fences clustered in a few cities (one by the antimeridian, one by the north
                 pole): star-shaped polygons of 6-24 vertices from metres to tens of kilometres
                 across, some with a hole, some multipolygons; rectangles whose sides lie on
                 binary fractions of a degree (the geo-enrich grid's lines); circles from 3 m to
                 300 km; a nested pair; ids that are strings (quotes, backslashes, non-ASCII) or
                 integers. Each fence is {"id", "geometry"[, "radius"]}, the geometry as GeoJSON.
  write_file     writes them as a FeatureCollection or as one Feature a line (at random), the
                 id as `id` or as `properties.id` (at random, strings only)
  shapes         shapely geometries of the polygon fences, (centre, radius) of the circles
  memberships    for each point, the ids of the fences holding it, ascending in UTF-8 byte
                 order: shapely's `covers` in the lon/lat plane for polygons, pyproj's WGS84
                 geodesic <= radius_m for circles
  id_order       the sort key of rule 11's order of ids (UTF-8 bytes)

Deterministic for a given random.Random: geofence_check's seeds replay the fences they drew
before this module was split out of it.
"""
import json
import math

import numpy as np
import shapely
from pyproj import Geod
from shapely.geometry import MultiPolygon, Polygon

GEOD = Geod(ellps="WGS84")


def id_order(fence_id):
    """Rule 11's order of fence ids: ascending UTF-8 bytes."""
    return fence_id.encode("utf-8")


def star(rng, lat0, lng0, radius_deg, n, inner=0.5):
    """A star-shaped (so simple) ring of n vertices, closed, as [lng, lat]."""
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    stretch = 1 / max(0.1, math.cos(math.radians(lat0)))
    ring = []
    for a in angles:
        r = radius_deg * rng.uniform(inner, 1)
        ring.append([lng0 + r * math.cos(a) * stretch, max(-90, min(90, lat0 + r * math.sin(a)))])
    ring.append(list(ring[0]))
    if rng.random() < 0.5:
        ring.reverse()
    return ring


def valid_star(rng, lat0, lng0, radius_deg, n, inner=0.5):
    """star(), drawn again until shapely finds the ring valid (the first draw when it is)."""
    while True:
        ring = star(rng, lat0, lng0, radius_deg, n, inner)
        if Polygon(ring).is_valid:
            return ring


def fits(ring):
    return all(-180 <= x <= 180 and -90 <= y <= 90 for x, y in ring)


def make_fences(rng, count):
    """`count` fences (plus a nested pair) in seven clusters; returns the list of fences."""
    return make_fences_and_cities(rng, count)[0]


def make_fences_and_cities(rng, count):
    """make_fences, and the (lat, lng) centres of its clusters (the first holds the nested pair)."""
    cities = [(rng.uniform(-60, 60), rng.uniform(-170, 170)) for _ in range(5)]
    cities.append((rng.uniform(-30, 30), 179.95))   # by the antimeridian
    cities.append((87.5, rng.uniform(-180, 180)))   # by the north pole
    fences = []
    ids = set()

    def new_id():
        while True:
            kind = rng.random()
            if kind < 0.2:
                v = rng.randint(0, 10**9)
                if str(v) not in ids:
                    ids.add(str(v))
                    return v
            else:
                v = rng.choice(["store", "zone", "é", "ü-", 'q"', "b\\s", "日本", "Z", "a"]) + str(rng.randint(0, 10**6))
                if v not in ids:
                    ids.add(v)
                    return v

    while len(fences) < count:
        lat0, lng0 = rng.choice(cities)
        lat0 += rng.gauss(0, 0.05)
        lng0 += rng.gauss(0, 0.05)
        lat0 = max(-89.5, min(89.5, lat0))
        kind = rng.random()
        size_m = 10 ** rng.uniform(0.5, 4.5)                   # 3 m to 30 km
        size_deg = size_m / 111_000
        if kind < 0.35:
            outer = star(rng, lat0, lng0, size_deg, rng.randint(6, 24))
            rings = [outer]
            if rng.random() < 0.3:
                rings.append(star(rng, lat0, lng0, size_deg * 0.3, rng.randint(3, 10), inner=0.6))
            geometry = {"type": "Polygon", "coordinates": rings}
            if rng.random() < 0.15:
                other = star(rng, lat0 + 3 * size_deg, lng0, size_deg * 0.8, rng.randint(6, 12))
                geometry = {"type": "MultiPolygon", "coordinates": [rings, [other]]}
            flat = [p for poly in (geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]) for r in poly for p in r]
            if not fits(flat):
                continue
        elif kind < 0.55:
            # a rectangle with sides on binary fractions of a degree (the grid's lines)
            step = 2.0 ** -rng.randint(6, 14)
            x0 = math.floor(lng0 / step) * step
            y0 = math.floor(lat0 / step) * step
            w, h = step * rng.randint(1, 40), step * rng.randint(1, 40)
            ring = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h], [x0, y0]]
            if not fits(ring):
                continue
            geometry = {"type": "Polygon", "coordinates": [ring]}
        else:
            radius = size_m if rng.random() < 0.95 else rng.uniform(50_000, 300_000)
            lng = max(-180, min(180, lng0))
            geometry = {"type": "Point", "coordinates": [lng, lat0]}
            fences.append({"id": new_id(), "geometry": geometry, "radius": radius})
            continue
        if not shapes([{"geometry": geometry}])[0][1].is_valid:
            continue  # a hole that crosses its shell, parts that touch: not the test's subject
        fences.append({"id": new_id(), "geometry": geometry})
    # a nested pair (each drawn again until valid, as the fences above are checked: a star
    # whose angles leave a gap wider than half a turn can cross itself, one seed in a hundred)
    lat0, lng0 = cities[0]
    big = valid_star(rng, lat0, lng0, 0.05, 16, inner=0.9)
    small = valid_star(rng, lat0, lng0, 0.01, 8)
    fences.append({"id": new_id(), "geometry": {"type": "Polygon", "coordinates": [big]}})
    fences.append({"id": new_id(), "geometry": {"type": "Polygon", "coordinates": [small]}})
    return fences, cities


def feature(rng, f):
    """The GeoJSON Feature of a fence: its id as `id`, or (a string, one time in five) as
    `properties.id`; a circle's radius as `properties.radius_m`."""
    props = {"name": "x"}
    out = {"type": "Feature", "properties": props, "geometry": f["geometry"]}
    if "radius" in f:
        props["radius_m"] = f["radius"]
    if rng.random() < 0.2 and isinstance(f["id"], str):
        props["id"] = f["id"]
    else:
        out["id"] = f["id"]
    return out


def write_file(rng, fences, path, form=None):
    """Writes the fences to `path` as a FeatureCollection or one Feature a line: `form`
    "collection" or "lines", or at random when None."""
    feats = [feature(rng, f) for f in fences]
    with open(path, "w", encoding="utf-8") as fh:
        coin = rng.random()
        if form == "collection" or (form is None and coin < 0.5):
            json.dump({"type": "FeatureCollection", "features": feats}, fh, ensure_ascii=False)
        else:
            for ft in feats:
                fh.write(json.dumps(ft, ensure_ascii=False) + "\n")


def shapes(fences):
    """("polygon", shapely geometry, None) or ("circle", [lng, lat], radius_m) for each fence."""
    out = []
    for f in fences:
        g = f["geometry"]
        if g["type"] == "Point":
            out.append(("circle", g["coordinates"], f["radius"]))
        elif g["type"] == "Polygon":
            out.append(("polygon", Polygon(g["coordinates"][0], g["coordinates"][1:]), None))
        else:
            out.append(("polygon", MultiPolygon([(p[0], p[1:]) for p in g["coordinates"]]), None))
    return out


def memberships(fences, points):
    """For each (lat, lng) of `points`, the ids (as strings) of the fences holding it, in rule
    11's order: shapely `covers` for polygons, pyproj's geodesic <= radius_m for circles."""
    if not points:
        return []
    lats = np.array([p[0] for p in points], dtype=float)
    lngs = np.array([p[1] for p in points], dtype=float)
    geoms = shapely.points(lngs, lats)
    hits = [[] for _ in points]
    for f, (kind, shape, radius) in zip(fences, shapes(fences)):
        if kind == "polygon":
            inside = shapely.covers(shape, geoms)
        else:
            lng0, lat0 = shape
            _, _, dist = GEOD.inv(np.full(len(points), lng0), np.full(len(points), lat0), lngs, lats)
            inside = dist <= radius
        for i in np.nonzero(inside)[0]:
            hits[i].append(str(f["id"]))
    return [sorted(h, key=id_order) for h in hits]
