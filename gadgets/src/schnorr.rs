//! Schnorr signatures on Grumpkin, native and in-circuit, generic over the challenge hash.
//!
//! - Key: `sk` a Grumpkin scalar, `pk = sk * G` (G the Grumpkin generator).
//! - Sign `m` (a circuit-field element): deterministic nonce `k = SHA3-512("tms-schnorr-nonce" ||
//!   sk || m)` reduced mod q, `R = k * G`, `c = H(R.x, R.y, pk.x, pk.y, m)` (the hash's fixed-length
//!   leaf mode, see [`crate::hash`]), `s = k + c * sk mod q`.
//! - Verify: `s * G == R + c * pk`, with `c`'s integer (below r < q) used as the scalar.
//!
//! Both coordinates of `R` and `pk` enter the challenge, so `-pk` cannot stand for `pk`.
//! The nonce is deterministic: signing the same message twice gives the same signature.
//!
//! In-circuit, [`SchnorrChip::verify`] lays out the check on one slot with an `enabled` bit: when
//! it is one the equation is constrained; when zero the slot's values are unconstrained (the
//! ATMS circuits count only enabled slots).

use halo2_base::{
    gates::GateInstructions,
    halo2_proofs::halo2curves::{
        ff::{FromUniformBytes, PrimeField},
        group::{prime::PrimeCurveAffine, Curve},
        CurveAffine,
    },
    AssignedValue, Context,
};
use rand::RngCore;
use sha3::{Digest, Sha3_512};

use crate::{
    ecc::{AssignedPoint, AssignedScalar, GrumpkinAffine, GrumpkinChip, GrumpkinScalar},
    hash::{HashInstructions, NativeHash},
    Fr, GadgetError,
};

/// A signing key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigningKey(pub GrumpkinScalar);

/// A verifying key `sk * G`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyingKey(pub GrumpkinAffine);

/// A signature `(R, s)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The nonce commitment `k * G`.
    pub r: GrumpkinAffine,
    /// The response `k + c * sk`.
    pub s: GrumpkinScalar,
}

fn coordinates(p: &GrumpkinAffine) -> Result<[Fr; 2], GadgetError> {
    if bool::from(p.is_identity()) {
        return Err(GadgetError::IdentityPoint);
    }
    let c = p.coordinates().expect("not the identity");
    Ok([*c.x(), *c.y()])
}

/// A Grumpkin scalar with the same integer as the circuit-field element `x` (x < r < q).
pub fn base_to_scalar(x: Fr) -> GrumpkinScalar {
    GrumpkinScalar::from_repr(x.to_repr()).expect("r < q")
}

/// The challenge `H(R.x, R.y, pk.x, pk.y, m)`.
pub fn challenge<H: NativeHash>(
    hasher: &H,
    r: &GrumpkinAffine,
    pk: &VerifyingKey,
    msg: Fr,
) -> Result<Fr, GadgetError> {
    let [rx, ry] = coordinates(r)?;
    let [px, py] = coordinates(&pk.0)?;
    hasher.hash_leaf(&[rx, ry, px, py, msg])
}

impl SigningKey {
    /// A uniformly random key.
    pub fn random(rng: &mut impl RngCore) -> Self {
        let mut wide = [0u8; 64];
        rng.fill_bytes(&mut wide);
        Self(GrumpkinScalar::from_uniform_bytes(&wide))
    }

    /// The verifying key.
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey((GrumpkinAffine::generator() * self.0).to_affine())
    }

    /// The deterministic signature of `msg`.
    pub fn sign<H: NativeHash>(&self, hasher: &H, msg: Fr) -> Result<Signature, GadgetError> {
        let digest = Sha3_512::new()
            .chain_update(b"tms-schnorr-nonce")
            .chain_update(self.0.to_repr())
            .chain_update(msg.to_repr())
            .finalize();
        let k = GrumpkinScalar::from_uniform_bytes(&digest.into());
        let r = (GrumpkinAffine::generator() * k).to_affine();
        let c = challenge(hasher, &r, &self.verifying_key(), msg)?;
        Ok(Signature {
            r,
            s: k + base_to_scalar(c) * self.0,
        })
    }
}

impl VerifyingKey {
    /// Whether `sig` is a valid signature of `msg` under this key.
    pub fn verify<H: NativeHash>(&self, hasher: &H, msg: Fr, sig: &Signature) -> bool {
        let Ok(c) = challenge(hasher, &sig.r, self, msg) else {
            return false;
        };
        let lhs = GrumpkinAffine::generator() * sig.s;
        let rhs = self.0 * base_to_scalar(c) + sig.r;
        lhs == rhs
    }
}

/// An assigned signature: `R` on the curve, `s` as canonical bits.
#[derive(Clone, Debug)]
pub struct AssignedSignature {
    /// The nonce commitment.
    pub r: AssignedPoint,
    /// The response's bits.
    pub s: AssignedScalar,
}

/// In-circuit Schnorr verification on the Grumpkin chip and a hash chip.
#[derive(Clone, Debug)]
pub struct SchnorrChip<'r, H: HashInstructions> {
    /// The curve chip.
    pub ecc: GrumpkinChip<'r>,
    /// The challenge hash.
    pub hasher: H,
}

impl<'r, H: HashInstructions> SchnorrChip<'r, H> {
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
        self.hasher.hash_leaf(ctx, &[r.x, r.y, pk.x, pk.y, msg])
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
        let gate = self.ecc.gate();
        for (l, r) in [(lhs.0.x, rhs.0.x), (lhs.0.y, rhs.0.y)] {
            let diff = gate.sub(ctx, l, r);
            let gated = gate.mul(ctx, diff, enabled);
            gate.assert_is_const(ctx, &gated, &Fr::zero());
        }
    }
}
