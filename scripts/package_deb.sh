#!/usr/bin/env bash
# Builds the Debian package geo-enrich_<version>_<arch>.deb with dpkg-deb, from what
# scripts/stage_dist.sh lays out in .build/dist (the stripped binary, completions, man page,
# licence files) and data/:
#
#   /usr/bin/geo-enrich
#   /usr/share/geo-enrich/{countries,postal_ca,postal_us,timezones}.bin (found as bin/../share/geo-enrich)
#   /usr/share/doc/geo-enrich/{copyright,changelog.gz,NOTICE,THIRD-PARTY-NOTICES,licenses/}
#   /usr/share/man/man1/geo-enrich.1.gz
#   /usr/share/bash-completion/completions/geo-enrich
#   /usr/share/zsh/vendor-completions/_geo-enrich
#   /usr/share/fish/vendor_completions.d/geo-enrich.fish
#
# Depends: the packages that own the shared libraries the binary needs (readelf's NEEDED, found
# with ldd, owner by dpkg -S), each with the minimum version its shlibs file states; so GEOS's
# runtime package (libgeos-c1v5 on Debian 12), zlib1g, libc6, libstdc++6, ... (not PROJ's: the
# geodesic is our own Swift since 2026-12, README, Install)
#
# Usage: scripts/package_deb.sh [--no-build] [--output DIR]   (default DIR: .build)
# Prints the path of the .deb on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
outdir=.build
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=""; shift ;;
    --output) outdir=${2:?--output needs a folder}; shift 2 ;;
    *) echo "package_deb.sh: unknown argument $1 (expected --no-build, --output DIR)" >&2; exit 64 ;;
  esac
done
for tool in dpkg-deb dpkg readelf ldd gzip; do
  command -v "$tool" >/dev/null || { echo "package_deb.sh: $tool is needed (a Debian or Ubuntu system)" >&2; exit 1; }
done

if [ -n "$build" ]; then bash scripts/stage_dist.sh; fi
dist=.build/dist
[ -x "$dist/geo-enrich" ] || { echo "package_deb.sh: $dist/geo-enrich is missing (run scripts/stage_dist.sh)" >&2; exit 1; }
for f in data/countries.bin data/postal_ca.bin data/postal_us.bin data/timezones.bin; do
  [ -s "$f" ] || { echo "package_deb.sh: $f is missing (scripts/data/build_data.sh rebuilds it)" >&2; exit 1; }
done

version=$("$dist/geo-enrich" --version)
arch=$(dpkg --print-architecture)
name="geo-enrich_${version}_${arch}"

# Depends, from the binary's NEEDED libraries
depends=()
for soname in $(readelf -d "$dist/geo-enrich" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  path=$(ldd "$dist/geo-enrich" | awk -v s="$soname" '$1 == s && $3 ~ /^\// {print $3} $1 ~ "/"s"$" {print $1}' | head -1)
  [ -n "$path" ] || { echo "package_deb.sh: ldd does not find $soname, which the binary needs" >&2; exit 1; }
  owner=""
  # dpkg knows a file by the path its package installed it at (/lib or /usr/lib: merged /usr)
  for p in "$path" "$(readlink -f "$path")" "/usr${path}" "${path#/usr}"; do
    owner=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break
  done
  [ -n "$owner" ] || { echo "package_deb.sh: no installed package owns $path ($soname)" >&2; exit 1; }
  # the shlibs line for this soname (libgeos_c.so.1 → "libgeos_c 1 libgeos-c1v5 (>= 3.11.1)")
  lib=${soname%%.so*}; sover=${soname#*.so.}
  [ "$sover" = "$soname" ] && sover=""
  dep=""
  for shlibs in /var/lib/dpkg/info/"$owner".shlibs /var/lib/dpkg/info/"$owner":"$arch".shlibs; do
    [ -f "$shlibs" ] || continue
    dep=$(awk -v l="$lib" -v v="$sover" '$1 !~ /:$/ && $1 == l && $2 == v {$1=""; $2=""; sub(/^ +/, ""); print; exit}' "$shlibs")
    [ -n "$dep" ] && break
  done
  depends+=("${dep:-$owner}")
done
depends_line=$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')
grep -q libgeos <<<"$depends_line" || {
  echo "package_deb.sh: Depends ($depends_line) names no libgeos package: is the binary linked against it?" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/$name"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/geo-enrich" "$root/usr/share/doc/geo-enrich" \
  "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
install -m 0755 "$dist/geo-enrich" "$root/usr/bin/geo-enrich"
install -m 0644 data/countries.bin data/postal_ca.bin data/postal_us.bin data/timezones.bin "$root/usr/share/geo-enrich/"
install -m 0644 "$dist/completions/geo-enrich.bash" "$root/usr/share/bash-completion/completions/geo-enrich"
install -m 0644 "$dist/completions/_geo-enrich" "$root/usr/share/zsh/vendor-completions/_geo-enrich"
install -m 0644 "$dist/completions/geo-enrich.fish" "$root/usr/share/fish/vendor_completions.d/geo-enrich.fish"
gzip -9n < "$dist/man/geo-enrich.1" > "$root/usr/share/man/man1/geo-enrich.1.gz"
doc="$root/usr/share/doc/geo-enrich"
install -m 0644 NOTICE THIRD-PARTY-NOTICES "$doc/"
gzip -9n < CHANGELOG.md > "$doc/changelog.gz"
cp -R "$dist/licenses" "$doc/licenses"
# Debian's copyright file: geo-enrich's licence by reference to common-licenses, then the notices
{
  echo "geo-enrich $version"
  echo "Copyright 2026 the geo-enrich authors"
  echo
  echo "Licensed under the Apache License, Version 2.0; on Debian systems the full text is in"
  echo "/usr/share/common-licenses/Apache-2.0."
  echo
  echo "The third-party software and data geo-enrich contains or uses follow (NOTICE, then"
  echo "THIRD-PARTY-NOTICES). The linked Swift packages' own LICENSE and NOTICE files are in"
  echo "/usr/share/doc/geo-enrich/licenses/."
  echo
  echo "-------------------------------------------------------------------------------"
  cat NOTICE
  echo
  echo "-------------------------------------------------------------------------------"
  cat THIRD-PARTY-NOTICES
} > "$doc/copyright"
chmod -R u=rwX,go=rX "$root/usr"

installed_kb=$(du -sk "$root/usr" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: geo-enrich
Version: $version
Architecture: $arch
Maintainer: the geo-enrich authors <geo-enrich@localhost>
Installed-Size: $installed_kb
Depends: $depends_line
Recommends: tzdata
Section: utils
Priority: optional
Description: location enrichment of NDJSON mobile-analytics event streams
 geo-enrich reads NDJSON streams of location fixes and events, keeps the fixes
 that move (a geodesic distance filter, a time to live) and adds to every event
 its session's last position: H3 cells (bit-exact with H3 4.5.0), the country
 (Natural Earth), in Canada the nearest postal code and FSA (GeoNames), in the
 US the nearest ZIP code, and the time zone with its UTC offset at the fix's
 time (--timezone, which reads the tz database of the tzdata package).
 It can push accepted locations to an HTTP endpoint. Also: H3 tools and a
 country and postal-code lookup. The data files are included.
EOF
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"

mkdir -p "$outdir"
dpkg-deb --root-owner-group -Zxz --build "$root" "$outdir/$name.deb" >&2
echo "$outdir/$name.deb"
