"""A tally of named pass/fail checks, printed one line each (`ok   name` or `FAIL name: detail`),
for the CLI checks that run a list of cases (adversarial_check, fault_check), and what the
differential checks share (zip_diffcheck, timezone_diffcheck): the seed, a CLI run, a group of
points compared with a reference."""
import os
import subprocess
import sys


def seed(given, tool):
    """The run's seed: `given`, else a fresh one; printed, so that a failure can be replayed."""
    value = given if given is not None else int.from_bytes(os.urandom(4), "little")
    print(f"{tool}: seed {value}")
    return value


def run_cli(tool, argv, text):
    """The lines `argv` writes for `text` on its standard input; stops the check when it fails."""
    p = subprocess.run(argv, input=text.encode(), capture_output=True)
    if p.returncode != 0:
        sys.exit(f"{tool}: {' '.join(argv)} exited {p.returncode}: {p.stderr.decode()[-400:]}")
    return p.stdout.decode().splitlines()


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def expect(self, ok, name, detail=""):
        """Counts a check; prints `ok` or `FAIL` with the detail that says what went wrong."""
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")

    def compare(self, name, failures, detail):
        """Counts a comparison of many points: it passes when `failures` (descriptions of the
        points that differ) is empty; prints `detail` either way and the first failure."""
        self.expect(not failures, f"{name}: {detail}", f"{detail}; first: {failures[0]}" if failures else "")

    def finish(self, tool):
        """Prints the tally and exits 1 when a check failed."""
        print(f"{tool}: {self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
