//! Rescue-Prime on a custom gate: one row per round, sixteen advice cells, 180 cells per
//! permutation (against 2,247 on halo2-base's generic gate, the reference
//! [`crate::hash::RescueChip`]).
//!
//! ```text
//! row r:   s0..s3 | q0..q3 = s^2 | y0..y3 | z0..z3 = y^2        fixed: c1 (4), c2 (4) of round r
//!          q_i = s_i^2,  z_i = y_i^2
//!          z_i^2 y_i = sum_j M_ij q_j^2 s_j + c1_i        (y = (M s^5 + c1)^(1/5))
//!          s'_i     = sum_j M_ij y_j + c2_i               (the next row's state)
//! row 11:  s0..s3 = the permutation's output
//! ```
//! The first half-round is the S-box `x^5`, the MDS layer and the first constants; the second is
//! the inverse S-box, whose witness `y` is checked by `y^5 = t` (a bijection, since
//! gcd(5, r - 1) = 1, so `y` is unique), then the MDS layer and the second constants. The gate has
//! degree 4 with its selector. The state columns are the bank's equality columns: inputs and
//! outputs are linked to halo2-base cells by copy constraints.
//!
//! Not constrained here: nothing about the inputs.
//!
//! The layout is one thread's work, and the inverse S-box (an exponentiation per state word
//! and round) is most of it: a circuit that knows its leaves ahead computes their rows on many
//! threads with [`leaf_permutations`] and gives them to [`RescueGateChip::with_precomputed`],
//! whose layout then copies them (the same rows, in the same order: the layout is unchanged).

use std::{collections::HashMap, sync::Arc};

use halo2_base::{
    gates::GateChip,
    halo2_proofs::{
        halo2curves::ff::{Field, PrimeField},
        plonk::{Advice, Column, ConstraintSystem, Expression, Fixed, Selector},
        poly::Rotation,
    },
    AssignedValue, Context, QuantumCell,
};

use super::{
    leaf_tag,
    rescue::{RescueField, RescuePrime, RATE, WIDTH},
    sponge_leaf, HashInstructions,
};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS, FIXED_COLUMNS},
    Fr,
};

const S: usize = 0;
const S2: usize = WIDTH;
const Y: usize = 2 * WIDTH;
const Y2: usize = 3 * WIDTH;

// A row's round constants fill the bank's fixed columns.
const _: () = assert!(2 * WIDTH == FIXED_COLUMNS);

/// Rows of one permutation: a row per round and the output row.
pub fn permutation_rows() -> usize {
    Fr::rescue_params().rounds + 1
}

/// The constants of round `round` (both half-rounds), in the order of the fixed columns.
pub(crate) fn round_constants(round: usize) -> &'static [Fr] {
    &Fr::rescue_params().round_constants[round * 2 * WIDTH..(round + 1) * 2 * WIDTH]
}

/// `x^(1/5)`, the inverse of the Rescue S-box.
pub(crate) fn fifth_root(x: Fr) -> Fr {
    x.inverse_sbox()
}

/// One permutation's input state and its honest rows ([`permutation_rows_of`]).
#[derive(Clone, Debug)]
pub struct PermutationRows {
    /// The state the permutation starts from.
    pub state: [Fr; WIDTH],
    /// Its rows: one per round, then the output.
    pub rows: Vec<[Fr; COLUMNS]>,
}

/// The digest [`RescueGateChip::hash_leaf`] computes for `inputs` and the rows of each
/// permutation it lays out, without a layout: the native sponge (the twin of
/// [`RescuePrime`]'s `hash_leaf`) on the chip's own row function.
///
/// # Panics
/// If `inputs` is empty (no leaf commits nothing).
pub fn leaf_permutations(inputs: &[Fr]) -> (Fr, Vec<PermutationRows>) {
    assert!(!inputs.is_empty(), "a leaf commits at least one element");
    let mut state = [Fr::ZERO, Fr::ZERO, Fr::ZERO, leaf_tag(inputs.len())];
    let mut permutations = Vec::with_capacity(inputs.len().div_ceil(RATE));
    for chunk in inputs.chunks(RATE) {
        for (word, x) in state.iter_mut().zip(chunk) {
            *word += x;
        }
        let rows = permutation_rows_of(state, fifth_root);
        let output = rows.last().expect("an output row");
        let next = std::array::from_fn(|i| output[S + i]);
        permutations.push(PermutationRows { state, rows });
        state = next;
    }
    (state[0], permutations)
}

/// Honest permutation rows computed ahead of a layout, found by their input state.
#[derive(Clone, Debug, Default)]
pub struct PrecomputedPermutations(HashMap<[[u8; 32]; WIDTH], Vec<[Fr; COLUMNS]>>);

impl PrecomputedPermutations {
    fn key(state: &[Fr; WIDTH]) -> [[u8; 32]; WIDTH] {
        state.map(|x| x.to_repr())
    }

    /// Keeps `permutations` (equal states have equal rows: a repeated state is kept once).
    pub fn extend(&mut self, permutations: impl IntoIterator<Item = PermutationRows>) {
        for p in permutations {
            self.0.insert(Self::key(&p.state), p.rows);
        }
    }

    /// The rows of the permutation of `state`, if computed.
    fn rows(&self, state: &[Fr; WIDTH]) -> Option<&Vec<[Fr; COLUMNS]>> {
        self.0.get(&Self::key(state))
    }

    /// How many permutations are kept.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Creates the round gate on the advice bank, the round constants in `constants`.
pub(crate) fn create_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
    constants: &[Column<Fixed>; FIXED_COLUMNS],
) {
    let mds = Fr::rescue_params().mds;
    meta.create_gate("rescue-prime round", |m| {
        let q = m.query_selector(q);
        let c: Vec<Expression<Fr>> = constants
            .iter()
            .map(|col| m.query_fixed(*col, Rotation::cur()))
            .collect();
        let mut b = BankQuery { meta: m, advice };
        let s: Vec<_> = (0..WIDTH).map(|i| b.cur(S + i)).collect();
        let s2: Vec<_> = (0..WIDTH).map(|i| b.cur(S2 + i)).collect();
        let y: Vec<_> = (0..WIDTH).map(|i| b.cur(Y + i)).collect();
        let y2: Vec<_> = (0..WIDTH).map(|i| b.cur(Y2 + i)).collect();
        let next: Vec<_> = (0..WIDTH).map(|i| b.next(S + i)).collect();
        let s5: Vec<_> = (0..WIDTH)
            .map(|j| s2[j].clone() * s2[j].clone() * s[j].clone())
            .collect();
        let linear = |x: &[Expression<Fr>], i: usize, c: Expression<Fr>| {
            (0..WIDTH).fold(c, |acc, j| {
                acc + Expression::Constant(mds[i][j]) * x[j].clone()
            })
        };
        let mut constraints = Vec::with_capacity(4 * WIDTH);
        for i in 0..WIDTH {
            constraints.push(s2[i].clone() - s[i].clone() * s[i].clone());
            constraints.push(y2[i].clone() - y[i].clone() * y[i].clone());
            constraints
                .push(y2[i].clone() * y2[i].clone() * y[i].clone() - linear(&s5, i, c[i].clone()));
            constraints.push(next[i].clone() - linear(&y, i, c[WIDTH + i].clone()));
        }
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
}

/// The honest rows of one permutation of `state`, the inverse S-box computed by `inverse`.
pub fn permutation_rows_of(
    state: [Fr; WIDTH],
    mut inverse: impl FnMut(Fr) -> Fr,
) -> Vec<[Fr; COLUMNS]> {
    let params = Fr::rescue_params();
    let mut s = state;
    let mut rows = Vec::with_capacity(params.rounds + 1);
    let affine = |x: &[Fr; WIDTH], c: &[Fr]| -> [Fr; WIDTH] {
        std::array::from_fn(|i| (0..WIDTH).fold(c[i], |acc, j| acc + params.mds[i][j] * x[j]))
    };
    for round in 0..params.rounds {
        let rc = &params.round_constants[round * 2 * WIDTH..(round + 1) * 2 * WIDTH];
        let s5: [Fr; WIDTH] = std::array::from_fn(|i| s[i].square().square() * s[i]);
        let t = affine(&s5, &rc[..WIDTH]);
        let y: [Fr; WIDTH] = std::array::from_fn(|i| inverse(t[i]));
        let mut row = [Fr::ZERO; COLUMNS];
        for i in 0..WIDTH {
            row[S + i] = s[i];
            row[S2 + i] = s[i].square();
            row[Y + i] = y[i];
            row[Y2 + i] = y[i].square();
        }
        rows.push(row);
        s = affine(&y, &rc[WIDTH..]);
    }
    let mut last = [Fr::ZERO; COLUMNS];
    last[S..S + WIDTH].copy_from_slice(&s);
    rows.push(last);
    rows
}

/// Rescue-Prime ([`RescuePrime`]'s modes) on the custom round gate.
#[derive(Clone, Debug)]
pub struct RescueGateChip {
    region: CustomRegion,
    precomputed: Option<Arc<PrecomputedPermutations>>,
}

impl RescueGateChip {
    /// A chip appending its rows to `region`.
    pub fn new(region: CustomRegion) -> Self {
        Self {
            region,
            precomputed: None,
        }
    }

    /// A chip that copies the rows of the permutations `precomputed` holds instead of computing
    /// them (others it computes): the same rows, so the same layout, in less of the layout's
    /// one thread.
    pub fn with_precomputed(
        region: CustomRegion,
        precomputed: Arc<PrecomputedPermutations>,
    ) -> Self {
        Self {
            region,
            precomputed: Some(precomputed),
        }
    }

    /// Constrains the permutation of `state` (cells or constants).
    pub fn permute(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        let values = std::array::from_fn(|i| *state[i].value());
        match self.precomputed.as_ref().and_then(|p| p.rows(&values)) {
            Some(rows) => self.lay_out(ctx, state, rows.clone()),
            None => self.lay_out(ctx, state, permutation_rows_of(values, fifth_root)),
        }
    }

    /// [`Self::permute`] with the inverse S-box witness computed by `inverse`: only a cheating
    /// prover passes anything but the fifth root; negative tests use it.
    pub fn permute_with_inverse_witness(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
        inverse: impl FnMut(Fr) -> Fr,
    ) -> [AssignedValue<Fr>; WIDTH] {
        let values = std::array::from_fn(|i| *state[i].value());
        self.lay_out(ctx, state, permutation_rows_of(values, inverse))
    }

    /// Pushes the rows of the permutation of `state` and binds its inputs and outputs.
    fn lay_out(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
        rows: Vec<[Fr; COLUMNS]>,
    ) -> [AssignedValue<Fr>; WIDTH] {
        let first = self.region.num_rows();
        let last = rows.len() - 1;
        for (round, row) in rows.into_iter().enumerate() {
            if round < last {
                self.region
                    .push_row(RowGate::Rescue { round }, row, (1 << COLUMNS) - 1);
            } else {
                self.region.push_row(RowGate::None, row, (1 << WIDTH) - 1);
            }
        }
        self.region.bind_inputs(ctx, &state, first, S);
        std::array::from_fn(|i| self.region.output(ctx, first + last, S + i))
    }
}

impl HashInstructions for RescueGateChip {
    type Native = RescuePrime;

    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        let zero = QuantumCell::Constant(Fr::ZERO);
        self.permute(
            ctx,
            [
                QuantumCell::Existing(left),
                QuantumCell::Existing(right),
                zero,
                zero,
            ],
        )[0]
    }

    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr> {
        let zero = QuantumCell::Constant(Fr::ZERO);
        let state = [
            zero,
            zero,
            zero,
            QuantumCell::Constant(leaf_tag(inputs.len())),
        ];
        let permute = |ctx: &mut Context<Fr>, s| self.permute(ctx, s);
        sponge_leaf(
            ctx,
            &GateChip::default(),
            inputs,
            state,
            0..RATE,
            permute,
            QuantumCell::Existing,
        )
    }
}
