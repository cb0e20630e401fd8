#!/usr/bin/env python3
"""Independent Rescue-Prime (eprint 2020/1143, Rescue-XLIX) reference, standard library only.

Written straight from the paper's pseudocode (Algorithms 1-7 and its reference sponge), not from
the Rust code. It prints the parameters (alpha, alpha^-1, N, MDS, first round constants) and
known-answer vectors of the permutation and of the padded variable-length hash, over the BN254 and
BLS12-381 scalar fields, as JSON. Regenerate with:

    python3 tests/vectors/rescue_prime_reference.py > tests/vectors/rescue_prime.json
"""
import hashlib
import json
from math import ceil, comb, floor, gcd

FIELDS = {
    # name: (p, prime factorisation of p - 1 as {prime: exponent})
    "bn254_fr": (
        21888242871839275222246405745257275088548364400416034343698204186575808495617,
        {2: 28, 3: 2, 13: 1, 29: 1, 983: 1, 11003: 1, 237073: 1, 405928799: 1,
         1670836401704629: 1, 13818364434197438864469338081: 1},
    ),
    "bls12_381_fr": (
        0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        {2: 32, 3: 1, 11: 1, 19: 1, 10177: 1, 125527: 1, 859267: 1, 906349: 2,
         2508409: 1, 2529403: 1, 52437899: 1, 254760293: 2},
    ),
}
M, CAPACITY, SECURITY = 4, 1, 128
RATE = M - CAPACITY


def is_probable_prime(n):
    if n < 2:
        return False
    for sp in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % sp == 0:
            return n == sp
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def check_factorisation(p, factors):
    prod = 1
    for q, e in factors.items():
        assert is_probable_prime(q), q
        prod *= q ** e
    assert prod == p - 1, "factorisation of p - 1 is wrong"


def get_alphas(p):
    alpha = 3
    while gcd(alpha, p - 1) != 1:
        alpha += 1
    return alpha, pow(alpha, -1, p - 1)


def get_number_of_rounds(m, capacity, security_level, alpha):
    rate = m - capacity
    dcon = lambda n: floor(0.5 * (alpha - 1) * m * (n - 1) + 2)
    v = lambda n: m * (n - 1) + rate
    target = 2 ** security_level
    l1 = 1
    for l1 in range(1, 25):
        if comb(v(l1) + dcon(l1), v(l1)) ** 2 > target:
            break
    return ceil(1.5 * max(5, l1))


def get_round_constants(p, m, capacity, security_level, n):
    bytes_per_int = ceil(len(bin(p)[2:]) / 8) + 1
    num_bytes = bytes_per_int * 2 * m * n
    seed = "Rescue-XLIX(%i,%i,%i,%i)" % (p, m, capacity, security_level)
    stream = hashlib.shake_256(seed.encode("ascii")).digest(num_bytes)
    out = []
    for i in range(2 * m * n):
        chunk = stream[bytes_per_int * i: bytes_per_int * (i + 1)]
        out.append(sum(256 ** j * chunk[j] for j in range(len(chunk))) % p)
    return out


def smallest_primitive_element(p, factors):
    g = 2
    while any(pow(g, (p - 1) // q, p) == 1 for q in factors):
        g += 1
    return g


def get_mds_matrix(p, m, g):
    # Systematic generator matrix of the Reed-Solomon-like code: echelon form of the m x 2m
    # Vandermonde matrix; the MDS matrix is the transpose of its right half.
    v = [[pow(g, i * j, p) for j in range(2 * m)] for i in range(m)]
    for col in range(m):
        piv = next(r for r in range(col, m) if v[r][col] != 0)
        v[col], v[piv] = v[piv], v[col]
        inv = pow(v[col][col], -1, p)
        v[col] = [x * inv % p for x in v[col]]
        for r in range(m):
            if r != col and v[r][col] != 0:
                f = v[r][col]
                v[r] = [(a - f * b) % p for a, b in zip(v[r], v[col])]
    right = [row[m:] for row in v]
    return [[right[j][i] for j in range(m)] for i in range(m)]


def permutation(params, state):
    p, alpha, alphainv, n, mds, rc = (params[k] for k in ("p", "alpha", "alphainv", "N", "mds", "rc"))
    m = len(state)
    state = list(state)
    for i in range(n):
        state = [pow(x, alpha, p) for x in state]
        state = [sum(mds[r][c] * state[c] for c in range(m)) % p for r in range(m)]
        state = [(state[j] + rc[i * 2 * m + j]) % p for j in range(m)]
        state = [pow(x, alphainv, p) for x in state]
        state = [sum(mds[r][c] * state[c] for c in range(m)) % p for r in range(m)]
        state = [(state[j] + rc[i * 2 * m + m + j]) % p for j in range(m)]
    return state


def hash_varlen(params, inputs):
    p = params["p"]
    padded = list(inputs) + [1]
    while len(padded) % RATE != 0:
        padded.append(0)
    state = [0] * M
    while padded:
        for i in range(RATE):
            state[i] = (state[i] + padded[i]) % p
        state = permutation(params, state)
        padded = padded[RATE:]
    return state[:RATE]


def main():
    out = {"m": M, "capacity": CAPACITY, "rate": RATE, "security_level": SECURITY, "fields": {}}
    for name, (p, factors) in FIELDS.items():
        check_factorisation(p, factors)
        alpha, alphainv = get_alphas(p)
        n = get_number_of_rounds(M, CAPACITY, SECURITY, alpha)
        g = smallest_primitive_element(p, factors)
        mds = get_mds_matrix(p, M, g)
        rc = get_round_constants(p, M, CAPACITY, SECURITY, n)
        params = {"p": p, "alpha": alpha, "alphainv": alphainv, "N": n, "mds": mds, "rc": rc}
        perms = [[0, 0, 0, 0], [1, 2, 3, 4], [p - 1, p - 2, 7, 11]]
        hashes = [[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4, 5, 6, 7], [p - 1]]
        out["fields"][name] = {
            "p": str(p),
            "alpha": alpha,
            "alphainv": str(alphainv),
            "rounds": n,
            "primitive_element": g,
            "mds": [[str(x) for x in row] for row in mds],
            "round_constants_first8": [str(x) for x in rc[:8]],
            "round_constants_last": str(rc[-1]),
            "permutation": [
                {"input": [str(x) for x in s], "output": [str(x) for x in permutation(params, s)]}
                for s in perms
            ],
            "hash": [
                {"input": [str(x) for x in h], "output": [str(x) for x in hash_varlen(params, h)]}
                for h in hashes
            ],
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
