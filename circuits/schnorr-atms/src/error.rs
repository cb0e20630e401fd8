//! The crate's error type.

use thiserror::Error;
use tms_gadgets::GadgetError;

/// Errors of the Schnorr ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// The shape, the statement or the certificate fails a check both Schnorr ATMS circuits
    /// make ([`atms_core::CheckError`]).
    #[error(transparent)]
    Check(#[from] atms_core::CheckError),
    /// The same key appears twice in the committee.
    #[error("committee members {first} and {second} have the same key")]
    DuplicateMember {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// A proof of possession does not verify ([`crate::Committee::register`]).
    #[error("member {0}'s proof of possession does not verify")]
    InvalidPossession(usize),
    /// A committee that does not split into these chunks ([`crate::Committee::chunks`]).
    #[error("a committee of {n} does not split into {count} chunks: {reason}")]
    BadChunks {
        /// Committee size.
        n: usize,
        /// Chunks asked for.
        count: usize,
        /// Why not.
        reason: String,
    },
    /// The witness is for another shape than the keys.
    #[error("the witness shape differs from the proving key's")]
    ShapeMismatch,
    /// The circuit does not fit 2^k rows.
    #[error("the circuit needs more than 2^{0} rows")]
    CircuitTooLarge(u32),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// A key file that cannot be read.
    #[error("malformed key file: {0}")]
    MalformedKeys(String),
    /// A gadget-level error.
    #[error(transparent)]
    Gadget(#[from] GadgetError),
}
