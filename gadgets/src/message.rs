//! The one mapping from message bytes to the signed field element, shared by every scheme:
//! `m = keccak-256(bytes) mod r` (the digest read big-endian). A contract computes it with one
//! `keccak256` and one `mod`, so the public message input of every circuit is derived from the
//! bytes the verifier holds.
//!
//! Every scheme signs `m` itself: Schnorr ATMS and SNARK-Mithril directly, BLS through its
//! message hash to G2 of `m` ([`crate::signature::bls::hash_message`], which the BLS circuit
//! also computes, so its public input is `m`).

use halo2_base::halo2_proofs::halo2curves::ff::{FromUniformBytes, PrimeField};
use sha3::{Digest, Keccak256};

use crate::Fr;

/// `keccak-256(bytes)`, read as a big-endian integer and reduced mod r.
pub fn message_to_field(bytes: &[u8]) -> Fr {
    let digest = Keccak256::digest(bytes);
    let mut wide = [0u8; 64];
    // from_uniform_bytes reads little-endian: reverse the big-endian digest into the low half.
    for (dst, src) in wide.iter_mut().zip(digest.iter().rev()) {
        *dst = *src;
    }
    Fr::from_uniform_bytes(&wide)
}

/// The 32 big-endian bytes of a field element.
pub fn field_bytes(m: &Fr) -> [u8; 32] {
    let mut bytes: [u8; 32] = m.to_repr();
    bytes.reverse();
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_message_is_keccak_of_nothing_mod_r() {
        // keccak256("") = c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470,
        // which exceeds r (this independent value is Python's `int(digest, 16) % r`).
        let expected = Fr::from_str_vartime(
            "1924180730567573949438414972962865885128629851683618892617351438379423999084",
        );
        assert_eq!(Some(message_to_field(b"")), expected);
    }

    #[test]
    fn field_bytes_are_big_endian() {
        let b = field_bytes(&Fr::from(0x0102u64));
        assert_eq!(&b[30..], &[1, 2]);
        assert!(b[..30].iter().all(|x| *x == 0));
    }
}
