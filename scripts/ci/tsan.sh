#!/usr/bin/env bash
# The thread sanitizer over the tests of the modules that share memory between threads:
# EnrichStream (the reader, worker and writer threads over shared batches; GeoEnricher's pool), EnrichEngine
# (LocationEngine's shards), LocationPush (the pusher's event loop and its callers), GeoLookup's
# pool of locators (LocationLookupSharingTests) and its fence files read and indexed in parts on
# several threads (GeofenceSetTests); the fence lists' table, interned by several workers at once and
# read without its lock (WorkersTests, in EnrichStream).
# Built apart, in .build-tsan, so it does not throw away the ordinary debug build. Any race
# report fails the run: halt_on_error stops the test process at the first report, with a
# non-zero status that `swift test` passes on.
set -euo pipefail
cd "$(dirname "$0")/../.."

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --sanitize=thread --scratch-path .build-tsan \
  --filter EnrichStreamTests --filter EnrichEngineTests --filter LocationPushTests --filter LocationLookupSharingTests \
  --filter GeofenceSetTests 2>&1 | tee "$log" || status=$?
# belt and braces: a report that did not end the process (a sanitizer option overridden from
# outside) still fails the run
if grep -q "WARNING: ThreadSanitizer" "$log"; then
  echo "tsan: ThreadSanitizer reported a data race (above)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "tsan: the tests under the thread sanitizer failed (exit $status)" >&2
  exit "$status"
fi
# a filter that matched nothing would pass with no test run
if ! grep -Eq "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "tsan: no test ran under the thread sanitizer (check the --filter names)" >&2
  exit 1
fi
