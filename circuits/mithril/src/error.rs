use thiserror::Error;
use tms_gadgets::GadgetError;

/// Errors of the native SNARK-Mithril scheme. None of them is a panic: every check on user input
/// (parameters, stakes, keys, signatures, certificates) reports one of these.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MithrilError {
    /// The parameters are inconsistent: `m` or `k` is zero, or `k > m`.
    #[error("invalid parameters: {0}")]
    InvalidParameters(&'static str),
    /// `phi_f = num / den` is not strictly between 0 and 1.
    #[error("phi_f = {num}/{den} must lie strictly between 0 and 1")]
    PhiFOutOfRange {
        /// Numerator as given.
        num: u64,
        /// Denominator as given.
        den: u64,
    },
    /// A stake share above one (stake larger than the total stake).
    #[error("stake {stake} exceeds the total stake {total}")]
    StakeAboveTotal {
        /// The party's stake.
        stake: u64,
        /// The total stake.
        total: u64,
    },
    /// A registration with no parties.
    #[error("a registration needs at least one party")]
    EmptyRegistration,
    /// A party registered with zero stake (it could never win a lottery).
    #[error("party {0} has zero stake")]
    ZeroStake(usize),
    /// The stakes add up to more than `u64::MAX`.
    #[error("the total stake overflows u64")]
    StakeOverflow,
    /// The same verifying key was registered twice.
    #[error("party {0} repeats an already registered key")]
    DuplicateKey(usize),
    /// The signing key is not registered.
    #[error("the key is not registered")]
    NotRegistered,
    /// The certified interval evaluation of the eligibility target did not separate the target
    /// from its neighbours even at the largest working precision (never observed; it would need
    /// `phi(w) r` within about `2^-2000` of an integer).
    #[error("eligibility target undecided at the maximum precision")]
    TargetUndecided,
    /// A point that must be an affine point (key, hashed message, signature, commitment) is the
    /// identity.
    #[error("the point at infinity is not a valid key, message point, signature or commitment")]
    IdentityPoint,
    /// A point given as a key, signature or proof commitment is not on Grumpkin.
    #[error("the point is not on the Grumpkin curve")]
    NotOnCurve,
    /// The unique signature (its DLEQ proof) does not verify for the key and message.
    #[error("the unique signature of signer slot {slot} does not verify")]
    InvalidSignature {
        /// The signer slot (in a certificate) or the registration index (for a single signature).
        slot: usize,
    },
    /// A lottery index at or above `m`.
    #[error("lottery index {index} is not below m = {m}")]
    IndexOutOfRange {
        /// The index.
        index: u64,
        /// The number of lotteries.
        m: u64,
    },
    /// Lottery indices that are not strictly increasing (a repeated or a decreasing index).
    #[error("lottery indices must be strictly increasing (position {position})")]
    IndicesNotIncreasing {
        /// Position of the first index not larger than its predecessor.
        position: usize,
    },
    /// A claimed lottery index that the signer's lottery value does not win.
    #[error("lottery index {index} is not won by its signer")]
    LostLottery {
        /// The index.
        index: u64,
    },
    /// Fewer than `k` distinct winning indices.
    #[error("only {found} distinct winning indices, the quorum is k = {k}")]
    NotEnoughIndices {
        /// Winning indices available.
        found: usize,
        /// The quorum.
        k: u64,
    },
    /// An index slot points at a signer slot that does not exist.
    #[error("index slot {index_slot} points at missing signer slot {signer_slot}")]
    SignerSlotOutOfRange {
        /// The index slot.
        index_slot: usize,
        /// The signer slot it names.
        signer_slot: usize,
    },
    /// A signer slot that no index slot uses.
    #[error("signer slot {0} is not used by any index slot")]
    UnusedSignerSlot(usize),
    /// Signer slots whose registration indices are not strictly increasing (a signer twice).
    #[error("signer slots must have strictly increasing registration indices (slot {0})")]
    SignersNotIncreasing(usize),
    /// A signer slot's leaf (key, stake, target) is not at its position under the root.
    #[error("signer slot {0} is not a registered leaf under the root")]
    NotInTree(usize),
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

impl From<mithril_core::statement::SlotError> for MithrilError {
    fn from(e: mithril_core::statement::SlotError) -> Self {
        use mithril_core::statement::SlotError as S;
        match e {
            S::Mismatch(m) => Self::ShapeMismatch(m),
            S::SignerOutOfRange {
                index_slot,
                signer_slot,
            } => Self::SignerSlotOutOfRange {
                index_slot,
                signer_slot,
            },
        }
    }
}

impl From<mithril_core::CoreError> for MithrilError {
    fn from(e: mithril_core::CoreError) -> Self {
        use mithril_core::CoreError as C;
        match e {
            C::InvalidParameters(s) => Self::InvalidParameters(s),
            C::PhiFOutOfRange { num, den } => Self::PhiFOutOfRange { num, den },
            C::StakeAboveTotal { stake, total } => Self::StakeAboveTotal { stake, total },
            C::TargetUndecided => Self::TargetUndecided,
            C::EmptyRegistration => Self::EmptyRegistration,
            C::ZeroStake(i) => Self::ZeroStake(i),
            C::StakeOverflow => Self::StakeOverflow,
            C::DuplicateKey(i) => Self::DuplicateKey(i),
            C::IndexOutOfRange { index, m } => Self::IndexOutOfRange { index, m },
            C::IndicesNotIncreasing { position } => Self::IndicesNotIncreasing { position },
            C::NotEnoughIndices { found, k } => Self::NotEnoughIndices { found, k },
        }
    }
}
