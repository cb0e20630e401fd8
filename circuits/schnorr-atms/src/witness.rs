//! What the circuit is given: its shape, the public statement and the prover's witness.

use rayon::prelude::*;
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

/// Everything the prover needs: the statement and the slots' contents.
#[derive(Clone, Debug)]
pub struct AtmsWitness {
    /// The circuit shape.
    pub shape: AtmsShape,
    /// The committee.
    pub committee: Committee,
    /// The public statement.
    pub instance: AtmsInstance,
    /// One entry per circuit slot.
    pub slots: Vec<SlotWitness>,
}

/// The contents of one circuit slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWitness {
    /// Committee index of the slot's key (flat mode: the slot's position).
    pub index: usize,
    /// The member's signature, or `None` for a disabled slot.
    pub signature: Option<Signature>,
}

impl AtmsWitness {
    /// The witness for proving `certificate` meets `threshold` in a circuit of `shape`. Checks
    /// everything the circuit will (so a bad certificate fails here, with a reason, not in the
    /// prover).
    pub fn new(
        shape: AtmsShape,
        committee: &Committee,
        certificate: &Certificate,
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        let instance =
            AtmsInstance::for_certificate(&shape, committee, certificate.message, threshold)?;
        // The signatures are verified in parallel; errors are reported in certificate order, as
        // a sequential check would.
        let verified: Vec<Option<bool>> = certificate
            .signatures
            .par_iter()
            .map(|(i, sig)| {
                let key = committee.keys().get(*i)?;
                Some(key.verify(&RescuePrime, certificate.message, sig))
            })
            .collect();
        let slots = atms_core::fill_slots(
            shape.mode,
            shape.n,
            &certificate.signatures,
            &verified,
            threshold,
        )?
        .into_iter()
        .map(|(index, signature)| SlotWitness { index, signature })
        .collect();
        Ok(Self {
            shape,
            committee: committee.clone(),
            instance,
            slots,
        })
    }
}
