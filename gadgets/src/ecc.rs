//! Grumpkin (`y^2 = x^3 - 17` over BN254 Fr, prime order q = BN254 Fq) arithmetic in-circuit,
//! where the curve's base field is the circuit's native field.
//!
//! halo2-ecc 0.5.5 only has non-native curve chips; [`GrumpkinChip`] is written on halo2-base's
//! flex gate and range chip. The native twin is `halo2curves`' `grumpkin` module, re-exported here.
//!
//! # Points
//! An [`AssignedPoint`] is an affine `(x, y)` constrained to be on the curve when loaded. The
//! identity has no affine form and is never assigned: [`GrumpkinChip::load_point`] refuses it.
//!
//! # Exceptional cases
//! - [`GrumpkinChip::add_unequal`] uses the incomplete formula `lambda = (y_q - y_p) / (x_q - x_p)`
//!   and **constrains `x_q != x_p`** by witnessing the inverse of `x_q - x_p` and checking the
//!   product is one. A proof therefore exists only when the formula is correct; honest inputs hit
//!   `x_q = x_p` with negligible probability (see the ladders below), adversarial ones get no proof.
//! - [`GrumpkinChip::double`] is complete on Grumpkin: `y = 0` would be a point of order 2, and
//!   the group has prime order.
//! - The ladders ([`GrumpkinChip::scalar_mul`], [`GrumpkinChip::fixed_base_mul`],
//!   [`GrumpkinChip::msm`]) start from the offset point [`offset_point`] (hash to curve of a
//!   public tag, so nobody knows its discrete logarithm to any key) and return
//!   `offset * 2^254`-shifted results ([`ShiftedPoint`]), so that no intermediate value is the
//!   identity. Compare shifted results with shifted results.
//!
//! # Scalars
//! Grumpkin scalars live in BN254 Fq, larger than the circuit field. A scalar is carried as its
//! 254 little-endian bits ([`AssignedScalar`]), each constrained boolean, and constrained
//! *canonical*: as an integer below the modulus it stands for (q for a Grumpkin scalar, r for a
//! circuit-field element reused as a scalar, e.g. a hash output). Without that check an Fr value
//! `x` could be decomposed as `x + r < 2^254`, a different scalar.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{
        ff::{Field, PrimeField},
        group::{prime::PrimeCurveAffine, Curve, Group},
        Coordinates, CurveAffine, CurveExt,
    },
    AssignedValue, Context,
    QuantumCell::Constant,
};
use num_bigint::BigUint;

pub use halo2_base::halo2_proofs::halo2curves::grumpkin::{
    Fr as GrumpkinScalar, G1Affine as GrumpkinAffine, G1 as Grumpkin,
};

use crate::{Fr, GadgetError};

/// Number of bits of a scalar (both q and r are below 2^254).
pub const SCALAR_BITS: usize = 254;
/// Bits per limb of the canonicity check (two limbs).
const LIMB_BITS: usize = 127;
/// The curve constant b in y^2 = x^3 + b.
pub fn curve_b() -> Fr {
    -Fr::from(17)
}

/// The ladder offset: hash to curve (SvdW) of a public tag.
pub fn offset_point() -> GrumpkinAffine {
    Grumpkin::hash_to_curve("tms-grumpkin-ladder-offset")(b"offset").to_affine()
}

/// `2^SCALAR_BITS * offset_point()`: what every ladder result is shifted by.
pub fn ladder_shift() -> GrumpkinAffine {
    let mut p = Grumpkin::from(offset_point());
    for _ in 0..SCALAR_BITS {
        p = p.double();
    }
    p.to_affine()
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
    pub fn value(&self) -> GrumpkinAffine {
        GrumpkinAffine::from_xy(*self.x.value(), *self.y.value())
            .expect("assigned points are on the curve")
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

/// Grumpkin operations on halo2-base's gate and range chips.
#[derive(Clone, Debug)]
pub struct GrumpkinChip<'r> {
    range: &'r RangeChip<Fr>,
}

impl<'r> GrumpkinChip<'r> {
    /// A chip borrowing `range` (its lookups serve the scalar canonicity checks).
    pub fn new(range: &'r RangeChip<Fr>) -> Self {
        Self { range }
    }

    /// The flex gate.
    pub fn gate(&self) -> &impl GateInstructions<Fr> {
        self.range.gate()
    }

    /// Loads `p` as a witness and constrains it to be on the curve. Fails for the identity.
    pub fn load_point(
        &self,
        ctx: &mut Context<Fr>,
        p: GrumpkinAffine,
    ) -> Result<AssignedPoint, GadgetError> {
        // halo2curves reports the identity's coordinates as (0, 0): refuse it explicitly.
        if bool::from(p.is_identity()) {
            return Err(GadgetError::IdentityPoint);
        }
        let c: Option<Coordinates<GrumpkinAffine>> = p.coordinates().into();
        let c = c.ok_or(GadgetError::IdentityPoint)?;
        let point = AssignedPoint {
            x: ctx.load_witness(*c.x()),
            y: ctx.load_witness(*c.y()),
        };
        self.assert_on_curve(ctx, &point);
        Ok(point)
    }

    /// Loads a constant point (fixed cells, no curve check needed).
    pub fn load_constant(&self, ctx: &mut Context<Fr>, p: GrumpkinAffine) -> AssignedPoint {
        let c = p
            .coordinates()
            .expect("constant points are not the identity");
        AssignedPoint {
            x: ctx.load_constant(*c.x()),
            y: ctx.load_constant(*c.y()),
        }
    }

    /// Constrains `y^2 = x^3 - 17`.
    pub fn assert_on_curve(&self, ctx: &mut Context<Fr>, p: &AssignedPoint) {
        let g = self.gate();
        let y2 = g.mul(ctx, p.y, p.y);
        let x2 = g.mul(ctx, p.x, p.x);
        // x^3 + b - y^2 = 0
        let rhs = g.mul_add(ctx, x2, p.x, Constant(curve_b()));
        ctx.constrain_equal(&rhs, &y2);
    }

    /// Constrains `p == q`.
    pub fn assert_equal(&self, ctx: &mut Context<Fr>, p: &AssignedPoint, q: &AssignedPoint) {
        ctx.constrain_equal(&p.x, &q.x);
        ctx.constrain_equal(&p.y, &q.y);
    }

    /// `-p`.
    pub fn negate(&self, ctx: &mut Context<Fr>, p: &AssignedPoint) -> AssignedPoint {
        AssignedPoint {
            x: p.x,
            y: self.gate().neg(ctx, p.y),
        }
    }

    /// `bit ? a : b` (bit must be constrained boolean by the caller).
    pub fn select(
        &self,
        ctx: &mut Context<Fr>,
        a: &AssignedPoint,
        b: &AssignedPoint,
        bit: AssignedValue<Fr>,
    ) -> AssignedPoint {
        let g = self.gate();
        AssignedPoint {
            x: g.select(ctx, a.x, b.x, bit),
            y: g.select(ctx, a.y, b.y, bit),
        }
    }

    /// `p + q`, constraining `x_p != x_q` (so `p != +-q`; see the module docs).
    pub fn add_unequal(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        q: &AssignedPoint,
    ) -> AssignedPoint {
        let g = self.gate();
        let dx = g.sub(ctx, q.x, p.x);
        let dy = g.sub(ctx, q.y, p.y);
        let inv = ctx.load_witness(dx.value().invert().unwrap_or(Fr::ZERO));
        let one = g.mul(ctx, dx, inv);
        g.assert_is_const(ctx, &one, &Fr::ONE);
        let lambda = g.mul(ctx, dy, inv);
        self.finish_add(ctx, lambda, p, q.x)
    }

    /// Given the slope, `x3 = lambda^2 - x_p - x_q`, `y3 = lambda (x_p - x3) - y_p`.
    fn finish_add(
        &self,
        ctx: &mut Context<Fr>,
        lambda: AssignedValue<Fr>,
        p: &AssignedPoint,
        qx: AssignedValue<Fr>,
    ) -> AssignedPoint {
        let g = self.gate();
        let l2 = g.mul(ctx, lambda, lambda);
        let sum_x = g.add(ctx, p.x, qx);
        let x = g.sub(ctx, l2, sum_x);
        let dx = g.sub(ctx, p.x, x);
        let m = g.mul(ctx, lambda, dx);
        let y = g.sub(ctx, m, p.y);
        AssignedPoint { x, y }
    }

    /// `2 p` (complete on Grumpkin).
    pub fn double(&self, ctx: &mut Context<Fr>, p: &AssignedPoint) -> AssignedPoint {
        let g = self.gate();
        let x2 = g.mul(ctx, p.x, p.x);
        // lambda = 3 x^2 / (2 y); y != 0 on a prime-order curve.
        let lambda_val =
            Fr::from(3) * x2.value() * (Fr::from(2) * p.y.value()).invert().unwrap_or(Fr::ZERO);
        let lambda = ctx.load_witness(lambda_val);
        // 2 y lambda = 3 x^2  <=>  (2/3) y lambda = x^2
        let ly = g.mul(ctx, lambda, p.y);
        let scaled = g.mul(
            ctx,
            ly,
            Constant(Fr::from(2) * Fr::from(3).invert().unwrap()),
        );
        ctx.constrain_equal(&scaled, &x2);
        let l2 = g.mul(ctx, lambda, lambda);
        let x = g.mul_add(ctx, p.x, Constant(-Fr::from(2)), l2);
        let dx = g.sub(ctx, p.x, x);
        let m = g.mul(ctx, lambda, dx);
        let y = g.sub(ctx, m, p.y);
        AssignedPoint { x, y }
    }

    /// Decomposes the circuit-field element `x` into 254 canonical bits (the integer is < r).
    pub fn scalar_from_base(&self, ctx: &mut Context<Fr>, x: AssignedValue<Fr>) -> AssignedScalar {
        let value = BigUint::from_bytes_le(x.value().to_repr().as_ref());
        self.scalar_from_base_with_witness(ctx, x, &value)
    }

    /// [`Self::scalar_from_base`] with the integer witnessed by the caller instead of computed
    /// from `x`. Only a cheating prover passes anything but `x`'s canonical integer: negative
    /// tests use it to show that `x + r` is rejected.
    pub fn scalar_from_base_with_witness(
        &self,
        ctx: &mut Context<Fr>,
        x: AssignedValue<Fr>,
        integer: &BigUint,
    ) -> AssignedScalar {
        let (scalar, recomposed) = self.decompose(ctx, integer, &fr_modulus());
        ctx.constrain_equal(&recomposed, &x);
        scalar
    }

    /// Loads a Grumpkin scalar as 254 canonical bits (the integer is < q).
    pub fn load_scalar(&self, ctx: &mut Context<Fr>, s: GrumpkinScalar) -> AssignedScalar {
        self.load_scalar_integer(ctx, &BigUint::from_bytes_le(s.to_repr().as_ref()))
    }

    /// Loads any integer below 2^254 as a scalar's bits; the circuit accepts it only below q.
    pub fn load_scalar_integer(&self, ctx: &mut Context<Fr>, integer: &BigUint) -> AssignedScalar {
        self.decompose(ctx, integer, &grumpkin_order()).0
    }

    /// Witnesses the bits of `value` (two 127-bit limbs), constrains them boolean and the integer
    /// below `modulus`; returns the bits and `lo + 2^127 hi` as a field element.
    fn decompose(
        &self,
        ctx: &mut Context<Fr>,
        value: &BigUint,
        modulus: &BigUint,
    ) -> (AssignedScalar, AssignedValue<Fr>) {
        let g = self.gate();
        let mask = (BigUint::from(1u8) << LIMB_BITS) - 1u8;
        let limb = |v: &BigUint| Fr::from_u128(u128::try_from(v).expect("127-bit limb"));
        let lo = ctx.load_witness(limb(&(value & &mask)));
        let hi = ctx.load_witness(limb(&(value >> LIMB_BITS)));
        let mut bits = g.num_to_bits(ctx, lo, LIMB_BITS);
        bits.extend(g.num_to_bits(ctx, hi, LIMB_BITS));
        // Canonical: (hi, lo) < (m_hi, m_lo) lexicographically.
        let (m_lo, m_hi) = (limb(&(modulus & &mask)), limb(&(modulus >> LIMB_BITS)));
        let hi_lt = self.range.is_less_than(ctx, hi, Constant(m_hi), LIMB_BITS);
        let hi_eq = g.is_equal(ctx, hi, Constant(m_hi));
        let lo_lt = self.range.is_less_than(ctx, lo, Constant(m_lo), LIMB_BITS);
        let below = g.mul_add(ctx, hi_eq, lo_lt, hi_lt);
        g.assert_is_const(ctx, &below, &Fr::ONE);
        let two_127 = Fr::from_u128(1u128 << LIMB_BITS);
        let recomposed = g.mul_add(ctx, hi, Constant(two_127), lo);
        (AssignedScalar { bits }, recomposed)
    }

    /// `k * p + 2^254 * offset` by double-and-add from the most significant bit.
    pub fn scalar_mul(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        k: &AssignedScalar,
    ) -> ShiftedPoint {
        self.msm(ctx, &[*p], std::slice::from_ref(k))
    }

    /// `sum_i k_i * p_i + 2^254 * offset`, all points sharing one chain of doublings (Straus).
    pub fn msm(
        &self,
        ctx: &mut Context<Fr>,
        points: &[AssignedPoint],
        scalars: &[AssignedScalar],
    ) -> ShiftedPoint {
        assert_eq!(points.len(), scalars.len(), "one scalar per point");
        let mut acc = self.load_constant(ctx, offset_point());
        for i in (0..SCALAR_BITS).rev() {
            acc = self.double(ctx, &acc);
            for (p, k) in points.iter().zip(scalars) {
                let sum = self.add_unequal(ctx, &acc, p);
                acc = self.select(ctx, &sum, &acc, k.bits[i]);
            }
        }
        ShiftedPoint(acc)
    }

    /// `k * base + 2^254 * offset` for a constant `base`: per bit, a constant point
    /// `2^i base` is added under the bit. The doublings are precomputed natively.
    pub fn fixed_base_mul(
        &self,
        ctx: &mut Context<Fr>,
        base: GrumpkinAffine,
        k: &AssignedScalar,
    ) -> ShiftedPoint {
        // acc starts at 2^254 * offset and adds 2^i base for each set bit i.
        let mut acc = self.load_constant(ctx, ladder_shift());
        let mut multiple = Grumpkin::from(base);
        for bit in &k.bits {
            let m = self.load_constant(ctx, multiple.to_affine());
            let sum = self.add_unequal(ctx, &acc, &m);
            acc = self.select(ctx, &sum, &acc, *bit);
            multiple = multiple.double();
        }
        ShiftedPoint(acc)
    }

    /// `shifted + p` (still shifted).
    pub fn add_to_shifted(
        &self,
        ctx: &mut Context<Fr>,
        shifted: &ShiftedPoint,
        p: &AssignedPoint,
    ) -> ShiftedPoint {
        ShiftedPoint(self.add_unequal(ctx, &shifted.0, p))
    }
}

/// r, the BN254 scalar field's modulus (the circuit field).
pub fn fr_modulus() -> BigUint {
    BigUint::from_bytes_le((-Fr::ONE).to_repr().as_ref()) + 1u8
}

/// q, Grumpkin's group order (the BN254 base field's modulus).
pub fn grumpkin_order() -> BigUint {
    BigUint::from_bytes_le((-GrumpkinScalar::ONE).to_repr().as_ref()) + 1u8
}
