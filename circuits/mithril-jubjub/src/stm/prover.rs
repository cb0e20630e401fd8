//! Keygen, prove and verify for the mithril-stm mode: its shape implements the backend's
//! [`MidnightScheme`], as [`crate::prover`] does for this crate's own mode (same parameters,
//! transcript and Plutus verifier).

use midnight_curves::Bls12;
use midnight_proofs::{
    plonk::VerifyingKey,
    poly::kzg::params::{ParamsKZG, ParamsVerifierKZG},
};
use rand::{CryptoRng, RngCore};
use tms_cardano::scheme::{self, MidnightScheme, SchemeKeys};

use crate::{
    native::Base,
    prover::Scheme,
    stm::{StmCircuit, StmInstance, StmShape, StmWitness},
    MithrilError,
};

impl MidnightScheme for StmShape {
    type Circuit = StmCircuit;
    type Witness = StmWitness;
    type Instance = StmInstance;
    type Error = MithrilError;

    fn k(&self) -> u32 {
        self.k
    }

    fn at_k(&self, k: u32) -> Self {
        StmShape { k, ..*self }
    }

    fn validate(&self) -> Result<(), MithrilError> {
        StmShape::validate(self)
    }

    fn keygen_circuit(&self) -> StmCircuit {
        StmCircuit::for_keygen(*self)
    }

    fn circuit(witness: &StmWitness) -> StmCircuit {
        StmCircuit::new(witness.clone())
    }

    fn witness_shape(witness: &StmWitness) -> &Self {
        &witness.shape
    }

    fn witness_instance(witness: &StmWitness) -> &StmInstance {
        &witness.instance
    }

    fn public_inputs(instance: &StmInstance) -> Vec<Base> {
        instance.to_public_inputs()
    }

    fn shape_mismatch() -> MithrilError {
        MithrilError::ShapeMismatch("witness and keys".into())
    }

    fn rejected() -> MithrilError {
        MithrilError::ProofRejected
    }
}

/// Proving and verifying keys of one mithril-stm-mode shape.
pub type StmKeys = SchemeKeys<StmShape>;

/// The smallest `k` (from 10) whose `2^k` rows hold the circuit of `shape`.
pub fn min_k(shape: &StmShape) -> u32 {
    scheme::min_k(shape)
}

/// Keys for `shape` under `params` (which must have `2^shape.k` rows).
pub fn keygen(params: &ParamsKZG<Bls12>, shape: StmShape) -> Result<StmKeys, MithrilError> {
    scheme::keygen(params, shape)
}

/// A proof of `witness` (public inputs `[root, low, high]`: the message's halves).
pub fn prove(
    params: &ParamsKZG<Bls12>,
    keys: &StmKeys,
    witness: &StmWitness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, MithrilError> {
    scheme::prove(params, keys, witness, rng)
}

/// Verifies `proof` for a statement the verifier built ([`StmInstance::from_trusted`]) under a
/// verifying key it regenerated or pinned.
pub fn verify(
    params: &ParamsVerifierKZG<Bls12>,
    vk: &VerifyingKey<Base, Scheme>,
    instance: &StmInstance,
    proof: &[u8],
) -> Result<(), MithrilError> {
    scheme::verify::<StmShape>(params, vk, instance, proof)
}
