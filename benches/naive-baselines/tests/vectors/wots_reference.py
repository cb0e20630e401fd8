#!/usr/bin/env python3
"""Independent reference for the WOTS+ and Merkle-WOTS+ byte layout of naive-baselines.

Written from the module documentation (src/wots.rs, src/merkle_wots.rs) with the standard
library only; prints the known-answer values that tests/wots.rs checks.
"""
import hashlib

N, W, LEN1, LEN2 = 32, 16, 64, 3
LEN = LEN1 + LEN2
CHAIN, PK, TREE, PRF = 0, 1, 2, 3


def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def adrs(kind, key_pair, chain=0, step=0):
    words = b"".join(x.to_bytes(4, "big") for x in (kind, key_pair, chain, step))
    return words + bytes(16)


def digits(digest):
    d = []
    for b in digest:
        d += [b >> 4, b & 15]
    csum = sum(W - 1 - x for x in d)
    return d + [(csum >> 8) & 15, (csum >> 4) & 15, csum & 15]


def chain(x, start, steps, pk_seed, kp, i):
    for j in range(start, start + steps):
        x = sha(pk_seed, adrs(CHAIN, kp, i, j), x)
    return x


def start(sk_seed, pk_seed, kp, i):
    return sha(sk_seed, pk_seed, adrs(PRF, kp, i))


def wots_pk(sk_seed, pk_seed, kp):
    ends = [chain(start(sk_seed, pk_seed, kp, i), 0, W - 1, pk_seed, kp, i) for i in range(LEN)]
    return sha(pk_seed, adrs(PK, kp), *ends)


def wots_sign(sk_seed, pk_seed, kp, digest):
    d = digits(digest)
    return b"".join(chain(start(sk_seed, pk_seed, kp, i), 0, d[i], pk_seed, kp, i) for i in range(LEN))


def merkle_root(sk_seed, pk_seed, height):
    level = [wots_pk(sk_seed, pk_seed, kp) for kp in range(1 << height)]
    for z in range(1, height + 1):
        level = [sha(pk_seed, adrs(TREE, z, j), level[2 * j], level[2 * j + 1]) for j in range(len(level) // 2)]
    return level[0]


sk_seed = bytes(range(32))
pk_seed = bytes(range(32, 64))
digest = sha(b"abc")
print("wots public key hash:", wots_pk(sk_seed, pk_seed, 0).hex())
print("sha256(wots signature of sha256('abc')):", sha(wots_sign(sk_seed, pk_seed, 0, digest)).hex())
print("merkle root, height 2:", merkle_root(sk_seed, pk_seed, 2).hex())
