//! Circuit-field elements read as integers: two limbs (126 and 128 bits), canonical below r,
//! compared lexicographically, and the parity of the canonical integer (RFC 9380's `sgn0`).
//!
//! # Canonical limbs
//! [`split`] witnesses `x = hi 2^128 + lo` with `lo < 2^128` and `hi < 2^126` (range lookups).
//! That decomposition is exact as an integer `X < 2^254`, but `X = x mod r` has two solutions
//! for `x < 2^254 - r` (`x` and `x + r`). With `canonical` the integer is also constrained below
//! r, so the limbs are those of `x`'s canonical integer. [`split_integer`] takes the integer from
//! the caller instead (a cheating prover's `x + r` in negative tests).
//!
//! # Parity
//! [`sgn0`] is the low bit of the canonical `lo` (halo2-base's `get_last_bit`: `lo = bit + 2 half`
//! with `half < 2^127`). `r` is odd, so `x` and `x + r` have opposite parities: without the
//! canonical check a prover could flip the sign of any `x < 2^254 - r`.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::ff::{Field, PrimeField},
    utils::{biguint_to_fe, fe_to_biguint},
    AssignedValue, Context, QuantumCell,
    QuantumCell::Constant,
};
use num_bigint::BigUint;

use crate::Fr;

/// Width of the low limb.
pub const LO_BITS: usize = 128;
/// Width of the high limb (`254 - 128`).
pub const HI_BITS: usize = 126;

/// r, the BN254 scalar field's modulus (the circuit field).
pub fn fr_modulus() -> BigUint {
    BigUint::from_bytes_le((-Fr::ONE).to_repr().as_ref()) + 1u8
}

/// RFC 9380's `sgn0` on the circuit field: the parity of the canonical integer.
pub fn sgn0_native(x: &Fr) -> bool {
    x.to_repr()[0] & 1 == 1
}

/// `(hi, lo)` limbs of `x` with `lo < 2^128`, `hi < 2^126` and `x = hi 2^128 + lo` in the field;
/// with `canonical`, the integer is also constrained below r.
pub fn split(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    x: AssignedValue<Fr>,
    canonical: bool,
) -> (AssignedValue<Fr>, AssignedValue<Fr>) {
    split_integer(ctx, range, x, &fe_to_biguint(x.value()), canonical)
}

/// [`split`] with the integer witnessed by the caller instead of `x`'s canonical one. Only a
/// cheating prover passes anything else; the constraints are the same.
pub fn split_integer(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    x: AssignedValue<Fr>,
    integer: &BigUint,
    canonical: bool,
) -> (AssignedValue<Fr>, AssignedValue<Fr>) {
    let gate = range.gate();
    let lo = ctx.load_witness(biguint_to_fe(&(integer % (BigUint::from(1u8) << LO_BITS))));
    let hi = ctx.load_witness(biguint_to_fe(&(integer >> LO_BITS)));
    range.range_check(ctx, lo, LO_BITS);
    range.range_check(ctx, hi, HI_BITS);
    let two_128 = Fr::from(2u64).pow_vartime([LO_BITS as u64]);
    let recomposed = gate.mul_add(ctx, hi, Constant(two_128), lo);
    ctx.constrain_equal(&recomposed, &x);
    if canonical {
        let r = fr_modulus();
        let r_lo: Fr = biguint_to_fe(&(&r % (BigUint::from(1u8) << LO_BITS)));
        let r_hi: Fr = biguint_to_fe(&(&r >> LO_BITS));
        let below = less_than(ctx, range, (hi, lo), (Constant(r_hi), Constant(r_lo)));
        gate.assert_is_const(ctx, &below, &Fr::ONE);
    }
    (hi, lo)
}

/// `(a_hi, a_lo) < (b_hi, b_lo)` lexicographically (limbs of 126 and 128 bits), as a bit.
pub fn less_than(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    a: (AssignedValue<Fr>, AssignedValue<Fr>),
    b: (
        impl Into<QuantumCell<Fr>> + Copy,
        impl Into<QuantumCell<Fr>> + Copy,
    ),
) -> AssignedValue<Fr> {
    let gate = range.gate();
    let hi_lt = range.is_less_than(ctx, a.0, b.0, HI_BITS);
    let hi_eq = gate.is_equal(ctx, a.0, b.0);
    let lo_lt = range.is_less_than(ctx, a.1, b.1, LO_BITS);
    gate.mul_add(ctx, hi_eq, lo_lt, hi_lt)
}

/// `sgn0(x)`, the parity of `x`'s canonical integer, as a constrained bit.
pub fn sgn0(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    x: AssignedValue<Fr>,
) -> AssignedValue<Fr> {
    sgn0_integer(ctx, range, x, &fe_to_biguint(x.value()))
}

/// [`sgn0`] with the integer witnessed by the caller (see [`split_integer`]).
pub fn sgn0_integer(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    x: AssignedValue<Fr>,
    integer: &BigUint,
) -> AssignedValue<Fr> {
    let (_, lo) = split_integer(ctx, range, x, integer, true);
    range.get_last_bit(ctx, lo, LO_BITS)
}
