//! Poseidon over BN254 Fr: width 3 (capacity 1, rate 2), S-box x^5, 8 full and 57 partial rounds,
//! round constants and MDS matrix from the reference Grain LFSR generator (`poseidon-primitives`,
//! the generator halo2-base builds its spec from; the first secure MDS matrix, `SECURE_MDS = 0`).
//! These are the parameters of circomlib's `Poseidon(2)`; a test checks the classic vector
//! `poseidon([1, 2])` against the independent `light-poseidon` crate.
//!
//! # Why not `hash_fix_len_array`
//! halo2-base's `PoseidonHasher::hash_fix_len_array` with width 3 spends two permutations on two
//! inputs (its sponge pads with an extra permutation when the length is a multiple of the rate):
//! 49,809 advice cells for a depth-11 Merkle path. Its permutation state is crate-private, so
//! [`PoseidonChip`] lays out the same optimised permutation (Poseidon paper, supplementary
//! material B: sparse partial-round matrices) from halo2-base's public [`OptimizedPoseidonSpec`]
//! constants, one permutation per Merkle node. The native twin is the unoptimised textbook
//! permutation of `poseidon-primitives`, so the two are checked against each other, not against
//! themselves.
//!
//! # Cost (measured by the tests, advice cells)
//! One permutation: 2,214 cells; one Merkle node with its index-bit swap: about 2,230.
//! The same permutation on custom round gates ([`super::PoseidonGateChip`], inside a
//! [`crate::hybrid::HybridCircuit`]) takes 183 cells.

use std::sync::{Arc, OnceLock};

use halo2_base::{
    gates::{GateChip, GateInstructions},
    poseidon::hasher::spec::OptimizedPoseidonSpec,
    AssignedValue, Context,
    QuantumCell::Constant,
};
use poseidon_primitives::poseidon::primitives::{ConstantLength, Hash as PrimitiveHash, Spec};

use super::{leaf_tag, sponge_leaf, HashInstructions, NativeHash};
use crate::{Fr, GadgetError};

/// State width.
pub const WIDTH: usize = 3;
/// Rate (inputs absorbed per permutation).
pub const RATE: usize = 2;
/// Number of full rounds.
pub const FULL_ROUNDS: usize = 8;
/// Number of partial rounds.
pub const PARTIAL_ROUNDS: usize = 57;

/// The parameter set, for the `poseidon-primitives` constant generator.
#[derive(Debug, Clone, Copy)]
pub struct PoseidonBn254Spec;

impl Spec<Fr, WIDTH, RATE> for PoseidonBn254Spec {
    fn full_rounds() -> usize {
        FULL_ROUNDS
    }
    fn partial_rounds() -> usize {
        PARTIAL_ROUNDS
    }
    fn sbox(val: Fr) -> Fr {
        val.square().square() * val
    }
    fn secure_mds() -> usize {
        0
    }
}

type Reference = PrimitiveHash<Fr, PoseidonBn254Spec, ConstantLength<2>, WIDTH, RATE>;

fn reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(Reference::init)
}

/// The Poseidon permutation, computed natively by the textbook (unoptimised) algorithm.
pub fn permute(state: &mut [Fr; WIDTH]) {
    reference().permute(state);
}

/// Native Poseidon in the modes of [`crate::hash`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Poseidon;

impl NativeHash for Poseidon {
    const NAME: &'static str = "Poseidon";

    fn hash_node(&self, left: Fr, right: Fr) -> Fr {
        let mut state = [Fr::zero(), left, right];
        permute(&mut state);
        state[0]
    }

    fn hash_leaf(&self, inputs: &[Fr]) -> Result<Fr, GadgetError> {
        if inputs.is_empty() {
            return Err(GadgetError::EmptyLeaf);
        }
        let mut state = [leaf_tag(inputs.len()), Fr::zero(), Fr::zero()];
        for chunk in inputs.chunks(RATE) {
            for (word, x) in state[1..].iter_mut().zip(chunk) {
                *word += x;
            }
            permute(&mut state);
        }
        Ok(state[0])
    }
}

/// Constants of the optimised permutation, derived once per process.
#[derive(Debug)]
struct CircuitConstants {
    /// Round constants of the first full rounds, pre-multiplied by MDS^-1 (halo2-base's spec).
    start: Vec<[Fr; WIDTH]>,
    /// One constant per partial round.
    partial: Vec<Fr>,
    /// Round constants of the last full rounds.
    end: Vec<[Fr; WIDTH]>,
    mds: [[Fr; WIDTH]; WIDTH],
    /// The dense matrix applied between the first full rounds and the sparse partial rounds.
    pre_sparse_mds: [[Fr; WIDTH]; WIDTH],
    /// `(row, col_hat)` of each sparse partial-round matrix.
    sparse: Vec<([Fr; WIDTH], [Fr; RATE])>,
}

fn transpose(m: &[[Fr; WIDTH]; WIDTH]) -> [[Fr; WIDTH]; WIDTH] {
    std::array::from_fn(|i| std::array::from_fn(|j| m[j][i]))
}

fn mat_mul(a: &[[Fr; WIDTH]; WIDTH], b: &[[Fr; WIDTH]; WIDTH]) -> [[Fr; WIDTH]; WIDTH] {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| (0..WIDTH).fold(Fr::zero(), |acc, k| acc + a[i][k] * b[k][j]))
    })
}

fn circuit_constants() -> Arc<CircuitConstants> {
    static CONSTANTS: OnceLock<Arc<CircuitConstants>> = OnceLock::new();
    CONSTANTS
        .get_or_init(|| {
            let spec =
                OptimizedPoseidonSpec::<Fr, WIDTH, RATE>::new::<FULL_ROUNDS, PARTIAL_ROUNDS, 0>();
            let (_, mds, _) = PoseidonBn254Spec::constants();
            // halo2-base keeps its pre-sparse matrix private; re-derive it exactly as its
            // `calculate_sparse_matrices` does: acc <- M^T * [[1, 0], [0, acc_hat]], r_p times.
            let mds_t = transpose(&mds);
            let mut acc = mds_t;
            for _ in 0..PARTIAL_ROUNDS {
                let mut prime = [[Fr::zero(); WIDTH]; WIDTH];
                prime[0][0] = Fr::one();
                for i in 1..WIDTH {
                    for j in 1..WIDTH {
                        prime[i][j] = acc[i][j];
                    }
                }
                acc = mat_mul(&mds_t, &prime);
            }
            Arc::new(CircuitConstants {
                start: spec.constants().start().clone(),
                partial: spec.constants().partial().clone(),
                end: spec.constants().end().clone(),
                mds,
                pre_sparse_mds: transpose(&acc),
                sparse: spec
                    .mds_matrices()
                    .sparse_matrices()
                    .iter()
                    .map(|m| (*m.row(), *m.col_hat()))
                    .collect(),
            })
        })
        .clone()
}

/// In-circuit Poseidon on halo2-base's flex gate, one permutation per Merkle node.
///
/// Layout: every operation is halo2-base's vertical gate `a + b * c = d`; an S-box is three
/// multiplications (`x^2`, `x^4`, `x^4 * x + c`), a dense linear layer three inner products with
/// constant coefficients, a sparse partial-round layer one inner product and two `mul_add`s.
///
/// Not constrained here: nothing about the inputs (any field elements are hashed).
#[derive(Clone, Debug)]
pub struct PoseidonChip {
    gate: GateChip<Fr>,
    constants: Arc<CircuitConstants>,
}

impl Default for PoseidonChip {
    fn default() -> Self {
        Self::new()
    }
}

impl PoseidonChip {
    /// A chip with its constants derived (cached process-wide).
    pub fn new() -> Self {
        Self {
            gate: GateChip::default(),
            constants: circuit_constants(),
        }
    }

    fn sbox(&self, ctx: &mut Context<Fr>, x: AssignedValue<Fr>, c: Fr) -> AssignedValue<Fr> {
        let x2 = self.gate.mul(ctx, x, x);
        let x4 = self.gate.mul(ctx, x2, x2);
        self.gate.mul_add(ctx, x, x4, Constant(c))
    }

    fn dense(
        &self,
        ctx: &mut Context<Fr>,
        state: &[AssignedValue<Fr>; WIDTH],
        m: &[[Fr; WIDTH]; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        std::array::from_fn(|i| {
            self.gate.inner_product(
                ctx,
                state.iter().copied(),
                m[i].iter().map(|c| Constant(*c)),
            )
        })
    }

    /// Constrains the Poseidon permutation of `state` (already holding the absorbed inputs).
    pub fn permute(
        &self,
        ctx: &mut Context<Fr>,
        state: [AssignedValue<Fr>; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        let k = &*self.constants;
        let half = FULL_ROUNDS / 2;
        let mut s: [AssignedValue<Fr>; WIDTH] =
            std::array::from_fn(|i| self.gate.add(ctx, state[i], Constant(k.start[0][i])));
        for consts in k.start.iter().skip(1).take(half - 1) {
            s = std::array::from_fn(|i| self.sbox(ctx, s[i], consts[i]));
            s = self.dense(ctx, &s, &k.mds);
        }
        let last = k.start.last().expect("spec has start constants");
        s = std::array::from_fn(|i| self.sbox(ctx, s[i], last[i]));
        s = self.dense(ctx, &s, &k.pre_sparse_mds);
        for (c, (row, col_hat)) in k.partial.iter().zip(&k.sparse) {
            s[0] = self.sbox(ctx, s[0], *c);
            let first =
                self.gate
                    .inner_product(ctx, s.iter().copied(), row.iter().map(|c| Constant(*c)));
            for i in 1..WIDTH {
                s[i] = self.gate.mul_add(ctx, s[0], Constant(col_hat[i - 1]), s[i]);
            }
            s[0] = first;
        }
        for consts in k.end.iter().chain(std::iter::once(&[Fr::zero(); WIDTH])) {
            s = std::array::from_fn(|i| self.sbox(ctx, s[i], consts[i]));
            s = self.dense(ctx, &s, &k.mds);
        }
        s
    }
}

impl HashInstructions for PoseidonChip {
    type Native = Poseidon;

    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        let zero = ctx.load_zero();
        self.permute(ctx, [zero, left, right])[0]
    }

    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr> {
        let state = [
            ctx.load_constant(leaf_tag(inputs.len())),
            ctx.load_zero(),
            ctx.load_zero(),
        ];
        sponge_leaf(
            ctx,
            &self.gate,
            inputs,
            state,
            1..1 + RATE,
            |ctx, s| self.permute(ctx, s),
            |x| x,
        )
    }
}
