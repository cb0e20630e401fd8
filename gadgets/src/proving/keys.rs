//! Key files, one format for every circuit: the header as JSON after its length (4 bytes,
//! little-endian), then halo2's raw key. The header carries what is needed to read the key back
//! and rebuild the layout the prover reproduces: a format tag naming the circuit, its shape, the
//! column configuration and halo2-base's break points.
//!
//! # What binds a key file
//! The header is not authenticated by the body: a file whose header was edited may still parse.
//! Two checks bind them, both for a verifier who did not make the key:
//! - the [`fingerprint`] (SHA-256 of the whole file) that keygen prints, compared by whoever
//!   receives the file (`tms verify --vk-fingerprint`);
//! - regenerating the verifying key from the header's shape and comparing the bytes
//!   (`tms verify --regenerate-vk`): keygen is deterministic, so an honest file is reproduced
//!   exactly.

use std::marker::PhantomData;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::G1Affine,
    plonk::{Circuit, ProvingKey, VerifyingKey},
    SerdeFormat,
};
use serde::{de::DeserializeOwned, Serialize};
use sha2::{Digest, Sha256};

use halo2_base::gates::circuit::BaseCircuitParams;

use super::stats::CircuitStats;
use crate::{hybrid::HybridParams, Fr};

/// The format version of every key file (3: one generic format for all circuits).
pub const KEY_FORMAT_VERSION: u32 = 3;

/// A circuit shape that names its key files: `tms-<CIRCUIT>-pk-v3`, `tms-<CIRCUIT>-vk-v3`.
pub trait KeyedShape: Serialize + DeserializeOwned + Clone {
    /// The circuit's name in the format tags (e.g. `schnorr-atms`).
    const CIRCUIT: &'static str;

    /// What a benchmark's `record:` line says of this shape beside the circuit statistics.
    fn record_detail(&self, _stats: &CircuitStats) -> String {
        String::new()
    }
}

/// The most bytes a key file's JSON header may have (real ones have a few hundred).
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// Column configurations a key file may declare: bounded before any circuit is configured from
/// them (a header is outside data, and configuring allocates per column).
pub trait BoundedParams {
    /// Refuses a configuration no circuit of this workspace has (too many rows or columns).
    fn check_bounds(&self) -> Result<(), String>;
    /// log2 of the circuit's rows.
    fn k(&self) -> u32;
}

/// Refuses halo2 verifying-key bytes (also a proving key's start) whose version byte is not 2 or
/// whose `k` is not `k`, before halo2's reader builds its evaluation domain from that `k`: the
/// domain's tables are allocated for `2^k` and the extended size, so a key file of 1.4 KB whose
/// header says k = 15 but whose key says k = 25 made the reader take 18.9 GB (the `key_files`
/// fuzz regression).
pub fn check_key_prefix(body: &[u8], k: u32) -> Result<(), String> {
    match body {
        [2, a, b, c, d, ..] if u32::from_le_bytes([*a, *b, *c, *d]) == k => Ok(()),
        [2, a, b, c, d, ..] => Err(format!(
            "verifying key: k = {} in the key, {k} in the header",
            u32::from_le_bytes([*a, *b, *c, *d])
        )),
        [_, _, _, _, _, ..] => Err("verifying key: unexpected version byte".into()),
        _ => Err("verifying key: truncated".into()),
    }
}

fn check_base_bounds(p: &BaseCircuitParams) -> Result<(), String> {
    let advice: usize = p.num_advice_per_phase.iter().sum();
    let lookup: usize = p.num_lookup_advice_per_phase.iter().sum();
    if p.k > 28
        || p.num_advice_per_phase.len() > 3
        || p.num_lookup_advice_per_phase.len() > 3
        || advice > 1024
        || lookup > 256
        || p.num_fixed > 256
        || p.num_instance_columns > 8
        || p.lookup_bits.is_some_and(|b| b >= p.k.max(1))
    {
        return Err(format!(
            "column configuration out of bounds (k = {}, {advice} advice, {lookup} lookup, {} fixed, {} instance columns)",
            p.k, p.num_fixed, p.num_instance_columns
        ));
    }
    Ok(())
}

impl BoundedParams for BaseCircuitParams {
    fn check_bounds(&self) -> Result<(), String> {
        check_base_bounds(self)
    }
    fn k(&self) -> u32 {
        self.k as u32
    }
}

impl BoundedParams for HybridParams {
    fn check_bounds(&self) -> Result<(), String> {
        check_base_bounds(&self.base)
    }
    fn k(&self) -> u32 {
        self.base.k as u32
    }
}

/// Runs one of halo2's readers, turning a panic on malformed bytes into an error (halo2's key
/// readers unwrap in places; the bounds above keep allocations sane before this).
fn guarded<T>(what: &str, read: impl FnOnce() -> std::io::Result<T>) -> Result<T, String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read));
    std::panic::set_hook(previous);
    match result {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("{what}: {e}")),
        Err(_) => Err(format!("{what}: malformed key bytes")),
    }
}

/// Checks the layout of a proving key's polynomials (after its verifying key) before halo2's
/// reader allocates what their length fields claim: three polynomials, then four vectors of
/// polynomials, each length within the bytes that remain, nothing left over. (A 1 KiB file
/// claiming a 4-billion-element polynomial made the reader run out of memory: found by the
/// `key_files` fuzz target.)
fn check_pk_polynomials(mut rest: &[u8]) -> Result<(), String> {
    const ELEMENT: usize = 32;
    fn take_u32(rest: &mut &[u8]) -> Result<usize, String> {
        let (len, tail) = rest
            .split_first_chunk::<4>()
            .ok_or("proving key: truncated")?;
        *rest = tail;
        Ok(u32::from_be_bytes(*len) as usize)
    }
    fn take_polynomial(rest: &mut &[u8]) -> Result<(), String> {
        let len = take_u32(rest)?;
        let bytes = len
            .checked_mul(ELEMENT)
            .filter(|b| *b <= rest.len())
            .ok_or("proving key: a polynomial longer than the file")?;
        *rest = &rest[bytes..];
        Ok(())
    }
    for _ in 0..3 {
        take_polynomial(&mut rest)?;
    }
    for _ in 0..4 {
        let count = take_u32(&mut rest)?;
        if count > rest.len() / 4 {
            return Err("proving key: more polynomials than the file holds".into());
        }
        for _ in 0..count {
            take_polynomial(&mut rest)?;
        }
    }
    if !rest.is_empty() {
        return Err(format!("proving key: {} bytes after its end", rest.len()));
    }
    Ok(())
}

/// The header of a key file.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct KeyHeader<S, P> {
    /// The file's format tag (e.g. `tms-schnorr-atms-pk-v3`), checked on reading.
    pub format: String,
    /// The circuit's shape.
    pub shape: S,
    /// The column configuration (the circuit's `Params`).
    pub config: P,
    /// halo2-base's break points.
    pub break_points: Vec<Vec<usize>>,
}

/// SHA-256 (hex) of a whole key file: what keygen prints and a verifier compares.
pub fn fingerprint(file: &[u8]) -> String {
    Sha256::digest(file)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn format_tag<S: KeyedShape>(kind: &str) -> String {
    format!("tms-{}-{kind}-v{KEY_FORMAT_VERSION}", S::CIRCUIT)
}

fn write_key_file<S: Serialize, P: Serialize>(
    header: &KeyHeader<S, P>,
    body: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
) -> Vec<u8> {
    let json = serde_json::to_vec(header).expect("header serializes");
    let mut out = (json.len() as u32).to_le_bytes().to_vec();
    out.extend(json);
    body(&mut out).expect("writing to memory");
    out
}

/// Splits a key file into its header and body, checking the format tag; the error says what is
/// malformed.
fn read_key_file<'a, S: KeyedShape, P: DeserializeOwned>(
    bytes: &'a [u8],
    kind: &str,
) -> Result<(KeyHeader<S, P>, &'a [u8]), String> {
    let len = bytes.get(..4).ok_or("too short for a key file")?;
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    if len > MAX_HEADER_BYTES {
        return Err(format!(
            "header of {len} bytes, more than {MAX_HEADER_BYTES}"
        ));
    }
    let json = bytes
        .get(4..)
        .and_then(|rest| rest.get(..len))
        .ok_or("truncated header")?;
    let header: KeyHeader<S, P> =
        serde_json::from_slice(json).map_err(|e| format!("header: {e}"))?;
    let expected = format_tag::<S>(kind);
    if header.format != expected {
        return Err(format!(
            "expected a {expected} file, found {}",
            header.format
        ));
    }
    Ok((header, &bytes[4 + len..]))
}

/// Proving and verifying keys of one circuit shape, with the layout the prover must reproduce.
#[derive(Clone, Debug)]
pub struct CircuitKeys<S, C: Circuit<Fr>> {
    /// The shape the keys are for.
    pub shape: S,
    /// The proving key (contains the verifying key).
    pub pk: ProvingKey<G1Affine>,
    /// Column configuration.
    pub config: C::Params,
    /// Where the virtual columns break into physical ones.
    pub break_points: Vec<Vec<usize>>,
    /// Cells, columns, k (not stored in key files: default after reading one).
    pub stats: CircuitStats,
    circuit: PhantomData<fn() -> C>,
}

impl<S: KeyedShape, C: Circuit<Fr>> CircuitKeys<S, C>
where
    C::Params: Serialize + DeserializeOwned + Clone + BoundedParams,
{
    /// Keys made by keygen.
    pub fn new(
        shape: S,
        pk: ProvingKey<G1Affine>,
        config: C::Params,
        break_points: Vec<Vec<usize>>,
        stats: CircuitStats,
    ) -> Self {
        Self {
            shape,
            pk,
            config,
            break_points,
            stats,
            circuit: PhantomData,
        }
    }

    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<G1Affine> {
        self.pk.get_vk()
    }

    fn header(&self, kind: &str) -> KeyHeader<S, C::Params> {
        KeyHeader {
            format: format_tag::<S>(kind),
            shape: self.shape.clone(),
            config: self.config.clone(),
            break_points: self.break_points.clone(),
        }
    }

    /// The proving key file.
    pub fn pk_bytes(&self) -> Vec<u8> {
        write_key_file(&self.header("pk"), |out| {
            self.pk.write(out, SerdeFormat::RawBytes)
        })
    }

    /// The verifying key file: the same header and halo2's raw verifying key.
    pub fn vk_bytes(&self) -> Vec<u8> {
        write_key_file(&self.header("vk"), |out| {
            self.vk().write(out, SerdeFormat::RawBytes)
        })
    }

    /// Reads a proving key file.
    pub fn from_pk_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (header, mut body) = read_key_file::<S, C::Params>(bytes, "pk")?;
        header.config.check_bounds()?;
        check_key_prefix(body, header.config.k())?;
        let mut after_vk = body;
        let config = header.config.clone();
        guarded("verifying key", || {
            VerifyingKey::<G1Affine>::read::<_, C>(&mut after_vk, SerdeFormat::RawBytes, config)
        })?;
        check_pk_polynomials(after_vk)?;
        let config = header.config.clone();
        let pk = guarded("proving key", || {
            ProvingKey::read::<_, C>(&mut body, SerdeFormat::RawBytes, config)
        })?;
        Ok(Self::new(
            header.shape,
            pk,
            header.config,
            header.break_points,
            CircuitStats::default(),
        ))
    }

    /// Reads a verifying key file: the shape and the key.
    pub fn read_vk(bytes: &[u8]) -> Result<(S, VerifyingKey<G1Affine>), String> {
        let (header, mut body) = read_key_file::<S, C::Params>(bytes, "vk")?;
        header.config.check_bounds()?;
        check_key_prefix(body, header.config.k())?;
        let config = header.config;
        let vk = guarded("verifying key", || {
            VerifyingKey::read::<_, C>(&mut body, SerdeFormat::RawBytes, config)
        })?;
        Ok((header.shape, vk))
    }
}

#[cfg(test)]
mod tests {
    use super::check_key_prefix;

    /// The key's own `k` must be the header's before halo2 reads it; a wrong version byte or a
    /// cut prefix is refused too.
    #[test]
    fn a_key_whose_k_is_not_its_headers_is_refused() {
        let key = |version: u8, k: u32| {
            let mut b = vec![version];
            b.extend(k.to_le_bytes());
            b.extend([0u8; 8]);
            b
        };
        assert_eq!(check_key_prefix(&key(2, 15), 15), Ok(()));
        assert_eq!(
            check_key_prefix(&key(2, 25), 15),
            Err("verifying key: k = 25 in the key, 15 in the header".into())
        );
        assert!(check_key_prefix(&key(1, 15), 15)
            .unwrap_err()
            .contains("version"));
        assert!(check_key_prefix(&key(2, 15)[..4], 15)
            .unwrap_err()
            .contains("truncated"));
    }
}
