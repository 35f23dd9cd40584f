# geo-enrich developer tasks.
#
# make bench   [BASE_BIN=old/geo-enrich]
#              run the H3, lookup and engine benchmarks and their anchors (h3-py, polars-h3, the
#              reference peer, timezonefinder, the CLI's start-up and memory, `geo-enrich enrich`
#              end to end against the peer, and with --timezone --postal-countries CA,US against
#              without, and where its CPU goes stage by stage: perf and callgrind, installed when
#              missing) in one session, then write benchmarks/RESULTS.md
#              (it installs what the anchors need first: the repository's virtual environment
#              .venv with the pinned packages, scripts/setup.sh, then the peer's set-up,
#              ../shared/bench/setup_peer.sh, into the same venv; the first run builds
#              package-benchmark, minutes)

SWIFT  ?= swift
# every Python here is the venv's that scripts/setup.sh makes (Debian's python3 refuses pip
# installs): the recipes' $(PYTHON), and python3 and pip on PATH for the scripts they run (the
# peer's set-up, the benchmarks' stream generator). Override with `make PYTHON=...`, not from
# the environment, where PYTHON is what scripts/setup.sh makes the venv with.
PYTHON  = .venv/bin/python
export PATH := $(CURDIR)/.venv/bin:$(PATH)
# the stream generator of the engine benchmarks (the issue's "realistic stream"): the peer's, or
# our own (scripts/geoenrich_tools/stream_gen.py) in a clone with nothing beside it
GEN_STREAM ?= $(if $(wildcard ../shared/bench/gen_stream.py),../shared/bench/gen_stream.py,scripts/geoenrich_tools/stream_gen.py)
# installs the peer's packages and data (numpy, scipy, shapely, pyproj, h3, the GeoNames and
# Natural Earth files) when missing; the anchors run the peer's own code over them
PEER_SETUP ?= ../shared/bench/setup_peer.sh

BENCH_DIR := benchmarks
BENCH_OUT := $(BENCH_DIR)/output

# package-benchmark's JMH export is the machine-readable one render_results.py reads; it is
# written as Current_run.jmh.json under --path (a path relative to the directory make runs in).
# One run of all targets writes one export.
BENCH_SWIFT := $(SWIFT) package --package-path $(BENCH_DIR) --allow-writing-to-package-directory \
	benchmark run --target H3Benchmarks --target LookupBenchmarks --target GeofenceBenchmarks --target EngineBenchmarks \
	--format jmh --path $(BENCH_OUT) --no-progress
# the engine benchmarks parse this stream in their set-up (generated here, once, outside any benchmark)
BENCH_STREAM_FILE := $(BENCH_OUT)/engine_stream.ndjson
BENCH_STREAM := $(PYTHON) $(GEN_STREAM) 1000000 > $(BENCH_STREAM_FILE)
BENCH_ANCHOR := $(PYTHON) $(BENCH_DIR)/anchors/h3py_anchor.py --output $(BENCH_OUT)/h3py_anchor.json
# rule 11 (issue 19): the fences and points of GeofenceBenchmarks, from the stream (written before
# the Swift run, which reads them), and shapely's STRtree over them; then enrich with and without
# the 20,000 fences, alternating
BENCH_GEOFENCE := $(PYTHON) $(BENCH_DIR)/anchors/geofence_anchor.py --stream $(BENCH_STREAM_FILE) \
	--out $(BENCH_OUT)/geofences --bin .build/release/geo-enrich --output $(BENCH_OUT)/geofence_anchor.json
BENCH_ENRICH_GF := $(PYTHON) $(BENCH_DIR)/anchors/enrich_options_ab.py --stream $(BENCH_STREAM_FILE) --runs 7 \
	--case geofences --fences $(BENCH_OUT)/geofences/fences-20k.geojson --output $(BENCH_OUT)/enrich_geofences.json
# the H3 API rows (compactCells, gridDistance, gridRing, cellArea, cellToVertexes, polygonToCells)
# against h3-py and polars-h3 0.7 (h3o) on the same inputs; alone: `make bench-h3api`
BENCH_H3API := $(PYTHON) $(BENCH_DIR)/anchors/h3_api_anchor.py --output $(BENCH_OUT)/h3_api_anchor.json
BENCH_PEER := $(PYTHON) $(BENCH_DIR)/anchors/lookup_peer_anchor.py --output $(BENCH_OUT)/lookup_peer_anchor.json
# the start-up and memory figures are the release CLI's: build it first, so they measure this tree
# (scripts/build_cli.sh, as the README and the test command build it)
BENCH_CLI := bash scripts/build_cli.sh --product geo-enrich
BENCH_STARTUP := $(PYTHON) $(BENCH_DIR)/anchors/lookup_startup.py --output $(BENCH_OUT)/lookup_startup.json
# growth with lines (100 k, 1 M, 10 M) and live sessions (1 k, 100 k, 1 M), table and plot
BENCH_GROWTH := $(PYTHON) $(BENCH_DIR)/anchors/growth.py --stream $(BENCH_STREAM_FILE) --gen $(GEN_STREAM) \
	--enrich $(BENCH_OUT)/enrich_cli.json --output $(BENCH_OUT)/growth.json
# the push: LocationPusher to a local SwiftNIO sink, 100,000 updates of distinct sessions
BENCH_PUSH := $(SWIFT) run -c release --package-path $(BENCH_DIR) PushThroughput --updates 100000 --runs 5 \
	> $(BENCH_OUT)/push.json
# with BASE_BIN=/path/to/an/older/geo-enrich: that build and this tree's, interleaved on the same stream
# (a change's before and after, in the same session; build the base in a separate work tree)
BASE_BIN ?=
BENCH_AB := $(PYTHON) $(BENCH_DIR)/anchors/ab_enrich.py --base $(BASE_BIN) --bin .build/release/geo-enrich \
	--stream $(BENCH_STREAM_FILE) --runs 11 --single --output $(BENCH_OUT)/ab.json
# the same stream alone and under Spark local[2] with 2 and 4 partitions (needs integrations/spark/setup.sh)
BENCH_SPARK := PYTHONPATH=integrations/spark $(PYTHON) $(BENCH_DIR)/anchors/spark_anchor.py --stream $(BENCH_STREAM_FILE) --runs 3 \
	--output $(BENCH_OUT)/spark.json
# rule 12 (issue 21): timezonefinder's timezone_at on the time-zone benchmarks' points, and
# `geo-enrich enrich` with and without --timezone --postal-countries CA,US on the stream, alternating
BENCH_TZ := $(PYTHON) $(BENCH_DIR)/anchors/timezone_anchor.py --output $(BENCH_OUT)/timezone_anchor.json
BENCH_ENRICH_TZ := $(PYTHON) $(BENCH_DIR)/anchors/enrich_options_ab.py --stream $(BENCH_STREAM_FILE) --runs 7 \
	--output $(BENCH_OUT)/enrich_options.json
# end to end: `geo-enrich enrich` and the peer on the same 1 M-line stream, and once on 10 M lines
BENCH_ENRICH := $(PYTHON) $(BENCH_DIR)/anchors/enrich_cli.py --stream $(BENCH_STREAM_FILE) --big 10000000 \
	--output $(BENCH_OUT)/enrich_cli.json
# where enrich's CPU goes, stage by stage (perf samples and callgrind's instruction counts; issue 25)
BENCH_PROFILE := $(PYTHON) $(BENCH_DIR)/anchors/profile_stages.py --bin .build/release/geo-enrich \
	--stream $(BENCH_STREAM_FILE) --output $(BENCH_OUT)/profile.md > /dev/null

# make bench-h3api   only the H3 API rows of H3Benchmarks and their anchor (h3-py, polars-h3), in a
#                    few minutes; prints RESULTS.md's section "The H3 API against h3-py and
#                    polars-h3" and writes nothing but benchmarks/output/h3api/ (package-benchmark's
#                    --filter must match a benchmark's whole name)
H3API_OUT := $(BENCH_OUT)/h3api
H3API_FILTER := (polygonToCells|polygonToCellsExperimental|compactCells|gridDistance|gridRing|cellArea|cellToVertexes) .*
BENCH_H3API_SWIFT := $(SWIFT) package --package-path $(BENCH_DIR) --allow-writing-to-package-directory \
	benchmark run --target H3Benchmarks --filter '$(H3API_FILTER)' --format jmh --path $(H3API_OUT) --no-progress
BENCH_H3API_ALONE := $(PYTHON) $(BENCH_DIR)/anchors/h3_api_anchor.py --output $(H3API_OUT)/h3_api_anchor.json > /dev/null

.PHONY: bench-h3api
bench-h3api:
	rm -rf $(H3API_OUT)
	mkdir -p $(H3API_OUT)
	bash scripts/setup.sh
	cat /proc/loadavg > $(H3API_OUT)/loadavg-before.txt
	$(BENCH_H3API_SWIFT)
	test -s $(H3API_OUT)/Current_run.jmh.json
	$(BENCH_H3API_ALONE)
	$(PYTHON) $(BENCH_DIR)/render_results.py --only-h3api --jmh $(H3API_OUT)/Current_run.jmh.json \
		--h3api $(H3API_OUT)/h3_api_anchor.json --loadavg $(H3API_OUT)/loadavg-before.txt \
		--command "$(BENCH_H3API_SWIFT)" --command '$(BENCH_H3API_ALONE)'

# make thresholds   re-measure the allocation gate's thresholds (benchmarks/Thresholds/) after an
#                   intended change of a hot operation's allocations; `scripts/test.sh` checks them
#                   (scripts/ci/alloc_gate.sh)
.PHONY: thresholds
thresholds:
	bash scripts/ci/alloc_gate.sh update

.PHONY: bench
bench:
	rm -rf $(BENCH_OUT)
	mkdir -p $(BENCH_OUT)
	bash scripts/setup.sh
	bash $(PEER_SETUP) > /dev/null
	bash scripts/setup.sh --check
	$(BENCH_CLI)
	$(BENCH_STREAM)
	$(BENCH_GEOFENCE)
	cat /proc/loadavg > $(BENCH_OUT)/loadavg-before.txt
	$(BENCH_SWIFT)
	test -s $(BENCH_OUT)/Current_run.jmh.json
	$(BENCH_ANCHOR)
	$(BENCH_H3API)
	$(BENCH_PEER)
	$(BENCH_TZ)
	$(BENCH_STARTUP)
	$(BENCH_ENRICH)
	$(INSTALL_PROFILERS)
	$(BENCH_PROFILE)
	$(BENCH_ENRICH_TZ)
	$(BENCH_ENRICH_GF)
	$(if $(BASE_BIN),$(BENCH_AB))
	$(BENCH_PUSH)
	$(BENCH_GROWTH)
	bash integrations/spark/setup.sh
	$(BENCH_SPARK)
	$(PYTHON) $(BENCH_DIR)/render_results.py \
		--jmh $(BENCH_OUT)/Current_run.jmh.json --anchor $(BENCH_OUT)/h3py_anchor.json --h3api $(BENCH_OUT)/h3_api_anchor.json \
		--lookup-anchor $(BENCH_OUT)/lookup_peer_anchor.json --startup $(BENCH_OUT)/lookup_startup.json \
		--stream $(BENCH_STREAM_FILE) --loadavg $(BENCH_OUT)/loadavg-before.txt --enrich $(BENCH_OUT)/enrich_cli.json --push $(BENCH_OUT)/push.json \
		--growth $(BENCH_OUT)/growth.json --plot $(BENCH_DIR)/growth.svg --spark $(BENCH_OUT)/spark.json \
		--timezone-anchor $(BENCH_OUT)/timezone_anchor.json --enrich-options $(BENCH_OUT)/enrich_options.json \
		--geofence-anchor $(BENCH_OUT)/geofence_anchor.json --enrich-geofences $(BENCH_OUT)/enrich_geofences.json \
		--profile $(BENCH_OUT)/profile.md \
		$(if $(BASE_BIN),--ab $(BENCH_OUT)/ab.json --command '$(BENCH_AB)') \
		--command '$(BENCH_CLI)' --command '$(BENCH_STREAM)' --command '$(BENCH_GEOFENCE)' --command '$(BENCH_SWIFT)' --command '$(BENCH_ANCHOR)' --command '$(BENCH_H3API)' \
		--command '$(BENCH_PEER)' --command '$(BENCH_TZ)' --command '$(BENCH_STARTUP)' --command '$(BENCH_ENRICH)' --command '$(BENCH_PROFILE)' --command '$(BENCH_ENRICH_TZ)' --command '$(BENCH_ENRICH_GF)' \
		--command '$(BENCH_PUSH)' --command '$(BENCH_GROWTH)' --command '$(BENCH_SPARK)' \
		--output $(BENCH_DIR)/RESULTS.md

# make install [PREFIX=/usr/local] [DESTDIR=]
#              the stripped release binary to $(PREFIX)/bin, the data to $(PREFIX)/share/geo-enrich
#              (where the binary finds it: bin/../share/geo-enrich), bash/zsh/fish completions, the
#              man page, and LICENSE, NOTICE, THIRD-PARTY-NOTICES and the linked packages' licence
#              files to $(PREFIX)/share/doc/geo-enrich. Builds first when the sources or the commit
#              changed (scripts/stage_dist.sh → .build/dist, which keeps geo-enrich.debug, the debug
#              information the installed binary's .gnu_debuglink names; it is not installed).
#              Build as yourself (`make dist`), then `sudo make install` only copies.
# make uninstall [PREFIX=...] [DESTDIR=]   removes what install wrote
# make deb     .build/geo-enrich_<version>_<arch>.deb (scripts/package_deb.sh)
PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install
BINDIR      := $(DESTDIR)$(PREFIX)/bin
DATADIR     := $(DESTDIR)$(PREFIX)/share/geo-enrich
DOCDIR      := $(DESTDIR)$(PREFIX)/share/doc/geo-enrich
MANDIR      := $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

DIST := .build/dist
# the commit the staged binary must report: a file rewritten only when HEAD moves (left alone
# when git cannot answer, e.g. under sudo in another user's clone, so `sudo make install` copies)
COMMIT_STAMP := .build/commit.stamp
$(shell mkdir -p .build; [ -f $(COMMIT_STAMP) ] || : > $(COMMIT_STAMP); \
	c=$$(git rev-parse HEAD 2>/dev/null) && [ "$$(cat $(COMMIT_STAMP))" != "$$c" ] && echo "$$c" > $(COMMIT_STAMP); true)
DIST_INPUTS := $(shell find Sources -type f -not -name 'BuildInfo+Generated.swift') Package.swift \
	scripts/build_cli.sh scripts/stage_dist.sh scripts/gen_manpage.py $(COMMIT_STAMP)

$(DIST)/geo-enrich: $(DIST_INPUTS)
	bash scripts/stage_dist.sh

.PHONY: dist install uninstall deb
dist: $(DIST)/geo-enrich

install: $(DIST)/geo-enrich
	$(INSTALL) -d $(BINDIR) $(DATADIR) $(DOCDIR) $(MANDIR) $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
	$(INSTALL) -m 0755 $(DIST)/geo-enrich $(BINDIR)/geo-enrich
	$(INSTALL) -m 0644 data/countries.bin data/postal_ca.bin data/postal_us.bin data/timezones.bin $(DATADIR)/
	$(INSTALL) -m 0644 $(DIST)/man/geo-enrich.1 $(MANDIR)/geo-enrich.1
	$(INSTALL) -m 0644 $(DIST)/completions/geo-enrich.bash $(BASHCOMPDIR)/geo-enrich
	$(INSTALL) -m 0644 $(DIST)/completions/_geo-enrich $(ZSHCOMPDIR)/_geo-enrich
	$(INSTALL) -m 0644 $(DIST)/completions/geo-enrich.fish $(FISHCOMPDIR)/geo-enrich.fish
	$(INSTALL) -m 0644 LICENSE NOTICE THIRD-PARTY-NOTICES CHANGELOG.md $(DOCDIR)/
	rm -rf $(DOCDIR)/licenses
	cp -R $(DIST)/licenses $(DOCDIR)/licenses
	chmod -R u=rwX,go=rX $(DOCDIR)/licenses

uninstall:
	rm -f $(BINDIR)/geo-enrich $(MANDIR)/geo-enrich.1 $(BASHCOMPDIR)/geo-enrich \
		$(ZSHCOMPDIR)/_geo-enrich $(FISHCOMPDIR)/geo-enrich.fish
	rm -rf $(DATADIR) $(DOCDIR)

deb: $(DIST)/geo-enrich
	bash scripts/package_deb.sh --no-build

# make profile   where enrich's CPU goes, stage by stage (perf's cpu-clock sampling over the 1 M-line
#                stream of the last `make bench`, and callgrind's instruction counts over its first
#                200,000 lines): benchmarks/PROFILE.md; installs perf and valgrind when missing
.PHONY: profile
profile:
	test -s $(BENCH_STREAM_FILE) || $(BENCH_STREAM)
	$(INSTALL_PROFILERS)
	bash scripts/build_cli.sh --product geo-enrich
	$(PYTHON) $(BENCH_DIR)/anchors/profile_stages.py --bin .build/release/geo-enrich --stream $(BENCH_STREAM_FILE) \
		--output $(BENCH_DIR)/PROFILE.md

# perf (sampled CPU) and valgrind (callgrind's instruction counts) for anchors/profile_stages.py
INSTALL_PROFILERS := command -v perf >/dev/null && command -v valgrind >/dev/null || { \
	S=; [ "$$(id -u)" -eq 0 ] || S=sudo; $$S apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$S apt-get install -y -qq linux-perf valgrind >/dev/null; }

# make load      the example service (Examples/IngestService) under a bounded loopback load from wrk:
#                records per second and p99 latency, into the ingest block of benchmarks/RESULTS.md
.PHONY: load
load:
	command -v wrk > /dev/null || (apt-get install -y wrk > /dev/null || sudo apt-get install -y wrk > /dev/null)
	swift build -c release --package-path Examples/IngestService --product IngestService
	mkdir -p $(BENCH_OUT)
	$(PYTHON) $(BENCH_DIR)/anchors/ingest_load.py --runs 3 --seconds 10 --connections 32 \
		--output $(BENCH_OUT)/ingest_load.json --results $(BENCH_DIR)/RESULTS.md
