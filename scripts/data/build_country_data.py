#!/usr/bin/env python3
"""Build data/countries.bin: which Natural Earth 10 m admin-0 record holds a point.

The rule (scripts/geoenrich_tools/country_rule.py, from the peer's `Countries`): a point (lat, lng), taken planar
as x = longitude, y = latitude, belongs to the lowest-index record of
ne_10m_admin_0_countries_deu.shp whose geometry intersects it (a boundary point is inside); the
country is that record's ISO_A2_EH, none for -99 or when no record intersects the point.

The file answers most points from a grid of 1-degree tiles refined by a quadtree, with no polygon
test; only points in small boxes that a border or coast crosses need one, against the few records
listed for the box, whose geometries the file carries as WKB.

File: the container of scripts/geoenrich_tools/geodata_container.py (128-byte header, then the payload), magic
GECNTRY1, version 1, counts = [R records, N quadtree nodes, W candidate-list words, 1 tile per
degree]. Little-endian throughout. Payload sections, in this order, each starting 8-byte aligned
(zero padding after a section whose size is not a multiple of 8):

  a. records       R x 48 bytes, in shapefile order:
                     0  2  code: ISO_A2_EH as 2 ASCII bytes ("CA"), or 0,0 for -99
                     2  6  zero
                     8  4  wkbOffset (uint32): byte offset of the geometry in section c (8-aligned)
                    12  4  wkbLength (uint32): its length in bytes
                    16 32  bounding box minX, minY, maxX, maxY (float64: min/max lng, min/max lat)
  b. coarse tiles  180 x 360 entries (uint32), row-major: row = floor(lat) + 90 clamped to 0...179,
                   col = floor(lng) + 180 clamped to 0...359; tile (row, col) is the closed box
                   [row - 90, row - 89] x [col - 180, col - 179] degrees.
  c. WKB           each record's geometry as little-endian 2D WKB (Polygon or MultiPolygon, from
                   shapely `to_wkb(byte_order=1)`), coordinates bit-identical to the shapefile's;
                   each starts 8-byte aligned (zero padding between). Its size is what the other
                   sections leave of the payload.
  d. nodes         N x 4 entries (uint32): the children of a subdivided box, index
                   (north << 1) | east, where a point goes north when lat >= the box's middle
                   latitude and east when lng >= its middle longitude. A box's middle is exact
                   in float64 (boxes are dyadic fractions of a degree). A child node's index is
                   always greater than its parent's.
  e. lists         W words (uint32): candidate lists, each `count` followed by `count` record
                   indices, ascending. Identical lists are stored once.

Entry (a coarse tile or a node child), describing its closed box:
  0xFFFFFFFF         no record intersects the box: no country.
  < 0x40000000       solid: the value is the record of every point of the box (the lowest-index
                     record intersecting the box covers the box).
  0x40000000 | n     subdivided: the four children are nodes[n].
  0x80000000 | m     candidate list at lists[m]: the records intersecting the box; a point gets
                     the first of them that intersects it, or none.
Other values with the top bits 11 are invalid.

Boxes are classified with a margin of EPS degrees: a box is empty or solid only when that holds
for the box grown by EPS on each side (clipped to the world), so that GEOS's exact point tests,
which the reader relies on, can never disagree with the classification at the box's edges.
How: the records whose boundary segments touch the grown box (an STRtree of all segments) are
"touched"; every other candidate record lies wholly inside or wholly outside the grown box, which
one test of the box centre decides.

Subdivision stops at a depth that depends on where the box is (see GLOBAL_DEPTH, BAND_DEPTH,
CITY_DEPTH): shallow over the world,
deeper over southern Canada and the US border, deepest around Canadian cities, so that most
points where the product's users are need no polygon test while the quadtree stays small.

usage: PYTHONPATH=scripts python3 scripts/data/build_country_data.py --shp PATH/ne_10m_admin_0_countries_deu.shp --out data/countries.bin
Output is deterministic: the same shapefile gives the same bytes.
"""
import argparse
import os
import struct
import sys
import time

import numpy as np
import shapely

from geoenrich_tools import country_rule as rule
from geoenrich_tools import geodata_container

SOURCE = "Natural Earth 10m admin-0 v5.1.1 (public domain)"
EPS = 2.0 ** -30  # degrees (about 0.1 mm): the classification margin, exact in float64

# Maximum quadtree depth by area (depth 0 is the 1-degree tile; a depth-d box is 2^-d degrees on a
# side). A box may go as deep as the deepest area its closed box touches. The depths trade file
# size for the share of points that need a polygon test; with these, the quadtree and lists take
# about 2.9 MB and about 1% of points in Canadian cities need a test (2% of the Canadian postal-code
# centroids, 5% of uniform points over the world). Run check_country_data.py for the figures.
GLOBAL_DEPTH = 2   # 1/4 degree: about 28 km
BAND = ("southern Canada and the US border", 41.5, -141.0, 57.0, -52.0)  # min lat, min lng, max lat, max lng
BAND_DEPTH = 6     # 1/64 degree: about 1.7 km
CITY_DEPTH = 10    # 1/1024 degree: about 110 m north-south, 75 m east-west at 45 N
# Cities: Canada's census metropolitan areas and the border towns, each the box of +-CITY_HALF_LAT
# by +-CITY_HALF_LNG degrees (about 100 km square) around an approximate centre; the centres only
# steer where the tree is finer, never an answer.
CITY_HALF_LAT, CITY_HALF_LNG = 0.45, 0.65
CITIES = [
    ("Toronto", 43.70, -79.42), ("Montreal", 45.50, -73.57), ("Vancouver", 49.25, -123.10),
    ("Calgary", 51.05, -114.07), ("Edmonton", 53.55, -113.49), ("Ottawa", 45.42, -75.70),
    ("Winnipeg", 49.90, -97.14), ("Quebec", 46.81, -71.21), ("Hamilton", 43.26, -79.87),
    ("Kitchener", 43.45, -80.49), ("London", 42.98, -81.25), ("Halifax", 44.65, -63.57),
    ("St. Catharines-Niagara", 43.10, -79.15), ("Windsor", 42.30, -83.02),
    ("Oshawa", 43.90, -78.86), ("Victoria", 48.43, -123.37), ("Saskatoon", 52.13, -106.67),
    ("Regina", 50.45, -104.61), ("Sherbrooke", 45.40, -71.89), ("St. John's", 47.56, -52.71),
    ("Barrie", 44.39, -79.69), ("Kelowna", 49.89, -119.50), ("Abbotsford", 49.05, -122.33),
    ("Kingston", 44.23, -76.49), ("Sudbury", 46.49, -80.99), ("Saguenay", 48.43, -71.07),
    ("Trois-Rivieres", 46.35, -72.55), ("Guelph", 43.55, -80.25), ("Moncton", 46.09, -64.78),
    ("Saint John", 45.27, -66.06), ("Thunder Bay", 48.38, -89.25), ("Peterborough", 44.30, -78.32),
    ("Nanaimo", 49.17, -123.94), ("Sarnia", 42.97, -82.40), ("Sault Ste. Marie", 46.52, -84.33),
    ("Charlottetown", 46.24, -63.13), ("Fredericton", 45.96, -66.64), ("Cornwall", 45.02, -74.73),
    ("Whitehorse", 60.72, -135.06), ("Yellowknife", 62.45, -114.37), ("Iqaluit", 63.75, -68.52),
    ("Surrey-Blaine", 49.05, -122.75), ("Sydney NS", 46.14, -60.19), ("Prince Rupert", 54.31, -130.32),
]


def focus_areas(global_depth, band_depth, city_depth, half_lat, half_lng):
    """(name, min lat, min lng, max lat, max lng, depth) of the world, the band and each city."""
    areas = [("world", -90.0, -180.0, 90.0, 180.0, global_depth), BAND + (band_depth,)]
    areas += [(n, lat - half_lat, lng - half_lng, lat + half_lat, lng + half_lng, city_depth)
              for n, lat, lng in CITIES]
    return areas


def max_depths(min_lat, min_lng, size, areas):
    """The depth each box may reach: the deepest focus area its closed box touches."""
    out = np.zeros(len(min_lat), dtype=np.int64)
    for _, a0, b0, a1, b1, depth in areas:
        touch = (min_lat <= a1) & (min_lat + size >= a0) & (min_lng <= b1) & (min_lng + size >= b0)
        out[touch] = np.maximum(out[touch], depth)
    return out


def boundary_segments(geoms):
    """Every edge of every ring, as 2-point LineStrings, and the record it belongs to."""
    parts, part_rec = shapely.get_parts(geoms, return_index=True)
    rings, ring_part = shapely.get_rings(parts, return_index=True)
    coords, coord_ring = shapely.get_coordinates(rings, return_index=True)
    same = coord_ring[:-1] == coord_ring[1:]
    a, b = coords[:-1][same], coords[1:][same]
    rec = part_rec[ring_part[coord_ring[:-1][same]]]
    keep = np.any(a != b, axis=1)  # a repeated vertex adds nothing: its neighbours cover it
    segs = shapely.linestrings(np.stack([a[keep], b[keep]], axis=1))
    return segs, rec[keep]


def build_index(geoms, areas, log):
    """(tiles, nodes, lists, stats): the tile grid, quadtree and candidate lists."""
    n_rec = len(geoms)
    segs, seg_rec = boundary_segments(geoms)
    seg_tree = shapely.STRtree(segs)
    log(f"  {len(segs):,} boundary segments indexed")

    tiles = np.zeros(rule.TILE_ROWS * rule.TILE_COLS, dtype=np.uint32)
    nodes = []           # per level: uint32 array (k, 4)
    n_nodes = 0
    lists = []           # uint32 words
    list_at = {}         # tuple of records -> offset, so identical lists are stored once
    stats = {"empty": 0, "solid": 0, "list": 0, "list_records": 0, "leaf_depths": {}}

    # Level 0: the tiles, in row-major order; candidates are the records whose bounding box meets
    # the grown tile.
    row, col = np.divmod(np.arange(rule.TILE_ROWS * rule.TILE_COLS, dtype=np.int64), rule.TILE_COLS)
    min_lat = (row - 90).astype(np.float64)
    min_lng = (col - 180).astype(np.float64)
    depth = 0
    slot = ("tile", np.arange(len(row)))
    grown = grown_boxes(min_lat, min_lng, 1.0)
    bi, ri = shapely.STRtree(geoms).query(grown)
    cand = np.unique(bi * n_rec + ri)

    while len(min_lat):
        t0 = time.time()
        size = 2.0 ** -depth
        nb = len(min_lat)
        grown = grown_boxes(min_lat, min_lng, size)
        bi, si = seg_tree.query(grown, predicate="intersects")
        touched = np.unique(bi * n_rec + seg_rec[si])
        assert np.isin(touched, cand).all(), "a touched record was not a candidate"
        untouched = cand[~np.isin(cand, touched)]
        ub, ur = np.divmod(untouched, n_rec)
        centre_lat = min_lat + size / 2
        centre_lng = min_lng + size / 2
        inside = np.zeros(len(untouched), dtype=bool)
        for r in np.unique(ur):
            m = ur == r
            inside[m] = shapely.intersects_xy(geoms[r], centre_lng[ub[m]], centre_lat[ub[m]])
        covering = untouched[inside]
        hits = np.union1d(touched, covering)           # (box, record) pairs that intersect
        hb, hr = np.divmod(hits, n_rec)
        first = np.searchsorted(hb, np.arange(nb))
        has = first < len(hb)
        has[has] = hb[first[has]] == np.nonzero(has)[0]
        lowest = np.full(nb, -1, dtype=np.int64)
        lowest[has] = hr[first[has]]
        solid = has & np.isin(np.arange(nb) * n_rec + lowest, covering)
        mixed = has & ~solid
        deeper = mixed & (depth < max_depths(min_lat, min_lng, size, areas))
        leaf = mixed & ~deeper

        entry = np.full(nb, rule.EMPTY, dtype=np.uint32)
        entry[solid] = lowest[solid]
        sub = np.nonzero(deeper)[0]
        entry[sub] = rule.KIND_NODE | (n_nodes + np.arange(len(sub)))
        leaves = np.nonzero(leaf)[0]
        start = np.searchsorted(hb, leaves)
        stop = np.searchsorted(hb, leaves, side="right")
        for k, a, b in zip(leaves, start, stop):
            recs = tuple(int(x) for x in hr[a:b])
            at = list_at.get(recs)
            if at is None:
                at = list_at[recs] = len(lists)
                lists.append(len(recs))
                lists.extend(recs)
            entry[k] = rule.KIND_LIST | at
            stats["list_records"] += len(recs)
        stats["empty"] += int((~has).sum())
        stats["solid"] += int(solid.sum())
        stats["list"] += len(leaves)
        if len(leaves):
            stats["leaf_depths"][depth] = len(leaves)

        if slot[0] == "tile":
            tiles[slot[1]] = entry
        else:
            nodes[-1].reshape(-1)[slot[1]] = entry
        log(f"  depth {depth:2d}: {nb:9,} boxes, {int((~has).sum()):9,} empty, {int(solid.sum()):9,} solid, "
            f"{len(leaves):8,} listed, {len(sub):8,} subdivided ({time.time() - t0:.1f} s)")

        # Children of the subdivided boxes, ordered by (node, child): child c = (north << 1) | east.
        if len(sub) == 0:
            break
        nodes.append(np.zeros((len(sub), 4), dtype=np.uint32))
        half = size / 2
        c = np.arange(4)
        north, east = c >> 1, c & 1
        min_lat = (min_lat[sub][:, None] + north[None, :] * half).reshape(-1)
        min_lng = (min_lng[sub][:, None] + east[None, :] * half).reshape(-1)
        slot = ("node", np.arange(4 * len(sub)))
        # Candidates of a child: the records that intersect its parent.
        rank = np.full(nb, -1, dtype=np.int64)
        rank[sub] = np.arange(len(sub))
        keep = rank[hb] >= 0
        pb, pr = rank[hb[keep]], hr[keep]
        cand = np.sort(((4 * pb[:, None] + c[None, :]) * n_rec + pr[:, None]).reshape(-1))
        n_nodes += len(sub)
        depth += 1

    nodes = np.concatenate(nodes) if nodes else np.zeros((0, 4), dtype=np.uint32)
    assert len(nodes) == n_nodes and n_nodes < rule.VALUE_MASK and len(lists) < rule.VALUE_MASK
    return tiles, nodes, np.array(lists, dtype=np.uint32), stats


def grown_boxes(min_lat, min_lng, size):
    """The boxes grown by EPS on each side, clipped to the world (points outside are never asked)."""
    return shapely.box(np.maximum(min_lng - EPS, -180), np.maximum(min_lat - EPS, -90),
                       np.minimum(min_lng + size + EPS, 180), np.minimum(min_lat + size + EPS, 90))


def records_and_wkb(codes, geoms, shp):
    """Sections a and c, checking that the WKB carries the shapefile's coordinates bit for bit."""
    shp_points = rule.shapefile_points(shp)
    records = bytearray()
    blob = bytearray()
    for i, (code, g) in enumerate(zip(codes, geoms)):
        wkb = shapely.to_wkb(g, byte_order=1, output_dimension=2)
        back = shapely.get_coordinates(shapely.from_wkb(wkb))
        theirs = shp_points[i]
        assert len(back) == len(theirs) and np.array_equal(
            np.sort(back.view(np.uint64), axis=0), np.sort(theirs.view(np.uint64), axis=0)), \
            f"record {i}: WKB coordinates differ from the shapefile's"
        blob += b"\0" * (-len(blob) % 8)
        offset = len(blob)
        blob += wkb
        c = b"\0\0" if code is None else code.encode("ascii")
        assert len(c) == 2 and (code is None or c.isalpha() and c.isupper()), f"record {i}: code {code!r}"
        records += struct.pack("<2s6xII4d", c, offset, len(wkb), *shapely.bounds(g))
    return bytes(records), bytes(blob)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shp", required=True, help="ne_10m_admin_0_countries_deu.shp (Natural Earth v5.1.1)")
    ap.add_argument("--out", required=True, help="output file, e.g. data/countries.bin")
    ap.add_argument("--global-depth", type=int, default=GLOBAL_DEPTH, help="quadtree depth elsewhere")
    ap.add_argument("--band-depth", type=int, default=BAND_DEPTH, help="quadtree depth over the Canadian band")
    ap.add_argument("--city-depth", type=int, default=CITY_DEPTH, help="quadtree depth around cities")
    ap.add_argument("--city-half", type=float, nargs=2, default=(CITY_HALF_LAT, CITY_HALF_LNG),
                    help="half height and half width of a city's box, degrees")
    a = ap.parse_args()

    def log(msg):
        print(msg, flush=True)

    t0 = time.time()
    codes, geoms = rule.load(a.shp)
    log(f"loaded {len(geoms)} records, {len(shapely.get_coordinates(geoms)):,} vertices ({time.time() - t0:.1f} s)")
    t1 = time.time()
    records, blob = records_and_wkb(codes, geoms, a.shp)
    log(f"WKB: {len(blob):,} bytes ({time.time() - t1:.1f} s)")
    t1 = time.time()
    tiles, nodes, lists, stats = build_index(geoms, focus_areas(a.global_depth, a.band_depth, a.city_depth, *a.city_half), log)
    log(f"quadtree: {len(nodes):,} nodes ({16 * len(nodes):,} bytes), {len(lists):,} list words "
        f"({4 * len(lists):,} bytes, {stats['list']:,} listed boxes, "
        f"{stats['list_records'] / max(stats['list'], 1):.2f} records per list) ({time.time() - t1:.1f} s)")
    log(f"  leaves: {stats['empty']:,} empty, {stats['solid']:,} solid, {stats['list']:,} listed; "
        f"listed by depth {dict(sorted(stats['leaf_depths'].items()))}")
    size = geodata_container.write(
        a.out, rule.MAGIC, rule.VERSION, [len(geoms), len(nodes), len(lists), 1], SOURCE,
        [records, tiles.astype("<u4"), blob, nodes.astype("<u4"), lists.astype("<u4")])
    log(f"wrote {a.out}: {size:,} bytes (records {len(records):,}, tiles {4 * len(tiles):,}, WKB {len(blob):,}, "
        f"nodes {16 * len(nodes):,}, lists {4 * len(lists):,}) in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
