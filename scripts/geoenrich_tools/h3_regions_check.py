"""The differential check of `geo-enrich h3 polygonToCells` and `polygonToCellsExperimental`
(issue 20's region slice) against h3-py 4.5.0, on fresh random polygons from the caller's seeded
generator. scripts/ci/h3_diffcheck.py runs it after the grid checks.

The polygons, each written as a GeoJSON line (`[longitude, latitude]`, rings closed or open at
random, a third of them a Feature or a MultiPolygon):
- star-shaped polygons of 3-24 vertices from a few metres to thousands of kilometres across, at
  a resolution that gives them from under one to a few thousand cells, with and without holes;
- across the antimeridian, around and near the poles, centred on pentagons;
- rectangles whose edges and corners are exactly cell centres of the target resolution (where
  H3's ray cast breaks ties), and polygons whose vertices are cell vertices;
- polygons smaller than one cell (`overlapping` keeps the cell holding the first vertex);
- degenerate and empty ones (no width: H3's polygonToCells fails, the experimental walk does
  not), coordinates beyond ±90/±180;
- broken lines (not JSON, a Point, a ring of two positions), which must give `error: ...`.

Each polygon is filled without --containment (h3.polygon_to_cells, H3's polygonToCells) and in
each of the four modes, through both tools (h3.polygon_to_cells_experimental). The expected line
is h3-py's cells sorted ascending (a MultiPolygon's the union of its polygons'), or `error:` where
h3-py raises. A fifth of the polygons also go through maxPolygonToCellsSize and
maxPolygonToCellsSizeExperimental, against H3's own C functions called through ctypes in h3-py's
latlng extension module (summed over a MultiPolygon's polygons).
"""
import ctypes
import json
import math

import h3
import h3.api.basic_int as h3i

from geoenrich_tools.h3_inspection_check import _Tool, _answer, run_tools

MODES = {"center": "center", "full": "full", "overlapping": "overlap", "overlappingBbox": "bbox_overlap"}
ERROR_NAMES = {h3.H3FailedError: "E_FAILED", h3.H3LatLngDomainError: "E_LATLNG_DOMAIN",
               h3.H3MemoryBoundsError: "E_MEMORY_BOUNDS"}
MAX_CELLS = 4000  # cells a polygon is sized for (a resolution is chosen to give at most this)


def _km_per_degree():
    return math.pi * 6371.007180918475 / 180


def _star(rng, lat0, lng0, radius_deg, n, inner=0.4):
    """A star-shaped ring (lat, lng) around a centre: sorted angles, radii in [inner, 1]·radius;
    longitudes widened by 1/cos(lat) and wrapped into [-180, 180] (so a ring by the antimeridian
    crosses it)."""
    angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
    stretch = 1 / max(0.05, math.cos(math.radians(lat0)))
    ring = []
    for a in angles:
        r = radius_deg * rng.uniform(inner, 1)
        lat = max(-89.999, min(89.999, lat0 + r * math.sin(a)))
        lng = lng0 + r * math.cos(a) * stretch
        lng = (lng + 180) % 360 - 180
        ring.append((lat, lng))
    if rng.random() < 0.5:
        ring.reverse()
    return ring


def _resolution(rng, radius_deg, small=False, max_cells=MAX_CELLS):
    """A resolution giving the polygon from about one cell to `max_cells` of them (or, `small`,
    fewer than one: the polygon inside a cell)."""
    area = math.pi * (radius_deg * _km_per_degree()) ** 2
    fits = [r for r in range(16) if 1 <= area / h3.average_hexagon_area(r, "km^2") <= max_cells]
    if small or not fits:
        under = [r for r in range(16) if area / h3.average_hexagon_area(r, "km^2") < 0.3]
        return rng.choice(under) if under else 15
    return rng.choice(fits)


def _geojson(rng, polygons):
    """A GeoJSON line for [(outer, [holes])] in (lat, lng): a Polygon, a MultiPolygon, or a
    Feature holding either; rings closed (GeoJSON's rule) or open (h3-py's), at random."""
    def ring(loop):
        coords = [[lng, lat] for lat, lng in loop]
        if coords and rng.random() < 0.7:
            coords.append(list(coords[0]))
        return coords

    rings = [[ring(outer)] + [ring(h) for h in holes] for outer, holes in polygons]
    if len(polygons) == 1 and rng.random() < 0.8:
        geometry = {"type": "Polygon", "coordinates": rings[0]}
    else:
        geometry = {"type": "MultiPolygon", "coordinates": rings}
    if rng.random() < 0.15:
        geometry = {"type": "Feature", "properties": {"name": "x"}, "geometry": geometry}
    return json.dumps(geometry)


def _shape(polygons):
    polys = [h3.LatLngPoly(outer, *holes) for outer, holes in polygons]
    return polys[0] if len(polys) == 1 else h3.LatLngMultiPoly(*polys)


class _Unanswerable(Exception):
    """h3-py could not allocate what H3's size estimate asked for: no expectation."""


def _expected(polygons, res, mode, names=False):
    """h3-py's cells sorted, or None where it raises; _Unanswerable where h3-py runs out of
    memory for H3's estimate (a box wrapped around the globe at a fine resolution)."""
    def fill():
        cells = set()
        for outer, holes in polygons:
            if not outer:
                continue
            poly = h3.LatLngPoly(outer, *holes)
            got = h3.polygon_to_cells(poly, res) if mode is None else h3.polygon_to_cells_experimental(poly, res, MODES[mode])
            cells.update(got)
        return " ".join(sorted(cells))
    try:
        if names:
            try:
                return fill()
            except h3.H3BaseException as e:
                return "error:" + ERROR_NAMES.get(type(e), type(e).__name__)
            except ValueError:
                return "error:"
        return _answer(fill)
    except MemoryError:
        raise _Unanswerable()


class _LatLng(ctypes.Structure):
    _fields_ = [("lat", ctypes.c_double), ("lng", ctypes.c_double)]


class _GeoLoop(ctypes.Structure):
    _fields_ = [("numVerts", ctypes.c_int), ("verts", ctypes.POINTER(_LatLng))]


class _GeoPolygon(ctypes.Structure):
    _fields_ = [("geoloop", _GeoLoop), ("numHoles", ctypes.c_int), ("holes", ctypes.POINTER(_GeoLoop))]


def _size_c():
    """H3 4.5.0's two size estimates, from h3-py's latlng extension module, which links them for
    its own polygon functions (h3-py does not expose them)."""
    import h3._cy.latlng
    lib = ctypes.CDLL(h3._cy.latlng.__file__)
    for name in ("maxPolygonToCellsSize", "maxPolygonToCellsSizeExperimental"):
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.POINTER(_GeoPolygon), ctypes.c_int, ctypes.c_uint32, ctypes.POINTER(ctypes.c_int64)]
        fn.restype = ctypes.c_uint32
    return lib


def _c_loop(ring):
    """An open ring (lat, lng in degrees) as H3's GeoLoop in radians (degsToRads, as h3-py converts)."""
    ring = list(ring)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    verts = (_LatLng * max(1, len(ring)))(*[_LatLng(lat * (math.pi / 180), lng * (math.pi / 180)) for lat, lng in ring])
    return _GeoLoop(len(ring), verts), verts


def _expected_size(lib, name, polygons, res, flags=0, names=False):
    """The C estimate summed over the polygons, or None where it fails (with `names`, its
    error's name)."""
    total = 0
    for outer, holes in polygons:
        loop, keep = _c_loop(outer)
        hole_loops = [_c_loop(h) for h in holes]
        arr = (_GeoLoop * max(1, len(hole_loops)))(*[h[0] for h in hole_loops])
        gp = _GeoPolygon(loop, len(hole_loops), arr)
        out = ctypes.c_int64()
        code = getattr(lib, name)(ctypes.byref(gp), res, flags, ctypes.byref(out))
        if code != 0:
            return ("error:E_FAILED" if code == 1 else f"error:code {code}") if names else None
        total += out.value
    return str(total)


def _polygons(rng, cells, hard, count, max_cells=MAX_CELLS):
    """(polygons, resolution) cases: each `polygons` a list of (outer, holes) rings in (lat, lng)."""
    out = []
    pentagons = [p for p in hard if h3i.is_pentagon(p)] or [h3i.latlng_to_cell(0, 0, 0)]

    def random_center():
        kind = rng.random()
        if kind < 0.15:  # by the antimeridian
            return rng.uniform(-70, 70), rng.choice([179.9, -179.9, 180.0, -180.0]) + rng.uniform(-0.5, 0.5)
        if kind < 0.25:  # near a pole
            return rng.choice([1, -1]) * rng.uniform(80, 89.9), rng.uniform(-180, 180)
        if kind < 0.35:  # on a pentagon
            return h3i.cell_to_latlng(rng.choice(pentagons))
        lat = math.degrees(math.asin(rng.uniform(-1, 1)))
        return lat, rng.uniform(-180, 180)

    for i in range(count):
        lat0, lng0 = random_center()
        radius = 10 ** rng.uniform(-4, 1.3)  # 10 m to 2,000 km
        small = rng.random() < 0.1
        res = _resolution(rng, radius, small, max_cells)
        outer = _star(rng, lat0, lng0, radius, rng.randint(3, 24))
        holes = []
        if rng.random() < 0.3:
            holes.append(_star(rng, lat0, lng0, radius * 0.3, rng.randint(3, 10), inner=0.5))
        polygons = [(outer, holes)]
        if rng.random() < 0.15:  # a second, possibly overlapping, polygon
            lat1 = max(-89, min(89, lat0 + rng.uniform(-2, 2) * radius))
            polygons.append((_star(rng, lat1, lng0 + rng.uniform(-2, 2) * radius, radius * rng.uniform(0.3, 1), rng.randint(3, 12)), []))
        out.append((polygons, res))

    # edges and corners exactly on cell centres of the target resolution (the ray cast's ties),
    # and polygons whose vertices are a cell's own vertices
    for _ in range(max(10, count // 6)):
        c = rng.choice(cells)
        res = h3i.get_resolution(c)
        disk = h3i.grid_disk(c, rng.randint(2, 5))
        pts = [h3i.cell_to_latlng(x) for x in disk]
        lats, lngs = sorted({p[0] for p in pts}), sorted({p[1] for p in pts})
        if len(lats) < 2 or len(lngs) < 2 or lngs[-1] - lngs[0] > 180:
            continue
        s, n = rng.choice(lats[: len(lats) // 2 + 1]), rng.choice(lats[len(lats) // 2:])
        w, e = rng.choice(lngs[: len(lngs) // 2 + 1]), rng.choice(lngs[len(lngs) // 2:])
        if s < n and w < e:
            out.append(([([(s, w), (s, e), (n, e), (n, w)], [])], res))
        b = list(h3i.cell_to_boundary(c))
        out.append(([(b, [])], res))
        out.append(([(b, [])], min(15, res + rng.randint(1, 2))))

    # degenerate, empty, and out-of-range coordinates
    out.append(([([(10.0, 20.0), (11.0, 20.0), (12.0, 20.0)], [])], 5))    # no width
    out.append(([([(10.0, 20.0), (10.0, 21.0), (10.0, 22.0)], [])], 5))    # no height
    out.append(([([], [])], 7))                                              # empty
    out.append(([([(95.0, 10.0), (85.0, 200.0), (80.0, 10.0)], [])], 2))   # beyond the range
    out.append(([([(-10.0, -190.0), (-12.0, -170.0), (-14.0, -185.0)], [])], 4))
    return out


def _tools(rng, cells, hard, count, max_cells=MAX_CELLS, names=False):
    tools = {}

    def tool(name, res, mode):
        # no size guard: the CLI must do what H3 does with the estimate (fail beyond it)
        args = ["--resolution", str(res), "--max-cells", str(2**62)] + (["--containment", mode] if mode else [])
        key = (name, res, mode)
        if key not in tools:
            tools[key] = _Tool(name, ["h3", name, *args])
        return tools[key]

    for polygons, res in _polygons(rng, cells, hard, count, max_cells):
        line = _geojson(rng, polygons)
        try:
            wants = [(m, _expected(polygons, res, m, names)) for m in [None, *MODES]]
        except _Unanswerable:
            continue
        for mode, want in wants:
            name = "polygonToCells" if mode is None else rng.choice(["polygonToCells", "polygonToCellsExperimental"])
            tool(name, res, mode).add(line, want)

    # the size estimates, on a share of the same polygons (the experimental one takes any mode)
    lib = _size_c()
    for polygons, res in _polygons(rng, cells, hard, max(20, count // 5), max_cells):
        line = _geojson(rng, polygons)
        if not polygons[0][0]:
            continue  # h3-py never calls H3 on an empty polygon
        key = ("maxPolygonToCellsSize", res, None)
        if key not in tools:
            tools[key] = _Tool(key[0], ["h3", key[0], "--resolution", str(res)])
        tools[key].add(line, _expected_size(lib, "maxPolygonToCellsSize", polygons, res, names=names))
        mode = rng.choice(list(MODES))
        key = ("maxPolygonToCellsSizeExperimental", res, mode)
        if key not in tools:
            tools[key] = _Tool(key[0], ["h3", key[0], "--resolution", str(res), "--containment", mode])
        tools[key].add(line, _expected_size(lib, "maxPolygonToCellsSizeExperimental", polygons, res, list(MODES).index(mode), names))

    # lines that are not polygons
    for bad in ["{", "[]", '{"type":"Point","coordinates":[1,2]}', '{"type":"Polygon"}',
                '{"type":"Polygon","coordinates":[[[1,2],[3,4]]]}', '{"type":"Polygon","coordinates":[[[1,"a"],[3,4],[5,6]]]}',
                '{"type":"Polygon","coordinates":[[[1],[3,4],[5,6]]]}', "not json"]:
        tool("polygonToCells", 5, None).add(bad, "error:" if names else None)
    return list(tools.values())


def checks(binary, rng, cells, hard, seed, timeout, run_cli, Check, count=300):
    """The checks of this slice, one `Check` per tool (its calls merged)."""
    return run_tools(_tools(rng, cells, hard, count), binary, seed, timeout, run_cli, Check)


def fixture_lines(rng, cells, hard, count, max_cells):
    """The cases as fixture lines for the Swift tests (scripts/dev/gen_h3_regions_golden.py):
    `tool<TAB>options<TAB>GeoJSON line<TAB>expected`, expected `error:E_NAME` where H3 refuses
    and `error:` where h3-py refuses the input itself."""
    tools = _tools(rng, cells, hard, count, max_cells, names=True)
    return [f"{t.name}\t{' '.join(t.args[2:])}\t{line}\t{want}"
            for t in tools for line, want in zip(t.lines, t.expected)]
