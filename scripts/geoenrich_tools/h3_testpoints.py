"""Hard input points for H3 tests, shared by gen_h3_golden.py and h3_diffcheck.py.

H3 is most fragile where the grid is irregular: at the 12 pentagons (the icosahedron's
vertices), on the 30 icosahedron edges where cells change face, at face centres, at the
poles and the antimeridian, for out-of-range coordinates (H3 accepts any finite degrees),
and exactly at cell centres and cell vertices (ties between neighbouring cells). This
module builds those points from the pinned h3-py itself; nothing is transcribed.

All points are (latitude, longitude) in degrees as Python floats.
"""
import math

REQUIRED_H3 = "4.5.0"


def require_h3_version():
    """Exit with a clear message unless the pinned h3-py is installed."""
    try:
        import h3
    except ImportError:
        found = "none"
    else:
        found = getattr(h3, "__version__", "unknown")
    if found != REQUIRED_H3:
        raise SystemExit(
            f"h3-py {REQUIRED_H3} is required (found {found}); "
            f"install it with: python3 -m pip install 'h3=={REQUIRED_H3}'")


require_h3_version()  # before anything below calls into h3
import h3.api.basic_int as h3i  # noqa: E402


# --- sphere geometry -------------------------------------------------------------------

def to_vec(lat, lng):
    a, b = math.radians(lat), math.radians(lng)
    return (math.cos(a) * math.cos(b), math.cos(a) * math.sin(b), math.sin(a))


def to_latlng(v):
    x, y, z = v
    return (math.degrees(math.atan2(z, math.hypot(x, y))), math.degrees(math.atan2(y, x)))


def normalize(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def angle(a, b):
    d = sum(x * y for x, y in zip(a, b))
    return math.acos(max(-1.0, min(1.0, d)))


def slerp(a, b, t):
    """The point a fraction t of the way along the great-circle arc from a to b."""
    om = angle(a, b)
    s = math.sin(om)
    wa, wb = math.sin((1 - t) * om) / s, math.sin(t * om) / s
    return normalize(tuple(wa * x + wb * y for x, y in zip(a, b)))


def destination(lat, lng, bearing, dist):
    """The point `dist` radians from (lat, lng) along initial `bearing` (radians)."""
    p1, l1 = math.radians(lat), math.radians(lng)
    p2 = math.asin(math.sin(p1) * math.cos(dist) + math.cos(p1) * math.sin(dist) * math.cos(bearing))
    l2 = l1 + math.atan2(math.sin(bearing) * math.sin(dist) * math.cos(p1),
                         math.cos(dist) - math.sin(p1) * math.sin(p2))
    lng2 = math.degrees(l2)
    lng2 = (lng2 + 180.0) % 360.0 - 180.0
    return (math.degrees(p2), lng2)


def uniform_on_sphere(rng):
    """A point uniform on the sphere (not uniform in lat/lng)."""
    z = rng.uniform(-1.0, 1.0)
    return (math.degrees(math.asin(z)), rng.uniform(-180.0, 180.0))


# --- the icosahedron, from the pentagons -------------------------------------------------

def icosahedron():
    """(vertices, edges, faces): the 12 res-0 pentagon centres as unit vectors, the 30 pairs
    of adjacent vertices (angular distance ~63.43 deg) and the 20 triangular faces."""
    verts = [to_vec(*h3i.cell_to_latlng(c)) for c in h3i.get_pentagons(0)]
    edges = [(i, j) for i in range(12) for j in range(i + 1, 12)
             if math.degrees(angle(verts[i], verts[j])) < 70.0]
    es = set(edges)
    faces = [(i, j, k) for (i, j) in edges for k in range(j + 1, 12)
             if (i, k) in es and (j, k) in es]
    assert len(verts) == 12 and len(edges) == 30 and len(faces) == 20
    return verts, edges, faces


def pentagon_centres():
    """Centres of all 12 pentagons at every resolution (they differ by a few ulps)."""
    out = []
    for res in range(16):
        out.extend(h3i.cell_to_latlng(c) for c in h3i.get_pentagons(res))
    return out


_FACE_CENTRES = None


def face_centres():
    """The 20 icosahedron face centres (normalised sums of their three vertices)."""
    global _FACE_CENTRES
    if _FACE_CENTRES is None:
        verts, _, faces = icosahedron()
        _FACE_CENTRES = [to_latlng(normalize(tuple(sum(verts[t][d] for t in f) for d in range(3))))
                         for f in faces]
    return list(_FACE_CENTRES)


def edge_point(verts, edge, t, offset):
    """A point a fraction t along icosahedron edge `edge`, moved `offset` radians sideways."""
    a, b = verts[edge[0]], verts[edge[1]]
    lat, lng = to_latlng(slerp(a, b, t))
    if offset == 0.0:
        return (lat, lng)
    # bearing along the edge at that point, then turn 90 degrees
    la2, ln2 = to_latlng(slerp(a, b, min(1.0, t + 1e-4)) if t < 0.5 else slerp(a, b, max(0.0, t - 1e-4)))
    p1, p2 = math.radians(lat), math.radians(la2)
    dl = math.radians(ln2 - lng)
    along = math.atan2(math.sin(dl) * math.cos(p2),
                       math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl))
    return destination(lat, lng, along + math.pi / 2, offset)


def ulp_neighbours(lat, lng):
    """The point and its nearest floating-point neighbours in latitude and longitude."""
    up, down = math.inf, -math.inf
    return [(math.nextafter(lat, up), lng), (math.nextafter(lat, down), lng),
            (lat, math.nextafter(lng, up)), (lat, math.nextafter(lng, down))]


# --- points sampled at random, for the differential check ---------------------------------

SPECIAL_KINDS = ("pentagon", "face_edge", "face_vertex", "face_centre", "pole", "antimeridian",
                 "lng_out_of_range", "lat_out_of_range", "zero", "cell_centre", "cell_vertex",
                 "non_finite")

_ICOSA = None


def random_special(rng, kind=None):
    """One hard point of a random (or the given) kind."""
    global _ICOSA
    if _ICOSA is None:
        _ICOSA = icosahedron()
    verts, edges, _ = _ICOSA
    kind = kind or rng.choice(SPECIAL_KINDS)
    tiny = lambda: rng.choice((1.0, -1.0)) * 10.0 ** rng.uniform(-14, -1)
    if kind == "pentagon":
        lat, lng = h3i.cell_to_latlng(rng.choice(h3i.get_pentagons(rng.randrange(16))))
        return destination(lat, lng, rng.uniform(0, 2 * math.pi), 10.0 ** rng.uniform(-14, -1))
    if kind == "face_edge":
        return edge_point(verts, rng.choice(edges), rng.random(), rng.choice((0.0, tiny())))
    if kind == "face_vertex":
        lat, lng = to_latlng(rng.choice(verts))
        return rng.choice([(lat, lng)] + ulp_neighbours(lat, lng))
    if kind == "face_centre":
        lat, lng = rng.choice(face_centres())
        return destination(lat, lng, rng.uniform(0, 2 * math.pi), abs(tiny()))
    if kind == "pole":
        lat = rng.choice((90.0, -90.0, 89.99999999, -89.99999999, math.nextafter(90.0, 0.0)))
        return (lat, rng.choice((0.0, -0.0, 180.0, -180.0, 45.0, rng.uniform(-180, 180), 360.0)))
    if kind == "antimeridian":
        lng = rng.choice((180.0, -180.0, 179.9999999, -179.9999999, math.nextafter(180.0, 0.0),
                          math.nextafter(-180.0, 0.0), 180.0 + tiny(), -180.0 + tiny()))
        return (uniform_on_sphere(rng)[0], lng)
    if kind == "lng_out_of_range":
        lat, lng = uniform_on_sphere(rng)
        return (lat, rng.choice((181.0, -190.0, 360.0, 540.0, -720.5, lng + 360.0 * rng.randint(-5, 5),
                                 rng.uniform(-1e6, 1e6))))
    if kind == "lat_out_of_range":
        return (rng.choice((90.5, 100.0, -95.0, 180.0, -270.0, 450.0, rng.uniform(-1e4, 1e4))),
                rng.uniform(-180, 180))
    if kind == "zero":
        return rng.choice(((0.0, rng.uniform(-180, 180)), (-0.0, rng.uniform(-180, 180)),
                           (uniform_on_sphere(rng)[0], rng.choice((0.0, -0.0))), (0.0, 0.0)))
    if kind == "cell_centre":
        lat, lng = uniform_on_sphere(rng)
        return h3i.cell_to_latlng(h3i.latlng_to_cell(lat, lng, rng.randrange(16)))
    if kind == "cell_vertex":
        lat, lng = uniform_on_sphere(rng)
        return rng.choice(h3i.cell_to_boundary(h3i.latlng_to_cell(lat, lng, rng.randrange(16))))
    if kind == "non_finite":
        bad = rng.choice((math.nan, math.inf, -math.inf))
        return rng.choice(((bad, 0.0), (0.0, bad), (bad, bad)))
    raise ValueError(kind)
