#!/usr/bin/env python3
"""Independent check of our BLS-on-BN254 vectors with py_ecc's bn128 (pip install py_ecc==8.0.0).

For each case in bls_bn254_pairing.json: the points are on their curves, H(m) and the signature
are in the order-r subgroup, and e(pk, H(m)) == e(g1, sigma). A tampered signature (sigma + H(m))
must fail. Exits non-zero on any mismatch.
"""
import json
import os
import sys

from py_ecc.bn128 import FQ, FQ2, G1, curve_order, is_on_curve, b, b2, multiply, add, pairing

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "bls_bn254_pairing.json")) as f:
    data = json.load(f)


def g1(p):
    return (FQ(int(p[0])), FQ(int(p[1])))


def g2(p):
    return (FQ2([int(p[0][0]), int(p[0][1])]), FQ2([int(p[1][0]), int(p[1][1])]))


ok = True
for case in data["cases"]:
    pk, h, sig = g1(case["pk"]), g2(case["h"]), g2(case["sig"])
    checks = {
        "pk on curve": is_on_curve(pk, b),
        "H(m) on twist": is_on_curve(h, b2),
        "sig on twist": is_on_curve(sig, b2),
        "H(m) in G2": multiply(h, curve_order) is None,
        "sig in G2": multiply(sig, curve_order) is None,
        "e(pk, H(m)) == e(g1, sig)": pairing(h, pk) == pairing(sig, G1),
        "tampered sig rejected": pairing(h, pk) != pairing(add(sig, h), G1),
    }
    for name, passed in checks.items():
        print(f"{'ok  ' if passed else 'FAIL'} {case['msg']}: {name}")
        ok &= passed
print(f"{sum(1 for _ in data['cases'])} cases: {'all passed' if ok else 'FAILURES'}")
sys.exit(0 if ok else 1)
