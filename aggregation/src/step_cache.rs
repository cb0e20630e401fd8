//! A chain's step keys kept on disk, so that extending a chain makes them once.
//!
//! [`step_keygen`](crate::chain_step::step_keygen) takes minutes and depends only on the
//! certificate key and the step circuit's parameters; `tms chain extend` stores what it made
//! with [`write_step_keys`] and reads it back with [`load_step_keys`] on the next epoch. A cache
//! is the prover's own convenience, never a source of trust: a verifier pins or regenerates its
//! step key as everywhere else, and a step proof made under other keys does not verify under
//! it. Still, a cache is **checked on load** and refused, never silently used or replaced, when:
//!
//! - its header names another certificate key digest ([`key_digest`](crate::chain_step::key_digest)
//!   form, as the step circuit fixes it) or other parameters (`k`, and the SHA-256 of the
//!   parameters' `g[0]`, `[1]_2` and `[tau]_2`, which fix every commitment of the key);
//! - its bytes were altered: the file ends with the SHA-256 of everything before it, checked in
//!   a first pass before anything is parsed;
//! - what it holds is not a step key as [`StepKeys::from_parts`] checks one (the step key's
//!   digest, recomputed from the key read back, must be the one the header states; the
//!   stand-in must have the step's protocol and the base case's inputs).
//!
//! The file: `TMSSTEPK`, the header's length (4 bytes, little-endian) and its JSON
//! ([`StepKeysHeader`]), the stand-in's length and its JSON, the proving key (halo2's raw
//! bytes, the verifying key first), then the SHA-256 trailer.

use std::{
    fs,
    io::{self, BufReader, Read, Write},
    path::Path,
};

use halo2_base::{
    gates::flex_gate::MultiPhaseThreadBreakPoints,
    halo2_proofs::{
        halo2curves::{bn256::Bn256, group::GroupEncoding},
        plonk::ProvingKey,
        poly::{
            commitment::{Params, ParamsProver},
            kzg::commitment::ParamsKZG,
        },
        SerdeFormat,
    },
};
use sha2::{Digest, Sha256};
use snark_verifier_sdk::{
    halo2::aggregation::{AggregationCircuit, AggregationConfigParams},
    Snark,
};
use tms_gadgets::Fr;

use crate::{chain_step::StepKeys, AggregationKeys};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"TMSSTEPK";

/// The header's `format`.
pub const STEP_KEYS_FORMAT: &str = "tms-chain-step-keys-v1";

/// The largest header or stand-in JSON read (both are a few KB to a few hundred KB).
const MAX_JSON_BYTES: usize = 64 << 20;

/// The trailer: SHA-256 of everything before it.
const TRAILER_BYTES: u64 = 32;

/// What a step key file says it holds, checked before its body is read.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct StepKeysHeader {
    /// [`STEP_KEYS_FORMAT`].
    pub format: String,
    /// The certificate key's digest, `0x` and 64 hex digits (big-endian).
    pub certificate_key: String,
    /// The step key's digest (what every proof of the chain carries), same form.
    pub step_key: String,
    /// [`params_identity`] of the step circuit's parameters.
    pub params: String,
    /// The step circuit's layout (`degree` is its `k`).
    pub config: AggregationConfigParams,
    /// Where halo2-base broke the rows into columns at keygen.
    pub break_points: MultiPhaseThreadBreakPoints,
    /// Public inputs of a step proof.
    pub num_instances: usize,
    /// Advice cells of the step circuit.
    pub advice_cells: usize,
}

/// Why a step key file is refused.
#[derive(Debug, thiserror::Error)]
pub enum StepCacheError {
    /// The file cannot be read or written.
    #[error("{0}")]
    Io(String),
    /// Not a step key file, or not one this version reads.
    #[error("not a step key file: {0}")]
    Malformed(String),
    /// Step keys for another certificate key.
    #[error("step keys for certificate key {cached}, not for this certificate key ({expected})")]
    OtherCertificateKey {
        /// The digest the file names.
        cached: String,
        /// The digest of the certificate key given.
        expected: String,
    },
    /// Step keys made at other parameters.
    #[error("step keys made at other parameters ({cached}), not these ({expected})")]
    OtherParameters {
        /// `k` and identity the file names.
        cached: String,
        /// Those of the parameters given.
        expected: String,
    },
    /// The bytes are not those written: the SHA-256 trailer does not match.
    #[error("altered or truncated: its SHA-256 trailer does not match its contents")]
    Altered,
    /// The contents are not step keys for what the header says.
    #[error("not the step keys its header names: {0}")]
    Inconsistent(String),
}

/// `0x` and the big-endian hex digits of `value`.
pub fn fr_hex(value: &Fr) -> String {
    let mut bytes = value.to_bytes();
    bytes.reverse();
    format!("0x{}", hex(&bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What identifies KZG parameters for a step key: `k` and the SHA-256 of `g[0]`, `[1]_2` and
/// `[tau]_2` (the last fixes tau, hence every commitment the key holds), as `k=K sha256:HEX`.
pub fn params_identity(params: &ParamsKZG<Bn256>) -> String {
    let mut hash = Sha256::new();
    hash.update(params.k().to_le_bytes());
    hash.update(params.get_g()[0].to_bytes());
    hash.update(params.g2().to_bytes());
    hash.update(params.s_g2().to_bytes());
    format!("k={} sha256:{}", params.k(), hex(&hash.finalize()))
}

/// A writer that hashes what it passes on and keeps the first error (halo2's key writer drops
/// some of them).
struct HashingWriter<W: Write> {
    inner: W,
    hash: Sha256,
    error: Option<io::Error>,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.inner.write(buf) {
            Ok(n) => {
                self.hash.update(&buf[..n]);
                Ok(n)
            }
            Err(e) => {
                let reported = io::Error::new(e.kind(), e.to_string());
                self.error.get_or_insert(e);
                Err(reported)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `keys` (made at `params`) to `out` in the file's layout, the SHA-256 trailer last.
/// `out` is a file being written whole (the caller renames it into place when this returns:
/// gigabytes, so it is streamed, never held twice in memory).
pub fn write_step_keys(
    out: impl Write,
    params: &ParamsKZG<Bn256>,
    keys: &StepKeys,
) -> Result<(), StepCacheError> {
    let header = StepKeysHeader {
        format: STEP_KEYS_FORMAT.into(),
        certificate_key: fr_hex(&keys.certificate_key),
        step_key: fr_hex(&keys.step_key),
        params: params_identity(params),
        config: keys.keys.config,
        break_points: keys.keys.break_points.clone(),
        num_instances: keys.keys.num_instances,
        advice_cells: keys.keys.advice_cells,
    };
    let header = serde_json::to_vec(&header).expect("a serialisable header");
    let stand_in = serde_json::to_vec(keys.stand_in()).expect("a serialisable snark");
    let io = |e: io::Error| StepCacheError::Io(format!("cannot write: {e}"));
    let mut out = HashingWriter {
        inner: out,
        hash: Sha256::new(),
        error: None,
    };
    out.write_all(MAGIC).map_err(io)?;
    for json in [&header, &stand_in] {
        out.write_all(&(json.len() as u32).to_le_bytes())
            .map_err(io)?;
        out.write_all(json).map_err(io)?;
    }
    // halo2 unwraps some write errors: a full disk panics there.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        keys.keys.pk.write(&mut out, SerdeFormat::RawBytes)
    }))
    .map_err(|_| StepCacheError::Io("cannot write the proving key".into()))?
    .map_err(io)?;
    if let Some(e) = out.error.take() {
        return Err(io(e));
    }
    let HashingWriter {
        mut inner, hash, ..
    } = out;
    inner.write_all(&hash.finalize()).map_err(io)?;
    inner.flush().map_err(io)
}

/// Reads `len` bytes of JSON after their 4-byte length, at most [`MAX_JSON_BYTES`].
fn read_json_block<T: serde::de::DeserializeOwned>(
    reader: &mut impl Read,
    what: &str,
) -> Result<T, StepCacheError> {
    let malformed = |m: String| StepCacheError::Malformed(m);
    let mut len = [0u8; 4];
    reader
        .read_exact(&mut len)
        .map_err(|_| malformed(format!("too short for its {what}")))?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_JSON_BYTES {
        return Err(malformed(format!("its {what} claims {len} bytes")));
    }
    let mut json = vec![0u8; len];
    reader
        .read_exact(&mut json)
        .map_err(|_| malformed(format!("too short for its {what}")))?;
    serde_json::from_slice(&json).map_err(|e| malformed(format!("its {what}: {e}")))
}

/// The header of the step key file at `path`, after its magic bytes (the body is not read).
pub fn read_step_keys_header(path: &Path) -> Result<StepKeysHeader, StepCacheError> {
    let file = fs::File::open(path).map_err(|e| StepCacheError::Io(format!("cannot read: {e}")))?;
    let mut reader = BufReader::new(file);
    let mut magic = [0u8; 8];
    if reader.read_exact(&mut magic).is_err() || &magic != MAGIC {
        return Err(StepCacheError::Malformed(
            "it does not start with TMSSTEPK".into(),
        ));
    }
    let header: StepKeysHeader = read_json_block(&mut reader, "header")?;
    if header.format != STEP_KEYS_FORMAT {
        return Err(StepCacheError::Malformed(format!(
            "format {:?}, expected {STEP_KEYS_FORMAT}",
            header.format
        )));
    }
    Ok(header)
}

/// Whether the file at `path` ends with the SHA-256 of everything before it (read in pieces:
/// a step key file runs to gigabytes).
fn trailer_matches(path: &Path) -> Result<bool, StepCacheError> {
    let io = |e: io::Error| StepCacheError::Io(format!("cannot read: {e}"));
    let mut file = fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let Some(body) = len.checked_sub(TRAILER_BYTES) else {
        return Ok(false);
    };
    let mut hash = Sha256::new();
    let mut left = body;
    let mut buf = vec![0u8; 8 << 20];
    while left > 0 {
        let n = (left.min(buf.len() as u64)) as usize;
        file.read_exact(&mut buf[..n]).map_err(io)?;
        hash.update(&buf[..n]);
        left -= n as u64;
    }
    let mut trailer = [0u8; TRAILER_BYTES as usize];
    file.read_exact(&mut trailer).map_err(io)?;
    Ok(hash.finalize().as_slice() == trailer)
}

/// A reader that counts what it reads.
struct CountingReader<R: Read> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// The step keys at `path` for certificates under the key of digest `certificate_key`, at the
/// step circuit's `params`, checked as the module documentation says; refused otherwise.
pub fn load_step_keys(
    path: &Path,
    params: &ParamsKZG<Bn256>,
    certificate_key: Fr,
) -> Result<StepKeys, StepCacheError> {
    // What the header says first (a few bytes): another certificate key or other parameters
    // are named before gigabytes are hashed.
    let header = read_step_keys_header(path)?;
    let expected = fr_hex(&certificate_key);
    if header.certificate_key != expected {
        return Err(StepCacheError::OtherCertificateKey {
            cached: header.certificate_key,
            expected,
        });
    }
    let identity = params_identity(params);
    if header.params != identity || header.config.degree != params.k() {
        return Err(StepCacheError::OtherParameters {
            cached: header.params,
            expected: identity,
        });
    }
    // Then every byte, before any of the body is parsed.
    if !trailer_matches(path)? {
        return Err(StepCacheError::Altered);
    }
    let io = |e: io::Error| StepCacheError::Io(format!("cannot read: {e}"));
    let file = fs::File::open(path).map_err(io)?;
    let body = file.metadata().map_err(io)?.len() - TRAILER_BYTES;
    let mut reader = CountingReader {
        inner: BufReader::with_capacity(8 << 20, file),
        read: 0,
    };
    let mut magic = [0u8; 8];
    reader.read_exact(&mut magic).map_err(io)?;
    let _: StepKeysHeader = read_json_block(&mut reader, "header")?;
    let stand_in: Snark = read_json_block(&mut reader, "stand-in")?;
    let inconsistent = |m: &str| StepCacheError::Inconsistent(m.into());
    let pk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ProvingKey::read::<_, AggregationCircuit>(&mut reader, SerdeFormat::RawBytes, header.config)
    }))
    .map_err(|_| inconsistent("the proving key does not read with its header's layout"))?
    .map_err(|e| StepCacheError::Inconsistent(format!("the proving key: {e}")))?;
    if reader.read != body {
        return Err(inconsistent("bytes after the proving key"));
    }
    let keys = AggregationKeys {
        pk,
        config: header.config,
        break_points: header.break_points,
        num_instances: header.num_instances,
        advice_cells: header.advice_cells,
    };
    let keys = StepKeys::from_parts(params, keys, certificate_key, stand_in)
        .map_err(|e| StepCacheError::Inconsistent(e.to_string()))?;
    if fr_hex(&keys.step_key) != header.step_key {
        return Err(StepCacheError::Inconsistent(format!(
            "its key's digest is {}, the header says {}",
            fr_hex(&keys.step_key),
            header.step_key
        )));
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    //! The cache at a size CI affords: the "step keys" are a stand-in's own keys at k = 12 (an
    //! aggregation circuit's shape, a step proof's public inputs), which every check of
    //! [`load_step_keys`] treats as it treats the real step keys at k = 22.
    use rand::SeedableRng;
    use tms_gadgets::proving::{params::kzg_params, MultiOpen, Transcript};

    use super::*;
    use crate::{chain_step::stand_in_inputs, snark::node_protocol, stand_in::stand_in_with_keys};

    /// Small step keys for the certificate key digest `certificate_key`.
    fn small_step_keys(params: &ParamsKZG<Bn256>, certificate_key: Fr) -> StepKeys {
        let layout = AggregationConfigParams {
            degree: params.k(),
            num_advice: 1,
            num_lookup_advice: 1,
            num_fixed: 1,
            lookup_bits: params.k() as usize - 1,
        };
        let inputs = stand_in_inputs(params);
        let (made, keys) = stand_in_with_keys(
            params,
            layout,
            &inputs,
            Transcript::Poseidon,
            MultiOpen::Shplonk,
        )
        .expect("a stand-in");
        let stand_in = Snark::new(
            node_protocol(params, &made.vk, inputs.len()),
            vec![inputs],
            made.proof,
        );
        StepKeys::from_parts(params, keys, certificate_key, stand_in).expect("step keys")
    }

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tms-step-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// The file with its header replaced by `edit`'s and the trailer recomputed: a deliberate
    /// edit that the SHA-256 trailer alone cannot see.
    fn rewritten(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
        let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        let mut header: serde_json::Value = serde_json::from_slice(&bytes[12..12 + len]).unwrap();
        edit(&mut header);
        let json = serde_json::to_vec(&header).unwrap();
        let mut out = bytes[..8].to_vec();
        out.extend((json.len() as u32).to_le_bytes());
        out.extend(json);
        out.extend(&bytes[12 + len..bytes.len() - 32]);
        let trailer = Sha256::digest(&out);
        out.extend(trailer);
        out
    }

    #[test]
    fn step_keys_round_trip_and_every_change_is_refused() {
        let params = kzg_params(12);
        let certificate_key = Fr::from(1234);
        let keys = small_step_keys(&params, certificate_key);
        let d = dir("round-trip");
        let path = d.join("chain-step.keys");
        let mut bytes = Vec::new();
        write_step_keys(&mut bytes, &params, &keys).unwrap();
        fs::write(&path, &bytes).unwrap();

        // Honest: the same proving key (verifying key first), digests and stand-in.
        let loaded = load_step_keys(&path, &params, certificate_key).expect("read back");
        let raw = |k: &StepKeys| k.keys.pk.to_bytes(SerdeFormat::RawBytes);
        assert_eq!(raw(&loaded), raw(&keys));
        assert_eq!(loaded.step_key, keys.step_key);
        assert_eq!(loaded.certificate_key, certificate_key);
        assert_eq!(loaded.stand_in().proof, keys.stand_in().proof);
        assert_eq!(loaded.keys.break_points, keys.keys.break_points);

        // Another certificate key: named, both digests in the message.
        let err = load_step_keys(&path, &params, Fr::from(1235))
            .err()
            .expect("refused");
        assert!(
            matches!(err, StepCacheError::OtherCertificateKey { .. }),
            "{err}"
        );
        assert!(err.to_string().contains(&fr_hex(&Fr::from(1235))), "{err}");

        // Other parameters (another tau at the same k).
        let other = ParamsKZG::<Bn256>::setup(12, rand_chacha::ChaCha20Rng::seed_from_u64(5));
        let err = load_step_keys(&path, &other, certificate_key)
            .err()
            .expect("refused");
        assert!(
            matches!(err, StepCacheError::OtherParameters { .. }),
            "{err}"
        );

        // One byte changed anywhere in the body or the trailer, or the file cut short.
        let header_end = 12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        for at in [
            header_end + 10,
            bytes.len() / 2,
            bytes.len() - 40,
            bytes.len() - 1,
        ] {
            let mut altered = bytes.clone();
            altered[at] ^= 1;
            fs::write(&path, &altered).unwrap();
            let err = load_step_keys(&path, &params, certificate_key)
                .err()
                .expect("refused");
            assert!(matches!(err, StepCacheError::Altered), "byte {at}: {err}");
        }
        fs::write(&path, &bytes[..bytes.len() - 1000]).unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Altered), "{err}");

        // A header edited with its trailer recomputed: the contents are checked against it.
        fs::write(
            &path,
            rewritten(&bytes, |h| h["step_key"] = fr_hex(&Fr::from(7)).into()),
        )
        .unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Inconsistent(_)), "{err}");
        fs::write(&path, rewritten(&bytes, |h| h["num_instances"] = 16.into())).unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Inconsistent(_)), "{err}");

        // Not a step key file at all.
        fs::write(&path, b"{\"format\":\"tms-aggregation-vk-v1\"}").unwrap();
        let err = load_step_keys(&path, &params, certificate_key)
            .err()
            .expect("refused");
        assert!(matches!(err, StepCacheError::Malformed(_)), "{err}");

        // The rewrite helper keeps an unedited file intact (so the refusals above are the
        // edits').
        fs::write(&path, rewritten(&bytes, |_| {})).unwrap();
        assert!(load_step_keys(&path, &params, certificate_key).is_ok());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_stand_in_not_of_the_base_case_is_refused() {
        let params = kzg_params(12);
        let keys = small_step_keys(&params, Fr::from(1));
        let mut stand_in = keys.stand_in().clone();
        stand_in.instances[0][crate::ACCUMULATOR_LIMBS + 3] = Fr::from(1); // one epoch, not zero
        let StepKeys { keys, .. } = keys;
        let err = StepKeys::from_parts(&params, keys, Fr::from(1), stand_in)
            .err()
            .expect("refused");
        assert!(err.to_string().contains("base case"), "{err}");
    }
}
