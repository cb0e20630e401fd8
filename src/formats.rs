//! The files `tms` reads and writes. Every JSON file carries `"version": 1` and `"scheme"`.
//!
//! Encodings:
//! - a circuit-field element (BN254 Fr, e.g. a message): `"0x"` + 64 hex digits, big-endian;
//! - a Grumpkin point: its 32-byte compressed form (x little-endian, the sign of y in the top bit
//!   of the last byte; halo2curves' `GroupEncoding`), as `"0x"` + 64 hex digits in byte order;
//! - a Grumpkin scalar (a secret key, a signature's s): `"0x"` + 64 hex digits, big-endian.

use halo2_base::halo2_proofs::halo2curves::{ff::PrimeField, group::GroupEncoding};
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    curve::{GrumpkinAffine, GrumpkinScalar},
    Fr,
};

/// The only format version so far.
pub const VERSION: u32 = 1;
/// The only scheme the tool handles so far.
pub const SCHEME: &str = "schnorr-atms";

fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::from("0x");
    s.extend(bytes.iter().map(|b| format!("{b:02x}")));
    s
}

fn from_hex(s: &str, what: &str) -> Result<[u8; 32], String> {
    let digits = s
        .strip_prefix("0x")
        .ok_or_else(|| format!("{what} must start with 0x"))?;
    if digits.len() != 64 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("{what} must be 0x followed by 64 hex digits"));
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).expect("checked hex");
    }
    Ok(out)
}

/// `0x`-hex (big-endian) of a field element.
pub fn fr_to_hex(x: &Fr) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    to_hex(b.as_ref())
}

/// Parses a field element given as `0x`-hex (big-endian, below the modulus) or decimal.
pub fn fr_from_str(s: &str, what: &str) -> Result<Fr, String> {
    if s.starts_with("0x") {
        let mut b = from_hex(s, what)?;
        b.reverse();
        Option::from(Fr::from_repr(b))
            .ok_or_else(|| format!("{what} is not below the BN254 scalar field modulus"))
    } else {
        let n: u128 = s
            .parse()
            .map_err(|_| format!("{what} must be 0x-hex or a decimal integer below 2^128"))?;
        Ok(Fr::from_u128(n))
    }
}

/// Compressed hex of a Grumpkin point.
pub fn point_to_hex(p: &GrumpkinAffine) -> String {
    to_hex(p.to_bytes().as_ref())
}

/// Parses a compressed Grumpkin point; refuses encodings of points not on the curve.
pub fn point_from_hex(s: &str, what: &str) -> Result<GrumpkinAffine, String> {
    let b = from_hex(s, what)?;
    let mut repr = <GrumpkinAffine as GroupEncoding>::Repr::default();
    repr.as_mut().copy_from_slice(&b);
    Option::from(GrumpkinAffine::from_bytes(&repr))
        .ok_or_else(|| format!("{what} is not a point on the Grumpkin curve"))
}

/// `0x`-hex (big-endian) of a Grumpkin scalar.
pub fn scalar_to_hex(x: &GrumpkinScalar) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    to_hex(b.as_ref())
}

/// Parses a Grumpkin scalar (`0x`-hex, big-endian, below the group order).
pub fn scalar_from_hex(s: &str, what: &str) -> Result<GrumpkinScalar, String> {
    let mut b = from_hex(s, what)?;
    b.reverse();
    Option::from(GrumpkinScalar::from_repr(b))
        .ok_or_else(|| format!("{what} is not below the Grumpkin group order"))
}

/// Fields every JSON file starts with.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Header {
    /// Format version.
    pub version: u32,
    /// The scheme.
    pub scheme: String,
}

impl Header {
    /// The current header.
    pub fn current() -> Self {
        Self {
            version: VERSION,
            scheme: SCHEME.into(),
        }
    }

    /// Refuses other versions and schemes.
    pub fn check(&self) -> Result<(), String> {
        if self.version != VERSION {
            return Err(format!(
                "unsupported version {} (this tool reads version {VERSION})",
                self.version
            ));
        }
        if self.scheme != SCHEME {
            return Err(format!(
                "scheme {:?} is not supported (only {SCHEME:?})",
                self.scheme
            ));
        }
        Ok(())
    }
}

/// `committee.json`: the members' public keys in committee order.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitteeFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Compressed public keys.
    pub members: Vec<String>,
}

/// `member-<i>.json`: one member's secret key (keep it private).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct MemberFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Position in the committee.
    pub index: usize,
    /// Secret key.
    pub secret_key: String,
    /// Public key.
    pub public_key: String,
}

/// A signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The signer's public key.
    pub public_key: String,
    /// The signed message.
    pub message: String,
    /// The nonce commitment R.
    pub r: String,
    /// The response s.
    pub s: String,
}

/// One signature inside a certificate.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertifiedSignature {
    /// Member index.
    pub index: usize,
    /// R.
    pub r: String,
    /// s.
    pub s: String,
}

/// `certificate.json`: valid signatures by distinct members on one message.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertificateFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The message.
    pub message: String,
    /// Signatures by increasing member index.
    pub signatures: Vec<CertifiedSignature>,
}

/// `public.json`: the statement a proof is checked against.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PublicFile {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// Circuit shape.
    pub shape: schnorr_atms::AtmsShape,
    /// Committee commitment.
    pub commitment: String,
    /// Message.
    pub message: String,
    /// Threshold.
    pub threshold: u64,
}
