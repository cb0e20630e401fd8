//! The Cardano backend ([`Cardano`]: KZG over BLS12-381, midnight-proofs' Blake2b transcript)
//! and the Schnorr ATMS on it ([`SchnorrCardano`]: Jubjub keys, crate `schnorr-atms-jubjub`), with
//! its files, `tms setup --backend cardano` and `tms export-plutus` (the Plutus V3 validator of
//! crate `tms-cardano`).
//!
//! Encodings (guide, formats.md): a Jubjub key or nonce point is its 32-byte compressed form
//! (midnight-curves' `GroupEncoding`; decoding checks the prime-order subgroup); a Jubjub scalar
//! is its 32-byte little-endian `to_repr`, in byte order; a BLS12-381 scalar-field element (the
//! commitment) is 64 hex digits, big-endian, as on BN254. Parameters are midnight-proofs'
//! `RawBytes` KZG format; a proving key file is one JSON line (header and shape) then
//! midnight-proofs' `RawBytes` proving key; a verifying key file is JSON holding the shape and
//! the `Processed` key bytes.

use std::{
    fs,
    path::{Path, PathBuf},
};

use ff::{Field, PrimeField};
use group::GroupEncoding;
use midnight_curves::JubjubSubgroup as Point;
use midnight_proofs::{
    poly::{commitment::Params as _, kzg::params::ParamsKZG},
    utils::SerdeFormat,
};
use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use schnorr_atms_jubjub::{
    message_to_field,
    prover::{self, AtmsKeys, DefaultTranscriptHash},
    AtmsCircuit, AtmsError, AtmsInstance, AtmsShape, AtmsWitness, Base, Certificate, CheckError,
    CommitmentMode, Committee, JubjubScalar, Signature, SigningKey, VerifyingKey,
};
use serde::{Deserialize, Serialize};
use tms_cardano::{
    backend::{self, Bls12, VerifierParams, Vk},
    ceremony,
    plutus::{self, uplc::MsmMode, Entry},
};
use tms_gadgets::proving::{
    keys::fingerprint,
    params::{sha256_file_hex, sha256_hex},
    Transcript,
};

use crate::commands::{check_members, describe_message_bytes, KeyTrust, ProofOutput, VerifyArgs};
use crate::schemes::schnorr::bn254::{commitment_mode, refuse_registration, RegisteredKey};
use crate::{
    formats::{bytes_from_hex, bytes_to_hex, Header, PublicFile},
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, DemoCertificate, ProvingBackend, Rejection,
        ShapeOptions, SignArgs, Trusted, Verdict,
    },
    io::{
        at, read_bytes, read_json_on, sha_path, spinner, usage, write_atomic, write_json, CliError,
        Result, INSECURE_WARNING,
    },
    options::{PlutusForm, Scheme},
};

const SCHEME: Scheme = Scheme::SchnorrAtms;
/// The backend's name in files.
pub const BACKEND: &str = "cardano";
/// Mainnet's per-transaction limits (Conway): CPU steps, memory units, bytes.
const TX_CPU: i64 = 10_000_000_000;
const TX_MEM: i64 = 16_500_000;
const TX_BYTES: usize = 16_384;

fn header() -> Header {
    Header::on(SCHEME, Some(BACKEND))
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    read_json_on(path, SCHEME, Some(BACKEND))
}

pub(crate) fn point_to_hex(p: &Point) -> String {
    bytes_to_hex(&p.to_bytes())
}

pub(crate) fn point_from_hex(s: &str, what: &str) -> std::result::Result<Point, String> {
    let bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    Option::from(Point::from_bytes(&bytes))
        .ok_or_else(|| format!("{what} is not a point of Jubjub's prime-order subgroup"))
}

pub(crate) fn scalar_to_hex(x: &JubjubScalar) -> String {
    bytes_to_hex(x.to_repr().as_ref())
}

pub(crate) fn scalar_from_hex(s: &str, what: &str) -> std::result::Result<JubjubScalar, String> {
    let bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    Option::from(JubjubScalar::from_repr(bytes))
        .ok_or_else(|| format!("{what} is not below Jubjub's subgroup order"))
}

/// `0x`-hex, big-endian, of a BLS12-381 scalar-field element.
pub fn base_to_hex(x: &Base) -> String {
    let mut b = x.to_repr();
    b.as_mut().reverse();
    bytes_to_hex(b.as_ref())
}

/// Parses `0x` + 64 hex digits (big-endian) below BLS12-381's scalar-field order.
pub fn base_from_hex(s: &str, what: &str) -> std::result::Result<Base, String> {
    let mut bytes: [u8; 32] = bytes_from_hex(s, what)?
        .try_into()
        .map_err(|_| format!("{what} must be 0x followed by 64 hex digits"))?;
    bytes.reverse();
    Option::from(Base::from_repr(bytes))
        .ok_or_else(|| format!("{what} is not below the BLS12-381 scalar field modulus"))
}

/// The circuit shape in files.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeFile {
    /// Committee size.
    pub n: usize,
    /// Signer slots in Merkle mode; absent in flat mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merkle_slots: Option<usize>,
    /// log2 rows.
    pub k: u32,
}

impl ShapeFile {
    fn of(shape: &AtmsShape) -> Self {
        Self {
            n: shape.n,
            merkle_slots: match shape.mode {
                CommitmentMode::Flat => None,
                CommitmentMode::Merkle { slots } => Some(slots),
            },
            k: shape.k,
        }
    }

    fn shape(&self) -> std::result::Result<AtmsShape, String> {
        let shape = AtmsShape {
            n: self.n,
            mode: match self.merkle_slots {
                None => CommitmentMode::Flat,
                Some(slots) => CommitmentMode::Merkle { slots },
            },
            k: self.k,
        };
        shape.validate().map_err(|e| format!("shape: {e}"))?;
        if shape.n > crate::io::MAX_MEMBERS {
            return Err(format!(
                "shape: more than {} members",
                crate::io::MAX_MEMBERS
            ));
        }
        Ok(shape)
    }
}

/// `committee.json`: the members' Jubjub keys with their proofs of possession, in committee
/// order.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitteeFile {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The members.
    /// The members (the Schnorr ATMS's entry shape on both backends; Jubjub encodings here,
    /// the proof of possession `R || s` in hex).
    pub members: Vec<RegisteredKey>,
}

fn signature_to_hex(sig: &Signature) -> String {
    let mut bytes = sig.r.to_bytes().to_vec();
    bytes.extend_from_slice(sig.s.to_repr().as_ref());
    bytes_to_hex(&bytes)
}

fn signature_from_hex(hex: &str, what: &str) -> std::result::Result<Signature, String> {
    let bytes = bytes_from_hex(hex, what)?;
    if bytes.len() != 64 {
        return Err(format!("{what} must be 0x followed by 128 hex digits"));
    }
    Ok(Signature {
        r: point_from_hex(&bytes_to_hex(&bytes[..32]), what)?,
        s: scalar_from_hex(&bytes_to_hex(&bytes[32..]), what)?,
    })
}

/// A member's secret key file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct MemberFile {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// Position in the committee.
    pub index: usize,
    /// The Jubjub secret scalar.
    pub secret_key: String,
    /// The compressed public key.
    pub public_key: String,
}

/// A signature file.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SignatureFile {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The signer's public key.
    pub public_key: String,
    /// The message bytes.
    pub message: String,
    /// The nonce point R.
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

/// `certificate.json`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CertificateFile {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The message bytes.
    pub message: String,
    /// Signatures by increasing member index.
    pub signatures: Vec<CertifiedSignature>,
}

/// The verifying key file, of a scheme whose shape file is `F`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct VkFile<F> {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The circuit shape.
    pub shape: F,
    /// midnight-proofs' `Processed` verifying key bytes.
    pub vk: String,
}

/// The proving key file's first line (midnight-proofs' `RawBytes` proving key follows it).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PkHeader<F> {
    /// Version, scheme, backend.
    #[serde(flatten)]
    pub header: Header,
    /// The circuit shape.
    pub shape: F,
}

/// Reads and registers a committee file: every key in the subgroup with a valid proof of
/// possession, none repeated.
pub fn load_committee(path: &Path) -> Result<Committee> {
    let file: CommitteeFile = read_json(path)?;
    if file.members.len() > crate::io::MAX_MEMBERS {
        return Err(at(
            path,
            format!("more than {} members", crate::io::MAX_MEMBERS),
        ));
    }
    let members = file
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let key = point_from_hex(&m.public_key, &format!("member {i}'s key"))?;
            let pop = m.proof_of_possession.as_deref().ok_or_else(|| {
                format!(
                    "member {i} has no proof of possession (every key needs one; `tms committee \
                     --backend cardano` writes them)"
                )
            })?;
            let pop = signature_from_hex(pop, &format!("member {i}'s proof of possession"))?;
            Ok((VerifyingKey(key), pop))
        })
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| at(path, e))?;
    Committee::register(&members).map_err(|e| at(path, e))
}

pub(crate) fn load_member(key: &Path) -> Result<SigningKey> {
    load_member_of(SCHEME, key)
}

/// Reads a Jubjub member key file of `scheme`, checking the public key matches the secret key.
pub(crate) fn load_member_of(scheme: Scheme, key: &Path) -> Result<SigningKey> {
    let file: MemberFile = read_json_on(key, scheme, Some(BACKEND))?;
    let sk = SigningKey(scalar_from_hex(&file.secret_key, "secret_key").map_err(|e| at(key, e))?);
    let pk = point_from_hex(&file.public_key, "public_key").map_err(|e| at(key, e))?;
    if sk.verifying_key().0 != pk {
        return Err(at(key, "public_key does not match secret_key"));
    }
    Ok(sk)
}

/// Jubjub keys for `size` members (from `seed`, or the OS): secret keys of `scheme` to
/// `keys_dir/member-<i>.json`; returns them.
pub(crate) fn member_keys(
    scheme: Scheme,
    size: usize,
    seed: Option<u64>,
    keys_dir: &Path,
) -> Result<Vec<SigningKey>> {
    let mut rng = match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("OS randomness"),
    };
    let sks: Vec<SigningKey> = (0..size).map(|_| SigningKey::random(&mut rng)).collect();
    fs::create_dir_all(keys_dir).map_err(|e| at(keys_dir, format!("cannot create: {e}")))?;
    for (i, sk) in sks.iter().enumerate() {
        let file = MemberFile {
            header: Header::on(scheme, Some(BACKEND)),
            index: i,
            secret_key: scalar_to_hex(&sk.0),
            public_key: point_to_hex(&sk.verifying_key().0),
        };
        write_json(&keys_dir.join(format!("member-{i}.json")), &file)?;
    }
    Ok(sks)
}

/// `tms committee --backend cardano`.
pub fn committee(size: usize, seed: Option<u64>, out: &Path, keys_dir: &Path) -> Result<()> {
    let sks = member_keys(SCHEME, size, seed, keys_dir)?;
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect())
        .map_err(|e| CliError(e.to_string()))?;
    let file = CommitteeFile {
        header: header(),
        members: sks
            .iter()
            .zip(committee.keys())
            .map(|(sk, k)| RegisteredKey {
                public_key: point_to_hex(&k.0),
                proof_of_possession: Some(signature_to_hex(&sk.prove_possession())),
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "committee of {size} Jubjub keys with proofs of possession written to {} (secret keys in \
         {})",
        out.display(),
        keys_dir.display()
    );
    Ok(())
}

/// `tms sign --backend cardano`.
pub fn sign(key: &Path, message: &[u8], out: &Path) -> Result<()> {
    let sk = load_member(key)?;
    let sig = sk.sign(message_to_field(message));
    let file = SignatureFile {
        header: header(),
        public_key: point_to_hex(&sk.verifying_key().0),
        message: bytes_to_hex(message),
        r: point_to_hex(&sig.r),
        s: scalar_to_hex(&sig.s),
    };
    write_json(out, &file)
}

fn parse_signature(path: &Path, r: &str, s: &str) -> Result<Signature> {
    Ok(Signature {
        r: point_from_hex(r, "r").map_err(|e| at(path, e))?,
        s: scalar_from_hex(s, "s").map_err(|e| at(path, e))?,
    })
}

/// `tms certify --backend cardano`.
pub fn certify(
    committee_path: &Path,
    message: &[u8],
    out: &Path,
    signatures: &[PathBuf],
) -> Result<()> {
    let committee = load_committee(committee_path)?;
    let m = message_to_field(message);
    let mut pairs = Vec::with_capacity(signatures.len());
    for path in signatures {
        let file: SignatureFile = read_json(path)?;
        crate::schemes::schnorr::bn254::check_signed_message(path, &file.message, message)?;
        let pk =
            VerifyingKey(point_from_hex(&file.public_key, "public_key").map_err(|e| at(path, e))?);
        pairs.push((pk, parse_signature(path, &file.r, &file.s)?));
    }
    let cert = Certificate::aggregate(&committee, m, &pairs).map_err(|e| match e {
        AtmsError::Check(CheckError::NotInCommittee(i)) => at(
            &signatures[i],
            "the signer is not a member of the committee",
        ),
        AtmsError::Check(CheckError::InvalidSignature(i)) => {
            at(&signatures[i], "the signature does not verify")
        }
        AtmsError::Check(CheckError::DuplicateSigner(member)) => {
            CliError(format!("member {member} signed more than once"))
        }
        other => CliError(other.to_string()),
    })?;
    let file = CertificateFile {
        header: header(),
        message: bytes_to_hex(message),
        signatures: cert
            .signatures
            .iter()
            .map(|(i, s)| CertifiedSignature {
                index: *i,
                r: point_to_hex(&s.r),
                s: scalar_to_hex(&s.s),
            })
            .collect(),
    };
    write_json(out, &file)?;
    println!(
        "certificate with {} signatures written to {}",
        cert.signatures.len(),
        out.display()
    );
    Ok(())
}

/// `tms setup --backend cardano`: BLS12-381 KZG parameters for `2^k` rows, imported from
/// Midnight's ceremony SRS (`srs`: a `bls_midnight_2p<K>` file, `K >= k`, its structure checked;
/// named when its SHA-256 is one Midnight publishes) or, without one, from the fixed public seed
/// (INSECURE; the same as `tms-cardano`'s and the circuit crates').
pub fn setup(k: u32, srs: Option<&Path>, out: &Path) -> Result<()> {
    if !(10..=22).contains(&k) {
        return Err(usage(format!("--k: {k} is outside 10..=22")));
    }
    let (params, source) = match srs {
        None => {
            eprintln!("{INSECURE_WARNING}");
            let _bar = spinner("making the parameters");
            (backend::insecure_test_params(k), "INSECURE test".to_owned())
        }
        Some(path) => {
            let bar = spinner("hashing the SRS file");
            let sha = sha256_file_hex(path).map_err(|e| at(path, format!("cannot read: {e}")))?;
            bar.set_message("reading and checking the SRS (a pairing check of every power)");
            let (params, file_k) =
                ceremony::import_midnight_srs(path, k).map_err(|e| at(path, e))?;
            bar.finish_and_clear();
            let provenance = match ceremony::midnight_file_k(&sha) {
                Some(published) if published == file_k => format!(
                    "Midnight's published bls_midnight_2p{file_k} (sha256 {sha}, the checksum \
                     in Midnight's SRS catalog)"
                ),
                _ => format!(
                    "{} (sha256 {sha}: not one of Midnight's published files; its structure \
                     is checked, where its tau came from is not)",
                    path.display()
                ),
            };
            (
                params,
                format!("BLS12-381 ceremony parameters from {provenance},"),
            )
        }
    };
    let mut bytes = vec![];
    params
        .write_custom(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to memory");
    let digest = sha256_hex(&bytes);
    write_atomic(out, &bytes)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write_atomic(&sha_path(out), format!("{digest}  {name}\n").as_bytes())?;
    match srs {
        None => println!(
            "INSECURE test BLS12-381 parameters for 2^{k} rows written to {} (sha256 {digest})",
            out.display()
        ),
        Some(_) => println!(
            "{source} cut to 2^{k} rows, written to {} (sha256 {digest})",
            out.display()
        ),
    }
    Ok(())
}

/// Reads BLS12-381 parameters (checked against `<file>.sha256` when there is one); warns when
/// they are the insecure test parameters.
pub fn load_params(path: &Path) -> Result<ParamsKZG<Bls12>> {
    let bytes = read_bytes(path)?;
    if let Ok(record) = fs::read_to_string(sha_path(path)) {
        let expected = record.split_whitespace().next().unwrap_or("");
        if sha256_hex(&bytes) != expected {
            return Err(at(
                path,
                format!(
                    "SHA-256 differs from the record in {}",
                    sha_path(path).display()
                ),
            ));
        }
    }
    let params =
        ParamsKZG::<Bls12>::read_custom(&mut &bytes[..], SerdeFormat::RawBytes).map_err(|e| {
            at(
                path,
                format!("not BLS12-381 KZG parameters (midnight-proofs raw bytes): {e}"),
            )
        })?;
    if is_insecure_test(&params) {
        eprintln!("{INSECURE_WARNING}: {}", path.display());
    }
    Ok(params)
}

/// Whether `params` are the insecure test parameters of any size: their `[s] G2` is the
/// generator times the seed's first draw (midnight-proofs' `unsafe_setup` draws `s` first).
fn is_insecure_test(params: &ParamsKZG<Bls12>) -> bool {
    let s = Base::random(ChaCha20Rng::from_seed(backend::INSECURE_SEED));
    params.s_g2() == params.g2() * s
}

fn vk_file_bytes(shape: &AtmsShape, vk: &Vk) -> Vec<u8> {
    key_file_vk(SCHEME, &ShapeFile::of(shape), vk)
}

/// A verifying key file of `scheme` on this backend: JSON with the header, the shape and the
/// `Processed` key bytes.
pub(crate) fn key_file_vk<F: Serialize>(scheme: Scheme, shape: &F, vk: &Vk) -> Vec<u8> {
    let file = VkFile {
        header: Header::on(scheme, Some(BACKEND)),
        shape,
        vk: bytes_to_hex(&backend::vk_to_bytes(vk)),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("serializable");
    text.push('\n');
    text.into_bytes()
}

/// Parses a verifying key file of `scheme` for circuit `C`: its shape file and key.
pub(crate) fn read_key_file_vk<F, C>(scheme: Scheme, path: &Path, bytes: &[u8]) -> Result<(F, Vk)>
where
    F: serde::de::DeserializeOwned,
    C: midnight_proofs::plonk::Circuit<Base, Params = ()>,
{
    let header: Header =
        serde_json::from_slice(bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))?;
    header
        .check_on(scheme, Some(BACKEND))
        .map_err(|e| at(path, e))?;
    let file: VkFile<F> =
        serde_json::from_slice(bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))?;
    let key = bytes_from_hex(&file.vk, "vk").map_err(|e| at(path, e))?;
    let vk = backend::vk_from_bytes::<C>(&key, ()).map_err(|e| at(path, e))?;
    Ok((file.shape, vk))
}

/// A proving key file of `scheme`: one JSON header line (with the shape), then midnight-proofs'
/// `RawBytes` proving key.
pub(crate) fn key_file_pk<F: Serialize>(scheme: Scheme, shape: &F, pk: &backend::Pk) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&PkHeader {
        header: Header::on(scheme, Some(BACKEND)),
        shape,
    })
    .expect("serializable");
    bytes.push(b'\n');
    pk.write(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to memory");
    bytes
}

/// Reads a proving key file of `scheme` for circuit `C`: its shape file and key.
pub(crate) fn read_key_file_pk<F, C>(scheme: Scheme, path: &Path) -> Result<(F, backend::Pk)>
where
    F: serde::de::DeserializeOwned,
    C: midnight_proofs::plonk::Circuit<Base, Params = ()>,
{
    let bytes = read_bytes(path)?;
    let split = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| at(path, "not a Cardano proving key file (no header line)"))?;
    let head: PkHeader<F> = serde_json::from_slice(&bytes[..split])
        .map_err(|e| at(path, format!("malformed header: {e}")))?;
    head.header
        .check_on(scheme, Some(BACKEND))
        .map_err(|e| at(path, e))?;
    let pk = backend::Pk::read::<_, C>(&mut &bytes[split + 1..], SerdeFormat::RawBytes, ())
        .map_err(|e| at(path, format!("malformed proving key: {e}")))?;
    Ok((head.shape, pk))
}

/// Parses a verifying key file: its shape and key.
pub fn read_vk(path: &Path, bytes: &[u8]) -> Result<(AtmsShape, Vk)> {
    let (shape, vk) = read_key_file_vk::<ShapeFile, AtmsCircuit>(SCHEME, path, bytes)?;
    Ok((shape.shape().map_err(|e| at(path, e))?, vk))
}

fn read_pk(path: &Path) -> Result<AtmsKeys> {
    let (shape, pk) = read_key_file_pk::<ShapeFile, AtmsCircuit>(SCHEME, path)?;
    Ok(AtmsKeys {
        shape: shape.shape().map_err(|e| at(path, e))?,
        pk,
    })
}

/// The trusted commitment: from the committee file (its commitment in `shape`'s mode) or the
/// given hex.
fn trusted_commitment(
    committee: Option<&Path>,
    commitment: Option<&str>,
    shape: &AtmsShape,
) -> Result<Base> {
    match (committee, commitment) {
        (Some(path), None) => {
            let committee = load_committee(path)?;
            check_members(path, committee.keys().len(), shape.n, "verifying key")?;
            Ok(committee.commitment(shape.mode))
        }
        (None, Some(hex)) => base_from_hex(hex, "--commitment").map_err(usage),
        _ => Err(usage(
            "give the trusted --committee FILE or --commitment HEX",
        )),
    }
}

/// The protocol version a Plutus figure assumes and its MSM mode.
pub fn msm_mode(pv: u16) -> Result<MsmMode> {
    match pv {
        10 => Ok(MsmMode::Fold),
        11 => Ok(MsmMode::Builtin),
        _ => Err(usage(format!(
            "--protocol-version: {pv}; 10 (mainnet today: the MSM as a fold) or 11 (the \
             CIP-0133 MSM builtin)"
        ))),
    }
}

/// A statement's entries: each a script parameter, `None` the message.
fn entries(statement: &[Option<Base>]) -> Vec<Entry> {
    statement
        .iter()
        .map(|e| e.map_or(Entry::Message, Entry::Param))
        .collect()
}

/// The validator's script bytes and, for a proof, the honest evaluation.
pub(crate) struct Evaluated {
    /// The script bytes (flat UPLC in CBOR).
    pub script: Vec<u8>,
    /// With a certificate: the evaluation's budget and the redeemer bytes.
    pub run: Option<(plutus::Budget, Vec<u8>)>,
}

/// The validator of `vk` whose statement is `statement` in instance order: each entry a trusted
/// script parameter, or `None` for the message the redeemer carries (blake2b-256 mod r); with a
/// certificate (message bytes, proof), its evaluation.
pub(crate) fn validator(
    vp: &VerifierParams,
    vk: &Vk,
    statement: &[Option<Base>],
    mode: MsmMode,
    certificate: Option<(&[u8], &[u8])>,
) -> Result<Evaluated> {
    plutus::with_big_stack(|| {
        let program = plutus::validator(vp, vk, &entries(statement), mode)
            .map_err(|e| usage(format!("the Plutus validator: {e}")))?;
        let script = plutus::script_bytes(&program);
        let run = certificate.map(|(message, proof)| {
            let m = message_to_field(message);
            let pi: Vec<Base> = statement.iter().map(|e| e.unwrap_or(m)).collect();
            let (_, hints) = plutus::hints(vp, vk, proof, &[&pi]);
            let red = plutus::redeemer(message, proof, &hints);
            let red_bytes = uplc::ast::Data::to_hex(red.clone());
            let budget = plutus::evaluate(
                &program,
                vec![plutus::data_arg(plutus::context(red))],
                plutus::protocol_version(mode),
            );
            let red_bytes =
                bytes_from_hex(&format!("0x{red_bytes}"), "redeemer").expect("uplc writes hex");
            (budget, red_bytes)
        });
        Ok(Evaluated { script, run })
    })
}

/// `tms export-plutus --form state-thread|observer`: the bridge validator of `vk` (the
/// statement's parameters are the observer's script parameters, or the state thread's genesis
/// datum, written beside it as `genesis-datum.cbor` with epoch 0 and an empty payload).
/// `threshold_at` is the threshold's place in the statement.
fn write_bridge_export(
    a: &ExportPlutusArgs,
    scheme: Scheme,
    vp: &VerifierParams,
    vk: &Vk,
    statement: &[Option<Base>],
    threshold_at: Option<usize>,
    insecure: bool,
) -> Result<()> {
    use tms_cardano::plutus::bridge::{self, Slot, ThreadLayout, ThreadState, ThreadToken};
    if a.proof.is_some() {
        return Err(usage(
            "--proof: evaluated for --form example only (a bridge form's budget needs a \
             transaction: tms_cardano::plutus::scenario)",
        ));
    }
    let mode = msm_mode(a.protocol_version)?;
    let params: Vec<Base> = statement.iter().flatten().copied().collect();
    let stem = match a.form {
        PlutusForm::StateThread => "state-thread",
        _ => "observer",
    };
    let bar = spinner("generating the Plutus validator");
    let program = plutus::with_big_stack(|| match a.form {
        PlutusForm::StateThread => {
            let (policy, name) = a.thread.ok_or_else(|| {
                usage("--form state-thread: give --thread-policy and --thread-name")
            })?;
            let policy: [u8; 28] = bytes_from_hex(policy, "--thread-policy")
                .map_err(usage)?
                .try_into()
                .map_err(|_| usage("--thread-policy: 28 bytes (0x + 56 hex digits)"))?;
            let token = ThreadToken {
                policy,
                name: bytes_from_hex(name, "--thread-name").map_err(usage)?,
            };
            // Each parameter becomes a datum entry, in order; the message stays the message.
            let mut k = 0;
            let instance = statement
                .iter()
                .map(|e| match e {
                    Some(_) => {
                        k += 1;
                        Slot::State(k - 1)
                    }
                    None => Slot::Message,
                })
                .collect();
            let thresholds = threshold_at
                .map(|t| statement[..t].iter().flatten().count())
                .into_iter()
                .collect();
            let layout = ThreadLayout {
                statement_len: params.len(),
                instance,
                thresholds,
            };
            let genesis = ThreadState {
                statement: params.clone(),
                epoch: 0,
                payload: vec![],
            };
            let p = bridge::state_thread(vp, vk, &layout, &token, mode)
                .map_err(|e| usage(format!("--form state-thread: {e}")))?;
            Ok((plutus::script_bytes(&p), Some(genesis.to_data())))
        }
        _ => {
            let p = bridge::observer(vp, vk, &entries(statement), mode)
                .map_err(|e| usage(format!("--form observer: {e}")))?;
            Ok((plutus::script_bytes(&p), None))
        }
    });
    bar.finish_and_clear();
    let (script, datum) = program?;
    let name = if insecure {
        format!("{stem}.INSECURE-TEST.cbor")
    } else {
        format!("{stem}.cbor")
    };
    fs::create_dir_all(a.out).map_err(|err| at(a.out, format!("cannot create: {err}")))?;
    write_atomic(&a.out.join(&name), &script)?;
    if insecure {
        write_atomic(&a.out.join(INSECURE_NOTE), INSECURE_NOTE_TEXT.as_bytes())?;
    }
    if let Some(d) = datum {
        write_atomic(
            &a.out.join("genesis-datum.cbor"),
            &uplc::plutus_data_to_bytes(&d),
        )?;
    }
    println!(
        "Plutus V3 {stem} validator ({}, protocol version {}): {} script bytes (deploy it as a \
         reference script); {name}{}",
        scheme.name(),
        a.protocol_version,
        script.len(),
        if a.form == PlutusForm::StateThread {
            ", genesis-datum.cbor (epoch 0)"
        } else {
            ""
        }
    );
    println!("written to {}", a.out.display());
    Ok(())
}

/// The file name of a script made from the INSECURE test parameters, and the note beside it.
pub const INSECURE_SCRIPT: &str = "validator.INSECURE-TEST.cbor";
/// The note written beside [`INSECURE_SCRIPT`].
pub const INSECURE_NOTE: &str = "INSECURE-TEST-PARAMETERS.txt";
const INSECURE_NOTE_TEXT: &str = "This script was made from the INSECURE seeded test parameters (tms setup --insecure-test): anyone can forge proofs under them, so it accepts forged certificates. For tests only: never deploy it. Export from a ceremony SRS (tms setup --backend cardano --srs) for a deployable script.\n";

/// One `plutus-budget` line (the format `.ci/run` greps).
pub(crate) fn budget_line(
    scheme: Scheme,
    case: &str,
    b: &plutus::Budget,
    script: usize,
    redeemer: usize,
    pv: u16,
) -> String {
    format!(
        "plutus-budget scheme={} case={case} cpu={} mem={} script_bytes={script} tx_bytes={} \
         pv={pv}",
        scheme.name(),
        b.cpu,
        b.mem,
        script + redeemer
    )
}

fn percent(x: i64, of: i64) -> f64 {
    100.0 * x as f64 / of as f64
}

/// What `tms export-plutus` is given.
pub struct ExportPlutusArgs<'a> {
    /// How the verifying key file is trusted: pinned or regenerated, as for `verify`.
    pub trust: KeyTrust<'a>,
    /// Verifying key file.
    pub vk: &'a Path,
    /// BLS12-381 parameters.
    pub params: &'a Path,
    /// The trusted committee (or registration) file.
    pub committee: Option<&'a Path>,
    /// Or the trusted commitment (or registration digest).
    pub commitment: Option<&'a str>,
    /// The threshold the script requires (ATMS).
    pub threshold: Option<u64>,
    /// The protocol version (10 or 11).
    pub protocol_version: u16,
    /// A proof and its message bytes, to evaluate the honest case.
    pub proof: Option<(&'a Path, Vec<u8>)>,
    /// Whether the INSECURE seeded test parameters are accepted (then said in the file name).
    pub insecure_test: bool,
    /// Which script.
    pub form: PlutusForm,
    /// The state thread's token: policy id and asset name (hex).
    pub thread: Option<(&'a str, &'a str)>,
    /// The folder to write.
    pub out: &'a Path,
}

/// `tms export-plutus` for the Schnorr ATMS: the validator with the trusted commitment and
/// threshold as parameters.
pub fn export_plutus(a: &ExportPlutusArgs) -> Result<()> {
    let threshold = a
        .threshold
        .ok_or_else(|| usage("--threshold: give the threshold the script requires"))?;
    if threshold == 0 {
        // A threshold-0 certificate needs no signature: the script would accept anyone's.
        return Err(usage(
            "--threshold: 0 accepts a certificate without signatures",
        ));
    }
    let params = load_params(a.params)?;
    let vk_file = a.trust.read()?;
    let (shape, vk) = read_vk(a.vk, &vk_file)?;
    crate::commands::check_params_k(a.params, params.max_k(), shape.k)?;
    a.trust.check_regenerated(&vk_file, "its shape", || {
        SchnorrCardano::regenerate_vk(&params, &shape, a.vk)
    })?;
    let commitment = trusted_commitment(a.committee, a.commitment, &shape)?;
    AtmsInstance::from_trusted_commitment(commitment, b"", threshold)
        .validate(&shape)
        .map_err(|e| usage(format!("--threshold: {e}")))?;
    write_plutus_export(
        a,
        SCHEME,
        &format!("n = {}, t = {threshold}", shape.n),
        &params,
        (&vk_file, &vk),
        &[Some(commitment), None, Some(Base::from(threshold))],
        Some(2),
    )
}

/// `tms export-plutus`, once the scheme has read its key and built its statement (each entry a
/// trusted script parameter, or `None` for the message): the validator's script bytes and, given
/// a proof, its redeemer and the honest evaluation's budget line. The proof is checked natively
/// first, for the same statement.
pub(crate) fn write_plutus_export(
    a: &ExportPlutusArgs,
    scheme: Scheme,
    what: &str,
    params: &ParamsKZG<Bls12>,
    (vk_file, vk): (&[u8], &Vk),
    statement: &[Option<Base>],
    threshold_at: Option<usize>,
) -> Result<()> {
    let mode = msm_mode(a.protocol_version)?;
    // Anyone can forge proofs under the seeded test parameters, so a script made from them
    // accepts forged certificates: exported only on request, and named so.
    let insecure = is_insecure_test(params);
    if insecure && !a.insecure_test {
        return Err(usage(format!(
            "{}: the INSECURE seeded test parameters (anyone can forge proofs under them, so \
             the script would accept forged certificates); use a ceremony SRS (tms setup \
             --backend cardano --srs), or --insecure-test to export a test script",
            a.params.display()
        )));
    }
    if a.form != PlutusForm::Example {
        return write_bridge_export(
            a,
            scheme,
            &params.verifier_params(),
            vk,
            statement,
            threshold_at,
            insecure,
        );
    }
    let script_name = if insecure {
        INSECURE_SCRIPT
    } else {
        "validator.cbor"
    };
    let vp = params.verifier_params();
    let proof = match &a.proof {
        Some((path, message)) => {
            let proof = read_bytes(path)?;
            let m = message_to_field(message);
            let pi: Vec<Base> = statement.iter().map(|e| e.unwrap_or(m)).collect();
            if !backend::verify(&vp, vk, &proof, &[&pi]) {
                return Err(at(
                    path,
                    "the proof does not verify for this statement (committee or registration, \
                     message, threshold)",
                ));
            }
            Some((message.as_slice(), proof))
        }
        None => None,
    };
    let bar = spinner("generating the Plutus validator");
    let e = validator(
        &vp,
        vk,
        statement,
        mode,
        proof.as_ref().map(|(m, p)| (*m, p.as_slice())),
    )?;
    bar.finish_and_clear();
    fs::create_dir_all(a.out).map_err(|err| at(a.out, format!("cannot create: {err}")))?;
    write_atomic(&a.out.join(script_name), &e.script)?;
    if insecure {
        write_atomic(&a.out.join(INSECURE_NOTE), INSECURE_NOTE_TEXT.as_bytes())?;
    }
    println!(
        "Plutus V3 validator ({}, {what}, protocol version {}, MSM {}): {} script bytes ({}); \
         verifying key sha256 {}",
        scheme.name(),
        a.protocol_version,
        if mode == MsmMode::Fold {
            "as a fold"
        } else {
            "builtin"
        },
        e.script.len(),
        if e.script.len() <= TX_BYTES {
            format!("within a transaction's {TX_BYTES}")
        } else {
            format!("OVER a transaction's {TX_BYTES}: use a reference script")
        },
        fingerprint(vk_file)
    );
    println!("  {}", a.trust.describe(vk_file));
    if let Some((budget, redeemer)) = &e.run {
        write_atomic(&a.out.join("redeemer.cbor"), redeemer)?;
        if !budget.accepted {
            return Err(CliError(format!(
                "the validator refused the honest certificate (cpu {}, mem {})",
                budget.cpu, budget.mem
            )));
        }
        println!(
            "{}",
            budget_line(
                scheme,
                "honest",
                budget,
                e.script.len(),
                redeemer.len(),
                a.protocol_version
            )
        );
        println!(
            "honest certificate accepted: {:.1}% of a transaction's CPU steps, {:.1}% of its \
             memory units",
            percent(budget.cpu, TX_CPU),
            percent(budget.mem, TX_MEM)
        );
    }
    println!("written to {}", a.out.display());
    Ok(())
}

/// The prover's statement on this backend: [`PublicFile`] with a `cardano` header.
fn public_file(
    shape: &AtmsShape,
    commitment: &Base,
    message: &[u8],
    t: u64,
) -> PublicFile<ShapeFile> {
    PublicFile {
        header: header(),
        shape: ShapeFile::of(shape),
        commitment: base_to_hex(commitment),
        message: bytes_to_hex(message),
        threshold: t,
    }
}

/// KZG over BLS12-381 (IOG's midnight stack): proofs a Plutus V3 validator checks, in
/// midnight-proofs' Blake2b transcript.
pub struct Cardano;

impl ProvingBackend for Cardano {
    const TAG: Option<&'static str> = Some(BACKEND);
    type Params = ParamsKZG<Bls12>;
    type Scalar = Base;

    fn load_params(path: &Path) -> Result<ParamsKZG<Bls12>> {
        load_params(path)
    }

    fn params_k(params: &ParamsKZG<Bls12>) -> u32 {
        params.max_k()
    }

    fn test_params(k: u32) -> ParamsKZG<Bls12> {
        backend::insecure_test_params(k)
    }

    fn check_transcript(transcript: Transcript) -> Result<()> {
        if transcript != Transcript::Blake2b {
            return Err(usage(
                "--backend cardano proves in midnight-proofs' Blake2b transcript only \
                 (--transcript blake2b)",
            ));
        }
        Ok(())
    }

    // midnight-proofs' verifier parameters are cut from the full ones at the key's size.
    fn check_verifier_params(path: &Path, params: &ParamsKZG<Bls12>, key_k: u32) -> Result<()> {
        crate::commands::check_params_k(path, params.max_k(), key_k)
    }

    fn write_proof<S: Serialize>(
        out: &ProofOutput,
        proof: &[u8],
        public: &PublicFile<S>,
        _: &[Base],
        seconds: f64,
    ) -> Result<()> {
        out.write_without_calldata(proof, public, seconds)
    }

    fn rejected(args: &VerifyArgs) -> CliError {
        at(
            &args.proof,
            "the proof does not verify for the trusted statement (cardano backend, blake2b \
             transcript)",
        )
    }
}

/// The Schnorr ATMS on Cardano: Jubjub keys, Poseidon commitments, KZG over BLS12-381.
pub struct SchnorrCardano;

impl CertificateScheme for SchnorrCardano {
    type Backend = Cardano;
    const SCHEME: Scheme = SCHEME;
    type Committee = Committee;
    type Shape = AtmsShape;
    type ShapeFile = ShapeFile;
    type Keys = AtmsKeys;
    type Vk = Vk;
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;

    fn committee(a: &CommitteeArgs) -> Result<()> {
        committee(a.size, a.seed, &a.out, &a.keys_dir)
    }

    fn sign(a: &SignArgs) -> Result<()> {
        refuse_registration(a.registration.as_deref(), a.next_registration.as_deref())?;
        sign(&a.key, &a.message, &a.out)
    }

    fn certify(a: &CertifyArgs) -> Result<()> {
        refuse_registration(None, a.next_registration.as_deref())?;
        certify(&a.committee, &a.message, &a.out, &a.signatures)
    }

    fn load_committee(path: &Path) -> Result<Committee> {
        load_committee(path)
    }

    fn check_committee(path: &Path, c: &Committee, shape: &AtmsShape, key: &str) -> Result<()> {
        check_members(path, c.keys().len(), shape.n, key)
    }

    fn keygen_shape(c: &Committee, options: &ShapeOptions, k: u32) -> Result<AtmsShape> {
        let shape = AtmsShape {
            n: c.keys().len(),
            mode: commitment_mode(options.mode, options.slots)?,
            k,
        };
        shape.validate().map_err(usage)?;
        Ok(shape)
    }

    fn min_k(shape: &AtmsShape) -> Result<Option<u32>> {
        Ok(Some(prover::min_k(&AtmsShape { k: 10, ..*shape })))
    }

    fn k(shape: &AtmsShape) -> u32 {
        shape.k
    }

    fn keygen(params: &ParamsKZG<Bls12>, shape: &AtmsShape, path: &Path) -> Result<AtmsKeys> {
        prover::keygen(params, *shape).map_err(|e| at(path, e))
    }

    fn key_files(keys: &AtmsKeys) -> (Vec<u8>, Vec<u8>) {
        (
            key_file_pk(SCHEME, &ShapeFile::of(&keys.shape), &keys.pk),
            vk_file_bytes(&keys.shape, keys.vk()),
        )
    }

    fn describe_keys(keys: &AtmsKeys) -> String {
        format!(
            "{} members (Jubjub Schnorr ATMS, k = {})",
            keys.shape.n, keys.shape.k
        )
    }

    fn read_pk(path: &Path) -> Result<AtmsKeys> {
        read_pk(path)
    }

    fn keys_shape(keys: &AtmsKeys) -> &AtmsShape {
        &keys.shape
    }

    fn read_vk(path: &Path, bytes: &[u8]) -> Result<(AtmsShape, Vk)> {
        read_vk(path, bytes)
    }

    fn regenerate_vk(params: &ParamsKZG<Bls12>, shape: &AtmsShape, path: &Path) -> Result<Vec<u8>> {
        prover::keygen(params, *shape)
            .map(|k| vk_file_bytes(shape, k.vk()))
            .map_err(|e| at(path, e))
    }

    fn witness(
        shape: &AtmsShape,
        committee: &Committee,
        certificate_path: &Path,
        threshold: Option<u64>,
    ) -> Result<(AtmsWitness, PublicFile<ShapeFile>)> {
        let threshold = threshold.unwrap_or_default();
        let file: CertificateFile = read_json(certificate_path)?;
        let message =
            bytes_from_hex(&file.message, "message").map_err(|e| at(certificate_path, e))?;
        let signatures = file
            .signatures
            .iter()
            .map(|s| Ok((s.index, parse_signature(certificate_path, &s.r, &s.s)?)))
            .collect::<Result<Vec<_>>>()?;
        let cert = Certificate {
            message: message_to_field(&message),
            signatures,
        };
        let witness =
            AtmsWitness::new(*shape, committee, &cert, threshold).map_err(|e| match e {
                AtmsError::Check(CheckError::ThresholdTooLarge { .. }) => {
                    usage(format!("--threshold: {e}"))
                }
                other => at(certificate_path, other),
            })?;
        let public = public_file(shape, &witness.instance.commitment, &message, threshold);
        Ok((witness, public))
    }

    fn prove(
        params: &ParamsKZG<Bls12>,
        keys: &AtmsKeys,
        witness: &AtmsWitness,
        _: Transcript,
    ) -> std::result::Result<Vec<u8>, String> {
        let rng = ChaCha20Rng::from_rng(OsRng).expect("OS randomness");
        prover::prove::<DefaultTranscriptHash>(params, keys, witness, rng)
            .map_err(|e| e.to_string())
    }

    fn public_inputs(witness: &AtmsWitness) -> Vec<Base> {
        witness.instance.to_public_inputs()
    }

    fn trusted(
        shape: &AtmsShape,
        args: &VerifyArgs,
        public: Option<&PublicFile<ShapeFile>>,
    ) -> Result<Trusted<Self>> {
        let commitment =
            trusted_commitment(args.committee.as_deref(), args.commitment.as_deref(), shape)?;
        let threshold = args.threshold(public)?;
        Ok(Trusted {
            public: public_file(shape, &commitment, &args.message, threshold),
            instance: AtmsInstance::from_trusted_commitment(commitment, &args.message, threshold),
        })
    }

    fn verify(
        params: &ParamsKZG<Bls12>,
        shape: &AtmsShape,
        vk: &Vk,
        instance: &AtmsInstance,
        proof: &[u8],
        _: Transcript,
    ) -> Verdict {
        instance
            .validate(shape)
            .map_err(|e| Rejection::Other(usage(format!("--threshold: {e}"))))?;
        prover::verify::<DefaultTranscriptHash>(&params.verifier_params(), vk, instance, proof)
            .map_err(|e| match e {
                AtmsError::ProofRejected => Rejection::Proof,
                other => Rejection::Other(usage(other)),
            })
    }

    fn verdict(shape: &AtmsShape, trusted: &Trusted<Self>, args: &VerifyArgs) -> String {
        let instance = &trusted.instance;
        format!(
            "verified (schnorr-atms, cardano): at least {} of {} committee members signed {}; \
             committee commitment {}",
            trusted.public.threshold,
            shape.n,
            describe_message_bytes(&args.message, &base_to_hex(&instance.message)),
            base_to_hex(&instance.commitment)
        )
    }

    /// 6 members, 4 sign, threshold 3, flat commitment; the Plutus budget follows the proof.
    fn demo_certificate() -> Result<DemoCertificate<Self>> {
        const COMMITTEE: usize = 6;
        const SIGNERS: [usize; 4] = [0, 2, 3, 5];
        const THRESHOLD: u64 = 3;
        let err = |e: AtmsError| CliError(e.to_string());
        let mut rng = ChaCha20Rng::seed_from_u64(2026);
        let members: Vec<SigningKey> = (0..COMMITTEE)
            .map(|_| SigningKey::random(&mut rng))
            .collect();
        let committee =
            Committee::new(members.iter().map(SigningKey::verifying_key).collect()).map_err(err)?;
        let message_bytes = b"tms demo: epoch 1 committee handover".to_vec();
        let message = message_to_field(&message_bytes);
        let signatures: Vec<_> = SIGNERS
            .iter()
            .map(|i| (members[*i].verifying_key(), members[*i].sign(message)))
            .collect();
        let certificate = Certificate::aggregate(&committee, message, &signatures).map_err(err)?;
        let mut shape = AtmsShape {
            n: COMMITTEE,
            mode: CommitmentMode::Flat,
            k: 10,
        };
        shape.k = prover::min_k(&shape);
        let witness = AtmsWitness::new(shape, &committee, &certificate, THRESHOLD).map_err(err)?;
        // The verifier rebuilds the statement from the committee and message it holds.
        let instance = AtmsInstance::from_trusted(&shape, &committee, &message_bytes, THRESHOLD)
            .map_err(err)?;
        let description = vec![
            format!(
                "committee: {COMMITTEE} Jubjub keys, flat Poseidon commitment {} (BLS12-381 \
                 scalar field)",
                base_to_hex(&instance.commitment)
            ),
            format!(
                "certificate: members {SIGNERS:?} signed {}; threshold {THRESHOLD}",
                describe_message_bytes(&message_bytes, &base_to_hex(&message))
            ),
        ];
        Ok(DemoCertificate {
            shape,
            witness,
            trusted: Trusted {
                public: public_file(&shape, &instance.commitment, &message_bytes, THRESHOLD),
                instance,
            },
            description,
        })
    }

    fn describe_circuit(keys: &AtmsKeys) -> String {
        format!(
            "Schnorr ATMS on Jubjub, {} members, flat, k = {} (KZG over BLS12-381)",
            keys.shape.n, keys.shape.k
        )
    }

    /// The Plutus validator of the demo's key, evaluated on its certificate at protocol versions
    /// 10 and 11.
    fn after_demo(
        params: &ParamsKZG<Bls12>,
        keys: &AtmsKeys,
        demo: &DemoCertificate<Self>,
        proof: &[u8],
    ) -> Result<()> {
        let message =
            bytes_from_hex(&demo.trusted.public.message, "message").expect("the demo wrote it");
        let statement = [
            Some(demo.trusted.instance.commitment),
            None,
            Some(Base::from(demo.trusted.public.threshold)),
        ];
        print_plutus_budgets(SCHEME, params, keys.vk(), &statement, &message, proof)
    }
}

/// The demos' Plutus rows: the validator of `vk` for `statement` evaluated on an honest
/// certificate at protocol versions 10 and 11, as table rows and `plutus-budget` lines.
pub(crate) fn print_plutus_budgets(
    scheme: Scheme,
    params: &ParamsKZG<Bls12>,
    vk: &Vk,
    statement: &[Option<Base>],
    message: &[u8],
    proof: &[u8],
) -> Result<()> {
    let bar = spinner("generating and evaluating the Plutus validator");
    let vp = params.verifier_params();
    let mut rows = vec![];
    for pv in [10u16, 11] {
        let e = validator(&vp, vk, statement, msm_mode(pv)?, Some((message, proof)))?;
        let (budget, redeemer) = e.run.expect("a certificate was given");
        if !budget.accepted {
            return Err(CliError(format!(
                "the Plutus validator (pv {pv}) refused the honest certificate"
            )));
        }
        rows.push((pv, budget, e.script.len(), redeemer.len()));
    }
    bar.finish_and_clear();
    for (pv, b, script, redeemer) in &rows {
        println!(
            "| Plutus V3 (pv {pv}, MSM {}) | accepted: {} CPU steps ({:.1}% of a tx), {} memory \
             units ({:.1}%), script {script} bytes, tx {} bytes |",
            if *pv == 10 { "fold" } else { "builtin" },
            b.cpu,
            percent(b.cpu, TX_CPU),
            b.mem,
            percent(b.mem, TX_MEM),
            script + redeemer
        );
    }
    for (pv, b, script, redeemer) in &rows {
        println!(
            "{}",
            budget_line(scheme, "honest", b, *script, *redeemer, *pv)
        );
    }
    Ok(())
}
