//! Setup, keygen, prove and verify: the shape implements the backend's [`MidnightScheme`]
//! (KZG over BLS12-381, Halo2 multi-open) and these functions are the backend's one prover
//! (`tms_cardano::scheme`), in the transcript [`DefaultTranscriptHash`] (midnight-proofs'
//! `Blake2b256`, the one `tms-cardano`'s Plutus verifier replays).

use midnight_curves::Bls12;
use midnight_proofs::{
    dev::cost_model::CircuitModel,
    plonk::VerifyingKey,
    poly::kzg::{
        params::{ParamsKZG, ParamsVerifierKZG},
        KZGCommitmentScheme,
    },
    utils::SerdeFormat,
};
use rand::{CryptoRng, RngCore};
use tms_cardano::scheme::{self, MidnightScheme, SchemeKeys};

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

impl MidnightScheme for MithrilShape {
    type Circuit = MithrilCircuit;
    type Witness = MithrilWitness;
    type Instance = MithrilInstance;
    type Error = MithrilError;

    fn k(&self) -> u32 {
        self.k
    }

    fn at_k(&self, k: u32) -> Self {
        MithrilShape { k, ..*self }
    }

    fn validate(&self) -> Result<(), MithrilError> {
        MithrilShape::validate(self)
    }

    fn keygen_circuit(&self) -> MithrilCircuit {
        MithrilCircuit::for_keygen(*self)
    }

    fn circuit(witness: &MithrilWitness) -> MithrilCircuit {
        MithrilCircuit::new(witness.clone())
    }

    fn witness_shape(witness: &MithrilWitness) -> &Self {
        &witness.shape
    }

    fn witness_instance(witness: &MithrilWitness) -> &MithrilInstance {
        &witness.instance
    }

    fn public_inputs(instance: &MithrilInstance) -> Vec<Base> {
        instance.to_public_inputs()
    }

    fn shape_mismatch() -> MithrilError {
        MithrilError::ShapeMismatch("witness and keys".into())
    }

    fn rejected() -> MithrilError {
        MithrilError::ProofRejected
    }
}

/// The layout's figures from midnight-proofs' cost model (rows, columns, proof bytes).
pub fn layout_stats(shape: &MithrilShape) -> CircuitModel {
    scheme::layout_stats(shape)
}

/// The smallest `k` (from 10) whose `2^k` rows hold the circuit of `shape` with its
/// `2^(k-1)`-row range table.
pub fn min_k(shape: &MithrilShape) -> u32 {
    scheme::min_k(shape)
}

/// Proving and verifying keys of one shape.
pub type MithrilKeys = SchemeKeys<MithrilShape>;

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
    scheme::keygen(params, shape)
}

/// A proof of `witness` (its statement's public inputs `[digest, message]`).
pub fn prove(
    params: &ParamsKZG<Bls12>,
    keys: &MithrilKeys,
    witness: &MithrilWitness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, MithrilError> {
    scheme::prove(params, keys, witness, rng)
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
    scheme::verify::<MithrilShape>(params, vk, instance, proof)
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
    // The backend's verifier reads the public inputs from an instance; this one is built from
    // the two values alone.
    tms_cardano::backend::verify(params, vk, proof, &[&public])
        .then_some(())
        .ok_or(MithrilError::ProofRejected)
}
