//! The per-signature schemes behind one interface: key generation, signing to bytes, and
//! verification from bytes (decoding is part of the verifier's work).

use std::convert::Infallible;

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{multi_miller_loop, G1Affine, G2Affine, G2Prepared},
    ff::PrimeField,
    group::{Group, GroupEncoding},
    pairing::MillerLoopResult,
};
use rand::RngCore;
use rand_chacha::ChaCha20Rng;
use stark_baseline::{hash::Felt, lamport};
use tms_gadgets::{
    curve::{GrumpkinAffine, GrumpkinScalar},
    encoding::{g2_from_bytes, point_from_bytes},
    hash::RescuePrime,
    message::message_to_field,
    signature::{bls, schnorr},
    Fr,
};
use winterfell::math::StarkField;

use crate::{merkle_wots, wots, Error};

/// A signature scheme as the naive verifier uses it.
pub trait SignatureScheme {
    /// A member's signing key (stateful for one-time and few-time schemes).
    type SecretKey;
    /// A member's key as the verifier stores it.
    type PublicKey: Clone;
    /// The message in the form the scheme signs, derived once per certificate.
    type Message;
    /// Bytes of one serialized signature.
    const SIGNATURE_BYTES: usize;
    /// Bytes of one public key as the verifier stores it (compressed where there is a choice).
    const PUBLIC_KEY_BYTES: usize;
    /// Whether [`crate::measure`] signs with a small pool of key pairs (slow key generation or
    /// signing) instead of one key pair per member.
    const POOLED: bool;

    /// A fresh key pair.
    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error>;
    /// The scheme's form of the message bytes.
    fn message(bytes: &[u8]) -> Self::Message;
    /// Signs and serializes ([`Self::SIGNATURE_BYTES`] bytes).
    fn sign(sk: &mut Self::SecretKey, msg: &Self::Message) -> Result<Vec<u8>, Error>;
    /// Parses and verifies a serialized signature; false on a malformed encoding.
    fn verify(pk: &Self::PublicKey, msg: &Self::Message, sig: &[u8]) -> bool;
}

/// Bytes of a compressed BN254 G2 point.
pub const G2_BYTES: usize = 64;

/// A G2 point in halo2curves' compressed encoding (x, with the sign of y and the identity flag
/// in the top bits).
pub fn encode_g2(p: &G2Affine) -> Vec<u8> {
    p.to_bytes().as_ref().to_vec()
}

/// Parses a compressed G2 point strictly ([`g2_from_bytes`]: canonical Fq coefficients, the
/// bytes exactly the point's own encoding) and refuses the identity (its flag set). The subgroup
/// is checked by the verifier.
pub fn decode_g2(bytes: &[u8]) -> Option<G2Affine> {
    if bytes.len() == G2_BYTES && bytes[G2_BYTES - 1] >> 7 == 1 {
        return None;
    }
    g2_from_bytes(bytes).ok()
}

/// Parses a compressed Grumpkin point strictly: the bytes must be the point's own encoding.
fn decode_grumpkin(bytes: &[u8]) -> Option<GrumpkinAffine> {
    point_from_bytes(bytes).ok()
}

/// Schnorr on Grumpkin with the Rescue-Prime challenge (`tms_gadgets::signature::schnorr`).
/// Signature: `R` compressed (32 B: x and the sign of y) and `s` (32 B, little-endian).
#[derive(Clone, Copy, Debug)]
pub struct SchnorrGrumpkin;

impl SignatureScheme for SchnorrGrumpkin {
    type SecretKey = schnorr::SigningKey;
    type PublicKey = schnorr::VerifyingKey;
    type Message = Fr;
    const SIGNATURE_BYTES: usize = 64;
    const PUBLIC_KEY_BYTES: usize = 32;
    const POOLED: bool = false;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let sk = schnorr::SigningKey::random(rng);
        Ok((sk, sk.verifying_key()))
    }

    fn message(bytes: &[u8]) -> Fr {
        message_to_field(bytes)
    }

    fn sign(sk: &mut Self::SecretKey, msg: &Fr) -> Result<Vec<u8>, Error> {
        let sig = sk
            .sign(&RescuePrime, *msg)
            .map_err(|e| Error::Signing(e.to_string()))?;
        let mut out = sig.r.to_bytes().as_ref().to_vec();
        out.extend_from_slice(sig.s.to_repr().as_ref());
        Ok(out)
    }

    fn verify(pk: &Self::PublicKey, msg: &Fr, sig: &[u8]) -> bool {
        if sig.len() != Self::SIGNATURE_BYTES {
            return false;
        }
        let mut s_repr = <GrumpkinScalar as PrimeField>::Repr::default();
        s_repr.as_mut().copy_from_slice(&sig[32..]);
        let (Some(r), Some(s)) = (
            decode_grumpkin(&sig[..32]),
            Option::<GrumpkinScalar>::from(GrumpkinScalar::from_repr(s_repr)),
        ) else {
            return false;
        };
        pk.verify(&RescuePrime, *msg, &schnorr::Signature { r, s })
    }
}

/// BN254 BLS, each signature checked on its own (`tms_gadgets::signature::bls`): keys in G1
/// (32 B compressed), signatures in G2 (64 B compressed). The message is hashed to G2 once per
/// certificate; each signature is subgroup-checked and costs one two-pairing product.
#[derive(Clone, Copy, Debug)]
pub struct BlsIndividual;

/// The message of a BLS certificate, hashed to G2 once.
#[derive(Clone, Debug)]
pub struct BlsMessage {
    /// The signed message field element `m = keccak-256(bytes) mod r`.
    pub m: Fr,
    /// `H(m)` in G2, prepared for the Miller loop.
    pub hashed: G2Prepared,
}

/// `e(pk, H(m)) * e(-g1, sig) == 1`, the check of `bls::PublicKey::verify` with `H(m)` given.
fn bls_pairing_check(pk: &G1Affine, hashed: &G2Prepared, sig: &G2Affine) -> bool {
    let neg_g1 = -G1Affine::generator();
    let sig = G2Prepared::from(*sig);
    let gt = multi_miller_loop(&[(pk, hashed), (&neg_g1, &sig)]).final_exponentiation();
    bool::from(gt.is_identity())
}

impl SignatureScheme for BlsIndividual {
    type SecretKey = bls::SecretKey;
    type PublicKey = bls::PublicKey;
    type Message = BlsMessage;
    const SIGNATURE_BYTES: usize = G2_BYTES;
    const PUBLIC_KEY_BYTES: usize = 32;
    const POOLED: bool = false;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let sk = bls::SecretKey::random(rng);
        Ok((sk, sk.public_key()))
    }

    fn message(bytes: &[u8]) -> BlsMessage {
        let m = message_to_field(bytes);
        let hashed = G2Prepared::from(tms_gadgets::signature::bls::hash_message(m));
        BlsMessage { m, hashed }
    }

    fn sign(sk: &mut Self::SecretKey, msg: &BlsMessage) -> Result<Vec<u8>, Error> {
        Ok(encode_g2(&sk.sign(msg.m).0))
    }

    fn verify(pk: &Self::PublicKey, msg: &BlsMessage, sig: &[u8]) -> bool {
        let Some(sig) = decode_g2(sig) else {
            return false;
        };
        pk.validate().is_ok() && bls::is_in_g2(&sig) && bls_pairing_check(&pk.0, &msg.hashed, &sig)
    }
}

/// A one-time key: signing a second time is refused.
#[derive(Clone)]
pub struct OneTime<K> {
    key: K,
    used: bool,
}

impl<K> OneTime<K> {
    fn take(&mut self) -> Result<&K, Error> {
        if self.used {
            return Err(Error::KeyExhausted);
        }
        self.used = true;
        Ok(&self.key)
    }
}

/// Bytes of one Lamport+ signature: 252 parts x 4 field elements x 8 bytes.
pub const LAMPORT_SIGNATURE_BYTES: usize = lamport::MSG_BITS * stark_baseline::hash::DIGEST_LEN * 8;

/// Lamport+ over winterfell's Rescue-Prime (`stark_baseline::lamport`): 252 parts of 4 field
/// elements (each 8 bytes little-endian, canonical), public key the 4-element accumulator
/// (32 B). One-time.
#[derive(Clone, Copy, Debug)]
pub struct LamportPlus;

impl SignatureScheme for LamportPlus {
    type SecretKey = OneTime<lamport::SecretKey>;
    type PublicKey = lamport::PublicKey;
    type Message = lamport::Message;
    const SIGNATURE_BYTES: usize = LAMPORT_SIGNATURE_BYTES;
    const PUBLIC_KEY_BYTES: usize = stark_baseline::hash::DIGEST_LEN * 8;
    const POOLED: bool = false;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let key = lamport::SecretKey::generate(rng);
        let pk = key.public_key();
        Ok((OneTime { key, used: false }, pk))
    }

    fn message(bytes: &[u8]) -> lamport::Message {
        lamport::Message::from_bytes(bytes)
    }

    fn sign(sk: &mut Self::SecretKey, msg: &lamport::Message) -> Result<Vec<u8>, Error> {
        let sig = sk.take()?.sign(msg);
        Ok(sig
            .parts
            .iter()
            .flatten()
            .flat_map(|x| x.as_int().to_le_bytes())
            .collect())
    }

    fn verify(pk: &Self::PublicKey, msg: &lamport::Message, sig: &[u8]) -> bool {
        if sig.len() != Self::SIGNATURE_BYTES {
            return false;
        }
        let mut parts = Vec::with_capacity(lamport::MSG_BITS);
        for part in sig.chunks_exact(32) {
            let mut digest = [Felt::new(0); 4];
            for (x, word) in digest.iter_mut().zip(part.chunks_exact(8)) {
                let v = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                if v >= Felt::MODULUS {
                    return false;
                }
                *x = Felt::new(v);
            }
            parts.push(digest);
        }
        lamport::verify(pk, msg, &lamport::Signature { parts })
    }
}

/// WOTS+ with SHA-256, w = 16 ([`crate::wots`]): 67 x 32 B signatures, public key
/// `PK.seed || hash of the chain ends` (64 B). One-time.
#[derive(Clone, Copy, Debug)]
pub struct WotsPlus;

impl SignatureScheme for WotsPlus {
    type SecretKey = wots::SecretKey;
    type PublicKey = wots::PublicKey;
    type Message = wots::Bytes32;
    const SIGNATURE_BYTES: usize = wots::SIGNATURE_BYTES;
    const PUBLIC_KEY_BYTES: usize = wots::PUBLIC_KEY_BYTES;
    const POOLED: bool = false;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let sk = wots::SecretKey::random(rng);
        let pk = sk.public_key();
        Ok((sk, pk))
    }

    fn message(bytes: &[u8]) -> wots::Bytes32 {
        wots::message_digest(bytes)
    }

    fn sign(sk: &mut Self::SecretKey, msg: &wots::Bytes32) -> Result<Vec<u8>, Error> {
        Ok(sk.sign(msg).ok_or(Error::KeyExhausted)?.to_bytes())
    }

    fn verify(pk: &Self::PublicKey, msg: &wots::Bytes32, sig: &[u8]) -> bool {
        wots::Signature::from_bytes(sig).is_some_and(|s| wots::verify(pk, msg, &s))
    }
}

/// 2^10 WOTS+ keys under a SHA-256 Merkle tree ([`crate::merkle_wots`]): 2,468 B signatures,
/// public key `PK.seed || root` (64 B). Key generation (1,024 WOTS+ keys) is slow: pooled.
#[derive(Clone, Copy, Debug)]
pub struct MerkleWots;

impl SignatureScheme for MerkleWots {
    type SecretKey = merkle_wots::SecretKey;
    type PublicKey = merkle_wots::PublicKey;
    type Message = wots::Bytes32;
    const SIGNATURE_BYTES: usize = merkle_wots::signature_bytes(merkle_wots::HEIGHT);
    const PUBLIC_KEY_BYTES: usize = merkle_wots::PUBLIC_KEY_BYTES;
    const POOLED: bool = true;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let sk = merkle_wots::SecretKey::generate(rng, merkle_wots::HEIGHT);
        let pk = sk.public_key();
        Ok((sk, pk))
    }

    fn message(bytes: &[u8]) -> wots::Bytes32 {
        wots::message_digest(bytes)
    }

    fn sign(sk: &mut Self::SecretKey, msg: &wots::Bytes32) -> Result<Vec<u8>, Error> {
        Ok(sk.sign(msg).ok_or(Error::KeyExhausted)?.to_bytes())
    }

    fn verify(pk: &Self::PublicKey, msg: &wots::Bytes32, sig: &[u8]) -> bool {
        merkle_wots::Signature::from_bytes(sig, pk.height)
            .is_some_and(|s| merkle_wots::verify(pk, msg, &s))
    }
}

/// A rand 0.8 generator seen as a rand_core 0.10 one (what slh-dsa 0.2 takes).
struct Rng010<'a, R>(&'a mut R);

impl<R: RngCore> rand_core_010::TryRng for Rng010<'_, R> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill_bytes(dst);
        Ok(())
    }
}

// ChaCha20 is a cryptographic generator.
impl<R: RngCore + rand::CryptoRng> rand_core_010::TryCryptoRng for Rng010<'_, R> {}

/// FIPS 205 SLH-DSA-SHA2-128s (the `slh-dsa` crate): 7,856 B signatures, 32 B public keys,
/// deterministic signing (FIPS 205 pure mode, empty context). Signing takes hundreds of
/// milliseconds: pooled.
#[derive(Clone, Copy, Debug)]
pub struct SlhDsaSha2_128s;

impl SignatureScheme for SlhDsaSha2_128s {
    type SecretKey = slh_dsa::SigningKey<slh_dsa::Sha2_128s>;
    type PublicKey = slh_dsa::VerifyingKey<slh_dsa::Sha2_128s>;
    type Message = Vec<u8>;
    const SIGNATURE_BYTES: usize = 7856;
    const PUBLIC_KEY_BYTES: usize = 32;
    const POOLED: bool = true;

    fn keygen(rng: &mut ChaCha20Rng) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        let sk = slh_dsa::SigningKey::<slh_dsa::Sha2_128s>::new(&mut Rng010(rng));
        let pk = sk.as_ref().clone();
        Ok((sk, pk))
    }

    fn message(bytes: &[u8]) -> Vec<u8> {
        bytes.to_vec()
    }

    fn sign(sk: &mut Self::SecretKey, msg: &Vec<u8>) -> Result<Vec<u8>, Error> {
        use slh_dsa::signature::Signer;
        let sig = sk
            .try_sign(msg)
            .map_err(|e| Error::Signing(e.to_string()))?;
        Ok(sig.to_bytes().to_vec())
    }

    fn verify(pk: &Self::PublicKey, msg: &Vec<u8>, sig: &[u8]) -> bool {
        use slh_dsa::signature::Verifier;
        slh_dsa::Signature::<slh_dsa::Sha2_128s>::try_from(sig)
            .is_ok_and(|s| pk.verify(msg, &s).is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn bls_check_with_cached_hash_agrees_with_the_crate() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let (mut sk, pk) = BlsIndividual::keygen(&mut rng).unwrap();
        let msg = BlsIndividual::message(b"m");
        let sig = BlsIndividual::sign(&mut sk, &msg).unwrap();
        let point = bls::Signature(decode_g2(&sig).unwrap());
        assert!(pk.verify(msg.m, &point));
        assert!(BlsIndividual::verify(&pk, &msg, &sig));
        let other = BlsIndividual::message(b"m'");
        assert!(!pk.verify(other.m, &point));
        assert!(!BlsIndividual::verify(&pk, &other, &sig));
    }

    #[test]
    fn declared_sizes_match_the_encodings() {
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let (sk, pk) = SchnorrGrumpkin::keygen(&mut rng).unwrap();
        let _ = sk;
        assert_eq!(
            pk.0.to_bytes().as_ref().len(),
            SchnorrGrumpkin::PUBLIC_KEY_BYTES
        );
        let (_, pk) = BlsIndividual::keygen(&mut rng).unwrap();
        assert_eq!(pk.to_bytes().len(), BlsIndividual::PUBLIC_KEY_BYTES);
        assert_eq!(LAMPORT_SIGNATURE_BYTES, 8064);
    }
}
