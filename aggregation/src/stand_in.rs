//! Stand-in proofs: real proofs of a trivial circuit shaped exactly like an aggregation circuit.
//!
//! An aggregation circuit's layout (`AggregationConfigParams`) fixes its constraint system:
//! halo2-base's plain gate on `num_advice` columns, the range lookup, one fixed column, one
//! instance column. A [`stand_in`] circuit is halo2-base's builder configured with that very
//! layout, its columns filled as an aggregation circuit fills them (so that halo2's selector
//! compression gives the same fixed columns), and its public inputs chosen by the caller, the
//! first [`crate::ACCUMULATOR_LIMBS`] being a valid KZG accumulator ([`trivial_accumulator`]). Its
//! proofs are therefore verified by the same program as the aggregation circuit's, at any `k`:
//!
//! - the base case of a recursive chain ([`crate::chain_step`]) takes one in place of the
//!   previous step proof that does not exist yet;
//! - `tms-evm`'s `wrapper_shapes` test measures the on-chain cost of every layout with them.

use halo2_base::{
    gates::{
        circuit::{builder::BaseCircuitBuilder, BaseCircuitParams, CircuitBuilderStage},
        flex_gate::MultiPhaseThreadBreakPoints,
        GateChip, GateInstructions, RangeInstructions,
    },
    halo2_proofs::{
        halo2curves::bn256::{Bn256, Fq, G1Affine},
        plonk::{keygen_pk, keygen_vk, VerifyingKey},
        poly::{
            commitment::{Params, ParamsProver},
            kzg::commitment::ParamsKZG,
        },
    },
    AssignedValue,
};
use snark_verifier_sdk::{
    halo2::aggregation::AggregationConfigParams, snark_verifier::util::arithmetic::fe_to_limbs,
    BITS, LIMBS,
};
use tms_gadgets::{
    proving::{prove_kzg, MultiOpen, Transcript},
    Fr,
};

use crate::{AggregationError, AggregationKeys};

/// Rows left to halo2's blinding, as the aggregation circuit's layout leaves them.
const MINIMUM_ROWS: usize = 10;

/// The accumulator `([tau]G, G)` of `params` as limbs: it holds (`e([tau]G, [1]_2) = e(G,
/// [tau]_2)`) for everyone, from the parameters' public points alone.
pub fn trivial_accumulator(params: &ParamsKZG<Bn256>) -> Vec<Fr> {
    let g = params.get_g();
    [g[1].x, g[1].y, g[0].x, g[0].y]
        .into_iter()
        .flat_map(fe_to_limbs::<Fq, Fr, LIMBS, BITS>)
        .collect()
}

/// The final wrapper's layout at `2^k` rows: one advice column with the range lookup on it and
/// one fixed column (the cheapest verifier: what `tms aggregate prove` makes of one certificate
/// at the `k` where it fits one column, [`crate::one_column_k`]).
pub fn final_wrapper_layout(k: u32) -> AggregationConfigParams {
    AggregationConfigParams {
        degree: k,
        num_advice: 1,
        num_lookup_advice: 1,
        num_fixed: 1,
        lookup_bits: k as usize - 1,
    }
}

/// A stand-in's key and one proof of it.
pub struct StandIn {
    /// Its verifying key (`k` is `params.k()`).
    pub vk: VerifyingKey<G1Affine>,
    /// The proof of `public_inputs`.
    pub proof: Vec<u8>,
}

/// The builder of a stand-in of `layout` (its `degree` is replaced by `params.k()`), rows
/// filled; `public_inputs` are witnessed and exposed.
fn builder(
    stage: CircuitBuilderStage,
    k: u32,
    layout: AggregationConfigParams,
    public_inputs: &[Fr],
    fixed: Option<(BaseCircuitParams, MultiPhaseThreadBreakPoints)>,
) -> BaseCircuitBuilder<Fr> {
    let lookup = layout.num_lookup_advice > 0;
    let mut builder = match fixed {
        Some((config, break_points)) => BaseCircuitBuilder::prover(config, break_points),
        None => {
            let builder = BaseCircuitBuilder::<Fr>::from_stage(stage)
                .use_k(k as usize)
                .use_instance_columns(1);
            if lookup {
                builder.use_lookup_bits((k as usize - 1).min(layout.lookup_bits))
            } else {
                builder
            }
        }
    };
    let range = lookup.then(|| builder.range_chip());
    let gate = GateChip::<Fr>::default();
    let ctx = builder.main(0);
    let exposed: Vec<AssignedValue<Fr>> =
        public_inputs.iter().map(|&v| ctx.load_witness(v)).collect();
    // The constant column, and as many range checks as make the lookup columns of `layout`.
    let mut acc = ctx.load_constant(Fr::from(7));
    let usable = (1usize << k) - MINIMUM_ROWS;
    if let Some(range) = &range {
        for i in 0..(layout.num_lookup_advice - 1) * usable + 1 {
            let small = ctx.load_witness(Fr::from((i % 200) as u64));
            range.range_check(ctx, small, 8);
            acc = gate.add(ctx, acc, small);
        }
    }
    // Every advice column at least 90% full, as an aggregation circuit's are.
    let target = layout.num_advice * usable * 9 / 10;
    let (a, b) = (exposed[0], exposed[exposed.len() - 1]);
    while ctx.advice.len() + 4 <= target {
        acc = gate.mul_add(ctx, acc, a, b);
    }
    builder.assigned_instances = vec![exposed];
    builder
}

/// Keygen and one proof (in `transcript`, with `open`) of the stand-in of `layout` at
/// `params.k()` rows for `public_inputs`; an error if that `k` cannot hold the layout's shape
/// (the builder would choose other columns).
pub fn stand_in(
    params: &ParamsKZG<Bn256>,
    layout: AggregationConfigParams,
    public_inputs: &[Fr],
    transcript: Transcript,
    open: MultiOpen,
) -> Result<StandIn, AggregationError> {
    stand_in_with_keys(params, layout, public_inputs, transcript, open).map(|(made, _)| made)
}

/// [`stand_in`] and the stand-in's keys, as an aggregation circuit's keys of `layout` at
/// `params.k()` rows (its proving key reads back as one): small keys of an aggregation
/// circuit's shape, for tests of what stores or handles such keys at a size CI affords.
pub fn stand_in_with_keys(
    params: &ParamsKZG<Bn256>,
    layout: AggregationConfigParams,
    public_inputs: &[Fr],
    transcript: Transcript,
    open: MultiOpen,
) -> Result<(StandIn, AggregationKeys), AggregationError> {
    let k = params.k();
    let mut keygen = builder(CircuitBuilderStage::Keygen, k, layout, public_inputs, None);
    let mut config = keygen.calculate_params(Some(MINIMUM_ROWS));
    config.num_advice_per_phase.truncate(1);
    config.num_lookup_advice_per_phase.truncate(1);
    if config.num_advice_per_phase != [layout.num_advice]
        || config.num_lookup_advice_per_phase != [layout.num_lookup_advice]
        || config.num_fixed != layout.num_fixed
    {
        return Err(AggregationError::Input(format!(
            "a stand-in at k = {k} lays out as {config:?}, not as {layout:?}"
        )));
    }
    let advice_cells = keygen.statistics().gate.total_advice_per_phase.iter().sum();
    let keygen = keygen.use_params(config.clone());
    let prover =
        |e: halo2_base::halo2_proofs::plonk::Error| AggregationError::Prover(e.to_string());
    let vk = keygen_vk(params, &keygen).map_err(prover)?;
    let pk = keygen_pk(params, vk.clone(), &keygen).map_err(prover)?;
    let break_points = keygen.break_points();
    let proving = builder(
        CircuitBuilderStage::Prover,
        k,
        layout,
        public_inputs,
        Some((config.clone(), break_points.clone())),
    );
    let proof = prove_kzg(params, &pk, proving, public_inputs, transcript, open)
        .ok_or_else(|| AggregationError::Prover("the stand-in prover failed".into()))?;
    let keys = AggregationKeys {
        pk,
        config: AggregationConfigParams {
            degree: k,
            num_advice: layout.num_advice,
            num_lookup_advice: layout.num_lookup_advice,
            num_fixed: layout.num_fixed,
            lookup_bits: config.lookup_bits.unwrap_or(layout.lookup_bits),
        },
        break_points,
        num_instances: public_inputs.len(),
        advice_cells,
    };
    Ok((StandIn { vk, proof }, keys))
}
