//! A certificate verifier holding a pinned verifying key and pinned KZG verifier parameters, and
//! the statement it builds from what the client trusts. Plain Rust (errors are one-line
//! strings), so the native test runs exactly what the WebAssembly module runs.

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::{MithrilError, MithrilShape};
use schnorr_atms::{AtmsError, AtmsInstance, AtmsShape};
use tms_gadgets::{
    message::{field_bytes, message_to_field},
    proving::Transcript,
    Fr,
};

use crate::params::verifier_params;
pub(crate) use crate::pin::{check_pin, describe_message, hex};

/// The certificate schemes this package verifies (BN254 backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Schnorr ATMS on Grumpkin.
    SchnorrAtms,
    /// BLS ATMS on BN254 (keys in G1, signatures in G2), from the committee digest.
    BlsAtms,
    /// SNARK-Mithril on Grumpkin, from the registration digest.
    Mithril,
}

impl Scheme {
    /// Parses the name `tms --scheme` takes.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "schnorr-atms" => Ok(Self::SchnorrAtms),
            "bls-atms" => Ok(Self::BlsAtms),
            "mithril" => Ok(Self::Mithril),
            other => Err(format!(
                "scheme {other:?}: this package verifies \"schnorr-atms\", \"bls-atms\" and \
                 \"mithril\" (BN254)"
            )),
        }
    }

    /// The name `tms --scheme` takes.
    pub fn name(self) -> &'static str {
        match self {
            Self::SchnorrAtms => "schnorr-atms",
            Self::BlsAtms => "bls-atms",
            Self::Mithril => "mithril",
        }
    }
}

/// The circuit a verifying key is for.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Atms(AtmsShape),
    Bls(bls_atms::AtmsShape),
    Mithril(MithrilShape),
}

/// What the client trusts: the committee's commitment (for Mithril the registration digest),
/// the message bytes and the threshold (for Mithril, if given, the quorum k the key proves).
#[derive(Clone, Debug)]
pub struct Statement {
    /// `0x` + 64 hex digits, below the BN254 scalar field modulus.
    pub commitment: String,
    /// The message bytes the signers signed.
    pub message: Vec<u8>,
    /// The threshold the client requires.
    pub threshold: Option<u64>,
    /// The transcript the proof was made in.
    pub transcript: Transcript,
}

/// A verifier for one pinned verifying key.
pub struct PinnedVerifier {
    scheme: Scheme,
    shape: Shape,
    vk: VerifyingKey<G1Affine>,
    params: ParamsKZG<Bn256>,
    vk_fingerprint: String,
    params_fingerprint: String,
}

impl PinnedVerifier {
    /// Checks the key file and the verifier parameters against their pins, then reads them.
    /// Nothing is parsed before its pin is checked.
    pub fn new(
        scheme: &str,
        vk_file: &[u8],
        vk_fingerprint: &str,
        params_file: &[u8],
        params_fingerprint: &str,
    ) -> Result<Self, String> {
        let scheme = Scheme::parse(scheme)?;
        let vk_fingerprint = check_pin("verifying key", vk_file, vk_fingerprint)?;
        let params_fingerprint = check_pin("verifier parameters", params_file, params_fingerprint)?;
        let (shape, vk) = match scheme {
            Scheme::SchnorrAtms => schnorr_atms::read_vk(vk_file)
                .map(|(s, vk)| (Shape::Atms(s), vk))
                .map_err(|e| format!("verifying key: {e}"))?,
            Scheme::BlsAtms => bls_atms::read_vk(vk_file)
                .map(|(s, vk)| (Shape::Bls(s), vk))
                .map_err(|e| format!("verifying key: {e}"))?,
            Scheme::Mithril => mithril_snark::prover::read_vk(vk_file)
                .map(|(s, vk)| (Shape::Mithril(s), vk))
                .map_err(|e| format!("verifying key: {e}"))?,
        };
        let params = verifier_params(params_file, vk.get_domain().k())?;
        Ok(Self {
            scheme,
            shape,
            vk,
            params,
            vk_fingerprint,
            params_fingerprint,
        })
    }

    /// The scheme and circuit the key is for.
    pub fn describe(&self) -> String {
        let k = self.vk.get_domain().k();
        match self.shape {
            Shape::Atms(s) => format!(
                "schnorr-atms: {} members ({:?} commitment), 2^{k} rows",
                s.n, s.mode
            ),
            Shape::Bls(s) => format!(
                "bls-atms: {} members, up to {} non-signers ({:?}), 2^{k} rows",
                s.n, s.capacity, s.strategy
            ),
            Shape::Mithril(s) => format!(
                "mithril: {} signer slots, quorum k = {}, 2^{k} rows",
                s.signer_slots, s.index_slots
            ),
        }
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Verifies `proof` for the statement built from `statement`; the verdict names what was
    /// verified. Refuses as `tms verify` does.
    pub fn verify(&self, statement: &Statement, proof: &[u8]) -> Result<String, String> {
        let commitment = fr_from_hex("commitment", &statement.commitment)?;
        let message = message_to_field(&statement.message);
        let transcript = statement.transcript;
        let verdict = match self.shape {
            Shape::Atms(shape) => {
                let threshold = required_threshold(statement.threshold)?;
                let instance = AtmsInstance::from_trusted_commitment(
                    commitment,
                    &statement.message,
                    threshold,
                );
                schnorr_atms::verify_with_vk(
                    &self.params,
                    &shape,
                    &self.vk,
                    &instance,
                    proof,
                    transcript,
                )
                .map_err(|e| match e {
                    AtmsError::ProofRejected => rejected(transcript),
                    other => other.to_string(),
                })?;
                format!(
                    "verified (schnorr-atms): at least {threshold} of {} committee members signed \
                     {}; committee commitment {}",
                    shape.n,
                    describe_message(&statement.message, &message),
                    hex(&field_bytes(&commitment)),
                )
            }
            Shape::Bls(shape) => {
                let threshold = required_threshold(statement.threshold)?;
                let instance = bls_atms::AtmsInstance::from_trusted_digest(
                    commitment,
                    &statement.message,
                    threshold,
                );
                bls_atms::verify_with_vk(
                    &self.params,
                    &shape,
                    &self.vk,
                    &instance,
                    proof,
                    transcript,
                )
                .map_err(|e| match e {
                    bls_atms::AtmsError::ProofRejected => rejected(transcript),
                    other => other.to_string(),
                })?;
                format!(
                    "verified (bls-atms): at least {threshold} of {} committee members signed {}; \
                     committee digest {}",
                    shape.n,
                    describe_message(&statement.message, &message),
                    hex(&field_bytes(&commitment)),
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
                mithril_snark::prover::verify_digest_with_vk(
                    &self.params,
                    &self.vk,
                    commitment,
                    message,
                    proof,
                    transcript,
                )
                .map_err(|e| match e {
                    MithrilError::ProofRejected => rejected(transcript),
                    other => other.to_string(),
                })?;
                format!(
                    "verified (mithril): {k} distinct lottery indices won by registered parties \
                     signed {}; registration digest {}",
                    describe_message(&statement.message, &message),
                    hex(&field_bytes(&commitment)),
                )
            }
        };
        Ok(format!(
            "{verdict}; verifying key pinned (sha256 {}), verifier parameters pinned (sha256 {})",
            self.vk_fingerprint, self.params_fingerprint
        ))
    }
}

/// An ATMS threshold: required (the verifier decides it, not the prover) and at least 1.
pub(crate) fn required_threshold(threshold: Option<u64>) -> Result<u64, String> {
    match threshold {
        None => Err("give the threshold: the verifier decides it, not the prover".into()),
        Some(0) => Err("threshold 0: a certificate needs at least one signature".into()),
        Some(t) => Ok(t),
    }
}

/// Parses a transcript name as `tms --transcript` takes it (the verifier runs Blake2b and EVM).
pub fn parse_transcript(name: &str) -> Result<Transcript, String> {
    match name {
        "blake2b" => Ok(Transcript::Blake2b),
        "evm" => Ok(Transcript::Evm),
        other => Err(format!("transcript {other:?}: give \"blake2b\" or \"evm\"")),
    }
}

fn rejected(transcript: Transcript) -> String {
    let other = match transcript {
        Transcript::Blake2b => "evm",
        Transcript::Evm | Transcript::Poseidon => "blake2b",
    };
    format!(
        "the proof does not verify for the trusted statement in the {} transcript (a proof made \
         with `tms prove --transcript {other}` needs transcript \"{other}\")",
        transcript.name()
    )
}

/// `what`, given as `0x` + 64 hex digits (big-endian), below r.
pub(crate) fn fr_from_hex(what: &str, s: &str) -> Result<Fr, String> {
    crate::pin::field_from_hex(what, s, "BN254")
}
