//! The proof-less certificate: a signer bitmap and the signers' signatures, and its verifier.

use tms_gadgets::{message::message_to_field, signature::bls};

use crate::{schemes::SignatureScheme, Error};

/// Bytes of a bitmap for a committee of `n`: ceil(n / 8).
pub const fn bitmap_bytes(n: usize) -> usize {
    n.div_ceil(8)
}

/// The bitmap of `signers` (strictly increasing member indices below `n`): bit `i % 8` of byte
/// `i / 8` is set iff member `i` signed.
pub fn encode_bitmap(n: usize, signers: &[usize]) -> Result<Vec<u8>, Error> {
    let mut bitmap = vec![0u8; bitmap_bytes(n)];
    let mut previous: Option<usize> = None;
    for &i in signers {
        if i >= n {
            return Err(Error::SignerOutOfRange { signer: i, n });
        }
        if previous.is_some_and(|p| p >= i) {
            return Err(Error::SignersNotIncreasing);
        }
        previous = Some(i);
        bitmap[i / 8] |= 1 << (i % 8);
    }
    Ok(bitmap)
}

/// The signers a bitmap marks, in increasing order; the bitmap must be exactly ceil(n / 8) bytes
/// with the padding bits past `n` clear.
pub fn decode_bitmap(n: usize, bitmap: &[u8]) -> Result<Vec<usize>, Error> {
    if bitmap.len() != bitmap_bytes(n) {
        return Err(Error::BitmapLength {
            expected: bitmap_bytes(n),
            got: bitmap.len(),
        });
    }
    let mut signers = Vec::new();
    for (byte_index, &byte) in bitmap.iter().enumerate() {
        let mut bits = byte;
        while bits != 0 {
            let i = byte_index * 8 + bits.trailing_zeros() as usize;
            if i >= n {
                return Err(Error::BitmapPadding);
            }
            signers.push(i);
            bits &= bits - 1;
        }
    }
    Ok(signers)
}

/// A threshold certificate without a proof: what a verifier holding the committee's keys and
/// the message receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The signer bitmap, ceil(n / 8) bytes.
    pub bitmap: Vec<u8>,
    /// The signers' serialized signatures in signer order, concatenated (fixed size each); for
    /// a BLS aggregate certificate, the one aggregate signature.
    pub signatures: Vec<u8>,
}

impl Certificate {
    /// A certificate of per-signer signatures: `signatures[k]` is the serialized signature of
    /// member `signers[k]` (strictly increasing, below `n`).
    pub fn new(n: usize, signers: &[usize], signatures: &[Vec<u8>]) -> Result<Self, Error> {
        if signers.len() != signatures.len() {
            return Err(Error::SignatureCount {
                signers: signers.len(),
                signatures: signatures.len(),
            });
        }
        Ok(Self {
            bitmap: encode_bitmap(n, signers)?,
            signatures: signatures.concat(),
        })
    }

    /// Total serialized size: bitmap plus signatures.
    pub fn len(&self) -> usize {
        self.bitmap.len() + self.signatures.len()
    }

    /// Whether the certificate is empty (never for a built one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Verifies a certificate of scheme `S` for `message` against the committee's keys `pks`
    /// (member `i` holds `pks[i]`) and threshold `t`: parses the bitmap, requires at least `t`
    /// signers and one signature each, and checks every signature under its signer's key.
    pub fn verify<S: SignatureScheme>(
        &self,
        pks: &[S::PublicKey],
        message: &[u8],
        t: usize,
    ) -> Result<(), Error> {
        let signers = decode_bitmap(pks.len(), &self.bitmap)?;
        check_threshold(signers.len(), t)?;
        let expected = signers.len() * S::SIGNATURE_BYTES;
        if self.signatures.len() != expected {
            return Err(Error::SignatureLength {
                expected,
                got: self.signatures.len(),
            });
        }
        let prepared = S::message(message);
        for (&member, sig) in signers
            .iter()
            .zip(self.signatures.chunks_exact(S::SIGNATURE_BYTES))
        {
            if !S::verify(&pks[member], &prepared, sig) {
                return Err(Error::Rejected { member });
            }
        }
        Ok(())
    }

    /// A BLS aggregate certificate: the bitmap of `signers` and the sum of their signatures.
    pub fn bls_aggregate(
        n: usize,
        signers: &[usize],
        signatures: &[bls::Signature],
    ) -> Result<Self, Error> {
        if signers.len() != signatures.len() {
            return Err(Error::SignatureCount {
                signers: signers.len(),
                signatures: signatures.len(),
            });
        }
        Ok(Self {
            bitmap: encode_bitmap(n, signers)?,
            signatures: crate::schemes::encode_g2(&bls::Signature::aggregate(signatures).0),
        })
    }

    /// Verifies a BLS aggregate certificate: parses the bitmap, sums the marked members' keys
    /// (`bls::PublicKey::aggregate`) and checks the one pairing equation
    /// (`bls::verify_aggregate`, which hashes the message to G2 and subgroup-checks the
    /// signature). Keys are assumed registered with proofs of possession (rogue-key defence).
    pub fn verify_bls_aggregate(
        &self,
        pks: &[bls::PublicKey],
        message: &[u8],
        t: usize,
    ) -> Result<(), Error> {
        let signers = decode_bitmap(pks.len(), &self.bitmap)?;
        check_threshold(signers.len(), t)?;
        let sig = crate::schemes::decode_g2(&self.signatures).ok_or(Error::SignatureLength {
            expected: crate::schemes::G2_BYTES,
            got: self.signatures.len(),
        })?;
        let keys: Vec<bls::PublicKey> = signers.iter().map(|&i| pks[i]).collect();
        let avk = bls::PublicKey::aggregate(&keys);
        let m = message_to_field(message);
        if bls::verify_aggregate(&avk, m, &bls::Signature(sig)) {
            Ok(())
        } else {
            Err(Error::AggregateRejected)
        }
    }
}

fn check_threshold(signers: usize, t: usize) -> Result<(), Error> {
    if t == 0 {
        return Err(Error::ThresholdZero);
    }
    if signers < t {
        return Err(Error::BelowThreshold { signers, t });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmap_round_trip_and_padding() {
        let bitmap = encode_bitmap(10, &[0, 3, 9]).unwrap();
        assert_eq!(bitmap, vec![0b0000_1001, 0b0000_0010]);
        assert_eq!(decode_bitmap(10, &bitmap).unwrap(), vec![0, 3, 9]);
        assert!(matches!(
            decode_bitmap(10, &[0, 0b0000_0100]),
            Err(Error::BitmapPadding)
        ));
        assert!(matches!(
            decode_bitmap(10, &[0]),
            Err(Error::BitmapLength {
                expected: 2,
                got: 1
            })
        ));
        assert!(matches!(
            encode_bitmap(10, &[3, 3]),
            Err(Error::SignersNotIncreasing)
        ));
        assert!(matches!(
            encode_bitmap(10, &[10]),
            Err(Error::SignerOutOfRange { signer: 10, n: 10 })
        ));
    }
}
