"""The differential check of the `geo-enrich h3` tools for H3's inspection, hierarchy and measure
functions (issue 20's first slice) against h3-py 4.5.0, on fresh random inputs from the caller's
seeded generator. scripts/ci/h3_diffcheck.py runs it after its own checks.

Each case is one input line of one tool and h3-py's answer for it: the exact text for cells,
integers and booleans (sets ascending, as the CLI writes them), the exact double for measures
(parsed, compared bit for bit), or `error:` where h3-py raises.

Where h3-py does not expose a C function as such, the C function itself is called through ctypes
in h3-py's own extension module, which exports H3 4.5.0's symbols: `getHexagonAreaAvgM2` and
`getHexagonEdgeLengthAvgM` (h3-py's `average_hexagon_area(res, 'm^2')` multiplies the km² table by
10⁶ instead, which differs in the last bits), `maxFaceCount`, `degsToRads`, `radsToDegs`.
"""
import ctypes
import math
import os
import struct

import h3
import h3.api.basic_int as h3i

H3_AREA = {"rads2": "rads^2", "km2": "km^2", "m2": "m^2"}


def _h3_c():
    """H3 4.5.0's C functions, from h3-py's extension module (it exports them)."""
    import h3._cy.cells
    lib = ctypes.CDLL(h3._cy.cells.__file__)
    for name in ("getHexagonAreaAvgKm2", "getHexagonAreaAvgM2", "getHexagonEdgeLengthAvgKm", "getHexagonEdgeLengthAvgM"):
        getattr(lib, name).argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
        getattr(lib, name).restype = ctypes.c_uint32
    lib.maxFaceCount.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_int)]
    lib.maxFaceCount.restype = ctypes.c_uint32
    for name in ("degsToRads", "radsToDegs"):
        getattr(lib, name).argtypes = [ctypes.c_double]
        getattr(lib, name).restype = ctypes.c_double
    return lib


def _c_double(fn, *args):
    out = ctypes.c_double()
    if fn(*args, ctypes.byref(out)) != 0:
        return None
    return out.value


def _c_int(fn, *args):
    out = ctypes.c_int()
    if fn(*args, ctypes.byref(out)) != 0:
        return None
    return out.value


def _bits(x):
    return struct.pack("<d", x)


def _hex(c):
    return format(c, "x")


def _cells(cs):
    return " ".join(_hex(c) for c in cs)


def _answer(f):
    """h3-py's answer, or None when it raises (the CLI must then write `error: ...`)."""
    try:
        return f()
    except (h3.H3BaseException, ValueError):
        return None


class _Tool:
    """The cases of one CLI call: input lines and expected answers (text, a float, or None)."""

    def __init__(self, name, args):
        self.name, self.args, self.lines, self.expected = name, args, [], []

    def add(self, line, expected):
        self.lines.append(line)
        self.expected.append(expected)


def _tools(rng, cells, hard, per_tool=2000):
    """Every tool's cases; `per_tool` random cells for the tools that take one cell."""
    res_of = h3i.get_resolution
    clib = _h3_c()
    tools = []

    def tool(name, args=()):
        t = _Tool(name, ["h3", name, *args])
        tools.append(t)
        return t

    sample = [rng.choice(cells) for _ in range(per_tool)] + hard
    simple = {
        "getResolution": lambda c: str(res_of(c)),
        "getBaseCellNumber": lambda c: str(h3i.get_base_cell_number(c)),
        "isPentagon": lambda c: str(bool(h3i.is_pentagon(c))).lower(),
        "isResClassIII": lambda c: str(bool(h3i.is_res_class_III(c))).lower(),
        "maxFaceCount": lambda h: str(_c_int(clib.maxFaceCount, h)),
        "getIcosahedronFaces": lambda c: " ".join(str(f) for f in sorted(h3i.get_icosahedron_faces(c))),
    }
    for name, f in simple.items():
        t = tool(name)
        for c in sample:
            t.add(_hex(c), f(c))

    for r in range(1, 16):
        t = tool("getIndexDigit", ["--resolution", str(r)])
        for c in rng.sample(sample, 100):
            t.add(_hex(c), str(h3i.get_index_digit(c, r)))

    t = tool("isValidCell")
    for c in sample[:500]:
        v = c if rng.random() < 0.5 else c ^ (1 << rng.randrange(64))
        t.add(_hex(v), str(bool(h3i.is_valid_cell(v))).lower())

    t = tool("isValidIndex")
    for c in sample[:300]:
        edge, vertex = h3i.origin_to_directed_edges(c)[0], h3i.cell_to_vertex(c, 0)
        for v in (c, edge, vertex, c ^ (1 << rng.randrange(64)), edge ^ (1 << rng.randrange(64))):
            t.add(_hex(v), str(bool(h3i.is_valid_index(v))).lower())

    t = tool("constructCell")
    for _ in range(per_tool // 2):
        res = rng.randrange(16)
        bc = rng.randrange(122) if rng.random() < 0.97 else rng.choice([122, 127, -1])
        digits = [rng.randrange(7) if rng.random() < 0.7 else 0 for _ in range(res)]
        if rng.random() < 0.05 and res > 0:
            digits[rng.randrange(res)] = rng.choice([7, -1])
        if rng.random() < 0.1 and res > 0:  # under a pentagon; half of them its deleted sub-sequence
            bc = rng.choice([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117])
            k = rng.randrange(res)
            digits[:k] = [0] * k
            if rng.random() < 0.5:
                digits[k] = 1
        line = " ".join(str(x) for x in [res, bc, *digits])
        t.add(line, _answer(lambda: _hex(h3i.construct_cell(bc, *digits, res=res))))

    by_res = {}
    for c in sample:
        by_res.setdefault(res_of(c), []).append(c)
    for r in range(16):
        size, center, pos, to_cell = (tool("cellToChildrenSize", ["--resolution", str(r)]),
                                      tool("cellToCenterChild", ["--resolution", str(r)]),
                                      tool("cellToChildPos", ["--resolution", str(r)]),
                                      tool("childPosToCell", ["--resolution", str(r)]))
        for c in rng.sample(sample, 60):
            cr = res_of(c)
            size.add(_hex(c), _answer(lambda: str(h3i.cell_to_children_size(c, r))) if r >= cr else None)
            center.add(_hex(c), _answer(lambda: _hex(h3i.cell_to_center_child(c, r))) if r >= cr else None)
            pos.add(_hex(c), _answer(lambda: str(h3i.cell_to_child_pos(c, r))) if r <= cr else None)
            if r >= cr:
                n = h3i.cell_to_children_size(c, r)
                p = rng.randrange(n) if rng.random() < 0.95 else rng.choice([n, -1])
                to_cell.add(f"{p} {_hex(c)}", _answer(lambda: _hex(h3i.child_pos_to_cell(c, r, p))))
            else:
                to_cell.add(f"0 {_hex(c)}", None)

    # compact: some parents' children, with a few removed, at one resolution
    compact, uncompact_sizes = tool("compactCells"), []
    for _ in range(max(30, per_tool // 7)):
        base = rng.choice(sample)
        br = res_of(base)
        if br > 12:
            base, br = h3i.cell_to_parent(base, 12), 12
        fine = min(15, br + rng.randint(1, 3))
        members = []
        for p in h3i.grid_disk(base, 1)[: rng.randint(1, 7)]:  # the cell first, then neighbours
            kids = h3i.cell_to_children(p, fine)
            members += [k for k in kids if rng.random() > 0.02]
        rng.shuffle(members)
        want = sorted(h3i.compact_cells(members))
        compact.add(_cells(members), _cells(want))
        uncompact_sizes.append((want, fine))
    for fine in range(16):
        u = tool("uncompactCells", ["--resolution", str(fine)])
        s = tool("uncompactCellsSize", ["--resolution", str(fine)])
        for want, f in uncompact_sizes:
            if f == fine:
                u.add(_cells(want), _cells(h3i.uncompact_cells(want, fine)))
                s.add(_cells(want), str(len(h3i.uncompact_cells(want, fine))))
        coarse = [c for c in sample if res_of(c) > fine][:5]
        for c in coarse:  # finer than --resolution: h3-py raises
            u.add(_hex(c), _answer(lambda: _cells(h3i.uncompact_cells([c], fine))))

    tool("getRes0Cells").add("", _cells(sorted(h3i.get_res0_cells())))
    tool("res0CellCount").add("", str(len(h3i.get_res0_cells())))
    tool("pentagonCount").add("", str(len(h3i.get_pentagons(0))))
    pent, num = tool("getPentagons"), tool("getNumCells")
    for r in range(16):
        pent.add(str(r), _cells(sorted(h3i.get_pentagons(r))))
        num.add(str(r), str(h3i.get_num_cells(r)))
    pent.add("16", None)
    num.add("-1", None)

    for unit, pyunit in H3_AREA.items():
        t = tool("cellArea", ["--unit", unit])
        for c in sample:
            t.add(_hex(c), h3i.cell_area(c, unit=pyunit))
    for unit, fn in (("km2", clib.getHexagonAreaAvgKm2), ("m2", clib.getHexagonAreaAvgM2)):
        t = tool("getHexagonAreaAvg", ["--unit", unit])
        for r in range(-1, 17):
            t.add(str(r), _c_double(fn, r))
    for unit, fn in (("km", clib.getHexagonEdgeLengthAvgKm), ("m", clib.getHexagonEdgeLengthAvgM)):
        t = tool("getHexagonEdgeLengthAvg", ["--unit", unit])
        for r in range(-1, 17):
            t.add(str(r), _c_double(fn, r))

    def point():
        if rng.random() < 0.1:
            return rng.choice([90.0, -90.0, 0.0]), rng.choice([180.0, -180.0, 179.9999999, 0.0])
        return math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180)
    for unit in ("rads", "km", "m"):
        t = tool("greatCircleDistance", ["--unit", unit])
        for _ in range(per_tool):
            a, b = point(), point()
            if rng.random() < 0.2:  # close pairs, where the haversine's rounding shows
                b = (a[0] + rng.uniform(-1e-3, 1e-3), a[1] + rng.uniform(-1e-3, 1e-3))
                b = (max(-90.0, min(90.0, b[0])), b[1])
            t.add(" ".join(repr(x) for x in (*a, *b)), h3.great_circle_distance(a, b, unit=unit))

    d2r, r2d = tool("degsToRads"), tool("radsToDegs")
    for _ in range(per_tool // 2):
        x = rng.uniform(-720, 720)
        d2r.add(repr(x), clib.degsToRads(x))
        r2d.add(repr(x / 100), clib.radsToDegs(x / 100))
    return tools


def _text(want):
    """An expected answer as the CLI writes it: `error:` where h3-py raises, a float as its repr."""
    return "error:" if want is None else repr(want) if isinstance(want, float) else want


def _matches(got, want):
    """The CLI's line against h3-py's answer: any error for an error, a float bit for bit."""
    if want is None:
        return got.startswith("error:")
    if isinstance(want, float):
        try:
            return _bits(float(got)) == _bits(want)
        except ValueError:
            return False
    return got == want


def run_tools(tools, binary, seed, timeout, run_cli, Check, matches=_matches, text=_text, explain=None):
    """Runs each tool's cases through the CLI: one `Check` per tool name (its calls merged);
    `matches(got, want)` decides a line, `text(want)` shows the expected answer, or
    `explain(got, want)` says where a long answer differs. Shared by the slices' checks
    (h3_grid_check, h3_multipolygon_check)."""
    by_name = {}
    for t in tools:
        chk = by_name.setdefault(t.name, Check(t.name))
        try:
            out = run_cli(binary, t.args, t.lines, timeout)
        except RuntimeError as e:
            chk.fatal, chk.cases = str(e), chk.cases + len(t.lines)
            continue
        for line, want, got in zip(t.lines, t.expected, out):
            chk.cases += 1
            if not matches(got, want):
                why = explain(got, want) if explain else f"expected `{text(want)[:80]}`, got `{got[:80]}`"
                chk.mismatch(f"[seed {seed}] {' '.join(t.args[1:])} `{line[:80]}`: {why}")
    return list(by_name.values())


def checks(binary, rng, cells, hard, seed, timeout, run_cli, Check):
    """The checks of this slice, one `Check` per tool (its calls merged)."""
    return run_tools(_tools(rng, cells, hard), binary, seed, timeout, run_cli, Check)


def tool_lines(tools, text=_text):
    """Cases as fixture lines for the Swift tests: `tool<TAB>options<TAB>input line<TAB>expected`."""
    return [f"{t.name}\t{' '.join(t.args[2:])}\t{line}\t{text(want)}"
            for t in tools for line, want in zip(t.lines, t.expected)]


def fixture_lines(rng, cells, hard, per_tool):
    """This slice's cases as fixture lines (scripts/dev/gen_h3_inspection_golden.py): expected
    `error:` where h3-py raises and a float as its repr."""
    return tool_lines(_tools(rng, cells, hard, per_tool))


def golden_inputs(rng):
    """The cells the golden fixtures draw from: 40 of each resolution (a fifth by the poles and
    the antimeridian), and the 12 pentagons of every resolution."""
    cells = []
    for res in range(16):
        for _ in range(40):
            lat, lng = rng.uniform(-90, 90), rng.uniform(-180, 180)
            if rng.random() < 0.2:
                lat, lng = rng.choice([89.99, -89.99, rng.uniform(-60, 60)]), rng.choice([179.999, -179.999, lng])
            cells.append(h3i.latlng_to_cell(lat, lng, res))
    return cells, [p for res in range(16) for p in h3i.get_pentagons(res)]


def golden_main(doc, fixture, seed, make_lines, header):
    """The body of the scripts/dev/gen_h3_*_golden.py scripts: `--out` (by default
    Tests/H3CoreTests/Fixtures/`fixture`), the pinned h3-py, a generator seeded with `seed`, and
    the fixture: `header` lines, then `make_lines(rng)`."""
    import argparse
    import random
    from geoenrich_tools import h3_testpoints as tp
    from geoenrich_tools.paths import REPO
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(REPO, "Tests", "H3CoreTests", "Fixtures", fixture))
    args = ap.parse_args()
    if h3.__version__ != tp.REQUIRED_H3:
        raise SystemExit(f"h3-py {h3.__version__} is installed; the fixtures are made with {tp.REQUIRED_H3}")
    write_fixture(args.out, header, make_lines(random.Random(seed)))


def write_fixture(path, header, lines):
    """Writes a golden fixture (ASCII, `#` header lines) and says how big it is."""
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(header + lines) + "\n")
    print(f"{path}: {len(lines)} cases, {os.path.getsize(path):,} bytes")
