//! What the circuit is given: its shape, the public statement ([`MithrilInstance`]) and the
//! prover's witness ([`MithrilWitness`]), built from a registration and a certificate.

use midnight_curves::JubjubSubgroup;

use crate::{
    error::MithrilError,
    native::{
        message_to_field, Base, Certificate, Registration, RegistrationCommitment, SignerSlot,
        UniqueSignature, VerifyingKey,
    },
};

mithril_core::mithril_statement! {
    field: Base,
    point: JubjubSubgroup,
    registration: Registration,
    commitment: RegistrationCommitment,
    certificate: Certificate,
    signer_slot: SignerSlot,
    error: MithrilError,
    message: message_to_field,
    depths: 1..=32,
    ks: 10..=25,
    shape: [],
    instance: [
        /// The public statement: a registration commitment and the application message. The
        /// public inputs are `[registration digest, message]` ([`Self::to_public_inputs`]): a
        /// script stores the digest and computes the message from the bytes
        /// ([`message_to_field`]: `blake2b-256 mod q`).
    ],
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
        let (signers, indices) = prepare_slots(&shape, certificate, |i, slot| {
            if slot.path.len() != shape.depth {
                return Err(MithrilError::NotInTree(i));
            }
            Ok(PreparedSigner {
                position: slot.position,
                key: slot.party.key,
                stake: slot.party.stake,
                target: slot.party.target,
                path: slot.path.clone(),
                signature: slot.signature,
            })
        })?;
        Ok(Self {
            shape,
            instance,
            signers,
            indices,
        })
    }
}
