use thiserror::Error;

/// Errors raised by the native side of the gadgets on bad input.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GadgetError {
    /// A leaf hash was asked for an empty input; leaves commit at least one field element.
    #[error("a Merkle leaf must commit at least one field element")]
    EmptyLeaf,
    /// A Merkle tree was asked to hold more leaves than its depth allows.
    #[error("{leaves} leaves do not fit in a Merkle tree of depth {depth}")]
    TooManyLeaves {
        /// Number of leaves given.
        leaves: usize,
        /// Depth of the tree.
        depth: usize,
    },
    /// A Merkle tree with no leaves was requested.
    #[error("a Merkle tree needs at least one leaf")]
    NoLeaves,
    /// A leaf index outside the tree was requested.
    #[error("leaf index {index} is outside a tree of {capacity} leaves")]
    IndexOutOfRange {
        /// The index asked for.
        index: usize,
        /// Number of leaf slots in the tree (2^depth).
        capacity: usize,
    },
    /// The indices of a batch proof are not strictly increasing.
    #[error("batch indices must be strictly increasing (position {position})")]
    IndicesNotIncreasing {
        /// Position in the batch of the first index that is not larger than its predecessor.
        position: usize,
    },
    /// A batch proof does not hold the number of nodes its indices need.
    #[error("batch proof is malformed: {0}")]
    MalformedBatchProof(&'static str),
    /// The identity point was given where an affine curve point is required.
    #[error("the point at infinity is not a valid key, nonce or signature point")]
    IdentityPoint,
    /// A powers-of-tau file that cannot be used.
    #[error("malformed .ptau: {0}")]
    MalformedPtau(String),
    /// A KZG parameters file in halo2's format is malformed (read before any allocation).
    #[error("not a KZG parameters file: {0}")]
    MalformedParams(String),
    /// A point that is not on its curve.
    #[error("the point is not on the curve")]
    NotOnCurve,
    /// Hash to curve: the two mapped points share their x-coordinate (equal or opposite), where
    /// the incomplete addition of the circuit does not apply; probability below 2^-249.
    #[error("hash to curve: the two mapped points have the same x-coordinate")]
    HashToCurveExceptional,
    /// A Merkle depth above the supported maximum was asked for.
    #[error("Merkle depth {0} is above the supported maximum of 32")]
    DepthTooLarge(usize),
}
