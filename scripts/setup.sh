#!/usr/bin/env bash
# Installs what geo-enrich needs on a fresh Debian machine, skipping what is already there:
# the C libraries GEOS and zlib (with pkg-config, which SwiftPM uses to find them), and a virtual
# environment of the repository's own, .venv/, holding the Python packages the tests use, pinned
# in scripts/requirements.txt. Nothing is pip-installed outside .venv (Debian's python3 refuses
# that: "externally-managed-environment"); the test command puts .venv/bin first on PATH.
#
#   scripts/setup.sh            set up (again): apt packages, .venv, the pins
#   scripts/setup.sh --check    only check that .venv meets every pin; exit 1 naming the ones it misses
#
# The venv is made with $PYTHON when set (e.g. PYTHON=/usr/bin/python3), else with the first of
# `python3` on PATH and /usr/bin/python3 that can make one (has venv and ensurepip); when none can
# and Debian's python3 is there, python3-venv is installed for it. An existing .venv that works is
# kept, unless $PYTHON names another interpreter: then it is made again with that one.
# Any failed install stops the set-up with a message and a non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
requirements=scripts/requirements.txt

fail() { echo "setup: $*" >&2; exit 1; }

# the pins .venv does not meet, one a line (none: empty)
unmet_pins() {
  "$venv/bin/python" - "$requirements" <<'PY'
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
}

if [ "${1:-}" = "--check" ]; then
  [ -x "$venv/bin/python" ] || fail "no virtual environment in $PWD/$venv; run scripts/setup.sh"
  unmet=$(unmet_pins) || fail "cannot run $venv/bin/python; run scripts/setup.sh"
  [ -z "$unmet" ] || fail "$venv does not meet the pins of $requirements: $(echo $unmet); run scripts/setup.sh"
  exit 0
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_install() {
  $SUDO apt-get update -qq || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null \
    || fail "apt-get install $* failed"
}

need_apt=()
for pkg in libgeos-dev zlib1g-dev pkg-config; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  apt_install "${need_apt[@]}"
fi

# whether an interpreter can make a venv with pip in it (Debian ships ensurepip in python3-venv)
can_make_venv() { "$1" -c 'import venv, ensurepip' >/dev/null 2>&1; }

# the interpreter the venv is made with
base=""
if [ -n "${PYTHON:-}" ]; then
  base=$(command -v "$PYTHON") || fail "PYTHON=$PYTHON is not an executable"
else
  for candidate in "$(command -v python3 || true)" /usr/bin/python3; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && can_make_venv "$candidate"; then
      base=$candidate
      break
    fi
  done
  if [ -z "$base" ]; then
    [ -x /usr/bin/python3 ] || fail "no python3 found (on PATH or /usr/bin/python3); install Python 3.11 or later"
    base=/usr/bin/python3
  fi
fi
if ! can_make_venv "$base"; then
  case "$(readlink -f "$base")" in
    /usr/bin/python3*)  # Debian's own: its venv module comes in python3-venv (python3.X-venv)
      echo "setup: $base cannot make a virtual environment; installing python3-venv"
      apt_install python3-venv "python3.$("$base" -c 'import sys; print(sys.version_info[1])')-venv"
      can_make_venv "$base" || fail "$base still cannot make a virtual environment after installing python3-venv"
      ;;
    *)
      fail "$base cannot make a virtual environment (no venv or ensurepip module); choose another with PYTHON=/path/to/python3"
      ;;
  esac
fi
"$base" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || fail "$base is Python $("$base" -c 'import platform; print(platform.python_version())'); the pins need 3.11 or later"
# the interpreter itself (python3 may be a launcher, e.g. a pyenv shim), to compare with .venv's
base_real=$(readlink -f "$("$base" -c 'import sys; print(sys.executable)')")

# keep a working .venv; make it again when broken, or when $PYTHON asks for another interpreter
if [ -e "$venv" ]; then
  made_with=$("$venv/bin/python" -c 'import sys; print(getattr(sys, "_base_executable", ""))' 2>/dev/null || true)
  if [ -z "$made_with" ]; then
    echo "setup: $venv does not work; making it again"
    rm -rf "$venv"
  elif [ -n "${PYTHON:-}" ] && [ "$(readlink -f "$made_with")" != "$base_real" ]; then
    echo "setup: $venv was made with $made_with; making it again with $base"
    rm -rf "$venv"
  fi
fi
if [ ! -e "$venv" ]; then
  echo "setup: making the virtual environment $venv with $base ($("$base" --version 2>&1))"
  "$base" -m venv "$venv" || fail "$base -m venv $venv failed"
fi

# pip only when a pin is not met (pip itself would ask the index every time)
unmet=$(unmet_pins) || fail "cannot run $venv/bin/python"
if [ -n "$unmet" ]; then
  echo "setup: installing into $venv: $(echo $unmet) (pyspark is built locally: about a minute)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" \
    || fail "pip could not install the pins of $requirements into $venv (its message is above)"
  unmet=$(unmet_pins) || fail "cannot run $venv/bin/python"
  [ -z "$unmet" ] || fail "after pip, $venv still does not meet: $(echo $unmet)"
fi

command -v swift >/dev/null || fail "Swift 6.1 or later is required (swift not on PATH)"
echo "setup: GEOS $(pkg-config --modversion geos)," \
  "$venv: $("$venv/bin/python" --version 2>&1), h3-py $("$venv/bin/python" -c 'import h3; print(h3.__version__)')"
