//! The crate's error type.

/// Everything that can go wrong when building, proving or verifying an aggregate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The committee size N is outside the supported range.
    #[error("number of keys N = {n} is outside {min}..={max}")]
    NumKeysOutOfRange {
        /// The requested N.
        n: usize,
        /// Smallest supported N.
        min: usize,
        /// Largest supported N.
        max: usize,
    },
    /// Two committee members have the same public key.
    #[error("keys {first} and {second} are equal")]
    DuplicateKey {
        /// The first occurrence.
        first: usize,
        /// The repeated one.
        second: usize,
    },
    /// The threshold t is zero or larger than N.
    #[error("threshold t = {t} must satisfy 1 <= t <= N = {n}")]
    ThresholdOutOfRange {
        /// The requested t.
        t: usize,
        /// The committee size.
        n: usize,
    },
    /// A message element is 2^63 or more (only 63 bits per element are signed).
    #[error("message element {index} does not fit in 63 bits")]
    MessageElementTooLarge {
        /// Which of the four elements.
        index: usize,
    },
    /// A signature names a key index that is not in the committee.
    #[error("signer index {index} is not below N = {n}")]
    SignerIndexOutOfRange {
        /// The offending index.
        index: usize,
        /// The committee size.
        n: usize,
    },
    /// The same key index appears twice among the signatures.
    #[error("signer index {index} appears more than once")]
    DuplicateSigner {
        /// The repeated index.
        index: usize,
    },
    /// A Lamport+ signature does not verify under the key at its index (the prover's own check).
    #[error("signature of key {index} does not verify")]
    InvalidSignature {
        /// The key index whose signature failed.
        index: usize,
    },
    /// The proof's trace shape or options are not those of this AIR for the given inputs.
    #[error("proof does not have the expected shape: {0}")]
    ProofShape(String),
    /// Winterfell's prover returned an error.
    #[error("prover failed: {0}")]
    Proving(String),
    /// Winterfell's verifier rejected the proof.
    #[error("proof rejected: {0}")]
    Verification(String),
    /// A command-line argument is missing or malformed.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}
