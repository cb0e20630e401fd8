//! Setup, keygen, prove and verify with midnight-proofs' own API (KZG over BLS12-381, Halo2
//! multi-open), generic over the transcript hash.
//!
//! The default transcript is [`DefaultTranscriptHash`], midnight-proofs' `Blake2b256` (absorb
//! appends bytes, squeeze = `blake2b_256` of everything so far, made for Plutus's builtin). The
//! backend crate `tms-cardano` defines the project's Plutus transcript; switching to it is the
//! one line of that alias.
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

use std::time::{Duration, Instant};

use midnight_curves::{Bls12, G1Projective};
use midnight_proofs::{
    dev::cost_model::{circuit_model, CircuitModel},
    plonk::{create_proof, keygen_pk, keygen_vk_with_k, prepare, ProvingKey, VerifyingKey},
    poly::{
        commitment::{Guard, Params},
        kzg::{
            params::{ParamsKZG, ParamsVerifierKZG},
            KZGCommitmentScheme,
        },
    },
    transcript::{CircuitTranscript, Hashable, Sampleable, Transcript, TranscriptHash},
    utils::SerdeFormat,
};
use rand::{CryptoRng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::{
    circuit::AtmsCircuit,
    error::AtmsError,
    native::Base,
    witness::{AtmsInstance, AtmsShape, AtmsWitness},
};

/// The polynomial commitment scheme: KZG over BLS12-381.
pub type Scheme = KZGCommitmentScheme<Bls12>;
/// The transcript hash the crate's tests and figures use (see the module docs).
pub type DefaultTranscriptHash = midnight_proofs::transcript::Blake2b256;

/// Bytes of a compressed BLS12-381 G1 point, for the cost model's proof size.
const COMMITMENT_BYTES: usize = 48;
/// Bytes of a BLS12-381 scalar.
const SCALAR_BYTES: usize = 32;

/// The seed of [`insecure_test_params`]' toxic waste. **Insecure**: anyone can recompute it.
/// The same seed and generator as the backend crate `tms-cardano`'s insecure parameters, so
/// keys made here and there agree.
pub const INSECURE_TEST_SEED: [u8; 32] = *b"tms insecure BLS12-381 params  1";

/// **Insecure test parameters** for `2^k` rows: the KZG SRS from a fixed public seed
/// ([`INSECURE_TEST_SEED`], ChaCha20). For tests and figures only; real use needs a ceremony's
/// SRS.
pub fn insecure_test_params(k: u32) -> ParamsKZG<Bls12> {
    ParamsKZG::unsafe_setup(k, ChaCha20Rng::from_seed(INSECURE_TEST_SEED))
}

/// The layout's figures from midnight-proofs' cost model (rows, columns, proof bytes).
pub fn layout_stats(shape: &AtmsShape) -> CircuitModel {
    circuit_model::<Base, COMMITMENT_BYTES, SCALAR_BYTES>(&AtmsCircuit::for_keygen(*shape))
}

/// The smallest `k` (from 10) whose `2^k` rows hold the circuit of `shape` with its
/// `2^(k-1)`-row range table.
pub fn min_k(shape: &AtmsShape) -> u32 {
    (10..=25)
        .find(|&k| layout_stats(&AtmsShape { k, ..*shape }).k <= k)
        .expect("fits 2^25 rows")
}

/// Proving and verifying keys of one shape.
#[derive(Debug)]
pub struct AtmsKeys {
    /// The shape the keys are for.
    pub shape: AtmsShape,
    /// The proving key.
    pub pk: ProvingKey<Base, Scheme>,
}

impl AtmsKeys {
    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<Base, Scheme> {
        self.pk.get_vk()
    }
}

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
    shape.validate()?;
    if params.max_k() != shape.k {
        return Err(AtmsError::Backend(format!(
            "parameters for k = {}, shape k = {}",
            params.max_k(),
            shape.k
        )));
    }
    let circuit = AtmsCircuit::for_keygen(shape);
    let vk = keygen_vk_with_k(params, &circuit, shape.k)
        .map_err(|e| AtmsError::Backend(e.to_string()))?;
    let pk = keygen_pk(vk, &circuit).map_err(|e| AtmsError::Backend(e.to_string()))?;
    Ok(AtmsKeys { shape, pk })
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
    if witness.shape != keys.shape {
        return Err(AtmsError::ShapeMismatch);
    }
    let public = witness.instance.to_public_inputs();
    let mut transcript = CircuitTranscript::<H>::init();
    create_proof::<Base, Scheme, CircuitTranscript<H>, AtmsCircuit>(
        params,
        &keys.pk,
        &[AtmsCircuit::new(witness.clone())],
        // No committed instance columns: the one instance column is public.
        0,
        &[&[&public]],
        &mut transcript,
        rng,
    )
    .map_err(|e| AtmsError::Backend(e.to_string()))?;
    Ok(transcript.finalize())
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
    let public = instance.to_public_inputs();
    let mut transcript = CircuitTranscript::<H>::init_from_bytes(proof);
    let guard =
        prepare::<Base, Scheme, CircuitTranscript<H>>(vk, &[&[]], &[&[&public]], &mut transcript)
            .map_err(|_| AtmsError::ProofRejected)?;
    transcript
        .assert_empty()
        .map_err(|_| AtmsError::ProofRejected)?;
    guard.verify(params).map_err(|_| AtmsError::ProofRejected)
}

/// Figures of one real round trip.
#[derive(Debug)]
pub struct RoundTrip {
    /// log2 rows.
    pub k: u32,
    /// The layout's figures.
    pub stats: CircuitModel,
    /// Proof bytes.
    pub proof: Vec<u8>,
    /// Keygen wall time (vk and pk).
    pub keygen: Duration,
    /// Proving wall time.
    pub prove: Duration,
    /// Proving CPU time of the process, all threads (Linux's `/proc/self/stat`; `None`
    /// elsewhere).
    pub prove_cpu: Option<Duration>,
    /// Verifying wall time.
    pub verify: Duration,
}

/// Setup (insecure test parameters at `witness.shape.k`), keygen, prove and verify with `H`,
/// timed; fails if the honest proof does not verify.
pub fn measure_round_trip<H>(witness: &AtmsWitness) -> Result<RoundTrip, AtmsError>
where
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Base: Hashable<H> + Sampleable<H>,
{
    let params = insecure_test_params(witness.shape.k);
    let start = Instant::now();
    let keys = keygen(&params, witness.shape)?;
    let keygen_time = start.elapsed();
    let (start, cpu) = (Instant::now(), process_cpu_time());
    let proof = prove::<H>(&params, &keys, witness, rand::rngs::OsRng)?;
    let prove_time = start.elapsed();
    let prove_cpu = cpu
        .zip(process_cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    let verifier_params = params.verifier_params();
    let start = Instant::now();
    verify::<H>(&verifier_params, keys.vk(), &witness.instance, &proof)?;
    Ok(RoundTrip {
        k: witness.shape.k,
        stats: layout_stats(&witness.shape),
        proof,
        keygen: keygen_time,
        prove: prove_time,
        prove_cpu,
        verify: start.elapsed(),
    })
}

/// User plus system CPU time of this process so far (all threads), from `/proc/self/stat`
/// (fields 14 and 15, in clock ticks of 1/100 s); `None` where that file is not there.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
