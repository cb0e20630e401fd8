//! The crate's error type.

use thiserror::Error;

/// Errors of the Jubjub Schnorr ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// The shape, the statement or the certificate fails a check both Schnorr ATMS circuits
    /// make ([`atms_core::CheckError`]).
    #[error(transparent)]
    Check(#[from] atms_core::CheckError),
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
    /// A member's proof of possession does not verify for its key.
    #[error("member {0}'s proof of possession does not verify for its key")]
    InvalidPossession(usize),
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

impl From<tms_cardano::backend::BackendError> for AtmsError {
    fn from(e: tms_cardano::backend::BackendError) -> Self {
        Self::Backend(e.to_string())
    }
}
