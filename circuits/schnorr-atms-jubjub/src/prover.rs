//! Setup, keygen, prove and verify: the ATMS's shape implements the backend's
//! [`MidnightScheme`] (KZG over BLS12-381, Halo2 multi-open) and these functions are the
//! backend's one prover (`tms_cardano::scheme`), generic over the transcript hash.
//!
//! The default transcript is [`DefaultTranscriptHash`], midnight-proofs' `Blake2b256` (absorb
//! appends bytes, squeeze = `blake2b_256` of everything so far, made for Plutus's builtin).
//!
//! Figures (insecure test parameters, test profile with dependencies at opt-level 3, the 2-core
//! development machine; `tests/prover.rs` prints them), since the signature check runs on the
//! one-lane scalar ladder ([`crate::ladder`], 2026-11-28):
//!
//! | committee | mode | k | rows (per slot) | proof | prove |
//! |---|---|---|---|---|---|
//! | 6, t = 3 | flat | 12 | 2,764 (460) | 3,680 B | 2.0 CPU-s (1.0 s wall) |
//! | 6, t = 2 | Merkle, 3 slots | 11 | 1,613 (537) | 3,680 B | 1.4 CPU-s |
//! | 102, t = 72 | flat | 16 | 46,336 (454) | 3,680 B | 12.4 CPU-s (12.4 s wall) |
//!
//! Through the tool (release build, `tms prove --backend cardano`, 72-of-102 flat, two runs each
//! on the same machine back to back): the process 10.6 s wall, 19.1 CPU-s and 0.67 GB, of which
//! the proof 7.0 s; with the circuit before the ladder (midnight's Edwards `mul`, two per slot,
//! 1,131 rows per slot, k = 17) 25.2-25.8 s wall, 40.2-40.9 CPU-s, 1.29 GB, the proof 17.8-18.1
//! s. Keygen 6.0 s wall (10.5 CPU-s) against 16.2 s (24.1 CPU-s). With the parameters' prover
//! bases read without subgroup checks (`tms_cardano::backend::PointChecks`), the process takes
//! 8.4-8.8 s wall and 14.6-15.1 CPU-s, against sidechains-zk's atms-halo2 prove (k = 18) of
//! 19.1-19.8 s and 32.9-34.1 CPU-s in the same run: **0.43-0.46x** (the guide's Cardano page).
//!
//! 10 advice columns (the ladder's), 21 fixed and 10 permutation columns, two lookups (the range
//! table, the ladder table), maximum degree 5. A slot costs the ladder (255 rows plus one, and
//! one row for `G - pk`), its table (5 rows), the recomposition of `c`'s bits (a linear
//! combination) and its canonicity (`sgn0`), and the challenge's Poseidon.
//!
//! Where the key's 31 commitments come from (the verifying key's constraint system;
//! `tests/budget_layout.rs` prints it): 21 fixed columns and 10 permutation columns. The 21
//! fixed: the native chip's 9 coefficient columns (Poseidon's 8 round-constant columns share
//! them) and its constants column, the range table's tag column and its 2 table columns (13),
//! the ladder table's two tag columns (`f_in`, which also turns the ladder's gate on, and
//! `f_table`), and 6 selectors, one fixed column each (midnight-proofs 0.8.3's keygen converts
//! selectors directly, without compressing them): native 3, Poseidon 2, range table 1. No
//! Edwards chip is configured (its 3 selectors were 3 commitments): the ladder's gate is the
//! circuit's only curve arithmetic. The 10 permutation columns are the 8 copy-enabled advice
//! columns, the instance and the constants column. The Plutus verifier pays for the ladder:
//! 9.24 G steps at PV 10 for the 6/3 example (8.54 G before), 6.51 G at PV 11 (6.07 G); the
//! ladder table's lookup adds three proof commitments, the tenth advice column and its
//! permutation column one each.
//!
//! Measured and not adopted before the ladder (flat 6/3 at k = 13 unless said; 72-of-102 in one
//! session, same machine, load about 5):
//!
//! | variant | rows per slot | 72-of-102 prove | proof | Plutus 6/3 PV10 / PV11 | script |
//! |---|---|---|---|---|---|
//! | Edwards `mul`, range table on 1 column | 1,137 | 42.04 CPU-s (k = 17) | 3,088 B | 8.54 G / 6.07 G | 11,186 B |
//! | range table on 4 columns (4 lookups) | 741 | 50.98 CPU-s (k = 17) | 4,000 B | 9.79 G / 6.86 G | 12,491 B |
//! | `s` assigned as a field element, bits from `convert` (1 column) | 1,176 | - | - | - | - |
//!
//! Four range columns cut a third of the rows but 102 slots still needed `k = 17`, so proving
//! got slower (three more lookup arguments) and the Plutus verifier dearer. midnight-circuits
//! 7.2.2's Edwards `msm` is one ladder per term plus additions, with no fixed-base or joint
//! (Straus) ladder; hence the ladder of our own, which runs `s G - c pk` jointly in one row per
//! bit pair (`c`'s bits fresh in the ladder, where `assigned_to_le_bits` spent a range-table row
//! per bit).

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
