#!/usr/bin/env python3
"""Differential check of the geo-enrich CLI's H3 against H3 4.5.0 (PyPI h3==4.5.0).

Generates fresh random points (uniform on the sphere, plus ~10% hard points: pentagons,
icosahedron edges, vertices and face centres, poles, antimeridian, out-of-range and
non-finite coordinates, cell centres and vertices) at random resolutions 0...15, pipes
them through `geo-enrich h3 ...` and compares every answer exactly with h3-py:

  cell      stdin `LAT LNG RES` (floats as Python repr) -> lower-case hex, or `error: ...`
  center    stdin one cell per line                     -> `LAT LNG`
  boundary  stdin one cell per line                     -> `LAT LNG,LAT LNG,...`
  disk      stdin one cell per line, --k K (K = 1...3)  -> space-separated cells (a set)
  parent    stdin one cell per line, --resolution R     -> the parent (R from 0 to the cell's);
            R finer than the cell's -> `error: ...`
  children  stdin one cell per line, --resolution R     -> the children, space-separated, in
            ascending order (R 0-3 levels finer); R coarser, or more than 7 levels finer -> `error: ...`
  info      stdin one 64-bit value in hex per line      -> JSON
            {"valid":true,"resolution":9,"base_cell":20,"pentagon":false}
            (for an invalid value, {"valid":false,...} or `error: ...`)

and the directed edge and vertex tools named as H3's C functions (areNeighborCells ...
isValidVertex; see scripts/geoenrich_tools/h3_edges_check.py), the inspection tools
(h3_inspection_check.py), the traversal tools (h3_grid_check.py), polygonToCells in its five
ways and the size estimates (h3_regions_check.py), and cellsToMultiPolygon on fresh random sets
of cells against h3-py's cells_to_geo (h3_multipolygon_check.py).

Floats in the CLI output are parsed with float() and must equal h3's bit for bit.
The seed is printed; pass it back with --seed to replay a failure.

usage: PYTHONPATH=scripts python3 scripts/ci/h3_diffcheck.py --bin PATH_TO_geo-enrich [--points 200000] [--seed N]
exit status: 0 when every check passes, 1 on any mismatch, 2 on bad usage.
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
import time

from geoenrich_tools import h3_grid_check  # noqa: E402
from geoenrich_tools import h3_regions_check  # noqa: E402
from geoenrich_tools import h3_inspection_check  # noqa: E402
from geoenrich_tools import h3_edges_check
from geoenrich_tools import h3_multipolygon_check
from geoenrich_tools import h3_testpoints as tp

tp.require_h3_version()
import h3  # noqa: E402
import h3.api.basic_int as h3i  # noqa: E402

SHOW = 10  # mismatches listed per check


def bits(x):
    return struct.pack("<d", x)


def same_float(text, expected):
    """True when `text` parses to exactly `expected` (sign of zero included)."""
    try:
        return bits(float(text)) == bits(expected)
    except ValueError:
        return False


class Check:
    """One kind of comparison: its cases, mismatches and verdict."""

    def __init__(self, name):
        self.name = name
        self.cases = 0
        self.mismatches = 0
        self.examples = []
        self.fatal = None  # the CLI failed as a whole (crash, wrong line count)
        self.seconds = 0.0

    def mismatch(self, text):
        self.mismatches += 1
        if len(self.examples) < SHOW:
            self.examples.append(text)

    @property
    def passed(self):
        return self.fatal is None and self.mismatches == 0 and self.cases > 0


def run_cli(binary, args, lines, timeout):
    """Feed `lines` to the CLI at once; return its stdout lines or raise RuntimeError."""
    text = "".join(line + "\n" for line in lines)
    try:
        proc = subprocess.run([binary, *args], input=text, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"`{' '.join(['geo-enrich', *args])}` timed out after {timeout} s")
    except OSError as e:
        raise RuntimeError(f"cannot run {binary}: {e}")
    out = proc.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    # the contract: exit status 1 exactly when some line was answered with `error: ...`
    expected_status = 1 if any(o.startswith("error:") for o in out) else 0
    if proc.returncode != expected_status:
        tail = proc.stderr.strip().splitlines()[-5:]
        raise RuntimeError(f"`{' '.join(['geo-enrich', *args])}` exited with {proc.returncode}, "
                           f"expected {expected_status}; stderr: {' | '.join(tail) or '(empty)'}")
    if len(out) != len(lines):
        raise RuntimeError(f"`{' '.join(['geo-enrich', *args])}` printed {len(out)} lines "
                           f"for {len(lines)} input lines")
    return out


# --- inputs ---------------------------------------------------------------------------------

def make_points(rng, n, special_fraction):
    pts = []
    for _ in range(n):
        if rng.random() < special_fraction:
            lat, lng = tp.random_special(rng)
        else:
            lat, lng = tp.uniform_on_sphere(rng)
        pts.append((float(lat), float(lng), rng.randrange(16)))
    return pts


def expected_cell(lat, lng, res):
    try:
        return format(h3i.latlng_to_cell(lat, lng, res), "x")
    except h3.H3LatLngDomainError:
        return None


def invalid_values(rng, cells, n):
    """64-bit values that are mostly not cells: mutated cells and random bits."""
    out = []
    for _ in range(n):
        c = rng.choice(cells)
        r = rng.random()
        if r < 0.3:
            out.append(c ^ (1 << rng.randrange(64)))          # one bit flipped
        elif r < 0.5:
            res = h3i.get_resolution(c)
            if res > 0:                                    # an active digit set to 7
                out.append(c | (7 << ((15 - rng.randint(1, res)) * 3)))
            else:
                out.append(c | (1 << 63))
        elif r < 0.7:
            res = h3i.get_resolution(c)
            if res < 15:                                   # an unused digit not 7
                out.append(c & ~(7 << ((15 - rng.randint(res + 1, 15)) * 3)))
            else:
                out.append(c | (1 << 56))
        else:
            out.append(rng.getrandbits(64))
    return out


# --- checks ---------------------------------------------------------------------------------

def check_cell(binary, points, seed, timeout):
    chk = Check("cell")
    lines = [f"{lat!r} {lng!r} {res}" for lat, lng, res in points]
    expected = [expected_cell(*p) for p in points]
    try:
        out = run_cli(binary, ["h3", "cell"], lines, timeout)
    except RuntimeError as e:
        chk.fatal = str(e)
        chk.cases = len(lines)
        return chk, expected
    for line, want, got in zip(lines, expected, out):
        chk.cases += 1
        if want is None:
            ok = got.startswith("error:")
            want_text = "error: (latLngDomain)"
        else:
            ok = got == want
            want_text = want
        if not ok:
            chk.mismatch(f"[seed {seed}] input `{line}`: expected {want_text}, got `{got}`")
    return chk, expected


def check_center(binary, cells, seed, timeout):
    chk = Check("center")
    lines = [format(c, "x") for c in cells]
    try:
        out = run_cli(binary, ["h3", "center"], lines, timeout)
    except RuntimeError as e:
        chk.fatal, chk.cases = str(e), len(lines)
        return chk
    for line, c, got in zip(lines, cells, out):
        chk.cases += 1
        lat, lng = h3i.cell_to_latlng(c)
        parts = got.split()
        if len(parts) != 2 or not same_float(parts[0], lat) or not same_float(parts[1], lng):
            chk.mismatch(f"[seed {seed}] cell {line}: expected `{lat!r} {lng!r}`, got `{got}`")
    return chk


def check_boundary(binary, cells, seed, timeout):
    chk = Check("boundary")
    lines = [format(c, "x") for c in cells]
    try:
        out = run_cli(binary, ["h3", "boundary"], lines, timeout)
    except RuntimeError as e:
        chk.fatal, chk.cases = str(e), len(lines)
        return chk
    for line, c, got in zip(lines, cells, out):
        chk.cases += 1
        want = h3i.cell_to_boundary(c)
        verts = [v.split() for v in got.split(",")] if got else []
        ok = len(verts) == len(want) and all(
            len(v) == 2 and same_float(v[0], w[0]) and same_float(v[1], w[1]) for v, w in zip(verts, want))
        if not ok:
            if len(verts) != len(want):
                what = f"expected {len(want)} vertices, got {len(verts)}: `{got}`"
            else:
                i = next(i for i, (v, w) in enumerate(zip(verts, want))
                         if len(v) != 2 or not same_float(v[0], w[0]) or not same_float(v[1], w[1]))
                what = f"vertex {i}: expected `{want[i][0]!r} {want[i][1]!r}`, got `{' '.join(verts[i])}`"
            chk.mismatch(f"[seed {seed}] cell {line}: {what}")
    return chk


def check_disk(binary, cells_by_k, seed, timeout):
    chk = Check("disk")
    for k, cells in sorted(cells_by_k.items()):
        lines = [format(c, "x") for c in cells]
        try:
            out = run_cli(binary, ["h3", "disk", "--k", str(k)], lines, timeout)
        except RuntimeError as e:
            chk.fatal, chk.cases = str(e), chk.cases + len(lines)
            return chk
        for line, c, got in zip(lines, cells, out):
            chk.cases += 1
            want = {format(x, "x") for x in h3i.grid_disk(c, k)}
            items = got.split()
            have = set(items)
            if have != want or len(items) != len(have):
                chk.mismatch(f"[seed {seed}] disk --k {k} of {line}: missing {sorted(want - have)}, "
                             f"extra {sorted(have - want)}, duplicates {len(items) - len(have)}")
    return chk


def by_resolution(pairs):
    """{resolution: [cells]} from (cell, resolution) pairs: the CLI takes one --resolution a run."""
    groups = {}
    for c, r in pairs:
        groups.setdefault(r, []).append(c)
    return groups


def check_parent(binary, pairs, seed, timeout):
    """`h3 parent --resolution R` against cell_to_parent; a resolution finer than the cell's is an error."""
    chk = Check("parent")
    for res, cells in sorted(by_resolution(pairs).items()):
        lines = [format(c, "x") for c in cells]
        try:
            out = run_cli(binary, ["h3", "parent", "--resolution", str(res)], lines, timeout)
        except RuntimeError as e:
            chk.fatal, chk.cases = str(e), chk.cases + len(lines)
            return chk
        for line, c, got in zip(lines, cells, out):
            chk.cases += 1
            try:
                want = format(h3i.cell_to_parent(c, res), "x")
            except h3.H3BaseException as e:
                want = None
                why = type(e).__name__
            if want is None:
                if not got.startswith("error:"):
                    chk.mismatch(f"[seed {seed}] parent --resolution {res} of {line} (res "
                                 f"{h3i.get_resolution(c)}): h3-py raises {why}, got `{got}`")
            elif got != want:
                chk.mismatch(f"[seed {seed}] parent --resolution {res} of {line}: expected {want}, got `{got}`")
    return chk


def check_children(binary, pairs, seed, timeout):
    """`h3 children --resolution R` against cell_to_children, in ascending order; a resolution
    coarser than the cell's (h3-py raises) and one more than 7 levels finer (the CLI's limit) are errors."""
    chk = Check("children")
    for res, cells in sorted(by_resolution(pairs).items()):
        lines = [format(c, "x") for c in cells]
        try:
            out = run_cli(binary, ["h3", "children", "--resolution", str(res)], lines, timeout)
        except RuntimeError as e:
            chk.fatal, chk.cases = str(e), chk.cases + len(lines)
            return chk
        for line, c, got in zip(lines, cells, out):
            chk.cases += 1
            cell_res = h3i.get_resolution(c)
            if res < cell_res or res - cell_res > 7:
                if not got.startswith("error:"):
                    why = "coarser than the cell's" if res < cell_res else "more than 7 levels finer"
                    chk.mismatch(f"[seed {seed}] children --resolution {res} of {line} (res {cell_res}, "
                                 f"{why}): expected an error, got `{got[:80]}`")
                continue
            want = sorted(h3i.cell_to_children(c, res))
            try:
                have = [int(x, 16) for x in got.split(" ")]
            except ValueError:
                have = None
            if have != want or got != " ".join(format(x, "x") for x in want):
                detail = (f"not a list of cells: `{got[:80]}`" if have is None else
                          f"{len(want)} expected, {len(have)} given; missing {len(set(want) - set(have))}, "
                          f"extra {len(set(have) - set(want))}, ascending {have == sorted(have)}")
                chk.mismatch(f"[seed {seed}] children --resolution {res} of {line} (res {cell_res}): {detail}")
    return chk


def check_info(binary, values, seed, timeout):
    chk = Check("info")
    lines = [format(v, "x") for v in values]
    try:
        out = run_cli(binary, ["h3", "info"], lines, timeout)
    except RuntimeError as e:
        chk.fatal, chk.cases = str(e), len(lines)
        return chk
    for line, v, got in zip(lines, values, out):
        chk.cases += 1
        valid = bool(h3i.is_valid_cell(v))
        if valid:
            want = {"valid": True, "resolution": h3i.get_resolution(v),
                    "base_cell": h3i.get_base_cell_number(v), "pentagon": bool(h3i.is_pentagon(v))}
        else:
            want = {"valid": False}
        if not valid and got.startswith("error:"):
            continue
        try:
            have = json.loads(got)
        except ValueError:
            have = None
        # Compare with types: JSON true must not match 1, nor 9.0 match 9.
        ok = isinstance(have, dict) and all(
            k in have and type(have[k]) is type(x) and have[k] == x for k, x in want.items())
        if not ok:
            chk.mismatch(f"[seed {seed}] info {line}: expected {json.dumps(want, separators=(',', ':'))}, "
                         f"got `{got}`")
    return chk


def main():
    ap = argparse.ArgumentParser(description="Compare `geo-enrich h3` with h3-py 4.5.0 on fresh random input.")
    ap.add_argument("--bin", required=True, help="path to the geo-enrich executable")
    ap.add_argument("--points", type=int, default=200_000, help="random points for `h3 cell` (default: 200000)")
    ap.add_argument("--seed", type=int, help="random seed (default: fresh from os.urandom; printed)")
    ap.add_argument("--special", type=float, default=0.1,
                    help="fraction of hard points among them (default: 0.1)")
    ap.add_argument("--center-cells", type=int, default=20_000,
                    help="cells for `h3 center` and `h3 boundary` (default: 20000)")
    ap.add_argument("--disk-cells", type=int, default=3_000,
                    help="cells for `h3 disk`, split over k = 1, 2, 3 (default: 3000)")
    ap.add_argument("--parent-cells", type=int, default=20_000,
                    help="cells for `h3 parent`, each at a random coarser resolution, some at a finer one "
                         "(an error) (default: 20000)")
    ap.add_argument("--children-cells", type=int, default=3_000,
                    help="cells for `h3 children`, 0-3 levels finer, some coarser or 8 finer (errors) "
                         "(default: 3000)")
    ap.add_argument("--info-values", type=int, default=4_000,
                    help="values for `h3 info`, a quarter of them invalid (default: 4000)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds allowed per CLI call (default: 300)")
    args = ap.parse_args()

    if not (os.path.isfile(args.bin) and os.access(args.bin, os.X_OK)):
        print(f"error: --bin {args.bin!r} is not an executable file", file=sys.stderr)
        return 2
    if args.points < 1 or not 0 <= args.special <= 1:
        print("error: --points must be positive and --special in 0...1", file=sys.stderr)
        return 2

    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    print(f"h3_diffcheck: seed {seed}, {args.points} points, h3-py {h3.__version__}, bin {args.bin}")
    print(f"replay with: {sys.argv[0]} --bin {args.bin} --points {args.points} --seed {seed}")
    sys.stdout.flush()
    rng = random.Random(seed)

    points = make_points(rng, args.points, args.special)
    checks = []

    def timed(run, *a):
        t0 = time.monotonic()
        result = run(*a)
        chk = result[0] if isinstance(result, tuple) else result
        chk.seconds = time.monotonic() - t0
        checks.append(chk)
        return result

    _, expected = timed(check_cell, args.bin, points, seed, args.timeout)

    # Later checks use h3's own cells, so a broken `h3 cell` does not hide them.
    cells = list(dict.fromkeys(int(c, 16) for c in expected if c is not None))
    rng.shuffle(cells)
    hard = [p for res in range(16) for p in h3i.get_pentagons(res)]
    center_cells = rng.sample(hard, min(len(hard), 64)) + cells[:args.center_cells]
    timed(check_center, args.bin, center_cells, seed, args.timeout)
    timed(check_boundary, args.bin, center_cells, seed, args.timeout)

    per_k = max(1, args.disk_cells // 3)
    disk_pool = cells[args.center_cells:] or cells
    by_k = {}
    for k in (1, 2, 3):
        chosen = [rng.choice(disk_pool) for _ in range(per_k)]
        chosen += rng.sample(hard, 8)  # disks around pentagons take H3's slow path
        by_k[k] = chosen
    timed(check_disk, args.bin, by_k, seed, args.timeout)

    # parents: every resolution from 0 to the cell's; one in 20 asks for a finer one (an error)
    parent_pairs = []
    for c in [rng.choice(cells) for _ in range(args.parent_cells)] + hard:
        r = h3i.get_resolution(c)
        if r < 15 and rng.random() < 0.05:
            parent_pairs.append((c, rng.randint(r + 1, 15)))
        else:
            parent_pairs.append((c, rng.randint(0, r)))
    timed(check_parent, args.bin, parent_pairs, seed, args.timeout)

    # children: 0 to 3 levels finer (up to 343 cells a line); one in 20 is an error: a coarser
    # resolution, or 8 levels finer (the CLI refuses more than 7)
    child_pairs = []
    for c in [rng.choice(cells) for _ in range(args.children_cells)] + rng.sample(hard, 32):
        r = h3i.get_resolution(c)
        if rng.random() < 0.05 and (r > 0 or r + 8 <= 15):
            child_pairs.append((c, rng.randint(0, r - 1) if r > 0 and (r + 8 > 15 or rng.random() < 0.5) else r + 8))
        else:
            child_pairs.append((c, min(15, r + rng.randint(0, 3))))
    timed(check_children, args.bin, child_pairs, seed, args.timeout)

    n_invalid = args.info_values // 4
    info_values = [rng.choice(cells) for _ in range(args.info_values - n_invalid)]
    info_values += invalid_values(rng, cells, n_invalid)
    rng.shuffle(info_values)
    timed(check_info, args.bin, info_values, seed, args.timeout)

    # the tools named after H3's C functions: inspection, hierarchy, compaction, measures
    t0 = time.monotonic()
    for chk in h3_inspection_check.checks(args.bin, rng, cells, hard, seed, args.timeout, run_cli, Check):
        chk.seconds = time.monotonic() - t0
        t0 = time.monotonic()
        checks.append(chk)
    # directed edges and vertices, one check per tool (geoenrich_tools/h3_edges_check.py)
    h3_edges_check.run(args.bin, rng, cells, hard, seed, args.timeout, timed, Check, run_cli, same_float)

    # traversal and local IJ: distances, paths, rings, the gridDisk variants
    t0 = time.monotonic()
    for chk in h3_grid_check.checks(args.bin, rng, cells, hard, seed, args.timeout, run_cli, Check):
        chk.seconds = time.monotonic() - t0
        t0 = time.monotonic()
        checks.append(chk)
    # cellsToMultiPolygon: fresh random sets of cells, every ring and number against h3-py's GeoJSON
    t0 = time.monotonic()
    for chk in h3_multipolygon_check.checks(args.bin, rng, cells, hard, seed, args.timeout, run_cli, Check):
        chk.seconds = time.monotonic() - t0
        t0 = time.monotonic()
        checks.append(chk)

    # polygons to cells: H3's polygonToCells and the experimental walk in its four modes
    t0 = time.monotonic()
    for chk in h3_regions_check.checks(args.bin, rng, cells, hard, seed, args.timeout, run_cli, Check):
        chk.seconds = time.monotonic() - t0
        t0 = time.monotonic()
        checks.append(chk)

    for chk in checks:
        verdict = "ok" if chk.passed else "FAIL"
        detail = f"{chk.cases} cases, {chk.mismatches} mismatches"
        if chk.fatal:
            detail = f"{chk.cases} cases not checked: {chk.fatal}"
        elif chk.cases == 0:
            detail = "no cases"
        print(f"{verdict:4s} {chk.name:20s} {detail} ({chk.seconds:.1f} s)")
        for ex in chk.examples:
            print(f"       {ex}")
        if chk.mismatches > len(chk.examples):
            print(f"       ... and {chk.mismatches - len(chk.examples)} more (seed {seed})")
    failed = sum(not c.passed for c in checks)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
