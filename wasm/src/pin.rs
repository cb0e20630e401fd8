//! What both backends' verifiers share: pins (a file is read only if its SHA-256 is the one the
//! client pinned), hex, and field elements as `0x`-hex (big-endian).

use ff::PrimeField;
use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes`, 64 lower-case hex digits (`tms`'s key fingerprint).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Refuses `bytes` unless their SHA-256 is `expected` (hex, `0x` optional); returns it.
pub fn check_pin(what: &str, bytes: &[u8], expected: &str) -> Result<String, String> {
    let expected = expected.trim_start_matches("0x");
    if expected.len() != 64 || !expected.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "{what} fingerprint {expected:?}: give 64 hex digits (its SHA-256)"
        ));
    }
    let actual = sha256_hex(bytes);
    if !actual.eq_ignore_ascii_case(expected) {
        return Err(format!(
            "{what}: fingerprint {actual} differs from the pinned {expected}"
        ));
    }
    Ok(actual)
}

/// `0x`-hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let digits: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

/// `what`, given as `0x` + 64 hex digits (big-endian), below the modulus of the scalar field
/// named `field`.
pub fn field_from_hex<F: PrimeField>(what: &str, s: &str, field: &str) -> Result<F, String> {
    let bad = || format!("{what} {s:?}: give 0x followed by 64 hex digits");
    let digits = s.strip_prefix("0x").ok_or_else(bad)?;
    let mut repr = F::Repr::default();
    let bytes = repr.as_mut();
    if digits.len() != 2 * bytes.len() || !digits.is_ascii() {
        return Err(bad());
    }
    for (i, byte) in bytes.iter_mut().rev().enumerate() {
        *byte = u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Option::from(F::from_repr(repr))
        .ok_or_else(|| format!("{what} {s}: not below the {field} scalar field modulus"))
}

/// `0x`-hex, big-endian, of a field element (whose `to_repr` is little-endian).
pub fn field_to_hex<F: PrimeField>(x: &F) -> String {
    let mut repr = x.to_repr();
    repr.as_mut().reverse();
    hex(repr.as_ref())
}

/// The message as `tms verify` describes it: its bytes (shortened) and `m`.
pub fn describe_message<F: PrimeField>(bytes: &[u8], m: &F) -> String {
    let shown = hex(bytes);
    let shown = if shown.len() > 42 {
        format!("{}..({} bytes)", &shown[..42], bytes.len())
    } else {
        shown
    };
    format!("message {shown} (m = {})", field_to_hex(m))
}
