#!/usr/bin/env python3
"""Independent RFC 9380 Shallue-van de Woestijne map to Grumpkin, standard library only.

Grumpkin is y^2 = x^3 - 17 over the BN254 scalar field r (A = 0, B = -17). Written from the RFC's
text, not from the Rust code: Z from the procedure of Appendix H.1 (find_z_svdw), the constants
c1..c4 of Section 6.6.1 (sgn0(c3) = 0), the straight-line map of Appendix F.1, sgn0 of Section
4.1 (the parity of the canonical integer), inv0 (0 -> 0), is_square by Euler's criterion and a
Tonelli-Shanks square root. It prints the constants and known-answer vectors as JSON, including
the RFC's exceptional inputs (tv1 * tv2 = 0, where inv0 returns 0). Regenerate with:

    python3 tests/vectors/grumpkin_svdw_reference.py > tests/vectors/grumpkin_svdw.json
"""
import hashlib
import json

P = 21888242871839275222246405745257275088548364400416034343698204186575808495617
A = 0
B = P - 17


def inv0(x):
    return pow(x, P - 2, P)  # 0 -> 0 (0^(P-2) = 0), the RFC's inv0


def is_square(x):
    # RFC 9380 Section 4: true for 0 and for the non-zero squares.
    return pow(x, (P - 1) // 2, P) in (0, 1)


def sgn0(x):
    return x % 2


def sqrt(x):
    """A square root of the square x (Tonelli-Shanks); which of the two is irrelevant here."""
    assert is_square(x)
    if x == 0:
        return 0
    q, s = P - 1, 0
    while q % 2 == 0:
        q, s = q // 2, s + 1
    z = 2
    while is_square(z):
        z += 1
    m, c, t, root = s, pow(z, q, P), pow(x, q, P), pow(x, (q + 1) // 2, P)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2, i = t2 * t2 % P, i + 1
        b = pow(c, 1 << (m - i - 1), P)
        m, c, t, root = i, b * b % P, t * b * b % P, root * b % P
    assert root * root % P == x
    return root


def g(x):
    return (x * x * x + A * x + B) % P


def find_z_svdw():
    """RFC 9380 Appendix H.1, init_ctr = 1."""
    h = lambda z: (-(3 * z * z + 4 * A) * inv0(4 * g(z))) % P
    ctr = 1
    while True:
        for z in (ctr % P, (-ctr) % P):
            if g(z) == 0:
                continue
            if h(z) == 0:
                continue
            if not is_square(h(z)):
                continue
            if is_square(g(z)) or is_square(g(-z * inv0(2) % P)):
                return z
        ctr += 1


Z = find_z_svdw()
C1 = g(Z)
C2 = (-Z * inv0(2)) % P
_c3 = sqrt((-g(Z) * (3 * Z * Z + 4 * A)) % P)
C3 = _c3 if sgn0(_c3) == 0 else (P - _c3) % P
C4 = (-4 * g(Z) * inv0(3 * Z * Z + 4 * A)) % P


def map_to_curve_svdw(u):
    """RFC 9380 Appendix F.1, step by step; also returns which candidate was taken (1, 2, 3)."""
    tv1 = u * u % P
    tv1 = tv1 * C1 % P
    tv2 = (1 + tv1) % P
    tv1 = (1 - tv1) % P
    tv3 = tv1 * tv2 % P
    tv3 = inv0(tv3)
    tv4 = u * tv1 % P
    tv4 = tv4 * tv3 % P
    tv4 = tv4 * C3 % P
    x1 = (C2 - tv4) % P
    gx1 = g(x1)
    e1 = is_square(gx1)
    x2 = (C2 + tv4) % P
    gx2 = g(x2)
    e2 = is_square(gx2) and not e1
    x3 = tv2 * tv2 % P
    x3 = x3 * tv3 % P
    x3 = x3 * x3 % P
    x3 = x3 * C4 % P
    x3 = (x3 + Z) % P
    x, case = (x1, 1) if e1 else (x3, 3)
    if e2:
        x, case = x2, 2
    gx = g(x)
    y = sqrt(gx)
    if sgn0(u) != sgn0(y):
        y = (P - y) % P
    assert y * y % P == g(x), "not on the curve"
    return x, y, case, tv3 == 0


def inputs():
    """0, 1, r - 1, small values, the exceptional inputs, pseudo-random values (SHA-256)."""
    us = [0, 1, P - 1, 2, 3, P - 2, 17, 1 << 128, (1 << 253) % P]
    # Exceptional: tv1 * tv2 = 1 - (C1 u^2)^2 = 0, i.e. u^2 = 1 / C1 or u^2 = -1 / C1.
    for t in (inv0(C1), (-inv0(C1)) % P):
        if is_square(t):
            root = sqrt(t)
            us += [min(root, P - root), max(root, P - root)]
    for i in range(24):
        digest = hashlib.sha256(b"tms-grumpkin-svdw-vector-%d" % i).digest()
        us.append(int.from_bytes(digest, "big") % P)
    return us


def main():
    vectors = []
    for u in inputs():
        x, y, case, exceptional = map_to_curve_svdw(u)
        vectors.append({"u": str(u), "x": str(x), "y": str(y), "candidate": case,
                        "exceptional": exceptional})
    out = {
        "curve": "Grumpkin y^2 = x^3 - 17 over BN254 Fr",
        "p": str(P),
        "A": str(A),
        "B": str(B),
        "Z": str(Z),
        "c1": str(C1),
        "c2": str(C2),
        "c3": str(C3),
        "c4": str(C4),
        "vectors": vectors,
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
