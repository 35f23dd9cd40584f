#!/usr/bin/env python3
"""Differential check of `geo-enrich lookup` against the peer's own lookup classes.

The reference is ../shared/bench/peer_enrich.py (`Countries`: Natural Earth polygons with
shapely; `Postal`: GeoNames centroids, k-d tree and pyproj geodesic), on the data that
../shared/bench/setup_peer.sh installs. Points: Canadian cities, both sides of the Canada-US
border, the Great Lakes crossings, the whole world, and city points written in other forms
(commas, tabs, signs, exponents, leading zeros, long fractions). Country, postal code and the distance
(0.1 m) must be equal. Prints one line per group and `N passed, M failed`; exits 1 on any mismatch.

usage: PYTHONPATH=scripts python3 scripts/ci/lookup_diffcheck.py --bin PATH/geo-enrich [--peer ../shared/bench/peer_enrich.py] [--seed N]
"""
import argparse
import importlib.util
import math
import os
import random
import subprocess
import sys

import numpy as np

from geoenrich_tools.paths import PEER

CITIES = [(43.6532, -79.3832, 0.15), (45.5019, -73.5674, 0.12), (49.2827, -123.1207, 0.10),
          (51.0447, -114.0719, 0.12), (49.8951, -97.1384, 0.08), (44.6488, -63.5752, 0.06),
          (45.4215, -75.6972, 0.08), (53.5461, -113.4938, 0.10), (46.8139, -71.2080, 0.06),
          (50.4452, -104.6189, 0.05), (47.5615, -52.7126, 0.04), (60.7212, -135.0568, 0.03)]
CROSSINGS = [(42.32, -83.04, 0.08), (43.09, -79.06, 0.05), (46.51, -84.35, 0.05), (49.0, -122.75, 0.08),
             (45.0, -74.7, 0.1), (45.2, -67.3, 0.1), (49.0, -97.2, 0.1)]


def load_peer(path):
    spec = importlib.util.spec_from_file_location("peer_enrich", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--peer", default=PEER)
    ap.add_argument("--data", default=os.environ.get("PEER_DATA", os.path.expanduser("~/.cache/geo-enrich-peer")))
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"lookup_diffcheck: seed {seed}")
    rng = random.Random(seed)
    peer = load_peer(a.peer)
    postal = peer.Postal(os.path.join(a.data, "postalcodes.db"), 20000.0)
    countries = peer.Countries(os.path.join(a.data, "ne_10m_admin_0_countries_deu.shp"))

    groups = {"cities": [], "border": [], "world": []}
    for _ in range(20000):
        c = rng.choice(CITIES)
        groups["cities"].append((c[0] + rng.uniform(-c[2], c[2]),
                                 c[1] + rng.uniform(-c[2], c[2]) / math.cos(math.radians(c[0]))))
    for _ in range(10000):
        c = rng.choice(CROSSINGS)
        groups["border"].append((c[0] + rng.uniform(-c[2], c[2]), c[1] + rng.uniform(-c[2], c[2])))
    for _ in range(10000):
        z = rng.uniform(-1, 1)
        groups["world"].append((math.degrees(math.asin(z)), rng.uniform(-180, 180)))

    # the same kind of points written in the other forms a line may take (the CLI reads plain
    # decimals in place and leaves the rest to Double(_:)): the answer is that of the number
    # Python reads from the text
    forms = [lambda la, lo: f"{la:.6f} {lo:.6f}", lambda la, lo: f"{la!r},{lo!r}",
             lambda la, lo: f"  {la!r}\t{lo!r}  ", lambda la, lo: f"+{la!r} {lo!r}",
             lambda la, lo: f"{la:e} {lo:e}", lambda la, lo: f"00{la:.4f} {lo:.4f}",
             lambda la, lo: f"{la:.25f} {lo:.3f}", lambda la, lo: f"{la:.1f}, ,{lo:.0f}."]
    texts = {}
    groups["forms"] = []
    for _ in range(4000):
        c = rng.choice(CITIES)
        la, lo = c[0] + rng.uniform(-c[2], c[2]), c[1] + rng.uniform(-c[2], c[2])
        line = rng.choice(forms)(la, lo)
        fields = line.replace(",", " ").split()
        groups["forms"].append((float(fields[0]), float(fields[1])))
        texts.setdefault("forms", []).append(line)

    passed = failed = 0
    for name, pts in groups.items():
        text = "".join(f"{t}\n" for t in texts[name]) if name in texts else "".join(f"{la!r} {lo!r}\n" for la, lo in pts)
        proc = subprocess.run([a.bin, "lookup"], input=text, capture_output=True, text=True)
        out = proc.stdout.splitlines()
        if proc.returncode != 0 or len(out) != len(pts):
            print(f"FAIL {name}: exit {proc.returncode}, {len(out)} lines for {len(pts)}; {proc.stderr[-300:]}")
            failed += 1
            continue
        lats = np.array([p[0] for p in pts])
        lons = np.array([p[1] for p in pts])
        cc = countries.of_many(lats, lons)
        ca = [i for i, c in enumerate(cc) if c == "CA"]
        near = dict(zip(ca, postal.nearest_many(lats[ca], lons[ca]))) if ca else {}
        import json
        bad = 0
        for i, line in enumerate(out):
            got = json.loads(line)
            want = {}
            if cc[i]:
                want["country"] = cc[i]
            if near.get(i):
                code, fsa, d = near[i]
                want.update(postalcode=code, fsa=fsa, postal_distance_m=d)
            if got != want:
                bad += 1
                if bad <= 10:
                    print(f"  mismatch {name} {pts[i][0]!r} {pts[i][1]!r}: peer {want}, ours {got} (seed {seed})")
        ok = bad == 0
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name:7s} {len(pts)} points, {len(ca)} in Canada, {bad} mismatches")
    ok = bad_lines_check(a.bin, rng)
    passed += ok
    failed += not ok
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def bad_lines_check(binary, rng):
    """Bad lines among good ones: an error object in each one's place, the others answered,
    a summary on stderr with the count and the first bad line, exit status 1; and output that
    cannot be written (/dev/full) is an error, not a silent success."""
    import json
    good = "49.888171 -97.131112"
    bad = ["abc", "91 0", "", "1 2 3", "nan 0", "49.9 -200"]
    lines = [rng.choice(bad) if rng.random() < 0.3 else good for _ in range(2000)]
    lines[0] = good
    proc = subprocess.run([binary, "lookup"], input="".join(f"{l}\n" for l in lines), capture_output=True, text=True)
    out = proc.stdout.splitlines()
    problems = []
    if proc.returncode != 1:
        problems.append(f"exit {proc.returncode}, not 1")
    if len(out) != len(lines):
        problems.append(f"{len(out)} output lines for {len(lines)}")
    for i, (line, answer) in enumerate(zip(lines, out)):
        got = json.loads(answer)
        if (line == good) == ("error" in got):
            problems.append(f"line {i + 1} {line!r}: {answer}")
            break
    nbad = sum(l != good for l in lines)
    first = next(i for i, l in enumerate(lines) if l != good) + 1
    want = f"geo-enrich: {nbad} of {len(lines)} lines had no answer; the first, line {first}: "
    if want not in proc.stderr:
        problems.append(f"stderr {proc.stderr.strip()!r}, wanted it to start {want!r}")
    with open("/dev/full", "w") as full:
        big = subprocess.run([binary, "lookup"], input=f"{good}\n" * 100_000, stdout=full, stderr=subprocess.PIPE, text=True)
    if big.returncode != 1 or "cannot write standard output" not in big.stderr:
        problems.append(f"writing to /dev/full: exit {big.returncode}, stderr {big.stderr.strip()!r}")
    for p in problems:
        print(f"  {p}")
    print(f"{'FAIL' if problems else 'ok  '} bad lines and a failed output ({nbad} bad lines of {len(lines)})")
    return not problems


if __name__ == "__main__":
    main()
