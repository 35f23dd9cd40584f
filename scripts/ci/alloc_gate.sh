#!/usr/bin/env bash
# The allocation gate: the hot operations' malloc counts (package-benchmark's mallocCountTotal,
# p90 per iteration of 1,000 operations) against the static thresholds in
# benchmarks/Thresholds/. Wall-clock figures are not gated (this machine is shared and noisy).
#
#   scripts/ci/alloc_gate.sh check    run the gated benchmarks; exit non-zero when one allocates more,
#                                     or when a gated benchmark has no threshold file
#   scripts/ci/alloc_gate.sh update   measure and rewrite the thresholds (after an intended change)
#
# The gated benchmarks are those whose allocation count is fixed by design: none for
# latLngToCell, cellToLatLng, the postal search, the engine's decision, attach and stream order,
# and the NDJSON parse-and-splice; the result arrays of cellToBoundary and gridDisk.
# ALLOC_GATE_THRESHOLDS=DIR reads the thresholds from DIR instead of benchmarks/Thresholds.
set -euo pipefail
cd "$(dirname "$0")/../.."

# TARGET:benchmark name, one per gated benchmark; the filter and the threshold files follow from it
gated=(
  "H3Benchmarks:latLngToCell res 9"
  "H3Benchmarks:latLngToCell res 15"
  "H3Benchmarks:cellToLatLng res 15"
  "H3Benchmarks:cellToBoundary res 15"
  "H3Benchmarks:gridDisk k 1 res 9"
  "LookupBenchmarks:postal nearest city points"
  "EngineBenchmarks:engine ingest, decision only"
  "EngineBenchmarks:engine attach"
  "EngineBenchmarks:engine ingest and attach, stream order"
  "EngineBenchmarks:LocationEngine ingest"
  "EngineBenchmarks:NDJSON parse and splice, per line"
)
names=()
for g in "${gated[@]}"; do names+=("${g#*:}"); done
filter="^($(IFS='|'; echo "${names[*]}"))\$"
targets=(--target H3Benchmarks --target LookupBenchmarks --target EngineBenchmarks)
thresholds="${ALLOC_GATE_THRESHOLDS:-$(pwd)/benchmarks/Thresholds}"
# the engine benchmarks read (and, when missing, write) the stream of $GEN_STREAM: by default the
# peer's gen_stream.py when ../shared/bench (or $GEO_ENRICH_PEER) has it, else our
# scripts/geoenrich_tools/stream_gen.py
if [ -z "${GEN_STREAM:-}" ]; then
  GEN_STREAM="${GEO_ENRICH_PEER:-$(cd .. && pwd)/shared/bench}/gen_stream.py"
  [ -f "$GEN_STREAM" ] || GEN_STREAM="$(pwd)/scripts/geoenrich_tools/stream_gen.py"
fi
export GEN_STREAM

# package-benchmark checks only the benchmarks that have a threshold file and passes the others
# in silence: a gated benchmark without one would drop out of the gate unseen
require_thresholds() {
  local missing=0 g file
  for g in "${gated[@]}"; do
    file="$thresholds/${g%%:*}.${g#*:}.p90.json"
    if [ ! -f "$file" ]; then
      echo "alloc_gate: gated benchmark '${g#*:}' (${g%%:*}) has no threshold: $file is missing" >&2
      missing=$((missing + 1))
    fi
  done
  if [ "$missing" -gt 0 ]; then
    echo "alloc_gate: $missing gated benchmark(s) without a threshold; measure them with 'make thresholds'" >&2
    exit 1
  fi
}

case "${1:-check}" in
  check)
    require_thresholds
    # package-benchmark fails a check that comes out better than its thresholds as well as one that
    # comes out worse (exit 1 either way, told apart only by the error it prints). Fewer allocations
    # are not a fault: the gate passes them and says so. (The CI's fresh clone of 373902b measured
    # cellToBoundary res 15 at 1,000 against a threshold of 2,000 and failed for it.)
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    set +e
    swift package --package-path benchmarks benchmark thresholds check "${targets[@]}" --filter "$filter" \
      --metric mallocCountTotal --path "$thresholds" --no-progress 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
      if grep -q 'benchmarkThresholdImprovement' "$log" && ! grep -q 'benchmarkThresholdRegression' "$log"; then
        echo "alloc_gate: passed: every gated benchmark allocates no more than its threshold, some fewer (above); 'make thresholds' tightens them" >&2
      else
        echo "alloc_gate: FAILED (exit $status): a gated benchmark allocates more than its threshold, or the run broke (above)" >&2
        exit "$status"
      fi
    fi
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
    thresholds="$(pwd)/benchmarks/Thresholds"
    require_thresholds   # a gated benchmark that did not run (renamed, filtered out) shows here
    ls benchmarks/Thresholds
    ;;
  *)
    echo "usage: scripts/ci/alloc_gate.sh check|update" >&2
    exit 64
    ;;
esac
