//! Batch verification of Schnorr signatures: one multi-scalar multiplication with random
//! coefficients derived inside the circuit (Fiat-Shamir), instead of a ladder per signature.
//!
//! For slots `i` with `enabled_i` in {0, 1}, signatures `(R_i, s_i)` on keys `pk_i` and
//! challenges `c_i = H(R_i, pk_i, m)` (computed by the caller), the circuit checks
//! ```text
//! seed  = H_leaf(c_0, s_lo_0, s_hi_0, c_1, ...)      s_lo = s[0] + 2^88 s[1], s_hi = s[2] + 2^88 enabled
//! rho_i = enabled_i * low128(H_node(seed, i))        (canonical split, see below)
//! S     = sum rho_i s_i mod q,   e_i = rho_i c_i mod q   (halo2-ecc FpChip over BN254 Fq = Grumpkin's scalars)
//! S G + sum e_i (-pk_i) + sum rho_i (-R_i) = O
//! ```
//! where `s[j]` are the 88-bit limbs of `s_i`. The MSM runs on the pair gate of [`crate::curve::msm`]:
//! the 254-bit terms `(G, S)` and `(P_i, e_i)` two per chain, with `P_i = -pk_i` for an enabled
//! slot and the constant [`disabled_key`] for a disabled one (see below), the 128-bit terms
//! `(-R_i, rho_i)` two per chain of 128 rows; the chain results (each shifted by `2^L O`) are added to a start
//! point `T` ([`sum_start`]) with incomplete additions that constrain distinct `x`, and the sum
//! must equal the constant `T + sum 2^L O`. (Without `T`, two chains of disabled slots, both
//! ending at `2^L O`, would meet at an equal `x`.) An odd number of terms of one length is
//! padded with a zero term ([`zero_filler`]) whose limbs, like every limb, are at most 253 bits
//! wide, so its bits are those of 0 and not of r.
//!
//! # Soundness
//! A satisfied circuit gives `sum_i rho_i D_i = O` with `D_i = s_i G - c_i pk_i - R_i` (the
//! scalars are exact: `S` and `e_i` are reduced modulo `q` by FpChip's CRT arithmetic, `c_i` is
//! loaded as its canonical integer below `r`, `rho_i` as its 128-bit integer, and the chain's
//! limb checkpoints tie the bits to those integers). If some enabled signature is invalid
//! (`D_j != O`), then for any fixed values of the other terms at most one value of `rho_j`
//! modulo the prime `q` satisfies the equation; `rho_j` takes 2^128 distinct values below `q`.
//! The seed absorbs everything the prover chose: `c_i` binds `R_i`, `pk_i` and `m`, and the
//! packed limbs bind `s_i` and `enabled_i` (each limb is range checked, so the packing is
//! injective). Modelling the hash as a random oracle, a prover that queries it `Q` times makes an
//! invalid certificate pass with probability at most `Q / 2^128`. The split
//! `h = lo + 2^128 hi` is canonical (`hi < floor(r / 2^128)`), so `rho_i` is a function of the
//! hash and not a choice of the prover; an honest `h` fails that bound with probability about
//! `2^-125` (the prover then cannot prove that certificate).
//!
//! Not constrained: `s_i` of a disabled slot (its coefficient is zero).
//!
//! # Disabled slots cannot block a batch
//! A chain whose two scalars are zero (two disabled slots, or one and the filler) walks the
//! fixed accumulators `2^i O`, and the pair gate's additions hold on every row whatever the
//! bits: a point `+-[2^j] O` meets the doubling of row `j - 1` at an equal x, where no slope
//! exists. Anyone can compute the key `[2^j] O`, and a committee may hold it, so a disabled
//! slot's term takes [`disabled_key`] (a hash to curve of its own tag, with no known discrete
//! logarithm to `O`) instead of `-pk_i`; its scalar is zero, so the sum is unchanged. An
//! enabled slot's key verifies a signature: its signer knows its discrete logarithm to `G`.
//! `R_i` of a disabled slot is the prover's own choice (the circuits put `G`).

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{
        bn256::Fq,
        ff::{Field, PrimeField},
        group::{Curve, Group},
        CurveExt,
    },
    utils::{biguint_to_fe, fe_to_biguint},
    AssignedValue, Context,
    QuantumCell::Constant,
};
use halo2_ecc::{
    bigint::{big_less_than, ProperCrtUint},
    fields::{fp::FpChip, FieldChip},
};
use num_bigint::BigUint;

use crate::{
    bank::CustomRegion,
    curve::{
        disabled_key, fr_modulus,
        msm::{MsmPairChip, MsmTerm, MAX_LIMB_BITS},
        offset_point, AssignedPoint, Grumpkin, GrumpkinAffine, GrumpkinChip, GrumpkinScalar,
    },
    hash::{HashInstructions, NativeHash},
    Fr,
};

/// Bits per limb of the non-native (Grumpkin scalar) arithmetic.
pub const LIMB_BITS: usize = 88;
/// Limbs per non-native integer.
pub const NUM_LIMBS: usize = 3;
/// Bits of a random coefficient.
pub const COEFFICIENT_BITS: usize = 128;
/// Widths of a 254-bit scalar's limbs, most significant first.
const SCALAR_WIDTHS: [usize; 3] = [78, 88, 88];

/// One signature slot of a batch.
#[derive(Clone, Debug)]
pub struct BatchItem {
    /// The key (on the curve).
    pub pk: AssignedPoint,
    /// The signature's `R` (on the curve).
    pub r: AssignedPoint,
    /// The challenge `H(R, pk, m)`, computed by the caller.
    pub c: AssignedValue<Fr>,
    /// The signature's `s` (a witness; only `s G` matters).
    pub s: GrumpkinScalar,
    /// 1 if the slot's signature counts, 0 if not (constrained boolean by the caller).
    pub enabled: AssignedValue<Fr>,
}

/// What a batch check needs natively for one slot.
#[derive(Clone, Copy, Debug)]
pub struct NativeBatchItem {
    /// The key.
    pub pk: GrumpkinAffine,
    /// The signature's `R`.
    pub r: GrumpkinAffine,
    /// The challenge `H(R, pk, m)`.
    pub c: Fr,
    /// The signature's `s`.
    pub s: GrumpkinScalar,
    /// Whether the slot counts.
    pub enabled: bool,
}

fn limbs_of(s: &GrumpkinScalar) -> [Fr; NUM_LIMBS] {
    let big = BigUint::from_bytes_le(s.to_repr().as_ref());
    let mask = (BigUint::from(1u8) << LIMB_BITS) - 1u8;
    std::array::from_fn(|j| biguint_to_fe(&((&big >> (j * LIMB_BITS)) & &mask)))
}

fn two_pow(bits: usize) -> Fr {
    Fr::from(2).pow_vartime([bits as u64])
}

/// `floor(r / 2^128)`: the canonical split's bound on the high part.
fn high_bound() -> Fr {
    biguint_to_fe(&(fr_modulus() >> COEFFICIENT_BITS as u32))
}

/// The native coefficients `rho_i` (zero for disabled slots), or `None` if the canonical split
/// of some hash fails (probability about 2^-125 per slot; the circuit cannot prove it).
pub fn coefficients<H: NativeHash>(hash: &H, items: &[NativeBatchItem]) -> Option<Vec<Fr>> {
    let absorbed: Vec<Fr> = items
        .iter()
        .flat_map(|it| {
            let l = limbs_of(&it.s);
            let enabled = Fr::from(it.enabled as u64);
            [
                it.c,
                l[0] + two_pow(LIMB_BITS) * l[1],
                l[2] + two_pow(LIMB_BITS) * enabled,
            ]
        })
        .collect();
    let seed = hash.hash_leaf(&absorbed).ok()?;
    items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let h = fe_to_biguint(&hash.hash_node(seed, Fr::from(i as u64)));
            let hi: Fr = biguint_to_fe(&(&h >> COEFFICIENT_BITS as u32));
            if fe_to_biguint(&hi) >= fe_to_biguint(&high_bound()) {
                return None;
            }
            let lo: Fr = biguint_to_fe(&(h & ((BigUint::from(1u8) << COEFFICIENT_BITS) - 1u8)));
            Some(if it.enabled { lo } else { Fr::ZERO })
        })
        .collect()
}

/// The native twin: whether `sum rho_i (s_i G - c_i pk_i - R_i) = O` with the coefficients of
/// [`coefficients`] (false if those do not exist).
pub fn verify_native<H: NativeHash>(hash: &H, items: &[NativeBatchItem]) -> bool {
    let Some(rhos) = coefficients(hash, items) else {
        return false;
    };
    let to_scalar = |x: Fr| {
        GrumpkinScalar::from_repr(x.to_repr()).expect("r < q: a circuit-field element is a scalar")
    };
    let mut sum = <Grumpkin as Group>::identity();
    for (it, rho) in items.iter().zip(rhos) {
        let rho = to_scalar(rho);
        let d = GrumpkinAffine::generator() * it.s - it.pk * to_scalar(it.c) - it.r;
        sum += d * rho;
    }
    bool::from(sum.is_identity())
}

/// Batch verification on the pair-MSM gate and halo2-ecc's FpChip.
#[derive(Clone, Debug)]
pub struct SchnorrBatchChip<'r, H: HashInstructions> {
    range: &'r RangeChip<Fr>,
    region: CustomRegion,
    hasher: H,
}

impl<'r, H: HashInstructions> SchnorrBatchChip<'r, H> {
    /// A chip hashing with `hasher` and appending MSM chains to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion, hasher: H) -> Self {
        Self {
            range,
            region,
            hasher,
        }
    }

    /// Constrains every enabled slot's signature valid (with soundness error `Q / 2^128`, see the
    /// module docs) and returns the coefficients `rho_i`.
    pub fn verify(&self, ctx: &mut Context<Fr>, items: &[BatchItem]) -> Vec<AssignedValue<Fr>> {
        assert!(!items.is_empty(), "a batch has at least one slot");
        let range = self.range;
        let gate = range.gate();
        let fp = FpChip::<Fr, Fq>::new(range, LIMB_BITS, NUM_LIMBS);
        let to_fq = |x: &GrumpkinScalar| Fq::from_repr(x.to_repr()).expect("same field");

        // The seed absorbs (c, packed s limbs and enabled) of every slot.
        let s_crt: Vec<ProperCrtUint<Fr>> = items
            .iter()
            .map(|it| fp.load_private(ctx, to_fq(&it.s)))
            .collect();
        let mut absorbed = Vec::with_capacity(3 * items.len());
        for (it, s) in items.iter().zip(&s_crt) {
            let l = s.limbs();
            let lo = gate.mul_add(ctx, l[1], Constant(two_pow(LIMB_BITS)), l[0]);
            let hi = gate.mul_add(ctx, it.enabled, Constant(two_pow(LIMB_BITS)), l[2]);
            absorbed.extend([it.c, lo, hi]);
        }
        let seed = self.hasher.hash_leaf(ctx, &absorbed);

        let r_crt = fp.load_constant_uint(ctx, fr_modulus());
        let mut rhos = Vec::with_capacity(items.len());
        let mut long_terms = Vec::with_capacity(items.len() + 1);
        let mut short_terms = Vec::with_capacity(items.len());
        let mut weighted_s = Vec::with_capacity(items.len());
        let ecc = GrumpkinChip::new(range);
        let fallback = ecc.load_constant(ctx, disabled_key());
        for (i, (it, s)) in items.iter().zip(&s_crt).enumerate() {
            let index = ctx.load_constant(Fr::from(i as u64));
            let h = self.hasher.hash_node(ctx, seed, index);
            let lo = self.low_bits(ctx, h);
            let rho = gate.mul(ctx, lo, it.enabled);
            rhos.push(rho);

            // rho and c as exact integers in FpChip's limbs.
            let rho_crt = fp.load_private(ctx, Fq::from_repr(rho.value().to_repr()).unwrap());
            ctx.constrain_equal(rho_crt.native(), &rho);
            gate.assert_is_const(ctx, &rho_crt.limbs()[2], &Fr::ZERO);
            range.range_check(ctx, rho_crt.limbs()[1], COEFFICIENT_BITS - LIMB_BITS);
            let c_crt = fp.load_private(ctx, Fq::from_repr(it.c.value().to_repr()).unwrap());
            ctx.constrain_equal(c_crt.native(), &it.c);
            let below_r = big_less_than::assign(
                range,
                ctx,
                c_crt.clone(),
                r_crt.clone(),
                LIMB_BITS,
                two_pow(LIMB_BITS),
            );
            gate.assert_is_const(ctx, &below_r, &Fr::ONE);

            let e = fp.mul(ctx, rho_crt.clone(), c_crt);
            weighted_s.push(fp.mul_no_carry(ctx, rho_crt, s.clone()));
            // A disabled slot's key, anyone's choice, never enters a chain (module docs).
            let minus_pk = ecc.negate(ctx, &it.pk);
            long_terms.push(MsmTerm {
                point: ecc.select(ctx, &minus_pk, &fallback, it.enabled),
                limbs: msb_limbs(&e),
            });
            short_terms.push(MsmTerm {
                point: ecc.negate(ctx, &it.r),
                limbs: vec![(rho, COEFFICIENT_BITS)],
            });
        }
        let mut sum = weighted_s[0].clone();
        for w in &weighted_s[1..] {
            sum = fp.add_no_carry(ctx, sum, w.clone());
        }
        let big_s = fp.carry_mod(ctx, sum);
        let g = ecc.load_constant(ctx, GrumpkinAffine::generator());
        long_terms.insert(
            0,
            MsmTerm {
                point: g,
                limbs: msb_limbs(&big_s),
            },
        );

        let msm = MsmPairChip::new(range, self.region.clone());
        let zero = ctx.load_zero();
        let mut outputs = Vec::new();
        let mut offset = <Grumpkin as Group>::identity();
        for (terms, bits) in [(long_terms, 254), (short_terms, COEFFICIENT_BITS)] {
            for pair in terms.chunks(2) {
                let filler = zero_filler(g, zero, bits);
                let q = pair.get(1).unwrap_or(&filler);
                let (out, _) = msm.mul_add_pair(ctx, &pair[0], q);
                outputs.push(out);
                offset += offset_point() * GrumpkinScalar::from(2).pow_vartime([bits as u64]);
            }
        }
        // The sum starts at an independent constant point: chains of disabled slots all end at
        // the same 2^L O, which must never meet the running sum at an equal x.
        let start = sum_start();
        let mut total = ecc.load_constant(ctx, start);
        for out in &outputs {
            total = ecc.add_unequal(ctx, &total, out);
        }
        let expected = ecc.load_constant(ctx, (offset + start).to_affine());
        ecc.assert_equal(ctx, &total, &expected);
        rhos
    }

    /// The low 128 bits of `h`, split canonically (`h = lo + 2^128 hi`, `hi < floor(r/2^128)`).
    fn low_bits(&self, ctx: &mut Context<Fr>, h: AssignedValue<Fr>) -> AssignedValue<Fr> {
        let range = self.range;
        let big = fe_to_biguint(h.value());
        let lo_v: Fr = biguint_to_fe(&(&big & ((BigUint::from(1u8) << COEFFICIENT_BITS) - 1u8)));
        let hi_v: Fr = biguint_to_fe(&(&big >> COEFFICIENT_BITS as u32));
        let [lo, hi] = [lo_v, hi_v].map(|v| ctx.load_witness(v));
        range.range_check(ctx, lo, COEFFICIENT_BITS);
        let hi_bits = 254 - COEFFICIENT_BITS;
        range.range_check(ctx, hi, hi_bits);
        range.check_less_than(ctx, hi, Constant(high_bound()), hi_bits);
        let back = range
            .gate()
            .mul_add(ctx, hi, Constant(two_pow(COEFFICIENT_BITS)), lo);
        ctx.constrain_equal(&back, &h);
        lo
    }
}

/// Where the sum of the chain results starts: a hash to curve of its own tag, so that nobody knows
/// its discrete logarithm to `O`, `G` or any key and honest additions never meet an equal `x`.
pub fn sum_start() -> GrumpkinAffine {
    Grumpkin::hash_to_curve("tms-grumpkin-batch-sum")(b"start").to_affine()
}

/// The term `0 * point` that pads a chain of `bits` bits (254 or [`COEFFICIENT_BITS`]) whose
/// terms come in an odd number, `zero` a cell holding 0 (constrained by the caller). The zero is
/// split into limbs of at most [`MAX_LIMB_BITS`] bits, 78/88/88 for 254 bits as every other
/// 254-bit term: as one 254-bit limb it would also admit the bits of r (`r = 0` modulo r, and
/// `r < 2^254`), and the chain would add `[r] point`, not `O`.
pub fn zero_filler(point: AssignedPoint, zero: AssignedValue<Fr>, bits: usize) -> MsmTerm {
    let limbs = if bits <= MAX_LIMB_BITS {
        vec![(zero, bits)]
    } else {
        assert_eq!(bits, 254, "a chain has at most 254 bits");
        SCALAR_WIDTHS.iter().map(|w| (zero, *w)).collect()
    };
    MsmTerm { point, limbs }
}

/// FpChip's limbs (little-endian, the last below 2^78 after `carry_mod`) as MSM limbs, most
/// significant first.
fn msb_limbs(x: &ProperCrtUint<Fr>) -> Vec<(AssignedValue<Fr>, usize)> {
    x.limbs()
        .iter()
        .rev()
        .zip(SCALAR_WIDTHS)
        .map(|(l, w)| (*l, w))
        .collect()
}
