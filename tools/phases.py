#!/usr/bin/env python3
"""Where keygen and proving spend their time, at 1 and 2 threads (issue 35).

Runs `tms keygen` and `tms prove` of a Schnorr ATMS certificate (n members, t signers, flat
commitment), or with `--scheme bls-atms` of a BLS ATMS one (n members, t signers, n - t
non-signer slots unless `--capacity` says), with RAYON_NUM_THREADS=1 and =2 and RUST_LOG=tms::phase=debug, reads the phase
lines the tool logs (wall and CPU seconds of each phase; with a binary built with
`--features profile`, also halo2-axiom's own phases inside create_proof), and prints one
markdown table per command: each phase's wall seconds at 1 and 2 threads, its speed-up, and
the serial share (the 1-thread wall of phases that do not speed up, over the total).

    cargo build --release [--features profile]
    python3 tools/phases.py --bin target/release/tms --n 512 --t 384 [--k 17]
    python3 tools/phases.py --scheme bls-atms --n 2048 --t 1024

Nothing here is a timed test: it measures, prints, and decides nothing.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PHASE = re.compile(r'phase="([^"]+)" wall_s="([0-9.]+)" cpu_s="([0-9.]+)"')
# ark-std's print-trace: "End:     Phase 1: ... ..........1.234s" (also ms, µs, ns units).
ARK_END = re.compile(r"End:\s+(.*?)\s*\.{2,}\s*([0-9.]+)(s|ms|µs|ns)\s*$")
UNIT = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
# A phase that gains less than this from a second thread counts as serial.
SERIAL_SPEEDUP = 1.2


def run(tms, args, cwd, threads=None, log=False):
    env = dict(os.environ)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
    if log:
        env["RUST_LOG"] = "tms::phase=debug"
        env["NO_COLOR"] = "1"
    out = subprocess.run([tms, *args], cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"tms {' '.join(args)} failed:\n{out.stderr}")
    return ANSI.sub("", out.stdout + "\n" + out.stderr)


def phases(text):
    """Phase name -> wall seconds (summed over repeated phases), in first-seen order."""
    found = OrderedDict()
    for line in text.splitlines():
        m = PHASE.search(line)
        if m:
            found[m.group(1)] = found.get(m.group(1), 0.0) + float(m.group(2))
            continue
        m = ARK_END.search(line)
        if m:
            name = "halo2-axiom: " + m.group(1).strip()
            found[name] = found.get(name, 0.0) + float(m.group(2)) * UNIT[m.group(3)]
    return found


def table(title, one, two, total_name):
    print(f"\n### {title}\n")
    print("| phase | 1 thread (s) | 2 threads (s) | speed-up |")
    print("|---|---|---|---|")
    serial = 0.0
    for name, w1 in one.items():
        w2 = two.get(name, float("nan"))
        speedup = w1 / w2 if w2 > 0 else 1.0
        print(f"| {name} | {w1:.3f} | {w2:.3f} | {speedup:.2f}x |")
        leaf = name != total_name and not name.startswith("create_proof")
        if leaf and w1 > 0 and speedup < SERIAL_SPEEDUP:
            serial += w1
    total = one.get(total_name, 0.0)
    if total > 0:
        print(f"\nserial share (phases under {SERIAL_SPEEDUP}x at 2 threads): "
              f"{serial:.2f} s of {total:.2f} s = {100 * serial / total:.1f}%; "
              f"2 threads {total / two.get(total_name, total):.2f}x faster than 1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/tms")
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--t", type=int, default=48)
    ap.add_argument("--k", type=int, help="parameters' k (default: what keygen asks for)")
    ap.add_argument("--keygen-only", action="store_true", help="measure keygen, not prove")
    ap.add_argument("--scheme", default="schnorr-atms", choices=["schnorr-atms", "bls-atms"])
    ap.add_argument("--capacity", type=int, help="BLS ATMS non-signer slots (default n - t)")
    a = ap.parse_args()
    tms = os.path.abspath(a.bin)
    scheme = ["--scheme", a.scheme]
    # The key's shape: BLS ATMS keys are made for a number of non-signer slots.
    shape = [] if a.scheme == "schnorr-atms" else [
        "--capacity", str(a.capacity if a.capacity is not None else a.n - a.t)]
    with tempfile.TemporaryDirectory() as d:
        run(tms, ["committee", *scheme, "--size", str(a.n), "--seed", "35", "--out", "c.json",
                  "--keys-dir", "keys"], d)
        msg = "0x" + b"issue 35 phases".hex()
        sigs = []
        for i in range(a.t):
            run(tms, ["sign", *scheme, "--key", f"keys/member-{i}.json", "--message", msg,
                      "--out", f"s{i}.json"], d)
            sigs.append(f"s{i}.json")
        run(tms, ["certify", *scheme, "--committee", "c.json", "--message", msg, "--out",
                  "cert.json", *sigs], d)
        k = a.k
        if k is None:
            # keygen on too-small parameters names the k it needs (BLS ATMS keys start at 12).
            small = "10" if a.scheme == "schnorr-atms" else "12"
            probe = subprocess.run([tms, "setup", "--k", small, "--insecure-test", "--out",
                                    "small.srs"], cwd=d, capture_output=True, text=True)
            out = subprocess.run([tms, "keygen", *scheme, "--committee", "c.json", *shape,
                                  "--params", "small.srs", "--pk", "x.pk", "--vk", "x.vk"],
                                 cwd=d, capture_output=True, text=True)
            m = re.search(r"k >= (\d+)", out.stderr)
            if m is None:
                sys.exit(f"keygen named no k; give --k:\n{out.stderr}")
            k = int(m.group(1))
            del probe
        run(tms, ["setup", "--k", str(k), "--insecure-test", "--out", "p.srs"], d)
        keygen = {}
        prove = {}
        for threads in (1, 2):
            keygen[threads] = phases(run(tms, ["keygen", *scheme, "--committee", "c.json",
                                               *shape, "--params", "p.srs", "--pk", "a.pk",
                                               "--vk", "a.vk"], d, threads, log=True))
            if a.keygen_only:
                continue
            prove[threads] = phases(run(tms, ["prove", *scheme, "--committee", "c.json",
                                              "--certificate", "cert.json", "--threshold",
                                              str(a.t), "--params", "p.srs", "--pk", "a.pk",
                                              "--proof", "a.proof", "--public", "a.json"],
                                        d, threads, log=True))
        what = "Schnorr ATMS, flat" if a.scheme == "schnorr-atms" else f"BLS ATMS, {shape[1]} non-signer slots"
        print(f"{what}, {a.t}-of-{a.n}, k = {k} ({tms})")
        table("keygen", keygen[1], keygen[2], "keygen (total)")
        if not a.keygen_only:
            table("prove", prove[1], prove[2], "prove (total)")


if __name__ == "__main__":
    main()
