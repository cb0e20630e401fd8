//! Lamport+ one-time signatures (Khaburzaniya et al. 2021, as in the seed paper) over a
//! 252-bit message, with winterfell's Rescue-Prime as the hash.
//!
//! - secret key: 252 parts `sk_i`, each a 4-element (256-bit) random value;
//! - part public values: `pk_i = H(sk_i)` (one permutation, capacity tag 4);
//! - public key: the accumulator `P = Sponge(pk_0, ..., pk_251)` (126 permutations, two parts
//!   absorbed per permutation, capacity tag 1008);
//! - signature on message bits `m_i`: `sigma_i = sk_i` where `m_i = 1`, `sigma_i = pk_i` where
//!   `m_i = 0`;
//! - verification: `x_i = H(sigma_i)` where `m_i = 1`, `x_i = sigma_i` where `m_i = 0`, accept iff
//!   `Sponge(x_0, ..., x_251) = P`.

use rand::RngCore;
use winterfell::crypto::{hashers::Rp64_256, Hasher};
use winterfell::math::FieldElement;

use crate::error::Error;
use crate::hash::{hash_part, sponge_pairs, Digest, Felt, DIGEST_LEN};

/// Number of message bits signed (4 field elements of 63 bits each).
pub const MSG_BITS: usize = 252;
/// Number of message elements.
pub const MSG_ELEMENTS: usize = 4;
/// Bits used per message element.
pub const BITS_PER_ELEMENT: usize = 63;

/// A message to sign: four field elements, each below 2^63, so that all 252 bits are signed and
/// the field elements are the message with no loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message([Felt; MSG_ELEMENTS]);

impl Message {
    /// A message from four integers, each of which must be below 2^63.
    pub fn new(limbs: [u64; MSG_ELEMENTS]) -> Result<Self, Error> {
        for (index, &v) in limbs.iter().enumerate() {
            if v >> BITS_PER_ELEMENT != 0 {
                return Err(Error::MessageElementTooLarge { index });
            }
        }
        Ok(Self(limbs.map(Felt::new)))
    }

    /// The 252-bit digest of an arbitrary byte string: winterfell's `Rp64_256::hash` with the top
    /// bit of each element cleared.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let d = Rp64_256::hash(bytes);
        let e = d.as_elements();
        let mask = (1u64 << BITS_PER_ELEMENT) - 1;
        Self([0, 1, 2, 3].map(|i| Felt::new(e[i].as_int() & mask)))
    }

    /// The message as field elements (public input of the proof).
    pub fn elements(&self) -> [Felt; MSG_ELEMENTS] {
        self.0
    }

    /// Bit `i` (0..252) of the message.
    pub fn bit(&self, i: usize) -> bool {
        (self.0[i / BITS_PER_ELEMENT].as_int() >> (i % BITS_PER_ELEMENT)) & 1 == 1
    }
}

/// A Lamport+ public key: the accumulator digest of the 252 part public values. It is the leaf
/// of the key in the committee's Merkle tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey(pub Digest);

/// A Lamport+ secret key (one-time).
#[derive(Clone)]
pub struct SecretKey {
    parts: Vec<Digest>,
}

/// A Lamport+ signature: one 4-element value per message bit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `sigma_i`: the secret part where the message bit is 1, the part public value where it
    /// is 0.
    pub parts: Vec<Digest>,
}

fn random_digest<R: RngCore>(rng: &mut R) -> Digest {
    [0; DIGEST_LEN].map(|_| Felt::new(rng.next_u64()))
}

impl SecretKey {
    /// Samples a fresh secret key.
    pub fn generate<R: RngCore>(rng: &mut R) -> Self {
        Self {
            parts: (0..MSG_BITS).map(|_| random_digest(rng)).collect(),
        }
    }

    /// The public key (252 part hashes and the accumulator sponge).
    pub fn public_key(&self) -> PublicKey {
        let pks: Vec<Digest> = self.parts.iter().map(hash_part).collect();
        PublicKey(sponge_pairs(&pks))
    }

    /// Signs `msg`.
    pub fn sign(&self, msg: &Message) -> Signature {
        let parts = self
            .parts
            .iter()
            .enumerate()
            .map(|(i, sk)| if msg.bit(i) { *sk } else { hash_part(sk) })
            .collect();
        Signature { parts }
    }
}

/// The values a verifier absorbs: `H(sigma_i)` where the bit is 1, `sigma_i` where it is 0.
pub(crate) fn absorbed_values(msg: &Message, sig: &Signature) -> Vec<Digest> {
    sig.parts
        .iter()
        .enumerate()
        .map(|(i, s)| if msg.bit(i) { hash_part(s) } else { *s })
        .collect()
}

/// Verifies a Lamport+ signature natively.
pub fn verify(pk: &PublicKey, msg: &Message, sig: &Signature) -> bool {
    sig.parts.len() == MSG_BITS && sponge_pairs(&absorbed_values(msg, sig)) == pk.0
}

/// Convenience: `n` key pairs from a seeded ChaCha20 generator.
pub fn generate_keys(n: usize, seed: u64) -> Vec<SecretKey> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..n).map(|_| SecretKey::generate(&mut rng)).collect()
}

impl Default for Message {
    fn default() -> Self {
        Self([Felt::ZERO; MSG_ELEMENTS])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_verify_roundtrip_and_forgery() {
        let keys = generate_keys(2, 7);
        let msg = Message::from_bytes(b"epoch 17");
        let sig = keys[0].sign(&msg);
        assert!(verify(&keys[0].public_key(), &msg, &sig));
        assert!(!verify(&keys[1].public_key(), &msg, &sig));
        let other = Message::from_bytes(b"epoch 18");
        assert!(!verify(&keys[0].public_key(), &other, &sig));
        let mut forged = sig.clone();
        forged.parts[5][0] += Felt::ONE;
        assert!(!verify(&keys[0].public_key(), &msg, &forged));
    }

    #[test]
    fn message_limbs_are_range_checked() {
        assert!(Message::new([1, 2, 3, (1 << 63) - 1]).is_ok());
        assert!(matches!(
            Message::new([0, 1 << 63, 0, 0]),
            Err(Error::MessageElementTooLarge { index: 1 })
        ));
        let m = Message::new([0b101, 0, 0, 1]).unwrap();
        assert!(m.bit(0) && !m.bit(1) && m.bit(2) && m.bit(189) && !m.bit(190));
    }
}
