use thiserror::Error;
use tms_gadgets::GadgetError;

/// Errors of the native SNARK-Mithril scheme. None of them is a panic: every check on user input
/// (parameters, stakes, keys, signatures, certificates) reports one of these.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MithrilError {
    /// A curve-independent check failed (parameters, stakes, repeated keys, the eligibility
    /// target, lottery indices: [`mithril_core::CoreError`]).
    #[error(transparent)]
    Core(#[from] mithril_core::CoreError),
    /// A point that must be an affine point (key, hashed message, signature, commitment) is the
    /// identity.
    #[error("the point at infinity is not a valid key, message point, signature or commitment")]
    IdentityPoint,
    /// A point given as a key, signature or proof commitment is not on Grumpkin.
    #[error("the point is not on the Grumpkin curve")]
    NotOnCurve,
    /// A certificate or a single signature breaks the scheme ([`mithril_core::stm::StmError`]:
    /// an unregistered key, a signature that does not verify, a lost lottery, signer slots out
    /// of range, unused, repeated or outside the tree).
    #[error(transparent)]
    Check(#[from] mithril_core::stm::StmError),
    /// The certificate was made for another registration (root, total stake or parameters).
    #[error("the certificate does not match the registration commitment")]
    WrongRegistration,
    /// A circuit shape that cannot be built (no slots, k out of range, ...).
    #[error("invalid circuit shape: {0}")]
    BadShape(String),
    /// A statement or certificate that does not fit the circuit shape.
    #[error("the statement or certificate does not fit the circuit shape: {0}")]
    ShapeMismatch(String),
    /// The circuit does not fit `2^k` rows.
    #[error("the circuit needs more than 2^{0} rows")]
    CircuitTooLarge(u32),
    /// A chain of no certificate shows nothing.
    #[error("a chain needs at least one certificate")]
    EmptyChain,
    /// A chain's certificate is signed by another registration than the one the chain hands
    /// over to (the genesis for epoch 0).
    #[error(
        "chain epoch {epoch}: signed by another registration than the previous certificate named"
    )]
    ChainSignedByOther {
        /// The epoch (0-based).
        epoch: usize,
    },
    /// A chain's certificate signs for another epoch than its place in the chain (a repeated
    /// registration's certificate appended again, or a chain cut at an older certificate).
    #[error("chain epoch {epoch}: the certificate signs for epoch {signed}")]
    ChainEpoch {
        /// Its place in the chain (0-based).
        epoch: usize,
        /// The epoch its link message binds.
        signed: u64,
    },
    /// A chain's certificate does not verify on its link message.
    #[error("chain epoch {epoch}: {reason}")]
    ChainCertificate {
        /// The epoch (0-based).
        epoch: usize,
        /// Why.
        reason: Box<MithrilError>,
    },
    /// The chain verifies but shows another statement than claimed.
    #[error("the chain's {0} differs from the claimed one")]
    ChainStatement(&'static str),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// An error of the shared gadgets (hashing, Merkle paths).
    #[error(transparent)]
    Gadget(#[from] GadgetError),
}
