//! A dynamic table on the custom bank: a circuit enters tuples of cells it computed as the rows
//! of a table ([`TableChip::load_table`]) and gets fresh cells constrained to hold one of those
//! rows ([`TableChip::lookup`]), by halo2's lookup argument. A lookup costs one bank row of
//! [`TABLE_COLUMNS`] cells whatever the table's size: selecting one of `S` tuples with an
//! indicator on the generic gate costs about `S` cells per element instead.
//!
//! # The argument
//! Two complex selectors on the bank, `q_row` (table rows) and `q_lookup` (lookup rows), and
//! one lookup over the first [`TABLE_COLUMNS`] bank columns `c_0 .. c_4`:
//!
//! ```text
//! input (every row):  (q_lookup, q_lookup c_0, ..., q_lookup c_4)       degree 2
//! table (every row):  (q_row,    c_0,          ..., c_4)                degree 1
//! ```
//!
//! On a lookup row (`q_lookup = 1`) the input is `(1, c_0, .., c_4)`, found only on a row with
//! `q_row = 1` and the same cells: a table row. `q_row` is fixed (the verifying key fixes which
//! rows are table rows), and a table row's cells are copy-constrained to the cells the circuit
//! entered, so the table is exactly the tuples the circuit computed; blinding rows and every
//! other bank row (hash states, ladders) have `q_row = 0` and are never matched by a lookup row.
//! Every other row's input is all zero, which must be in the table too: [`TableChip::load_table`]
//! appends one all-zero row (`q_row = 0`, so it cannot serve a lookup row). The lookup has
//! degree `2 + 2 + 1 = 5`, the bank's degree, so it does not enlarge the extended domain.
//!
//! Soundness is halo2's lookup argument: the tuples are compressed with a challenge `theta`
//! drawn by the transcript after every advice column is committed, so a prover cannot choose
//! it; a tuple outside the table compresses onto a given table row for at most
//! `TABLE_COLUMNS / r` of the challenges (Schwartz-Zippel on a nonzero polynomial of degree
//! [`TABLE_COLUMNS`] in `theta`), below `2^-230` over all pairs of rows of any circuit here; the
//! argument over the compressed values (permuted columns, grand product with `beta`, `gamma`)
//! is the proof system's.
//!
//! One circuit has one table: every [`TableChip`] on a region adds to the same table.

use halo2_base::{
    halo2_proofs::plonk::{Advice, Column, ConstraintSystem, Expression, Selector},
    halo2_proofs::poly::Rotation,
    AssignedValue, Context, QuantumCell,
};

use crate::{
    bank::{CustomRegion, RowGate, COLUMNS},
    Fr,
};

/// The width of a table row and of a looked-up tuple: the first bank columns, which have
/// equality.
pub const TABLE_COLUMNS: usize = 5;

/// The name of the lookup (MockProver reports it).
pub const LOOKUP_NAME: &str = "bank table";

/// The bit mask of a table or lookup row.
const USED: usize = (1 << TABLE_COLUMNS) - 1;

/// The table's selectors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableSelectors {
    pub(crate) row: Selector,
    pub(crate) lookup: Selector,
}

/// Creates the two complex selectors and the lookup on the bank's `advice` columns.
pub(crate) fn configure(
    meta: &mut ConstraintSystem<Fr>,
    advice: &[Column<Advice>; COLUMNS],
) -> TableSelectors {
    let row = meta.complex_selector();
    let lookup = meta.complex_selector();
    meta.lookup_any(LOOKUP_NAME, |m| {
        let q_row = m.query_selector(row);
        let q_lookup = m.query_selector(lookup);
        let mut pairs: Vec<(Expression<Fr>, Expression<Fr>)> = vec![(q_lookup.clone(), q_row)];
        for column in &advice[..TABLE_COLUMNS] {
            let c = m.query_advice(*column, Rotation::cur());
            pairs.push((q_lookup.clone() * c.clone(), c));
        }
        pairs
    });
    TableSelectors { row, lookup }
}

/// Table rows and lookups on a [`CustomRegion`].
#[derive(Clone, Debug)]
pub struct TableChip {
    region: CustomRegion,
}

impl TableChip {
    /// A chip appending to `region`.
    pub fn new(region: CustomRegion) -> Self {
        Self { region }
    }

    /// Enters `rows` into the table: one bank row each, its cells constrained equal to the
    /// given cells (a copy) or constants (a constant equality), then one all-zero row outside
    /// the table (the input of every row that is not a lookup). Returns the first row's index.
    pub fn load_table(
        &self,
        ctx: &mut Context<Fr>,
        rows: &[[QuantumCell<Fr>; TABLE_COLUMNS]],
    ) -> usize {
        let first = self.region.num_rows();
        for tuple in rows {
            let mut values = [Fr::zero(); COLUMNS];
            for (v, cell) in values.iter_mut().zip(tuple) {
                *v = *cell.value();
            }
            let row = self.region.push_row(RowGate::TableRow, values, USED);
            self.region.bind_inputs(ctx, tuple, row, 0);
        }
        self.region
            .push_row(RowGate::None, [Fr::zero(); COLUMNS], USED);
        first
    }

    /// Fresh cells holding `values`, constrained to be one of the table's rows.
    pub fn lookup(
        &self,
        ctx: &mut Context<Fr>,
        values: [Fr; TABLE_COLUMNS],
    ) -> [AssignedValue<Fr>; TABLE_COLUMNS] {
        let mut cells = [Fr::zero(); COLUMNS];
        cells[..TABLE_COLUMNS].copy_from_slice(&values);
        let row = self.region.push_row(RowGate::TableLookup, cells, USED);
        std::array::from_fn(|column| self.region.output(ctx, row, column))
    }
}
