#!/usr/bin/env bash
# Runs every test of geo-enrich: installs what is missing, runs the Swift test suite, then
# the differential check of the CLI against PyPI h3 4.5.0 on 200,000 fresh random points.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
swift build -c release --product geo-enrich
swift test
python3 scripts/h3_diffcheck.py --bin .build/release/geo-enrich --points 200000
