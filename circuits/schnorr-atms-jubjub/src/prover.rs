//! Setup, keygen, prove and verify: the ATMS's shape implements the backend's
//! [`MidnightScheme`] (KZG over BLS12-381, Halo2 multi-open) and these functions are the
//! backend's one prover (`tms_cardano::scheme`), generic over the transcript hash.
//!
//! The default transcript is [`DefaultTranscriptHash`], midnight-proofs' `Blake2b256` (absorb
//! appends bytes, squeeze = `blake2b_256` of everything so far, made for Plutus's builtin).
//!
//! Figures (flat mode, insecure test parameters, test profile with dependencies at opt-level 3,
//! the 2-core development machine shared with other builds; `tests/prover.rs` prints them):
//!
//! | committee | mode | k | rows (per slot) | proof | prove |
//! |---|---|---|---|---|---|
//! | 6, t = 3 | flat | 13 | 6,833 (1,138) | 3,088 B | 2.8-3.3 CPU-s (2.6-5.3 s wall) |
//! | 6, t = 2 | Merkle, 3 slots | 12 | 3,645 (1,215) | 3,088 B | 1.5 CPU-s |
//! | 102, t = 72 | flat | 17 | 115,397 (1,131) | 3,088 B | 42.0 CPU-s (128 s wall at load 12) |
//! | 102, t = 72 | Merkle, 72 slots | 17 | 93,479 (1,298) | 3,088 B | 36.3 CPU-s (96 s wall) |
//!
//! 9 advice and 31 fixed columns, one lookup (the range table), maximum degree 5. A slot costs
//! two double-and-add ladders on the Edwards chip (252 rows for `s G`, 255 for `c pk`), the bit
//! decompositions of `s` and `c`, and the challenge's Poseidon.
//!
//! Side by side with sidechains-zk's `atms-halo2` (commit 659c1c8, built outside this repository
//! on midnight-proofs 0.8.0 with its unused `poseidon` git dependency commented out; one proof of
//! its benchmark circuit at 72-of-102, release build), alternating runs on this machine on
//! 2026-11-26: atms-halo2 k = 18, 59.98 and 56.93 CPU-s (2,272-byte proof, 3.3 GB peak); ours
//! k = 17, 44.52 and 42.22 CPU-s: **0.74x** (issue 31's target is 0.25x).
//!
//! Where the columns come from (the verifying key's constraint system; `tests/budget_layout.rs`
//! prints it). The cost model's "31 fixed" are the key's 31 commitments: 22 fixed columns and 9
//! permutation columns. The 22 fixed: the native chip's 9 coefficient columns (Poseidon's 8
//! round-constant columns share them) and its constants column, the range table's tag column
//! and its 2 table columns (13), plus 9 selectors, one fixed column each (midnight-proofs 0.8.3's
//! keygen converts selectors directly, without compressing them): native 3, Edwards 3, Poseidon
//! 2, range table 1. The 9 advice are the Edwards chip's fixed layout (`NB_EDWARDS_COLS`), the
//! other chips share them; the 9 permutation columns are the 7 copy-enabled advice columns, the
//! instance and the constants column. Every configured chip is used (the native gadget needs the
//! range table for `bounded_of_element`, `convert` and Merkle index bits), so nothing can be
//! dropped without replacing midnight-circuits' chips.
//!
//! Measured and not adopted (flat 6/3 at k = 13 unless said; 72-of-102 in one session, same
//! machine, load about 5):
//!
//! | variant | rows per slot | 72-of-102 prove | proof | Plutus 6/3 PV10 / PV11 | script |
//! |---|---|---|---|---|---|
//! | as built: range table on 1 column | 1,137 | 42.04 CPU-s (k = 17) | 3,088 B | 8.54 G / 6.07 G | 11,186 B |
//! | range table on 4 columns (4 lookups) | 741 | 50.98 CPU-s (k = 17) | 4,000 B | 9.79 G / 6.86 G | 12,491 B |
//! | `s` assigned as a field element, bits from `convert` (1 column) | 1,176 | - | - | - | - |
//!
//! Four range columns cut a third of the rows but 102 slots still need `k = 17`, so proving gets
//! slower (three more lookup arguments) and the Plutus verifier dearer; they pay only where they
//! take a circuit below a power of two. midnight-circuits 7.2.2's Edwards `msm` is one ladder per
//! term plus additions and it has no fixed-base or joint (Straus) ladder; its ladder gates are
//! private, so a joint ladder would mean a new Edwards gate, not a composition of the chip's.

use midnight_curves::{Bls12, G1Projective};
use midnight_proofs::{
    dev::cost_model::CircuitModel,
    plonk::VerifyingKey,
    poly::kzg::{
        params::{ParamsKZG, ParamsVerifierKZG},
        KZGCommitmentScheme,
    },
    transcript::{Hashable, Sampleable, TranscriptHash},
    utils::SerdeFormat,
};
use rand::{CryptoRng, RngCore};
use tms_cardano::{
    backend,
    scheme::{self, MidnightScheme, SchemeKeys},
};

use crate::{
    circuit::AtmsCircuit,
    error::AtmsError,
    native::Base,
    witness::{AtmsInstance, AtmsShape, AtmsWitness},
};

pub use tms_cardano::scheme::RoundTrip;

/// The commitment scheme: KZG over BLS12-381.
pub type Scheme = KZGCommitmentScheme<Bls12>;
/// The transcript hash of proofs a Plutus script verifies.
pub type DefaultTranscriptHash = midnight_proofs::transcript::Blake2b256;

/// The seed of the insecure test parameters (the backend's).
pub const INSECURE_TEST_SEED: [u8; 32] = backend::INSECURE_SEED;

impl MidnightScheme for AtmsShape {
    type Circuit = AtmsCircuit;
    type Witness = AtmsWitness;
    type Instance = AtmsInstance;
    type Error = AtmsError;

    fn k(&self) -> u32 {
        self.k
    }

    fn at_k(&self, k: u32) -> Self {
        AtmsShape { k, ..*self }
    }

    fn validate(&self) -> Result<(), AtmsError> {
        AtmsShape::validate(self)
    }

    fn keygen_circuit(&self) -> AtmsCircuit {
        AtmsCircuit::for_keygen(*self)
    }

    fn circuit(witness: &AtmsWitness) -> AtmsCircuit {
        AtmsCircuit::new(witness.clone())
    }

    fn witness_shape(witness: &AtmsWitness) -> &Self {
        &witness.shape
    }

    fn witness_instance(witness: &AtmsWitness) -> &AtmsInstance {
        &witness.instance
    }

    fn public_inputs(instance: &AtmsInstance) -> Vec<Base> {
        instance.to_public_inputs()
    }

    fn shape_mismatch() -> AtmsError {
        AtmsError::ShapeMismatch
    }

    fn rejected() -> AtmsError {
        AtmsError::ProofRejected
    }
}

/// **Insecure test parameters** for `2^k` rows: the KZG SRS from a fixed public seed
/// ([`INSECURE_TEST_SEED`], ChaCha20). For tests and figures only; real use needs a ceremony's
/// SRS.
pub fn insecure_test_params(k: u32) -> ParamsKZG<Bls12> {
    backend::insecure_test_params(k)
}

/// The layout's figures from midnight-proofs' cost model (rows, columns, proof bytes).
pub fn layout_stats(shape: &AtmsShape) -> CircuitModel {
    scheme::layout_stats(shape)
}

/// The smallest `k` (from 10) whose `2^k` rows hold the circuit of `shape` with its
/// `2^(k-1)`-row range table.
pub fn min_k(shape: &AtmsShape) -> u32 {
    scheme::min_k(shape)
}

/// Proving and verifying keys of one shape.
pub type AtmsKeys = SchemeKeys<AtmsShape>;

/// A fingerprint of a verifying key: blake2b-256 (hex) of its raw-bytes serialisation. A
/// change to the circuit's layout changes it.
pub fn vk_fingerprint(vk: &VerifyingKey<Base, Scheme>) -> String {
    let mut bytes = Vec::new();
    vk.write(&mut bytes, SerdeFormat::RawBytes)
        .expect("writing to a vector");
    blake2b_simd::Params::new()
        .hash_length(32)
        .hash(&bytes)
        .to_hex()
        .to_string()
}

/// Keys for `shape` under `params` (which must have `2^shape.k` rows).
pub fn keygen(params: &ParamsKZG<Bls12>, shape: AtmsShape) -> Result<AtmsKeys, AtmsError> {
    scheme::keygen(params, shape)
}

/// A proof of `witness` with transcript hash `H`.
pub fn prove<H>(
    params: &ParamsKZG<Bls12>,
    keys: &AtmsKeys,
    witness: &AtmsWitness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, AtmsError>
where
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Base: Hashable<H> + Sampleable<H>,
{
    scheme::prove_in::<AtmsShape, H>(params, keys, witness, rng)
}

/// Verifies `proof` for `instance` (built by the verifier, [`AtmsInstance::from_trusted`]) with
/// transcript hash `H`: the proof's transcript must be consumed exactly and the pairing check
/// pass.
pub fn verify<H>(
    params: &ParamsVerifierKZG<Bls12>,
    vk: &VerifyingKey<Base, Scheme>,
    instance: &AtmsInstance,
    proof: &[u8],
) -> Result<(), AtmsError>
where
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Base: Hashable<H> + Sampleable<H>,
{
    scheme::verify_in::<AtmsShape, H>(params, vk, instance, proof)
}

/// Setup (insecure test parameters at `witness.shape.k`), keygen, prove and verify with `H`,
/// timed; fails if the honest proof does not verify.
pub fn measure_round_trip<H>(witness: &AtmsWitness) -> Result<RoundTrip, AtmsError>
where
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Base: Hashable<H> + Sampleable<H>,
{
    scheme::measure_round_trip::<AtmsShape, H>(witness)
}
