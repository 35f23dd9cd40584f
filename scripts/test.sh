#!/usr/bin/env bash
# Runs every test of geo-enrich: installs what is missing, runs the Swift test suite (with the
# geodesic against pyproj bit for bit on a fresh seed's 20,000 pairs), the example
# service's HTTP tests and the threaded modules' tests under the thread sanitizer, then the
# checks of the CLI in scripts/ci:
# H3 against PyPI h3 4.5.0 on 200,000 fresh random points, the lookup against the peer's lookup
# (../shared/bench) on 40,000 points, US ZIP codes against PyPI zipcodes on 20,000, time zones against
# PyPI timezonefinder on 270,000, 150 lookups over randomly damaged data files (refused or
# answered, never a crash), `enrich` against the peer on a fresh 100,000-line stream with every
# kind of broken line (byte-identical), several workers against one on a 200,000-line stream of
# tens of thousands of sessions in every format, the push and the geofence webhook end to end
# against failing servers, the hot operations' allocation counts (benchmarks/Thresholds), and
# Spark local[2] against one process (integrations/spark).
set -euo pipefail
cd "$(dirname "$0")/.."
# the checks import the shared helpers (scripts/geoenrich_tools) and the Spark driver
export PYTHONPATH="$PWD/scripts:$PWD/integrations/spark${PYTHONPATH:+:$PYTHONPATH}"
bin=.build/release/geo-enrich

# the repository's virtual environment, .venv, with the pinned packages; from here on every
# python3 and pip is its own (the checks, the peer's set-up, the benchmarks' generator, Spark)
bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"
bash scripts/build_cli.sh --product geo-enrich
# the geodesic (our Swift Karney) against pyproj bit for bit, on 20,000 pairs of a fresh seed as
# well as the committed ones (GeodesicExactnessTests); the script prints the seed
python3 scripts/dev/gen_geodesic_reference.py --seed $(( (RANDOM << 15) | RANDOM )) --count 20000 \
  --output .build/geodesic_fresh.txt
export GEO_ENRICH_GEODESIC_REFERENCE="$PWD/.build/geodesic_fresh.txt"
swift test
# the DocC catalog (Sources/GeoEnrich/GeoEnrich.docc: an article per use), any warning an error
swift package generate-documentation --target GeoEnrich --warnings-as-errors
# the example service (Examples/IngestService: Hummingbird 2, geo-enrich inside, a package of its
# own): its HTTP tests over loopback, with the release CLI as the reference for its answers
swift build --package-path Examples/IngestService
GEO_ENRICH_BIN="$PWD/$bin" swift test --package-path Examples/IngestService
# data races in the threaded modules (EnrichStream, EnrichEngine, LocationPush)
bash scripts/ci/tsan.sh
python3 scripts/ci/h3_diffcheck.py --bin "$bin" --points 200000

# the peer (../shared/bench, or $GEO_ENRICH_PEER): its lookup and its `enrich`, which two checks
# compare with, and its stream generator. Without it those two are skipped, named at the end,
# and the stream checks run on our own generator.
peer=${GEO_ENRICH_PEER:-$(cd .. && pwd)/shared/bench}
skipped=()
if [ -f "$peer/gen_stream.py" ]; then
  gen="$peer/gen_stream.py"
else
  gen="$PWD/scripts/geoenrich_tools/stream_gen.py"
fi
echo "test.sh: the stream checks generate their streams with $gen"
if [ -f "$peer/peer_enrich.py" ]; then
  # the peer's packages, pip-installed by its set-up into .venv (its pip is the first on PATH);
  # ours must still be at their pins afterwards
  bash "$peer/setup_peer.sh" >/dev/null
  bash scripts/setup.sh --check
  # the lookup against the peer's own classes
  python3 scripts/ci/lookup_diffcheck.py --bin "$bin" --peer "$peer/peer_enrich.py"
else
  skipped+=(lookup_diffcheck)
fi
# US ZIP codes (--postal-countries CA,US) against PyPI zipcodes 3.0.0 and pyproj's geodesic, on
# 20,000 fresh random points (US cities, both borders, Alaska, Hawaii, Puerto Rico, the oceans)
python3 scripts/ci/zip_diffcheck.py --bin "$bin" --points 20000
# time zones (lookup --timezone) against PyPI timezonefinder 9.0.0's own timezone_at on 270,000
# fresh random points (uniform, US, near the package's vertices, exactly on vertices, the
# antimeridian and the poles): every answer equal
python3 scripts/ci/timezone_diffcheck.py --bin "$bin" --strict
# enrich --timezone: each fix's zone against timezonefinder and its utc_offset_s against Python's
# zoneinfo, on fresh fixes one millisecond either side of offset changes and at any time
python3 scripts/ci/utc_offset_check.py --bin "$bin"
# geofence membership (lookup --geofences, contract rule 11) against shapely's covers and pyproj's
# geodesic on fresh fences and points (edges, corners, grid lines, radii ± 1e-7), and broken
# fence files refused naming the feature; then a collection of 2,500, which is read and indexed
# in parts, one a processor
python3 scripts/ci/geofence_check.py --bin "$bin"
python3 scripts/ci/geofence_check.py --bin "$bin" --fences 2500 --points 5000 --form collection
# geofence transitions (enrich --geofences, contract rule 11) against our own reference of rules
# 1-4, 7 and 11 (shapely covers, pyproj geodesics) on a fresh stream of 400 sessions walking
# through fresh fences (edges, corners, holes, overlaps, expiry and eviction gaps, opt-outs):
# output lines, geo arrays, the --geofence-events file and the statistics exactly, under
# --workers 1 and 2, with and without --geofence-dwell; a broken fence file refused
python3 scripts/ci/geofence_stream_check.py --self-test
python3 scripts/ci/geofence_stream_check.py --bin "$bin"
# damaged data files (random bytes, checksum made good) are refused at open or still answer: never a crash
python3 scripts/ci/data_fuzz.py --bin "$bin" --runs 150
# outputs that name an input or each other, unusable push URLs and keys: refused before any
# line is read (exit 64), nothing lost, no secret printed
python3 scripts/ci/adversarial_check.py --bin "$bin"
# faults during a run: extreme timestamps, a full or closed standard error, standard input at an
# offset, an input truncated while read, signals with a blocked output or a draining push, ...
python3 scripts/ci/fault_check.py --bin "$bin"
# the .deb (dpkg -x) and make install, run from elsewhere: data found beside the binary, failures
# name every folder searched
bash scripts/ci/install_check.sh

if [ -f "$peer/peer_enrich.py" ]; then
  # `enrich` against the peer itself: a fresh generated stream with the broken-lines corpus
  # spliced in, under three configurations; output, error lines and statistics byte-identical
  # (--strict: lines that are only equivalent, e.g. a postal distance within 0.5 %, fail)
  python3 scripts/ci/enrich_diffcheck.py --bin "$bin" --peer "$peer/peer_enrich.py" --lines 100000 --strict
else
  skipped+=(enrich_diffcheck)
fi

# our own stream generator (scripts/geoenrich_tools/stream_gen.py), the one the stream checks use
# without the peer: seeded, complete, in time order, every kind of record, what enrich makes of it
python3 scripts/ci/stream_gen_check.py --bin "$bin"

# `enrich --workers 2` and `--workers 4` against `--workers 1`, every format: the same bytes
python3 scripts/ci/workers_check.py --bin "$bin" --gen "$gen" --lines 200000

# the push end to end: enrich --push-url against a local server that fails one request in four
python3 scripts/ci/push_check.py --bin "$bin" --gen "$gen" --lines 20000

# the geofence webhook end to end (enrich --geofence-webhook, push --replay --geofence-webhook):
# fresh fences and 300 sessions walking through them, against servers that fail one request in
# four, stall (a queue of 8 holds the stream back), are down (dead letters, held back, replayed),
# outlast the drain or refuse one session: every transition once or more, in order, byte for byte
python3 scripts/ci/geofence_webhook_check.py --bin "$bin"

# the allocation gate: a hot operation that allocates more than its threshold fails the run
GEN_STREAM="$gen" bash scripts/ci/alloc_gate.sh check

# Spark local[2] against one process: the same output lines, bad-line reports and summed statistics
bash integrations/spark/setup.sh
python3 scripts/ci/spark_check.py --bin "$bin" --gen "$gen" --lines 200000

if [ ${#skipped[@]} -gt 0 ]; then
  echo "test.sh: SKIPPED ${skipped[*]}: they compare with the peer's own code (peer_enrich.py), which is not in $peer; put ../shared beside this repository or set GEO_ENRICH_PEER" >&2
fi
