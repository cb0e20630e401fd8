//! [`GrumpkinChip`]: Grumpkin arithmetic on halo2-base's flex gate and range chip (halo2-ecc 0.5.5
//! only has non-native curve chips).
//!
//! # Exceptional cases
//! - [`GrumpkinChip::add_unequal`] uses the incomplete formula `lambda = (y_q - y_p) / (x_q - x_p)`
//!   and **constrains `x_q != x_p`** by witnessing the inverse of `x_q - x_p` and checking the
//!   product is one. A proof therefore exists only when the formula is correct; honest inputs hit
//!   `x_q = x_p` with negligible probability, adversarial ones get no proof.
//! - [`GrumpkinChip::double`] is complete on Grumpkin: `y = 0` would be a point of order 2, and
//!   the group has prime order.
//!
//! Scalars are decomposed canonically (see [`crate::curve`], "Scalars").

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::{
        ff::{Field, PrimeField},
        group::prime::PrimeCurveAffine,
        Coordinates, CurveAffine,
    },
    AssignedValue, Context,
    QuantumCell::Constant,
};
use num_bigint::BigUint;

use super::{
    curve_b, fr_modulus, grumpkin_order, AssignedPoint, AssignedScalar, GrumpkinAffine,
    GrumpkinScalar, ShiftedPoint,
};
use crate::{Fr, GadgetError};

/// Bits per limb of the canonicity check (two limbs).
const LIMB_BITS: usize = 127;

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
        let y2 = self.gate().mul(ctx, p.y, p.y);
        let rhs = self.curve_rhs(ctx, p.x);
        ctx.constrain_equal(&rhs, &y2);
    }

    /// `x^3 - 17`, the right-hand side of the curve equation.
    pub fn curve_rhs(&self, ctx: &mut Context<Fr>, x: AssignedValue<Fr>) -> AssignedValue<Fr> {
        let g = self.gate();
        let x2 = g.mul(ctx, x, x);
        g.mul_add(ctx, x2, x, Constant(curve_b()))
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

    /// Constrains `p == q` when `enabled` is one and nothing when it is zero.
    ///
    /// # Assumptions
    /// `enabled` is constrained boolean by the caller.
    pub fn assert_equal_when(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        q: &AssignedPoint,
        enabled: AssignedValue<Fr>,
    ) {
        let g = self.gate();
        for (l, r) in [(p.x, q.x), (p.y, q.y)] {
            let diff = g.sub(ctx, l, r);
            let gated = g.mul(ctx, diff, enabled);
            g.assert_is_const(ctx, &gated, &Fr::ZERO);
        }
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
