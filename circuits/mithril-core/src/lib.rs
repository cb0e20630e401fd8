//! The curve-independent parts of SNARK-Mithril, shared by the BN254/Grumpkin circuit
//! (`mithril-snark`) and the BLS12-381/Jubjub circuit (`mithril-jubjub`):
//!
//! | piece | module |
//! |---|---|
//! | parameters `(m, k, phi_f)` and the presets | [`params`] |
//! | the exact eligibility target `T = ceil(phi(w) r)` for a field modulus `r` | [`eligibility`] |
//! | the registration over a curve's [`registration::RegistrationCurve`] (parties, targets, tree, commitment and digest), its checks (stakes, repeated keys, total) and the tree depth | [`registration`] |
//! | index checks and the aggregator's choice of indices | [`lottery`] |
//! | the circuit's shape and statement ([`mithril_statement!`]), a certificate's slot checks | [`statement`] |
//! | the signer, the aggregator and the native verifier over a curve's [`stm::Stm`] | [`stm`] |
//!
//! Nothing here hashes or touches a curve: keys are whatever the caller compares, lottery values
//! and targets are integers, and what needs a curve or a hash ([`stm::Stm`],
//! [`registration::RegistrationCurve`]) is the caller's.
#![deny(missing_docs)]

pub mod eligibility;
pub mod lottery;
pub mod params;
pub mod registration;
pub mod statement;
pub mod stm;

pub use params::{Parameters, PhiF};
use thiserror::Error;

/// What a certificate or a single signature breaks; each circuit crate's error carries it whole.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum StmError {
    /// The signing key, or a single signature's party, is not registered.
    #[error("the key is not registered")]
    NotRegistered,
    /// A unique signature does not verify: the signer slot (in a certificate) or the
    /// registration index (of a single signature).
    #[error("the unique signature of signer slot {0} does not verify")]
    InvalidSignature(usize),
    /// A claimed index is not won by its signer.
    #[error("lottery index {0} is not won by its signer")]
    LostLottery(u64),
    /// Index slot `index_slot` names signer slot `signer_slot`, which the certificate lacks.
    #[error("index slot {index_slot} points at missing signer slot {signer_slot}")]
    SignerSlotOutOfRange {
        /// The index slot.
        index_slot: usize,
        /// The signer slot it names.
        signer_slot: usize,
    },
    /// A signer slot no index slot uses.
    #[error("signer slot {0} is not used by any index slot")]
    UnusedSignerSlot(usize),
    /// Signer slots whose registration indices are not strictly increasing.
    #[error("signer slots must have strictly increasing registration indices (slot {0})")]
    SignersNotIncreasing(usize),
    /// A signer slot's leaf is not under the root at its position.
    #[error("signer slot {0} is not a registered leaf under the root")]
    NotInTree(usize),
}

/// Errors of the curve-independent checks; each backend maps them onto its own error type.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CoreError {
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
    /// The certified interval evaluation did not decide the target at the largest precision.
    #[error("eligibility target undecided at the maximum precision")]
    TargetUndecided,
    /// A registration with no parties.
    #[error("a registration needs at least one party")]
    EmptyRegistration,
    /// A party registered with zero stake.
    #[error("party {0} has zero stake")]
    ZeroStake(usize),
    /// The stakes add up to more than `u64::MAX`.
    #[error("the total stake overflows u64")]
    StakeOverflow,
    /// The same key was registered twice.
    #[error("party {0} repeats an already registered key")]
    DuplicateKey(usize),
    /// A lottery index at or above `m`.
    #[error("lottery index {index} is not below m = {m}")]
    IndexOutOfRange {
        /// The index.
        index: u64,
        /// The number of lotteries.
        m: u64,
    },
    /// Lottery indices that are not strictly increasing.
    #[error("lottery indices must be strictly increasing (position {position})")]
    IndicesNotIncreasing {
        /// Position of the first index not larger than its predecessor.
        position: usize,
    },
    /// Fewer than `k` distinct winning indices.
    #[error("only {found} distinct winning indices, the quorum is k = {k}")]
    NotEnoughIndices {
        /// Winning indices available.
        found: usize,
        /// The quorum.
        k: u64,
    },
}
