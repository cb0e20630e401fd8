//! Strict decoding of compressed curve points from outside bytes (files, certificates).
//!
//! halo2curves' `from_bytes` is too lenient for data a verifier receives: it ignores a set
//! identity flag on a non-zero x (two encodings of one point) and its BN254 G2 decoding panics on
//! a non-canonical Fq coefficient. These functions refuse both, so every parser of outside bytes
//! (the `tms` tool, the naive baselines) shares one strict rule.

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{Fq, G2Affine},
    group::GroupEncoding,
};

/// Why bytes are not a point's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PointDecodeError {
    /// The byte count is not the encoding's.
    #[error("expected {expected} bytes")]
    Length {
        /// Bytes of the encoding.
        expected: usize,
    },
    /// No point of the curve (or a coordinate outside the field) has these bytes.
    #[error("not a point on the curve")]
    NotOnCurve,
    /// A point decodes, but its own encoding differs (a second encoding of it).
    #[error("not the canonical encoding of its point")]
    NotCanonical,
}

/// The point whose compressed encoding is exactly `bytes`.
pub fn point_from_bytes<P: GroupEncoding>(bytes: &[u8]) -> Result<P, PointDecodeError> {
    let mut repr = P::Repr::default();
    let expected = repr.as_ref().len();
    if bytes.len() != expected {
        return Err(PointDecodeError::Length { expected });
    }
    repr.as_mut().copy_from_slice(bytes);
    let point: P = Option::from(P::from_bytes(&repr)).ok_or(PointDecodeError::NotOnCurve)?;
    if point.to_bytes().as_ref() != bytes {
        return Err(PointDecodeError::NotCanonical);
    }
    Ok(point)
}

/// [`point_from_bytes`] for BN254 G2, with both Fq coefficients of x checked canonical first
/// (flags masked) so that halo2curves never panics. Subgroup membership is the caller's check.
pub fn g2_from_bytes(bytes: &[u8]) -> Result<G2Affine, PointDecodeError> {
    if bytes.len() == 64 {
        let c0: [u8; 32] = bytes[..32].try_into().expect("32 bytes");
        let mut c1: [u8; 32] = bytes[32..].try_into().expect("32 bytes");
        c1[31] &= 0b0011_1111;
        if bool::from(Fq::from_bytes(&c0).is_none()) || bool::from(Fq::from_bytes(&c1).is_none()) {
            return Err(PointDecodeError::NotOnCurve);
        }
    }
    point_from_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2_base::halo2_proofs::halo2curves::grumpkin::G1Affine as GrumpkinAffine;

    #[test]
    fn refuses_a_second_encoding_a_bad_coefficient_and_a_bad_length() {
        let g = G2Affine::generator();
        let bytes = g.to_bytes().as_ref().to_vec();
        assert_eq!(g2_from_bytes(&bytes), Ok(g));
        // The identity flag on a non-zero x: halo2curves decodes g, the encoding is not g's.
        let mut flagged = bytes.clone();
        flagged[63] |= 0b1000_0000;
        assert_eq!(g2_from_bytes(&flagged), Err(PointDecodeError::NotCanonical));
        // A coefficient >= q (all ones below the flags): halo2curves would panic on it.
        let mut big = bytes.clone();
        big[..32].fill(0xff);
        assert_eq!(g2_from_bytes(&big), Err(PointDecodeError::NotOnCurve));
        assert_eq!(
            g2_from_bytes(&bytes[..63]),
            Err(PointDecodeError::Length { expected: 64 })
        );
        let p = GrumpkinAffine::generator();
        let enc = p.to_bytes();
        assert_eq!(point_from_bytes::<GrumpkinAffine>(enc.as_ref()), Ok(p));
        let mut flagged = enc.as_ref().to_vec();
        flagged[31] |= 0b1000_0000;
        assert_eq!(
            point_from_bytes::<GrumpkinAffine>(&flagged),
            Err(PointDecodeError::NotCanonical)
        );
    }
}
