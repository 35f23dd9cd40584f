"""The directed edge and vertex tools of `geo-enrich h3` against h3-py 4.5.0, on fresh random input.

Called from scripts/ci/h3_diffcheck.py, whose harness it uses (passed in, so there is one copy of
it): `timed` runs a check and records it, `Check` holds a check's cases and mismatches,
`run_cli` feeds lines to the CLI and enforces one output line per input line and exit status 1
exactly when a line is `error: ...`, `same_float` compares a printed number with a double bit for
bit. The inputs come from the caller's seeded `rng`, so the printed seed replays them.

Each tool is named as H3's C function and compared with the h3-py function of the same name:

  areNeighborCells            `A B` -> true/false; cells of different resolutions -> `error: ...`
                              (H3's E_RES_MISMATCH; h3-py turns it into False)
  cellsToDirectedEdge         `A B` -> the edge, or `error: ...` where h3 raises H3NotNeighborsError
  isValidDirectedEdge         any 64-bit value -> true/false
  getDirectedEdgeOrigin, getDirectedEdgeDestination, reverseDirectedEdge
                              edge -> index (reverse: cells_to_directed_edge(destination, origin),
                              which is how H3 computes it); an invalid edge -> `error: ...`
  directedEdgeToCells         edge -> `ORIGIN DESTINATION`
  directedEdgeToBoundary      edge -> `LAT LNG,LAT LNG[,LAT LNG]`, every number bit for bit
  edgeLength --unit U         edge -> the length in m, km or rads, bit for bit
  originToDirectedEdges       cell -> its edges ascending
  cellToVertex                `CELL N` (N from -1 to 7) -> the vertex, or `error: ...` where h3
                              raises H3DomainError
  cellToVertexes              cell -> its vertexes in h3's order
  vertexToLatLng              vertex -> `LAT LNG` bit for bit; an invalid vertex -> `error: ...`
  isValidVertex               any 64-bit value -> true/false
"""
from geoenrich_tools import h3_testpoints  # noqa: F401 (first: it stops with a clear message without the pinned h3-py)
import h3  # noqa: E402
import h3.api.basic_int as h3i  # noqa: E402

MODE_SHIFT, RESERVED_SHIFT = 59, 56


def _hx(v):
    return format(v, "x")


def _resolution(h):
    return (h >> 52) & 0xF


def _mutated(rng, values):
    """Values that are mostly not valid: one bit flipped, the mode or reserved bits changed, or
    random bits."""
    out = []
    for v in values:
        r = rng.random()
        if r < 0.4:
            out.append(v ^ (1 << rng.randrange(64)))
        elif r < 0.6:
            out.append((v & ~(0xF << MODE_SHIFT)) | (rng.randrange(16) << MODE_SHIFT))
        elif r < 0.8:
            out.append((v & ~(0x7 << RESERVED_SHIFT)) | (rng.randrange(8) << RESERVED_SHIFT))
        else:
            out.append(rng.getrandbits(64))
    return out


def _pairs(rng, pick, n):
    """(a, b) pairs: neighbours, the cell itself, two steps away, random cells, parent or child,
    siblings."""
    out = []
    for _ in range(n):
        a = pick()
        res = _resolution(a)
        r = rng.random()
        if r < 0.45:
            b = rng.choice([x for x in h3i.grid_disk(a, 1) if x != a])
        elif r < 0.5:
            b = a
        elif r < 0.65:
            b = rng.choice(h3i.grid_ring(a, 2))
        elif r < 0.75:
            b = pick()
        elif r < 0.85:
            b = h3i.cell_to_parent(a, res - 1) if res > 0 else h3i.cell_to_center_child(a, 1)
        else:
            siblings = h3i.cell_to_children(h3i.cell_to_parent(a, res - 1), res) if res > 0 else [a]
            b = rng.choice(siblings)
        out.append((a, b))
    return out


def _show(want):
    """The expected answer as the CLI writes it: points as `LAT LNG,LAT LNG` (Python repr)."""
    if isinstance(want, (list, tuple)):
        return ",".join(f"{lat!r} {lng!r}" for lat, lng in want)
    return repr(want) if isinstance(want, float) else want


def _compare_lines(Check, run_cli, name, args, binary, lines, expected, seed, timeout, same):
    """Runs one tool over `lines`; `expected[i]` is None for "must be an error", else the answer,
    compared with `same(got, want)`."""
    chk = Check(name)
    try:
        out = run_cli(binary, ["h3", *args], lines, timeout)
    except RuntimeError as e:
        chk.fatal, chk.cases = str(e), len(lines)
        return chk
    for line, want, got in zip(lines, expected, out):
        chk.cases += 1
        if want is None:
            if not got.startswith("error:"):
                chk.mismatch(f"[seed {seed}] {name} `{line}`: expected an error, got `{got[:120]}`")
        elif not same(got, want):
            chk.mismatch(f"[seed {seed}] {name} `{line}`: expected `{_show(want)}`, got `{got[:160]}`")
    return chk


def _or_none(f, *a):
    """f(*a), or None where h3 raises."""
    try:
        return f(*a)
    except h3.H3BaseException:
        return None


def run(binary, rng, cells, hard, seed, timeout, timed, Check, run_cli, same_float, n=10_000):
    """Adds one check per tool to the caller's run (through `timed`).

    `cells` are valid cells from random points (any resolution, hard points among them: poles,
    antimeridian, icosahedron edges), `hard` the pentagons of every resolution; `n` the cases
    per check.
    """
    def text(got, want):
        return got == want

    def points(got, want):
        parts = [p.split() for p in got.split(",")] if got else []
        return len(parts) == len(want) and all(
            len(p) == 2 and same_float(p[0], w[0]) and same_float(p[1], w[1]) for p, w in zip(parts, want))

    def number(got, want):
        return same_float(got, want)

    def check(name, args, lines, expected, same=text):
        timed(_compare_lines, Check, run_cli, name, args, binary, lines, expected, seed, timeout, same)

    def pick():
        # one in ten a pentagon, where edges and vertices are irregular
        return rng.choice(hard) if rng.random() < 0.1 else rng.choice(cells)

    origins = [pick() for _ in range(n)]

    # neighbours
    pairs = _pairs(rng, pick, n)
    lines = [f"{_hx(a)} {_hx(b)}" for a, b in pairs]
    check("areNeighborCells", ["areNeighborCells"], lines,
          [None if _resolution(a) != _resolution(b) else str(h3i.are_neighbor_cells(a, b)).lower() for a, b in pairs])
    check("cellsToDirectedEdge", ["cellsToDirectedEdge"], lines,
          [None if (e := _or_none(h3i.cells_to_directed_edge, a, b)) is None else _hx(e) for a, b in pairs])

    # edges: valid ones from random origins, then a fifth as many mutated values
    edges = [rng.choice(h3i.origin_to_directed_edges(c)) for c in origins]
    values = edges + _mutated(rng, rng.sample(edges, n // 5))
    rng.shuffle(values)
    lines = [_hx(v) for v in values]
    valid = [bool(h3i.is_valid_directed_edge(v)) for v in values]
    check("isValidDirectedEdge", ["isValidDirectedEdge"], lines, [str(ok).lower() for ok in valid])
    check("getDirectedEdgeOrigin", ["getDirectedEdgeOrigin"], lines,
          [_hx(h3i.get_directed_edge_origin(v)) if ok else None for v, ok in zip(values, valid)])
    check("getDirectedEdgeDestination", ["getDirectedEdgeDestination"], lines,
          [_hx(h3i.get_directed_edge_destination(v)) if ok else None for v, ok in zip(values, valid)])
    check("directedEdgeToCells", ["directedEdgeToCells"], lines,
          [" ".join(map(_hx, h3i.directed_edge_to_cells(v))) if ok else None for v, ok in zip(values, valid)])
    check("reverseDirectedEdge", ["reverseDirectedEdge"], lines,
          [_hx(h3i.cells_to_directed_edge(*reversed(h3i.directed_edge_to_cells(v)))) if ok else None
           for v, ok in zip(values, valid)])
    check("directedEdgeToBoundary", ["directedEdgeToBoundary"], lines,
          [h3i.directed_edge_to_boundary(v) if ok else None for v, ok in zip(values, valid)], points)
    for unit in ("m", "km", "rads"):
        check(f"edgeLength --unit {unit}", ["edgeLength", "--unit", unit], lines,
              [h3i.edge_length(v, unit) if ok else None for v, ok in zip(values, valid)], number)
    lines = [_hx(c) for c in origins]
    check("originToDirectedEdges", ["originToDirectedEdges"], lines,
          [" ".join(map(_hx, sorted(h3i.origin_to_directed_edges(c)))) for c in origins])

    # vertices
    check("cellToVertexes", ["cellToVertexes"], lines,
          [" ".join(map(_hx, h3i.cell_to_vertexes(c))) for c in origins])
    numbered = [(c, rng.randint(-1, 7)) for c in origins]
    check("cellToVertex", ["cellToVertex"], [f"{_hx(c)} {k}" for c, k in numbered],
          [None if (v := _or_none(h3i.cell_to_vertex, c, k)) is None else _hx(v) for c, k in numbered])
    vertexes = [rng.choice(h3i.cell_to_vertexes(c)) for c in origins]
    values = vertexes + _mutated(rng, rng.sample(vertexes, n // 5))
    rng.shuffle(values)
    lines = [_hx(v) for v in values]
    valid = [bool(h3i.is_valid_vertex(v)) for v in values]
    check("isValidVertex", ["isValidVertex"], lines, [str(ok).lower() for ok in valid])
    check("vertexToLatLng", ["vertexToLatLng"], lines,
          [[h3i.vertex_to_latlng(v)] if ok else None for v, ok in zip(values, valid)], points)
