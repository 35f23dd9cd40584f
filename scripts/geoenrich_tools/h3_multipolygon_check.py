"""The differential check of `geo-enrich h3 cellsToMultiPolygon` (H3's cellsToMultiPolygon and
cellsToLinkedMultiPolygon) against h3-py 4.5.0, on fresh random sets of cells from the caller's
seeded generator. scripts/ci/h3_diffcheck.py runs it after the grid checks;
scripts/dev/gen_h3_multipolygon_golden.py draws the same kinds of case once, with a fixed seed, for
the Swift tests' fixture.

A case is one input line (cells in hex, in the order they are given: the order decides where each
ring starts) and h3-py's `cells_to_h3shape(cells, tight=False)`, or the C error's name where h3-py
raises. The sets: disks and rings (one hole) of every resolution, random subsets of disks (several
parts, holes), disks with cells taken out inside (several holes), two or three disjoint disks, sets
by the poles (the base cells 0 and 121 and their children), across the antimeridian, around
pentagons and across icosahedron edges (the extra vertices of Class III edges), the whole sphere
(H3's 8 triangles) and the sphere less a few cells, single cells; and the refusals: a cell twice,
two resolutions, a value that is no cell.

The CLI writes GeoJSON: its line is parsed (json) and compared with the `__geo_interface__` of
h3-py's shape (h3-py's own GeoJSON: [lng, lat], rings closed), every number bit for bit, the
sign of zero included. The fixture keeps h3-py's shape itself: [[outer, hole, ...], ...], each
ring open, each point [lat, lng], numbers as Python's repr.
"""
import json
import math
import struct

import h3
import h3.api.basic_int as h3i

from geoenrich_tools import h3_testpoints as tp
from geoenrich_tools.h3_inspection_check import _Tool, _cells, run_tools, tool_lines

TOOL = "cellsToMultiPolygon"
PY_ERRORS = {h3.H3DuplicateInputError: "E_DUPLICATE_INPUT", h3.H3ResMismatchError: "E_RES_MISMATCH",
             h3.H3CellInvalidError: "E_CELL_INVALID"}
NORTH_POLE_CELL, SOUTH_POLE_CELL = 0x8001fffffffffff, 0x80f3fffffffffff  # base cells 0 and 121


def _shape(cells):
    """h3-py's answer for `cells` (a LatLngMultiPoly), or `error:E_NAME` where it raises."""
    try:
        return h3i.cells_to_h3shape(cells, tight=False)
    except tuple(PY_ERRORS) as e:
        return "error:" + next(n for cls, n in PY_ERRORS.items() if isinstance(e, cls))


def _nested(shape):
    """The shape as the fixture keeps it: [[outer, hole, ...], ...], points [lat, lng], open."""
    return [[[list(p) for p in ring] for ring in (poly.outer, *poly.holes)] for poly in shape.polys]


def _text(want):
    """The fixture's expected column: the nested shape as compact JSON, or the error's name."""
    return want if isinstance(want, str) else json.dumps(_nested(want), separators=(",", ":"))


def _bits(x):
    return struct.pack("<d", x)


def _same(got, want):
    """Nested lists and numbers equal to the bit (int and float apart, -0.0 and 0.0 apart)."""
    if isinstance(want, (list, tuple)):
        return isinstance(got, list) and len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, float):
        return isinstance(got, (float, int)) and not isinstance(got, bool) and _bits(float(got)) == _bits(want)
    return got == want


def _matches(got, want):
    """The CLI's GeoJSON line against h3-py's shape (its own GeoJSON), or any error for an error.
    The line must be compact JSON (no spaces)."""
    if isinstance(want, str):
        return got.startswith("error:")
    if " " in got:
        return False
    try:
        doc = json.loads(got)
    except ValueError:
        return False
    geo = want.__geo_interface__
    return (isinstance(doc, dict) and set(doc) == {"type", "coordinates"} and doc["type"] == geo["type"]
            and _same(doc["coordinates"], geo["coordinates"]))


def _explain(got, want):
    """Where the CLI's line first differs from h3-py's GeoJSON, for a mismatch report (the lines
    are long and begin alike)."""
    if isinstance(want, str) or got.startswith("error:"):
        return f"expected `{want if isinstance(want, str) else 'a MultiPolygon'}`, got `{got[:120]}`"
    try:
        coords = json.loads(got)["coordinates"]
    except (ValueError, KeyError, TypeError):
        return f"not a GeoJSON geometry: `{got[:120]}`"
    expected = want.__geo_interface__["coordinates"]
    if len(coords) != len(expected):
        return f"{len(coords)} polygons, expected {len(expected)} ({want})"
    for p, (gp, wp) in enumerate(zip(coords, expected)):
        if len(gp) != len(wp):
            return f"polygon {p}: {len(gp)} rings, expected {len(wp)} ({want})"
        for r, (gr, wr) in enumerate(zip(gp, wp)):
            if len(gr) != len(wr):
                return f"polygon {p} ring {r}: {len(gr)} points, expected {len(wr)}"
            for i, (g, w) in enumerate(zip(gr, wr)):
                if not _same(g, w):
                    return f"polygon {p} ring {r} point {i} of {len(wr)}: [lng, lat] {g}, expected {list(w)}"
    return f"the same coordinates, another form: `{got[:120]}`"


# --- the sets -------------------------------------------------------------------------------

def _cell_at(lat, lng, res):
    return h3i.latlng_to_cell(lat, lng, res)


def _random_res(rng, lo=0, hi=15):
    return rng.randint(lo, hi)


def _near(rng, res):
    """A cell at a hard place: by a pole, on the antimeridian, on or beside an icosahedron edge,
    or on a pentagon's disk."""
    kind = rng.randrange(4)
    if kind == 0:
        lat = rng.choice([1, -1]) * (90 - 10 ** rng.uniform(-6, 0.5))
        return _cell_at(lat, rng.uniform(-180, 180), res)
    if kind == 1:
        return _cell_at(math.degrees(math.asin(rng.uniform(-1, 1))), rng.choice([1, -1]) * (180 - 10 ** rng.uniform(-7, -0.5)), res)
    if kind == 2:
        verts, edges, _ = tp.icosahedron()
        return _cell_at(*tp.edge_point(verts, rng.choice(edges), rng.random(), rng.uniform(-2e-3, 2e-3)), res)
    pent = rng.choice(h3i.get_pentagons(res))
    return rng.choice(h3i.grid_disk(pent, rng.randint(0, 2)))


def _centre(rng, res):
    """A random cell of resolution `res`: anywhere on the sphere, or (a third) at a hard place."""
    if rng.random() < 1 / 3:
        return _near(rng, res)
    return _cell_at(*tp.uniform_on_sphere(rng), res)


def _ordered(rng, cells):
    """The cells in H3's order (gridDisk's, usually), ascending, or shuffled: the order moves
    each ring's first vertex and, on equal areas, the polygons' order."""
    cells = list(cells)
    r = rng.random()
    if r < 0.4:
        rng.shuffle(cells)
    elif r < 0.6:
        cells.sort()
    elif r < 0.7:
        cells.sort(reverse=True)
    return cells


def _disk(rng, res, k_max=4):
    return h3i.grid_disk(_centre(rng, res), rng.randint(0, k_max))


def _sets(rng, n):
    """`n` random sets of cells, each a list in input order, and a few refused ones."""
    out = []
    for i in range(n):
        res = _random_res(rng)
        kind = i % 8
        if kind == 0:  # a disk
            cells = _disk(rng, res, 5)
        elif kind == 1:  # a ring: one hole (a pentagon's ring may have none, or distorted)
            c = _centre(rng, res)
            k = rng.randint(1, 4)
            try:
                cells = h3i.grid_ring(c, k)
            except h3.H3BaseException:  # (H3 4.5.0's gridRing handles pentagons; keep a fallback)
                cells = [x for x in h3i.grid_disk(c, k) if h3i.grid_distance(c, x) == k]
        elif kind == 2:  # a random part of a disk: several parts, holes
            disk = h3i.grid_disk(_centre(rng, res), rng.randint(2, 6))
            keep = rng.uniform(0.3, 0.95)
            cells = [c for c in disk if rng.random() < keep] or disk[:1]
        elif kind == 3:  # a disk with cells taken out inside: holes, some touching at a corner
            c = _centre(rng, res)
            k = rng.randint(3, 6)
            inner = set(h3i.grid_disk(c, k - 2))
            gone = set(rng.sample(sorted(inner), rng.randint(1, min(6, len(inner)))))
            cells = [x for x in h3i.grid_disk(c, k) if x not in gone]
        elif kind == 4:  # two or three disks, mostly disjoint (overlaps merge)
            found = {}
            for _ in range(rng.randint(2, 3)):
                for x in _disk(rng, res, 3):
                    found[x] = True
            if rng.random() < 0.5:  # and one nearby, touching or not
                c = next(iter(found))
                for x in h3i.grid_disk(rng.choice(h3i.grid_ring(c, rng.randint(3, 5)) or [c]), 1):
                    found[x] = True
            cells = list(found)
        elif kind == 5:  # a hard place: poles, antimeridian, icosahedron edges, pentagons
            c = _near(rng, res)
            disk = h3i.grid_disk(c, rng.randint(0, 4))
            cells = disk if rng.random() < 0.6 else [x for x in disk if rng.random() < 0.7] or disk[:1]
        elif kind == 6:  # children of a coarse cell by a pole, or of a pentagon
            coarse = rng.choice([NORTH_POLE_CELL, SOUTH_POLE_CELL, rng.choice(h3i.get_pentagons(0)),
                                 rng.choice(h3i.get_res0_cells())])
            fine = rng.randint(1, 3)
            parent = coarse if rng.random() < 0.5 else rng.choice(h3i.cell_to_children(coarse, 1))
            fine = max(fine, h3i.get_resolution(parent))
            cells = h3i.cell_to_children(parent, fine)
            if rng.random() < 0.5:
                cells = [x for x in cells if rng.random() < 0.8] or cells[:1]
        else:  # a single cell, or a larger disk
            cells = [_centre(rng, res)] if rng.random() < 0.6 else _disk(rng, rng.randint(0, 12), 12)
        out.append(_ordered(rng, cells))

    # the refusals: a cell twice, two resolutions, a value that is no cell
    for _ in range(max(3, n // 40)):
        cells = _disk(rng, rng.randint(0, 15), 2)
        dup = list(cells) + [rng.choice(cells)]
        rng.shuffle(dup)
        out.append(dup)
        c = rng.choice(cells)
        r = h3i.get_resolution(c)
        other = h3i.cell_to_parent(c, r - 1) if r > 0 else h3i.cell_to_center_child(c, 1)
        mixed = [x for x in cells if x != other] + [other]
        rng.shuffle(mixed)
        out.append(mixed)
        bad = rng.choice(cells) ^ (1 << rng.randrange(64))
        if not h3i.is_valid_cell(bad):
            out.append(list(cells) + [bad])
    return out


def fixed_sets():
    """Sets every run and the fixture have: the empty line, the whole sphere at resolutions 0 and
    1 (H3's 8 triangles), the sphere less one cell or a ring of them, the pole cells' disks and
    children, a hexagon and a cell on the antimeridian alone at every resolution, and every
    pentagon of every resolution alone and with its ring."""
    res0 = sorted(h3i.get_res0_cells())
    out = [[], res0, list(reversed(res0)), sorted(h3i.uncompact_cells(res0, 1))]
    out.append([c for c in res0 if c != NORTH_POLE_CELL])
    around = set(h3i.grid_disk(SOUTH_POLE_CELL, 1))
    out.append([c for c in res0 if c not in around])
    for pole in (NORTH_POLE_CELL, SOUTH_POLE_CELL):
        out.append(h3i.grid_disk(pole, 1))
        for r in (1, 2, 3):
            out.append(h3i.cell_to_children(pole, r))
            out.append(h3i.grid_disk(h3i.cell_to_center_child(pole, r), 2))
        out.append(h3i.grid_ring(h3i.cell_to_center_child(pole, 4), 2))
    for r in range(16):  # a hexagon, and a cell on the antimeridian, alone at each resolution
        out += [[_cell_at(37.775, -122.418, r)], [_cell_at(10.0, 180.0, r)]]
        for p in h3i.get_pentagons(r):
            out.append([p])
            if r > 0:
                out.append(h3i.grid_ring(p, 1))
    return out


def _tools(sets):
    t = _Tool(TOOL, ["h3", TOOL])
    for cells in sets:
        t.add(_cells(cells), _shape(cells))
    return [t]


def checks(binary, rng, cells, hard, seed, timeout, run_cli, Check, n=1500):
    """The check of this slice: `n` fresh random sets and the fixed ones, one `Check`."""
    return run_tools(_tools(fixed_sets() + _sets(rng, n)), binary, seed, timeout, run_cli, Check,
                     matches=_matches, explain=_explain)


def fixture_lines(rng, n):
    """The cases as fixture lines for the Swift tests (scripts/dev/gen_h3_multipolygon_golden.py):
    `tool<TAB><TAB>cells<TAB>expected`, expected the nested shape or `error:E_NAME`."""
    return tool_lines(_tools(fixed_sets() + _sets(rng, n)), text=_text)
