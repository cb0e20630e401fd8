//! Poseidon on custom round gates: two full rounds or seven partial rounds per sixteen-cell row,
//! 183 cells per permutation (against 2,214 on halo2-base's generic gate, [`super::PoseidonChip`]).
//!
//! The permutation is [`super::Poseidon`]'s: width 3, S-box `x^5`, 4 full, 57 partial and 4 full
//! rounds, the textbook round constants and MDS matrix `M` of `poseidon-primitives`. Each round
//! adds its constants, applies the S-box (to every word in a full round, to word 0 in a partial
//! one) and multiplies by `M`.
//!
//! # Rows of one permutation (14 rows)
//! ```text
//! rows 0, 1, 11, 12 (full, two rounds a and b):                    fixed: ca (3), cb (3)
//!     s0..s2 | u0..u2 | t0..t2 | v0..v2
//!     u_i  = (s_i + ca_i)^2
//!     t_i  = sum_j M_ij u_j^2 (s_j + ca_j)               (round a: t = M (s + ca)^5)
//!     v_i  = (t_i + cb_i)^2
//!     s'_i = sum_j M_ij v_j^2 (t_j + cb_j)               (round b; s' = the next row's s)
//! rows 2..9 (seven partial rounds), row 10 (one partial round):   fixed: a_1..a_k, f (rc7)
//!     s0..s2 | u_1 | x_2 u_2 | x_3 u_3 | ... | x_k u_k          (k = 7, f = 0; or k = 1, f = 1)
//!     x_1 = s0 + a_1 (no cell);  u_r = x_r^2;  y_r = u_r^2 x_r = x_r^5
//!     state_1 = (s0, s1, s2);  state_{r+1} = M (y_r, state_r[1], state_r[2])
//!     x_r = state_r[0] + a_r  (r >= 2);   s' = state_{k+1}
//! row 13: s0..s2 = the permutation's output (no gate: read by row 12's gate)
//! ```
//! Every constraint has degree at most 3. The full-row gate multiplies them by its selector
//! (degree 4); the partial-row gate, one selector for both partial row kinds, multiplies the
//! seven-round constraints by `q (1 - f)` and the one-round constraints by `q f`, `f` a fixed
//! column (degree 5), so the circuit's degree stays 5 and Poseidon adds two selector columns.
//! The partial-round states `state_r` are linear combinations of the row's cells and of the
//! `y_r` (degree 3), written out as flat sums.
//!
//! # Folded constants
//! Only word 0 of a partial round goes through the S-box, so the constants added to words 1 and
//! 2 are carried forward through `M` instead of being added: the partial rows hold the state
//! minus a known constant vector `d` (zero at the first partial round, `d' = M (0, c1 + d1, c2 +
//! d2)` after each), round `r`'s one constant is `a_r = c_r0 + d_r0`, and the vector left after the
//! last partial round is added to the constants of the first full round after them. Every cell
//! holds the textbook permutation's value except the `s` cells of rows 3 to 11 (the shifted
//! states), and the outputs are exactly [`super::poseidon::permute`]'s.
//!
//! The state columns are the bank's equality columns: inputs (row 0's `s`) and outputs (row 13)
//! are linked to halo2-base cells by copy constraints. Every cell of the 14 rows is determined by
//! the inputs through the constraints above.
//!
//! Not constrained here: nothing about the inputs (any field elements are hashed).

use std::sync::{Arc, OnceLock};

use halo2_base::{
    gates::GateChip,
    halo2_proofs::{
        halo2curves::ff::Field,
        plonk::{Advice, Column, ConstraintSystem, Expression, Fixed, Selector},
        poly::Rotation,
    },
    AssignedValue, Context, QuantumCell,
};
use poseidon_primitives::poseidon::primitives::Spec;

use super::{
    leaf_tag,
    poseidon::{Poseidon, PoseidonBn254Spec, FULL_ROUNDS, PARTIAL_ROUNDS, RATE, WIDTH},
    sponge_leaf, HashInstructions,
};
use crate::{
    bank::{BankQuery, CustomRegion, RowGate, COLUMNS, FIXED_COLUMNS},
    Fr,
};

/// Partial rounds per partial row (the last partial row has the rest).
pub const PARTIAL_ROUNDS_PER_ROW: usize = 7;
/// Rows of one permutation: the gated rows and the output row.
pub const PERMUTATION_ROWS: usize = FULL_ROUNDS / 2 + PARTIAL_ROWS + 1;
/// Advice cells of one permutation.
pub const PERMUTATION_CELLS: usize =
    FULL_ROUNDS * 2 * WIDTH + 2 * PARTIAL_ROUNDS + (WIDTH - 1) * PARTIAL_ROWS + WIDTH;

const PARTIAL_ROWS: usize = PARTIAL_ROUNDS.div_ceil(PARTIAL_ROUNDS_PER_ROW);
const LAST_PARTIAL: usize = PARTIAL_ROUNDS - (PARTIAL_ROWS - 1) * PARTIAL_ROUNDS_PER_ROW;
/// The fixed column that tells the last partial row (1) from the others (0).
const FLAG: usize = FIXED_COLUMNS - 1;
const FULL_ROWS_BEFORE: usize = FULL_ROUNDS / 4;

// Full rows.
const S: usize = 0;
const U: usize = WIDTH;
const T: usize = 2 * WIDTH;
const V: usize = 3 * WIDTH;
// Partial rows: u_1, then (x_r, u_r) for r >= 2.
const U1: usize = WIDTH;

fn x_col(r: usize) -> usize {
    WIDTH + 1 + 2 * (r - 2)
}

fn u_col(r: usize) -> usize {
    if r == 1 {
        U1
    } else {
        x_col(r) + 1
    }
}

/// What a row of a permutation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowKind {
    /// Full rounds `2 * pair` and `2 * pair + 1` of the 8.
    Full { pair: usize },
    /// Partial rounds `first .. first + rounds` of the 57.
    Partial { first: usize, rounds: usize },
    /// The output row.
    Output,
}

fn row_kind(row: usize) -> RowKind {
    assert!(
        row < PERMUTATION_ROWS,
        "a permutation has {PERMUTATION_ROWS} rows"
    );
    if row < FULL_ROWS_BEFORE {
        RowKind::Full { pair: row }
    } else if row < FULL_ROWS_BEFORE + PARTIAL_ROWS {
        let i = row - FULL_ROWS_BEFORE;
        let first = i * PARTIAL_ROUNDS_PER_ROW;
        RowKind::Partial {
            first,
            rounds: PARTIAL_ROUNDS_PER_ROW.min(PARTIAL_ROUNDS - first),
        }
    } else if row < PERMUTATION_ROWS - 1 {
        RowKind::Full {
            pair: row - PARTIAL_ROWS,
        }
    } else {
        RowKind::Output
    }
}

fn used_mask(kind: RowKind) -> usize {
    match kind {
        RowKind::Full { .. } => (1 << (4 * WIDTH)) - 1,
        RowKind::Partial { rounds, .. } => (1 << (WIDTH + 1 + 2 * (rounds - 1))) - 1,
        RowKind::Output => (1 << WIDTH) - 1,
    }
}

/// The constants of the gates, derived once per process from the textbook ones.
#[derive(Debug)]
struct GateConstants {
    mds: [[Fr; WIDTH]; WIDTH],
    /// The 8 full rounds' constants, the first full round after the partial ones folded.
    full: Vec<[Fr; WIDTH]>,
    /// One constant per partial round.
    partial: Vec<Fr>,
}

fn mds_apply(mds: &[[Fr; WIDTH]; WIDTH], x: &[Fr; WIDTH]) -> [Fr; WIDTH] {
    std::array::from_fn(|i| (0..WIDTH).fold(Fr::ZERO, |acc, j| acc + mds[i][j] * x[j]))
}

fn gate_constants() -> Arc<GateConstants> {
    static CONSTANTS: OnceLock<Arc<GateConstants>> = OnceLock::new();
    CONSTANTS
        .get_or_init(|| {
            let (rc, mds, _) = PoseidonBn254Spec::constants();
            let half = FULL_ROUNDS / 2;
            let mut full: Vec<[Fr; WIDTH]> = rc[..half].to_vec();
            let mut partial = Vec::with_capacity(PARTIAL_ROUNDS);
            let mut d = [Fr::ZERO; WIDTH];
            for c in &rc[half..half + PARTIAL_ROUNDS] {
                let a: [Fr; WIDTH] = std::array::from_fn(|i| c[i] + d[i]);
                partial.push(a[0]);
                d = mds_apply(&mds, &[Fr::ZERO, a[1], a[2]]);
            }
            let mut after = rc[half + PARTIAL_ROUNDS..].to_vec();
            for (c, d) in after[0].iter_mut().zip(d) {
                *c += d;
            }
            full.extend(after);
            Arc::new(GateConstants { mds, full, partial })
        })
        .clone()
}

/// The selector (index in [`PoseidonSelectors`]) and fixed values (round constants, and the
/// flag of the last partial row) of row `row` of a permutation, for the bank's fixed columns.
pub(crate) fn row_constants(row: usize) -> (usize, Vec<Fr>) {
    let k = gate_constants();
    match row_kind(row) {
        RowKind::Full { pair } => (
            0,
            k.full[2 * pair]
                .iter()
                .chain(&k.full[2 * pair + 1])
                .copied()
                .collect(),
        ),
        RowKind::Partial { first, rounds } => {
            let mut fixed = vec![Fr::ZERO; FIXED_COLUMNS];
            fixed[..rounds].copy_from_slice(&k.partial[first..first + rounds]);
            if rounds != PARTIAL_ROUNDS_PER_ROW {
                fixed[FLAG] = Fr::ONE;
            }
            (1, fixed)
        }
        RowKind::Output => unreachable!("the output row has no gate"),
    }
}

/// The selectors of the Poseidon rows: full rows, partial rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PoseidonSelectors(pub(crate) [Selector; 2]);

const _: () = assert!(2 * WIDTH <= FIXED_COLUMNS && PARTIAL_ROUNDS_PER_ROW <= FLAG);
const _: () =
    assert!(4 * WIDTH <= COLUMNS && WIDTH + 1 + 2 * (PARTIAL_ROUNDS_PER_ROW - 1) <= COLUMNS);

/// Creates the two Poseidon row gates on the advice bank, the round constants in `constants`.
pub(crate) fn create_gates(
    meta: &mut ConstraintSystem<Fr>,
    advice: &[Column<Advice>; COLUMNS],
    constants: &[Column<Fixed>; FIXED_COLUMNS],
) -> PoseidonSelectors {
    let q: [Selector; 2] = std::array::from_fn(|_| meta.selector());
    create_full_gate(meta, q[0], advice, constants);
    create_partial_gate(meta, q[1], advice, constants);
    PoseidonSelectors(q)
}

fn create_full_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
    constants: &[Column<Fixed>; FIXED_COLUMNS],
) {
    let mds = gate_constants().mds;
    meta.create_gate("poseidon two full rounds", |m| {
        let q = m.query_selector(q);
        let c: Vec<Expression<Fr>> = constants[..2 * WIDTH]
            .iter()
            .map(|col| m.query_fixed(*col, Rotation::cur()))
            .collect();
        let mut b = BankQuery { meta: m, advice };
        let [s, u, t, v] =
            [S, U, T, V].map(|at| (0..WIDTH).map(|i| b.cur(at + i)).collect::<Vec<_>>());
        let next: Vec<_> = (0..WIDTH).map(|i| b.next(S + i)).collect();
        let mut constraints = Vec::with_capacity(4 * WIDTH);
        // One full round from `input`: squares `sq` of `input + c`, result `out`.
        let mut round = |input: &[Expression<Fr>],
                         sq: &[Expression<Fr>],
                         c: &[Expression<Fr>],
                         out: &[Expression<Fr>]| {
            let x: Vec<_> = (0..WIDTH)
                .map(|i| input[i].clone() + c[i].clone())
                .collect();
            for i in 0..WIDTH {
                constraints.push(sq[i].clone() - x[i].clone() * x[i].clone());
            }
            let y: Vec<_> = (0..WIDTH)
                .map(|j| sq[j].clone() * sq[j].clone() * x[j].clone())
                .collect();
            for i in 0..WIDTH {
                let linear = (0..WIDTH).fold(Expression::Constant(Fr::ZERO), |acc, j| {
                    acc + Expression::Constant(mds[i][j]) * y[j].clone()
                });
                constraints.push(out[i].clone() - linear);
            }
        };
        round(&s, &u, &c[..WIDTH], &t);
        round(&t, &v, &c[WIDTH..], &next);
        constraints
            .into_iter()
            .map(|e| q.clone() * e)
            .collect::<Vec<_>>()
    });
}

/// `sum_j coefs[j] * vars[j]`, zero coefficients left out.
fn linear(coefs: &[Fr], vars: &[Expression<Fr>]) -> Expression<Fr> {
    coefs
        .iter()
        .zip(vars)
        .filter(|(c, _)| !bool::from(c.is_zero()))
        .fold(Expression::Constant(Fr::ZERO), |acc, (c, v)| {
            acc + Expression::Constant(*c) * v.clone()
        })
}

/// The constraints (without selector) of `rounds` partial rounds on the current row, their
/// constants in `a`.
fn partial_constraints(
    b: &mut BankQuery,
    a: &[Expression<Fr>],
    rounds: usize,
    mds: &[[Fr; WIDTH]; WIDTH],
) -> Vec<Expression<Fr>> {
    let s: Vec<_> = (0..WIDTH).map(|i| b.cur(S + i)).collect();
    let next: Vec<_> = (0..WIDTH).map(|i| b.next(S + i)).collect();
    // Variables of the linear layer: s0, s1, s2, y_1 .. y_rounds.
    let nvars = WIDTH + rounds;
    let mut vars = s.clone();
    // The state as coefficient vectors over the variables.
    let mut state: [Vec<Fr>; WIDTH] = std::array::from_fn(|i| {
        let mut e = vec![Fr::ZERO; nvars];
        e[i] = Fr::ONE;
        e
    });
    let mut constraints = Vec::with_capacity(2 * rounds + WIDTH);
    for r in 1..=rounds {
        let x = if r == 1 {
            s[0].clone() + a[0].clone()
        } else {
            let x = b.cur(x_col(r));
            constraints.push(x.clone() - linear(&state[0], &vars) - a[r - 1].clone());
            x
        };
        let u = b.cur(u_col(r));
        constraints.push(u.clone() - x.clone() * x.clone());
        vars.push(u.clone() * u * x);
        let mut words = state.clone();
        words[0] = vec![Fr::ZERO; nvars];
        words[0][WIDTH + r - 1] = Fr::ONE;
        state = std::array::from_fn(|i| {
            (0..nvars)
                .map(|v| (0..WIDTH).fold(Fr::ZERO, |acc, j| acc + mds[i][j] * words[j][v]))
                .collect()
        });
    }
    for i in 0..WIDTH {
        constraints.push(next[i].clone() - linear(&state[i], &vars));
    }
    constraints
}

/// The partial-row gate: seven rounds where the flag column holds 0, the last row's rounds
/// where it holds 1 (one selector for both: a selector is a fixed column and an opening).
fn create_partial_gate(
    meta: &mut ConstraintSystem<Fr>,
    q: Selector,
    advice: &[Column<Advice>; COLUMNS],
    constants: &[Column<Fixed>; FIXED_COLUMNS],
) {
    let mds = gate_constants().mds;
    meta.create_gate("poseidon partial rounds", |m| {
        let q = m.query_selector(q);
        let a: Vec<Expression<Fr>> = constants[..PARTIAL_ROUNDS_PER_ROW]
            .iter()
            .map(|col| m.query_fixed(*col, Rotation::cur()))
            .collect();
        let last = m.query_fixed(constants[FLAG], Rotation::cur());
        let mut b = BankQuery { meta: m, advice };
        let seven = partial_constraints(&mut b, &a, PARTIAL_ROUNDS_PER_ROW, &mds);
        let rest = partial_constraints(&mut b, &a, LAST_PARTIAL, &mds);
        let q_seven = q.clone() * (Expression::Constant(Fr::ONE) - last.clone());
        let q_rest = q * last;
        seven
            .into_iter()
            .map(|e| ("seven rounds", q_seven.clone() * e))
            .chain(
                rest.into_iter()
                    .map(|e| ("last partial row", q_rest.clone() * e)),
            )
            .collect::<Vec<_>>()
    });
}

/// The honest rows of one permutation of `state` ([`PERMUTATION_ROWS`] rows, the last holding
/// the output in its first three cells).
pub fn permutation_rows_of(state: [Fr; WIDTH]) -> Vec<[Fr; COLUMNS]> {
    rows_with_sbox_witness(state, honest_sbox)
}

/// The honest S-box witness: the input and its square.
fn honest_sbox(_round: usize, x: Fr) -> (Fr, Fr) {
    (x, x.square())
}

/// The rows of one permutation of `state`, the S-box of every input `x` of round `round` (0..65,
/// the textbook numbering) witnessed by `(x', u') = witness(round, x)`: `x'` as its input, `u'`
/// as its square, `u'^2 x'` as its output; the rest is computed from these values.
fn rows_with_sbox_witness(
    state: [Fr; WIDTH],
    mut witness: impl FnMut(usize, Fr) -> (Fr, Fr),
) -> Vec<[Fr; COLUMNS]> {
    let k = gate_constants();
    let half = FULL_ROUNDS / 2;
    let mut s = state;
    let mut rows = Vec::with_capacity(PERMUTATION_ROWS);
    for row in 0..PERMUTATION_ROWS {
        let mut cells = [Fr::ZERO; COLUMNS];
        cells[S..S + WIDTH].copy_from_slice(&s);
        match row_kind(row) {
            RowKind::Full { pair } => {
                // Round a: squares in u, result in t; round b: squares in v, result in the
                // next row's s.
                for (round, sq) in [U, V].into_iter().enumerate() {
                    let full = 2 * pair + round;
                    let c = &k.full[full];
                    let textbook = if full < half {
                        full
                    } else {
                        full + PARTIAL_ROUNDS
                    };
                    let xu: [(Fr, Fr); WIDTH] =
                        std::array::from_fn(|i| witness(textbook, s[i] + c[i]));
                    for i in 0..WIDTH {
                        cells[sq + i] = xu[i].1;
                    }
                    s = mds_apply(&k.mds, &xu.map(|(x, u)| u.square() * x));
                    if round == 0 {
                        cells[T..T + WIDTH].copy_from_slice(&s);
                    }
                }
            }
            RowKind::Partial { first, rounds } => {
                for r in 1..=rounds {
                    let p = first + r - 1;
                    let (x, u) = witness(half + p, s[0] + k.partial[p]);
                    if r > 1 {
                        cells[x_col(r)] = x;
                    }
                    cells[u_col(r)] = u;
                    s = mds_apply(&k.mds, &[u.square() * x, s[1], s[2]]);
                }
            }
            RowKind::Output => {}
        }
        rows.push(cells);
    }
    rows
}

/// Poseidon ([`Poseidon`]'s modes) on the custom round gates.
#[derive(Clone, Debug)]
pub struct PoseidonGateChip {
    region: CustomRegion,
}

impl PoseidonGateChip {
    /// A chip appending its rows to `region`.
    pub fn new(region: CustomRegion) -> Self {
        Self { region }
    }

    /// Constrains the permutation of `state` (cells or constants); its rows are the region's
    /// rows `first .. first + PERMUTATION_ROWS`, `first` being the region's row count before.
    pub fn permute(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
    ) -> [AssignedValue<Fr>; WIDTH] {
        self.permute_with_sbox_witness(ctx, state, honest_sbox)
    }

    /// [`Self::permute`] with the S-box of every input `x` of round `round` (0..65, the textbook
    /// numbering; called once per word) witnessed by `(x', u') = witness(round, x)`: `x'` as the
    /// input, `u'` as its square, `u'^2 x'` as the output, and the rest of the rows computed from
    /// them. Only a cheating prover returns anything but `(x, x^2)`; negative tests use it.
    pub fn permute_with_sbox_witness(
        &self,
        ctx: &mut Context<Fr>,
        state: [QuantumCell<Fr>; WIDTH],
        witness: impl FnMut(usize, Fr) -> (Fr, Fr),
    ) -> [AssignedValue<Fr>; WIDTH] {
        let values = std::array::from_fn(|i| *state[i].value());
        let first = self.region.num_rows();
        for (row, cells) in rows_with_sbox_witness(values, witness)
            .into_iter()
            .enumerate()
        {
            let kind = row_kind(row);
            let gate = match kind {
                RowKind::Output => RowGate::None,
                _ => RowGate::Poseidon { row },
            };
            self.region.push_row(gate, cells, used_mask(kind));
        }
        self.region.bind_inputs(ctx, &state, first, S);
        std::array::from_fn(|i| self.region.output(ctx, first + PERMUTATION_ROWS - 1, S + i))
    }
}

impl HashInstructions for PoseidonGateChip {
    type Native = Poseidon;

    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr> {
        self.permute(
            ctx,
            [
                QuantumCell::Constant(Fr::ZERO),
                QuantumCell::Existing(left),
                QuantumCell::Existing(right),
            ],
        )[0]
    }

    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr> {
        let state = [
            QuantumCell::Constant(leaf_tag(inputs.len())),
            QuantumCell::Constant(Fr::ZERO),
            QuantumCell::Constant(Fr::ZERO),
        ];
        let permute = |ctx: &mut Context<Fr>, s| self.permute(ctx, s);
        sponge_leaf(
            ctx,
            &GateChip::default(),
            inputs,
            state,
            1..1 + RATE,
            permute,
            QuantumCell::Existing,
        )
    }
}
