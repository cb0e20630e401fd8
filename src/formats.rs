//! The files `tms` reads and writes. Every JSON file carries `"version": 1` and `"scheme"`
//! (`schnorr-atms`, `bls-atms` or `mithril`); `docs/src/reference/formats.md` shows one example of each.
//!
//! Encodings (all `0x`-hex):
//! - bytes (a message): `0x` + two hex digits per byte, any length;
//! - a circuit-field element (BN254 Fr): 64 hex digits, big-endian (the command line also takes
//!   decimal, both below r);
//! - a Grumpkin point: its 32-byte compressed form (x little-endian, the sign of y in the top bit
//!   of the last byte; halo2curves' `GroupEncoding`), in byte order;
//! - a Grumpkin scalar (a secret key, a signature's s): 64 hex digits, big-endian;
//! - a Schnorr signature in one string (a Schnorr key's proof of possession): `R`'s 32-byte
//!   compressed form followed by `s`'s 32 big-endian bytes (128 hex digits);
//! - BN254 G1 and G2 points (BLS keys, signatures): halo2curves' compressed `GroupEncoding`
//!   (32 and 64 bytes), in byte order; a BLS secret key is an Fr element.

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{G1Affine, G2Affine},
    ff::PrimeField,
    group::GroupEncoding,
};
use num_bigint::BigUint;
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    curve::{fr_modulus, GrumpkinAffine, GrumpkinScalar},
    encoding::{g2_from_bytes, point_from_bytes, PointDecodeError},
    signature::schnorr::Signature,
    Fr,
};

use crate::options::Scheme;

/// The only format version so far.
pub const VERSION: u32 = 1;

/// `0x`-hex of bytes.
pub fn bytes_to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + 2 * bytes.len());
    s.push_str("0x");
    s.extend(bytes.iter().map(|b| format!("{b:02x}")));
    s
}

/// Parses `0x`-hex bytes of any length.
pub fn bytes_from_hex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    let digits = s
        .strip_prefix("0x")
        .ok_or_else(|| format!("{what} must start with 0x"))?;
    if digits.len() % 2 != 0 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "{what} must be 0x followed by an even number of hex digits"
        ));
    }
    Ok((0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("checked hex"))
        .collect())
}

fn fixed_from_hex<const N: usize>(s: &str, what: &str) -> Result<[u8; N], String> {
    bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by {} hex digits", 2 * N))
}

/// `0x`-hex (big-endian) of a field element.
pub fn fr_to_hex(x: &Fr) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    bytes_to_hex(b.as_ref())
}

/// Parses a field element: `0x` + 64 hex digits (big-endian) or decimal, below r.
pub fn fr_from_str(s: &str, what: &str) -> Result<Fr, String> {
    if s.starts_with("0x") {
        let mut b = fixed_from_hex::<32>(s, what)?;
        b.reverse();
        Option::from(Fr::from_repr(b))
            .ok_or_else(|| format!("{what} is not below the BN254 scalar field modulus"))
    } else {
        if s.is_empty() || s.len() > 80 || !s.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!("{what} must be 0x-hex or a decimal integer"));
        }
        let n: BigUint = s.parse().map_err(|_| format!("{what}: not a number"))?;
        if n >= fr_modulus() {
            return Err(format!(
                "{what} is not below the BN254 scalar field modulus"
            ));
        }
        let mut le = n.to_bytes_le();
        le.resize(32, 0);
        Ok(Fr::from_repr(le.try_into().expect("32 bytes")).expect("below r"))
    }
}

fn encoding_from_hex<P: GroupEncoding>(s: &str, what: &str, curve: &str) -> Result<P, String> {
    decode_error(point_from_bytes(&bytes_from_hex(s, what)?), what, curve)
}

/// The CLI's wording of a strict decoding failure.
fn decode_error<P>(
    decoded: std::result::Result<P, PointDecodeError>,
    what: &str,
    curve: &str,
) -> Result<P, String> {
    decoded.map_err(|e| match e {
        PointDecodeError::Length { expected } => {
            format!("{what} must be 0x followed by {} hex digits", 2 * expected)
        }
        PointDecodeError::NotOnCurve => format!("{what} is not a point on {curve}"),
        PointDecodeError::NotCanonical => {
            format!("{what} is not the canonical encoding of its point")
        }
    })
}

/// Compressed hex of a point.
pub fn point_to_hex<P: GroupEncoding>(p: &P) -> String {
    bytes_to_hex(p.to_bytes().as_ref())
}

/// Parses a compressed Grumpkin point; refuses encodings of points not on the curve.
pub fn grumpkin_from_hex(s: &str, what: &str) -> Result<GrumpkinAffine, String> {
    encoding_from_hex(s, what, "the Grumpkin curve")
}

/// Parses a compressed BN254 G1 point (on the curve; G1 has prime order).
pub fn g1_from_hex(s: &str, what: &str) -> Result<G1Affine, String> {
    encoding_from_hex(s, what, "BN254 G1")
}

/// Parses a compressed BN254 G2 point (on the twist; subgroup membership is checked by the
/// scheme where it matters).
pub fn g2_from_hex(s: &str, what: &str) -> Result<G2Affine, String> {
    // halo2curves' Fq2 decoding unwraps each coefficient (a panic on a value >= q, found by the
    // `encodings` fuzz target): `g2_from_bytes` checks both before decoding.
    decode_error(
        g2_from_bytes(&bytes_from_hex(s, what)?),
        what,
        "the BN254 G2 twist",
    )
}

/// `0x`-hex (big-endian) of a Grumpkin scalar.
pub fn scalar_to_hex(x: &GrumpkinScalar) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    bytes_to_hex(b.as_ref())
}

/// Parses a Grumpkin scalar (`0x`-hex, big-endian, below the group order).
pub fn scalar_from_hex(s: &str, what: &str) -> Result<GrumpkinScalar, String> {
    let mut b = fixed_from_hex::<32>(s, what)?;
    b.reverse();
    Option::from(GrumpkinScalar::from_repr(b))
        .ok_or_else(|| format!("{what} is not below the Grumpkin group order"))
}

/// A Schnorr signature in one string: `R` compressed, then `s` big-endian (64 bytes).
pub fn schnorr_signature_to_hex(sig: &Signature) -> String {
    let mut s = sig.s.to_repr();
    s.as_mut().reverse();
    bytes_to_hex(&[sig.r.to_bytes().as_ref(), s.as_ref()].concat())
}

/// Parses [`schnorr_signature_to_hex`]'s form: `R` on the curve and canonically encoded, `s`
/// below the group order.
pub fn schnorr_signature_from_hex(s: &str, what: &str) -> Result<Signature, String> {
    let bytes = fixed_from_hex::<64>(s, what)?;
    let r = decode_error(
        point_from_bytes(&bytes[..32]),
        &format!("{what}'s R"),
        "the Grumpkin curve",
    )?;
    let mut s_bytes: [u8; 32] = bytes[32..].try_into().expect("32 bytes");
    s_bytes.reverse();
    let s = Option::from(GrumpkinScalar::from_repr(s_bytes))
        .ok_or_else(|| format!("{what}'s s is not below the Grumpkin group order"))?;
    Ok(Signature { r, s })
}

/// An ATMS signature file: who signed which message bytes, and the signature `S` (its fields
/// inline: `signature` for BLS, `r` and `s` for Schnorr).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile<S> {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The signer's public key.
    pub public_key: String,
    /// The message bytes.
    pub message: String,
    /// The signature.
    #[serde(flatten)]
    pub signature: S,
}

/// Fields every JSON file starts with.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// The scheme.
    pub scheme: String,
    /// The backend: absent on BN254 files, `"cardano"` on Cardano-backend files (BLS12-381,
    /// Jubjub), so that neither backend reads the other's files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
}

impl Header {
    /// The current header for `scheme`.
    pub fn new(scheme: Scheme) -> Self {
        Self {
            version: VERSION,
            scheme: scheme.name().into(),
            backend: None,
        }
    }

    /// The current header for `scheme` on `backend` (`None` for BN254).
    pub fn on(scheme: Scheme, backend: Option<&str>) -> Self {
        Self {
            backend: backend.map(str::to_owned),
            ..Self::new(scheme)
        }
    }

    /// Refuses other versions and other schemes than `scheme`, and files of the Cardano backend.
    pub fn check(&self, scheme: Scheme) -> Result<(), String> {
        self.check_on(scheme, None)
    }

    /// Refuses other versions, schemes than `scheme` and backends than `backend` (`None`: BN254).
    pub fn check_on(&self, scheme: Scheme, backend: Option<&str>) -> Result<(), String> {
        if self.backend.as_deref() != backend {
            let name = |b: Option<&str>| b.unwrap_or("bn254").to_owned();
            return Err(format!(
                "a {} backend file, expected {} (give --backend {})",
                name(self.backend.as_deref()),
                name(backend),
                name(self.backend.as_deref())
            ));
        }
        if self.version != VERSION {
            return Err(format!(
                "unsupported version {} (this tool reads version {VERSION})",
                self.version
            ));
        }
        if self.scheme != scheme.name() {
            return Err(format!(
                "a {:?} file, expected {:?} (give --scheme {})",
                self.scheme,
                scheme.name(),
                self.scheme
            ));
        }
        Ok(())
    }
}

/// A member's secret key file (keep it private). Schnorr ATMS and Mithril: Grumpkin keys; BLS:
/// an Fr secret key and a G1 public key.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct MemberFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Position in the committee (or the stakes file).
    pub index: usize,
    /// Secret key.
    pub secret_key: String,
    /// Public key.
    pub public_key: String,
}

/// The statement a proof was made for, written by `tms prove`. A verifier never trusts it: it
/// recomputes every public input from the committee and message it holds and refuses a file
/// that differs.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PublicFile<S> {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Circuit shape.
    pub shape: S,
    /// The committee (or registration) commitment as the circuit sees it.
    pub commitment: String,
    /// The message bytes.
    pub message: String,
    /// The threshold t (ATMS) or quorum k (Mithril).
    pub threshold: u64,
}

impl<S> PublicFile<S> {
    /// The statement of `scheme` for `shape`: commitment, message bytes, threshold (or quorum).
    pub fn new(scheme: Scheme, shape: S, commitment: &Fr, message: &[u8], threshold: u64) -> Self {
        Self {
            header: Header::new(scheme),
            shape,
            commitment: fr_to_hex(commitment),
            message: bytes_to_hex(message),
            threshold,
        }
    }
}
