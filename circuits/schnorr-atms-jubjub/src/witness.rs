//! What the circuit is given: its shape, the public statement and the prover's witness.

use crate::{
    error::AtmsError,
    native::{message_to_field, Base, Certificate, CommitmentMode, Committee, Signature},
};

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtmsShape {
    /// Committee size.
    pub n: usize,
    /// Commitment mode.
    pub mode: CommitmentMode,
    /// log2 of the number of rows. The range-check table has `2^(k-1)` rows.
    pub k: u32,
}

impl AtmsShape {
    /// Bits of the count and threshold comparison: both are at most `slots < 2^bits`.
    pub fn count_bits(&self) -> u32 {
        usize::BITS - self.slots().leading_zeros() + 1
    }
}

atms_core::atms_statement! {
    /// The BLS12-381/Jubjub side of the statement both Schnorr ATMS circuits share.
    curve: JubjubAtms,
    field: Base,
    shape: AtmsShape,
    committee: Committee,
    error: AtmsError,
    k: 10..=25,
    message: message_to_field,
}

/// The contents of one circuit slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWitness {
    /// Committee index of the slot's key (flat mode: the slot's position).
    pub index: usize,
    /// The member's signature, or `None` for a disabled slot.
    pub signature: Option<Signature>,
    /// Merkle mode: the siblings from the member's leaf to the root (empty in flat mode).
    pub path: Vec<Base>,
}

/// Everything the prover needs: the statement and the slots' contents
/// ([`atms_core::AtmsWitness`], built by [`atms_core::AtmsWitness::new`]).
pub type AtmsWitness = atms_core::AtmsWitness<JubjubAtms>;

impl atms_core::AtmsProver for JubjubAtms {
    type Signature = Signature;
    type Certificate = Certificate;
    type Slot = SlotWitness;

    fn certificate(certificate: &Certificate) -> (Base, &[(usize, Signature)]) {
        (certificate.message, &certificate.signatures)
    }

    fn verifies(
        committee: &Committee,
        index: usize,
        message: Base,
        sig: &Signature,
    ) -> Option<bool> {
        Some(committee.keys().get(index)?.verify(message, sig))
    }

    /// Merkle mode: one tree for all slots' paths.
    fn slots(
        shape: &AtmsShape,
        committee: &Committee,
        filled: Vec<(usize, Option<Signature>)>,
    ) -> Vec<SlotWitness> {
        let tree = matches!(shape.mode, CommitmentMode::Merkle { .. }).then(|| committee.tree());
        filled
            .into_iter()
            .map(|(index, signature)| SlotWitness {
                index,
                signature,
                path: tree.as_ref().map(|t| t.path(index)).unwrap_or_default(),
            })
            .collect()
    }
}
