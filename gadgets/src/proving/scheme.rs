//! One prover for every certificate circuit laid out on [`HybridCircuit`] (KZG over BN254): a
//! scheme's shape implements [`HybridScheme`] (its witness, statement and layout), and keygen,
//! proving, verification and the layout statistics are written once, here.
//!
//! Keygen lays the shape out with the scheme's stand-in witness, fixes the column configuration
//! and the break points, and keeps both in the keys; the prover lays the real witness out on the
//! same configuration and break points. Key files, transcripts and the SHPLONK prover are the
//! rest of [`crate::proving`].

use std::fmt::Debug;

use halo2_base::{
    gates::{circuit::CircuitBuilderStage, RangeChip},
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::{keygen_pk, keygen_vk, VerifyingKey},
        poly::kzg::commitment::ParamsKZG,
    },
    AssignedValue, Context,
};

use super::{
    cost::{lay_out_recorded, CellLedger, ComponentCells},
    keys::{CircuitKeys, KeyedShape},
    prove_shplonk,
    stats::{phase, CircuitStats, UNUSABLE_ROWS},
    verify_shplonk, Transcript,
};
use crate::{bank::CustomRegion, hybrid::HybridCircuit, Fr};

/// A certificate circuit's shape: what the one prover needs from a scheme.
pub trait HybridScheme: KeyedShape + PartialEq + Debug {
    /// A certificate laid out for the circuit (its shape and instance inside).
    type Witness;
    /// The statement: what the public inputs are made from.
    type Instance;
    /// The scheme's error.
    type Error;

    /// log2 of the circuit's rows.
    fn k(&self) -> u32;
    /// Refuses a shape no circuit can have.
    fn validate(&self) -> Result<(), Self::Error>;
    /// A witness of this shape for keygen, which needs the layout, not a satisfying assignment.
    fn keygen_witness(&self) -> Result<Self::Witness, Self::Error>;
    /// The shape of a witness.
    fn witness_shape(witness: &Self::Witness) -> &Self;
    /// The statement of a witness.
    fn witness_instance(witness: &Self::Witness) -> &Self::Instance;
    /// Refuses a witness the prover cannot lay out (an instance out of the shape's range, say).
    fn check_witness(witness: &Self::Witness) -> Result<(), Self::Error> {
        Self::witness_shape(witness).validate_instance(Self::witness_instance(witness))
    }
    /// Refuses a statement out of this shape's range (a threshold above the slots, say).
    fn validate_instance(&self, instance: &Self::Instance) -> Result<(), Self::Error>;
    /// The public inputs of a statement, in instance-column order.
    fn public_inputs(instance: &Self::Instance) -> Vec<Fr>;
    /// Lays the circuit out for `witness` (halo2-base cells on `ctx`, custom gates on
    /// `custom`), charging each component's cells to `ledger`; returns the public cells in
    /// instance order.
    fn synthesize_recorded(
        ctx: &mut Context<Fr>,
        range: &RangeChip<Fr>,
        custom: &CustomRegion,
        witness: &Self::Witness,
        ledger: &mut CellLedger,
    ) -> Vec<AssignedValue<Fr>>;
    /// [`HybridScheme::synthesize_recorded`] without the ledger (MockProver tests).
    fn synthesize(
        ctx: &mut Context<Fr>,
        range: &RangeChip<Fr>,
        custom: &CustomRegion,
        witness: &Self::Witness,
    ) -> Vec<AssignedValue<Fr>> {
        Self::synthesize_recorded(
            ctx,
            range,
            custom,
            witness,
            &mut CellLedger::new(range, custom),
        )
    }
    /// The error for a circuit that does not fit `2^k` rows.
    fn too_large(k: u32) -> Self::Error;
    /// The error for a witness of another shape than the proving key's.
    fn shape_mismatch() -> Self::Error;
    /// The error for a proof that does not verify.
    fn rejected() -> Self::Error;
}

/// Keys of a scheme's shape on [`HybridCircuit`].
pub type HybridKeys<S> = CircuitKeys<S, HybridCircuit>;

/// Lays `witness` out on `circuit`, exposes the public cells and returns the cells charged to
/// each component.
pub fn lay_out<S: HybridScheme>(
    circuit: &mut HybridCircuit,
    witness: &S::Witness,
) -> Vec<ComponentCells> {
    lay_out_recorded(circuit, |ctx, range, custom, ledger| {
        S::synthesize_recorded(ctx, range, custom, witness, ledger)
    })
}

/// The halo2-base advice cells and the custom rows of `shape` laid out with the keygen witness
/// (no column configuration fixed): what a search for the smallest k needs.
pub fn cells_and_custom_rows<S: HybridScheme>(shape: &S) -> Result<(usize, usize), S::Error> {
    let witness = shape.keygen_witness()?;
    let mut circuit = HybridCircuit::new(CircuitBuilderStage::Keygen, shape.k());
    lay_out::<S>(&mut circuit, &witness);
    let cells = circuit
        .builder
        .statistics()
        .gate
        .total_advice_per_phase
        .iter()
        .sum();
    Ok((cells, circuit.custom_rows()))
}

/// `shape` laid out with the keygen witness and its column configuration fixed, with its
/// statistics; fails if the custom gates' rows do not fit `2^k`.
fn laid_out<S: HybridScheme>(shape: &S) -> Result<(HybridCircuit, CircuitStats), S::Error> {
    shape.validate()?;
    let witness = phase("keygen: stand-in witness", || shape.keygen_witness())?;
    let mut circuit = HybridCircuit::new(CircuitBuilderStage::Keygen, shape.k());
    let components = phase("layout (keygen)", || lay_out::<S>(&mut circuit, &witness));
    if circuit.custom_rows() + UNUSABLE_ROWS > 1 << shape.k() {
        return Err(S::too_large(shape.k()));
    }
    let base = phase("column configuration", || {
        circuit.builder.calculate_params(Some(UNUSABLE_ROWS))
    });
    let stats = CircuitStats::of_hybrid(&circuit, &base).with_components(components);
    Ok((circuit, stats))
}

/// The cells (by component too), columns and custom rows of `shape` laid out, without keygen:
/// the statistics [`keygen`] returns in [`CircuitKeys::stats`].
pub fn layout_stats<S: HybridScheme>(shape: &S) -> Result<CircuitStats, S::Error> {
    laid_out(shape).map(|(_, stats)| stats)
}

/// Proving and verifying keys for `shape` (one-time work per shape).
pub fn keygen<S: HybridScheme>(
    params: &ParamsKZG<Bn256>,
    shape: S,
) -> Result<HybridKeys<S>, S::Error> {
    let (circuit, stats) = laid_out(&shape)?;
    let k = shape.k();
    // halo2-base sizes its columns as ceil(cells / rows) without room for the break points'
    // overhead, and panics during the assignment when a layout at a far too small k needs it
    // (hundreds of columns); that is the parameters being too small, not a bug to crash on.
    let vk = phase("keygen_vk: fixed and permutation commitments", || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| keygen_vk(params, &circuit)))
    })
    .map_err(|_| S::too_large(k))?
    .map_err(|_| S::too_large(k))?;
    let pk = phase("keygen_pk: fixed and permutation polynomials", || {
        keygen_pk(params, vk, &circuit)
    })
    .map_err(|_| S::too_large(k))?;
    Ok(HybridKeys::new(
        shape,
        pk,
        circuit.params(),
        circuit.builder.break_points(),
        stats,
    ))
}

/// A proof that the witness's statement holds, in `transcript` ([`Transcript::Evm`] for a proof
/// a generated Solidity verifier checks).
pub fn prove<S: HybridScheme>(
    params: &ParamsKZG<Bn256>,
    keys: &HybridKeys<S>,
    witness: &S::Witness,
    transcript: Transcript,
) -> Result<Vec<u8>, S::Error> {
    if *S::witness_shape(witness) != keys.shape {
        return Err(S::shape_mismatch());
    }
    S::check_witness(witness)?;
    let public = S::public_inputs(S::witness_instance(witness));
    let mut circuit = HybridCircuit::prover(&keys.config, keys.break_points.clone());
    phase("layout (witness cells)", || {
        lay_out::<S>(&mut circuit, witness)
    });
    phase(
        "create_proof (assignment, commitments, quotient, openings)",
        || prove_shplonk(params, &keys.pk, circuit, &public, transcript),
    )
    .ok_or_else(|| S::too_large(keys.shape.k()))
}

/// Checks `proof`, made in `transcript`, for `instance` with only the verifying key of `shape`.
pub fn verify<S: HybridScheme>(
    params: &ParamsKZG<Bn256>,
    shape: &S,
    vk: &VerifyingKey<G1Affine>,
    instance: &S::Instance,
    proof: &[u8],
    transcript: Transcript,
) -> Result<(), S::Error> {
    shape.validate_instance(instance)?;
    if verify_shplonk(params, vk, proof, &S::public_inputs(instance), transcript) {
        Ok(())
    } else {
        Err(S::rejected())
    }
}
