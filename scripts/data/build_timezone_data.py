#!/usr/bin/env python3
"""Build data/timezones.bin: the time zone of a point as PyPI `timezonefinder==9.0.0`
`TimezoneFinder().timezone_at(lng=, lat=)` answers it, bit for bit, with its data package
`timezonefinder-data==3.2026.3.post1` (timezone-boundary-builder release 2026c, ODbL 1.0).

The algorithm is scripts/dev/timezones/SPEC.md; in short: the H3 resolution-4 cell of the point
(from the float degrees) names either one zone (the answer, untested) or a candidate list of
boundary polygons; those before the list's stop index are tested in order with the point as
integers trunc(degrees * 1e7) (even-odd ray casting east, exact integer rules, holes), the first
that contains it wins, else the zone of the LAST candidate, untested.

Input: the installed packages, read with their own loaders (TimezoneFinder(in_memory=True): its
PolygonArray, HoleArray, hole registry and ShortcutIndex), as scripts/dev/timezones/export_tz.py
does. Nothing is taken from the packages' code: the structures below are our own.

What is stored, and why it is small (the 7.9 M vertices take 63 MB raw; the file is 21.2 MB)
-----------------------------------------------------------------------------------------
Every boundary coordinate is a multiple of 10 in 1e-7 degree units (the source has 6 decimals),
so vertices are stored in 1e-6 degree units and multiplied by 10 when read. Neighbouring zones
share their borders: of the 7.9 M ring edges only 4.1 M are distinct. The parity of the ray
casting does not depend on the order or direction of a ring's edges (the flip rule of an edge is
symmetric in its two ends: "min(y1, y2) < y <= max(y1, y2) and x <= the edge's x at height y"),
so each ring is cut into chains where the set of rings using its edges changes, every distinct
chain is stored once, and a ring is the list of its chains' blocks. A chain is cut into blocks of
at most 128 edges; a block stores its first vertex in full and each next vertex as the zigzag
varint differences (dx, dy) from the previous one (1.8 bytes a coordinate on average). A block's
header gives its exact y range and x range: a block whose y range does not hold the query's y, or
whose largest x is below the query's x, has no edge that can flip the parity and is skipped
unread. A ring's block list is cut into groups of GROUP_BLOCKS (16) with the union of their
ranges, so a test skips sixteen blocks on one header (near borders a test read 342 block headers
on average without groups, 59 with). Holes that are another boundary polygon's ring (729 of 756)
name that ring.

The acceleration tree (optional for exactness, decisive for speed)
------------------------------------------------------------------
A grid of 1-degree tiles, refined by a quadtree, answers most points without H3 and without any
polygon test. An entry of a box says "zone z" only when that is provably the answer for every
point of the closed box:
  * S = every resolution-4 cell that can hold a point of the box: the union of h3 4.5.0
    polygon_to_cells_experimental(box enlarged by MARGIN degrees, 4, contain="overlap") and of
    the cells whose boundary (cell_to_boundary, as a plane polygon in degrees) meets the enlarged
    box. A cell's edges are great-circle arcs; the straight line between the same corners in
    degrees lies within theta^2/8 * tan(lat) radians of an arc of theta radians, under 1.2e-3
    degree for res-4 edges (under 35 km) below 80 degrees of latitude. MARGIN (0.01 degree) is
    eight times that, so a cell that holds a point of the box always meets the enlarged box
    (either way of finding it: the union is kept, and the count of cells only the plane test
    found is printed).
  * Every cell of S answers z on the box: a single-zone cell of zone z, or a candidate list whose
    result is z for every integer point of the box's integer rectangle R (every trunc(deg * 1e7)
    a point of the box can give, plus a slack of 10 units). For that, each tested candidate is
    classified on R: "out" when R misses its stored bounding box; else, when neither the
    polygon's ring nor any of its holes' rings meets R (shapely/GEOS intersects, exact on these
    integer coordinates), every point of R lies in one face of the arrangement and the
    package's own test at R's centre (TimezoneFinder.inside_of_polygon) gives "in" or "out" for
    all of R; else "mixed", and the box is not answered.
Boxes whose cells are all single-zone but of several zones are left to the H3 path (one cell
lookup); boxes that meet a candidate list are split down to MAX_DEPTH levels below the tiles.
Tiles within 3 degrees of the antimeridian or beyond 80 degrees of latitude are left to the H3
path (there, res-4 cells can span the antimeridian or hold a pole).

Output (geo-enrich container, see scripts/geoenrich_tools/geodata_container.py): magic GETZONE1,
version 1, counts = [zones Z, boundary polygons P, holes H, rings G], source
"timezonefinder 9.0.0 data 2026c (ODbL 1.0)". Units: x = longitude, y = latitude, in 1e-7
degree (int32) unless said otherwise. Payload sections, in order, each padded to 8 bytes:

  params        uint32 x 16   Z, P, H, G, NB (blocks), RB (ring block references), ED (edge
                              data bytes), NL (candidate lists), LP (list entries), NN (tree
                              nodes), NAMEB (name bytes), SLOTS (122 * 7^4 = 292,922), H3
                              resolution (4), tiles per degree (1), MAX_DEPTH, NG (groups)
  nameStart     uint32 x Z+1  zone z's name is nameBytes[nameStart[z] ..< nameStart[z + 1]]
  nameBytes     uint8 x NAMEB IANA names, UTF-8 (ASCII), zone id order = timezone_names.txt
  polygonZone   uint16 x P    zone of boundary polygon p (non-decreasing)
  polygonBox    int32 x 4P    xmin, xmax, ymin, ymax as the package stores them (its strict
                              bounding-box precheck: outside when x > xmax, x < xmin, ...)
  polygonHoles  uint32 x 2P   first hole, hole count (hole_registry.json; 0, 0 when none)
  holeUnion     int32 x 4P    x0, x1, y0, y1: the union of p's holes' boxes, inclusive (the
                              package's prefilter); x0 = 1800000001 when p has no hole
  holeRing      uint32 x H    the ring of hole h: a boundary polygon id (< P) or P + i for the
                              i-th inline hole ring
  holeBox       int32 x 4H    xmin, xmax, ymin, ymax of hole h as stored (strict precheck)
  ringGroups    uint32 x G+1  ring r's groups are groups[ringGroups[r] ..< ringGroups[r + 1]];
                              rings 0..P-1 are the boundary polygons, P.. the inline holes
  groups        int32 x 4(NG+1)  per group: ymin, ymax, xmax (the union of its blocks' ranges),
                              first: its blocks are ringBlocks[first ..< the next group's first]
                              (groups are in ring order; a last, empty group has first = RB)
  ringBlocks    uint32 x RB   block ids, ring by ring (a block shared by two rings is listed by both)
  blocks        int32 x 8NB   per block: ymin, ymax, xmin, xmax (exact extents of its vertices),
                              x0, y0 (its first vertex, 1e-6 degree), dataStart, dataEnd (its
                              bytes in edgeData: n varint pairs, n >= 1, for the n edges
                              v0-v1, ..., v(n-1)-vn; vertex k+1 = vertex k + (dx, dy))
  edgeData      uint8 x ED    zigzag LEB128 varints (7 bits a byte, low first; zigzag:
                              0, -1, 1, -2 -> 0, 1, 2, 3), 1e-6 degree units
  slots         uint16 x SLOTS  the shortcut of every res-4 cell, at slot
                              base cell * 2401 + d1 * 343 + d2 * 49 + d3 * 7 + d4 (its index
                              digits 1..4): a zone id (< 0x8000), 0x8000 | candidate list, or
                              0xFFFF for the 4,800 slots no cell has (pentagons' deleted
                              k-axes sub-sequences)
  listStart     uint32 x NL+1 candidates of list l are listPolygons[listStart[l] ..< listStart[l+1]]
  listStop      uint16 x NL   test candidates i < stop; then answer the last one's zone
  listPolygons  uint16 x LP   boundary polygon ids in the package's test order
  tiles         uint32 x 64800 one entry per 1-degree tile, row-major from (-90, -180): row =
                              floor(lat) + 90, column = floor(lng) + 180, clamped to 179 / 359
  nodes         uint32 x 4NN  four child entries per split box, child = (north << 1) | east; a
                              point goes north when lat >= the box's middle latitude, east when
                              lng >= its middle longitude
An entry: a zone id (< 0x40000000): the answer for every point of the box; 0x40000000 | n: split
into the children of node n (n greater than its parent's node); 0xFFFFFFFF: look the H3 cell up.

The builder checks its output: every block decodes back to the rings' edges (as a multiset per
ring), every cell's entry and list equals the package's, and random points in every answered box
(and uniform, US and near-vertex points) get the package's own timezone_at answer. The output is
the same bytes every run.

usage: build_timezone_data.py --out data/timezones.bin --swift-names Sources/GeoModel/TimeZoneNames.swift
"""
import argparse
import sys
import time
from collections import Counter

import numpy as np

from geoenrich_tools import geodata_container

TIMEZONEFINDER_VERSION = "9.0.0"
DATA_PACKAGE_VERSION = "3.2026.3.post1"
H3_VERSION = "4.5.0"

MAGIC = b"GETZONE1"
VERSION = 1
BLOCK_EDGES = 128          # edges per block at most (any size gives the same answers)
H3_RES = 4
SLOT_COUNT = 122 * 7 ** 4  # base cell, then four base-7 digits
SLOT_EMPTY = 0xFFFF
SLOT_LIST = 0x8000
ENTRY_NODE = 0x4000_0000
ENTRY_CELL = 0xFFFF_FFFF   # "look the H3 cell up"
MARGIN = 0.01              # degrees added around a box when finding the cells that can hold its points
RECT_SLACK = 10            # 1e-7 degree units added around a box's integer rectangle
GROUP_BLOCKS = 16          # blocks a group header covers
MAX_DEPTH = 4              # quadtree levels below the 1-degree tiles (1/16 degree boxes; 5 made the file 25.4 MB)
TREE_LAT_LIMIT = 80        # tiles beyond this latitude go to the H3 path
TREE_LNG_LIMIT = 177       # and tiles beyond this longitude
NEVER_INSIDE = 1_800_000_001


def log(*a):
    print("build_timezone_data:", *a, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------ input --
class Source:
    """Everything the lookup needs, read from the installed packages with their own loaders."""

    def __init__(self):
        import h3
        import timezonefinder
        import timezonefinder_data
        from timezonefinder import TimezoneFinder
        from timezonefinder.configs import COORD2INT_FACTOR, SHORTCUT_H3_RES

        for name, have, want in (("timezonefinder", timezonefinder.__version__, TIMEZONEFINDER_VERSION),
                                 ("timezonefinder-data", timezonefinder_data.__version__, DATA_PACKAGE_VERSION),
                                 ("h3", h3.__version__, H3_VERSION)):
            if have != want:
                raise SystemExit(f"{name} {have} is installed; the data is built from {name}=={want}")
        assert SHORTCUT_H3_RES == H3_RES and COORD2INT_FACTOR == 10 ** 7
        tf = TimezoneFinder(in_memory=True)
        self.tf = tf
        self.data_version = str(tf.data_version)
        B, Hc = tf.boundaries, tf.holes
        self.names = [str(n) for n in tf.timezone_names]
        Z, P, H = len(self.names), len(B), len(Hc)
        self.poly_zone = np.asarray(tf.zone_ids, dtype=np.int64)
        assert len(self.poly_zone) == P and np.all(np.diff(self.poly_zone) >= 0) and self.poly_zone.max() < Z
        self.rings = [np.asarray(B.coords_of(p)).astype(np.int64) for p in range(P)]
        self.poly_box = np.stack([B.xmin, B.xmax, B.ymin, B.ymax], axis=1).astype(np.int64)
        # holes: owner polygons from the registry {polygon: [count, first hole]}
        self.hole_first = np.zeros(P, dtype=np.int64)
        self.hole_count = np.zeros(P, dtype=np.int64)
        owner = np.full(H, -1)
        for p, (count, first) in sorted(tf.hole_registry.items()):
            self.hole_first[p], self.hole_count[p] = first, count
            assert np.all(owner[first:first + count] == -1)
            owner[first:first + count] = p
        assert np.all(owner >= 0), "every hole has one owner"
        self.hole_owner = owner
        self.hole_ref = np.asarray(Hc.poly_ref, dtype=np.int64)
        self.hole_box = np.stack([Hc.xmin, Hc.xmax, Hc.ymin, Hc.ymax], axis=1).astype(np.int64)
        self.hole_rings = [np.asarray(Hc.coords_of(h)).astype(np.int64) for h in range(H)]
        x0, x1, y0, y1 = Hc.union_bounds
        self.hole_union = np.stack([x0, x1, y0, y1], axis=1).astype(np.int64)
        # the shortcut of every res-4 cell
        from h3.api import basic_int as h3i
        from timezonefinder.shortcut_index import ABSENT
        sc = tf.shortcuts
        self.cells = sorted(c for r0 in h3i.get_res0_cells() for c in h3i.cell_to_children(r0, H3_RES))
        assert len(self.cells) == h3i.get_num_cells(H3_RES)
        entries = [int(sc.entry_of(c)) for c in self.cells]
        assert ABSENT not in entries, "every res-4 cell has an entry"
        used = sorted({-(e + 2) for e in entries if e < 0})
        dense = {e: i for i, e in enumerate(used)}
        self.lists = []  # (polygon ids in test order, stop)
        for e in used:
            polys = [int(p) for p in sc.polygons_of_entry(e)]
            stop = int(sc.last_change[e])
            assert 1 <= stop < len(polys)
            # the package's invariant: the polygons from stop on are all of the last zone
            assert len({int(self.poly_zone[p]) for p in polys[stop:]}) == 1
            assert self.poly_zone[polys[stop - 1]] != self.poly_zone[polys[-1]]
            self.lists.append((polys, stop))
        # cell -> zone id (>= 0) or -(list + 1)
        self.cell_entry = {c: (e if e >= 0 else -(dense[-(e + 2)] + 1)) for c, e in zip(self.cells, entries)}
        self.check()

    def check(self):
        """The properties the format and the tree's proofs rely on."""
        for p, r in enumerate(self.rings):
            assert r.shape[0] == 2 and r.shape[1] >= 3
            assert np.all(r % 10 == 0), f"polygon {p}: a coordinate is not a multiple of 1e-6 degree"
            # the stored boxes contain the ring: their prechecks are pure shortcuts
            bx = self.poly_box[p]
            assert bx[0] <= r[0].min() and r[0].max() <= bx[1] and bx[2] <= r[1].min() and r[1].max() <= bx[3]
        for h, r in enumerate(self.hole_rings):
            assert np.all(r % 10 == 0)
            bx = self.hole_box[h]
            assert bx[0] <= r[0].min() and r[0].max() <= bx[1] and bx[2] <= r[1].min() and r[1].max() <= bx[3]
            u = self.hole_union[self.hole_owner[h]]
            assert u[0] <= bx[0] and bx[1] <= u[1] and u[2] <= bx[2] and bx[3] <= u[3]
            if self.hole_ref[h] >= 0:
                assert np.array_equal(r, self.rings[self.hole_ref[h]])
        assert np.all(self.hole_union[self.hole_count == 0, 0] == NEVER_INSIDE)


# ----------------------------------------------------------------------- rings into blocks --
def point_keys(xs, ys):
    """One int64 per vertex in 1e-6 degree units (|x| <= 1.8e8 < 2^28, |y| <= 9e7 < 2^27):
    equal keys, equal vertices; ordered by x, then y."""
    assert np.all(np.abs(xs) <= 180_000_000) and np.all(np.abs(ys) <= 90_000_000)
    return ((xs + 180_000_000) << 28) | (ys + 90_000_000)


def key_x(k):
    return (k >> 28) - 180_000_000


def key_y(k):
    return (k & ((1 << 28) - 1)) - 90_000_000


def splitmix(z):
    """SplitMix64's finaliser, vectorised (wrapping uint64): a fixed hash of a ring id."""
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def chains_of(rings):
    """Cuts every ring (open: the closing edge is implied) into chains of edges that the same
    rings use, and stores each distinct chain once. Returns the chains (vertex-key arrays, each
    in one canonical direction) and, per ring, its chain ids: the union of a ring's chains'
    edges is exactly its edges (whatever is merged or not, only equal sequences are shared)."""
    lens = np.array([r.shape[1] for r in rings])
    off = np.concatenate([[0], np.cumsum(lens)])
    keys = point_keys(np.concatenate([r[0] for r in rings]) // 10, np.concatenate([r[1] for r in rings]) // 10)
    n = len(keys)
    ring_of = np.repeat(np.arange(len(rings)), lens)
    nxt = np.arange(1, n + 1)
    nxt[off[1:] - 1] = off[:-1]
    lo, hi = np.minimum(keys, keys[nxt]), np.maximum(keys, keys[nxt])
    order = np.lexsort((hi, lo))
    new = np.ones(n, bool)
    new[1:] = (lo[order][1:] != lo[order][:-1]) | (hi[order][1:] != hi[order][:-1])
    edge_id = np.empty(n, np.int64)
    edge_id[order] = np.cumsum(new) - 1
    # which rings use an edge, as a sum of their hashes (a collision only merges less)
    users = np.zeros(int(edge_id.max()) + 1, np.uint64)
    with np.errstate(over="ignore"):
        np.add.at(users, edge_id, splitmix(ring_of.astype(np.uint64)))
    signature = users[edge_id]
    chains, ids, ring_chains = [], {}, []
    for r in range(len(rings)):
        s, k = signature[off[r]:off[r + 1]], keys[off[r]:off[r + 1]]
        cuts = np.flatnonzero(s != np.roll(s, 1))
        if len(cuts) == 0:
            # a ring no other ring shares a part of: one closed chain from its smallest vertex
            i = int(np.argmin(k))
            kk = np.roll(k, -i)
            segments = [np.append(kk, kk[0])]
        else:
            kk = np.append(np.roll(k, -int(cuts[0])), k[cuts[0]])
            bounds = list(cuts - cuts[0]) + [len(k)]
            segments = [kk[bounds[j]:bounds[j + 1] + 1] for j in range(len(cuts))]
        mine = []
        for seg in segments:
            # one direction for both rings that share it
            if seg[0] > seg[-1] or (seg[0] == seg[-1] and len(seg) > 2 and seg[1] > seg[-2]):
                seg = seg[::-1]
            token = seg.tobytes()
            c = ids.get(token)
            if c is None:
                c = ids[token] = len(chains)
                chains.append(np.ascontiguousarray(seg))
            mine.append(c)
        ring_chains.append(mine)
    return chains, ring_chains


def zigzag_varints(values):
    """LEB128 bytes of zigzag-coded int64 values, vectorised."""
    z = np.where(values >= 0, values << 1, ((-values) << 1) - 1).astype(np.uint64)
    nbytes = np.ones(len(z), np.int64)
    for k in (7, 14, 21, 28, 35, 42, 49, 56, 63):
        nbytes += z >= np.uint64(1 << k) if k < 63 else z >= np.uint64(1 << 63)
    start = np.concatenate([[0], np.cumsum(nbytes)[:-1]])
    out = np.zeros(int(nbytes.sum()), np.uint8)
    for i in range(int(nbytes.max())):
        sel = nbytes > i
        byte = (z[sel] >> np.uint64(7 * i)) & np.uint64(0x7F)
        more = (nbytes[sel] > i + 1).astype(np.uint64) << np.uint64(7)
        out[start[sel] + i] = (byte | more).astype(np.uint8)
    return out, nbytes


def blocks_of(chains, ring_chains):
    """Blocks of at most BLOCK_EDGES edges per chain; their headers, edge bytes, and each
    ring's block list."""
    headers, data, chain_blocks = [], [], []
    pos = 0
    for seg in chains:
        mine = []
        xs, ys = key_x(seg), key_y(seg)
        for s in range(0, len(seg) - 1, BLOCK_EDGES):
            bx, by = xs[s:s + BLOCK_EDGES + 1], ys[s:s + BLOCK_EDGES + 1]
            d = np.empty(2 * (len(bx) - 1), np.int64)
            d[0::2], d[1::2] = np.diff(bx), np.diff(by)
            raw, _ = zigzag_varints(d)
            mine.append(len(headers))
            headers.append([10 * by.min(), 10 * by.max(), 10 * bx.min(), 10 * bx.max(),
                            bx[0], by[0], pos, pos + len(raw)])
            data.append(raw)
            pos += len(raw)
        chain_blocks.append(mine)
    ring_blocks = [[b for c in rc for b in chain_blocks[c]] for rc in ring_chains]
    return np.array(headers, dtype=np.int64), np.concatenate(data), ring_blocks


def decode_blocks(headers, data):
    """Every block's edges back from the file's bytes (the builder's check of its own output):
    a list of (x1, y1, x2, y2) int64 arrays in 1e-7 degree units."""
    data = np.asarray(data, dtype=np.uint8)
    last = data < 0x80  # a varint's last byte
    first = np.concatenate([[True], last[:-1]])
    varint = np.cumsum(first) - 1  # the varint each byte belongs to
    starts = np.flatnonzero(first)
    shift = (np.arange(len(data)) - starts[varint]) * 7
    assert shift.max() < 64
    z = np.zeros(len(starts), np.uint64)
    np.bitwise_or.at(z, varint, (data & 0x7F).astype(np.uint64) << shift.astype(np.uint64))
    values = (z >> np.uint64(1)).astype(np.int64) ^ -(z & np.uint64(1)).astype(np.int64)
    out = []
    for h in headers:
        a, b = int(h[6]), int(h[7])
        assert 0 <= a < b <= len(data) and first[a] and last[b - 1]
        d = values[varint[a]:varint[b - 1] + 1]
        assert len(d) % 2 == 0
        xs = np.concatenate([[h[4]], h[4] + np.cumsum(d[0::2])])
        ys = np.concatenate([[h[5]], h[5] + np.cumsum(d[1::2])])
        assert 10 * ys.min() == h[0] and 10 * ys.max() == h[1] and 10 * xs.min() == h[2] and 10 * xs.max() == h[3]
        out.append(np.stack([10 * xs[:-1], 10 * ys[:-1], 10 * xs[1:], 10 * ys[1:]], axis=1))
    return out


def undirected(edges):
    """Edges (x1, y1, x2, y2) with their ends in (x, y) order, sorted: equal arrays, equal
    multisets of undirected edges (compared on the coordinates themselves, not on keys)."""
    swap = (edges[:, 0] > edges[:, 2]) | ((edges[:, 0] == edges[:, 2]) & (edges[:, 1] > edges[:, 3]))
    e = np.where(swap[:, None], edges[:, [2, 3, 0, 1]], edges)
    return e[np.lexsort((e[:, 3], e[:, 2], e[:, 1], e[:, 0]))]


def groups_of(headers, ring_blocks):
    """Each ring's block list cut into groups of GROUP_BLOCKS, with the union of their ranges:
    the rings' first groups, the groups (ymin, ymax, xmax, first reference; then an empty last
    group whose first is the end) and the references, ring by ring."""
    ring_groups, groups, refs = [0], [], []
    for blocks in ring_blocks:
        for s in range(0, len(blocks), GROUP_BLOCKS):
            part = blocks[s:s + GROUP_BLOCKS]
            h = headers[part]
            groups.append([h[:, 0].min(), h[:, 1].max(), h[:, 3].max(), len(refs)])
            refs += part
        ring_groups.append(len(groups))
    groups.append([0, 0, 0, len(refs)])
    return np.array(ring_groups, dtype=np.uint32), np.array(groups, dtype=np.int64), np.array(refs, dtype=np.uint32)


def check_blocks(rings, headers, data, ring_blocks):
    decoded = decode_blocks(headers, data)
    for r, ring in enumerate(rings):
        x, y = ring
        mine = np.stack([x, y, np.roll(x, -1), np.roll(y, -1)], axis=1)
        stored = np.concatenate([decoded[b] for b in ring_blocks[r]])
        assert np.array_equal(undirected(mine), undirected(stored)), f"ring {r}: its blocks do not hold its edges"


# ------------------------------------------------------------------------- shortcut table --
def slot_of(cell):
    """Slot of a res-4 cell: base cell * 7^4 + its index digits 1..4 read in base 7."""
    base = (cell >> 45) & 0x7F
    slot = base
    for r in range(1, H3_RES + 1):
        digit = (cell >> (3 * (15 - r))) & 7
        assert digit < 7
        slot = slot * 7 + digit
    return slot


def shortcut_table(src):
    slots = np.full(SLOT_COUNT, SLOT_EMPTY, dtype=np.uint16)
    for c in src.cells:
        e = src.cell_entry[c]
        s = slot_of(c)
        assert slots[s] == SLOT_EMPTY, "two cells in one slot"
        slots[s] = e if e >= 0 else SLOT_LIST | (-e - 1)
    assert len(src.names) < SLOT_LIST and len(src.lists) < SLOT_LIST - 1
    assert int((slots == SLOT_EMPTY).sum()) == SLOT_COUNT - len(src.cells) == 4800
    return slots


# ------------------------------------------------------------------------ acceleration tree --
class TreeBuilder:
    """The tile grid and quadtree of proven answers (see the module docstring)."""

    def __init__(self, src, max_depth):
        import shapely
        from h3.api import basic_int as h3i
        self.src, self.max_depth, self.h3i, self.shapely = src, max_depth, h3i, shapely
        # the cells' plane polygons, for the second, independent finding of a box's cells
        polys, kept = [], []
        for c in src.cells:
            b = h3i.cell_to_boundary(c)  # (lat, lng) pairs
            lngs = [p[1] for p in b]
            if max(lngs) - min(lngs) > 180 or any(abs(p[0]) > 85 for p in b):
                # across the antimeridian or around a pole: no tree box is near (asserted)
                assert all(abs(p[1]) > TREE_LNG_LIMIT + 0.1 or abs(p[0]) > TREE_LAT_LIMIT + 0.1 for p in b)
                continue
            polys.append(shapely.Polygon([(p[1], p[0]) for p in b]))
            kept.append(c)
        self.cell_polys = shapely.STRtree(polys)
        self.cell_ids = np.array(kept, dtype=np.uint64)
        self.boundaries = {}  # polygon -> prepared MultiLineString of its ring and its holes' rings
        self.stats = Counter()

    def boundary(self, p):
        g = self.boundaries.get(p)
        if g is None:
            src = self.src
            lines = [src.rings[p]] + [src.hole_rings[h] for h in range(src.hole_first[p], src.hole_first[p] + src.hole_count[p])]
            g = self.shapely.MultiLineString(
                [np.column_stack([np.append(r[0], r[0][0]), np.append(r[1], r[1][0])]).astype(np.float64) for r in lines])
            self.shapely.prepare(g)
            self.boundaries[p] = g
        return g

    def cells_of(self, boxes):
        """Per box (lat0, lng0, size): the set of res-4 cells that can hold a point of it."""
        h3i, shapely = self.h3i, self.shapely
        m = MARGIN
        out = []
        for lat0, lng0, size in boxes:
            ring = [(lat0 - m, lng0 - m), (lat0 - m, lng0 + size + m), (lat0 + size + m, lng0 + size + m),
                    (lat0 + size + m, lng0 - m)]
            out.append(set(h3i.polygon_to_cells_experimental(h3i.LatLngPoly(ring), H3_RES, contain="overlap")))
        geoms = shapely.box([b[1] - m for b in boxes], [b[0] - m for b in boxes],
                            [b[1] + b[2] + m for b in boxes], [b[0] + b[2] + m for b in boxes])
        which, hit = self.cell_polys.query(geoms, predicate="intersects")
        for i, c in zip(which.tolist(), self.cell_ids[hit].tolist()):
            if c not in out[i]:
                self.stats["cells found only by the plane test"] += 1
                out[i].add(c)
        return out

    @staticmethod
    def rect(lat0, lng0, size):
        """The integer rectangle (x0, x1, y0, y1) of every trunc(deg * 1e7) of the closed box
        (the double product is monotonic), with RECT_SLACK around it."""
        return (int(lng0 * 1e7) - RECT_SLACK, int((lng0 + size) * 1e7) + RECT_SLACK,
                int(lat0 * 1e7) - RECT_SLACK, int((lat0 + size) * 1e7) + RECT_SLACK)

    def classify(self, pairs, rects):
        """(box, polygon) -> "in" / "out" / "mixed" on the box's integer rectangle."""
        src, shapely = self.src, self.shapely
        by_poly = {}
        for i, p in pairs:
            by_poly.setdefault(p, []).append(i)
        result = {}
        for p in sorted(by_poly):
            idx = by_poly[p]
            r = np.array([rects[i] for i in idx], dtype=np.int64)
            bx = src.poly_box[p]
            miss = (r[:, 0] > bx[1]) | (r[:, 1] < bx[0]) | (r[:, 2] > bx[3]) | (r[:, 3] < bx[2])
            rest = np.flatnonzero(~miss)
            for k in np.flatnonzero(miss):
                result[(idx[k], p)] = "out"
            if len(rest) == 0:
                continue
            geoms = shapely.box(r[rest, 0].astype(float), r[rest, 2].astype(float), r[rest, 1].astype(float), r[rest, 3].astype(float))
            crossed = shapely.intersects(self.boundary(p), geoms)
            for k, cross in zip(rest.tolist(), crossed.tolist()):
                if cross:
                    result[(idx[k], p)] = "mixed"
                else:
                    x0, x1, y0, y1 = r[k]
                    inside = src.tf.inside_of_polygon(int(p), int(x0 + x1) // 2, int(y0 + y1) // 2)
                    result[(idx[k], p)] = "in" if inside else "out"
        return result

    def build(self):
        src = self.src
        tiles = np.full(180 * 360, ENTRY_CELL, dtype=np.uint64)
        nodes = []  # per node, four child entries
        # the boxes still to decide: (where its entry goes, lat0, lng0, size)
        pending = []
        for row in range(180):
            for col in range(360):
                lat0, lng0 = row - 90, col - 180
                if lat0 < -TREE_LAT_LIMIT or lat0 + 1 > TREE_LAT_LIMIT or lng0 < -TREE_LNG_LIMIT or lng0 + 1 > TREE_LNG_LIMIT:
                    continue
                pending.append((("tile", row * 360 + col), float(lat0), float(lng0), 1.0))
        depth = 0
        while pending:
            t0 = time.time()
            cells = self.cells_of([(b[1], b[2], b[3]) for b in pending])
            rects = [self.rect(b[1], b[2], b[3]) for b in pending]
            # candidates to classify: the tested prefix of every list a box's cells use
            pairs = set()
            box_lists = []
            for i, cs in enumerate(cells):
                ls = sorted({-e - 1 for e in (src.cell_entry[c] for c in cs) if e < 0})
                box_lists.append(ls)
                for l in ls:
                    polys, stop = src.lists[l]
                    pairs.update((i, p) for p in polys[:stop])
            cls = self.classify(sorted(pairs), rects)
            following = []
            for i, (where, lat0, lng0, size) in enumerate(pending):
                answers = {src.cell_entry[c] for c in cells[i] if src.cell_entry[c] >= 0}
                for l in box_lists[i]:
                    answers.add(self.list_answer(l, i, cls))
                if len(answers) == 1 and None not in answers:
                    entry = answers.pop()
                    self.stats[f"depth {depth}: answered"] += 1
                elif box_lists[i] and depth < self.max_depth:
                    entry = ENTRY_NODE | len(nodes)
                    n = len(nodes)
                    nodes.append([ENTRY_CELL] * 4)
                    half = size / 2
                    for child in range(4):
                        north, east = child >> 1, child & 1
                        following.append((("node", 4 * n + child), lat0 + north * half, lng0 + east * half, half))
                    self.stats[f"depth {depth}: split"] += 1
                else:
                    entry = ENTRY_CELL
                    self.stats[f"depth {depth}: left to H3"] += 1
                kind, at = where
                if kind == "tile":
                    tiles[at] = entry
                else:
                    nodes[at // 4][at % 4] = entry
            log(f"tree depth {depth}: {len(pending)} boxes, {len(pairs)} polygon tests of boxes, "
                f"{time.time() - t0:.1f} s")
            pending = following
            depth += 1
        return tiles.astype(np.uint32), np.array(nodes, dtype=np.uint32).reshape(-1)

    def list_answer(self, l, i, cls):
        """The zone list l gives every point of box i, or None when it may differ."""
        polys, stop = self.src.lists[l]
        for p in polys[:stop]:
            c = cls[(i, p)]
            if c == "in":
                return int(self.src.poly_zone[p])
            if c == "mixed":
                return None
        return int(self.src.poly_zone[polys[-1]])


# ---------------------------------------------------------------------------------- output --
def swift_names(names):
    lines = [
        "// Generated by scripts/data/build_timezone_data.py from timezonefinder-data "
        f"{DATA_PACKAGE_VERSION} (timezone-boundary-builder, ODbL 1.0); do not edit.",
        "// The zone ids of data/timezones.bin: TimeZoneIndex refuses a file whose names differ.",
        "",
        "extension TimeZoneID {",
        f"    /// The IANA names of the {len(names)} zones, in zone-id order (`timezone_names.txt` of the data package).",
        "    public static let names: [StaticString] = [",
    ]
    lines += [f'        "{n}",' for n in names]
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the data file to write (data/timezones.bin)")
    ap.add_argument("--swift-names", help="also write the zone-name table (Sources/GeoModel/TimeZoneNames.swift)")
    ap.add_argument("--max-depth", type=int, default=MAX_DEPTH, help="quadtree levels below the 1-degree tiles")
    ap.add_argument("--check-points", type=int, default=20_000, help="random points per set checked against timezone_at")
    a = ap.parse_args()
    t_start = time.time()
    src = Source()
    Z, P, H = len(src.names), len(src.rings), len(src.hole_rings)
    log(f"read {Z} zones, {P} polygons ({sum(r.shape[1] for r in src.rings)} vertices), {H} holes, "
        f"{len(src.lists)} candidate lists ({time.time() - t_start:.1f} s)")
    for n in src.names:
        assert n.isascii() and n.isprintable() and '"' not in n and "\\" not in n

    # rings: the boundary polygons, then the holes stored inline
    inline = [h for h in range(H) if src.hole_ref[h] < 0]
    rings = src.rings + [src.hole_rings[h] for h in inline]
    hole_ring = np.array([src.hole_ref[h] if src.hole_ref[h] >= 0 else P + inline.index(h) for h in range(H)], dtype=np.uint32)
    G = len(rings)
    chains, ring_chains = chains_of(rings)
    headers, data, ring_blocks = blocks_of(chains, ring_chains)
    check_blocks(rings, headers, data, ring_blocks)
    log(f"{G} rings: {len(chains)} distinct chains, {sum(len(c) - 1 for c in chains)} edges "
        f"(of {sum(r.shape[1] for r in rings)}), {len(headers)} blocks, {len(data)} edge bytes")

    slots = shortcut_table(src)
    list_start = np.concatenate([[0], np.cumsum([len(p) for p, _ in src.lists])]).astype(np.uint32)
    list_stop = np.array([s for _, s in src.lists], dtype=np.uint16)
    list_polys = np.array([p for ps, _ in src.lists for p in ps], dtype=np.uint16)

    t0 = time.time()
    tree = TreeBuilder(src, a.max_depth)
    tiles, nodes = tree.build()
    log(f"tree: {len(nodes) // 4} nodes ({time.time() - t0:.1f} s); " + ", ".join(f"{k} {v}" for k, v in sorted(tree.stats.items())))

    names = b"".join(n.encode() for n in src.names)
    name_start = np.concatenate([[0], np.cumsum([len(n.encode()) for n in src.names])]).astype(np.uint32)
    ring_groups, groups, ring_block_ids = groups_of(headers, ring_blocks)
    params = np.array([Z, P, H, G, len(headers), len(ring_block_ids), len(data), len(src.lists), len(list_polys),
                       len(nodes) // 4, len(names), SLOT_COUNT, H3_RES, 1, a.max_depth, len(groups) - 1], dtype="<u4")
    i32 = lambda v: np.asarray(v, dtype=np.int64).astype("<i4")  # noqa: E731
    assert np.all(np.abs(headers) < 2 ** 31) and np.all(np.abs(src.poly_box) < 2 ** 31)
    sections = [
        params, name_start.astype("<u4"), np.frombuffer(names, dtype=np.uint8),
        src.poly_zone.astype("<u2"), i32(src.poly_box),
        np.stack([src.hole_first, src.hole_count], axis=1).astype("<u4"), i32(src.hole_union),
        hole_ring.astype("<u4"), i32(src.hole_box),
        ring_groups.astype("<u4"), i32(groups), ring_block_ids.astype("<u4"), i32(headers), data.astype(np.uint8),
        slots.astype("<u2"), list_start.astype("<u4"), list_stop.astype("<u2"), list_polys.astype("<u2"),
        tiles.astype("<u4"), nodes.astype("<u4"),
    ]
    source = f"timezonefinder {TIMEZONEFINDER_VERSION} data {src.data_version} (ODbL 1.0)"
    size = geodata_container.write(a.out, MAGIC, VERSION, [Z, P, H, G], source, sections)
    if a.swift_names:
        with open(a.swift_names, "w", encoding="utf-8") as f:
            f.write(swift_names(src.names))
    log(f"wrote {a.out}: {size} bytes ({size / 1e6:.1f} MB): edge data {len(data) / 1e6:.1f} MB, "
        f"blocks {headers.size * 4 / 1e6:.1f} MB, tree {(tiles.size + nodes.size) * 4 / 1e6:.1f} MB")

    mismatches = check_points(src, a.out, a.check_points)
    log(f"done in {time.time() - t_start:.0f} s")
    if mismatches:
        raise SystemExit(f"{mismatches} points answer differently from timezone_at: the file is wrong")


# ---------------------------------------------------------------------------- self-check --
class FileReader:
    """The lookup again, in Python, on the written file's bytes alone (plus h3 for the cell):
    the builder's check that what it wrote answers as the package does. Slow; for checks."""

    def __init__(self, path):
        import struct
        raw = open(path, "rb").read()
        assert raw[:8] == MAGIC
        assert struct.unpack_from("<Q", raw, 24)[0] == geodata_container.checksum(raw[128:])
        payload = memoryview(raw)[128:]
        self.off = 0

        def take(dtype, count):
            b = np.frombuffer(payload, dtype=dtype, count=count, offset=self.off)
            self.off += (b.nbytes + 7) & ~7
            return b.astype(np.int64)
        p = take("<u4", 16)
        Z, P, H, G, NB, RB, ED, NL, LP, NN, NAMEB, SLOTS = (int(v) for v in p[:12])
        NG = int(p[15])
        self.name_start, self.names = take("<u4", Z + 1), bytes(take("u1", NAMEB).astype(np.uint8))
        self.zone, self.box = take("<u2", P), take("<i4", 4 * P).reshape(P, 4)
        self.holes, self.union = take("<u4", 2 * P).reshape(P, 2), take("<i4", 4 * P).reshape(P, 4)
        self.hole_ring, self.hole_box = take("<u4", H), take("<i4", 4 * H).reshape(H, 4)
        self.ring_groups, self.groups = take("<u4", G + 1), take("<i4", 4 * (NG + 1)).reshape(NG + 1, 4)
        self.ring_blocks = take("<u4", RB)
        headers, data = take("<i4", 8 * NB).reshape(NB, 8), take("u1", ED)
        self.edges = decode_blocks(headers, data.astype(np.uint8))
        self.headers = headers
        self.slots, self.list_start = take("<u2", SLOTS), take("<u4", NL + 1)
        self.list_stop, self.list_polys = take("<u2", NL), take("<u2", LP)
        self.tiles, self.nodes = take("<u4", 180 * 360), take("<u4", 4 * NN)
        assert self.off == len(payload)

    def name(self, z):
        return self.names[self.name_start[z]:self.name_start[z + 1]].decode()

    def ring_contains(self, r, x, y):
        inside = False
        for g in range(self.ring_groups[r], self.ring_groups[r + 1]):
            gy0, gy1, gx1, first = self.groups[g]
            if y < gy0 or y > gy1 or x > gx1:
                continue
            inside ^= self.blocks_parity(self.ring_blocks[first:self.groups[g + 1][3]], x, y)
        return inside

    def blocks_parity(self, blocks, x, y):
        inside = False
        for b in blocks:
            h = self.headers[b]
            if y < h[0] or y > h[1] or x > h[3]:
                continue
            e = self.edges[b]
            x1, y1, x2, y2 = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
            gt1 = y > y1
            cross = gt1 != (y > y2)
            le1, le2 = x <= x1, x <= x2
            s1 = (y2 - y) * (x2 - x1)
            s2 = (y2 - y1) * (x2 - x)
            flips = cross & ((le1 & le2) | ((le1 != le2) & np.where(gt1, s1 <= s2, s1 >= s2)))
            inside ^= bool(np.count_nonzero(flips) & 1)
        return inside

    def polygon_contains(self, p, x, y):
        b = self.box[p]
        if x > b[1] or x < b[0] or y > b[3] or y < b[2]:
            return False
        u = self.union[p]
        if u[0] <= x <= u[1] and u[2] <= y <= u[3]:
            first, count = self.holes[p]
            for h in range(first, first + count):
                hb = self.hole_box[h]
                if x > hb[1] or x < hb[0] or y > hb[3] or y < hb[2]:
                    continue
                if self.ring_contains(self.hole_ring[h], x, y):
                    return False
        return self.ring_contains(p, x, y)

    def tree_entry(self, lat, lng):
        row, col = min(int(np.floor(lat)) + 90, 179), min(int(np.floor(lng)) + 180, 359)
        e = int(self.tiles[row * 360 + col])
        lat0, lng0, size = float(row - 90), float(col - 180), 1.0
        while e != ENTRY_CELL and e & ENTRY_NODE:
            size /= 2
            child = 0
            if lat >= lat0 + size:
                child |= 2
                lat0 += size
            if lng >= lng0 + size:
                child |= 1
                lng0 += size
            e = int(self.nodes[4 * (e & (ENTRY_NODE - 1)) + child])
        return e

    def zone_at(self, lng, lat, use_tree=True):
        from h3.api import basic_int as h3i
        if use_tree:
            e = self.tree_entry(lat, lng)
            if e != ENTRY_CELL:
                return e
        s = int(self.slots[slot_of(h3i.latlng_to_cell(lat, lng, H3_RES))])
        if s < SLOT_LIST:
            return s
        l = s & (SLOT_LIST - 1)
        polys = self.list_polys[self.list_start[l]:self.list_start[l + 1]]
        x, y = int(lng * 1e7), int(lat * 1e7)
        for p in polys[:self.list_stop[l]]:
            if self.polygon_contains(int(p), x, y):
                return int(self.zone[p])
        return int(self.zone[polys[-1]])


def check_points(src, path, n):
    """Random points (fixed seed: the build stays deterministic) through the file, with and
    without the tree, against the package's timezone_at."""
    rng = np.random.default_rng(20260)
    reader = FileReader(path)
    assert [reader.name(z) for z in range(len(src.names))] == src.names
    sets = {
        "uniform": (rng.uniform(-180, 180, n), np.degrees(np.arcsin(rng.uniform(-1, 1, n)))),
        "US box": (rng.uniform(-125, -66.9, n), rng.uniform(24.4, 49.4, n)),
    }
    vx = np.concatenate([r[0] for r in src.rings])
    vy = np.concatenate([r[1] for r in src.rings])
    k = rng.integers(0, len(vx), n)
    sets["near vertices"] = (np.clip(vx[k] / 1e7 + rng.uniform(-0.01, 0.01, n), -180, 180),
                             np.clip(vy[k] / 1e7 + rng.uniform(-0.01, 0.01, n), -90, 90))
    bad = 0
    for name, (lngs, lats) in sets.items():
        t0 = time.time()
        miss = 0
        for lng, lat in zip(lngs.tolist(), lats.tolist()):
            want = src.tf.timezone_at(lng=lng, lat=lat)
            got = reader.name(reader.zone_at(lng, lat))
            if got != want or reader.name(reader.zone_at(lng, lat, use_tree=False)) != want:
                miss += 1
                if miss <= 5:
                    log(f"  MISMATCH {name}: lng={lng!r} lat={lat!r}: timezone_at {want}, file {got}")
        log(f"check {name}: {len(lngs)} points, {miss} differ ({time.time() - t0:.1f} s)")
        bad += miss
    return bad


if __name__ == "__main__":
    main()
