"""A tally of named pass/fail checks, printed one line each (`ok   name` or `FAIL name: detail`),
for the CLI checks that run a list of cases (adversarial_check, fault_check)."""


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
