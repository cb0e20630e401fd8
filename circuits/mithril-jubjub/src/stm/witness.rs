//! The mithril-stm mode's shape, statement and witness.

use mithril_core::stm::StmError;

use crate::{
    ladder::LadderReach,
    native::Base,
    stm::native::{message_element, message_halves, StmCertificate, StmSigner, TREE_DEPTH},
    MithrilError,
};

/// The circuit's shape: everything keygen depends on. mithril-stm fixes `m` and `k` in its
/// circuit (its `CertificateCircuit { k, m, merkle_tree_depth }`); the depth is
/// [`TREE_DEPTH`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StmShape {
    /// Signer slots (each: Merkle path, unique signature).
    pub signer_slots: usize,
    /// Index slots: exactly the quorum `k`.
    pub index_slots: usize,
    /// The number of lotteries `m` (a constant of the circuit).
    pub m: u64,
    /// log2 of the number of rows; the range-check table has `2^(k-1)` rows.
    pub k: u32,
    /// The DLEQ ladder's layout: [`LadderReach::TwoRows`] (the default, 32 bytes smaller
    /// proofs) for certificates verified natively or by a script, [`LadderReach::NextRow`] for
    /// those a chain step verifies in its circuit ([`StmShape::for_chain`]).
    pub ladder: LadderReach,
}

impl StmShape {
    /// The same shape with the layout a chain step's in-circuit verifier takes.
    pub fn for_chain(self) -> Self {
        StmShape {
            ladder: LadderReach::NextRow,
            ..self
        }
    }

    /// Checks the shape can be built: slots, `quorum < m < 2^16` (mithril-stm's bound) and `k`.
    pub fn validate(&self) -> Result<(), MithrilError> {
        if self.signer_slots == 0 || self.index_slots == 0 {
            return Err(MithrilError::BadShape(
                "at least one signer slot and one index slot".into(),
            ));
        }
        if self.index_slots as u64 >= self.m || self.m >= 1 << 16 {
            return Err(MithrilError::BadShape(format!(
                "quorum {} and m = {}: mithril-stm needs quorum < m < 2^16",
                self.index_slots, self.m
            )));
        }
        if !(10..=25).contains(&self.k) {
            return Err(MithrilError::BadShape(format!(
                "k = {} is outside 10..=25",
                self.k
            )));
        }
        Ok(())
    }
}

/// The public statement, mithril-stm's `(merkle_tree_commitment, message)`: the registration
/// root (what its `AggregateVerificationKeyForSnark` holds) and the message, as the two 128-bit
/// halves of its 32 bytes. The circuit hashes them into mithril-stm's message element
/// ([`message_element`]), so a verifier without Poseidon (a Plutus script) reads them from the
/// bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmInstance {
    /// The registration tree's root.
    pub root: Base,
    /// The 32 signed bytes' halves `[low, high]`, each little-endian ([`message_halves`]).
    pub message_halves: [Base; 2],
}

impl StmInstance {
    /// Offset of the root in the instance column.
    pub const ROOT: usize = 0;
    /// Offset of the message's low half (the high half follows).
    pub const MESSAGE: usize = 1;

    /// The statement a verifier builds from what it trusts: the registration root and the 32
    /// message bytes.
    pub fn from_trusted(root: Base, message: &[u8; 32]) -> Self {
        Self {
            root,
            message_halves: message_halves(message),
        }
    }

    /// mithril-stm's message element of the statement.
    pub fn message(&self) -> Base {
        message_element(self.message_halves)
    }

    /// The instance column `[root, low, high]`.
    pub fn to_public_inputs(&self) -> Vec<Base> {
        let [low, high] = self.message_halves;
        vec![self.root, low, high]
    }
}

/// Everything the prover needs. The fields are public so that tests can play a cheating prover.
#[derive(Clone, Debug)]
pub struct StmWitness {
    /// The circuit shape.
    pub shape: StmShape,
    /// The statement.
    pub instance: StmInstance,
    /// Exactly `shape.signer_slots` signer slots.
    pub signers: Vec<StmSigner>,
    /// Exactly `shape.index_slots` index slots `(index as the cell loaded, signer slot)`.
    pub indices: Vec<(Base, usize)>,
}

impl StmWitness {
    /// The witness of `certificate` for `instance` in `shape`: checks the sizes (the circuit
    /// checks the rest) and pads unused signer slots with copies of the last one.
    pub fn new(
        shape: StmShape,
        instance: StmInstance,
        certificate: &StmCertificate,
    ) -> Result<Self, MithrilError> {
        shape.validate()?;
        let mismatch = |m: String| Err(MithrilError::ShapeMismatch(m));
        if certificate.indices.len() != shape.index_slots {
            return mismatch(format!(
                "{} indices for {} index slots",
                certificate.indices.len(),
                shape.index_slots
            ));
        }
        if certificate.signers.is_empty() || certificate.signers.len() > shape.signer_slots {
            return mismatch(format!(
                "{} signers for {} signer slots",
                certificate.signers.len(),
                shape.signer_slots
            ));
        }
        if let Some((index_slot, slot)) = certificate
            .indices
            .iter()
            .enumerate()
            .find(|(_, s)| s.signer >= certificate.signers.len())
        {
            return Err(StmError::SignerSlotOutOfRange {
                index_slot,
                signer_slot: slot.signer,
            }
            .into());
        }
        if let Some(n) = certificate
            .signers
            .iter()
            .position(|s| s.path.siblings.len() != TREE_DEPTH)
        {
            return Err(StmError::NotInTree(n).into());
        }
        let mut signers = certificate.signers.clone();
        while signers.len() < shape.signer_slots {
            signers.push(signers.last().expect("non-empty").clone());
        }
        Ok(Self {
            shape,
            instance,
            signers,
            indices: certificate
                .indices
                .iter()
                .map(|slot| (Base::from(slot.index), slot.signer))
                .collect(),
        })
    }
}
