//! Schnorr verification on halo2-base's generic gate: the reference for
//! [`crate::signature::schnorr::SchnorrChip`] on the GLV ladder (about 46,000 cells per
//! signature against about 2,500). No circuit uses it; the tests run both on the same slots.

use halo2_base::{AssignedValue, Context};

use super::GenericLadder;
use crate::{
    curve::{AssignedPoint, AssignedScalar, GrumpkinAffine, GrumpkinChip},
    hash::HashInstructions,
    signature::schnorr::{challenge_in_circuit, Signature},
    Fr, GadgetError,
};

/// An assigned signature: `R` on the curve, `s` as canonical bits.
#[derive(Clone, Debug)]
pub struct AssignedSignature {
    /// The nonce commitment.
    pub r: AssignedPoint,
    /// The response's bits.
    pub s: AssignedScalar,
}

/// Schnorr verification on halo2-base's generic gate (the reference for
/// [`crate::signature::schnorr::SchnorrChip`]).
#[derive(Clone, Debug)]
pub struct GenericSchnorrChip<'r, H: HashInstructions> {
    /// The curve chip.
    pub ecc: GrumpkinChip<'r>,
    /// The challenge hash.
    pub hasher: H,
}

impl<'r, H: HashInstructions> GenericSchnorrChip<'r, H> {
    /// A chip over `ecc` and `hasher`.
    pub fn new(ecc: GrumpkinChip<'r>, hasher: H) -> Self {
        Self { ecc, hasher }
    }

    /// Loads a signature (R on the curve, s canonical below q).
    pub fn load_signature(
        &self,
        ctx: &mut Context<Fr>,
        sig: &Signature,
    ) -> Result<AssignedSignature, GadgetError> {
        Ok(AssignedSignature {
            r: self.ecc.load_point(ctx, sig.r)?,
            s: self.ecc.load_scalar(ctx, sig.s),
        })
    }

    /// The in-circuit challenge `H(R.x, R.y, pk.x, pk.y, m)`.
    pub fn challenge(
        &self,
        ctx: &mut Context<Fr>,
        r: &AssignedPoint,
        pk: &AssignedPoint,
        msg: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        challenge_in_circuit(ctx, &self.hasher, r, pk, msg)
    }

    /// Constrains `s * G == R + c * pk` when `enabled` is one (`enabled` must be constrained
    /// boolean by the caller). Layout: challenge hash, canonical bits of `c`, a variable-base
    /// ladder for `c * pk`, a fixed-base ladder for `s * G`, one addition; both sides carry the
    /// same ladder shift.
    pub fn verify(
        &self,
        ctx: &mut Context<Fr>,
        pk: &AssignedPoint,
        msg: AssignedValue<Fr>,
        sig: &AssignedSignature,
        enabled: AssignedValue<Fr>,
    ) {
        let c = self.challenge(ctx, &sig.r, pk, msg);
        let c_bits = self.ecc.scalar_from_base(ctx, c);
        let c_pk = self.ecc.scalar_mul(ctx, pk, &c_bits);
        let rhs = self.ecc.add_to_shifted(ctx, &c_pk, &sig.r);
        let lhs = self
            .ecc
            .fixed_base_mul(ctx, GrumpkinAffine::generator(), &sig.s);
        self.ecc.assert_equal_when(ctx, &lhs.0, &rhs.0, enabled);
    }
}
