//! The Cardano backend's certificate verifier (feature `cardano`): the Schnorr ATMS and
//! SNARK-Mithril on Jubjub, KZG over BLS12-381 (midnight-proofs), as `tms verify --backend
//! cardano` verifies them. The key file is the tool's (read by `tms-cardano`'s reader, the one
//! the tool uses); the verifier parameters are `[τ]₂` (`tms_cardano::backend::
//! verifier_params_file`). Both are pinned by SHA-256 and checked before either is parsed; the
//! public inputs are built from what the client trusts.

use midnight_curves::Fq as Base;
use schnorr_atms_jubjub::{
    prover::DefaultTranscriptHash, AtmsCircuit, AtmsError, AtmsInstance, AtmsShape, CommitmentMode,
};
use serde::Deserialize;
use tms_cardano::{
    backend::{verifier_params_from_file, VerifierParams, Vk},
    key_file::read_vk_file,
};

use crate::pin::{check_pin, describe_message, field_from_hex, field_to_hex};

/// The key files' format version (`tms`'s `formats::VERSION`; the agreement test reads the
/// tool's key files with it).
const KEY_FILE_VERSION: u64 = 1;

/// The backend's name in key files.
const BACKEND: &str = "cardano";

/// The certificate schemes of the Cardano backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardanoScheme {
    /// Schnorr ATMS on Jubjub (Poseidon commitment).
    SchnorrAtms,
    /// SNARK-Mithril on Jubjub, from the registration digest.
    Mithril,
}

impl CardanoScheme {
    /// Parses the name `tms --scheme` takes.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "schnorr-atms" => Ok(Self::SchnorrAtms),
            "mithril" => Ok(Self::Mithril),
            other => Err(format!(
                "scheme {other:?}: the Cardano backend verifies \"schnorr-atms\" and \"mithril\""
            )),
        }
    }

    /// The name `tms --scheme` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::SchnorrAtms => "schnorr-atms",
            Self::Mithril => "mithril",
        }
    }
}

/// The part of the Schnorr ATMS key file's shape the verifier needs (the tool's `ShapeFile`).
#[derive(Deserialize)]
struct AtmsShapeFile {
    n: usize,
    #[serde(default)]
    merkle_slots: Option<usize>,
    k: u32,
}

/// The part of the Mithril key file's shape the verifier needs: the quorum.
#[derive(Deserialize)]
struct MithrilShapeFile {
    signer_slots: usize,
    index_slots: usize,
    k: u32,
}

/// The circuit a verifying key is for.
enum Shape {
    Atms(AtmsShape),
    Mithril(MithrilShapeFile),
}

/// What the client trusts: the committee's commitment (for Mithril the registration digest), the
/// message bytes and the threshold (for Mithril, if given, the quorum k the key proves).
#[derive(Clone, Debug)]
pub struct CardanoStatement {
    /// `0x` + 64 hex digits, big-endian, below the BLS12-381 scalar field modulus.
    pub commitment: String,
    /// The message bytes the signers signed.
    pub message: Vec<u8>,
    /// The threshold the client requires.
    pub threshold: Option<u64>,
    /// The transcript the proof was made in: the backend has one, `blake2b`.
    pub transcript: String,
}

/// A verifier for one pinned Cardano verifying key.
pub struct CardanoVerifier {
    scheme: CardanoScheme,
    shape: Shape,
    vk: Vk,
    params: VerifierParams,
    vk_fingerprint: String,
    params_fingerprint: String,
}

/// Refuses a key file header of another version, scheme or backend.
fn check_header(header: &serde_json::Value, scheme: CardanoScheme) -> Result<(), String> {
    let backend = header["backend"].as_str().unwrap_or("bn254");
    if backend != BACKEND {
        return Err(format!("a {backend} backend key file, expected {BACKEND}"));
    }
    if header["version"].as_u64() != Some(KEY_FILE_VERSION) {
        return Err(format!(
            "unsupported key file version {} (this package reads version {KEY_FILE_VERSION})",
            header["version"]
        ));
    }
    let found = header["scheme"].as_str().unwrap_or("(no scheme)");
    if found != scheme.name() {
        return Err(format!(
            "a {found:?} key file, expected {:?}",
            scheme.name()
        ));
    }
    Ok(())
}

impl CardanoVerifier {
    /// Checks the key file and the verifier parameters against their pins, then reads them.
    /// Nothing is parsed before its pin is checked.
    pub fn new(
        scheme: &str,
        vk_file: &[u8],
        vk_fingerprint: &str,
        params_file: &[u8],
        params_fingerprint: &str,
    ) -> Result<Self, String> {
        let scheme = CardanoScheme::parse(scheme)?;
        let vk_fingerprint = check_pin("verifying key", vk_file, vk_fingerprint)?;
        let params_fingerprint = check_pin("verifier parameters", params_file, params_fingerprint)?;
        let header = |h: &serde_json::Value| check_header(h, scheme);
        let key = |e: String| format!("verifying key: {e}");
        let (shape, vk) = match scheme {
            CardanoScheme::SchnorrAtms => {
                let (file, vk) =
                    read_vk_file::<_, AtmsShapeFile, AtmsCircuit>(vk_file, header).map_err(key)?;
                let shape = AtmsShape {
                    n: file.n,
                    mode: file.merkle_slots.map_or(CommitmentMode::Flat, |slots| {
                        CommitmentMode::Merkle { slots }
                    }),
                    k: file.k,
                };
                shape.validate().map_err(|e| key(format!("shape: {e}")))?;
                (Shape::Atms(shape), vk)
            }
            CardanoScheme::Mithril => {
                let (file, vk) =
                    read_vk_file::<_, MithrilShapeFile, mithril_jubjub::MithrilCircuit>(
                        vk_file, header,
                    )
                    .map_err(key)?;
                (Shape::Mithril(file), vk)
            }
        };
        let params = verifier_params_from_file(params_file).map_err(|e| e.to_string())?;
        Ok(Self {
            scheme,
            shape,
            vk,
            params,
            vk_fingerprint,
            params_fingerprint,
        })
    }

    /// The scheme.
    pub fn scheme(&self) -> CardanoScheme {
        self.scheme
    }

    /// The scheme and circuit the key is for.
    pub fn describe(&self) -> String {
        match &self.shape {
            Shape::Atms(s) => format!(
                "schnorr-atms (cardano): {} members ({:?} commitment), 2^{} rows",
                s.n, s.mode, s.k
            ),
            Shape::Mithril(s) => format!(
                "mithril (cardano): {} signer slots, quorum k = {}, 2^{} rows",
                s.signer_slots, s.index_slots, s.k
            ),
        }
    }

    /// Verifies `proof` for the statement built from `statement`; the verdict names what was
    /// verified. Refuses as `tms verify --backend cardano` does.
    pub fn verify(&self, statement: &CardanoStatement, proof: &[u8]) -> Result<String, String> {
        if statement.transcript != "blake2b" {
            return Err(format!(
                "transcript {:?}: the Cardano backend proves in midnight-proofs' Blake2b \
                 transcript only (\"blake2b\")",
                statement.transcript
            ));
        }
        let commitment = base_from_hex("commitment", &statement.commitment)?;
        let message = schnorr_atms_jubjub::message_to_field(&statement.message);
        let verdict = match &self.shape {
            Shape::Atms(shape) => {
                let threshold = match statement.threshold {
                    None => return Err("give the threshold: the verifier decides it".into()),
                    Some(t) => t,
                };
                let instance = AtmsInstance::from_trusted_commitment(
                    commitment,
                    &statement.message,
                    threshold,
                );
                instance
                    .validate(shape)
                    .map_err(|e| format!("threshold: {e}"))?;
                schnorr_atms_jubjub::prover::verify::<DefaultTranscriptHash>(
                    &self.params,
                    &self.vk,
                    &instance,
                    proof,
                )
                .map_err(|e| match e {
                    AtmsError::ProofRejected => rejected(),
                    other => other.to_string(),
                })?;
                format!(
                    "verified (schnorr-atms, cardano): at least {threshold} of {} committee \
                     members signed {}; committee commitment {}",
                    shape.n,
                    describe_message(&statement.message, &message),
                    field_to_hex(&commitment),
                )
            }
            Shape::Mithril(shape) => {
                let k = shape.index_slots as u64;
                if let Some(t) = statement.threshold {
                    if t != k {
                        return Err(format!(
                            "threshold {t}: the verifying key's quorum is k = {k}"
                        ));
                    }
                }
                mithril_jubjub::prover::verify_digest(
                    &self.params,
                    &self.vk,
                    commitment,
                    message,
                    proof,
                )
                .map_err(|e| match e {
                    mithril_jubjub::MithrilError::ProofRejected => rejected(),
                    other => other.to_string(),
                })?;
                format!(
                    "verified (mithril, cardano): {k} distinct lottery indices won by registered \
                     parties signed {}; registration digest {}",
                    describe_message(&statement.message, &message),
                    field_to_hex(&commitment),
                )
            }
        };
        Ok(format!(
            "{verdict}; verifying key pinned (sha256 {}), verifier parameters pinned (sha256 {})",
            self.vk_fingerprint, self.params_fingerprint
        ))
    }
}

fn rejected() -> String {
    "the proof does not verify for the trusted statement (cardano backend, blake2b transcript)"
        .into()
}

/// `what`, given as `0x` + 64 hex digits (big-endian), below the BLS12-381 scalar field order.
fn base_from_hex(what: &str, s: &str) -> Result<Base, String> {
    field_from_hex(what, s, "BLS12-381")
}
