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
        stm::{GrumpkinStm, SignerSlot},
    },
};

mithril_core::mithril_statement! {
    field: Fr,
    point: GrumpkinAffine,
    registration: Registration,
    commitment: RegistrationCommitment,
    stm: GrumpkinStm,
    error: MithrilError,
    message: message_to_field,
    depths: 1..=tms_gadgets::merkle::MAX_DEPTH,
    ks: 10..=26,
    shape: [#[derive(serde::Serialize, serde::Deserialize)]],
    instance: [
        /// The public statement: a registration commitment and the application message. The
        /// verifier derives the circuit's public inputs from it ([`Self::to_public_inputs`]): the
        /// registration digest (a contract stores it) and the message (`keccak-256(bytes) mod r`,
        /// [`tms_gadgets::message`]), nothing on a curve: the circuit computes `H` from them.
    ],
    witness: [
        /// The witnesses of the in-circuit `H = H_G(signed message)`
        /// ([`MithrilInstance::h_witness`]); only the honest ones satisfy the circuit.
        h2c: [SvdwWitness; 2] = MithrilInstance::h_witness,
    ],
}

impl MithrilInstance {
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

/// A signer slot as the circuit reads it; refuses a point the circuit cannot load (the identity
/// or one off the curve).
fn prepare_signer(slot: &SignerSlot) -> Result<PreparedSigner, MithrilError> {
    for p in [
        &slot.party.key.0,
        &slot.signature.sigma,
        &slot.signature.a,
        &slot.signature.b,
    ] {
        coordinates(p)?;
    }
    Ok(PreparedSigner {
        key: slot.party.key.0,
        stake: slot.party.stake,
        target: slot.party.target,
        path: slot.path.clone(),
        signature: slot.signature,
    })
}
