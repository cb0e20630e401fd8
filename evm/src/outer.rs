//! A thin outer proof for the chain: snark-verifier-sdk's aggregation circuit verifies one
//! certificate proof (made in the Poseidon transcript, [`Transcript::Poseidon`]) and exposes
//! its public inputs after the KZG accumulator's [`ACCUMULATOR_LIMBS`] limbs. The outer circuit
//! is halo2-base's plain gate with few columns, so its generated verifier is short and its final
//! MSM has few points: the certificate circuits' own verifiers are too large for EIP-170 and cost
//! about 600 k gas (README, on-chain section).
//!
//! The outer statement is `[accumulator limbs, inner public inputs]`; the EVM verifier folds the
//! accumulator into its pairing check, so an accepting outer proof means the inner proof verifies
//! for the exposed inner public inputs under the inner verifying key (fixed in the outer key:
//! `VerifierUniversality::None`).

use halo2_base::{
    gates::circuit::{builder::BaseCircuitBuilder, CircuitBuilderStage},
    halo2_proofs::{
        halo2curves::bn256::{Bn256, Fr, G1Affine},
        plonk::{keygen_pk, keygen_vk, ProvingKey, VerifyingKey},
        poly::kzg::commitment::ParamsKZG,
    },
};
use snark_verifier_sdk::{
    halo2::aggregation::{AggregationCircuit, AggregationConfigParams, VerifierUniversality},
    snark_verifier::system::halo2::{compile, Config},
    CircuitExt, Snark, LIMBS, SHPLONK,
};

use tms_gadgets::proving::{prove_shplonk, Transcript};

use crate::EvmError;

/// Public inputs the KZG accumulator takes at the front of the outer statement.
pub const ACCUMULATOR_LIMBS: usize = 4 * LIMBS;

/// A certificate proof in the form the aggregation circuit takes: the inner verifying key
/// compiled for one instance column, its public inputs and its proof (Poseidon transcript).
pub fn inner_snark(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public_inputs: &[Fr],
    proof: Vec<u8>,
) -> Snark {
    let protocol = compile(
        params,
        vk,
        Config::kzg().with_num_instance(vec![public_inputs.len()]),
    );
    Snark::new(protocol, vec![public_inputs.to_vec()], proof)
}

/// The outer circuit's keys and layout.
pub struct OuterKeys {
    /// The proving key (its verifying key is the one the EVM verifier embeds).
    pub pk: ProvingKey<G1Affine>,
    /// The layout keygen chose.
    pub config: AggregationConfigParams,
    /// Where halo2-base broke its rows into columns at keygen.
    pub break_points: halo2_base::gates::flex_gate::MultiPhaseThreadBreakPoints,
    /// Outer public inputs: accumulator limbs and the inner ones.
    pub num_instances: usize,
    /// Advice cells of the outer circuit.
    pub advice_cells: usize,
}

fn aggregation(
    stage: CircuitBuilderStage,
    config: AggregationConfigParams,
    params: &ParamsKZG<Bn256>,
    snark: Snark,
) -> Result<AggregationCircuit, EvmError> {
    // The SDK asserts on what it cannot aggregate; the snark comes from a file.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut circuit = AggregationCircuit::new::<SHPLONK>(
            stage,
            config,
            params,
            [snark],
            VerifierUniversality::None,
        );
        circuit.expose_previous_instances(false);
        circuit
    }))
    .map_err(|_| EvmError::Generation("the aggregation circuit refused the inner proof".into()))
}

/// Keys of the outer circuit at `2^k` rows for proofs shaped like `sample` (same inner
/// verifying key and instance count; the sample need not verify).
pub fn outer_keygen(
    params: &ParamsKZG<Bn256>,
    k: u32,
    sample: Snark,
) -> Result<OuterKeys, EvmError> {
    let start = AggregationConfigParams {
        degree: k,
        lookup_bits: k as usize - 1,
        ..Default::default()
    };
    let mut circuit = aggregation(CircuitBuilderStage::Keygen, start, params, sample)?;
    let config = circuit.calculate_params(Some(10));
    let advice_cells = advice_cells(&circuit.builder);
    let vk = keygen_vk(params, &circuit).map_err(|e| EvmError::Generation(e.to_string()))?;
    let pk = keygen_pk(params, vk, &circuit).map_err(|e| EvmError::Generation(e.to_string()))?;
    Ok(OuterKeys {
        pk,
        config,
        break_points: circuit.break_points(),
        num_instances: circuit.num_instance()[0],
        advice_cells,
    })
}

fn advice_cells(builder: &BaseCircuitBuilder<Fr>) -> usize {
    builder
        .statistics()
        .gate
        .total_advice_per_phase
        .iter()
        .sum()
}

/// An outer proof (EVM transcript) that `snark` verifies, and the outer public inputs:
/// accumulator limbs, then `snark`'s public inputs.
pub fn outer_prove(
    params: &ParamsKZG<Bn256>,
    keys: &OuterKeys,
    snark: Snark,
) -> Result<(Vec<Fr>, Vec<u8>), EvmError> {
    let circuit = aggregation(CircuitBuilderStage::Prover, keys.config, params, snark)?
        .use_break_points(keys.break_points.clone());
    let instances = circuit.instances().remove(0);
    let proof = prove_shplonk(params, &keys.pk, circuit, &instances, Transcript::Evm)
        .ok_or_else(|| EvmError::Generation("the outer prover failed".into()))?;
    Ok((instances, proof))
}
