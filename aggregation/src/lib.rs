//! Many certificate proofs in one.
//!
//! An aggregation circuit (snark-verifier-sdk's, on halo2-base's plain gate) verifies N inner
//! proofs made in the Poseidon transcript ([`Transcript::Poseidon`]), each under its own verifying
//! key fixed in the aggregation key, and defers their final pairings into one KZG accumulator that
//! it exposes as its first [`ACCUMULATOR_LIMBS`] public inputs. What else it exposes is its
//! [`Statement`]:
//!
//! | module | statement |
//! |---|---|
//! | [`snark`] | the machinery: inner proofs as [`Snark`]s, keygen, prove, and the native verifier that also decides the accumulator |
//! | [`snark::ExposeAll`] | the inner proofs' public inputs, in order (`tms aggregate`) |
//! | [`chunks`] | a Schnorr ATMS committee proved in chunks: `[committee root, message, t]`, the unchunked statement, with the chunk roots hashed up to the root and their thresholds summed in-circuit |
//! | [`chain`] | a Mithril certificate chain: `[genesis digest, last registration digest, last application message, epochs]`, with every link checked in-circuit |
//! | [`stand_in`] | real proofs of a trivial circuit shaped like an aggregation circuit: the base case of a recursive chain, the on-chain cost of a layout |
//! | [`chain_step`] | one epoch more on a chain proof (incremental): the chain's statement and the digest of the step key its proofs were verified under |
//! | [`step_cache`] | a chain's step keys kept on disk (made once per certificate key and parameters), checked on load |
//! | [`key_cache`] | the key file both caches share, and an aggregation's keys kept on disk (`tms aggregate prove --key-cache`: the final wrapper's keygen made once) |
//!
//! An aggregation proof is itself an inner proof for the next level (its accumulator is then
//! folded in rather than exposed again), so chains are proved in a tree. The last level is made
//! in the EVM transcript for `tms-evm`'s generated verifier, whose pairing check takes the
//! accumulator.
//!
//! [`Transcript::Poseidon`]: tms_gadgets::proving::Transcript::Poseidon
#![deny(missing_docs)]

pub mod chain;
pub mod chain_step;
pub mod chunks;
pub mod key_cache;
pub mod snark;
pub mod stand_in;
pub mod step_cache;
mod tree;

pub use snark::{
    aggregation_keygen, aggregation_layout, aggregation_prove, aggregation_verify,
    certificate_sample, certificate_snark, node_sample, node_snark, one_column_k, proof_file,
    read_vk_file, split_proof_file, AggregationKeys, ExposeAll, ExposeStatements, Statement,
    VkHeader,
};
pub use snark_verifier_sdk::Snark;

/// Public inputs the KZG accumulator takes at the front of an aggregation proof's statement:
/// two G1 points, two coordinates each, in limbs of snark-verifier's non-native field chip.
pub const ACCUMULATOR_LIMBS: usize = 4 * snark_verifier_sdk::LIMBS;

/// What can go wrong while aggregating proofs.
#[derive(Debug, thiserror::Error)]
pub enum AggregationError {
    /// An inner proof does not verify, or is not shaped as the aggregation key expects.
    #[error("inner proof {index}: {reason}")]
    Inner {
        /// Its position among the aggregated proofs.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// The statement cannot be built from these inner proofs (for a chain: a broken link).
    #[error("statement: {0}")]
    Statement(String),
    /// Keygen or proving failed.
    #[error("aggregation prover: {0}")]
    Prover(String),
    /// Nothing to aggregate, or a shape the aggregation does not take.
    #[error("{0}")]
    Input(String),
}
