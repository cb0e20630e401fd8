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
        // Verified one by one up to the first failure; `fill_slots` names it.
        let mut verified: Vec<Option<bool>> = vec![];
        for (i, sig) in &certificate.signatures {
            let ok = committee
                .keys()
                .get(*i)
                .map(|key| key.verify(certificate.message, sig));
            verified.push(ok);
            if ok != Some(true) {
                break;
            }
        }
        let filled = atms_core::fill_slots(
            shape.mode,
            shape.n,
            &certificate.signatures,
            &verified,
            threshold,
        )?;
        // Merkle mode: one tree for all slots' paths.
        let tree = matches!(shape.mode, CommitmentMode::Merkle { .. }).then(|| committee.tree());
        let slots = filled
            .into_iter()
            .map(|(index, signature)| SlotWitness {
                index,
                signature,
                path: tree.as_ref().map(|t| t.path(index)).unwrap_or_default(),
            })
            .collect();
        Ok(Self {
            shape,
            committee: committee.clone(),
            instance,
            slots,
        })
    }
}
