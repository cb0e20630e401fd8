/*
 * blst alone, for comparing compiler flags (blst-flags.sh builds it with blst's server.c;
 * blst-bench.mjs times it): the operations a Cardano certificate verification spends its time
 * in, on fixed inputs. Freestanding: no libc.
 */
#include "blst.h"

#define POINTS 64

static byte scalars[POINTS * 32];
static blst_p1_affine points[POINTS];
static const blst_p1_affine *point_ptrs[POINTS];
static const byte *scalar_ptrs[POINTS];
static unsigned char scratch[1 << 16];

static void zero(void *to, unsigned long n)
{
    unsigned char *p = to;
    while (n--)
        *p++ = 0;
}

/* Fills the points (multiples of the generator) and scalars; returns the MSM's scratch size. */
__attribute__((export_name("setup"))) int setup(void)
{
    blst_p1 p;
    byte s[32];
    for (int i = 0; i < POINTS; i++) {
        zero(s, sizeof s);
        s[0] = (byte)(i + 3);
        s[31] = 0x1f;
        blst_p1_mult(&p, blst_p1_generator(), s, 255);
        blst_p1_to_affine(&points[i], &p);
        point_ptrs[i] = &points[i];
        for (int j = 0; j < 32; j++)
            scalars[i * 32 + j] = (byte)(i * 31 + j * 7 + 1);
        scalars[i * 32 + 31] &= 0x3f;
        scalar_ptrs[i] = &scalars[i * 32];
    }
    return (int)blst_p1s_mult_pippenger_scratch_sizeof(POINTS);
}

/* n multiplications in the scalar field (blst_fr_mul: mul_mont_sparse_256). */
__attribute__((export_name("fr"))) int fr(int n)
{
    blst_fr a, b;
    zero(&a, sizeof a);
    zero(&b, sizeof b);
    a.l[0] = 7;
    b.l[0] = 11;
    for (int i = 0; i < n; i++)
        blst_fr_mul(&a, &a, &b);
    return (int)a.l[0];
}

/* n two-term pairings: a Miller loop of two pairs and a final exponentiation. */
__attribute__((export_name("pairing"))) int pairing(int n)
{
    blst_fp12 f, g;
    blst_p2_affine q;
    blst_p2_to_affine(&q, blst_p2_generator());
    const blst_p2_affine *qs[2] = {&q, &q};
    const blst_p1_affine *ps[2] = {&points[0], &points[1]};
    for (int i = 0; i < n; i++) {
        blst_miller_loop_n(&f, qs, ps, 2);
        blst_final_exp(&g, &f);
    }
    return (int)g.fp6[0].fp2[0].fp[0].l[0];
}

/* n G1 decompressions, each with its subgroup check (as a proof's points are read). */
__attribute__((export_name("decomp"))) int decomp(int n)
{
    byte c[48];
    blst_p1_affine a;
    int ok = 0;
    for (int i = 0; i < n; i++) {
        blst_p1_affine_compress(c, &points[i % POINTS]);
        ok += blst_p1_uncompress(&a, c) == BLST_SUCCESS;
        ok += blst_p1_affine_in_g1(&a);
    }
    return ok;
}

/* n 64-point MSMs (Pippenger, 255-bit scalars). */
__attribute__((export_name("msm"))) int msm(int n)
{
    blst_p1 r;
    for (int i = 0; i < n; i++)
        blst_p1s_mult_pippenger(&r, point_ptrs, POINTS, scalar_ptrs, 255, (limb_t *)scratch);
    return (int)r.x.l[0];
}
