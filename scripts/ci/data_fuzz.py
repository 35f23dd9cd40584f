#!/usr/bin/env python3
"""Damaged data files never crash a lookup: bytes of `data/postal_ca.bin`, `data/postal_us.bin`, `data/countries.bin` or
`data/timezones.bin`
are changed at random and the checksum made good again (as a buggy builder would write them),
then `geo-enrich lookup` runs over points in Canadian cities, at the border and around the world.

Each run must either answer every line (exit 0: the damage left a valid file, say a centroid
moved inside its cell) or refuse the file at open (exit 1, with a message naming the file);
anything else (a trap, a signal, a hang) fails. Most runs change payload bytes, biased toward
the start of the payload, where the directory structures lie; some flip bits of the header
(sizes, counts, version) or cut the file short. A failing file is kept and its path printed.

Usage: data_fuzz.py --bin .build/release/geo-enrich [--runs 150] [--seed N]
"""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

from geoenrich_tools.geodata_container import HEADER_SIZE, checksum
from geoenrich_tools.paths import REPO

FILES = ("postal_ca.bin", "postal_us.bin", "countries.bin", "timezones.bin")
# city boxes (Canadian, then US), two border crossings (lat, lng, half-width in degrees)
BOXES = [(43.65, -79.38, 0.3), (45.5, -73.57, 0.3), (49.28, -123.12, 0.3), (51.04, -114.07, 0.3),
         (40.71, -74.0, 0.3), (41.88, -87.63, 0.3), (37.77, -122.42, 0.2), (39.74, -104.99, 0.5),
         (42.32, -83.04, 0.2), (49.0, -122.75, 0.2)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", default=os.path.join(REPO, "data"))
    ap.add_argument("--runs", type=int, default=150)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"data_fuzz: seed {seed}, {a.runs} runs")
    rng = random.Random(seed)
    originals = {f: open(os.path.join(a.data, f), "rb").read() for f in FILES}
    points = []
    for _ in range(1500):
        la, lo, w = rng.choice(BOXES)
        points.append(f"{la + rng.uniform(-w, w):.6f} {lo + rng.uniform(-w, w):.6f}")
    for _ in range(500):
        points.append(f"{rng.uniform(-90, 90):.6f} {rng.uniform(-180, 180):.6f}")
    text = "\n".join(points) + "\n"

    outcomes = {"answered": 0, "refused": 0}
    failures = 0
    with tempfile.TemporaryDirectory(prefix="geo-enrich-fuzz-") as work:
        for run in range(a.runs):
            target = rng.choice(FILES)
            for f, b in originals.items():
                with open(os.path.join(work, f), "wb") as out:
                    out.write(b)
            b = bytearray(originals[target])
            payload = len(b) - HEADER_SIZE
            mode = rng.random()
            if mode < 0.15:
                # the header's fields (magic, version, sizes, checksum, counts, source)
                span = "header"
                for _ in range(rng.randint(1, 3)):
                    b[rng.randrange(HEADER_SIZE)] ^= 1 << rng.randrange(8)
            elif mode < 0.25:
                span = "truncated"
                del b[rng.randrange(len(b)):]
            else:
                span = min(payload, rng.choice([4096, 65536, 1 << 20, payload]))
                for _ in range(rng.randint(1, 8)):
                    i = HEADER_SIZE + rng.randrange(span)
                    if rng.random() < 0.5:
                        b[i] = rng.randrange(256)
                    else:
                        b[i] ^= 1 << rng.randrange(8)
                struct.pack_into("<Q", b, 24, checksum(bytes(b[HEADER_SIZE:])))
            with open(os.path.join(work, target), "wb") as out:
                out.write(b)
            try:
                p = subprocess.run([a.bin, "lookup", "--postal-countries", "CA,US", "--timezone", "--data", work], input=text, capture_output=True, text=True,
                                   timeout=120)
                code, stderr = p.returncode, p.stderr
                answered = code == 0 and len(p.stdout.splitlines()) == len(points)
            except subprocess.TimeoutExpired:
                code, stderr, answered = "timeout", "", False
            if answered:
                outcomes["answered"] += 1
            elif code == 1 and target in stderr:
                outcomes["refused"] += 1
            else:
                failures += 1
                kept = os.path.join(tempfile.gettempdir(), f"data_fuzz_{seed}_{run}_{target}")
                shutil.copy(os.path.join(work, target), kept)
                print(f"FAIL run {run}: {target} damaged ({span}): exit {code}, "
                      f"stderr {stderr[-300:]!r}; the file is kept at {kept}")
    print(f"data_fuzz: {outcomes['answered']} answered, {outcomes['refused']} refused, {failures} failed "
          f"(seed {seed})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
