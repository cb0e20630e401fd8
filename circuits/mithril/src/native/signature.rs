//! The unique (VRF-style) signature on Grumpkin: `sigma = sk * H_G(m)` with a Chaum-Pedersen
//! DLEQ proof that `log_G(pk) = log_{H_G(m)}(sigma)`.
//!
//! - `H_G(m)`: [`tms_gadgets::curve::hash_to_curve::hash_to_grumpkin`] under the domain tag
//!   [`Tag::HashToCurve`]: `u_i = Poseidon_leaf(tag, m, i)`, `i = 0, 1`, each mapped with RFC
//!   9380's Shallue-van de Woestijne map, the two points added (Grumpkin has cofactor 1). The
//!   circuit computes the same point ([`tms_gadgets::curve::HashToCurveChip`]).
//! - Sign: `sigma = sk H`; nonce `k` deterministic (a Poseidon PRF of `sk` and `m`, two outputs
//!   reduced wide mod q); `A = k G`, `B = k H`;
//!   `c = Poseidon_leaf(CHALLENGE tag, pk.x, pk.y, H.x, H.y, sigma.x, sigma.y, A.x, A.y, B.x, B.y)`;
//!   `s = k + c sk mod q` (`c < r < q` used as a scalar). The signature is `(sigma, A, B, s)`.
//! - Verify: `s G = A + c pk` and `s H = B + c sigma`.
//!
//! # Why sigma is unique
//! Grumpkin has prime order `q` and `pk`, `H` are not the identity, so `pk = sk G` for exactly
//! one `sk` in `Z_q`, and `sk H` is one fixed point. If `sigma' != sk H`, write
//! `sigma' = sk' H` with `sk' != sk`. Accepting `(A, B, s)` means `s = a + c sk` and
//! `s = b + c sk'` where `A = a G`, `B = b H`; so `c = (b - a) / (sk - sk')`: for the prover's
//! fixed `(A, B)` exactly one challenge value is accepted. The challenge is a hash of
//! `(pk, H, sigma', A, B)` computed after they are fixed, so (Fiat-Shamir, Poseidon modelled as a
//! random oracle) each hash query succeeds with probability `1/r` (about `2^-254`). Hence for a
//! given `(pk, m)` only `sigma = sk H_G(m)` is ever accepted, although many proofs
//! `(A, B, s)` (any nonce) verify for it. The lottery value depends on `sigma` only, never on
//! the proof, so it is a function of `(pk, m, j)`: a signer cannot grind lottery values by
//! choosing nonces (which a plain Schnorr signature would allow: its `R` is free).
//!
//! # In-circuit form
//! The `(A, B, s)` form keeps the check to two ladders of the form `s X + c Y` compared with
//! a witness point, without recomputing `A`, `B` as unshifted points for hashing:
//! `s G + c (-pk) = A` (fixed base `G`: the Straus gate of `tms_gadgets::curve::straus`) and
//! `s H + c (-sigma) = B` (`H` a variable base: `tms_gadgets::curve::dleq`). `H_G(m)` is
//! computed in the circuit from the public message, so the public statement holds no curve
//! point and a contract computes it with keccak-256 and arithmetic mod r.

use halo2_base::halo2_proofs::halo2curves::{
    ff::{FromUniformBytes, PrimeField},
    group::{prime::PrimeCurveAffine, Curve},
    CurveAffine,
};
use tms_gadgets::{
    curve::{hash_to_curve, GrumpkinAffine, GrumpkinScalar},
    hash::{NativeHash, Poseidon},
    signature::schnorr::{base_to_scalar, SigningKey, VerifyingKey},
    Fr,
};

use crate::{params::Tag, MithrilError};

/// A unique signature with its DLEQ proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniqueSignature {
    /// `sigma = sk H_G(m)`: the unique part, what the lottery hashes.
    pub sigma: GrumpkinAffine,
    /// `A = k G`.
    pub a: GrumpkinAffine,
    /// `B = k H_G(m)`.
    pub b: GrumpkinAffine,
    /// `s = k + c sk mod q`.
    pub s: GrumpkinScalar,
}

/// The affine coordinates of a point, refusing the identity and points off the curve (the
/// fields of a `GrumpkinAffine` are public, so a caller can build one off the curve).
pub fn coordinates(p: &GrumpkinAffine) -> Result<[Fr; 2], MithrilError> {
    if bool::from(p.is_identity()) {
        return Err(MithrilError::IdentityPoint);
    }
    if !bool::from(p.is_on_curve()) {
        return Err(MithrilError::NotOnCurve);
    }
    let c = p
        .coordinates()
        .into_option()
        .ok_or(MithrilError::IdentityPoint)?;
    Ok([*c.x(), *c.y()])
}

/// `H_G(m)`: hash to Grumpkin of the field element `m` under [`Tag::HashToCurve`]; fails (with
/// probability below `2^-249`) where the two mapped points share an x-coordinate, as the circuit
/// does.
pub fn hash_to_grumpkin(msg: Fr) -> Result<GrumpkinAffine, MithrilError> {
    Ok(hash_to_curve::hash_to_grumpkin(
        Tag::HashToCurve.value(),
        msg,
    )?)
}

/// The witnesses of the circuit's two SvdW maps for `H_G(m)`.
pub fn hash_to_grumpkin_witness(msg: Fr) -> Result<[hash_to_curve::SvdwWitness; 2], MithrilError> {
    Ok(hash_to_curve::hash_to_curve_witness(
        &Poseidon,
        Tag::HashToCurve.value(),
        msg,
    )?)
}

/// The DLEQ challenge.
pub fn challenge(
    pk: &GrumpkinAffine,
    h: &GrumpkinAffine,
    sigma: &GrumpkinAffine,
    a: &GrumpkinAffine,
    b: &GrumpkinAffine,
) -> Result<Fr, MithrilError> {
    let mut input = vec![Tag::Challenge.value()];
    for p in [pk, h, sigma, a, b] {
        input.extend(coordinates(p)?);
    }
    Ok(Poseidon.hash_leaf(&input)?)
}

fn nonce(sk: &SigningKey, msg: Fr) -> Result<GrumpkinScalar, MithrilError> {
    let bytes = sk.0.to_repr();
    let mut lo = [0u8; 16];
    let mut hi = [0u8; 16];
    lo.copy_from_slice(&bytes[..16]);
    hi.copy_from_slice(&bytes[16..32]);
    let key = [
        Fr::from_u128(u128::from_le_bytes(lo)),
        Fr::from_u128(u128::from_le_bytes(hi)),
    ];
    let mut wide = [0u8; 64];
    for (counter, chunk) in wide.chunks_mut(32).enumerate() {
        let out = Poseidon.hash_leaf(&[
            Tag::Nonce.value(),
            key[0],
            key[1],
            msg,
            Fr::from(counter as u64),
        ])?;
        chunk.copy_from_slice(&out.to_repr());
    }
    Ok(GrumpkinScalar::from_uniform_bytes(&wide))
}

/// Signs `msg` uniquely with `sk`.
pub fn sign(sk: &SigningKey, msg: Fr) -> Result<UniqueSignature, MithrilError> {
    let pk = sk.verifying_key().0;
    let h = hash_to_grumpkin(msg)?;
    let sigma = (h * sk.0).to_affine();
    let k = nonce(sk, msg)?;
    sign_with_nonce(sk, &pk, &h, &sigma, k)
}

fn sign_with_nonce(
    sk: &SigningKey,
    pk: &GrumpkinAffine,
    h: &GrumpkinAffine,
    sigma: &GrumpkinAffine,
    k: GrumpkinScalar,
) -> Result<UniqueSignature, MithrilError> {
    let a = (GrumpkinAffine::generator() * k).to_affine();
    let b = (*h * k).to_affine();
    let c = challenge(pk, h, sigma, &a, &b)?;
    Ok(UniqueSignature {
        sigma: *sigma,
        a,
        b,
        s: k + base_to_scalar(c) * sk.0,
    })
}

impl UniqueSignature {
    /// Checks the DLEQ proof of `sigma` for `pk` and `msg`.
    pub fn verify(&self, pk: &VerifyingKey, msg: Fr) -> bool {
        let Ok(h) = hash_to_grumpkin(msg) else {
            return false;
        };
        let Ok(c) = challenge(&pk.0, &h, &self.sigma, &self.a, &self.b) else {
            return false;
        };
        let c = base_to_scalar(c);
        let g = GrumpkinAffine::generator();
        g * self.s == pk.0 * c + self.a && h * self.s == self.sigma * c + self.b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    fn key(seed: u64) -> SigningKey {
        SigningKey::random(&mut ChaCha20Rng::seed_from_u64(seed))
    }

    #[test]
    fn deterministic_and_verifies() {
        let sk = key(1);
        let pk = sk.verifying_key();
        let msg = Fr::from(42);
        let sig = sign(&sk, msg).unwrap();
        assert_eq!(sig, sign(&sk, msg).unwrap());
        assert!(sig.verify(&pk, msg));
        assert_eq!(
            sig.sigma,
            (hash_to_grumpkin(msg).unwrap() * sk.0).to_affine()
        );
    }

    #[test]
    fn rejects_wrong_key_message_and_tampering() {
        let sk = key(2);
        let pk = sk.verifying_key();
        let msg = Fr::from(7);
        let sig = sign(&sk, msg).unwrap();
        assert!(!sig.verify(&key(3).verifying_key(), msg));
        assert!(!sig.verify(&pk, Fr::from(8)));
        let g = GrumpkinAffine::generator();
        let bump = |p: GrumpkinAffine| (p + g).to_affine();
        let mut t = sig;
        t.sigma = bump(t.sigma);
        assert!(!t.verify(&pk, msg));
        let mut t = sig;
        t.a = bump(t.a);
        assert!(!t.verify(&pk, msg));
        let mut t = sig;
        t.b = bump(t.b);
        assert!(!t.verify(&pk, msg));
        let mut t = sig;
        t.s += GrumpkinScalar::one();
        assert!(!t.verify(&pk, msg));
        // The identity as sigma is refused, not a panic.
        let mut t = sig;
        t.sigma = GrumpkinAffine::identity();
        assert!(!t.verify(&pk, msg));
        // A point off the curve is refused too.
        let mut t = sig;
        t.sigma.y += Fr::one();
        assert_eq!(coordinates(&t.sigma), Err(MithrilError::NotOnCurve));
        assert!(!t.verify(&pk, msg));
    }

    #[test]
    fn sigma_is_fixed_whatever_the_nonce() {
        let sk = key(4);
        let pk = sk.verifying_key();
        let msg = Fr::from(99);
        let h = hash_to_grumpkin(msg).unwrap();
        let honest = (h * sk.0).to_affine();
        // Any nonce gives a valid proof, always for the same sigma.
        let p1 = sign_with_nonce(&sk, &pk.0, &h, &honest, GrumpkinScalar::from(5)).unwrap();
        let p2 = sign_with_nonce(&sk, &pk.0, &h, &honest, GrumpkinScalar::from(6)).unwrap();
        assert!(p1.verify(&pk, msg) && p2.verify(&pk, msg));
        assert_ne!(p1.a, p2.a);
        assert_eq!(p1.sigma, p2.sigma);
        // A proof run with another sigma (another exponent) does not verify, whatever the nonce.
        let other = (h * (sk.0 + GrumpkinScalar::one())).to_affine();
        for n in 1..6u64 {
            let forged = sign_with_nonce(&sk, &pk.0, &h, &other, GrumpkinScalar::from(n)).unwrap();
            assert!(!forged.verify(&pk, msg));
        }
    }
}
