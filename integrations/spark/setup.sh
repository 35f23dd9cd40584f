#!/usr/bin/env bash
# Installs what the Spark driver needs, skipping what is already there: a Java runtime (OpenJDK 17,
# which Spark 4 requires), and pyspark (pip builds it locally, about a minute and 520 MB) and
# orjson (the driver's JSON reader; the peer uses it, so it refuses what the engine refuses) at
# the versions pinned in scripts/requirements.txt. Those go into the repository's virtual
# environment, .venv, with the tests' other packages: scripts/setup.sh makes it and installs
# them all. Run the driver with that environment's python (.venv/bin/python).
# Any failed install stops the set-up with a message and a non-zero exit.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v java >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "spark setup: installing openjdk-17-jre-headless"
  $SUDO apt-get update -qq || { echo "spark setup: apt-get update failed" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >/dev/null \
    || { echo "spark setup: apt-get install openjdk-17-jre-headless failed" >&2; exit 1; }
fi
# .venv and every pin, pyspark and orjson included (quick when all are there)
bash "$repo/scripts/setup.sh"
py="$repo/.venv/bin/python"
echo "spark setup: pyspark $("$py" -c 'import pyspark; print(pyspark.__version__)') in $repo/.venv," \
  "$(java -version 2>&1 | head -1)"
