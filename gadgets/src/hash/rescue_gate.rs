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

use halo2_base::{
    gates::GateChip,
    halo2_proofs::{
        halo2curves::ff::Field,
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
    let alpha_inv = Fr::rescue_params().alpha_inv.to_u64_digits();
    x.pow_vartime(&alpha_inv)
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
}

impl RescueGateChip {
    /// A chip appending its rows to `region`.
    pub fn new(region: CustomRegion) -> Self {
        Self { region }
    }

    /// Constrains the permutation of `state` (cells or constants).
    pub fn permute(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        self.permute_with_inverse_witness(ctx, state, fifth_root)
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
        let rows = permutation_rows_of(values, inverse);
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
