//! The crate's error type.

use thiserror::Error;

/// Errors of the Jubjub Schnorr ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// A committee needs at least one member.
    #[error("the committee is empty")]
    EmptyCommittee,
    /// The identity is not a key.
    #[error("committee member {0} is the identity")]
    IdentityKey(usize),
    /// The same key appears twice in the committee.
    #[error("committee members {first} and {second} have the same key")]
    DuplicateMember {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// Merkle mode needs between 1 and n slots.
    #[error("{slots} signer slots do not fit a committee of {n}")]
    BadSlots {
        /// Slots asked for.
        slots: usize,
        /// Committee size.
        n: usize,
    },
    /// k outside the supported range.
    #[error("k = {0} is outside 10..=25")]
    BadK(u32),
    /// The committee does not match the shape.
    #[error("the committee has {got} members, the circuit shape {expected}")]
    CommitteeSize {
        /// Shape's n.
        expected: usize,
        /// Committee's size.
        got: usize,
    },
    /// A threshold of 0: met by no signature at all, it would certify any message.
    #[error("a threshold of 0 certifies anything: the threshold must be at least 1")]
    ThresholdZero,
    /// The threshold exceeds the slots.
    #[error("threshold {threshold} is above the {slots} signature slots")]
    ThresholdTooLarge {
        /// The threshold.
        threshold: u64,
        /// Number of slots.
        slots: usize,
    },
    /// A signature's key is not a committee member.
    #[error("signature {0} is by a key outside the committee")]
    NotInCommittee(usize),
    /// Two signatures by the same member.
    #[error("member {0} signed twice")]
    DuplicateSigner(usize),
    /// A signature does not verify.
    #[error("signature {0} does not verify for this message")]
    InvalidSignature(usize),
    /// A member's proof of possession does not verify for its key.
    #[error("member {0}'s proof of possession does not verify for its key")]
    InvalidPossession(usize),
    /// Fewer valid signatures than the threshold.
    #[error("{count} valid signatures are below the threshold {threshold}")]
    BelowThreshold {
        /// Valid signatures.
        count: usize,
        /// Threshold.
        threshold: u64,
    },
    /// More signatures than Merkle-mode slots.
    #[error("{signatures} signatures do not fit {slots} slots")]
    TooManySignatures {
        /// Signatures given.
        signatures: usize,
        /// Slots available.
        slots: usize,
    },
    /// The witness is for another shape than the keys.
    #[error("the witness shape differs from the proving key's")]
    ShapeMismatch,
    /// The backend refused (parameters of another size, midnight-proofs in keygen or proving):
    /// its message.
    #[error("{0}")]
    Backend(String),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
}

impl From<atms_core::SignerError> for AtmsError {
    fn from(e: atms_core::SignerError) -> Self {
        match e {
            atms_core::SignerError::NotInCommittee(pos) => Self::NotInCommittee(pos),
            atms_core::SignerError::DuplicateSigner(index) => Self::DuplicateSigner(index),
            atms_core::SignerError::InvalidSignature(pos) => Self::InvalidSignature(pos),
        }
    }
}

impl From<tms_cardano::backend::BackendError> for AtmsError {
    fn from(e: tms_cardano::backend::BackendError) -> Self {
        Self::Backend(e.to_string())
    }
}
