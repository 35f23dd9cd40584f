#!/usr/bin/env bash
# Installs what geo-enrich needs on a fresh Debian machine, skipping what is already there:
# the C libraries PROJ and GEOS (with pkg-config, which SwiftPM uses to find them) and the
# Python packages the tests compare against, pinned in scripts/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in libproj-dev libgeos-dev pkg-config python3-pip; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# pip only when a pin is not met (pip itself would ask the index every time)
unmet=$(python3 - scripts/requirements.txt <<'PY'
import sys
from importlib import metadata
for line in open(sys.argv[1]):
    req = line.split("#")[0].strip()
    if req:
        name, version = req.split("==")
        try:
            if metadata.version(name) != version:
                print(req)
        except metadata.PackageNotFoundError:
            print(req)
PY
)
if [ -n "$unmet" ]; then
  echo "setup: installing $(echo $unmet)"
  python3 -m pip install -q --disable-pip-version-check -r scripts/requirements.txt 2>&1 | grep -v -i "warning" || true
fi

command -v swift >/dev/null || { echo "setup: Swift 6.1 or later is required (swift not on PATH)" >&2; exit 1; }
echo "setup: PROJ $(pkg-config --modversion proj), GEOS $(pkg-config --modversion geos), h3-py $(python3 -c 'import h3; print(h3.__version__)')"
