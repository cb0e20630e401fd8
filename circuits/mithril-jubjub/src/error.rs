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
    /// The signing key is not registered.
    #[error("the key is not registered")]
    NotRegistered,
    /// A unique signature does not verify (signer slot or registration index).
    #[error("the unique signature of {0} does not verify")]
    InvalidSignature(usize),
    /// A claimed index is not won by its signer.
    #[error("lottery index {0} is not won by its signer")]
    LostLottery(u64),
    /// An index slot names a missing signer slot.
    #[error("an index slot names missing signer slot {0}")]
    SignerSlotOutOfRange(usize),
    /// A signer slot no index slot uses.
    #[error("signer slot {0} is not used by any index slot")]
    UnusedSignerSlot(usize),
    /// Signer slots not strictly increasing in registration index.
    #[error("signer slots must have strictly increasing registration indices (slot {0})")]
    SignersNotIncreasing(usize),
    /// A signer slot's leaf is not under the root at its position.
    #[error("signer slot {0} is not a registered leaf under the root")]
    NotInTree(usize),
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

impl From<mithril_core::statement::SlotError> for MithrilError {
    fn from(e: mithril_core::statement::SlotError) -> Self {
        use mithril_core::statement::SlotError as S;
        match e {
            S::Mismatch(m) => Self::ShapeMismatch(m),
            S::SignerOutOfRange { signer_slot, .. } => Self::SignerSlotOutOfRange(signer_slot),
        }
    }
}

impl From<tms_cardano::backend::BackendError> for MithrilError {
    fn from(e: tms_cardano::backend::BackendError) -> Self {
        Self::Backend(e.to_string())
    }
}
