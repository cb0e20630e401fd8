//! The Grumpkin curve (`y^2 = x^3 - 17` over BN254 Fr, prime order q = BN254 Fq) in-circuit, where
//! the curve's base field is the circuit's native field.
//!
//! | file | what | gate |
//! |---|---|---|
//! | [`chip`] | [`GrumpkinChip`]: load and on-curve checks, addition, doubling, canonical scalars | halo2-base's generic gate |
//! | [`straus`] | `s G + c P` one bit per row ([`straus::StrausChip`]): Mithril's signatures (the DLEQ ladder reads its bits) | custom (bank) |
//! | [`glv`] | `s G + c P` on the endomorphism, one bit of each of four 128-bit halves per row ([`glv::GlvChip`]): Schnorr ATMS's verifications | custom (bank), optional |
//! | [`msm`] | `a P + b Q` for two variable points one bit per row ([`msm::MsmPairChip`]): batch Schnorr | custom (bank), optional |
//! | [`hash_to_curve`] | hash to Grumpkin: Poseidon to the field, RFC 9380's SvdW map, one addition ([`HashToCurveChip`]): Mithril's `H(m)` | halo2-base's generic gate (and the hash chip's) |
//! | [`dleq`] | a second ladder `s H + c Q` reading a Straus ladder's bits ([`dleq::DleqChip`]): Mithril's unique signatures | custom (bank), optional |
//!
//! The native twin is `halo2curves`' `grumpkin` module, re-exported here. Generic-gate ladders
//! (double-and-add on [`GrumpkinChip`]) survive only as the independent cross-check of the custom
//! ones, in [`crate::reference`].
//!
//! # Points
//! An [`AssignedPoint`] is an affine `(x, y)` constrained to be on the curve when loaded. The
//! identity has no affine form and is never assigned: [`GrumpkinChip::load_point`] refuses it.
//!
//! # Ladders and the offset
//! Every ladder starts from the offset point [`offset_point`] (hash to curve of a public tag, so
//! nobody knows its discrete logarithm to any key) and returns an `offset * 2^254`-shifted result
//! ([`ShiftedPoint`]), so that no intermediate value is the identity. Compare shifted results with
//! shifted results.
//!
//! # Keys nobody vouched for
//! The ladders' incomplete additions are safe for points whose discrete logarithms to the
//! ladders' constants nobody knows (a signer's key, a hash to curve), not for any point: a key
//! that anyone can compute from the constants (`[2^j] O`, a ladder start plus a table constant)
//! can meet an accumulator at an equal x, where no slope satisfies the gate. Circuits whose
//! slots can be disabled therefore run a disabled slot's ladder on [`disabled_key`] instead of
//! its key ([`glv::GlvChip::mul_add`], [`crate::signature::batch`]).
//!
//! # Scalars
//! Grumpkin scalars live in BN254 Fq, larger than the circuit field. A scalar is carried as its
//! 254 little-endian bits ([`AssignedScalar`]), each constrained boolean, and constrained
//! *canonical*: as an integer below the modulus it stands for (q for a Grumpkin scalar, r for a
//! circuit-field element reused as a scalar, e.g. a hash output). Without that check an Fr value
//! `x` could be decomposed as `x + r < 2^254`, a different scalar.

use std::sync::OnceLock;

use halo2_base::{
    gates::GateInstructions,
    halo2_proofs::halo2curves::{
        ff::{Field, PrimeField},
        group::{Curve, Group},
        CurveAffine, CurveExt,
    },
    AssignedValue, Context,
};
use num_bigint::BigUint;

pub use halo2_base::halo2_proofs::halo2curves::grumpkin::{
    Fr as GrumpkinScalar, G1Affine as GrumpkinAffine, G1 as Grumpkin,
};

use crate::Fr;

pub mod chip;
pub mod dleq;
pub mod glv;
pub mod hash_to_curve;
pub mod msm;
pub mod straus;

pub use crate::field::fr_modulus;
pub use chip::GrumpkinChip;
pub use hash_to_curve::HashToCurveChip;

/// Number of bits of a scalar (both q and r are below 2^254).
pub const SCALAR_BITS: usize = 254;
/// The curve constant b in y^2 = x^3 + b.
pub fn curve_b() -> Fr {
    -Fr::from(17)
}

/// The ladder offset: hash to curve (SvdW) of a public tag.
pub fn offset_point() -> GrumpkinAffine {
    static OFFSET: OnceLock<GrumpkinAffine> = OnceLock::new();
    *OFFSET.get_or_init(|| {
        Grumpkin::hash_to_curve("tms-grumpkin-ladder-offset")(b"offset").to_affine()
    })
}

/// The point a disabled slot's ladder multiplies in place of its key: a hash to curve of its own
/// tag. Anyone can compute keys that meet a ladder's known points (`[2^j] O`, `S + K[i]`) at an
/// equal x, where an incomplete addition has no slope and no witness exists. An enabled slot's
/// key comes with a valid signature (its signer knows its discrete logarithm to `G`), so an
/// equal x there would reveal a discrete logarithm of a hash to curve; a disabled slot's key
/// comes with nothing, so it never reaches a ladder, and this point, like the ladders'
/// constants, has no known discrete logarithm.
pub fn disabled_key() -> GrumpkinAffine {
    // Every slot's layout asks for it: a hash to curve once.
    static KEY: OnceLock<GrumpkinAffine> = OnceLock::new();
    *KEY.get_or_init(|| Grumpkin::hash_to_curve("tms-grumpkin-disabled-key")(b"key").to_affine())
}

/// `2^SCALAR_BITS * offset_point()`: what every ladder result is shifted by.
pub fn ladder_shift() -> GrumpkinAffine {
    static SHIFT: OnceLock<GrumpkinAffine> = OnceLock::new();
    *SHIFT.get_or_init(|| {
        let mut p = Grumpkin::from(offset_point());
        for _ in 0..SCALAR_BITS {
            p = p.double();
        }
        p.to_affine()
    })
}

/// An on-curve affine point (never the identity).
#[derive(Clone, Copy, Debug)]
pub struct AssignedPoint {
    /// x coordinate.
    pub x: AssignedValue<Fr>,
    /// y coordinate.
    pub y: AssignedValue<Fr>,
}

impl AssignedPoint {
    /// The native point (for witness generation and tests).
    ///
    /// # Panics
    /// If the cells' values are off the curve: a loaded point never is, a computed one only
    /// under a witness that fails the constraints. Witness generation that must go on for any
    /// witness reads [`Self::coordinates`].
    pub fn value(&self) -> GrumpkinAffine {
        GrumpkinAffine::from_xy(*self.x.value(), *self.y.value())
            .expect("assigned points are on the curve")
    }

    /// The cells' values `(x, y)`, on the curve or not.
    pub fn coordinates(&self) -> (Fr, Fr) {
        (*self.x.value(), *self.y.value())
    }
}

/// A ladder result `P + 2^254 * offset`, where `P` is the true result. Only comparable with
/// another [`ShiftedPoint`].
#[derive(Clone, Copy, Debug)]
pub struct ShiftedPoint(pub AssignedPoint);

/// A scalar as 254 constrained little-endian bits, canonical below its modulus.
#[derive(Clone, Debug)]
pub struct AssignedScalar {
    /// Little-endian bits.
    pub bits: Vec<AssignedValue<Fr>>,
}

/// q, Grumpkin's group order (the BN254 base field's modulus).
pub fn grumpkin_order() -> BigUint {
    BigUint::from_bytes_le((-GrumpkinScalar::ONE).to_repr().as_ref()) + 1u8
}

/// Constrains a ladder's running product of x-differences to be invertible (every incomplete
/// addition it multiplies in had distinct x): one witnessed inverse, one product equal to 1.
pub(crate) fn assert_invertible(
    gate: &impl GateInstructions<Fr>,
    ctx: &mut Context<Fr>,
    prod: AssignedValue<Fr>,
) {
    let inverse = ctx.load_witness(prod.value().invert().unwrap_or(Fr::ZERO));
    let one = gate.mul(ctx, prod, inverse);
    gate.assert_is_const(ctx, &one, &Fr::ONE);
}

/// The coordinates of a non-identity point.
pub fn xy(p: &GrumpkinAffine) -> (Fr, Fr) {
    let c = p.coordinates().expect("not the identity");
    (*c.x(), *c.y())
}

/// The witnesses of one row of a custom ladder: the doubling `D = 2 A`, the first addition
/// `M = D + P1` (kept when its bit is set), the second `A' = M + P2` (kept when its bit is set).
pub(crate) struct LadderStep {
    /// Slope and x of the doubling.
    pub(crate) ld: Fr,
    pub(crate) xd: Fr,
    /// Slope and point of the first addition.
    pub(crate) l1: Fr,
    pub(crate) x1: Fr,
    pub(crate) y1: Fr,
    /// x of the point after the first bit.
    pub(crate) xm: Fr,
    /// Slope and point of the second addition.
    pub(crate) l2: Fr,
    pub(crate) x2: Fr,
    pub(crate) y2: Fr,
    /// The accumulator of the next row.
    pub(crate) next: (Fr, Fr),
}

impl LadderStep {
    /// `[ld, xd, l1, x1, y1, l2, x2, y2]`: the order of the Straus and DLEQ rows.
    pub(crate) fn witnesses(&self) -> [Fr; 8] {
        [
            self.ld, self.xd, self.l1, self.x1, self.y1, self.l2, self.x2, self.y2,
        ]
    }
}

/// One native ladder row from the accumulator `a`: double, add `p1` under `b1`, add `p2` under
/// `b2` (incomplete additions; a zero denominator yields zero slopes, which the gates reject).
pub(crate) fn ladder_step(
    a: (Fr, Fr),
    p1: (Fr, Fr),
    b1: bool,
    p2: (Fr, Fr),
    b2: bool,
) -> LadderStep {
    let inv = |x: Fr| x.invert().unwrap_or(Fr::ZERO);
    let (xa, ya) = a;
    let ld = Fr::from(3) * xa.square() * inv(ya.double());
    let xd = ld.square() - xa.double();
    let yd = ld * (xa - xd) - ya;
    let l1 = (p1.1 - yd) * inv(p1.0 - xd);
    let x1 = l1.square() - xd - p1.0;
    let y1 = l1 * (xd - x1) - yd;
    let (xm, ym) = if b1 { (x1, y1) } else { (xd, yd) };
    let l2 = (p2.1 - ym) * inv(p2.0 - xm);
    let x2 = l2.square() - xm - p2.0;
    let y2 = l2 * (xm - x2) - ym;
    let next = if b2 { (x2, y2) } else { (xm, ym) };
    LadderStep {
        ld,
        xd,
        l1,
        x1,
        y1,
        xm,
        l2,
        x2,
        y2,
        next,
    }
}
