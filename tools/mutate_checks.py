#!/usr/bin/env python3
"""Removes soundness checks one at a time and runs a crate's tests: a check whose removal no
test notices is a check no test guards (issue 51).

    python3 tools/mutate_checks.py -p mithril-jubjub --test circuit \
        circuits/mithril-jubjub/src/circuit.rs [more files] [--only LINE ...] [--list]
    python3 tools/mutate_checks.py -p mithril-snark --workspace --test circuit \
        circuits/mithril/src/circuit.rs    # every workspace test target named `circuit`

For each single-line statement in the files that calls a check (`constrain_equal`,
`assert_equal`, `assert_*`, `range_check`, `check_less_than`, `self.check(` ...), the line is
commented out, the tests run (`cargo test -p CRATE [--test NAME ...]`, with the caller's
CARGO_TARGET_DIR), and the file restored. Prints one line per check: `caught` (some test failed),
`SURVIVED` (every test passed: add a test), or `no-build` (the mutant does not compile, e.g. the
statement's value is used). The files are restored even on Ctrl-C.
"""

import argparse
import re
import subprocess
import sys
import time

CHECK = re.compile(
    r"\b(constrain_equal|assert_equal|assert_equal_to_fixed|cond_assert_equal|assert_is_const|"
    r"assert_bit|assert_non_zero|assert_not_equal|range_check|check_less_than|check_less_than_safe|"
    r"constrain_as_public_input|self\.check|m\.check)\s*\("
)


def candidates(path):
    """(line number, text) of single-line check statements in `path`."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if text.startswith("//") or not CHECK.search(text):
                continue
            # A whole statement on one line: a call ending in `;` (or a match arm ending in `,`).
            if text.endswith(";") or (text.endswith(",") and "=>" in text):
                out.append((n, text))
    return out


def mutate(path, n):
    """`path`'s text with line `n` made a no-op, keeping match arms well formed."""
    with open(path) as f:
        lines = f.readlines()
    line = lines[n - 1]
    indent = line[: len(line) - len(line.lstrip())]
    text = line.strip()
    if "=>" in text and text.endswith(","):
        arm = text.split("=>", 1)[0]
        lines[n - 1] = f"{indent}{arm}=> {{}} // mutated: {text}\n"
    elif text.endswith("?;") or text.endswith(";"):
        lines[n - 1] = f"{indent}// mutated: {text}\n"
    return "".join(lines)


def run_tests(args):
    # --workspace keeps the workspace's feature set (CI's): no dependency rebuilt for `-p`'s.
    cmd = ["cargo", "test"] + (["--workspace"] if args.workspace else ["-p", args.package])
    for t in args.test:
        cmd += ["--test", t]
    if args.lib:
        cmd += ["--lib"]
    cmd += ["--", "--test-threads", str(args.threads)]
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    took = time.time() - start
    log = r.stdout + r.stderr
    if "error[" in log or "could not compile" in log:
        return "no-build", took, log
    return ("caught" if r.returncode != 0 else "SURVIVED"), took, log


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-p", "--package", required=True)
    ap.add_argument("--test", action="append", default=[], help="test target (repeatable)")
    ap.add_argument("--lib", action="store_true", help="also the crate's unit tests")
    ap.add_argument(
        "--workspace", action="store_true", help="build as `cargo test --workspace --test ...`"
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", type=int, action="append", default=[], help="only these lines")
    ap.add_argument("--list", action="store_true", help="list the checks, run nothing")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    for path in args.files:
        with open(path) as f:
            original = f.read()
        for n, text in candidates(path):
            if args.only and n not in args.only:
                continue
            if args.list:
                print(f"{path}:{n}: {text}")
                continue
            mutant = mutate(path, n)
            try:
                with open(path, "w") as f:
                    f.write(mutant)
                verdict, took, log = run_tests(args)
            finally:
                with open(path, "w") as f:
                    f.write(original)
            print(f"{verdict:9} {path}:{n} ({took:.0f} s): {text}", flush=True)
            if verdict == "caught":
                failed = [l for l in log.splitlines() if l.startswith("test ") and "FAILED" in l]
                for l in failed[:5]:
                    print(f"          {l}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
