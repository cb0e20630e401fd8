//! What the circuit is given: its shape, the public statement and the prover's witness.

use tms_gadgets::{
    hash::RescuePrime, message::message_to_field, signature::schnorr::Signature, Fr,
};

use crate::{
    error::AtmsError,
    native::{Certificate, CommitmentMode, Committee},
};

/// How the circuit checks the signatures.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Verification {
    /// One GLV ladder `s G + c (-pk)` per slot ([`tms_gadgets::curve::glv`]).
    #[default]
    PerSignature,
    /// All slots at once: random coefficients derived in-circuit and one multi-scalar
    /// multiplication on the pair gate ([`tms_gadgets::signature::batch`]).
    Batch,
}

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AtmsShape {
    /// Committee size.
    pub n: usize,
    /// Commitment mode.
    pub mode: CommitmentMode,
    /// log2 of the number of rows.
    pub k: u32,
    /// How signatures are checked (per signature in key files written before batch mode).
    #[serde(default)]
    pub verification: Verification,
}

atms_core::atms_statement! {
    /// The BN254/Grumpkin side of the statement both Schnorr ATMS circuits share.
    curve: GrumpkinAtms,
    field: Fr,
    shape: AtmsShape,
    committee: Committee,
    error: AtmsError,
    k: 10..=26,
    message: message_to_field,
}

/// Everything the prover needs: the statement and the slots' contents
/// ([`atms_core::AtmsWitness`], built by [`atms_core::AtmsWitness::new`]).
pub type AtmsWitness = atms_core::AtmsWitness<GrumpkinAtms>;

/// The contents of one circuit slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWitness {
    /// Committee index of the slot's key (flat mode: the slot's position).
    pub index: usize,
    /// The member's signature, or `None` for a disabled slot.
    pub signature: Option<Signature>,
}

impl atms_core::AtmsProver for GrumpkinAtms {
    type Signature = Signature;
    type Certificate = Certificate;
    type Slot = SlotWitness;

    fn certificate(certificate: &Certificate) -> (Fr, &[(usize, Signature)]) {
        (certificate.message, &certificate.signatures)
    }

    fn verifies(committee: &Committee, index: usize, message: Fr, sig: &Signature) -> Option<bool> {
        let key = committee.keys().get(index)?;
        Some(key.verify(&RescuePrime, message, sig))
    }

    fn slots(
        _: &AtmsShape,
        _: &Committee,
        filled: Vec<(usize, Option<Signature>)>,
    ) -> Vec<SlotWitness> {
        let slot = |(index, signature)| SlotWitness { index, signature };
        filled.into_iter().map(slot).collect()
    }
}
