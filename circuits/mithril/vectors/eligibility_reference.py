#!/usr/bin/env python3
"""Independent check of the Mithril eligibility decisions committed in eligibility.json.

Standard library only. For every case (stake, total, phi_f = phi_num / phi_den) it evaluates
x = phi(w) * r, phi(w) = 1 - (1 - phi_f)^w, w = stake / total, r the BN254 scalar field modulus:

- exactly with fractions.Fraction where phi(w) is rational (w = 0: x = 0; w = 1: x = phi_f r);
- otherwise with decimal at PREC significant digits: x = r * (1 - exp(w * ln(1 - phi_f))).
  decimal's exp and ln are correctly rounded, so each step errs by at most one unit in the last
  place; x < 2^254 < 10^77, and the composed error stays below 10^-(PREC - 85). BAND = 10^-60 is a
  generous bound on |computed x - true x|.

It then checks, outside the band:
- the committed target T is ceil(x), i.e. T - 1 < x < T (the Rust side claims exactness);
- every committed decision equals the real rule ev < x, and equals ev < T.
A pair with |ev - x| <= BAND (or a target with x within BAND of an integer) is counted as "in the
band" and not judged. Exit status 1 on any disagreement outside the band.
"""

import json
import os
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

PREC = 160
BAND = Decimal(10) ** -60
getcontext().prec = PREC

HERE = os.path.dirname(os.path.abspath(__file__))
R = 21888242871839275222246405745257275088548364400416034343698204186575808495617


def phi_r(stake, total, num, den):
    """(value, exact): phi(stake/total) * r as a Fraction (exact) or a Decimal."""
    if stake == 0:
        return Fraction(0), True
    if stake == total:
        return Fraction(num, den) * R, True
    w = Decimal(stake) / Decimal(total)
    ln_keep = (Decimal(den - num) / Decimal(den)).ln()
    return Decimal(R) * (1 - (w * ln_keep).exp()), False


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "eligibility.json")
    with open(path) as f:
        vectors = json.load(f)
    if int(vectors["modulus"]) != R:
        print("modulus differs from the BN254 scalar field modulus")
        return 1
    pairs = disagreements = in_band = target_band = 0
    boundary = 0
    for case in vectors["cases"]:
        stake, total = case["stake"], case["total"]
        num, den = case["phi_num"], case["phi_den"]
        t = int(case["target"])
        x, exact = phi_r(stake, total, num, den)
        # Target: T = ceil(x).
        if exact:
            ok_t = t == -((-x.numerator) // x.denominator)
        else:
            nearest = x.to_integral_value()
            if abs(x - nearest) <= BAND:
                target_band += 1
                ok_t = True
            else:
                ok_t = Decimal(t - 1) < x < Decimal(t)
        if not ok_t:
            disagreements += 1
            print(f"target disagrees: stake={stake} total={total} phi_f={num}/{den} T={t} x={x}")
        for ev_s, win in zip(case["ev"], case["win"], strict=True):
            ev = int(ev_s)
            pairs += 1
            if abs(ev - t) <= 2:
                boundary += 1
            if win != (ev < t):
                disagreements += 1
                print(f"decision is not ev < T: ev={ev} T={t}")
            if exact:
                real = ev < x
            else:
                if abs(Decimal(ev) - x) <= BAND:
                    in_band += 1
                    continue
                real = Decimal(ev) < x
            if real != win:
                disagreements += 1
                print(f"decision disagrees: stake={stake} total={total} phi_f={num}/{den} ev={ev} committed={win} reference={real}")
    print(
        f"eligibility: {len(vectors['cases'])} cases, {pairs} pairs ({boundary} within 2 of T), "
        f"{in_band} pairs and {target_band} targets in the 1e-60 band, {disagreements} disagreements"
    )
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
