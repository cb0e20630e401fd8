//! STARK aggregator baseline on winterfell 0.13 (the construction of seed paper 000, made sound).
//!
//! N Lamport+ one-time keys are the leaves of a Merkle tree. The STARK proves that t distinct
//! leaves of the tree (t = N for a batch) signed one message: for each counted slot the
//! Lamport+ public key recomputed from the signature equals the slot's leaf, and the leaf
//! hashes to the root along the path of the slot's index. The verifier knows the root, the
//! message, N and t, not the keys. All hashing is winterfell's Rescue-Prime (`Rp64_256`).
//!
//! ```no_run
//! use stark_baseline::{lamport, merkle::KeyTree, prove, verify};
//! let sks = lamport::generate_keys(8, 1);
//! let pks: Vec<_> = sks.iter().map(|k| k.public_key()).collect();
//! let tree = KeyTree::new(&pks).unwrap();
//! let msg = lamport::Message::from_bytes(b"epoch 1");
//! let sigs: Vec<_> = (0..8).map(|i| (i, sks[i].sign(&msg))).collect();
//! let (proof, inputs) = prove(&tree, &msg, &sigs).unwrap();
//! verify(proof, &inputs).unwrap();
//! ```
#![deny(missing_docs)]

pub mod air;
pub mod error;
pub mod hash;
pub mod lamport;
pub mod merkle;
pub mod prover;
mod trace;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use winterfell::{
    AcceptableOptions, BatchingMethod, FieldExtension, Proof, ProofOptions, Prover, Trace,
};

pub use air::{AggregateAir, PublicInputs};
pub use error::Error;
use prover::{AggregateProver, Coin, Commitment, CommitmentHasher};

/// FRI queries.
pub const NUM_QUERIES: usize = 30;
/// Low-degree-extension blowup (the smallest that fits the degree-7 Rescue constraints).
pub const BLOWUP: usize = 8;
/// Proof-of-work bits on the query seed.
pub const GRINDING_BITS: u32 = 16;
/// FRI folding factor.
pub const FRI_FOLDING: usize = 8;
/// FRI remainder polynomial maximum degree.
pub const FRI_REMAINDER_MAX_DEGREE: usize = 31;

/// The proof options of the baseline: 30 queries at blowup 8 with 16 grinding bits, the
/// quadratic extension of the 64-bit field, FRI folding 8, Blake3-256 commitments.
/// Conjectured security: min(30 * 3 + 16, 128) - 1 = 105 bits.
pub fn proof_options() -> ProofOptions {
    ProofOptions::new(
        NUM_QUERIES,
        BLOWUP,
        GRINDING_BITS,
        FieldExtension::Quadratic,
        FRI_FOLDING,
        FRI_REMAINDER_MAX_DEGREE,
        BatchingMethod::Linear,
        BatchingMethod::Linear,
    )
}

/// Security estimates of a proof (winterfell's formulas).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Security {
    /// Conjectured security (bits), eprint 2021/582 conjecture.
    pub conjectured: u32,
    /// Proven security in the list-decoding regime (bits).
    pub proven_list_decoding: u32,
    /// Proven security in the unique-decoding regime (bits).
    pub proven_unique_decoding: u32,
}

/// The security of `proof` as winterfell estimates it.
pub fn security(proof: &Proof) -> Security {
    let proven = proof.proven_security::<CommitmentHasher>();
    Security {
        conjectured: proof.conjectured_security::<CommitmentHasher>().bits(),
        proven_list_decoding: proven.ldr_bits(),
        proven_unique_decoding: proven.udr_bits(),
    }
}

/// Checks N and t (2 <= N <= 2^16, 1 <= t <= N).
pub fn check_parameters(num_keys: usize, threshold: usize) -> Result<(), Error> {
    merkle::check_num_keys(num_keys)?;
    if threshold == 0 || threshold > num_keys {
        return Err(Error::ThresholdOutOfRange {
            t: threshold,
            n: num_keys,
        });
    }
    Ok(())
}

/// Validates the signatures natively (the prover's own checks) and returns the public inputs.
pub fn check_signatures(
    tree: &merkle::KeyTree,
    msg: &lamport::Message,
    signatures: &[(usize, lamport::Signature)],
) -> Result<PublicInputs, Error> {
    let n = tree.num_keys();
    check_parameters(n, signatures.len())?;
    let mut seen = BTreeSet::new();
    for (index, sig) in signatures {
        if *index >= n {
            return Err(Error::SignerIndexOutOfRange { index: *index, n });
        }
        if !seen.insert(*index) {
            return Err(Error::DuplicateSigner { index: *index });
        }
        if !lamport::verify(&lamport::PublicKey(tree.leaf(*index)), msg, sig) {
            return Err(Error::InvalidSignature { index: *index });
        }
    }
    Ok(PublicInputs {
        root: tree.root(),
        message: *msg,
        num_keys: n,
        threshold: signatures.len(),
    })
}

/// Proves that the given `(key index, signature)` pairs, t of them, are valid signatures on `msg`
/// by distinct keys of `tree`. Every signature is checked natively first.
pub fn prove(
    tree: &merkle::KeyTree,
    msg: &lamport::Message,
    signatures: &[(usize, lamport::Signature)],
) -> Result<(Proof, PublicInputs), Error> {
    let inputs = check_signatures(tree, msg, signatures)?;
    let witness = trace::build_witness(tree, signatures);
    let trace = trace::build_trace(msg, &witness);
    let proof = prove_trace(trace, inputs.clone())?;
    Ok((proof, inputs))
}

/// Runs winterfell's prover on a trace (no checks of ours; winterfell validates the trace
/// against the AIR in debug builds only).
pub(crate) fn prove_trace(
    trace: winterfell::TraceTable<hash::Felt>,
    inputs: PublicInputs,
) -> Result<Proof, Error> {
    debug_assert_eq!(trace.length(), air::trace_length(inputs.num_keys));
    AggregateProver::new(proof_options(), inputs)
        .prove(trace)
        .map_err(|e| Error::Proving(e.to_string()))
}

/// Verifies an aggregate proof against the root, message, N and t.
pub fn verify(proof: Proof, inputs: &PublicInputs) -> Result<(), Error> {
    check_parameters(inputs.num_keys, inputs.threshold)?;
    let info = proof.trace_info();
    let expected_len = air::trace_length(inputs.num_keys);
    if info.main_trace_width() != air::TRACE_WIDTH
        || info.is_multi_segment()
        || info.length() != expected_len
    {
        return Err(Error::ProofShape(format!(
            "trace {}x{} (expected {}x{})",
            info.main_trace_width(),
            info.length(),
            air::TRACE_WIDTH,
            expected_len
        )));
    }
    let acceptable = AcceptableOptions::OptionSet(vec![proof_options()]);
    winterfell::verify::<AggregateAir, CommitmentHasher, Coin, Commitment>(
        proof,
        inputs.clone(),
        &acceptable,
    )
    .map_err(|e| Error::Verification(e.to_string()))
}
