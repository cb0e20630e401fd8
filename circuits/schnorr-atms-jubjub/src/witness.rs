//! What the circuit is given: its shape, the public statement and the prover's witness.

use crate::{
    error::AtmsError,
    native::{
        committee_depth, message_to_field, Base, Certificate, CommitmentMode, Committee, Signature,
    },
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
    /// Number of signature slots in the circuit.
    pub fn slots(&self) -> usize {
        match self.mode {
            CommitmentMode::Flat => self.n,
            CommitmentMode::Merkle { slots } => slots,
        }
    }

    /// Merkle depth for the committee (at least 1).
    pub fn depth(&self) -> usize {
        committee_depth(self.n)
    }

    /// Bits of the count and threshold comparison: both are at most `slots < 2^bits`.
    pub fn count_bits(&self) -> u32 {
        usize::BITS - self.slots().leading_zeros() + 1
    }

    /// Checks the shape is usable.
    pub fn validate(&self) -> Result<(), AtmsError> {
        if self.n == 0 {
            return Err(AtmsError::EmptyCommittee);
        }
        if let CommitmentMode::Merkle { slots } = self.mode {
            if slots == 0 || slots > self.n {
                return Err(AtmsError::BadSlots { slots, n: self.n });
            }
        }
        if !(10..=25).contains(&self.k) {
            return Err(AtmsError::BadK(self.k));
        }
        Ok(())
    }
}

/// The public statement, in instance order `[commitment, message, threshold]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtmsInstance {
    /// The committee commitment (flat hash or Merkle root).
    pub commitment: Base,
    /// The signed message as a field element ([`message_to_field`]).
    pub message: Base,
    /// The threshold t: at least t valid signatures.
    pub threshold: u64,
}

impl AtmsInstance {
    /// Offset of the commitment in the instance column.
    pub const COMMITMENT: usize = 0;
    /// Offset of the message.
    pub const MESSAGE: usize = 1;
    /// Offset of the threshold.
    pub const THRESHOLD: usize = 2;
    /// The number of public inputs (one instance column).
    pub const NUM_PUBLIC_INPUTS: usize = 3;

    /// The instance column, in offset order.
    pub fn to_public_inputs(&self) -> Vec<Base> {
        vec![self.commitment, self.message, Base::from(self.threshold)]
    }

    /// The statement a verifier builds from what it trusts: the committee (its commitment in
    /// `shape`'s mode), the message bytes (signed as [`message_to_field`]) and the threshold.
    /// Nothing comes from the prover.
    pub fn from_trusted(
        shape: &AtmsShape,
        committee: &Committee,
        message: &[u8],
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        if committee.keys().len() != shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: shape.n,
                got: committee.keys().len(),
            });
        }
        // A threshold of 0 is met by a certificate of no signature: it certifies anything.
        if threshold == 0 {
            return Err(AtmsError::ThresholdZero);
        }
        let instance =
            Self::from_trusted_commitment(committee.commitment(shape.mode), message, threshold);
        instance.validate(shape)?;
        Ok(instance)
    }

    /// The statement from a commitment the verifier trusts (e.g. one a script holds as a
    /// parameter), the message bytes and the threshold.
    pub fn from_trusted_commitment(commitment: Base, message: &[u8], threshold: u64) -> Self {
        Self {
            commitment,
            message: message_to_field(message),
            threshold,
        }
    }

    /// Checks the statement is meaningful for `shape`: the threshold is at most the number of
    /// slots (a larger one could never be met). A threshold of 0 is a statement a prover may
    /// make (a committee chunk without signers, joined with others); a verifier never asks for
    /// it ([`AtmsInstance::from_trusted`]).
    pub fn validate(&self, shape: &AtmsShape) -> Result<(), AtmsError> {
        if self.threshold > shape.slots() as u64 {
            return Err(AtmsError::ThresholdTooLarge {
                threshold: self.threshold,
                slots: shape.slots(),
            });
        }
        Ok(())
    }
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
        shape.validate()?;
        if committee.keys().len() != shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: shape.n,
                got: committee.keys().len(),
            });
        }
        let instance = AtmsInstance {
            commitment: committee.commitment(shape.mode),
            message: certificate.message,
            threshold,
        };
        instance.validate(&shape)?;
        for (pos, (i, sig)) in certificate.signatures.iter().enumerate() {
            let key = committee
                .keys()
                .get(*i)
                .ok_or(AtmsError::NotInCommittee(pos))?;
            if !key.verify(certificate.message, sig) {
                return Err(AtmsError::InvalidSignature(pos));
            }
            if pos > 0 && certificate.signatures[pos - 1].0 >= *i {
                return Err(AtmsError::DuplicateSigner(*i));
            }
        }
        let count = certificate.signatures.len();
        if (count as u64) < threshold {
            return Err(AtmsError::BelowThreshold { count, threshold });
        }
        if count > shape.slots() {
            return Err(AtmsError::TooManySignatures {
                signatures: count,
                slots: shape.slots(),
            });
        }
        let signers: Vec<usize> = certificate.signatures.iter().map(|(i, _)| *i).collect();
        // Merkle mode: one tree for all slots' paths.
        let tree = matches!(shape.mode, CommitmentMode::Merkle { .. }).then(|| committee.tree());
        let slots = atms_core::slot_indices(shape.mode, shape.n, &signers)
            .expect("the signers fit the slots, the slots the committee")
            .into_iter()
            .map(|index| SlotWitness {
                index,
                signature: certificate
                    .signatures
                    .iter()
                    .find(|(i, _)| *i == index)
                    .map(|(_, s)| *s),
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
