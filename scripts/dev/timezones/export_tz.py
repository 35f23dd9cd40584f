#!/usr/bin/env python3
"""Export everything TimezoneFinder().timezone_at needs, from timezonefinder==9.0.0 +
timezonefinder-data==3.2026.3.post1, into /work/tzspec/tz_export.npz.

Run with /work/tzspec/.venv/bin/python. Uses the package's own loaders
(TimezoneFinder's PolygonArray / HoleArray / ShortcutIndex objects) to read the data,
then cross-checks the packed storage against an independent decoding of it.

Layout of tz_export.npz (all little-endian, np.load(..., allow_pickle=False) works)
====================================================================================
Scalars (0-d arrays)
  h3_res            int64   H3 resolution of the shortcut index (4)
  coord2int_factor  int64   10**7: query int = trunc(degrees * 1e7), polygons stored so
  block_size        int64   128: the package's latitude-block size (informational only;
                            skipping blocks is an exact optimisation, see SPEC.md)
  data_version      <U..    upstream timezone-boundary-builder release ("2026c")
  package_versions  <U..    "timezonefinder==9.0.0 timezonefinder-data==..."

Zones (Z = 444)
  zone_names        <U32[Z] zone name for zone id i (order of timezone_names.txt)

Boundary polygons (P = 1322), polygon id = index
  poly_zone         uint16[P]   zone id of each boundary polygon (non-decreasing)
  poly_offsets      int64[P+1]  vertices of polygon p are poly_x/poly_y[off[p]:off[p+1]]
  poly_x, poly_y    int32[V]    lng / lat * 1e7 (ring as stored: open ring, i.e. the last
                                vertex is NOT a repeat of the first; the closing edge
                                last->first is implied)
  poly_bbox         int32[P,4]  (xmin, xmax, ymin, ymax) as stored by the package
                                (boundaries/xmin.npy...); used for the bbox precheck
  poly_hole_first   int32[P]    first hole id owned by polygon p (-1 if none)
  poly_hole_count   int32[P]    number of holes owned by p (0 if none); owned hole ids are
                                first .. first+count-1 (from hole_registry.json)
  poly_hole_union   int32[P,4]  (x0, x1, y0, y1) union bbox of p's holes, exactly as the
                                package derives it at load time; x0 = 1800000001
                                (NEVER_INSIDE) and the rest 0 for polygons without holes

Holes (H = 756), hole id = index
  hole_owner        int32[H]    boundary polygon id the hole belongs to
  hole_offsets      int64[H+1]  ring of hole h is hole_x/hole_y[off[h]:off[h+1]]
  hole_x, hole_y    int32[VH]   resolved ring coordinates (rings the package stores as a
                                reference to an identical boundary polygon are copied here)
  hole_bbox         int32[H,4]  (xmin, xmax, ymin, ymax) as stored (holes/xmin.npy...)
  hole_ref          int32[H]    package storage: >=0 ring is boundary polygon hole_ref[h];
                                <0 inline ring number -(v+1) of holes/coordinates.bin

Shortcut index (C = all 288122 H3 res-4 cells; every cell has an entry)
  cell_ids          uint64[C]   H3 cell index, ascending
  cell_zone         int16[C]    >=0: the cell is covered by a single zone -> the answer
                                without any polygon test; -1: see cell_list
  cell_list         int32[C]    -1 if cell_zone >= 0, else index L of a distinct
                                candidate list
  list_offsets      int64[NL+1] candidates of list L are list_polys[off[L]:off[L+1]]
  list_polys        uint16[.]   candidate boundary polygon ids in the exact test order
  list_zones        uint16[.]   zone id of each candidate (= poly_zone[list_polys])
  list_stop         int32[NL]   "last zone change index": candidates with index < stop are
                                point-in-polygon tested in order; once index >= stop
                                (or no candidate matched) the answer is the zone of the
                                LAST candidate, untested
"""

import json
import sys
from pathlib import Path

import h3
import numpy as np

import timezonefinder
import timezonefinder_data
from timezonefinder import TimezoneFinder
from timezonefinder.configs import POLYGON_BLOCK_SIZE, SHORTCUT_H3_RES, COORD2INT_FACTOR
from timezonefinder.polygon_array import NEVER_INSIDE
from timezonefinder.shortcut_index import ABSENT, get_last_change_idx, slot_of

OUT = Path("/work/tzspec/tz_export.npz")


def decode_blocks_with_bridges(coll):
    """Independent decoding of a PolygonArray's packed payload, block by block, the way
    the C kernel reads it (inside_polygon_packed_int): every block yields n+1 values per
    axis (its n vertices plus the bridging vertex). Returns per ring a (2, N+nblocks)
    list of block-arrays for checking."""
    words = np.asarray(coll.coordinates.words, dtype=np.uint64)
    ranges = np.asarray(coll.block_ranges, dtype=np.int64)
    bases = np.asarray(coll.block_bases, dtype=np.int64)
    widths = np.asarray(coll.block_widths, dtype=np.int64)
    pofs = np.asarray(coll.block_payload_offsets, dtype=np.int64)
    boffs = coll.block_offsets
    nv = np.asarray(coll.nr_vertices, dtype=np.int64)
    nblk = len(widths)
    # per-block n (edges) and ring id
    ring_of_block = np.repeat(np.arange(len(nv)), np.diff(np.asarray(boffs)))
    blk_in_ring = np.arange(nblk) - np.asarray(boffs)[:-1][ring_of_block]
    n = np.minimum(nv[ring_of_block] - blk_in_ring * POLYGON_BLOCK_SIZE, POLYGON_BLOCK_SIZE)
    cnt = n + 1
    blk = np.repeat(np.arange(nblk), cnt)
    k = np.arange(len(blk)) - np.repeat(np.cumsum(cnt) - cnt, cnt)

    def residual(region_start, width):
        w = width[blk]
        bit = k * w
        word = region_start[blk] + (bit >> 5)
        chunk = words[word] | (words[word + 1] << np.uint64(32))
        mask = (np.uint64(1) << w.astype(np.uint64)) - np.uint64(1)
        v = (chunk >> (bit & 31).astype(np.uint64)) & mask
        return np.where(w == 0, 0, v.astype(np.int64))

    x_region = pofs
    y_region = pofs + (((cnt) * widths[:, 0] + 31) >> 5)
    xs = 10 * residual(x_region, widths[:, 0]) + bases[blk]
    ys = 10 * residual(y_region, widths[:, 1]) + ranges[blk, 0]
    return dict(blk=blk, k=k, n=n, cnt=cnt, xs=xs, ys=ys, ranges=ranges,
                ring_of_block=ring_of_block, blk_in_ring=blk_in_ring)


def check_collection(name, coll, rings):
    """rings: list of (2,N) int32 arrays from coll.coords_of (= package decode_ring).
    Verify: block decoding incl. bridging vertex == ring vertex (i+1) mod N, and block
    [min,max] latitude ranges == exact extents over the n+1 values (so the block filter
    in the kernel is an exact optimisation)."""
    d = decode_blocks_with_bridges(coll)
    blk, k, xs, ys = d["blk"], d["k"], d["xs"], d["ys"]
    ring_of_block, blk_in_ring = d["ring_of_block"], d["blk_in_ring"]
    ring = ring_of_block[blk]
    nv = np.asarray(coll.nr_vertices, dtype=np.int64)
    vidx = (blk_in_ring[blk] * POLYGON_BLOCK_SIZE + k) % nv[ring]
    off = np.zeros(len(rings) + 1, dtype=np.int64)
    off[1:] = np.cumsum([r.shape[1] for r in rings])
    allx = np.concatenate([r[0] for r in rings]).astype(np.int64)
    ally = np.concatenate([r[1] for r in rings]).astype(np.int64)
    ok_x = np.array_equal(xs, allx[off[ring] + vidx])
    ok_y = np.array_equal(ys, ally[off[ring] + vidx])
    bmin = np.full(len(d["n"]), np.iinfo(np.int64).max)
    bmax = np.full(len(d["n"]), np.iinfo(np.int64).min)
    np.minimum.at(bmin, blk, ys)
    np.maximum.at(bmax, blk, ys)
    ok_r = np.array_equal(bmin, d["ranges"][:, 0]) and np.array_equal(bmax, d["ranges"][:, 1])
    print(f"  [{name}] block decode incl. bridging vertices == rings: x {ok_x} y {ok_y}; "
          f"block lat ranges exact: {ok_r}")
    assert ok_x and ok_y and ok_r


def main():
    tf = TimezoneFinder(in_memory=True)
    assert not tf.using_numba() and tf.using_clang_pip()
    B, Hc = tf.boundaries, tf.holes
    P, H, Z = len(B), len(Hc), tf.nr_of_zones
    print(f"zones {Z}, boundary polygons {P}, holes {H}")

    # ---- zones
    zone_names = np.array(tf.timezone_names)
    poly_zone = np.asarray(tf.zone_ids, dtype=np.uint16)
    assert np.all(np.diff(poly_zone.astype(np.int64)) >= 0)

    # ---- boundary polygons
    rings = [np.asarray(B.coords_of(p)) for p in range(P)]
    assert all(r.dtype == np.int32 and r.shape[0] == 2 for r in rings)
    poly_offsets = np.zeros(P + 1, dtype=np.int64)
    poly_offsets[1:] = np.cumsum([r.shape[1] for r in rings])
    poly_x = np.concatenate([r[0] for r in rings]).astype(np.int32)
    poly_y = np.concatenate([r[1] for r in rings]).astype(np.int32)
    poly_bbox = np.stack([B.xmin, B.xmax, B.ymin, B.ymax], axis=1).astype(np.int32)
    check_collection("boundaries", B, rings)
    closed = sum(int(r[0, 0] == r[0, -1] and r[1, 0] == r[1, -1]) for r in rings)
    print(f"  rings whose last vertex repeats the first: {closed} of {P}")
    # informational: are the stored bboxes the exact ring extents?
    ext = np.array([[r[0].min(), r[0].max(), r[1].min(), r[1].max()] for r in rings])
    print(f"  stored bbox == exact ring extent for {int((ext == poly_bbox).all(1).sum())} of {P}")

    # ---- holes
    reg = tf.hole_registry
    poly_hole_first = np.full(P, -1, dtype=np.int32)
    poly_hole_count = np.zeros(P, dtype=np.int32)
    hole_owner = np.full(H, -1, dtype=np.int32)
    for p, (cnt, first) in reg.items():
        poly_hole_first[p] = first
        poly_hole_count[p] = cnt
        assert np.all(hole_owner[first:first + cnt] == -1)
        hole_owner[first:first + cnt] = p
    assert np.all(hole_owner >= 0), "every hole has exactly one owner"
    hrings = [np.asarray(Hc.coords_of(h)) for h in range(H)]
    hole_offsets = np.zeros(H + 1, dtype=np.int64)
    hole_offsets[1:] = np.cumsum([r.shape[1] for r in hrings])
    hole_x = np.concatenate([r[0] for r in hrings]).astype(np.int32)
    hole_y = np.concatenate([r[1] for r in hrings]).astype(np.int32)
    hole_bbox = np.stack([Hc.xmin, Hc.xmax, Hc.ymin, Hc.ymax], axis=1).astype(np.int32)
    hole_ref = np.asarray(Hc.poly_ref, dtype=np.int32)
    inline_rings = [np.asarray(Hc._decode(i)) for i in range(len(Hc.nr_vertices))]
    if inline_rings:
        check_collection("holes (inline)", Hc, inline_rings)
    x0, x1, y0, y1 = Hc.union_bounds
    poly_hole_union = np.stack([x0, x1, y0, y1], axis=1).astype(np.int32)
    assert int(NEVER_INSIDE) == 1800000001
    # union box must contain every owned hole's bbox (then it is a pure prefilter)
    for h in range(H):
        p = hole_owner[h]
        hb = hole_bbox[h]
        assert x0[p] <= hb[0] and hb[1] <= x1[p] and y0[p] <= hb[2] and hb[3] <= y1[p]
    assert np.all(x0[poly_hole_count == 0] == NEVER_INSIDE)
    hext = np.array([[r[0].min(), r[0].max(), r[1].min(), r[1].max()] for r in hrings])
    print(f"  holes: {int((hole_ref >= 0).sum())} stored as references to boundary polygons, "
          f"{int((hole_ref < 0).sum())} inline; stored hole bbox == exact extent for "
          f"{int((hext == hole_bbox).all(1).sum())} of {H}")
    ref = hole_ref >= 0
    same_zone_ref = (poly_zone[hole_ref[ref]] != poly_zone[hole_owner[ref]]).sum()
    print(f"  referenced holes whose enclave polygon is of another zone: {int(same_zone_ref)} of {int(ref.sum())}")

    # ---- shortcut index: enumerate every res-4 cell
    sc = tf.shortcuts
    cells = np.array(sorted(
        int(h3.str_to_int(c)) if isinstance(c, str) else int(c)
        for r0 in h3.get_res0_cells()
        for c in h3.cell_to_children(r0, SHORTCUT_H3_RES)), dtype=np.uint64)
    assert len(cells) == h3.get_num_cells(SHORTCUT_H3_RES)
    entries = np.array([sc.entry_of(int(c)) for c in cells], dtype=np.int64)
    # the slot of every real cell must be distinct and hold an entry
    slots = np.array([slot_of(int(c)) for c in cells])
    assert len(np.unique(slots)) == len(slots)
    n_absent = int((entries == ABSENT).sum())
    # table slots with an entry that no real cell reaches
    reachable = np.zeros(len(sc.table), bool)
    reachable[slots] = True
    unreach_with_entry = int(((sc.table != ABSENT) & ~reachable).sum())
    print(f"  shortcut cells: {len(cells)}, unique-zone {int((entries >= 0).sum())}, "
          f"candidate lists {int((entries < ABSENT).sum())}, absent {n_absent}; "
          f"table slots with an entry not reachable by any cell: {unreach_with_entry}")
    list_ids = np.where(entries < ABSENT, -(entries + 2), -1)
    used = np.unique(list_ids[list_ids >= 0])
    # re-number the distinct lists densely in the order of the package's entry index
    remap = np.full(sc.nr_of_entries, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    cell_list = np.where(list_ids >= 0, remap[np.maximum(list_ids, 0)], -1).astype(np.int32)
    cell_zone = np.where(entries >= 0, entries, -1).astype(np.int16)
    list_polys_l, list_stop = [], []
    for e in used:
        polys = np.asarray(sc.polygons_of_entry(int(e)), dtype=np.uint16)
        stop = int(sc.last_change[int(e)])
        assert stop == get_last_change_idx(poly_zone[polys.astype(np.int64)])
        assert 1 <= stop < len(polys)
        list_polys_l.append(polys)
        list_stop.append(stop)
    list_offsets = np.zeros(len(used) + 1, dtype=np.int64)
    list_offsets[1:] = np.cumsum([len(l) for l in list_polys_l])
    list_polys = np.concatenate(list_polys_l).astype(np.uint16)
    list_zones = poly_zone[list_polys.astype(np.int64)].astype(np.uint16)
    list_stop = np.asarray(list_stop, dtype=np.int32)
    print(f"  distinct candidate lists: {len(used)} (payload {len(list_polys)} ids; "
          f"lengths {int(np.diff(list_offsets).min())}..{int(np.diff(list_offsets).max())}); "
          f"zones per list 2..{max(len(set(poly_zone[l.astype(np.int64)].tolist())) for l in list_polys_l)}")

    versions = (f"timezonefinder=={timezonefinder.__version__} "
                f"timezonefinder-data=={timezonefinder_data.__version__} h3=={h3.__version__}")
    np.savez(
        OUT,
        h3_res=np.int64(SHORTCUT_H3_RES),
        coord2int_factor=np.int64(COORD2INT_FACTOR),
        block_size=np.int64(POLYGON_BLOCK_SIZE),
        data_version=np.array(tf.data_version),
        package_versions=np.array(versions),
        zone_names=zone_names,
        poly_zone=poly_zone, poly_offsets=poly_offsets, poly_x=poly_x, poly_y=poly_y,
        poly_bbox=poly_bbox, poly_hole_first=poly_hole_first,
        poly_hole_count=poly_hole_count, poly_hole_union=poly_hole_union,
        hole_owner=hole_owner, hole_offsets=hole_offsets, hole_x=hole_x, hole_y=hole_y,
        hole_bbox=hole_bbox, hole_ref=hole_ref,
        cell_ids=cells, cell_zone=cell_zone, cell_list=cell_list,
        list_offsets=list_offsets, list_polys=list_polys, list_zones=list_zones,
        list_stop=list_stop,
    )
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.1f} MB); {versions}; data {tf.data_version}")
    print(f"  total boundary vertices {len(poly_x)}, hole vertices (resolved) {len(hole_x)} "
          f"(inline-stored {int(np.asarray(Hc.nr_vertices).sum())})")


if __name__ == "__main__":
    sys.exit(main())
