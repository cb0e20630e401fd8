//! One prover for every certificate circuit on this backend: a scheme's shape implements
//! [`MidnightScheme`] (its circuit, witness and statement), and keygen, proving, verification,
//! the layout figures and a timed round trip are written once, here, for any transcript hash
//! (midnight-proofs' [`Blake2b256`], the one Plutus replays, unless a test asks for another).

use std::{
    fmt::Debug,
    time::{Duration, Instant},
};

use midnight_curves::G1Projective;
use midnight_proofs::{
    dev::cost_model::{circuit_model, CircuitModel},
    plonk::{self, Circuit},
    poly::{commitment::Guard, commitment::Params},
    transcript::{Blake2b256, CircuitTranscript, Hashable, Sampleable, Transcript, TranscriptHash},
};
use rand_core::{CryptoRng, RngCore};

use crate::backend::{
    insecure_test_params, BackendError, Fr, Kzg, Params12, Pk, VerifierParams, Vk,
};

/// Bytes of a compressed G1 point and of a scalar, for midnight-proofs' cost model.
const COMMITMENT_BYTES: usize = 48;
const SCALAR_BYTES: usize = 32;

/// A certificate circuit's shape on this backend: what the one prover needs from a scheme.
pub trait MidnightScheme: Clone + PartialEq + Debug {
    /// The circuit (midnight-circuits' chips or any other).
    type Circuit: Circuit<Fr>;
    /// A certificate laid out for the circuit (its shape and instance inside).
    type Witness;
    /// The statement: what the public inputs are made from.
    type Instance;
    /// The scheme's error.
    type Error: From<BackendError>;

    /// log2 of the circuit's rows.
    fn k(&self) -> u32;
    /// The same shape at `k` rows (for the search of the smallest k).
    fn at_k(&self, k: u32) -> Self;
    /// Refuses a shape no circuit can have.
    fn validate(&self) -> Result<(), Self::Error>;
    /// The circuit of this shape without witness values, for keygen and the cost model.
    fn keygen_circuit(&self) -> Self::Circuit;
    /// The circuit of a certificate.
    fn circuit(witness: &Self::Witness) -> Self::Circuit;
    /// The shape of a witness.
    fn witness_shape(witness: &Self::Witness) -> &Self;
    /// The statement of a witness.
    fn witness_instance(witness: &Self::Witness) -> &Self::Instance;
    /// The public inputs of a statement (the one instance column), in order.
    fn public_inputs(instance: &Self::Instance) -> Vec<Fr>;
    /// The error for a witness of another shape than the proving key's.
    fn shape_mismatch() -> Self::Error;
    /// The error for a proof that does not verify.
    fn rejected() -> Self::Error;
}

/// Proving and verifying keys of one shape.
#[derive(Debug)]
pub struct SchemeKeys<S> {
    /// The shape the keys are for.
    pub shape: S,
    /// The proving key (the verifying key inside).
    pub pk: Pk,
}

impl<S> SchemeKeys<S> {
    /// The verifying key.
    pub fn vk(&self) -> &Vk {
        self.pk.get_vk()
    }
}

/// The layout's figures from midnight-proofs' cost model (rows, columns, proof bytes).
pub fn layout_stats<S: MidnightScheme>(shape: &S) -> CircuitModel {
    circuit_model::<Fr, COMMITMENT_BYTES, SCALAR_BYTES>(&shape.keygen_circuit())
}

/// Whether `2^k` rows hold the circuit of `shape` at its own `k` (one layout: its range tables
/// grow with k, so a k is checked by laying the circuit out at that k).
pub fn fits<S: MidnightScheme>(shape: &S) -> bool {
    layout_stats(shape).k <= shape.k()
}

/// `None` when `shape` fits its own `k` (one layout), else the smallest k it fits ([`min_k`]):
/// what keygen checks first, with the search only for the refusal's figure.
pub fn needed_k<S: MidnightScheme>(shape: &S) -> Option<u32> {
    (!fits(shape)).then(|| min_k(shape))
}

/// The smallest `k` from 10 whose `2^k` rows hold the circuit of `shape`. Fitting is monotone in
/// k (more rows hold the larger table too), so the search is binary: four layouts, not up to
/// sixteen (at 2,001 members each layout takes about a minute here).
pub fn min_k<S: MidnightScheme>(shape: &S) -> u32 {
    let fits = |k: u32| fits(&shape.at_k(k));
    // No fit below 2^25 leaves 25, where keygen says the circuit is too large.
    let (mut lo, mut hi) = (10u32, 25u32);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Keys for `shape` under `params`, which must have exactly `2^shape.k` rows.
pub fn keygen<S: MidnightScheme>(params: &Params12, shape: S) -> Result<SchemeKeys<S>, S::Error> {
    shape.validate()?;
    if params.max_k() != shape.k() {
        return Err(BackendError::Params(format!(
            "parameters for k = {}, shape k = {}",
            params.max_k(),
            shape.k()
        ))
        .into());
    }
    let circuit = shape.keygen_circuit();
    let vk = plonk::keygen_vk_with_k::<Fr, Kzg, _>(params, &circuit, shape.k())
        .map_err(BackendError::from)?;
    let pk = plonk::keygen_pk(vk, &circuit).map_err(BackendError::from)?;
    Ok(SchemeKeys { shape, pk })
}

/// A proof of `witness` in the transcript of hash `H`.
pub fn prove_in<S, H>(
    params: &Params12,
    keys: &SchemeKeys<S>,
    witness: &S::Witness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, S::Error>
where
    S: MidnightScheme,
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Fr: Hashable<H> + Sampleable<H>,
{
    if *S::witness_shape(witness) != keys.shape {
        return Err(S::shape_mismatch());
    }
    let public = S::public_inputs(S::witness_instance(witness));
    let mut transcript = CircuitTranscript::<H>::init();
    plonk::create_proof::<Fr, Kzg, CircuitTranscript<H>, S::Circuit>(
        params,
        &keys.pk,
        &[S::circuit(witness)],
        // No committed instance columns: the one instance column is public.
        0,
        &[&[&public]],
        &mut transcript,
        rng,
    )
    .map_err(BackendError::from)?;
    Ok(transcript.finalize())
}

/// A proof of `witness` in the Blake2b transcript a Plutus script replays.
pub fn prove<S: MidnightScheme>(
    params: &Params12,
    keys: &SchemeKeys<S>,
    witness: &S::Witness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, S::Error> {
    prove_in::<S, Blake2b256>(params, keys, witness, rng)
}

/// Checks `proof`, made in the transcript of hash `H`, for `instance` (which the verifier
/// built): the transcript must be consumed exactly and the pairing check pass.
pub fn verify_in<S, H>(
    params: &VerifierParams,
    vk: &Vk,
    instance: &S::Instance,
    proof: &[u8],
) -> Result<(), S::Error>
where
    S: MidnightScheme,
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Fr: Hashable<H> + Sampleable<H>,
{
    let public = S::public_inputs(instance);
    let mut transcript = CircuitTranscript::<H>::init_from_bytes(proof);
    let guard =
        plonk::prepare::<Fr, Kzg, CircuitTranscript<H>>(vk, &[&[]], &[&[&public]], &mut transcript)
            .map_err(|_| S::rejected())?;
    transcript.assert_empty().map_err(|_| S::rejected())?;
    guard.verify(params).map_err(|_| S::rejected())
}

/// [`verify_in`] in the Blake2b transcript.
pub fn verify<S: MidnightScheme>(
    params: &VerifierParams,
    vk: &Vk,
    instance: &S::Instance,
    proof: &[u8],
) -> Result<(), S::Error> {
    verify_in::<S, Blake2b256>(params, vk, instance, proof)
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

/// Setup (insecure test parameters at the witness's k), keygen, prove and verify with `H`,
/// timed; fails if the honest proof does not verify.
pub fn measure_round_trip<S, H>(witness: &S::Witness) -> Result<RoundTrip, S::Error>
where
    S: MidnightScheme,
    H: TranscriptHash,
    G1Projective: Hashable<H>,
    Fr: Hashable<H> + Sampleable<H>,
{
    let shape = S::witness_shape(witness).clone();
    let params = insecure_test_params(shape.k());
    let start = Instant::now();
    let keys = keygen(&params, shape.clone())?;
    let keygen_time = start.elapsed();
    let (start, cpu) = (Instant::now(), process_cpu_time());
    let proof = prove_in::<S, H>(&params, &keys, witness, rand_core::OsRng)?;
    let prove_time = start.elapsed();
    let prove_cpu = cpu
        .zip(process_cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    let verifier_params = params.verifier_params();
    let start = Instant::now();
    verify_in::<S, H>(
        &verifier_params,
        keys.vk(),
        S::witness_instance(witness),
        &proof,
    )?;
    Ok(RoundTrip {
        k: shape.k(),
        stats: layout_stats(&shape),
        proof,
        keygen: keygen_time,
        prove: prove_time,
        prove_cpu,
        verify: start.elapsed(),
    })
}

/// User plus system CPU time of this process so far (all threads), from `/proc/self/stat`
/// (fields 14 and 15, in clock ticks of 1/100 s); `None` where that file is not there.
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
