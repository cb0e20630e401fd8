//! Setup, keygen, prove and verify with midnight-proofs (KZG over BLS12-381, Halo2 multi-open),
//! the transcript hash being [`DefaultTranscriptHash`] (midnight-proofs' `Blake2b256`, the
//! transcript of `tms-cardano`'s backend and of its Plutus verifier), as in
//! `schnorr-atms-jubjub`'s prover.

use midnight_curves::Bls12;
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
    transcript::{CircuitTranscript, Transcript},
    utils::SerdeFormat,
};
use rand::{CryptoRng, RngCore};

pub use schnorr_atms_jubjub::prover::{insecure_test_params, INSECURE_TEST_SEED};

use crate::{
    circuit::MithrilCircuit,
    error::MithrilError,
    native::Base,
    witness::{MithrilInstance, MithrilShape, MithrilWitness},
};

/// The polynomial commitment scheme: KZG over BLS12-381.
pub type Scheme = KZGCommitmentScheme<Bls12>;
/// The transcript hash (Plutus replays it with its `blake2b_256` builtin).
pub type DefaultTranscriptHash = midnight_proofs::transcript::Blake2b256;
/// The transcript.
type Tr = CircuitTranscript<DefaultTranscriptHash>;

/// Bytes of a compressed BLS12-381 G1 point, for the cost model's proof size.
const COMMITMENT_BYTES: usize = 48;
/// Bytes of a BLS12-381 scalar.
const SCALAR_BYTES: usize = 32;

/// The layout's figures from midnight-proofs' cost model (rows, columns, proof bytes).
pub fn layout_stats(shape: &MithrilShape) -> CircuitModel {
    circuit_model::<Base, COMMITMENT_BYTES, SCALAR_BYTES>(&MithrilCircuit::for_keygen(*shape))
}

/// The smallest `k` (from 10) whose `2^k` rows hold the circuit of `shape` with its
/// `2^(k-1)`-row range table.
pub fn min_k(shape: &MithrilShape) -> u32 {
    (10..=25)
        .find(|&k| layout_stats(&MithrilShape { k, ..*shape }).k <= k)
        .expect("fits 2^25 rows")
}

/// Proving and verifying keys of one shape.
#[derive(Debug)]
pub struct MithrilKeys {
    /// The shape the keys are for.
    pub shape: MithrilShape,
    /// The proving key.
    pub pk: ProvingKey<Base, Scheme>,
}

impl MithrilKeys {
    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<Base, Scheme> {
        self.pk.get_vk()
    }
}

/// A fingerprint of a verifying key: blake2b-256 (hex) of its raw-bytes serialisation.
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
pub fn keygen(params: &ParamsKZG<Bls12>, shape: MithrilShape) -> Result<MithrilKeys, MithrilError> {
    shape.validate()?;
    if params.max_k() != shape.k {
        return Err(MithrilError::BadShape(format!(
            "parameters for k = {}, shape k = {}",
            params.max_k(),
            shape.k
        )));
    }
    let circuit = MithrilCircuit::for_keygen(shape);
    let vk = keygen_vk_with_k(params, &circuit, shape.k)
        .map_err(|e| MithrilError::Backend(e.to_string()))?;
    let pk = keygen_pk(vk, &circuit).map_err(|e| MithrilError::Backend(e.to_string()))?;
    Ok(MithrilKeys { shape, pk })
}

/// A proof of `witness` (its statement's public inputs `[digest, message]`).
pub fn prove(
    params: &ParamsKZG<Bls12>,
    keys: &MithrilKeys,
    witness: &MithrilWitness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, MithrilError> {
    if witness.shape != keys.shape {
        return Err(MithrilError::ShapeMismatch("witness and keys".into()));
    }
    let public = witness.instance.to_public_inputs();
    let mut transcript = Tr::init();
    create_proof::<Base, Scheme, Tr, MithrilCircuit>(
        params,
        &keys.pk,
        &[MithrilCircuit::new(witness.clone())],
        0,
        &[&[&public]],
        &mut transcript,
        rng,
    )
    .map_err(|e| MithrilError::Backend(e.to_string()))?;
    Ok(transcript.finalize())
}

/// Verifies `proof` for a statement the verifier built ([`MithrilInstance::from_trusted`]),
/// checked against the key's shape (depth, `k`).
pub fn verify(
    params: &ParamsVerifierKZG<Bls12>,
    keys_shape: &MithrilShape,
    vk: &VerifyingKey<Base, Scheme>,
    instance: &MithrilInstance,
    proof: &[u8],
) -> Result<(), MithrilError> {
    instance.validate(keys_shape)?;
    verify_digest(
        params,
        vk,
        instance.commitment.digest(),
        instance.message,
        proof,
    )
}

/// Verifies `proof` for a registration digest the verifier trusts (a script parameter) and a
/// message element: no shape check is needed, the circuit recomputes the digest with its own
/// `k` and depth. Trailing bytes are refused.
pub fn verify_digest(
    params: &ParamsVerifierKZG<Bls12>,
    vk: &VerifyingKey<Base, Scheme>,
    digest: Base,
    message: Base,
    proof: &[u8],
) -> Result<(), MithrilError> {
    let public = MithrilInstance::public_inputs(digest, message);
    let mut transcript = Tr::init_from_bytes(proof);
    let guard = prepare::<Base, Scheme, Tr>(vk, &[&[]], &[&[&public]], &mut transcript)
        .map_err(|_| MithrilError::ProofRejected)?;
    transcript
        .assert_empty()
        .map_err(|_| MithrilError::ProofRejected)?;
    guard
        .verify(params)
        .map_err(|_| MithrilError::ProofRejected)
}
