#!/usr/bin/env python3
"""Writes Tests/GeoLookupTests/Fixtures/timezone_reference.txt: points with the zone PyPI
`timezonefinder==9.0.0` (`TimezoneFinder().timezone_at`, data 3.2026.3.post1) gives them, for
TimeZoneIndexTests (which read the file without Python).

Named points first (the Indiana, Kentucky and North Dakota counties whose zones differ from
their neighbours', Alaska, Hawaii, Puerto Rico, Canadian cities, oceans, the antimeridian, the
poles, a truncation example of SPEC.md), then 6,000 random points of a fixed seed: 2,000 uniform
on the sphere, 2,000 in the US boxes and 2,000 within 0.01 degree of the package's vertices.
Each line: `LAT LNG ZONE [# label]`, the coordinates as Python's repr (they read back as the
same doubles).

usage: python3 scripts/dev/gen_timezone_reference.py   (with timezonefinder 9.0.0 installed)
"""
import os

import numpy as np
import timezonefinder
from timezonefinder import TimezoneFinder

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "GeoLookupTests", "Fixtures", "timezone_reference.txt")

NAMED = [
    # Indiana: eight zones of its own, and Chicago's in the north-west and south-west corners
    (39.7684, -86.1581, "Indianapolis IN"), (41.5934, -87.3464, "Gary IN"), (37.9716, -87.5711, "Evansville IN"),
    (37.9514, -86.7678, "Tell City IN"), (41.2959, -86.6250, "Knox IN"), (41.0514, -86.6031, "Winamac IN"),
    (38.4917, -87.2786, "Petersburg IN"), (38.7478, -85.0672, "Vevay IN"), (38.3745, -86.3444, "Marengo IN"),
    (38.6773, -87.5286, "Vincennes IN"),
    # Kentucky: Louisville and Monticello, and the Central half of the state
    (38.2527, -85.7585, "Louisville KY"), (36.8298, -84.8491, "Monticello KY"), (36.9685, -86.4808, "Bowling Green KY"),
    # North Dakota's three Central zones and Mountain's south-west
    (47.1164, -101.2996, "Center ND"), (46.8450, -101.4113, "New Salem ND"), (47.2636, -101.7779, "Beulah ND"),
    (46.8083, -100.7837, "Bismarck ND"), (46.4, -103.5, "Bowman County ND"),
    # Alaska, Hawaii, Puerto Rico
    (61.2181, -149.9003, "Anchorage AK"), (58.3019, -134.4197, "Juneau AK"), (57.0531, -135.3300, "Sitka AK"),
    (55.1292, -131.5722, "Metlakatla AK"), (59.5469, -139.7272, "Yakutat AK"), (64.5011, -165.4064, "Nome AK"),
    (51.8800, -176.6581, "Adak AK"), (52.9304, 172.9000, "Attu AK, west of 180"), (21.3069, -157.8583, "Honolulu HI"),
    (18.4655, -66.1057, "San Juan PR"),
    # Canada (the benchmarks' cities) and its border
    (43.6532, -79.3832, "Toronto"), (45.5019, -73.5674, "Montreal"), (49.2827, -123.1207, "Vancouver"),
    (51.0447, -114.0719, "Calgary"), (49.8951, -97.1384, "Winnipeg"), (44.6488, -63.5752, "Halifax"),
    (50.4452, -104.6189, "Regina"), (47.5615, -52.7126, "St. John's"), (60.7212, -135.0568, "Whitehorse"),
    (42.3314, -83.0458, "Detroit"), (42.3149, -83.0364, "Windsor"),
    # elsewhere
    (51.5074, -0.1278, "London"), (43.8256, 87.6168, "Urumqi (overlaps Shanghai's polygon)"),
    (-33.8688, 151.2093, "Sydney"), (27.7172, 85.3240, "Kathmandu"), (-43.9535, -176.5597, "Chatham Islands"),
    # oceans, the antimeridian and the poles (SPEC.md section 7)
    (0.0, -140.0, "Pacific"), (0.0, 0.0, "Gulf of Guinea"), (-40.0, -30.0, "South Atlantic"),
    (0.0, -180.0, "lng -180: the last zone of the cell's list, untested"), (52.0, -180.0, "lng -180 near the Aleutians"),
    (52.0, 180.0, "lng 180 near the Aleutians"), (0.0, 180.0, "lng 180 at the equator"),
    (90.0, 0.0, "north pole"), (-90.0, 0.0, "south pole"), (90.0, 180.0, "north pole, lng 180"),
    (-90.0, -180.0, "south pole, lng -180"),
    # SPEC.md section 4: 96.920628 * 1e7 truncates to 969206279
    (27.0, 96.920628, "a longitude whose product truncates below its decimal"),
]


def main():
    if timezonefinder.__version__ != "9.0.0":
        raise SystemExit(f"timezonefinder {timezonefinder.__version__} is installed; the reference is 9.0.0")
    tf = TimezoneFinder()
    rng = np.random.default_rng(21)
    rows = [(lat, lng, label) for lat, lng, label in NAMED]
    n = 2000
    lats = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    lngs = rng.uniform(-180, 180, n)
    rows += [(a, b, None) for a, b in zip(lats.tolist(), lngs.tolist())]
    rows += [(a, b, None) for a, b in zip(rng.uniform(24.4, 49.4, n).tolist(), rng.uniform(-125, -66.9, n).tolist())]
    vx = np.concatenate([np.asarray(tf.boundaries.coords_of(p))[0] for p in range(len(tf.boundaries))])
    vy = np.concatenate([np.asarray(tf.boundaries.coords_of(p))[1] for p in range(len(tf.boundaries))])
    k = rng.integers(0, len(vx), n)
    lats = np.clip(vy[k] / 1e7 + rng.uniform(-0.01, 0.01, n), -90, 90)
    lngs = np.clip(vx[k] / 1e7 + rng.uniform(-0.01, 0.01, n), -180, 180)
    rows += [(a, b, None) for a, b in zip(lats.tolist(), lngs.tolist())]
    with open(OUT, "w") as f:
        f.write("# LAT LNG ZONE [# label]: TimezoneFinder().timezone_at(lng=LNG, lat=LAT) of PyPI timezonefinder==9.0.0\n"
                "# (data timezonefinder-data==3.2026.3.post1, timezone-boundary-builder 2026c, ODbL 1.0).\n"
                "# Written by scripts/dev/gen_timezone_reference.py: named points, then 6,000 random ones (seed 21).\n")
        for lat, lng, label in rows:
            zone = tf.timezone_at(lng=lng, lat=lat)
            f.write(f"{lat!r} {lng!r} {zone}" + (f" # {label}" if label else "") + "\n")
    print(f"wrote {OUT}: {len(rows)} points")


if __name__ == "__main__":
    main()
