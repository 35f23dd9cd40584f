#!/usr/bin/env python3
"""Where `geo-enrich enrich`'s CPU goes, stage by stage: a sampled profile (perf's software
cpu-clock, which needs no hardware counters) of one run over a stream, its symbols demangled and
sorted into the pipeline's stages (read, scan and parse, decide, enrich, render, write, the Swift
runtime, start-up), each given as a share of the samples and as nanoseconds of CPU a line (the
share of the median user + system time of --runs plain runs). Writes Markdown to --output.

With valgrind installed, a second table counts instructions instead of sampling time: callgrind
runs `enrich` over the stream's first --instruction-lines lines and over an empty input, and the
difference, function by function, divided by the lines, is sorted into the same stages.
Instruction counts do not move with the machine's load, so they show a change of a few percent
that timings on this shared machine cannot (they do not show cache misses: read both tables).

usage: profile_stages.py --bin BIN --stream STREAM [--runs 5] [--instruction-lines 200000]
                         [--output PROFILE.md]
"""
import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# the enrich stage's parts, by the functions' own counts (first match wins; the stage's other
# functions, the locator's own, are "the rest"); the stage's pattern is made of them. Own counts
# rather than inclusive ones: callgrind's inclusive count of a function leaves out what it
# reaches by a tail call (about 40 % of the country's cost: its GEOS point-in-polygon)
ENRICH_PARTS = [
    ("postal code (the grid scan, the nearest code)", r"PostalQuery|PostalIndex|PostalGrid|PostalCode"),
    ("country (the tile index, GEOS's point-in-polygon, the first parse of the polygons reached)",
     r"CountryIndex|CountryLocator|libgeos|GEOS|geos::"),
    ("H3 cell (face, IJK coordinates, digits)", r"H3Cell|CoordIJK|FaceIJK|Vec3|Vec2|DegreeTrigonometry|AlgebraicProjection"),
]

# first match wins; patterns over demangled symbol names (and the library's name)
STAGES = [
    ("start-up", "data files opened and checked, GEOS prepared, dynamic linking",
     r"PostalIndex\.init|validateTree|CountryIndex\.init|ld-linux|do_lookup|_dl_|introsort|STRtree|TemplateSTR"
     r"|DataFile|WKBStructure|CountryEntry\.init|PreparedGeometry"),
    ("read", "read(2), the line split", r"BatchReader|_copy_to_iter|copy_user|memchr|InputFile|GzipInflater"),
    ("scan and parse", "the JSON scanner, the field checks, numbers, timestamps, session ids",
     r"JSONLineScanner|RecordParser|RecordFields|JSONNumber|PythonISOTimestamp|FromISOFormat|CivilCalendar\.days"
     r"|UTF8|SessionID\.init|_uncheckedFromUTF8|String\.init\(unsafeUninitialized|ParsedRecord|LineReader"
     r"|closure #1 in ParallelRunner|SDKRecordParser|JSONTree|DecimalDigits|CheckedLine|SessionIDCache|LineLayouts"),
    ("decide", "the session tables, the rules, the partitions' walk over a batch",
     r"SessionStore|SessionIndex|SessionState|FixDistance|FixHistory|closure #3 in ParallelRunner|RecordProcessor"
     r"|ParallelRunner\.process|SessionTable|LocalDistance|Geodesic|geod_|SharedBytes|SessionRecord"),
    ("enrich", "H3 cell, country, postal code of each accepted fix",
     "|".join(pattern for _, pattern in ENRICH_PARTS) + r"|LocationLookup|Locator|__round"),
    ("render", "the geo object, the splice, the renderer's cache of rendered geo objects",
     r"Splice|OrjsonText|RenderedGeo|GeoRenderer|Enrichment|__RawDictionaryStorage\.find|Hasher|SDKSplice|CivilCalendar\.date"),
    ("write", "the gather of the partitions' lines in input order, write(2)",
     r"BatchWriter|memmove|Array\.append|OutputFile|memcpy|ksys_write|vfs_write"),
    ("Swift runtime and malloc", "reference counting, allocation, exclusivity and metadata",
     r"swift_retain|swift_release|swift_isUnique|malloc|free|_int_|swift_bridgeObject|swift_allocObject"
     r"|swift_dealloc|tcache|AccessSet|swift_once|Metadata|swift_array|tuple_|RefCount|swift::|swift_conforms"),
]


def cpu_times(argv, runs):
    """Median user + system seconds of `runs` runs (os.wait4)."""
    out = []
    for _ in range(runs):
        with open(os.devnull, "wb") as null:
            proc = subprocess.Popen(argv, stdout=null, stderr=null)
            _, _, usage = os.wait4(proc.pid, 0)
        out.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(out), out


def first_match(name, dso, table):
    """The key of the first (key, pattern) of `table` whose pattern a symbol's name or object
    matches, or None."""
    return next((key for key, pattern in table if re.search(pattern, name) or re.search(pattern, dso)), None)


def classify(name, dso):
    """The stage of a symbol (first match wins), or None for "other"."""
    return first_match(name, dso, [(stage, pattern) for stage, _, pattern in STAGES])


def demangle(names):
    demangler = shutil.which("swift-demangle")
    if not demangler:
        return list(names)
    out = subprocess.run([demangler, "--simplified"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return out if len(out) == len(names) else list(names)


def callgrind_counts(binary, argv_tail, out_file):
    """Instructions per function of one run under callgrind: {(name, object): count}."""
    with open(os.devnull, "wb") as null:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", binary, *argv_tail],
                       stdout=null, stderr=null, check=True)
    text = subprocess.run(["callgrind_annotate", "--threshold=100", out_file], capture_output=True, text=True,
                          check=True).stdout
    counts = {}
    for line in text.splitlines():
        # `119,566,566 (12.73%)  ???:JSONLineScanner.scanLine() [/tmp/x/geo-enrich]`; the file part has no
        # colon, C++ names do
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\?\?\?|[^:\s]*):(.*) \[([^\]]*)\]\s*$", line)
        if m:
            key = (m.group(3), os.path.basename(m.group(4)))
            counts[key] = counts.get(key, 0) + int(m.group(1).replace(",", ""))
    return counts


def instruction_table(binary, stream, lines_wanted, tmp):
    """Markdown lines: instructions a line by stage, from callgrind (the stream's first lines less an empty input)."""
    # valgrind 3.19 cannot read the Swift compiler's DWARF; the symbol table is enough for functions
    stripped = os.path.join(tmp, "geo-enrich")
    subprocess.run(["strip", "-g", "-o", stripped, binary], check=True)
    # the copy has no data beside it: the data the binary itself would find
    data = os.environ.get("GEO_ENRICH_DATA") or os.path.join(os.path.dirname(os.path.realpath(binary)), "data")
    if not os.path.isdir(data):
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")
    os.symlink(os.path.abspath(data), os.path.join(tmp, "data"))
    head = os.path.join(tmp, "head.ndjson")
    lines = 0
    with open(stream, "rb") as src, open(head, "wb") as dst:
        for line in src:
            if lines == lines_wanted:
                break
            dst.write(line)
            lines += 1
    empty = os.path.join(tmp, "empty.ndjson")
    open(empty, "wb").close()
    full = callgrind_counts(stripped, ["enrich", "--quiet", head], os.path.join(tmp, "cg.full"))
    base = callgrind_counts(stripped, ["enrich", "--quiet", empty], os.path.join(tmp, "cg.empty"))
    keys = [k for k in full if full[k] - base.get(k, 0) > 0]
    names = demangle([k[0] for k in keys])
    totals, top, enrich = {}, {}, []
    for (name, dso), pretty in zip(keys, names):
        count = full[(name, dso)] - base.get((name, dso), 0)
        stage = classify(pretty, dso) or "other"
        totals[stage] = totals.get(stage, 0) + count
        top.setdefault(stage, []).append((count, pretty))
        if stage == "enrich":
            enrich.append((count, pretty, dso))
    total = sum(totals.values())
    out = []
    w = out.append
    w("## Instructions a line, stage by stage (callgrind)")
    w("")
    w(f"`valgrind --tool=callgrind` of `geo-enrich enrich --quiet` over the stream's first {lines:,} lines, less the "
      f"same over an empty input (the start-up), function by function; symbols sorted into the stages above. "
      f"**{total / lines:,.0f} instructions a line** in all. Exact and repeatable, unlike the timings; blind to "
      "cache misses and to the kernel. Preparations made lazily on the first lines (the countries' GEOS "
      "index) count as start-up.")
    w("")
    w("| stage | instructions a line | share | largest functions (instructions a line) |")
    w("|---|---:|---:|---|")
    for stage in [s[0] for s in STAGES] + ["other"]:
        n = totals.get(stage, 0)
        biggest = ", ".join(f"{p[:60]} {c / lines:,.0f}" for c, p in sorted(top.get(stage, []), reverse=True)[:4])
        w(f"| {stage} | {n / lines:,.0f} | {100 * n / total:.1f} % | {biggest} |")
    w("")
    out += per_fix_table(stripped, head, lines, enrich)
    return out


def per_fix_table(binary, head, lines, enrich):
    """Markdown lines: the enrich stage per accepted fix (it runs for those alone). `enrich` is
    the stage's [(count, demangled name, object)] over the run of `head`."""
    # the accepted fixes, from the run's summary on standard error
    summary = subprocess.run([binary, "enrich", head], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True).stderr
    m = re.search(r"([\d,]+) accepted", summary)
    if not m or int(m.group(1).replace(",", "")) == 0:
        return ["(No per-fix table: the run's summary names no accepted fixes.)", ""]
    accepted = int(m.group(1).replace(",", ""))
    parts = {what: 0 for what, _ in ENRICH_PARTS}
    rest = 0
    for count, name, dso in enrich:
        what = first_match(name, dso, ENRICH_PARTS)
        if what:
            parts[what] += count
        else:
            rest += count
    out = []
    w = out.append
    w(f"The enrich stage runs for accepted fixes alone ({accepted:,} of the {lines:,} lines): its functions "
      "by part, per accepted fix.")
    w("")
    w("| part of enrich | instructions an accepted fix | instructions a line |")
    w("|---|---:|---:|")
    for what, n in list(parts.items()) + [("the rest (the locator's own code)", rest)]:
        w(f"| {what} | {n / accepted:,.0f} | {n / lines:,.0f} |")
    total = sum(parts.values()) + rest
    w(f"| the enrich stage | {total / accepted:,.0f} | {total / lines:,.0f} |")
    w("")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--stream", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--frequency", type=int, default=4000)
    ap.add_argument("--instruction-lines", type=int, default=200_000)
    ap.add_argument("--output")
    a = ap.parse_args()
    if not shutil.which("perf"):
        sys.exit("profile_stages: perf is not installed (Debian: linux-perf)")
    lines = sum(1 for _ in open(a.stream, "rb"))
    argv = [a.bin, "enrich", "--quiet", a.stream]
    cpu, all_cpu = cpu_times(argv, a.runs)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        with open(os.devnull, "wb") as null:
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(a.frequency), "-o", data, *argv],
                           stdout=null, stderr=null, check=True)
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol", "--stdio",
                                 "-g", "none"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*?)\s*(?:-\s+-\s*)?$", line)
        if m:
            rows.append([float(m.group(1)), m.group(2), m.group(3)])
    for r, n in zip(rows, demangle([r[2] for r in rows])):
        r[2] = n
    totals = {s[0]: 0.0 for s in STAGES}
    top = {s[0]: [] for s in STAGES}
    other, other_top = 0.0, []
    for share, dso, name in rows:
        stage = classify(name, dso)
        if stage:
            totals[stage] += share
            top[stage].append((share, name))
        else:
            other += share
            other_top.append((share, f"{name} ({dso})"))
    ns = cpu * 1e9 / lines
    out = []
    w = out.append
    w("# Where `enrich`'s CPU goes, stage by stage")
    w("")
    w(f"`benchmarks/anchors/profile_stages.py --bin {a.bin} --stream {a.stream}`: {platform.node()}, "
      f"{os.cpu_count()} cores, {lines:,} lines. CPU (user + system) of a plain run, the median of {a.runs}: "
      f"{cpu:.3f} s ({', '.join(f'{c:.3f}' for c in all_cpu)}), **{ns:.0f} ns a line**, start-up included. "
      f"The shares come from one more run sampled by `perf record -e cpu-clock -F {a.frequency}` (both workers, "
      "the kernel's share included), symbols demangled and sorted into stages by name; a stage's nanoseconds are "
      "its share of the median CPU. A sampled profile is noisy at the level of a percent.")
    w("")
    w("| stage | what | share | ns a line | largest symbols |")
    w("|---|---|---:|---:|---|")
    for stage, what, _ in STAGES:
        biggest = ", ".join(f"{n[:60]} {p:.1f} %" for p, n in sorted(top[stage], reverse=True)[:3])
        w(f"| {stage} | {what} | {totals[stage]:.1f} % | {totals[stage] * ns / 100:.0f} | {biggest} |")
    biggest = ", ".join(f"{n[:60]} {p:.1f} %" for p, n in sorted(other_top, reverse=True)[:3])
    w(f"| other | the kernel's scheduling and page faults, the rest | {other:.1f} % | {other * ns / 100:.0f} | {biggest} |")
    w("")
    if shutil.which("valgrind") and shutil.which("callgrind_annotate"):
        with tempfile.TemporaryDirectory() as tmp:
            out += instruction_table(a.bin, a.stream, a.instruction_lines, tmp)
    else:
        w("(No instruction counts: valgrind is not installed; Debian: `apt-get install valgrind`.)")
        w("")
    text = "\n".join(out) + "\n"
    print(text)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
