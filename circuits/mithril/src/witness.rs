//! What the circuit is given: its shape, the public statement ([`MithrilInstance`]) and the
//! prover's witness ([`MithrilWitness`]), built from a registration and a certificate.

use tms_gadgets::{
    curve::{hash_to_curve::SvdwWitness, GrumpkinAffine},
    merkle::MerklePath,
    message::message_to_field,
    Fr,
};

use crate::{
    error::MithrilError,
    native::{
        registration::{Registration, RegistrationCommitment},
        signature::{coordinates, hash_to_grumpkin, hash_to_grumpkin_witness, UniqueSignature},
        stm::Certificate,
    },
};

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MithrilShape {
    /// Signer slots (each: Merkle path, DLEQ proof).
    pub signer_slots: usize,
    /// Index slots: exactly the quorum `k` of the parameters.
    pub index_slots: usize,
    /// Registration tree depth.
    pub depth: usize,
    /// log2 of the number of rows.
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
        if !(1..=tms_gadgets::merkle::MAX_DEPTH).contains(&self.depth) {
            return Err(MithrilError::BadShape(format!("depth {}", self.depth)));
        }
        if !(10..=26).contains(&self.k) {
            return Err(MithrilError::BadShape(format!(
                "k = {} is outside 10..=26",
                self.k
            )));
        }
        Ok(())
    }
}

/// The public statement: a registration commitment and the application message. The verifier
/// derives the circuit's public inputs from it ([`Self::to_public_inputs`]): the registration
/// digest (a contract stores it) and the message, nothing on a curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MithrilInstance {
    /// Root, total stake, depth, parameters.
    pub commitment: RegistrationCommitment,
    /// The application message (the signed element is `commitment.message(message)`).
    pub message: Fr,
}

impl MithrilInstance {
    /// The statement a verifier builds from what it trusts: the registration and the message
    /// bytes (the application message is `keccak-256(bytes) mod r`, [`tms_gadgets::message`]).
    /// The circuit computes `H` from it; the verifier hashes nothing to a curve.
    pub fn from_trusted(registration: &Registration, message: &[u8]) -> Self {
        Self {
            commitment: registration.commitment(),
            message: message_to_field(message),
        }
    }

    /// Offset of the registration digest in the instance column.
    pub const DIGEST: usize = 0;
    /// Offset of the message.
    pub const MESSAGE: usize = 1;
    /// The number of public inputs (one instance column).
    pub const NUM_PUBLIC_INPUTS: usize = 2;

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

    /// `H = H_G(commitment.message(message))`, the base of the unique signatures (the circuit
    /// computes it from the public inputs).
    pub fn h(&self) -> Result<GrumpkinAffine, MithrilError> {
        hash_to_grumpkin(self.commitment.message(self.message))
    }

    /// The prover's witnesses of the circuit's hash to curve of the signed message; refuses
    /// a message whose `H` neither side computes (two mapped points with one x-coordinate).
    pub fn h_witness(&self) -> Result<[SvdwWitness; 2], MithrilError> {
        self.h()?;
        hash_to_grumpkin_witness(self.commitment.message(self.message))
    }

    /// The instance column: `[registration digest, message]`.
    pub fn to_public_inputs(&self) -> Vec<Fr> {
        Self::public_inputs(self.commitment.digest(), self.message)
    }

    /// The instance column of a registration digest and an application message, for a verifier
    /// that holds only the digest (a contract).
    pub fn public_inputs(digest: Fr, message: Fr) -> Vec<Fr> {
        vec![digest, message]
    }
}

/// A signer slot as the circuit reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedSigner {
    /// The verifying key.
    pub key: GrumpkinAffine,
    /// The stake in the leaf.
    pub stake: u64,
    /// The eligibility target in the leaf.
    pub target: Fr,
    /// The Merkle path.
    pub path: MerklePath,
    /// The unique signature and its DLEQ proof.
    pub signature: UniqueSignature,
}

/// An index slot as the circuit reads it: the index, the signer slot it names, and the values it
/// claims for that slot (the tuple looked up in the table of signer slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreparedIndex {
    /// The index `j`, as the cell the circuit loads: a field element, so that a test can play a
    /// prover who claims one outside `[0, 2^32)` (an honest index is an integer below `m`).
    pub index: Fr,
    /// The signer slot's number.
    pub signer: usize,
    /// That signer slot's `sigma`.
    pub sigma: GrumpkinAffine,
    /// That signer slot's target `T`.
    pub target: Fr,
}

impl PreparedIndex {
    /// Index `index` claimed by signer slot `signer` of `signers`, with that slot's values.
    pub fn new(index: u64, signer: usize, signers: &[PreparedSigner]) -> Self {
        let slot = &signers[signer];
        Self {
            index: Fr::from(index),
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
    /// The witnesses of the in-circuit `H = H_G(signed message)`
    /// ([`MithrilInstance::h_witness`]); only the honest ones satisfy the circuit.
    pub h2c: [SvdwWitness; 2],
    /// Exactly `shape.signer_slots` signer slots.
    pub signers: Vec<PreparedSigner>,
    /// Exactly `shape.index_slots` index slots.
    pub indices: Vec<PreparedIndex>,
}

impl MithrilWitness {
    /// The witness of `certificate` for `instance` in `shape`: checks the sizes (not the
    /// signatures: the circuit does) and pads unused signer slots with copies of the last one.
    pub fn new(
        shape: MithrilShape,
        instance: MithrilInstance,
        certificate: &Certificate,
    ) -> Result<Self, MithrilError> {
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
        if let Some((i, slot)) = certificate
            .indices
            .iter()
            .enumerate()
            .find(|(_, s)| s.signer >= certificate.signers.len())
        {
            return Err(MithrilError::SignerSlotOutOfRange {
                index_slot: i,
                signer_slot: slot.signer,
            });
        }
        let mut signers = Vec::with_capacity(shape.signer_slots);
        for (i, slot) in certificate.signers.iter().enumerate() {
            if slot.path.siblings.len() != shape.depth {
                return Err(MithrilError::NotInTree(i));
            }
            for p in [
                &slot.party.key.0,
                &slot.signature.sigma,
                &slot.signature.a,
                &slot.signature.b,
            ] {
                coordinates(p)?;
            }
            signers.push(PreparedSigner {
                key: slot.party.key.0,
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
            h2c: instance.h_witness()?,
            indices: certificate
                .indices
                .iter()
                .map(|slot| PreparedIndex::new(slot.index, slot.signer, &signers))
                .collect(),
            signers,
        })
    }
}
