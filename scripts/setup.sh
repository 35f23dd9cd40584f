#!/usr/bin/env bash
# Installs what geo-enrich needs on a fresh Debian machine, skipping what is already there:
# the C libraries PROJ and GEOS (with pkg-config, which SwiftPM uses to find them) and the
# Python reference packages the tests compare against (h3 4.5.0, pinned).
set -euo pipefail

need_apt=()
for pkg in libproj-dev libgeos-dev pkg-config python3-pip; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

py_has() { python3 -c "import $1, sys; sys.exit(0 if getattr($1, '__version__', '') == '$2' else 1)" 2>/dev/null; }
if ! py_has h3 4.5.0; then
  python3 -m pip install -q --disable-pip-version-check "h3==4.5.0" 2>&1 | grep -v -i "warning" || true
fi

command -v swift >/dev/null || { echo "setup: Swift 6.1 or later is required (swift not on PATH)" >&2; exit 1; }
echo "setup: PROJ $(pkg-config --modversion proj), GEOS $(pkg-config --modversion geos), h3-py $(python3 -c 'import h3; print(h3.__version__)')"
