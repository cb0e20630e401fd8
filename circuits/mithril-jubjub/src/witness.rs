//! What the circuit is given: its shape, the public statement ([`MithrilInstance`]) and the
//! prover's witness ([`MithrilWitness`]), built from a registration and a certificate.

use midnight_curves::JubjubSubgroup;

use crate::{
    error::MithrilError,
    native::{
        message_to_field, Base, JubjubStm, Registration, RegistrationCommitment, SignerSlot,
        UniqueSignature, VerifyingKey,
    },
};

mithril_core::mithril_statement! {
    field: Base,
    point: JubjubSubgroup,
    registration: Registration,
    commitment: RegistrationCommitment,
    stm: JubjubStm,
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
    witness: [],
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

/// A signer slot as the circuit reads it (every point is in the subgroup by its type).
fn prepare_signer(slot: &SignerSlot) -> Result<PreparedSigner, MithrilError> {
    Ok(PreparedSigner {
        position: slot.position,
        key: slot.party.key,
        stake: slot.party.stake,
        target: slot.party.target,
        path: slot.path.clone(),
        signature: slot.signature,
    })
}
