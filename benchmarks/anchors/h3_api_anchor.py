#!/usr/bin/env python3
"""The h3-py and polars-h3 anchors of the H3 API benchmarks (Benchmarks/H3Benchmarks/H3APIBenchmarks.swift).

The issue's speed item: compactCells, gridDistance, gridRing, cellArea, cellToVertexes and
polygonToCells (a city-sized polygon at resolutions 9 and 11), each against h3-py 4.5.0 and against
polars-h3 0.7 (which runs h3o, the Rust port of H3) in the same `make bench` run; goal: ours faster
than polars-h3 per cell on every one.

The inputs are the Swift benchmarks' own (H3APIInputs.swift; CityPolygon in
benchmarks/Pending/H3PolygonBenchmarks.swift.pending until H3Cell.polygonToCells lands): the
hexagon-area points of anchors/h3py_anchor.py (the same SplitMix64, seed and mapping as
BenchmarkInputs.hexagonPoints), their first 100,000 at resolution 9, and from them, with the same
streams and steps, the gridDistance pairs and the compactCells sets. Both sides check their sets
against the same digests (INPUT_DIGESTS here, H3APIInputs' *Digest constants there).

- h3-py: `h3.api.basic_int` (cells as Python ints: h3-py's fastest plain API, no string
  conversion) in a plain Python loop over pre-built lists, a local name for the function.
- polars-h3: its expressions over a pre-built UInt64 column (a List(UInt64) column of the sets for
  compact_cells, a WKT column of one row for polygon_to_cells), `df.select(expr)`: its natural,
  vectorised use. POLARS_MAX_THREADS is 1 unless --polars-threads says otherwise, so that both
  anchors, like ours, are per core; the CPU time of each pass is recorded beside the wall time.

Each (function, library) pair is called once untimed, then timed `--runs` times with
time.perf_counter_ns; the median is reported, per operation: per input cell (compactCells), per
pair (gridDistance), per cell (gridRing, cellArea, cellToVertexes), per output cell
(polygonToCells, each library over its own output's size; the counts are in the JSON). Before
timing, the libraries' answers are compared with each other and with what the inputs promise
(the pairs' distances, 28 cells per compacted set); a disagreement is reported, not fatal.

Prints JSON (and writes it to --output when given):

    {"anchor": "h3-api", "h3_version": "4.5.0", "polars_h3_version": "0.7.1", ...,
     "results": {"gridDistance res 9": {"per": "pair", "operations": 100000,
                 "h3py": {"ns_per_op": 812.3, "runs_ns_per_op": [...], ...},
                 "polars_h3": {"ns_per_op": 95.1, ...}}, ...}}

Usage: python3 benchmarks/anchors/h3_api_anchor.py [--runs N] [--count N] [--output FILE]
       [--only NAME ...] [--polars-threads N]
Requires h3==4.5.0, polars-h3==0.7.1 and polars (scripts/requirements.txt; scripts/setup.sh).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000,
                        help="cells and pairs (H3APIInputs.count, default 100,000; change both together)")
    parser.add_argument("--runs", type=int, default=7, help="timed passes per function and library; the median is reported")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only the benchmarks whose name starts with one of these")
    parser.add_argument("--polars-threads", type=int, default=1,
                        help="POLARS_MAX_THREADS for polars-h3 (default 1: per core, as ours and h3-py)")
    parser.add_argument("--output", help="also write the JSON to this file")
    return parser.parse_args()


ARGS = parse_args() if __name__ == "__main__" else None
# polars reads POLARS_MAX_THREADS once, when it is first imported
if ARGS is not None:
    os.environ["POLARS_MAX_THREADS"] = str(ARGS.polars_threads)

import h3  # noqa: E402
import h3.api.basic_int as h3i  # noqa: E402
import polars as pl  # noqa: E402
import polars_h3 as plh3  # noqa: E402

# the same directory: the hexagon-area points and the generator, shared rather than copied
from h3py_anchor import SEED, SplitMix64, hexagon_points  # noqa: E402

REQUIRED_H3 = "4.5.0"
REQUIRED_POLARS_H3 = "0.7."
MASK64 = (1 << 64) - 1

# H3APIInputs: the seeds of the derived streams (BenchmarkInputs.seed XOR "griddist", "compacts"),
# the farthest pair distance, the compactCells sets, and how each set is built.
DISTANCE_SEED = SEED ^ 0x6772_6964_6469_7374
COMPACT_SEED = SEED ^ 0x636F_6D70_6163_7473
MAX_PAIR_DISTANCE = 8
COMPACT_SETS = 100
COMPACT_SET_SIZE = 1_000
# resolution of the parent whose resolution-9 descendants a set takes, for its 28 points in order
COMPACT_PARENTS = [6] * 2 + [7] * 6 + [9] * 20

# CityPolygon in H3PolygonBenchmarks.swift (benchmarks/Pending/ until the API lands): central Montréal, an
# irregular 16-vertex ring about 20 km east-west by 15 km north-south, (lat, lng) in degrees,
# counter-clockwise from the east, open. Change both together.
CITY_POLYGON = [
    (45.5396, -73.4902), (45.5617, -73.5224), (45.5844, -73.5458), (45.5742, -73.5989),
    (45.6009, -73.6365), (45.5837, -73.6749), (45.5624, -73.6947), (45.5472, -73.7338),
    (45.5206, -73.7472), (45.5002, -73.7119), (45.4762, -73.6934), (45.4830, -73.6424),
    (45.4657, -73.6051), (45.4693, -73.5579), (45.4945, -73.5380), (45.5126, -73.5049),
]
# What the input sets sum to, as H3APIInputs' digests: equal sums, the same inputs on both sides.
INPUT_DIGESTS = {
    "resolution9Cells": "0x6606d0085dfe7960",
    "distancePairs.destination": "0x6612670a38427960",
    "compactCellSets": "0xacdfb91f476d4ab0",
}
POLYGON_RESOLUTIONS = (9, 11)
# calls per timed pass, so that a pass takes tens of milliseconds
POLYGON_REPEATS = {9: 20, 11: 1}


def resolution9_cells(count):
    """H3APIInputs.resolution9Cells: the first `count` hexagon-area points at resolution 9."""
    lats, lngs = hexagon_points(count)
    return [h3i.latlng_to_cell(lat, lng, 9) for lat, lng in zip(lats, lngs)]


def distance_pairs(cells):
    """H3APIInputs.distancePairs: (origin, destination, distance) for each cell, in order."""
    rng = SplitMix64(DISTANCE_SEED)
    pairs = []
    for origin in cells:
        distance = rng.next() % MAX_PAIR_DISTANCE + 1
        ring = sorted(h3i.grid_ring(origin, distance))
        pairs.append((origin, ring[rng.next() % len(ring)], distance))
    return pairs


def compact_cell_sets():
    """H3APIInputs.compactCellSets: 100 shuffled sets of 1,000 resolution-9 cells."""
    per_set = len(COMPACT_PARENTS)
    lats, lngs = hexagon_points(COMPACT_SETS * per_set)
    rng = SplitMix64(COMPACT_SEED)
    sets = []
    for j in range(COMPACT_SETS):
        cells = []
        for offset, res in enumerate(COMPACT_PARENTS):
            i = j * per_set + offset
            parent = h3i.latlng_to_cell(lats[i], lngs[i], res)
            cells += sorted(h3i.cell_to_children(parent, 9))
        if len(cells) != COMPACT_SET_SIZE or len(set(cells)) != len(cells):
            sys.exit(f"compactCells set {j}: {len(cells)} cells, {len(set(cells))} distinct")
        for i in range(len(cells) - 1, 0, -1):
            k = rng.next() % (i + 1)
            cells[i], cells[k] = cells[k], cells[i]
        sets.append(cells)
    return sets


def digest(values):
    """The sum of 64-bit values modulo 2**64, to compare an input set with the Swift side's."""
    return f"0x{sum(values) & MASK64:016x}"


def wkt(ring):
    """A WKT polygon of an open (lat, lng) ring: longitude first, the ring closed."""
    coords = ", ".join(f"{lng!r} {lat!r}" for lat, lng in ring + ring[:1])
    return f"POLYGON(({coords}))"


def timed(call, operations, runs):
    """ns per operation of each of `runs` timed calls of `call` (after one untimed), and the CPU's."""
    call()
    wall, cpu = [], []
    for _ in range(runs):
        c0 = time.process_time_ns()
        t0 = time.perf_counter_ns()
        call()
        t1 = time.perf_counter_ns()
        c1 = time.process_time_ns()
        wall.append((t1 - t0) / operations)
        cpu.append((c1 - c0) / operations)
    return {
        "ns_per_op": round(statistics.median(wall), 2),
        "runs_ns_per_op": [round(x, 2) for x in wall],
        "cpu_ns_per_op": round(statistics.median(cpu), 2),
    }


def h3py_loops(cells, pairs, sets, poly):
    """name → (function of no argument timing one pass, operations, the loop as written)."""
    compact_cells = h3i.compact_cells
    grid_distance = h3i.grid_distance
    grid_ring = h3i.grid_ring
    cell_area = h3i.cell_area
    cell_to_vertexes = h3i.cell_to_vertexes
    polygon_to_cells = h3i.polygon_to_cells
    origins = [p[0] for p in pairs]
    destinations = [p[1] for p in pairs]

    def compact():
        for s in sets:
            compact_cells(s)

    def distance():
        for a, b in zip(origins, destinations):
            grid_distance(a, b)

    def ring():
        for c in cells:
            grid_ring(c, 2)

    def area():
        for c in cells:
            cell_area(c, "m^2")

    def vertexes():
        for c in cells:
            cell_to_vertexes(c)

    loops = {
        "compactCells res 9": (compact, len(sets) * COMPACT_SET_SIZE, "for s in sets: compact_cells(s)"),
        "gridDistance res 9": (distance, len(pairs), "for a, b in zip(origins, destinations): grid_distance(a, b)"),
        "gridRing k 2 res 9": (ring, len(cells), "for c in cells: grid_ring(c, 2)"),
        "cellArea m2 res 9": (area, len(cells), "for c in cells: cell_area(c, 'm^2')"),
        "cellToVertexes res 9": (vertexes, len(cells), "for c in cells: cell_to_vertexes(c)"),
    }
    for res in POLYGON_RESOLUTIONS:
        repeats = POLYGON_REPEATS[res]
        size = len(polygon_to_cells(poly, res))

        def polygon(res=res, repeats=repeats):
            for _ in range(repeats):
                polygon_to_cells(poly, res)
        loops[f"polygonToCells res {res}"] = (polygon, size * repeats,
                                              f"polygon_to_cells(LatLngPoly(ring), {res}) × {repeats} a pass")
    return loops


def polars_selects(cells, pairs, sets):
    """name → (function timing one pass, operations or None for polygons, the expression as written)."""
    df_cells = pl.DataFrame({"cell": pl.Series(cells, dtype=pl.UInt64)})
    df_pairs = pl.DataFrame({"origin": pl.Series([p[0] for p in pairs], dtype=pl.UInt64),
                             "destination": pl.Series([p[1] for p in pairs], dtype=pl.UInt64)})
    df_sets = pl.DataFrame({"cells": pl.Series(sets, dtype=pl.List(pl.UInt64))})
    df_polygon = pl.DataFrame({"wkt": [wkt(CITY_POLYGON)]})
    selects = {
        "compactCells res 9": (df_sets, plh3.compact_cells("cells"), len(sets) * COMPACT_SET_SIZE,
                               "compact_cells('cells') over a List(UInt64) column, one set a row"),
        "gridDistance res 9": (df_pairs, plh3.grid_distance("origin", "destination"), len(pairs),
                               "grid_distance('origin', 'destination')"),
        "gridRing k 2 res 9": (df_cells, plh3.grid_ring("cell", 2), len(cells), "grid_ring('cell', 2)"),
        "cellArea m2 res 9": (df_cells, plh3.cell_area("cell", "m^2"), len(cells), "cell_area('cell', 'm^2')"),
        "cellToVertexes res 9": (df_cells, plh3.cell_to_vertexes("cell"), len(cells), "cell_to_vertexes('cell')"),
    }
    for res in POLYGON_RESOLUTIONS:
        expr = plh3.polygon_to_cells("wkt", res)
        size = df_polygon.select(expr.list.len()).item()
        repeats = POLYGON_REPEATS[res]
        # one row a call: the polygon repeated would let polars batch the calls
        selects[f"polygonToCells res {res}"] = (df_polygon, expr, size * repeats,
                                                f"polygon_to_cells('wkt', {res}) over a one-row WKT column × {repeats} a pass",
                                                repeats)
    out = {}
    for name, entry in selects.items():
        df, expr, operations, text = entry[:4]
        repeats = entry[4] if len(entry) > 4 else 1

        def select(df=df, expr=expr, repeats=repeats):
            for _ in range(repeats):
                df.select(expr)
        out[name] = (select, operations, text)
    return out, (df_cells, df_pairs, df_sets, df_polygon)


# name → how polars-h3's answers compare with h3-py's bit for bit, where they are floating point
EXACTNESS = {}


def checks(cells, pairs, sets, poly, frames):
    """What the libraries answer against each other and against the inputs: name → list of problems."""
    df_cells, df_pairs, df_sets, df_polygon = frames
    problems = {}

    def note(name, ok, text):
        problems.setdefault(name, [])
        if not ok:
            problems[name].append(text)

    py = [h3i.grid_distance(a, b) for a, b, _ in pairs]
    pl_d = df_pairs.select(plh3.grid_distance("origin", "destination")).to_series().to_list()
    want = [d for _, _, d in pairs]
    note("gridDistance res 9", py == want, "h3-py's distances are not the pairs'")
    note("gridDistance res 9", pl_d == want, f"polars-h3's distances differ on {sum(a != b for a, b in zip(pl_d, want))} pairs")

    py_c = [sorted(h3i.compact_cells(s)) for s in sets]
    pl_c = [sorted(x) for x in df_sets.select(plh3.compact_cells("cells")).to_series().to_list()]
    note("compactCells res 9", all(len(c) == 28 for c in py_c), "h3-py does not compact every set to 28 cells")
    note("compactCells res 9", pl_c == py_c, "polars-h3's compacted sets differ from h3-py's")

    py_r = [sorted(h3i.grid_ring(c, 2)) for c in cells]
    pl_r = [sorted(x) for x in df_cells.select(plh3.grid_ring("cell", 2)).to_series().to_list()]
    note("gridRing k 2 res 9", pl_r == py_r, "polars-h3's rings differ from h3-py's (as sets)")

    py_a = [h3i.cell_area(c, "m^2") for c in cells]
    pl_a = df_cells.select(plh3.cell_area("cell", "m^2")).to_series().to_list()
    worst = max(abs(a - b) / a for a, b in zip(py_a, pl_a))
    note("cellArea m2 res 9", worst < 1e-9, f"polars-h3's areas differ from h3-py's by up to {worst:.2e} (relative)")
    # not a problem (the tolerance above is the comparison's), but what the row compares: ours is
    # H3 4.5.0's area bit for bit (the CI's differential check), polars-h3's is computed otherwise
    EXACTNESS["cellArea m2 res 9"] = {"cells": len(py_a), "differ_from_h3py": sum(a != b for a, b in zip(py_a, pl_a)),
                                      "worst_relative": worst}

    py_v = [h3i.cell_to_vertexes(c) for c in cells]
    pl_v = df_cells.select(plh3.cell_to_vertexes("cell")).to_series().to_list()
    note("cellToVertexes res 9", [sorted(v) for v in pl_v] == [sorted(v) for v in py_v],
         "polars-h3's vertexes differ from h3-py's (as sets)")

    for res in POLYGON_RESOLUTIONS:
        a = set(h3i.polygon_to_cells(poly, res))
        b = set(df_polygon.select(plh3.polygon_to_cells("wkt", res)).item().to_list())
        note(f"polygonToCells res {res}", a == b,
             f"polars-h3 gives {len(b)} cells, h3-py {len(a)} ({len(a ^ b)} in one only)")
    return problems


def main():
    args = ARGS
    if h3.__version__ != REQUIRED_H3:
        sys.exit(f"h3-py {REQUIRED_H3} is required (found {h3.__version__}); run scripts/setup.sh")
    polars_h3_version = _version("polars-h3")
    if not polars_h3_version.startswith(REQUIRED_POLARS_H3):
        sys.exit(f"polars-h3 {REQUIRED_POLARS_H3}x is required (found {polars_h3_version}); run scripts/setup.sh")

    started = time.perf_counter()
    cells = resolution9_cells(args.count)
    pairs = distance_pairs(cells)
    sets = compact_cell_sets()
    digests = {
        "resolution9Cells": digest(cells),
        "distancePairs.destination": digest(p[1] for p in pairs),
        "compactCellSets": digest(c * (i + 1) for i, c in enumerate(x for s in sets for x in s)),
    }
    if args.count == 100_000 and digests != INPUT_DIGESTS:
        sys.exit(f"the inputs are not H3APIInputs' (digests {digests}, expected {INPUT_DIGESTS})")
    poly = h3.LatLngPoly(CITY_POLYGON)
    loops = h3py_loops(cells, pairs, sets, poly)
    selects, frames = polars_selects(cells, pairs, sets)
    problems = checks(cells, pairs, sets, poly, frames)
    inputs_s = time.perf_counter() - started

    per = {"compactCells": "input cell", "gridDistance": "pair", "polygonToCells": "output cell"}
    results = {}
    for name, (loop, operations, text) in loops.items():
        if args.only and not any(name.startswith(prefix) for prefix in args.only):
            continue
        select, polars_operations, polars_text = selects[name]
        h3py = timed(loop, operations, args.runs) | {"loop": text}
        polars = timed(select, polars_operations, args.runs) | {"expression": polars_text}
        result = {"per": per.get(name.split()[0], "cell"), "operations": operations,
                  "h3py": h3py, "polars_h3": polars, "problems": problems.get(name, [])}
        if name in EXACTNESS:
            result["polars_h3_exactness"] = EXACTNESS[name]
        if name.startswith("polygonToCells"):
            repeats = POLYGON_REPEATS[int(name.split()[-1])]
            h3py["output_cells"] = operations // repeats
            polars["output_cells"] = polars_operations // repeats
            result["operations"] = operations // repeats
        results[name] = result
        print(f"{name}: h3-py {h3py['ns_per_op']:,.1f} ns, polars-h3 {polars['ns_per_op']:,.1f} ns "
              f"per {result['per']}", file=sys.stderr)

    report = {
        "anchor": "h3-api",
        "h3_version": h3.__version__,
        "h3py_api": "h3.api.basic_int (cells as Python ints), a plain Python loop",
        "polars_h3_version": polars_h3_version,
        "polars_version": pl.__version__,
        "polars_threads": pl.thread_pool_size(),
        "polars_api": "df.select(expr) over a pre-built UInt64 column",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "count": args.count,
        "compact_sets": COMPACT_SETS,
        "compact_set_size": COMPACT_SET_SIZE,
        "seed": f"0x{SEED:016x}",
        "inputs_digest": digests,
        "inputs_match_swift": digests == INPUT_DIGESTS,
        "polygon": {"name": "central Montréal", "vertices": len(CITY_POLYGON), "ring_lat_lng": CITY_POLYGON},
        "inputs_seconds": round(inputs_s, 2),
        "runs": args.runs,
        "statistic": "median",
        "results": results,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text + "\n")


def _version(distribution):
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


if __name__ == "__main__":
    main()
