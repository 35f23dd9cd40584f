#!/usr/bin/env bash
# Builds the release CLI (scripts/build_cli.sh) and lays out what an installation ships, in
# .build/dist (`make install` and scripts/package_deb.sh copy from there):
#
#   geo-enrich                     the binary, stripped, with a .gnu_debuglink to:
#   geo-enrich.debug               its debug information (not installed: keep it with the release
#                                  to symbolicate crash reports; gdb finds it beside the binary,
#                                  or in /usr/lib/debug/<path of the binary>.debug)
#   completions/geo-enrich.bash    shell completions, from argument-parser's
#   completions/_geo-enrich        --generate-completion-script bash | zsh | fish
#   completions/geo-enrich.fish
#   man/geo-enrich.1               the man page, from the binary's --experimental-dump-help
#                                  (scripts/gen_manpage.py)
#   licenses/<package>/            LICENSE and NOTICE files, unchanged, of every Swift package
#                                  whose modules the link of this binary used (Apache-2.0 §4(d)),
#   licenses/PACKAGES              and their versions as Package.resolved pins them
#
# --no-build stages the binary already in .build/release.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--no-build" ]; then
  bash scripts/build_cli.sh --product geo-enrich >&2
fi
bin=.build/release/geo-enrich
out=.build/dist
[ -x "$bin" ] || { echo "stage_dist.sh: $bin is not built (run scripts/build_cli.sh)" >&2; exit 1; }
# binutils' objcopy, else the toolchain's llvm-objcopy (the release binary may be linked by lld)
objcopy=$(command -v objcopy || command -v llvm-objcopy || true)
[ -n "$objcopy" ] || { echo "stage_dist.sh: neither objcopy (binutils) nor llvm-objcopy is installed" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/completions" "$out/man"
"$objcopy" --only-keep-debug "$bin" "$out/geo-enrich.debug"
chmod 0644 "$out/geo-enrich.debug"
# the link is the file name and a CRC of the .debug file: run from $out so it names the file alone
(cd "$out" && "$objcopy" --strip-debug --strip-unneeded --add-gnu-debuglink=geo-enrich.debug \
  "../../$bin" geo-enrich)
chmod 0755 "$out/geo-enrich"
# the stripped binary must still run
"$out/geo-enrich" --version >/dev/null

"$out/geo-enrich" --generate-completion-script bash > "$out/completions/geo-enrich.bash"
"$out/geo-enrich" --generate-completion-script zsh > "$out/completions/_geo-enrich"
"$out/geo-enrich" --generate-completion-script fish > "$out/completions/geo-enrich.fish"
python3 scripts/gen_manpage.py --bin "$out/geo-enrich" > "$out/man/geo-enrich.1"

# the packages linked: the modules in the link's object list, matched to the packages' Sources/
mkdir -p "$out/licenses"
linklist=$(find .build -path "*/release/geo-enrich.product/Objects.LinkFileList" | head -1)
[ -n "$linklist" ] || { echo "stage_dist.sh: no Objects.LinkFileList for the release geo-enrich under .build" >&2; exit 1; }
modules=$(sed -n 's#.*/\([^/]*\)\.build/[^/]*$#\1#p' "$linklist" | sort -u)
for pkg in .build/checkouts/*/; do
  pkg=$(basename "$pkg")
  linked=""
  for m in $(ls ".build/checkouts/$pkg/Sources" 2>/dev/null); do
    if grep -qx "$m" <<<"$modules"; then linked=1; break; fi
  done
  [ -n "$linked" ] || continue
  mkdir -p "$out/licenses/$pkg"
  for f in LICENSE.txt LICENSE NOTICE.txt NOTICE; do
    [ -f ".build/checkouts/$pkg/$f" ] && cp ".build/checkouts/$pkg/$f" "$out/licenses/$pkg/"
  done
  [ -n "$(ls "$out/licenses/$pkg")" ] || { echo "stage_dist.sh: linked package $pkg has no LICENSE file" >&2; exit 1; }
  version=$(python3 -c 'import json,sys; print(next((p["state"].get("version") or p["state"].get("revision","?") for p in json.load(open("Package.resolved"))["pins"] if p["identity"] == sys.argv[1]), "?"))' "$pkg")
  echo "$pkg $version" >> "$out/licenses/PACKAGES"
done
[ -s "$out/licenses/PACKAGES" ] || { echo "stage_dist.sh: found no linked Swift package (expected swift-argument-parser, swift-nio, ...)" >&2; exit 1; }

for f in "$out"/completions/* "$out/man/geo-enrich.1"; do
  [ -s "$f" ] || { echo "stage_dist.sh: $f came out empty" >&2; exit 1; }
done
echo "stage_dist.sh: staged $out ($("$out/geo-enrich" --version), $(du -h "$out/geo-enrich" | cut -f1) stripped, debug info $(du -h "$out/geo-enrich.debug" | cut -f1))" >&2
