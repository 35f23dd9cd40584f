#!/usr/bin/env bash
# The installed tool works away from the repository: builds the .deb (scripts/package_deb.sh)
# and unpacks it into a scratch root with `dpkg -x` (nothing is installed on this machine), runs
# `make install PREFIX=<tmp>` and `make install DESTDIR=<tmp> PREFIX=/usr/local`, and for each
# from an unrelated folder, with only PATH pointing at the installed bin/:
#   - `--version` prints the version alone; `about` names the data folder found beside the
#     binary (bin/../share/geo-enrich, found through /proc/self/exe) and the NOTICE;
#   - `lookup`: Toronto → CA with a postal code and FSA M5…, Paris → FR, mid-Pacific → {};
#   - `enrich`: a fix and an event of one session → the event carries `geo` with country CA;
#   - the same through a symbolic link to the binary from elsewhere (the link is resolved);
#   - with GEO_ENRICH_DATA an empty folder: exit 1, the error names that folder;
#   - a copy of the binary alone, without data: exit 1, the error lists every folder looked in;
# and checks the package: Depends names GEOS's runtime package and not PROJ's, the files are where
# Debian puts them, the binary is stripped with a debug link, the man page and completions know
# every subcommand, and THIRD-PARTY-NOTICES names every Swift package linked in (a version that
# differs from the one it names is a note: Package.resolved is not in git).
#
# Usage: scripts/ci/install_check.sh   (from anywhere; builds what is missing)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

tmp=$(mktemp -d /tmp/geo-enrich-install-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "install_check: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "install_check: ok: $*"; }

# expect_contains WHAT TEXT NEEDLE
expect_contains() {
  if grep -qF -- "$3" <<<"$2"; then pass "$1"; else fail "$1: expected to find '$3' in:"$'\n'"$2"; fi
}

# check_installed LABEL BINDIR DATADIR: the installed binary, run from a folder of its own
check_installed() {
  local label=$1 bindir=$2 datadir=$3
  local work="$tmp/run-$label"
  mkdir -p "$work"
  (
    cd "$work"
    export PATH="$bindir:$PATH"
    unset GEO_ENRICH_DATA
    [ "$(command -v geo-enrich)" = "$bindir/geo-enrich" ] || { echo "PATH does not find $bindir/geo-enrich first" >&2; exit 1; }

    v=$(geo-enrich --version)
    if [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then echo "install_check: ok: $label: --version prints '$v' alone"
    else echo "install_check: FAIL: $label: --version printed '$v', not a version alone" >&2; exit 1; fi

    about=$(geo-enrich about) || { echo "install_check: FAIL: $label: about exited $?: $about" >&2; exit 1; }
    grep -qF "data:     $datadir (" <<<"$about" || { echo "install_check: FAIL: $label: about does not name $datadir:"$'\n'"$about" >&2; exit 1; }
    grep -q "^commit: " <<<"$about" && grep -q "bit-exact with H3 4.5.0" <<<"$about" && grep -q "^geodesic: .*bit-exact" <<<"$about" \
      && grep -q "^GEOS: *[0-9]" <<<"$about" && grep -q "checksum [0-9a-f]\{16\}" <<<"$about" \
      || { echo "install_check: FAIL: $label: about lacks the commit, H3, the geodesic, GEOS or a checksum:"$'\n'"$about" >&2; exit 1; }
    echo "install_check: ok: $label: about names $datadir"

    out=$(printf '43.6532 -79.3832\n48.8566 2.3522\n0 -140\n' | geo-enrich lookup)
    line1=$(sed -n 1p <<<"$out"); line2=$(sed -n 2p <<<"$out"); line3=$(sed -n 3p <<<"$out")
    if [[ "$line1" == '{"country":"CA","postalcode":"M5'*'","fsa":"M5'*'","postal_distance_m":'* ]] \
       && [ "$line2" = '{"country":"FR"}' ] && [ "$line3" = '{}' ]; then
      echo "install_check: ok: $label: lookup answers Toronto, Paris and the Pacific"
    else
      echo "install_check: FAIL: $label: lookup answered:"$'\n'"$out" >&2; exit 1
    fi

    printf '%s\n' \
      '{"type":"location","session_id":"s-1","timestamp":"2025-11-27T10:00:00.000Z","latitude":43.6532,"longitude":-79.3832,"accuracy":5.0}' \
      '{"type":"track","session_id":"s-1","timestamp":"2025-11-27T10:00:10.000Z","event_name":"ProductView"}' > in.ndjson
    geo-enrich enrich --quiet in.ndjson -o out.ndjson
    n=$(wc -l < out.ndjson)
    event=$(grep '"type":"track"' out.ndjson || true)
    if [ "$n" -eq 2 ] && grep -q '"geo":{' <<<"$event" && grep -q '"country":"CA"' <<<"$event"; then
      echo "install_check: ok: $label: enrich gives the event its session's geo"
    else
      echo "install_check: FAIL: $label: enrich wrote $n lines:"$'\n'"$(cat out.ndjson)" >&2; exit 1
    fi

    # a symbolic link elsewhere: /proc/self/exe resolves it to the installed binary
    mkdir -p links && ln -sf "$bindir/geo-enrich" links/geo-enrich
    about=$(./links/geo-enrich about)
    grep -qF "data:     $datadir (" <<<"$about" || { echo "install_check: FAIL: $label: through a symbolic link, about does not name $datadir:"$'\n'"$about" >&2; exit 1; }
    echo "install_check: ok: $label: a symbolic link to the binary finds the same data"

    # an explicit folder without the data: refused, and the folder named
    mkdir -p empty
    if err=$(echo "43.6532 -79.3832" | GEO_ENRICH_DATA="$work/empty" geo-enrich lookup 2>&1 >/dev/null); then
      echo "install_check: FAIL: $label: lookup with GEO_ENRICH_DATA=$work/empty succeeded" >&2; exit 1
    fi
    grep -qF "$work/empty  (\$GEO_ENRICH_DATA; missing or unreadable: countries.bin, postal_ca.bin)" <<<"$err" \
      || { echo "install_check: FAIL: $label: the error does not name $work/empty:"$'\n'"$err" >&2; exit 1; }
    echo "install_check: ok: $label: GEO_ENRICH_DATA at an empty folder is refused, named"
  ) || failures=$((failures + 1))
}

# 1. the Debian package, unpacked
deb_root=""
if command -v dpkg-deb >/dev/null; then
  deb=$(bash scripts/package_deb.sh --output "$tmp/deb" | tail -1)
  [ -f "$deb" ] || { echo "install_check: FAIL: package_deb.sh made no .deb ($deb)" >&2; exit 1; }
  version=$(.build/dist/geo-enrich --version)
  [ "$(basename "$deb")" = "geo-enrich_${version}_$(dpkg --print-architecture).deb" ] \
    && pass "package named $(basename "$deb")" || fail "package named $(basename "$deb")"
  depends=$(dpkg-deb -f "$deb" Depends)
  if grep -q libproj <<<"$depends"; then fail "Depends names PROJ ($depends), which the binary no longer needs"
  else pass "Depends does not name PROJ"; fi
  expect_contains "Depends names GEOS's runtime package" "$depends" "libgeos-c"
  deb_root="$tmp/debroot"
  dpkg-deb -x "$deb" "$deb_root"
  for f in usr/bin/geo-enrich usr/share/geo-enrich/countries.bin usr/share/geo-enrich/postal_ca.bin usr/share/geo-enrich/postal_us.bin usr/share/geo-enrich/timezones.bin \
           usr/share/doc/geo-enrich/copyright usr/share/doc/geo-enrich/NOTICE usr/share/doc/geo-enrich/changelog.gz \
           usr/share/man/man1/geo-enrich.1.gz usr/share/bash-completion/completions/geo-enrich \
           usr/share/zsh/vendor-completions/_geo-enrich usr/share/fish/vendor_completions.d/geo-enrich.fish; do
    [ -s "$deb_root/$f" ] || fail "the .deb has no /$f"
  done
  expect_contains "the .deb's copyright names the licence" "$(cat "$deb_root/usr/share/doc/geo-enrich/copyright")" \
    "/usr/share/common-licenses/Apache-2.0"
  man=$(gzip -dc "$deb_root/usr/share/man/man1/geo-enrich.1.gz")
  for sub in enrich push h3 lookup about; do
    expect_contains "the man page has geo-enrich $sub" "$man" ".SS \"geo\\-enrich $sub\""
    expect_contains "bash completion knows $sub" "$(cat "$deb_root/usr/share/bash-completion/completions/geo-enrich")" "$sub"
  done
  check_installed deb "$deb_root/usr/bin" "$deb_root/usr/share/geo-enrich"
else
  echo "install_check: SKIPPED the .deb: dpkg-deb is not installed (not a Debian system)" >&2
fi

# 2. make install with PREFIX, and with DESTDIR
make --no-print-directory install PREFIX="$tmp/prefix" >/dev/null
check_installed prefix "$tmp/prefix/bin" "$tmp/prefix/share/geo-enrich"
for f in share/man/man1/geo-enrich.1 share/bash-completion/completions/geo-enrich share/zsh/site-functions/_geo-enrich \
         share/fish/vendor_completions.d/geo-enrich.fish share/doc/geo-enrich/NOTICE share/doc/geo-enrich/LICENSE; do
  [ -s "$tmp/prefix/$f" ] || fail "make install wrote no PREFIX/$f"
done
grep -q "^notices:  $tmp/prefix/share/doc/geo-enrich/NOTICE\$" <<<"$("$tmp/prefix/bin/geo-enrich" about)" \
  && pass "about points at the installed NOTICE" || fail "about does not point at $tmp/prefix/share/doc/geo-enrich/NOTICE"
make --no-print-directory install DESTDIR="$tmp/dest" PREFIX=/usr/local >/dev/null
[ -x "$tmp/dest/usr/local/bin/geo-enrich" ] && [ -s "$tmp/dest/usr/local/share/geo-enrich/postal_ca.bin" ] \
  && pass "make install honours DESTDIR" || fail "make install DESTDIR=$tmp/dest PREFIX=/usr/local put nothing in $tmp/dest/usr/local"
make --no-print-directory uninstall PREFIX="$tmp/prefix" >/dev/null
left=$(find "$tmp/prefix" -type f | head -3)
[ -z "$left" ] && pass "make uninstall removes every file" || fail "make uninstall left $left"

# 3. stripped, with the debug information kept apart and linked
bin=.build/dist/geo-enrich
# Read each listing whole before matching it: `readelf … | grep -q` under pipefail fails at random
# when grep stops at the first match and readelf dies of SIGPIPE (CI failed once exactly so).
sections_of() { readelf -S "$1" 2>/dev/null || true; }
if [[ "$(sections_of "$bin")" == *".debug_info"* ]]; then fail "$bin still has .debug_info"; else pass "the installed binary is stripped"; fi
if [[ "$(readelf -x .gnu_debuglink "$bin" 2>/dev/null || true)" == *"geo-enrich.debug"* ]]; then pass "it links geo-enrich.debug"
else fail "$bin has no .gnu_debuglink to geo-enrich.debug"; fi
if [[ "$(sections_of .build/dist/geo-enrich.debug)" == *".debug_info"* ]]; then pass "geo-enrich.debug holds the debug information"
else fail ".build/dist/geo-enrich.debug has no .debug_info"; fi

# 4. every linked Swift package is in THIRD-PARTY-NOTICES (and its licence files were shipped)
while read -r pkg version; do
  # the package must be listed; its version may float (Package.resolved is not in git): a note
  grep -q "^  $pkg [0-9]" THIRD-PARTY-NOTICES || fail "THIRD-PARTY-NOTICES does not list $pkg, which the binary links"
  grep -q "^  $pkg $version " THIRD-PARTY-NOTICES \
    || echo "install_check: note: this build links $pkg $version; THIRD-PARTY-NOTICES names another version" >&2
  [ -s ".build/dist/licenses/$pkg/LICENSE.txt" ] || [ -s ".build/dist/licenses/$pkg/LICENSE" ] || fail "no LICENSE shipped for $pkg"
done < .build/dist/licenses/PACKAGES
[ "$(wc -l < .build/dist/licenses/PACKAGES)" -ge 5 ] && pass "$(wc -l < .build/dist/licenses/PACKAGES) linked packages listed and noticed" \
  || fail "only $(wc -l < .build/dist/licenses/PACKAGES) linked packages found"

# 5. the binary alone, with no data anywhere it looks: every folder named
lonely="$tmp/lonely/bin"
mkdir -p "$lonely"
cp "$bin" "$lonely/geo-enrich"
if [ -e /usr/share/geo-enrich/postal_ca.bin ]; then
  echo "install_check: SKIPPED the no-data search: /usr/share/geo-enrich holds data on this machine" >&2
else
  mkdir -p "$tmp/elsewhere"
  if err=$(cd "$tmp/elsewhere" && env -u GEO_ENRICH_DATA "$lonely/geo-enrich" lookup </dev/null 2>&1 >/dev/null); then
    fail "a binary without data ran lookup successfully"
  else
    for place in "$lonely/data  (beside the executable" "$tmp/lonely/share/geo-enrich  (the installation prefix" \
                 "/usr/share/geo-enrich  (system-wide"; do
      expect_contains "the no-data error lists ${place%%  *}" "$err" "$place"
    done
  fi
  # about reports the same and exits 1, after the rest
  if out=$(env -u GEO_ENRICH_DATA "$lonely/geo-enrich" about 2>&1); then fail "about without data exited 0"
  else expect_contains "about without data still prints the versions" "$out" "bit-exact with H3"; fi
fi

if [ "$failures" -gt 0 ]; then
  echo "install_check: $failures failure(s)" >&2
  exit 1
fi
echo "install_check: all checks passed"
