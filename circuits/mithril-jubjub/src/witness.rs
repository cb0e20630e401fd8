//! What the circuit is given: its shape, the public statement ([`MithrilInstance`]) and the
//! prover's witness ([`MithrilWitness`]), built from a registration and a certificate.

use midnight_curves::JubjubSubgroup;

use crate::{
    error::MithrilError,
    native::{
        message_to_field, Base, Certificate, Registration, RegistrationCommitment, UniqueSignature,
        VerifyingKey,
    },
};

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MithrilShape {
    /// Signer slots (each: Merkle path, DLEQ proof).
    pub signer_slots: usize,
    /// Index slots: exactly the quorum `k` of the parameters.
    pub index_slots: usize,
    /// Registration tree depth.
    pub depth: usize,
    /// log2 of the number of rows; the range-check table has `2^(k-1)` rows.
    pub k: u32,
}

impl MithrilShape {
    /// Checks the shape can be built.
    pub fn validate(&self) -> Result<(), MithrilError> {
        if self.signer_slots == 0 || self.index_slots == 0 {
            return Err(MithrilError::BadShape(
                "at least one signer slot and one index slot".into(),
            ));
        }
        if !(1..=32).contains(&self.depth) {
            return Err(MithrilError::BadShape(format!("depth {}", self.depth)));
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

/// The public statement: a registration commitment and the application message. The public
/// inputs are `[registration digest, message]` ([`Self::to_public_inputs`]): a script stores the
/// digest and computes the message from the bytes ([`message_to_field`]: `blake2b-256 mod q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MithrilInstance {
    /// Root, total stake, depth, parameters.
    pub commitment: RegistrationCommitment,
    /// The application message (the signed element is `commitment.message(message)`).
    pub message: Base,
}

impl MithrilInstance {
    /// Offset of the registration digest in the instance column.
    pub const DIGEST: usize = 0;
    /// Offset of the message.
    pub const MESSAGE: usize = 1;
    /// The number of public inputs (one instance column).
    pub const NUM_PUBLIC_INPUTS: usize = 2;

    /// The statement a verifier builds from what it trusts: the registration and the message
    /// bytes.
    pub fn from_trusted(registration: &Registration, message: &[u8]) -> Self {
        Self {
            commitment: registration.commitment(),
            message: message_to_field(message),
        }
    }

    /// Checks the statement fits `shape`: the tree depth and `k` = the number of index slots.
    pub fn validate(&self, shape: &MithrilShape) -> Result<(), MithrilError> {
        if self.commitment.depth != shape.depth {
            return Err(MithrilError::ShapeMismatch(format!(
                "registration depth {} vs circuit depth {}",
                self.commitment.depth, shape.depth
            )));
        }
        if self.commitment.params.k() != shape.index_slots as u64 {
            return Err(MithrilError::ShapeMismatch(format!(
                "quorum k = {} vs {} index slots",
                self.commitment.params.k(),
                shape.index_slots
            )));
        }
        Ok(())
    }

    /// The instance column: `[registration digest, message]`.
    pub fn to_public_inputs(&self) -> Vec<Base> {
        Self::public_inputs(self.commitment.digest(), self.message)
    }

    /// The instance column of a digest a verifier trusts (e.g. a script parameter) and a
    /// message.
    pub fn public_inputs(digest: Base, message: Base) -> Vec<Base> {
        vec![digest, message]
    }
}

/// A signer slot as the circuit reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedSigner {
    /// The leaf's position (registration index).
    pub position: usize,
    /// The verifying key.
    pub key: VerifyingKey,
    /// The stake in the leaf.
    pub stake: u64,
    /// The eligibility target in the leaf.
    pub target: Base,
    /// The Merkle path (siblings, bottom up).
    pub path: Vec<Base>,
    /// The unique signature and its DLEQ proof.
    pub signature: UniqueSignature,
}

/// An index slot as the circuit reads it: the index, the signer slot it names, and the values it
/// claims for that slot (the tuple looked up in the signer table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreparedIndex {
    /// The index `j` as the cell the circuit loads (a test can claim one outside `[0, 2^32)`).
    pub index: Base,
    /// The signer slot's number.
    pub signer: usize,
    /// That signer slot's `sigma`.
    pub sigma: JubjubSubgroup,
    /// That signer slot's target `T`.
    pub target: Base,
}

impl PreparedIndex {
    /// Index `index` claimed by signer slot `signer` of `signers`, with that slot's values.
    pub fn new(index: u64, signer: usize, signers: &[PreparedSigner]) -> Self {
        let slot = &signers[signer];
        Self {
            index: Base::from(index),
            signer,
            sigma: slot.signature.sigma,
            target: slot.target,
        }
    }
}

/// Everything the prover needs. The fields are public so that tests can play a cheating prover.
#[derive(Clone, Debug)]
pub struct MithrilWitness {
    /// The circuit shape.
    pub shape: MithrilShape,
    /// The statement.
    pub instance: MithrilInstance,
    /// Exactly `shape.signer_slots` signer slots.
    pub signers: Vec<PreparedSigner>,
    /// Exactly `shape.index_slots` index slots.
    pub indices: Vec<PreparedIndex>,
}

impl MithrilWitness {
    /// The witness of `certificate` for `instance` in `shape`: checks the sizes (the circuit
    /// checks the rest) and pads unused signer slots with copies of the last one.
    pub fn new(
        shape: MithrilShape,
        instance: MithrilInstance,
        certificate: &Certificate,
    ) -> Result<Self, MithrilError> {
        shape.validate()?;
        instance.validate(&shape)?;
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
        if let Some(slot) = certificate
            .indices
            .iter()
            .find(|s| s.signer >= certificate.signers.len())
        {
            return Err(MithrilError::SignerSlotOutOfRange(slot.signer));
        }
        let mut signers = Vec::with_capacity(shape.signer_slots);
        for (i, slot) in certificate.signers.iter().enumerate() {
            if slot.path.len() != shape.depth {
                return Err(MithrilError::NotInTree(i));
            }
            signers.push(PreparedSigner {
                position: slot.position,
                key: slot.party.key,
                stake: slot.party.stake,
                target: slot.party.target,
                path: slot.path.clone(),
                signature: slot.signature,
            });
        }
        while signers.len() < shape.signer_slots {
            signers.push(signers.last().expect("non-empty").clone());
        }
        Ok(Self {
            shape,
            instance,
            indices: certificate
                .indices
                .iter()
                .map(|slot| PreparedIndex::new(slot.index, slot.signer, &signers))
                .collect(),
            signers,
        })
    }
}
