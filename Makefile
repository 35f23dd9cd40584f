# geo-enrich developer tasks.
#
# make bench   run the H3 benchmarks and the h3-py anchor, then write benchmarks/RESULTS.md
#              (needs python3 with h3==4.5.0; the first run builds package-benchmark, minutes)

SWIFT  ?= swift
PYTHON ?= python3

BENCH_DIR := benchmarks
BENCH_OUT := $(BENCH_DIR)/output

# package-benchmark's JMH export is the machine-readable one render_results.py reads; it is
# written as Current_run.jmh.json under --path (a path relative to the directory make runs in).
BENCH_H3 := $(SWIFT) package --package-path $(BENCH_DIR) --allow-writing-to-package-directory \
	benchmark run --target H3Benchmarks --format jmh --path $(BENCH_OUT) --no-progress
BENCH_ANCHOR := $(PYTHON) $(BENCH_DIR)/anchors/h3py_anchor.py --output $(BENCH_OUT)/h3py_anchor.json

.PHONY: bench
bench:
	rm -rf $(BENCH_OUT)
	mkdir -p $(BENCH_OUT)
	cat /proc/loadavg > $(BENCH_OUT)/loadavg-before.txt
	$(BENCH_H3)
	test -s $(BENCH_OUT)/Current_run.jmh.json
	$(BENCH_ANCHOR)
	$(PYTHON) $(BENCH_DIR)/render_results.py \
		--jmh $(BENCH_OUT)/Current_run.jmh.json --anchor $(BENCH_OUT)/h3py_anchor.json \
		--loadavg $(BENCH_OUT)/loadavg-before.txt \
		--command '$(BENCH_H3)' --command '$(BENCH_ANCHOR)' \
		--output $(BENCH_DIR)/RESULTS.md
