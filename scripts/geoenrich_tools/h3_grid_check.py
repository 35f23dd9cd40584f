"""The differential check of the `geo-enrich h3` tools for H3's traversal and local IJ functions
(issue 20's grid slice: cellToLocalIj, localIjToCell, gridDistance, gridPathCells(Size), gridRing,
gridRingUnsafe, gridDiskUnsafe, gridDiskDistances(Safe/Unsafe), gridDisksUnsafe, maxGridDiskSize,
maxGridRingSize) against h3-py 4.5.0, on fresh random inputs from the caller's seeded generator.
scripts/ci/h3_diffcheck.py runs it after the inspection checks.

The cases: origins of every resolution, the pentagons and the cells around them, and targets
near each origin (on its disk) and far from it (random points up to 3,000 km away, across
base-cell boundaries and icosahedron edges, many of which H3 refuses); local IJ coordinates
that are the answers of cellToLocalIj, near them, random, and at the ends of H3's 32-bit range.

Where h3-py has the function (cell_to_local_ij, local_ij_to_cell, grid_distance, grid_path_cells,
grid_ring) its answer is the expectation; the others (the unsafe variants, the distances, the
sizes) are H3 4.5.0's C functions, called through ctypes in h3-py's extension module. An
expectation is the CLI's line (sets ascending; gridDiskDistances as `cell distance` pairs
ascending by cell) or the C error's name, where the CLI must write `error: ...`.
"""
import ctypes
import math

import h3
import h3.api.basic_int as h3i

from geoenrich_tools import h3_testpoints as tp
from geoenrich_tools.h3_inspection_check import _Tool, _answer, _cells, _h3_c, _hex, run_tools, tool_lines  # noqa: F401

ERRORS = {1: "E_FAILED", 2: "E_DOMAIN", 4: "E_RES_DOMAIN", 5: "E_CELL_INVALID", 9: "E_PENTAGON",
          12: "E_RES_MISMATCH", 15: "E_OPTION_INVALID"}
PY_ERRORS = {h3.H3FailedError: "E_FAILED", h3.H3DomainError: "E_DOMAIN", h3.H3PentagonError: "E_PENTAGON",
             h3.H3ResMismatchError: "E_RES_MISMATCH", h3.H3CellInvalidError: "E_CELL_INVALID"}
# Pairs whose line H3 4.5.0 draws from the far end (gridPathCells' second attempt): the line
# anchored at the start leaves the local IJ chart. Found by replaying gridPathCellsInterpolate
# through cellToLocalIj/localIjToCell over 9,322 random pairs on pentagons' disks (res 1-7): 15.
REVERSED_PATHS = [
    ("81083ffffffffff", "8100bffffffffff"), ("820807fffffffff", "8208e7fffffffff"),
    ("826207fffffffff", "826077fffffffff"), ("830800fffffffff", "830829fffffffff"),
    ("830800fffffffff", "8308e0fffffffff"), ("8474001ffffffff", "8474039ffffffff"),
    ("85300003fffffff", "85300393fffffff"), ("854c0003fffffff", "854c0387fffffff"),
    ("85a60003fffffff", "85a600affffffff"), ("85a60003fffffff", "85a600abfffffff"),
    ("85c20003fffffff", "85c2056ffffffff"), ("867e00007ffffff", "867e00a8fffffff"),
    ("873000000ffffff", "8730000e1ffffff"), ("874c00000ffffff", "874c000e5ffffff"),
    ("874c00000ffffff", "874c000e3ffffff"),
]
INT32_MAX = 2**31 - 1
INT32_MIN = -2**31


class _CoordIJ(ctypes.Structure):
    _fields_ = [("i", ctypes.c_int), ("j", ctypes.c_int)]


class Refused(Exception):
    """H3 answered with an error code; `name` is its C name."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


def _grid_c():
    """H3 4.5.0's traversal functions from h3-py's extension module, with their C signatures."""
    lib = _h3_c()
    H, I64, INT = ctypes.c_uint64, ctypes.POINTER(ctypes.c_int64), ctypes.c_int
    HP, IP = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int)
    sigs = {
        "gridDistance": [H, H, I64], "gridPathCellsSize": [H, H, I64],
        "gridRing": [H, INT, HP], "gridRingUnsafe": [H, INT, HP], "gridDiskUnsafe": [H, INT, HP],
        "gridDiskDistances": [H, INT, HP, IP], "gridDiskDistancesSafe": [H, INT, HP, IP],
        "gridDiskDistancesUnsafe": [H, INT, HP, IP], "gridDisksUnsafe": [HP, INT, INT, HP],
        "maxGridDiskSize": [INT, I64], "maxGridRingSize": [INT, I64],
        "cellToLocalIj": [H, H, ctypes.c_uint32, ctypes.POINTER(_CoordIJ)],
        "localIjToCell": [H, ctypes.POINTER(_CoordIJ), ctypes.c_uint32, HP],
    }
    for name, args in sigs.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = ctypes.c_uint32
    return lib


def _ok(code):
    if code:
        raise Refused(ERRORS.get(code, f"E_{code}"))


def _int64(fn, *args):
    out = ctypes.c_int64()
    _ok(fn(*args, ctypes.byref(out)))
    return out.value


def _disk(lib, name, cell, k, distances):
    """One of the C disk or ring functions: its non-zero cells (with distances), in its order."""
    n = _int64(lib.maxGridDiskSize, k) if "Disk" in name else _int64(lib.maxGridRingSize, k)
    out = (ctypes.c_uint64 * n)()
    if distances:
        dist = (ctypes.c_int * n)()
        _ok(getattr(lib, name)(cell, k, out, dist))
        return [(c, d) for c, d in zip(out, dist) if c]
    _ok(getattr(lib, name)(cell, k, out))
    return [c for c in out if c]


def _expect(f):
    """The expected line: f()'s text, or `error:NAME` when H3 refuses."""
    try:
        return f()
    except Refused as e:
        return "error:" + e.name
    except tuple(PY_ERRORS) as e:
        return "error:" + next(n for cls, n in PY_ERRORS.items() if isinstance(e, cls))


def _pairs(items):
    return " ".join(f"{_hex(c)} {d}" for c, d in sorted(items))


def _near_points(rng, lat, lng, n, reach=0.47):
    """Points around (lat, lng) up to `reach` radians away (0.47: about 3,000 km), log-uniform in
    distance."""
    return [tp.destination(lat, lng, rng.uniform(0, 2 * math.pi), 10 ** rng.uniform(-6, math.log10(reach)))
            for _ in range(n)]


def _origins(rng, cells, hard, per_tool):
    """Origins of every resolution, each with the point its far targets are drawn around: random
    cells, pentagons, cells on a pentagon's disk, cells on the base cells around a pentagon (their
    targets drawn around the pentagon, so that they lie on its base cell) and cells beside
    icosahedron edges."""
    verts, edges, _ = tp.icosahedron()
    out = {}
    n = max(2, per_tool // 250)
    for res in range(16):
        pents = [p for p in hard if h3i.get_resolution(p) == res]
        here = [c for c in cells if h3i.get_resolution(c) == res]
        for c in rng.sample(here, min(n, len(here))) + rng.sample(pents, min(2, len(pents))):
            out.setdefault(c, h3i.cell_to_latlng(c))
        for p in rng.sample(pents, min(2, len(pents))):  # a pentagon's neighbourhood
            out.setdefault(rng.choice(h3i.grid_disk(p, rng.randint(1, 3))), h3i.cell_to_latlng(p))
        for p in rng.sample(pents, min(n, len(pents))):  # the base cells around a pentagon
            lat, lng = h3i.cell_to_latlng(p)
            a, b = tp.destination(lat, lng, rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.35))
            out.setdefault(h3i.latlng_to_cell(a, b, res), (lat, lng))
        lat, lng = tp.edge_point(verts, rng.choice(edges), rng.random(), rng.uniform(-1e-3, 1e-3))
        c = h3i.latlng_to_cell(lat, lng, res)
        out.setdefault(c, h3i.cell_to_latlng(c))
    return list(out.items())


def _targets(rng, origin, focus, n):
    """Cells of the origin's resolution: on its disk, and at random points up to 3,000 km from
    `focus`."""
    res = h3i.get_resolution(origin)
    out = rng.sample(h3i.grid_disk(origin, 3), min(n // 3, 37))
    out += [h3i.latlng_to_cell(a, b, res) for a, b in _near_points(rng, *focus, n - len(out))]
    return out


def _tools(rng, cells, hard, per_tool=2000):
    """Every tool's cases; about `per_tool` for each."""
    lib = _grid_c()
    tools = []

    def tool(name, args=()):
        t = _Tool(name, ["h3", name, *args])
        tools.append(t)
        return t

    origins = _origins(rng, cells, hard, per_tool)
    per_origin = max(6, per_tool // len(origins))
    distance, path_size, path = tool("gridDistance"), tool("gridPathCellsSize"), tool("gridPathCells")
    for o, focus in origins:
        to_ij, from_ij = tool("cellToLocalIj", ["--origin", _hex(o)]), tool("localIjToCell", ["--origin", _hex(o)])
        targets = _targets(rng, o, focus, per_origin)
        ijs = []
        for t in targets:
            to_ij.add(_hex(t), _expect(lambda: "%d %d" % h3i.cell_to_local_ij(o, t)))
            if not to_ij.expected[-1].startswith("error:"):
                ijs.append(tuple(int(x) for x in to_ij.expected[-1].split()))
            d = _expect(lambda: str(h3i.grid_distance(o, t)))
            distance.add(f"{_hex(o)} {_hex(t)}", d)
            path_size.add(f"{_hex(o)} {_hex(t)}", _expect(lambda: str(_int64(lib.gridPathCellsSize, o, t))))
            if d.startswith("error:") or int(d) <= 200:
                path.add(f"{_hex(o)} {_hex(t)}", _expect(lambda: _cells(h3i.grid_path_cells(o, t))))
        other = rng.choice(cells)  # most often another resolution: E_RES_MISMATCH
        to_ij.add(_hex(other), _expect(lambda: "%d %d" % h3i.cell_to_local_ij(o, other)))
        distance.add(f"{_hex(o)} {_hex(other)}", _expect(lambda: str(h3i.grid_distance(o, other))))
        # coordinates: the answers, their neighbourhood, random ones, and the ends of int32
        coords = list(ijs)
        for i, j in ijs[:8]:
            coords += [(i + rng.randint(-3, 3), j + rng.randint(-3, 3)) for _ in range(2)]
        scale = 7 ** (h3i.get_resolution(o) / 2) * 3
        coords += [(int(rng.uniform(-scale, scale)), int(rng.uniform(-scale, scale))) for _ in range(4)]
        if rng.random() < 0.3:
            ends = [INT32_MAX, INT32_MIN, INT32_MAX // 3, -(INT32_MAX // 3), 0, rng.randint(INT32_MIN, INT32_MAX)]
            coords += [(rng.choice(ends), rng.choice(ends)) for _ in range(3)]
        for i, j in coords:
            from_ij.add(f"{i} {j}", _expect(lambda: _hex(h3i.local_ij_to_cell(o, i, j))))

    # pairs around a pentagon, where lines cross its distortion; those of REVERSED_PATHS are drawn
    # from the far end (H3's second attempt)
    pairs = [(int(a, 16), int(b, 16)) for a, b in REVERSED_PATHS]
    for p in [rng.choice(hard) for _ in range(max(10, per_tool // 10))]:
        if h3i.get_resolution(p) > 0:
            around = h3i.grid_disk(p, rng.randint(2, 6))
            pairs.append((rng.choice(around), rng.choice(around)))
    for a, b in pairs:
        d = _expect(lambda: str(h3i.grid_distance(a, b)))
        distance.add(f"{_hex(a)} {_hex(b)}", d)
        path_size.add(f"{_hex(a)} {_hex(b)}", _expect(lambda: str(_int64(lib.gridPathCellsSize, a, b))))
        path.add(f"{_hex(a)} {_hex(b)}", _expect(lambda: _cells(h3i.grid_path_cells(a, b))))

    # rings and disks: random cells, pentagons and their neighbourhoods, k = 0...4 and a few larger
    near_pent = [c for p in rng.sample(hard, min(24, len(hard))) for c in rng.sample(h3i.grid_disk(p, 4), 2)]
    for k in (0, 1, 2, 3, 4, 7):
        if k < 5:
            n = max(10, per_tool // 10)
            pool = [rng.choice(cells) for _ in range(n)] + rng.sample(hard, min(8, len(hard))) + near_pent
        else:  # a few larger disks: 3k(k+1)+1 cells a line
            n = max(6, per_tool // 100)
            pool = [rng.choice(cells) for _ in range(n)] + rng.sample(near_pent, min(n, len(near_pent)))
        kk = ["--k", str(k)]
        ring, ring_u, disk_u = tool("gridRing", kk), tool("gridRingUnsafe", kk), tool("gridDiskUnsafe", kk)
        dists = {name: tool(name, kk) for name in ("gridDiskDistances", "gridDiskDistancesSafe", "gridDiskDistancesUnsafe")}
        for c in pool:
            ring.add(_hex(c), _expect(lambda: _cells(sorted(h3i.grid_ring(c, k)))))
            ring_u.add(_hex(c), _expect(lambda: _cells(sorted(_disk(lib, "gridRingUnsafe", c, k, False)))))
            disk_u.add(_hex(c), _expect(lambda: _cells(sorted(_disk(lib, "gridDiskUnsafe", c, k, False)))))
            for name, t in dists.items():
                t.add(_hex(c), _expect(lambda: _pairs(_disk(lib, name, c, k, True))))
        disks = tool("gridDisksUnsafe", kk)
        for _ in range(max(4, n // 8)):
            group = [rng.choice(pool) for _ in range(rng.randint(1, 4))]
            disks.add(_cells(group), _expect(lambda: _disks_unsafe(lib, group, k)))

    sizes = {"maxGridDiskSize": tool("maxGridDiskSize"), "maxGridRingSize": tool("maxGridRingSize")}
    ks = [-1, -2**31, 0, 1, 2, 1000, 13780509, 13780510, 13780511, INT32_MAX]
    ks += [rng.randint(0, INT32_MAX) for _ in range(20)] + [rng.randint(0, 10000) for _ in range(20)]
    for k in ks:
        for name, t in sizes.items():
            t.add(str(k), _expect(lambda: str(_int64(getattr(lib, name), k))))
    return tools


def _disks_unsafe(lib, group, k):
    """gridDisksUnsafe's output: each disk ascending, the disks in input order."""
    size = _int64(lib.maxGridDiskSize, k)
    arr = (ctypes.c_uint64 * len(group))(*group)
    out = (ctypes.c_uint64 * (size * len(group)))()
    _ok(lib.gridDisksUnsafe(arr, len(group), k, out))
    return " ".join(_cells(sorted(out[i * size:(i + 1) * size])) for i in range(len(group)))


def _grid_matches(got, want):
    """An error for an error (H3's code is in the fixture, the CLI words it), else the same text."""
    return got.startswith("error:") if want.startswith("error:") else got == want


def checks(binary, rng, cells, hard, seed, timeout, run_cli, Check):
    """The checks of this slice, one `Check` per tool (its calls merged)."""
    return run_tools(_tools(rng, cells, hard), binary, seed, timeout, run_cli, Check,
                     matches=_grid_matches, text=str)


def fixture_lines(rng, cells, hard, per_tool):
    """The cases as fixture lines for the Swift tests (scripts/dev/gen_h3_grid_golden.py):
    `tool<TAB>options<TAB>input line<TAB>expected`, expected `error:E_NAME` (H3's error code)
    where H3 refuses."""
    return tool_lines(_tools(rng, cells, hard, per_tool), text=str)
