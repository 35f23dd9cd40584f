#!/usr/bin/env python3
"""Adversarial cases of `geo-enrich enrich` that once destroyed data or leaked a secret: each
must now stop before reading a line, with exit status 64, a message that says what is wrong,
no byte of any input changed, and no secret in what it printed.

- outputs that name an input (`-o`, `--errors`, a hard link, a symbolic link to it) or each
  other (`-o` and `--errors`, `-o` and `--stats`): these truncated the input and died of SIGBUS,
  or lost lines with exit status 0;
- push URLs that are not usable (a port out of range crashed mid-run; a query or fragment
  misrouted every update while counting it pushed; `http:///v2` was accepted; credentials);
- an API key with a line end or control character, which was written in clear into the
  dead-letter file.

And what must still work: `/dev/null` named twice, `--stats /dev/stderr`.

usage: adversarial_check.py --bin BIN
"""
import argparse
import os
import subprocess
import sys
import tempfile

from geoenrich_tools.checks import Checks

RECORDS = [
    '{"type":"location","session_id":"a","timestamp":1764237600000,"latitude":49.888171,"longitude":-97.131112}',
    '{"type":"track","session_id":"a","timestamp":1764237601000}',
    '{"type":"location","session_id":"b","timestamp":1764237602000,"latitude":43.6532,"longitude":-79.3832}',
]


def run(binary, args, cwd, env=None):
    full_env = dict(os.environ)
    full_env.pop("GEO_ENRICH_API_KEY", None)
    full_env.update(env or {})
    p = subprocess.run([binary, "enrich", "--quiet", *args], cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    checks = Checks()
    text = ("\n".join(RECORDS) + "\n").encode()
    with tempfile.TemporaryDirectory() as tmp:
        def fresh():
            for name in os.listdir(tmp):
                os.remove(os.path.join(tmp, name))
            with open(os.path.join(tmp, "in.ndjson"), "wb") as f:
                f.write(text)
            os.link(os.path.join(tmp, "in.ndjson"), os.path.join(tmp, "hard.ndjson"))
            os.symlink("in.ndjson", os.path.join(tmp, "sym.ndjson"))

        def intact():
            with open(os.path.join(tmp, "in.ndjson"), "rb") as f:
                return f.read() == text

        # outputs that are an input, or each other: refused before anything is opened
        for name, extra, words in [
            ("-o is the input", ["-o", "in.ndjson"], "is the input"),
            ("--errors is the input", ["--errors", "in.ndjson"], "is the input"),
            ("--stats is the input", ["--stats", "in.ndjson"], "is the input"),
            ("-o is a hard link to the input", ["-o", "hard.ndjson"], "is the input"),
            ("-o is a symbolic link to the input", ["-o", "sym.ndjson"], "is the input"),
            ("-o and --errors are one new file", ["-o", "x.out", "--errors", "x.out"], "are one file"),
            ("-o and --stats are one file by two names", ["-o", "x.out", "--stats", "./x.out"], "are one file"),
        ]:
            fresh()
            status, out, err = run(binary, ["in.ndjson", *extra], tmp)
            checks.expect(status == 64 and words in err and intact() and not out,
                          name, f"exit {status}, input intact {intact()}, stderr {err.strip()[:200]!r}")

        # standard input redirected from the file that -o or --errors names (`-o f < f`)
        for name, extra in [("-o is standard input's file", ["-o", "in.ndjson"]),
                            ("--errors is standard input's file (via -)", ["-", "--errors", "in.ndjson"])]:
            fresh()
            with open(os.path.join(tmp, "in.ndjson"), "rb") as stdin:
                p = subprocess.run([binary, "enrich", "--quiet", *extra], cwd=tmp, stdin=stdin,
                                   capture_output=True, timeout=60)
            err = p.stderr.decode("utf-8", "replace")
            checks.expect(p.returncode == 64 and "standard input" in err and intact() and not p.stdout,
                          name, f"exit {p.returncode}, input intact {intact()}, stderr {err.strip()[:200]!r}")

        # what may be named twice
        fresh()
        status, out, err = run(binary, ["in.ndjson", "-o", "/dev/null", "--errors", "/dev/null"], tmp)
        checks.expect(status == 0 and intact(), "/dev/null named twice still runs", f"exit {status}, {err.strip()[:200]!r}")
        status, out, err = run(binary, ["in.ndjson", "--stats", "/dev/stderr"], tmp)
        checks.expect(status == 0 and '"lines":3' in err and out.count(b"\n") == 3, "--stats /dev/stderr still runs",
                      f"exit {status}, {err.strip()[:200]!r}")

        # push URLs: refused whole before any line is read
        for url, words in [("http://127.0.0.1:99999", "port"), ("http://127.0.0.1:0", "port"),
                           ("http://127.0.0.1:8080/?x=1", "query"), ("http://127.0.0.1:8080/#frag", "fragment"),
                           ("http:///v2", "no host"), ("ftp://127.0.0.1", "scheme")]:
            fresh()
            status, out, err = run(binary, ["in.ndjson", "--push-url", url], tmp, {"GEO_ENRICH_API_KEY": "k-1"})
            checks.expect(status == 64 and words in err and not out and url in err,
                          f"push URL {url} refused", f"exit {status}, stdout {len(out)} bytes, {err.strip()[:200]!r}")
        fresh()
        status, out, err = run(binary, ["in.ndjson", "--push-url", "http://user:pw-s3cret@127.0.0.1:8080"], tmp,
                               {"GEO_ENRICH_API_KEY": "k-1"})
        checks.expect(status == 64 and "credentials" in err and "pw-s3cret" not in err and not out,
                      "push URL with credentials refused without repeating them", f"exit {status}, {err.strip()[:200]!r}")

        # an API key a header cannot carry: refused, never printed
        for key in ["key-s3cret\nsecond-line", "key-s3cret\x01"]:
            fresh()
            status, out, err = run(binary, ["in.ndjson", "--push-url", "http://127.0.0.1:9"], tmp,
                                   {"GEO_ENRICH_API_KEY": key})
            dead = os.path.join(tmp, "geo-enrich-dead-letter.ndjson")
            checks.expect(status == 64 and "control character" in err and "key-s3cret" not in err and not out
                          and not os.path.exists(dead),
                          f"API key {key!r} refused", f"exit {status}, {err.strip()[:200]!r}")

    print(f"{checks.passed} passed, {checks.failed} failed")
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
