#!/usr/bin/env bash
# Builds the release CLI, .build/release/geo-enrich, as the README's commands run it: with the
# Swift runtime and Foundation linked in (--static-swift-stdlib), so that it runs without a Swift
# installation. Extra arguments go to `swift build` (e.g. --product geo-enrich).
#
# Where the C library reads packed relative relocations (DT_RELR, glibc 2.36 and later) and the
# toolchain has lld, the binary is linked with lld and packs them: the static runtime's 2.6 MB
# of relocations, which the loader reads at every start, shrink to 40 KB (start-up time and
# resident memory; see the README's lookup section). Elsewhere it is linked as Swift links by
# default.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=()
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}') || glibc=""
if [ -n "$glibc" ] && printf '2.36\n%s\n' "$glibc" | sort -V -C && command -v ld.lld >/dev/null; then
  flags=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
fi
exec swift build -c release --static-swift-stdlib "${flags[@]}" "$@"
