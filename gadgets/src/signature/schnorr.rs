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
//! Proof of possession (registration; checked natively, never in a circuit): a signature, as
//! above, of `m_pop = SHA3-512("tms-schnorr-pop-v1" || pk)` (the key's 32-byte compressed
//! encoding; the 64-byte digest read little-endian, reduced mod r) by the key itself
//! ([`SigningKey::prove_possession`], [`VerifyingKey::verify_possession`]). A registration
//! that cannot produce it does not know its secret key. Signed messages are
//! `keccak-256(bytes) mod r` ([`crate::message`]): a proof of possession passes as a message
//! signature, or a message signature as a proof, only for bytes whose keccak-256 hits a
//! SHA3-512 output mod r, a preimage search.
//!
//! In-circuit, [`challenge_in_circuit`] is the one place the challenge is hashed, and
//! [`SchnorrChip::verify`] lays out the check on one slot on the GLV ladder
//! ([`crate::curve::glv`]) with an `enabled` bit: when it is one the equation is constrained;
//! when zero the slot's values are unconstrained (the ATMS circuits count only enabled slots)
//! and the ladder runs on a constant instead of the key, so that no key, whoever registered
//! it, can make a disabled slot unprovable.
//! The generic-gate verifier [`crate::reference::GenericSchnorrChip`] is the cross-check.

use halo2_base::{
    gates::RangeChip,
    halo2_proofs::halo2curves::{
        ff::{FromUniformBytes, PrimeField},
        group::{prime::PrimeCurveAffine, Curve, GroupEncoding},
        CurveAffine,
    },
    AssignedValue, Context,
};
use rand::RngCore;
use sha3::{Digest, Sha3_512};

use crate::{
    bank::CustomRegion,
    curve::{
        glv::{glv_shift, GlvChip, GlvPosition, PreparedLadder},
        AssignedPoint, GrumpkinAffine, GrumpkinChip, GrumpkinScalar, ShiftedPoint,
    },
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

/// Domain-separation tag of proofs of possession.
pub const POSSESSION_TAG: &[u8] = b"tms-schnorr-pop-v1";

/// The field element a proof of possession of `pk` signs: SHA3-512 of [`POSSESSION_TAG`] and
/// the key's 32-byte compressed encoding, read as a little-endian integer, reduced mod r.
pub fn possession_message(pk: &VerifyingKey) -> Fr {
    let digest = Sha3_512::new()
        .chain_update(POSSESSION_TAG)
        .chain_update(pk.0.to_bytes())
        .finalize();
    Fr::from_uniform_bytes(&digest.into())
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

    /// The proof of possession: the signature of [`possession_message`] of this key.
    pub fn prove_possession<H: NativeHash>(&self, hasher: &H) -> Result<Signature, GadgetError> {
        self.sign(hasher, possession_message(&self.verifying_key()))
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

    /// Whether `pop` is this key's proof of possession.
    pub fn verify_possession<H: NativeHash>(&self, hasher: &H, pop: &Signature) -> bool {
        self.verify(hasher, possession_message(self), pop)
    }
}

/// The in-circuit challenge `H(R.x, R.y, pk.x, pk.y, m)` (the twin of [`challenge`]).
pub fn challenge_in_circuit<H: HashInstructions>(
    ctx: &mut Context<Fr>,
    hasher: &H,
    r: &AssignedPoint,
    pk: &AssignedPoint,
    msg: AssignedValue<Fr>,
) -> AssignedValue<Fr> {
    hasher.hash_leaf(ctx, &[r.x, r.y, pk.x, pk.y, msg])
}

/// In-circuit Schnorr verification on the GLV ladder: the verifier every circuit uses.
#[derive(Clone, Debug)]
pub struct SchnorrChip<'r> {
    range: &'r RangeChip<Fr>,
    glv: GlvChip<'r>,
}

impl<'r> SchnorrChip<'r> {
    /// A chip appending its ladders to `region`.
    pub fn new(range: &'r RangeChip<Fr>, region: CustomRegion) -> Self {
        Self {
            range,
            glv: GlvChip::new(range, region),
        }
    }

    /// Constrains `s G == R + c pk` when `enabled` is one, with the GLV ladder `s G + c (-pk)` and
    /// one addition of `R` to its shift; returns where the ladder sits.
    ///
    /// # Assumptions
    /// - `enabled` is constrained boolean by the caller.
    /// - `pk` and `r` are on the curve (loaded by [`GrumpkinChip::load_point`]).
    /// - `c` is the challenge of [`challenge_in_circuit`]; the ladder reads it canonically.
    pub fn verify(
        &self,
        ctx: &mut Context<Fr>,
        pk: &AssignedPoint,
        c: AssignedValue<Fr>,
        r: &AssignedPoint,
        s: &GrumpkinScalar,
        enabled: AssignedValue<Fr>,
    ) -> GlvPosition {
        self.verify_ladder(ctx, pk, r, enabled, |glv, ctx, minus_pk| {
            glv.mul_add(ctx, s, c, minus_pk, enabled)
        })
    }

    /// The ladder [`Self::verify`] lays out for the values `pk`, `c`, `s` and `enabled`,
    /// computed without a layout (on any thread): give it to [`Self::verify_prepared`].
    pub fn prepare(
        pk: &GrumpkinAffine,
        c: Fr,
        s: &GrumpkinScalar,
        enabled: bool,
    ) -> PreparedLadder {
        GlvChip::prepare(s, c, &(-*pk), enabled)
    }

    /// [`Self::verify`] with the ladder's rows from [`Self::prepare`] of the same values: the
    /// same constraints and layout.
    pub fn verify_prepared(
        &self,
        ctx: &mut Context<Fr>,
        pk: &AssignedPoint,
        c: AssignedValue<Fr>,
        r: &AssignedPoint,
        prepared: &PreparedLadder,
        enabled: AssignedValue<Fr>,
    ) -> GlvPosition {
        self.verify_ladder(ctx, pk, r, enabled, |glv, ctx, minus_pk| {
            glv.mul_add_prepared(ctx, prepared, c, minus_pk, enabled)
        })
    }

    fn verify_ladder(
        &self,
        ctx: &mut Context<Fr>,
        pk: &AssignedPoint,
        r: &AssignedPoint,
        enabled: AssignedValue<Fr>,
        ladder: impl FnOnce(
            &GlvChip<'r>,
            &mut Context<Fr>,
            &AssignedPoint,
        ) -> (ShiftedPoint, GlvPosition),
    ) -> GlvPosition {
        let ecc = GrumpkinChip::new(self.range);
        let minus_pk = ecc.negate(ctx, pk);
        let (lhs, pos) = ladder(&self.glv, ctx, &minus_pk);
        let shift = ShiftedPoint(ecc.load_constant(ctx, glv_shift()));
        let rhs = ecc.add_to_shifted(ctx, &shift, r);
        ecc.assert_equal_when(ctx, &lhs.0, &rhs.0, enabled);
        pos
    }
}
