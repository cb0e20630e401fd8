#!/usr/bin/env python3
"""Where keygen and proving spend their time, at 1 and 2 threads or any others (issue 35).

Runs `tms keygen` and `tms prove` of a Schnorr ATMS certificate (n members, t signers, flat
commitment), or with `--scheme bls-atms` of a BLS ATMS one (n members, t signers, n - t
non-signer slots unless `--capacity` says), or with `--scheme mithril` of a SNARK-Mithril one
on mainnet's parameters (n parties with Zipf-like stakes, party i holding 1,000,000 / (i + 1) as
in the circuit's `mainnet` test, depth 13; the t largest try to sign, the key has as many signer
slots as the certificate has signers), with RAYON_NUM_THREADS=1 and =2 and
RUST_LOG=tms::phase=debug, reads the phase
lines the tool logs (wall and CPU seconds of each phase; with a binary built with
`--features profile`, also halo2-axiom's own phases inside create_proof), and prints one
markdown table per command: each phase's wall seconds at 1 and 2 threads, its speed-up, and
the serial share (the 1-thread wall of phases that do not speed up, over the total).
`--threads 16 4 1` measures other thread counts, in that order (speed-ups are taken from the
fewest threads; each cell gives the phase's wall seconds and, in brackets, its CPU seconds, which
show where CPU time grows with threads); `--workdir DIR` keeps the committee, certificate,
parameters and keys there, so later runs reuse them, and `--no-keygen` proves with the key an
earlier run left there.

    cargo build --release [--features profile]
    python3 tools/phases.py --bin target/release/tms --n 512 --t 384 [--k 17]
    python3 tools/phases.py --scheme bls-atms --n 2048 --t 1024
    python3 tools/phases.py --scheme mithril --n 3000 --t 200
    python3 tools/phases.py --n 2001 --t 1602 --k 19 --threads 16 4 --workdir w

Nothing here is a timed test: it measures, prints, and decides nothing.
"""

import argparse
import json
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
    """Phase name -> (wall seconds, CPU seconds or None), summed over repeated phases, in
    first-seen order (halo2-axiom's own timers give no CPU seconds)."""
    found = OrderedDict()
    for line in text.splitlines():
        m = PHASE.search(line)
        if m:
            wall, cpu = found.get(m.group(1), (0.0, 0.0))
            found[m.group(1)] = (wall + float(m.group(2)), (cpu or 0.0) + float(m.group(3)))
            continue
        m = ARK_END.search(line)
        if m:
            name = "halo2-axiom: " + m.group(1).strip()
            wall, _ = found.get(name, (0.0, None))
            found[name] = (wall + float(m.group(2)) * UNIT[m.group(3)], None)
    return found


def table(title, runs, total_name):
    """`runs`: thread count -> phases, in the order measured. Speed-ups are taken from the
    fewest threads to each other count; a phase counts as serial when the most threads gain it
    less than SERIAL_SPEEDUP."""
    counts = sorted(runs)
    base, most = runs[counts[0]], runs[counts[-1]]
    print(f"\n### {title}\n")
    heads = " | ".join(f"{t} thread{'s' if t > 1 else ''} wall (CPU) s" for t in counts)
    gains = "".join(f" {t}/{counts[0]} |" for t in counts[1:])
    print(f"| phase | {heads} |{gains}")
    print("|---" * (2 * len(counts)) + "|")
    serial = 0.0
    for name, (w1, _) in base.items():
        cells = []
        for t in counts:
            w, c = runs[t].get(name, (float("nan"), None))
            cells.append(f"{w:.3f}" + (f" ({c:.1f})" if c is not None else ""))
        speedups = []
        for t in counts[1:]:
            w = runs[t].get(name, (float("nan"), None))[0]
            speedups.append(f"{w1 / w:.2f}x" if w > 0 else "-")
        print(f"| {name} | {' | '.join(cells)} |" + "".join(f" {x} |" for x in speedups))
        w_most = most.get(name, (float("nan"), None))[0]
        # halo2-axiom's own timers are inside create_proof or keygen's phases: not counted twice.
        leaf = (name != total_name and not name.startswith("create_proof")
                and not name.startswith("halo2-axiom: "))
        if len(counts) > 1 and leaf and w1 > 0 and not (w1 / w_most >= SERIAL_SPEEDUP):
            serial += w1
    total = base.get(total_name, (0.0, None))[0]
    if total > 0 and len(counts) > 1:
        faster = total / most.get(total_name, (total, None))[0]
        print(f"\nserial share (phases under {SERIAL_SPEEDUP}x at {counts[-1]} threads): "
              f"{serial:.2f} s of {total:.2f} s = {100 * serial / total:.1f}% at {counts[0]} "
              f"thread(s); {counts[-1]} threads {faster:.2f}x faster than {counts[0]}")


def prepare_mithril(tms, a, msg, d):
    """A mainnet registration of `a.n` parties with Zipf-like stakes (`c.json`, so that the
    commands read it as the committee) and a certificate of the `a.t` largest that win."""
    if not os.path.exists(os.path.join(d, "c.json")):
        run(tms, ["committee", "--scheme", "mithril", "--size", str(a.n), "--seed", "35",
                  "--stake", "1", "--out", "stakes.json", "--keys-dir", "keys"], d)
        path = os.path.join(d, "stakes.json")
        with open(path) as f:
            stakes = json.load(f)
        for i, party in enumerate(stakes["parties"]):
            party["stake"] = 1_000_000 // (i + 1)
        with open(path, "w") as f:
            json.dump(stakes, f)
        run(tms, ["register", "--stakes", "stakes.json", "--preset", "mainnet", "--depth", "13",
                  "--out", "c.json"], d)
    sigs = []
    for i in range(a.t):
        sig = f"s{i}.json"
        if not os.path.exists(os.path.join(d, sig)):
            # A party that wins no lottery index has nothing to sign: the tool writes no file.
            run(tms, ["sign", "--scheme", "mithril", "--registration", "c.json", "--key",
                      f"keys/member-{i}.json", "--message", msg, "--out", sig], d)
        if os.path.exists(os.path.join(d, sig)):
            sigs.append(sig)
    run(tms, ["certify", "--scheme", "mithril", "--committee", "c.json", "--message", msg,
              "--out", "cert.json", *sigs], d)


def key_shape(a, d):
    """The keygen options that fix the circuit's shape beyond the committee."""
    if a.scheme == "bls-atms":
        # BLS ATMS keys are made for a number of non-signer slots.
        return ["--capacity", str(a.capacity if a.capacity is not None else a.n - a.t)]
    if a.scheme == "mithril":
        with open(os.path.join(d, "cert.json")) as f:
            signers = len(json.load(f)["signers"])
        return ["--signer-slots", str(a.capacity if a.capacity is not None else signers)]
    return []


def prepare(tms, a, scheme, d):
    """The committee, its certificate and the parameters in `d` (kept when already there);
    returns k."""
    msg = "0x" + b"issue 35 phases".hex()
    if a.scheme == "mithril" and not os.path.exists(os.path.join(d, "cert.json")):
        prepare_mithril(tms, a, msg, d)
    if not os.path.exists(os.path.join(d, "cert.json")):
        run(tms, ["committee", *scheme, "--size", str(a.n), "--seed", "35", "--out", "c.json",
                  "--keys-dir", "keys"], d)
        sigs = []
        for i in range(a.t):
            run(tms, ["sign", *scheme, "--key", f"keys/member-{i}.json", "--message", msg,
                      "--out", f"s{i}.json"], d)
            sigs.append(f"s{i}.json")
        run(tms, ["certify", *scheme, "--committee", "c.json", "--message", msg, "--out",
                  "cert.json", *sigs], d)
    if a.prepare_only:
        return None
    k = a.k
    if k is None:
        # keygen on too-small parameters names the k it needs (BLS ATMS keys start at 12).
        small = "12" if a.scheme == "bls-atms" else "10"
        subprocess.run([tms, "setup", "--k", small, "--insecure-test", "--out", "small.srs"],
                       cwd=d, capture_output=True, text=True)
        out = subprocess.run([tms, "keygen", *scheme, "--committee", "c.json", *key_shape(a, d),
                              "--params", "small.srs", "--pk", "x.pk", "--vk", "x.vk"],
                             cwd=d, capture_output=True, text=True)
        m = re.search(r"k >= (\d+)", out.stderr)
        if m is None:
            sys.exit(f"keygen named no k; give --k:\n{out.stderr}")
        k = int(m.group(1))
    srs = os.path.join(d, f"p{k}.srs")
    if not os.path.exists(srs):
        run(tms, ["setup", "--k", str(k), "--insecure-test", "--out", f"p{k}.srs"], d)
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/tms")
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--t", type=int, default=48)
    ap.add_argument("--k", type=int, help="parameters' k (default: what keygen asks for)")
    ap.add_argument("--keygen-only", action="store_true", help="measure keygen, not prove")
    ap.add_argument("--no-keygen", action="store_true",
                    help="measure prove only, with the key an earlier run left in --workdir")
    ap.add_argument("--prepare-only", action="store_true",
                    help="make the committee and certificate in --workdir and stop (to measure "
                    "on another machine without spending its time on signing)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2],
                    help="RAYON_NUM_THREADS values, in the order run (default: 1 2)")
    ap.add_argument("--workdir", help="keep the committee, certificate, parameters and keys "
                    "here and reuse them (default: a temporary folder)")
    ap.add_argument("--scheme", default="schnorr-atms", choices=["schnorr-atms", "bls-atms", "mithril"])
    ap.add_argument("--capacity", type=int, help="BLS ATMS non-signer slots (default n - t), "
                    "SNARK-Mithril signer slots (default the certificate's signers)")
    a = ap.parse_args()
    if a.prepare_only and not a.workdir:
        sys.exit("--prepare-only keeps its files in --workdir; give one")
    if a.keygen_only and a.no_keygen:
        sys.exit("--keygen-only and --no-keygen measure nothing together")
    tms = os.path.abspath(a.bin)
    scheme = ["--scheme", a.scheme]
    with tempfile.TemporaryDirectory() as tmp:
        d = tmp
        if a.workdir:
            d = os.path.abspath(a.workdir)
            os.makedirs(d, exist_ok=True)
        k = prepare(tms, a, scheme, d)
        if k is None:
            return
        shape = key_shape(a, d)
        if a.no_keygen and not os.path.exists(os.path.join(d, "a.pk")):
            sys.exit(f"--no-keygen: no key a.pk in {d}")
        keygen = OrderedDict()
        prove = OrderedDict()
        for threads in a.threads:
            if not a.no_keygen:
                keygen[threads] = phases(run(tms, ["keygen", *scheme, "--committee", "c.json",
                                                   *shape, "--params", f"p{k}.srs", "--pk",
                                                   "a.pk", "--vk", "a.vk"], d, threads,
                                             log=True))
            if a.keygen_only:
                continue
            threshold = [] if a.scheme == "mithril" else ["--threshold", str(a.t)]
            prove[threads] = phases(run(tms, ["prove", *scheme, "--committee", "c.json",
                                              "--certificate", "cert.json", *threshold,
                                              "--params", f"p{k}.srs", "--pk", "a.pk",
                                              "--proof", "a.proof", "--public", "a.json"],
                                        d, threads, log=True))
        if a.scheme == "schnorr-atms":
            what = f"Schnorr ATMS, flat, {a.t}-of-{a.n}"
        elif a.scheme == "bls-atms":
            what = f"BLS ATMS, {shape[-1]} non-signer slots, {a.t}-of-{a.n}"
        else:
            what = (f"SNARK-Mithril, mainnet parameters, {a.n} parties (Zipf), "
                    f"{shape[-1]} signer slots")
        print(f"{what}, k = {k} ({tms}, {os.cpu_count()} CPUs seen)")
        if keygen:
            table("keygen", keygen, "keygen (total)")
        if prove:
            table("prove", prove, "prove (total)")


if __name__ == "__main__":
    main()
