//! The test harness shared by every crate of the workspace, in the builder style of halo2-base's
//! `utils::testing`, with what that one lacks here: public instances, the list of failures a
//! rejected MockProver run reports (so negative tests can assert *which* check failed), custom-gate
//! circuits, and real round trips on the cached insecure parameters of
//! [`crate::proving::params::kzg_params`]. Statistics and parameters belong to proving
//! ([`crate::proving`]); this module holds only what tests need.
//!
//! ```no_run
//! use tms_gadgets::{testing::CircuitHarness, Fr};
//! let run = CircuitHarness::new(10).mock(|ctx, _range| {
//!     let x = ctx.load_witness(Fr::from(7));
//!     ((), vec![x])
//! });
//! run.assert_satisfied();
//! ```
//!

use crate::{
    bank::CustomRegion,
    hybrid::HybridCircuit,
    proving::{
        params::kzg_params,
        prove_shplonk,
        stats::{vk_fingerprint, CircuitStats, UNUSABLE_ROWS},
        verify_shplonk, Transcript,
    },
    Fr,
};
use halo2_base::{
    gates::{
        circuit::{builder::BaseCircuitBuilder, CircuitBuilderStage},
        RangeChip,
    },
    halo2_proofs::{
        dev::{FailureLocation, MockProver, VerifyFailure},
        halo2curves::bn256::Bn256,
        plonk::{keygen_pk, keygen_vk},
        poly::{commitment::Params, kzg::commitment::ParamsKZG},
    },
    AssignedValue, Context,
};

/// Which kind of check rejected a MockProver run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// A copy constraint between two advice cells (e.g. an in-circuit equality).
    AdviceCopy,
    /// A copy constraint to public instance row `row` (e.g. a root that is not the public one).
    PublicInput(usize),
    /// A copy constraint to a fixed (constant) cell.
    Constant,
    /// The basic gate `a + b * c = d`.
    Gate,
    /// A range-check lookup.
    Lookup,
    /// The lookup of a tuple in the dynamic table of [`crate::table`].
    TableLookup,
    /// The lookup of a GLV ladder row's point in its table ([`crate::curve::glv`]).
    GlvLookup,
    /// Anything else (unassigned cells, poisoned constraints).
    Other,
}

fn classify(failure: &VerifyFailure) -> Rejection {
    match failure {
        VerifyFailure::ConstraintNotSatisfied { .. } => Rejection::Gate,
        VerifyFailure::Lookup { name, .. } if name == crate::table::LOOKUP_NAME => {
            Rejection::TableLookup
        }
        VerifyFailure::Lookup { name, .. } if name == crate::curve::glv::LOOKUP_NAME => {
            Rejection::GlvLookup
        }
        VerifyFailure::Lookup { .. } => Rejection::Lookup,
        VerifyFailure::Permutation { column, location } => {
            let col = format!("{column:?}");
            if col.contains("Instance") {
                let row = match location {
                    FailureLocation::OutsideRegion { row } => *row,
                    FailureLocation::InRegion { offset, .. } => *offset,
                };
                Rejection::PublicInput(row)
            } else if col.contains("Fixed") {
                Rejection::Constant
            } else {
                Rejection::AdviceCopy
            }
        }
        _ => Rejection::Other,
    }
}

/// The outcome of a MockProver run.
#[derive(Debug)]
pub struct MockRun<R> {
    /// What the synthesis closure returned.
    pub output: R,
    /// The circuit's shape.
    pub stats: CircuitStats,
    /// The public values the circuit exposed (before any override).
    pub public_values: Vec<Fr>,
    /// MockProver's verdict.
    pub result: Result<(), Vec<VerifyFailure>>,
}

impl<R> MockRun<R> {
    /// Panics with MockProver's failures if the run was rejected.
    pub fn assert_satisfied(&self) -> &Self {
        if let Err(failures) = &self.result {
            let shown: Vec<String> = failures.iter().take(5).map(|f| f.to_string()).collect();
            panic!(
                "expected a satisfied circuit, got {} failures: {shown:#?}",
                failures.len()
            );
        }
        self
    }

    /// The kinds of check that rejected the run (empty if it was satisfied).
    pub fn rejections(&self) -> Vec<Rejection> {
        match &self.result {
            Ok(()) => vec![],
            Err(failures) => failures.iter().map(classify).collect(),
        }
    }

    /// Panics unless the run was rejected by a copy constraint (to another advice cell or to a
    /// constant: halo2-base routes `assert_is_const` through either, depending on the layout).
    pub fn assert_rejected_by_copy(&self) -> &Self {
        let got = self.rejections();
        assert!(
            got.iter()
                .any(|r| matches!(r, Rejection::AdviceCopy | Rejection::Constant)),
            "expected a rejection by a copy constraint, got {got:?}"
        );
        self
    }

    /// Panics unless the run was rejected by (at least) a check of kind `expected`.
    pub fn assert_rejected_by(&self, expected: Rejection) -> &Self {
        let got = self.rejections();
        assert!(
            !got.is_empty(),
            "expected a rejection by {expected:?}, but the circuit is satisfied"
        );
        assert!(
            got.contains(&expected),
            "expected a rejection by {expected:?}, got {got:?}"
        );
        self
    }

    /// Panics unless the run was rejected, and only by checks of kind `expected` (every other
    /// check holds: the change is caught by that check alone).
    pub fn assert_rejected_only_by(&self, expected: Rejection) -> &Self {
        self.assert_rejected_by(expected.clone());
        let got = self.rejections();
        assert!(
            got.iter().all(|r| *r == expected),
            "expected rejections by {expected:?} only, got {got:?}"
        );
        self
    }
}

/// The outcome of a real keygen / prove / verify round trip.
#[derive(Debug, Clone)]
pub struct RoundTrip {
    /// The circuit's shape.
    pub stats: CircuitStats,
    /// The proof.
    pub proof: Vec<u8>,
    /// The public values proved.
    pub public_values: Vec<Fr>,
    /// Whether the verifier accepted the proof for `public_values`.
    pub verified: bool,
    /// SHA3-256 of the verifying key's raw bytes, hex.
    pub vk_fingerprint: String,
}

/// Builds circuits from a synthesis closure and runs them under MockProver or the real prover.
///
/// The plain methods (`measure`, `mock`, `prove_and_verify`, ...) lay out halo2-base only; the
/// `*_custom` ones give the closure a [`CustomRegion`] too and configure the custom gates of
/// [`crate::hybrid`].
#[derive(Clone, Debug)]
pub struct CircuitHarness {
    k: u32,
    lookup_bits: usize,
    params: Option<ParamsKZG<Bn256>>,
}

/// A synthesis closure: lays out the circuit on `ctx` and returns its output and the public
/// values to expose, in instance order.
pub trait Synthesis<R>:
    Fn(&mut Context<Fr>, &RangeChip<Fr>) -> (R, Vec<AssignedValue<Fr>>)
{
}
impl<R, T: Fn(&mut Context<Fr>, &RangeChip<Fr>) -> (R, Vec<AssignedValue<Fr>>)> Synthesis<R> for T {}

/// A synthesis closure that also appends custom-gate rows.
pub trait CustomSynthesis<R>:
    Fn(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> (R, Vec<AssignedValue<Fr>>)
{
}
impl<R, T: Fn(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> (R, Vec<AssignedValue<Fr>>)>
    CustomSynthesis<R> for T
{
}

impl CircuitHarness {
    /// A harness for circuits of `2^k` rows, range lookups of `k - 1` bits.
    pub fn new(k: u32) -> Self {
        assert!((4..=26).contains(&k), "k must be in 4..=26");
        Self {
            k,
            lookup_bits: k as usize - 1,
            params: None,
        }
    }

    /// Sets the number of bits of the range lookup table.
    pub fn lookup_bits(mut self, bits: usize) -> Self {
        assert!(bits < self.k as usize, "lookup_bits must be below k");
        self.lookup_bits = bits;
        self
    }

    /// Uses `params` for real proofs instead of the cached insecure ones.
    pub fn with_params(mut self, params: ParamsKZG<Bn256>) -> Self {
        assert_eq!(params.k(), self.k, "parameters for another k");
        self.params = Some(params);
        self
    }

    fn circuit(&self, stage: CircuitBuilderStage, custom_gates: bool) -> HybridCircuit {
        HybridCircuit {
            builder: BaseCircuitBuilder::from_stage(stage)
                .use_k(self.k as usize)
                .use_lookup_bits(self.lookup_bits)
                .use_instance_columns(1),
            custom: CustomRegion::new(),
            custom_gates,
        }
    }

    /// Fixes the column configuration once the layout is done; panics if the custom rows do
    /// not fit `2^k`.
    fn finish(&self, circuit: &mut HybridCircuit) -> CircuitStats {
        let rows = circuit.custom_rows() + UNUSABLE_ROWS;
        assert!(
            rows <= 1 << self.k,
            "{rows} custom rows do not fit k = {}",
            self.k
        );
        let params = circuit.builder.calculate_params(Some(UNUSABLE_ROWS));
        CircuitStats::of_hybrid(circuit, &params)
    }

    /// Lays out the circuit and returns its statistics without running any prover.
    pub fn measure<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>) -> R,
    ) -> (R, CircuitStats) {
        self.measure_layout(false, |ctx, range, _| f(ctx, range))
    }

    /// [`Self::measure`] with the custom gates.
    pub fn measure_custom<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> R,
    ) -> (R, CircuitStats) {
        self.measure_layout(true, f)
    }

    fn measure_layout<R>(
        &self,
        custom_gates: bool,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> R,
    ) -> (R, CircuitStats) {
        let mut circuit = self.circuit(CircuitBuilderStage::Keygen, custom_gates);
        let range = circuit.builder.range_chip();
        let out = f(circuit.builder.main(0), &range, &circuit.custom);
        let stats = self.finish(&mut circuit);
        (out, stats)
    }

    /// Runs the circuit under MockProver with the public values it computes.
    pub fn mock<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>) -> (R, Vec<AssignedValue<Fr>>),
    ) -> MockRun<R> {
        self.mock_with_public(f, |values| values)
    }

    /// Runs the circuit under MockProver, the verifier being given `public(values)` instead of
    /// the values the circuit computes (to test a statement the witness does not satisfy).
    pub fn mock_with_public<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>) -> (R, Vec<AssignedValue<Fr>>),
        public: impl FnOnce(Vec<Fr>) -> Vec<Fr>,
    ) -> MockRun<R> {
        self.mock_layout(false, |ctx, range, _| f(ctx, range), public)
    }

    /// [`Self::mock`] with the custom gates.
    pub fn mock_custom<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> (R, Vec<AssignedValue<Fr>>),
    ) -> MockRun<R> {
        self.mock_layout(true, f, |values| values)
    }

    /// [`Self::mock_with_public`] with the custom gates.
    pub fn mock_custom_with_public<R>(
        &self,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> (R, Vec<AssignedValue<Fr>>),
        public: impl FnOnce(Vec<Fr>) -> Vec<Fr>,
    ) -> MockRun<R> {
        self.mock_layout(true, f, public)
    }

    fn mock_layout<R>(
        &self,
        custom_gates: bool,
        f: impl FnOnce(&mut Context<Fr>, &RangeChip<Fr>, &CustomRegion) -> (R, Vec<AssignedValue<Fr>>),
        public: impl FnOnce(Vec<Fr>) -> Vec<Fr>,
    ) -> MockRun<R> {
        let mut circuit = self.circuit(CircuitBuilderStage::Mock, custom_gates);
        let range = circuit.builder.range_chip();
        let (output, publics) = f(circuit.builder.main(0), &range, &circuit.custom);
        let public_values: Vec<Fr> = publics.iter().map(|v| *v.value()).collect();
        circuit.builder.assigned_instances = vec![publics];
        let stats = self.finish(&mut circuit);
        let instances = public(public_values.clone());
        let prover =
            MockProver::run(self.k, &circuit, vec![instances]).expect("MockProver synthesis");
        MockRun {
            output,
            stats,
            public_values,
            result: prover.verify(),
        }
    }

    /// Keygen, a real SHPLONK proof and its verification, with cached insecure parameters. The
    /// closure runs twice (keygen, then witness generation) and must lay out the same shape.
    pub fn prove_and_verify<R>(&self, f: impl Synthesis<R>) -> RoundTrip {
        self.prove_and_verify_with_public(f, |values| values)
    }

    /// As [`Self::prove_and_verify`], the verifier being given `public(values)`.
    pub fn prove_and_verify_with_public<R>(
        &self,
        f: impl Synthesis<R>,
        public: impl FnOnce(Vec<Fr>) -> Vec<Fr>,
    ) -> RoundTrip {
        self.round_trip(false, |ctx, range, _| f(ctx, range), public)
    }

    /// [`Self::prove_and_verify`] with the custom gates.
    pub fn prove_and_verify_custom<R>(&self, f: impl CustomSynthesis<R>) -> RoundTrip {
        self.round_trip(true, f, |values| values)
    }

    fn round_trip<R>(
        &self,
        custom_gates: bool,
        f: impl CustomSynthesis<R>,
        public: impl FnOnce(Vec<Fr>) -> Vec<Fr>,
    ) -> RoundTrip {
        let params = self.params.clone().unwrap_or_else(|| kzg_params(self.k));
        let mut circuit = self.circuit(CircuitBuilderStage::Keygen, custom_gates);
        let range = circuit.builder.range_chip();
        let (_, publics) = f(circuit.builder.main(0), &range, &circuit.custom);
        circuit.builder.assigned_instances = vec![publics];
        let stats = self.finish(&mut circuit);
        let vk = keygen_vk(&params, &circuit).expect("keygen_vk");
        let pk = keygen_pk(&params, vk, &circuit).expect("keygen_pk");
        let config = circuit.builder.config_params.clone();
        let break_points = circuit.builder.break_points();
        drop(circuit);

        let mut prover = HybridCircuit {
            builder: BaseCircuitBuilder::prover(config, break_points),
            custom: CustomRegion::new(),
            custom_gates,
        };
        let range = prover.builder.range_chip();
        let (_, publics) = f(prover.builder.main(0), &range, &prover.custom);
        let public_values: Vec<Fr> = publics.iter().map(|v| *v.value()).collect();
        prover.builder.assigned_instances = vec![publics];
        let proof = prove_shplonk(&params, &pk, prover, &public_values, Transcript::Blake2b)
            .expect("prover");
        let claimed = public(public_values.clone());
        let verified = verify_shplonk(&params, pk.get_vk(), &proof, &claimed, Transcript::Blake2b);
        RoundTrip {
            stats,
            proof,
            public_values,
            verified,
            vk_fingerprint: vk_fingerprint(&pk),
        }
    }
}

/// Overwrites the witness value of an assigned cell, as a cheating prover would: the
/// constraints that involve the cell are left as they are. Use it in negative tests.
pub fn override_cell(ctx: &mut Context<Fr>, cell: &AssignedValue<Fr>, value: Fr) {
    let offset = cell.cell.expect("an assigned advice cell").offset;
    ctx.advice[offset] = halo2_base::halo2_proofs::plonk::Assigned::Trivial(value);
}

/// Sizes `n/t` from the environment variable `var` (comma-separated, e.g. `6/3,9/6`), else
/// from `default`; malformed entries are skipped.
pub fn sizes_from_env(var: &str, default: &str) -> Vec<(usize, usize)> {
    let spec = std::env::var(var).unwrap_or_else(|_| default.into());
    spec.split(',')
        .filter_map(|s| {
            let (n, t) = s.split_once('/')?;
            Some((n.trim().parse().ok()?, t.trim().parse().ok()?))
        })
        .collect()
}
