#!/usr/bin/env bash
# Installs what the Spark driver needs, skipping what is already there: a Java runtime (OpenJDK 17,
# which Spark 4 requires), pyspark (pip builds it locally, about a minute and 520 MB) and orjson
# (the driver's JSON reader; the peer uses it, so it refuses what the engine refuses), at the
# versions pinned in scripts/requirements.txt.
set -euo pipefail

if ! command -v java >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
# the versions are pinned once, with the tests' other packages, in scripts/requirements.txt
pins=$(grep -E '^(pyspark|orjson)==' "$(dirname "$0")/../../scripts/requirements.txt" | awk '{print $1}')
py_has() { python3 -c "import $1, sys; sys.exit(0 if getattr($1, '__version__', '') == '$2' else 1)" 2>/dev/null; }
for pin in $pins; do
  if ! py_has "${pin%%==*}" "${pin#*==}"; then
    python3 -m pip install -q --disable-pip-version-check "$pin" 2>&1 | grep -v -i "warning" || true
  fi
done
echo "spark setup: pyspark $(python3 -c 'import pyspark; print(pyspark.__version__)'), $(java -version 2>&1 | head -1)"
