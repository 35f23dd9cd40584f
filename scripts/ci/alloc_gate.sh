#!/usr/bin/env bash
# The allocation gate: the hot operations' malloc counts (package-benchmark's mallocCountTotal,
# p90 per iteration of 1,000 operations) against the static thresholds in
# benchmarks/Thresholds/. Wall-clock figures are not gated (this machine is shared and noisy).
#
#   scripts/ci/alloc_gate.sh check    run the gated benchmarks; exit non-zero when one allocates more
#   scripts/ci/alloc_gate.sh update   measure and rewrite the thresholds (after an intended change)
#
# The gated benchmarks are those whose allocation count is fixed by design: none for
# latLngToCell, cellToLatLng, the postal search, the engine's decision, attach and stream order,
# and the NDJSON parse-and-splice; the result arrays of cellToBoundary and gridDisk.
set -euo pipefail
cd "$(dirname "$0")/../.."

filter='^(latLngToCell res (9|15)|cellToLatLng res 15|cellToBoundary res 15|gridDisk k 1 res 9|postal nearest city points|engine ingest, decision only|engine attach|engine ingest and attach, stream order|LocationEngine ingest|NDJSON parse and splice, per line)$'
targets=(--target H3Benchmarks --target LookupBenchmarks --target EngineBenchmarks)
thresholds="$(pwd)/benchmarks/Thresholds"
# the engine benchmarks read (and, when missing, write) the stream of gen_stream.py
export GEN_STREAM="${GEN_STREAM:-$(cd .. && pwd)/shared/bench/gen_stream.py}"

case "${1:-check}" in
  check)
    swift package --package-path benchmarks benchmark thresholds check "${targets[@]}" --filter "$filter" \
      --metric mallocCountTotal --path "$thresholds" --no-progress
    ;;
  update)
    rm -rf benchmarks/Thresholds
    (cd benchmarks && swift package --allow-writing-to-package-directory benchmark thresholds update \
      "${targets[@]}" --filter "$filter" --metric mallocCountTotal --no-progress)
    # package-benchmark 1.38 writes the files with '_' for ' ' in the benchmark's name but reads
    # them back under the name itself: store them under the name
    for f in benchmarks/Thresholds/*.json; do
      n="$(dirname "$f")/$(basename "$f" | tr '_' ' ')"
      [ "$f" = "$n" ] || mv "$f" "$n"
    done
    ls benchmarks/Thresholds
    ;;
  *)
    echo "usage: scripts/ci/alloc_gate.sh check|update" >&2
    exit 64
    ;;
esac
