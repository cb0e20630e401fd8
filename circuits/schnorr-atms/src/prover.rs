//! `setup / keygen / prove / verify`.

use halo2_base::{
    gates::circuit::{builder::BaseCircuitBuilder, BaseCircuitParams, CircuitBuilderStage},
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::{keygen_pk, keygen_vk, ProvingKey, VerifyingKey},
        poly::kzg::commitment::ParamsKZG,
    },
};
use rand::SeedableRng;
use tms_gadgets::{
    proving::{prove_shplonk, verify_shplonk},
    schnorr::SigningKey,
    testing::{kzg_params, CircuitStats, UNUSABLE_ROWS},
};

use crate::{
    circuit::synthesize, AtmsError, AtmsInstance, AtmsShape, AtmsWitness, Certificate, Committee,
};

/// Proving and verifying keys of one circuit shape, with the layout the prover must reproduce.
#[derive(Clone, Debug)]
pub struct AtmsKeys {
    /// The shape the keys are for.
    pub shape: AtmsShape,
    /// The proving key (contains the verifying key).
    pub pk: ProvingKey<G1Affine>,
    /// Column configuration.
    pub config: BaseCircuitParams,
    /// Where the virtual columns break into physical ones.
    pub break_points: Vec<Vec<usize>>,
    /// Cells, columns, k.
    pub stats: CircuitStats,
}

impl AtmsKeys {
    /// The verifying key.
    pub fn vk(&self) -> &VerifyingKey<G1Affine> {
        self.pk.get_vk()
    }
}

/// KZG parameters for `2^k` rows.
///
/// **Insecure, for tests and benchmarks**: made from a fixed public seed (and cached under
/// `params/`). Production use needs parameters from a powers-of-tau ceremony.
pub fn setup(k: u32) -> ParamsKZG<Bn256> {
    kzg_params(k)
}

fn builder(shape: &AtmsShape, stage: CircuitBuilderStage) -> BaseCircuitBuilder<tms_gadgets::Fr> {
    BaseCircuitBuilder::from_stage(stage)
        .use_k(shape.k as usize)
        .use_lookup_bits(shape.k as usize - 1)
        .use_instance_columns(1)
}

/// A witness of the right shape with no signatures, for keygen.
fn keygen_witness(shape: AtmsShape) -> Result<AtmsWitness, AtmsError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(shape.n as u64);
    let committee = Committee::new(
        (0..shape.n)
            .map(|_| SigningKey::random(&mut rng).verifying_key())
            .collect(),
    )?;
    let certificate = Certificate {
        message: tms_gadgets::Fr::zero(),
        signatures: vec![],
    };
    AtmsWitness::new(shape, &committee, &certificate, 0)
}

/// Proving and verifying keys for `shape` (one-time work per shape).
pub fn keygen(params: &ParamsKZG<Bn256>, shape: AtmsShape) -> Result<AtmsKeys, AtmsError> {
    shape.validate()?;
    let witness = keygen_witness(shape)?;
    let mut b = builder(&shape, CircuitBuilderStage::Keygen);
    let range = b.range_chip();
    let publics = synthesize(b.main(0), &range, &witness);
    b.assigned_instances = vec![publics];
    let config = b.calculate_params(Some(UNUSABLE_ROWS));
    let s = b.statistics();
    let stats = CircuitStats {
        k: config.k as u32,
        advice_cells: s.gate.total_advice_per_phase.iter().sum(),
        lookup_cells: s.total_lookup_advice_per_phase.iter().sum(),
        fixed_cells: s.gate.total_fixed,
        advice_columns: config.num_advice_per_phase.iter().sum(),
        lookup_advice_columns: config.num_lookup_advice_per_phase.iter().sum(),
        fixed_columns: config.num_fixed,
    };
    let vk = keygen_vk(params, &b).map_err(|_| AtmsError::CircuitTooLarge(shape.k))?;
    let pk = keygen_pk(params, vk, &b).map_err(|_| AtmsError::CircuitTooLarge(shape.k))?;
    Ok(AtmsKeys {
        shape,
        pk,
        config,
        break_points: b.break_points(),
        stats,
    })
}

/// A proof that `witness.instance` holds.
pub fn prove(
    params: &ParamsKZG<Bn256>,
    keys: &AtmsKeys,
    witness: &AtmsWitness,
) -> Result<Vec<u8>, AtmsError> {
    if witness.shape != keys.shape {
        return Err(AtmsError::ShapeMismatch);
    }
    witness.instance.validate(&witness.shape)?;
    let mut b = BaseCircuitBuilder::prover(keys.config.clone(), keys.break_points.clone());
    let range = b.range_chip();
    let publics = synthesize(b.main(0), &range, witness);
    b.assigned_instances = vec![publics];
    prove_shplonk(params, &keys.pk, b, &witness.instance.to_public_inputs())
        .ok_or(AtmsError::CircuitTooLarge(keys.shape.k))
}

/// Checks `proof` for `instance`.
pub fn verify(
    params: &ParamsKZG<Bn256>,
    keys: &AtmsKeys,
    instance: &AtmsInstance,
    proof: &[u8],
) -> Result<(), AtmsError> {
    instance.validate(&keys.shape)?;
    if verify_shplonk(params, keys.vk(), proof, &instance.to_public_inputs()) {
        Ok(())
    } else {
        Err(AtmsError::ProofRejected)
    }
}
