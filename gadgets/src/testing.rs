//! The test harness shared by every crate of the workspace, in the builder style of halo2-base's
//! `utils::testing`, with what that one lacks here: public instances, the list of failures a
//! rejected MockProver run reports (so negative tests can assert *which* check failed), circuit
//! statistics, and KZG parameters cached under the workspace's `params/`.
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
//! # Parameters
//! [`kzg_params`] reads `params/kzg_bn254_<k>.insecure-test.srs`, creating it from a fixed seed
//! when absent. **Such parameters are insecure**: anyone can recompute the toxic waste. They are
//! for tests and benchmarks only. Set `TMS_PARAMS_DIR` to use another folder.

use std::{
    fs::{self, File},
    io::{BufReader, BufWriter},
    path::PathBuf,
};

use halo2_base::{
    gates::{
        circuit::{builder::BaseCircuitBuilder, BaseCircuitParams, CircuitBuilderStage},
        RangeChip,
    },
    halo2_proofs::{
        dev::{FailureLocation, MockProver, VerifyFailure},
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::{keygen_pk, keygen_vk, ProvingKey},
        poly::{commitment::Params, kzg::commitment::ParamsKZG},
        SerdeFormat,
    },
    AssignedValue, Context,
};
use rand_chacha::{rand_core::SeedableRng, ChaCha20Rng};
use sha3::{Digest, Sha3_256};

use crate::{
    hybrid::{CustomRegion, HybridCircuit},
    Fr,
};

/// Rows kept free at the bottom of the circuit for blinding factors.
pub const UNUSABLE_ROWS: usize = 9;

/// Shape and size of a synthesized circuit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CircuitStats {
    /// log2 of the number of rows.
    pub k: u32,
    /// Advice cells of the basic gate.
    pub advice_cells: usize,
    /// Advice cells copied into lookup (range-check) columns.
    pub lookup_cells: usize,
    /// Distinct constants (fixed cells).
    pub fixed_cells: usize,
    /// Advice columns of the basic gate.
    pub advice_columns: usize,
    /// Advice columns with a lookup.
    pub lookup_advice_columns: usize,
    /// Fixed columns.
    pub fixed_columns: usize,
    /// Rows used by the custom gates ([`crate::hybrid`]); their cells and columns are included
    /// in `advice_cells` and `advice_columns`.
    pub custom_rows: usize,
}

impl CircuitStats {
    /// The statistics of a laid-out builder whose parameters are `params`.
    pub fn of(builder: &BaseCircuitBuilder<Fr>, params: &BaseCircuitParams) -> Self {
        let s = builder.statistics();
        Self {
            k: params.k as u32,
            advice_cells: s.gate.total_advice_per_phase.iter().sum(),
            lookup_cells: s.total_lookup_advice_per_phase.iter().sum(),
            fixed_cells: s.gate.total_fixed,
            advice_columns: params.num_advice_per_phase.iter().sum(),
            lookup_advice_columns: params.num_lookup_advice_per_phase.iter().sum(),
            fixed_columns: params.num_fixed,
            custom_rows: 0,
        }
    }

    /// The statistics of a laid-out hybrid circuit (halo2-base's part configured by `params`).
    pub fn of_hybrid(circuit: &HybridCircuit, params: &BaseCircuitParams) -> Self {
        let mut stats = Self::of(&circuit.builder, params);
        if circuit.custom_gates {
            stats.advice_cells += circuit.custom.num_cells();
            stats.advice_columns += crate::hybrid::COLUMNS;
            stats.fixed_columns += crate::hybrid::FIXED_COLUMNS;
            stats.custom_rows = circuit.custom_rows();
        }
        stats
    }
}

impl std::fmt::Display for CircuitStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "k={} advice_cells={} lookup_cells={} fixed_cells={} advice_cols={} lookup_cols={} fixed_cols={} custom_rows={}",
            self.k,
            self.advice_cells,
            self.lookup_cells,
            self.fixed_cells,
            self.advice_columns,
            self.lookup_advice_columns,
            self.fixed_columns,
            self.custom_rows
        )
    }
}

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
    /// Anything else (unassigned cells, poisoned constraints).
    Other,
}

fn classify(failure: &VerifyFailure) -> Rejection {
    match failure {
        VerifyFailure::ConstraintNotSatisfied { .. } => Rejection::Gate,
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
        let proof =
            crate::proving::prove_shplonk(&params, &pk, prover, &public_values).expect("prover");
        let claimed = public(public_values.clone());
        let verified = crate::proving::verify_shplonk(&params, pk.get_vk(), &proof, &claimed);
        RoundTrip {
            stats,
            proof,
            public_values,
            verified,
            vk_fingerprint: vk_fingerprint(&pk),
        }
    }
}

/// SHA3-256 (hex) of a verifying key's raw bytes: pins a circuit's shape in tests.
pub fn vk_fingerprint(pk: &ProvingKey<G1Affine>) -> String {
    let bytes = pk.get_vk().to_bytes(SerdeFormat::RawBytes);
    Sha3_256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The folder holding cached parameters: `$TMS_PARAMS_DIR`, else the workspace's `params/`.
pub fn params_dir() -> PathBuf {
    std::env::var_os("TMS_PARAMS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("params")
        })
}

/// The seed of the insecure test parameters.
pub const INSECURE_SEED: [u8; 32] = *b"tms insecure test params, seed 1";

/// KZG parameters for `2^k` rows: read from the cache, or made from [`INSECURE_SEED`] and cached.
///
/// **Insecure**: the toxic waste is a function of a public seed. Tests and benchmarks only.
pub fn kzg_params(k: u32) -> ParamsKZG<Bn256> {
    let dir = params_dir();
    let path = dir.join(format!("kzg_bn254_{k}.insecure-test.srs"));
    if let Ok(file) = File::open(&path) {
        if let Ok(params) = ParamsKZG::<Bn256>::read(&mut BufReader::new(file)) {
            if params.k() == k {
                return params;
            }
        }
    }
    eprintln!(
        "WARNING: making INSECURE KZG parameters for k = {k} from a fixed public seed (tests only): {}",
        path.display()
    );
    let params = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::from_seed(INSECURE_SEED));
    // Written to a temporary name then renamed, so a concurrent reader never sees half a file.
    if fs::create_dir_all(&dir).is_ok() {
        let tmp = dir.join(format!(".kzg_bn254_{k}.{}.tmp", std::process::id()));
        let written = File::create(&tmp).and_then(|f| params.write(&mut BufWriter::new(f)));
        if written.is_ok() {
            let _ = fs::rename(&tmp, &path);
        } else {
            let _ = fs::remove_file(&tmp);
        }
    }
    params
}

/// Overwrites the witness value of an assigned cell, as a cheating prover would: the
/// constraints that involve the cell are left as they are. Use it in negative tests.
pub fn override_cell(ctx: &mut Context<Fr>, cell: &AssignedValue<Fr>, value: Fr) {
    let offset = cell.cell.expect("an assigned advice cell").offset;
    ctx.advice[offset] = halo2_base::halo2_proofs::plonk::Assigned::Trivial(value);
}

/// User + system CPU seconds of this process so far (all threads), from `/proc/self/stat`; 0 where
/// that file does not exist. Benchmarks quote CPU seconds: wall time on a shared machine is noise.
pub fn process_cpu_seconds() -> f64 {
    let stat = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0.0))
        .collect();
    let ticks = |i: usize| fields.get(i).copied().unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Peak resident memory of this process so far in MiB (`VmHWM`); 0 where unknown.
pub fn peak_rss_mib() -> f64 {
    fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
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
