use mithril_core::CoreError;
use thiserror::Error;

/// Errors of SNARK-Mithril on Jubjub: every check on user input reports one of these.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MithrilError {
    /// A curve-independent check (parameters, stakes, indices) failed.
    #[error(transparent)]
    Core(#[from] CoreError),
    /// A registered key is the identity.
    #[error("party {0} registers the identity as its key")]
    IdentityKey(usize),
    /// The hash to curve gave the identity (never observed).
    #[error("the message hashes to the identity")]
    IdentityPoint,
    /// A certificate or a single signature breaks the scheme ([`mithril_core::stm::StmError`]:
    /// an unregistered key, a signature that does not verify, a lost lottery, signer slots out
    /// of range, unused, repeated or outside the tree).
    #[error(transparent)]
    Check(#[from] mithril_core::stm::StmError),
    /// A shape that cannot be built.
    #[error("invalid circuit shape: {0}")]
    BadShape(String),
    /// A statement or certificate that does not fit the shape.
    #[error("the statement or certificate does not fit the circuit shape: {0}")]
    ShapeMismatch(String),
    /// The proof system failed (keygen, proving).
    #[error("proof system: {0}")]
    Backend(String),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// A value in mithril-stm's encoding that does not decode, or breaks one of its rules
    /// (the [`crate::stm`] mode).
    #[error("mithril-stm: {0}")]
    Stm(String),
}

impl From<tms_cardano::backend::BackendError> for MithrilError {
    fn from(e: tms_cardano::backend::BackendError) -> Self {
        Self::Backend(e.to_string())
    }
}
