//! Scalar multiplication on halo2-base's generic gate (double-and-add on [`GrumpkinChip`]): the
//! reference for the custom ladders of [`crate::curve`] (about 90 cells per bit against 16). No
//! circuit uses it; the tests check it against the native curve and the custom ladders.

use halo2_base::{
    halo2_proofs::halo2curves::group::{Curve, Group},
    Context,
};

use crate::{
    curve::{
        ladder_shift, offset_point, AssignedPoint, AssignedScalar, Grumpkin, GrumpkinAffine,
        GrumpkinChip, ShiftedPoint, SCALAR_BITS,
    },
    Fr,
};

/// Generic-gate ladders on [`GrumpkinChip`]. Each starts from the offset point and returns a
/// result shifted by `2^254 * offset` (see [`crate::curve`]).
///
/// # Assumptions
/// - Every scalar is an [`AssignedScalar`] (canonical bits, constrained by its loader).
/// - An exceptional addition (`x_acc = x_p`) leaves the circuit unsatisfiable: honest inputs hit
///   one with negligible probability.
pub trait GenericLadder {
    /// `k * p + 2^254 * offset` by double-and-add from the most significant bit.
    fn scalar_mul(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        k: &AssignedScalar,
    ) -> ShiftedPoint;
    /// `sum_i k_i * p_i + 2^254 * offset`, all points sharing one chain of doublings (Straus).
    fn msm(
        &self,
        ctx: &mut Context<Fr>,
        points: &[AssignedPoint],
        scalars: &[AssignedScalar],
    ) -> ShiftedPoint;
    /// `k * base + 2^254 * offset` for a constant `base`: per bit, a constant point `2^i base`
    /// is added under the bit. The doublings are precomputed natively.
    fn fixed_base_mul(
        &self,
        ctx: &mut Context<Fr>,
        base: GrumpkinAffine,
        k: &AssignedScalar,
    ) -> ShiftedPoint;
}

impl GenericLadder for GrumpkinChip<'_> {
    fn scalar_mul(
        &self,
        ctx: &mut Context<Fr>,
        p: &AssignedPoint,
        k: &AssignedScalar,
    ) -> ShiftedPoint {
        self.msm(ctx, &[*p], std::slice::from_ref(k))
    }

    fn msm(
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

    fn fixed_base_mul(
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
}
