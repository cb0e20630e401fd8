//! Aggregation keys kept on disk, so that a prover makes them once: the file both caches share
//! (a chain's step keys, [`crate::step_cache`], and an aggregation's keys, [`AggregationKeysHeader`]).
//!
//! Keygen of an aggregation circuit takes minutes (at the final wrapper's k = 22, 118 of
//! `tms aggregate prove`'s 499 CPU-s) and depends only on the inner keys, the statement and the
//! parameters. A cache is the prover's own convenience, never a source of trust: a verifier
//! pins or regenerates its aggregation key as everywhere else, and a proof made under other keys
//! does not verify under it. Still, a cache is **checked on load** and refused, never silently
//! used or replaced, when:
//!
//! - its header names other inner keys, another statement or other parameters (`k`, and the
//!   SHA-256 of the parameters' `g[0]`, `[1]_2` and `[tau]_2`, which fix every commitment of the
//!   key: [`params_identity`]);
//! - its bytes were altered: the file ends with the SHA-256 of everything before it, checked in
//!   a first pass before anything is parsed;
//! - what it holds is not the key its header names (the key's digest, recomputed from the
//!   proving key read back, must be the header's).
//!
//! What the header says of the inner keys is the prover's word: a key edited to claim other
//! inner keys reads back, and `tms aggregate prove` refuses the proof made under it (it verifies
//! every proof before writing it).
//!
//! The file: eight magic bytes, then JSON blocks (each after its length, 4 bytes
//! little-endian; the header first), the proving key (halo2's raw bytes, the verifying key
//! first), then the SHA-256 trailer.

use std::{
    fs,
    io::{self, BufReader, Read, Write},
    path::Path,
};

use halo2_base::{
    gates::flex_gate::MultiPhaseThreadBreakPoints,
    halo2_proofs::{
        halo2curves::{
            bn256::{Bn256, G1Affine},
            group::GroupEncoding,
        },
        plonk::ProvingKey,
        poly::{
            commitment::{Params, ParamsProver},
            kzg::commitment::ParamsKZG,
        },
        SerdeFormat,
    },
};
use sha2::{Digest, Sha256};
use snark_verifier_sdk::halo2::aggregation::{AggregationCircuit, AggregationConfigParams};
use tms_gadgets::Fr;

use crate::{snark::node_key_digest, AggregationKeys};

/// The largest header or stand-in JSON read (both are a few KB to a few hundred KB).
const MAX_JSON_BYTES: usize = 64 << 20;

/// The trailer: SHA-256 of everything before it.
const TRAILER_BYTES: u64 = 32;

/// Why a key file is refused.
#[derive(Debug, thiserror::Error)]
pub enum KeyCacheError {
    /// The file cannot be read or written.
    #[error("{0}")]
    Io(String),
    /// Not a key file of this kind, or not one this version reads.
    #[error("not {kind} file: {reason}")]
    Malformed {
        /// What the file should hold (`an aggregation key`).
        kind: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// Keys for another certificate (inner) key.
    #[error("keys for certificate key {cached}, not for this certificate key ({expected})")]
    OtherCertificateKey {
        /// The digest the file names.
        cached: String,
        /// The digest of the certificate key given.
        expected: String,
    },
    /// Keys for another aggregation: another number of proofs or another statement.
    #[error("keys for {cached}, not for {expected}")]
    OtherStatement {
        /// What the file names.
        cached: String,
        /// What the keys are wanted for.
        expected: String,
    },
    /// Keys made at other parameters.
    #[error("keys made at other parameters ({cached}), not these ({expected})")]
    OtherParameters {
        /// `k` and identity the file names.
        cached: String,
        /// Those of the parameters given.
        expected: String,
    },
    /// The bytes are not those written: the SHA-256 trailer does not match.
    #[error("altered or truncated: its SHA-256 trailer does not match its contents")]
    Altered,
    /// The contents are not the keys the header names.
    #[error("not the keys its header names: {0}")]
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

/// What identifies KZG parameters for a key: `k` and the SHA-256 of `g[0]`, `[1]_2` and
/// `[tau]_2` (the last fixes tau, hence every commitment the key holds), as `k=K sha256:HEX`.
pub fn params_identity(params: &ParamsKZG<Bn256>) -> String {
    let mut hash = Sha256::new();
    hash.update(params.k().to_le_bytes());
    hash.update(params.get_g()[0].to_bytes());
    hash.update(params.g2().to_bytes());
    hash.update(params.s_g2().to_bytes());
    format!("k={} sha256:{}", params.k(), hex(&hash.finalize()))
}

/// One kind of key file: its magic bytes, its header's `format` and what to call it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyFileKind {
    /// The file's first bytes.
    pub magic: &'static [u8; 8],
    /// The header's `format`.
    pub format: &'static str,
    /// What the file holds, for messages (`a step key`).
    pub name: &'static str,
}

impl KeyFileKind {
    fn malformed(&self, reason: impl Into<String>) -> KeyCacheError {
        KeyCacheError::Malformed {
            kind: self.name,
            reason: reason.into(),
        }
    }

    /// Writes the magic bytes, `blocks` (JSON, the header first), `pk` and the SHA-256 trailer
    /// to `out`, a file being written whole (gigabytes: streamed, never held twice in memory).
    pub fn write(
        &self,
        out: impl Write,
        blocks: &[&[u8]],
        pk: &ProvingKey<G1Affine>,
    ) -> Result<(), KeyCacheError> {
        let io = |e: io::Error| KeyCacheError::Io(format!("cannot write: {e}"));
        let mut out = HashingWriter {
            inner: out,
            hash: Sha256::new(),
            error: None,
        };
        out.write_all(self.magic).map_err(io)?;
        for json in blocks {
            out.write_all(&(json.len() as u32).to_le_bytes())
                .map_err(io)?;
            out.write_all(json).map_err(io)?;
        }
        // halo2 unwraps some write errors: a full disk panics there.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pk.write(&mut out, SerdeFormat::RawBytes)
        }))
        .map_err(|_| KeyCacheError::Io("cannot write the proving key".into()))?
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

    /// The header of the file at `path` (the body is not read), its `format` checked.
    pub fn header<T: serde::de::DeserializeOwned>(
        &self,
        path: &Path,
    ) -> Result<KeyFileHeader<T>, KeyCacheError> {
        let file =
            fs::File::open(path).map_err(|e| KeyCacheError::Io(format!("cannot read: {e}")))?;
        let mut reader = BufReader::new(file);
        self.magic_of(&mut reader)?;
        let header: KeyFileHeader<T> = serde_json::from_slice(&self.block(&mut reader, "header")?)
            .map_err(|e| self.malformed(format!("its header: {e}")))?;
        if header.format != self.format {
            return Err(self.malformed(format!(
                "format {:?}, expected {}",
                header.format, self.format
            )));
        }
        Ok(header)
    }

    /// The JSON blocks (`blocks` of them, the header first) and the proving key of the file at
    /// `path`, laid out as `config` says, after its trailer was checked: nothing is parsed from
    /// a file whose bytes changed, and nothing may follow the proving key.
    pub fn body(
        &self,
        path: &Path,
        blocks: usize,
        config: AggregationConfigParams,
    ) -> Result<(Vec<Vec<u8>>, ProvingKey<G1Affine>), KeyCacheError> {
        if !trailer_matches(path)? {
            return Err(KeyCacheError::Altered);
        }
        let io = |e: io::Error| KeyCacheError::Io(format!("cannot read: {e}"));
        let file = fs::File::open(path).map_err(io)?;
        let body = file.metadata().map_err(io)?.len() - TRAILER_BYTES;
        let mut reader = CountingReader {
            inner: BufReader::with_capacity(8 << 20, file),
            read: 0,
        };
        self.magic_of(&mut reader)?;
        let json = (0..blocks)
            .map(|i| self.block(&mut reader, if i == 0 { "header" } else { "block" }))
            .collect::<Result<Vec<_>, _>>()?;
        let inconsistent = |m: &str| KeyCacheError::Inconsistent(m.into());
        let pk = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ProvingKey::read::<_, AggregationCircuit>(&mut reader, SerdeFormat::RawBytes, config)
        }))
        .map_err(|_| inconsistent("the proving key does not read with its header's layout"))?
        .map_err(|e| KeyCacheError::Inconsistent(format!("the proving key: {e}")))?;
        if reader.read != body {
            return Err(inconsistent("bytes after the proving key"));
        }
        Ok((json, pk))
    }

    fn magic_of(&self, reader: &mut impl Read) -> Result<(), KeyCacheError> {
        let mut magic = [0u8; 8];
        if reader.read_exact(&mut magic).is_err() || &magic != self.magic {
            return Err(self.malformed(format!(
                "it does not start with {}",
                String::from_utf8_lossy(self.magic)
            )));
        }
        Ok(())
    }

    /// One JSON block after its 4-byte length, at most [`MAX_JSON_BYTES`].
    fn block(&self, reader: &mut impl Read, what: &str) -> Result<Vec<u8>, KeyCacheError> {
        let mut len = [0u8; 4];
        reader
            .read_exact(&mut len)
            .map_err(|_| self.malformed(format!("too short for its {what}")))?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_JSON_BYTES {
            return Err(self.malformed(format!("its {what} claims {len} bytes")));
        }
        let mut json = vec![0u8; len];
        reader
            .read_exact(&mut json)
            .map_err(|_| self.malformed(format!("too short for its {what}")))?;
        Ok(json)
    }
}

/// What both key files' headers say of the circuit's layout: what reading and using the
/// proving key takes besides its bytes.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct KeyLayout {
    /// The circuit's layout (`degree` is its `k`).
    pub config: AggregationConfigParams,
    /// Where halo2-base broke the rows into columns at keygen.
    pub break_points: MultiPhaseThreadBreakPoints,
    /// Public inputs of a proof.
    pub num_instances: usize,
    /// Advice cells of the circuit.
    pub advice_cells: usize,
}

impl KeyLayout {
    /// The layout of `keys`.
    pub fn of(keys: &AggregationKeys) -> Self {
        Self {
            config: keys.config,
            break_points: keys.break_points.clone(),
            num_instances: keys.num_instances,
            advice_cells: keys.advice_cells,
        }
    }

    /// The keys of this layout with the proving key `pk`.
    pub fn with(self, pk: ProvingKey<G1Affine>) -> AggregationKeys {
        AggregationKeys {
            pk,
            config: self.config,
            break_points: self.break_points,
            num_instances: self.num_instances,
            advice_cells: self.advice_cells,
        }
    }
}

/// What a key file says it holds, checked before its body is read: its format, what the keys
/// are for (`T`, the kind's own fields), the parameters and the layout.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct KeyFileHeader<T> {
    /// The kind's format ([`AGGREGATION_KEYS_FORMAT`], `tms-chain-step-keys-v1`).
    pub format: String,
    /// What the keys are for.
    #[serde(flatten)]
    pub keys_for: T,
    /// [`params_identity`] of the circuit's parameters.
    pub params: String,
    /// The circuit's layout.
    #[serde(flatten)]
    pub layout: KeyLayout,
}

impl<T: serde::Serialize> KeyFileHeader<T> {
    /// The header of `kind` for keys of `layout` at `params`, made for `keys_for`, as JSON.
    pub(crate) fn json(
        kind: &KeyFileKind,
        keys_for: T,
        params: &ParamsKZG<Bn256>,
        layout: KeyLayout,
    ) -> Vec<u8> {
        let header = Self {
            format: kind.format.into(),
            keys_for,
            params: params_identity(params),
            layout,
        };
        serde_json::to_vec(&header).expect("a serialisable header")
    }

    /// Checks that the header names `params` (their identity and `k`).
    pub(crate) fn check_params(&self, params: &ParamsKZG<Bn256>) -> Result<(), KeyCacheError> {
        let identity = params_identity(params);
        if self.params != identity || self.layout.config.degree != params.k() {
            return Err(KeyCacheError::OtherParameters {
                cached: self.params.clone(),
                expected: identity,
            });
        }
        Ok(())
    }
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

/// Whether the file at `path` ends with the SHA-256 of everything before it (read in pieces:
/// a key file runs to gigabytes).
fn trailer_matches(path: &Path) -> Result<bool, KeyCacheError> {
    let io = |e: io::Error| KeyCacheError::Io(format!("cannot read: {e}"));
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

/// An aggregation key file: `TMSAGGRK`, its header ([`AggregationKeysHeader`]), the proving key.
const AGGREGATION_KEYS: KeyFileKind = KeyFileKind {
    magic: b"TMSAGGRK",
    format: AGGREGATION_KEYS_FORMAT,
    name: "an aggregation key",
};

/// The aggregation key file header's `format`.
pub const AGGREGATION_KEYS_FORMAT: &str = "tms-aggregation-keys-v1";

/// What aggregation keys are for: the inner proofs' key, how many proofs, what is exposed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggregationKeysFor {
    /// The digest of the inner proofs' verifying key
    /// ([`certificate_key_digest`](crate::snark::certificate_key_digest)), `0x` and 64 hex
    /// digits.
    pub inner_key: String,
    /// The aggregation's statement and the number of proofs, as the tool names it (for
    /// example `1 schnorr-atms certificate`).
    pub statement: String,
}

/// What an aggregation key file's header says the keys are for.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AggregationKeysNamed {
    /// [`AggregationKeysFor::inner_key`].
    pub inner_key: String,
    /// [`AggregationKeysFor::statement`].
    pub statement: String,
    /// The aggregation key's digest ([`node_key_digest`]), same form as `inner_key`.
    pub key: String,
}

/// What an aggregation key file says it holds.
pub type AggregationKeysHeader = KeyFileHeader<AggregationKeysNamed>;

/// Writes `keys` (made at `params` for `wanted`) to `out` in the file's layout.
pub fn write_aggregation_keys(
    out: impl Write,
    params: &ParamsKZG<Bn256>,
    keys: &AggregationKeys,
    wanted: &AggregationKeysFor,
) -> Result<(), KeyCacheError> {
    let named = AggregationKeysNamed {
        inner_key: wanted.inner_key.clone(),
        statement: wanted.statement.clone(),
        key: fr_hex(&node_key_digest(params, keys.vk(), keys.num_instances)),
    };
    let header = KeyFileHeader::json(&AGGREGATION_KEYS, named, params, KeyLayout::of(keys));
    AGGREGATION_KEYS.write(out, &[&header], &keys.pk)
}

/// The aggregation keys at `path` for `wanted`, at the aggregation circuit's `params`, checked
/// as the module documentation says; refused otherwise.
pub fn load_aggregation_keys(
    path: &Path,
    params: &ParamsKZG<Bn256>,
    wanted: &AggregationKeysFor,
) -> Result<AggregationKeys, KeyCacheError> {
    // What the header says first (a few bytes): other keys or other parameters are named
    // before gigabytes are hashed.
    let header: AggregationKeysHeader = AGGREGATION_KEYS.header(path)?;
    let named = &header.keys_for;
    if named.inner_key != wanted.inner_key {
        return Err(KeyCacheError::OtherCertificateKey {
            cached: named.inner_key.clone(),
            expected: wanted.inner_key.clone(),
        });
    }
    if named.statement != wanted.statement {
        return Err(KeyCacheError::OtherStatement {
            cached: named.statement.clone(),
            expected: wanted.statement.clone(),
        });
    }
    header.check_params(params)?;
    let (_, pk) = AGGREGATION_KEYS.body(path, 1, header.layout.config)?;
    let cached_key = header.keys_for.key;
    let keys = header.layout.with(pk);
    let key = fr_hex(&node_key_digest(params, keys.vk(), keys.num_instances));
    if key != cached_key {
        return Err(KeyCacheError::Inconsistent(format!(
            "its key's digest is {key}, the header says {cached_key}"
        )));
    }
    Ok(keys)
}

#[cfg(test)]
pub(crate) mod tests {
    //! The aggregation key cache at a size CI affords: the keys are a stand-in's own at k = 12
    //! (an aggregation circuit's shape), which every check of [`load_aggregation_keys`] treats
    //! as it treats the final wrapper's at k = 22.
    use rand::SeedableRng;
    use tms_gadgets::proving::{params::kzg_params, MultiOpen, Transcript};

    use super::*;
    use crate::stand_in::stand_in_with_keys;

    /// The file with its header replaced by `edit`'s and the trailer recomputed: a deliberate
    /// edit that the SHA-256 trailer alone cannot see.
    pub(crate) fn rewritten(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
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

    fn small_keys(params: &ParamsKZG<Bn256>) -> AggregationKeys {
        let layout = AggregationConfigParams {
            degree: params.k(),
            num_advice: 1,
            num_lookup_advice: 1,
            num_fixed: 1,
            lookup_bits: params.k() as usize - 1,
        };
        let inputs = vec![Fr::from(1); crate::ACCUMULATOR_LIMBS + 3];
        stand_in_with_keys(
            params,
            layout,
            &inputs,
            Transcript::Poseidon,
            MultiOpen::Shplonk,
        )
        .expect("a stand-in")
        .1
    }

    fn wanted(inner: u64, statement: &str) -> AggregationKeysFor {
        AggregationKeysFor {
            inner_key: fr_hex(&Fr::from(inner)),
            statement: statement.into(),
        }
    }

    #[test]
    fn aggregation_keys_round_trip_and_every_change_is_refused() {
        let params = kzg_params(12);
        let keys = small_keys(&params);
        let for_these = wanted(1234, "aggregate schnorr-atms x1");
        let d = std::env::temp_dir().join(format!("tms-key-cache-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        let path = d.join("aggregation.keys");
        let mut bytes = Vec::new();
        write_aggregation_keys(&mut bytes, &params, &keys, &for_these).unwrap();
        fs::write(&path, &bytes).unwrap();
        let load = |wanted: &AggregationKeysFor, params: &ParamsKZG<Bn256>| {
            load_aggregation_keys(&path, params, wanted)
        };

        // Honest: the same proving key (verifying key first) and layout.
        let loaded = load(&for_these, &params).expect("read back");
        let raw = |k: &AggregationKeys| k.pk.to_bytes(SerdeFormat::RawBytes);
        assert_eq!(raw(&loaded), raw(&keys));
        assert_eq!(loaded.break_points, keys.break_points);
        assert_eq!(loaded.num_instances, keys.num_instances);

        // Another inner key, another statement, other parameters: named.
        let err = load(&wanted(1235, "aggregate schnorr-atms x1"), &params)
            .err()
            .expect("refused");
        assert!(
            matches!(err, KeyCacheError::OtherCertificateKey { .. }),
            "{err}"
        );
        assert!(err.to_string().contains(&fr_hex(&Fr::from(1235))), "{err}");
        let err = load(&wanted(1234, "aggregate schnorr-atms x2"), &params)
            .err()
            .expect("refused");
        assert!(matches!(err, KeyCacheError::OtherStatement { .. }), "{err}");
        let other = ParamsKZG::<Bn256>::setup(12, rand_chacha::ChaCha20Rng::seed_from_u64(5));
        let err = load(&for_these, &other).err().expect("refused");
        assert!(
            matches!(err, KeyCacheError::OtherParameters { .. }),
            "{err}"
        );

        // One byte changed in the body or the trailer, or the file cut short.
        let header_end = 12 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
        for at in [header_end + 10, bytes.len() / 2, bytes.len() - 1] {
            let mut altered = bytes.clone();
            altered[at] ^= 1;
            fs::write(&path, &altered).unwrap();
            let err = load(&for_these, &params).err().expect("refused");
            assert!(matches!(err, KeyCacheError::Altered), "byte {at}: {err}");
        }
        fs::write(&path, &bytes[..bytes.len() - 1000]).unwrap();
        let err = load(&for_these, &params).err().expect("refused");
        assert!(matches!(err, KeyCacheError::Altered), "{err}");

        // A header edited with its trailer recomputed: the key is checked against it. (Its
        // layout fields are checked where they are used: `aggregation_prove` refuses another
        // count of public inputs, and `tms aggregate prove` verifies each proof before writing
        // it, which a proof under other break points or other inner keys does not pass.)
        fs::write(
            &path,
            rewritten(&bytes, |h| h["key"] = fr_hex(&Fr::from(7)).into()),
        )
        .unwrap();
        let err = load(&for_these, &params).err().expect("refused");
        assert!(matches!(err, KeyCacheError::Inconsistent(_)), "{err}");

        // A step key file, or not a key file at all.
        fs::write(&path, [b"TMSSTEPK".as_slice(), &bytes[8..]].concat()).unwrap();
        let err = load(&for_these, &params).err().expect("refused");
        assert!(matches!(err, KeyCacheError::Malformed { .. }), "{err}");
        fs::write(&path, b"{\"format\":\"tms-aggregation-vk-v1\"}").unwrap();
        let err = load(&for_these, &params).err().expect("refused");
        assert!(matches!(err, KeyCacheError::Malformed { .. }), "{err}");

        // The rewrite helper keeps an unedited file intact (so the refusals above are the
        // edits').
        fs::write(&path, rewritten(&bytes, |_| {})).unwrap();
        assert!(load(&for_these, &params).is_ok());
        fs::remove_dir_all(&d).unwrap();
    }
}
