//! The crate's error type.

use thiserror::Error;
use tms_gadgets::GadgetError;

/// Errors of the BLS ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// MockProver found the witness does not satisfy the circuit.
    #[error("the certificate does not satisfy the circuit: {0}")]
    NotSatisfied(String),
    /// A key file is malformed.
    #[error("malformed key file: {0}")]
    MalformedKeys(String),
    /// A committee needs at least two members.
    #[error("a committee needs at least 2 members, got {0}")]
    CommitteeTooSmall(usize),
    /// The same key appears twice in the committee.
    #[error("committee members {first} and {second} have the same key")]
    DuplicateMember {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// A key is the identity or not on the curve.
    #[error("member {0} has an invalid key")]
    InvalidKey(usize),
    /// A proof of possession does not verify.
    #[error("member {0}'s proof of possession does not verify")]
    InvalidPossession(usize),
    /// The number of non-signer slots is outside `1..=n`.
    #[error("{capacity} non-signer slots do not fit a committee of {n}")]
    BadCapacity {
        /// Slots asked for.
        capacity: usize,
        /// Committee size.
        n: usize,
    },
    /// A shared-upper cut outside `1..depth`.
    #[error("cut level {cut} is outside 1..{depth}")]
    BadCut {
        /// The cut.
        cut: usize,
        /// The tree depth.
        depth: usize,
    },
    /// k outside the supported range.
    #[error("k = {0} is outside 12..=26")]
    BadK(u32),
    /// The committee does not match the shape.
    #[error("the committee has {got} members, the circuit shape {expected}")]
    CommitteeSize {
        /// Shape's n.
        expected: usize,
        /// Committee's size.
        got: usize,
    },
    /// The threshold is 0 or above n.
    #[error("threshold {threshold} is outside 1..={n}")]
    ThresholdOutOfRange {
        /// The threshold.
        threshold: u64,
        /// Committee size.
        n: usize,
    },
    /// A signer index outside the committee.
    #[error("signature {0} names a member outside the committee")]
    NotInCommittee(usize),
    /// Signer indices not strictly increasing (a member signing twice, or unsorted).
    #[error("signer indices must be strictly increasing (position {0})")]
    SignersNotIncreasing(usize),
    /// The aggregate of the given signatures does not verify under the signers' keys.
    #[error("the aggregate signature does not verify")]
    InvalidSignature,
    /// Fewer signers than the threshold.
    #[error("{count} signers are below the threshold {threshold}")]
    BelowThreshold {
        /// Signers.
        count: usize,
        /// Threshold.
        threshold: u64,
    },
    /// More non-signers than slots.
    #[error("{non_signers} non-signers do not fit {capacity} slots")]
    TooManyNonSigners {
        /// Non-signers.
        non_signers: usize,
        /// Slots.
        capacity: usize,
    },
    /// The witness has the wrong number of slots.
    #[error("the witness has {got} slots, the shape {expected}")]
    SlotCount {
        /// Shape's capacity.
        expected: usize,
        /// Witness slots.
        got: usize,
    },
    /// A slot names a leaf outside the tree.
    #[error("slot {0} names a leaf index outside the tree")]
    SlotOutOfRange(usize),
    /// A point of the witness is not on its curve (or is the identity), or sigma is not in G2.
    #[error("witness point {0} is not a valid curve point")]
    InvalidPoint(&'static str),
    /// The witness shape differs from the keys'.
    #[error("the witness shape differs from the proving key's")]
    ShapeMismatch,
    /// The circuit does not fit 2^k rows (or the prover failed).
    #[error("the circuit needs more than 2^{0} rows")]
    CircuitTooLarge(u32),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// A gadget-level error.
    #[error(transparent)]
    Gadget(#[from] GadgetError),
}
