//! The custom-gate bank: [`COLUMNS`] advice columns beside halo2-base's, and the rows that gadgets
//! append to them before synthesis.
//!
//! This module is the bottom layer of every custom gate: it knows columns, rows and which gate a
//! row enables ([`RowGate`]), not what any gate computes. The gates themselves live with their
//! idea ([`crate::curve::straus`], [`crate::curve::msm`], [`crate::curve::dleq`],
//! [`crate::hash::rescue_gate`], [`crate::hash::poseidon_gate`]) and build their constraints with
//! `BankQuery`; [`crate::hybrid`] configures them and assigns the rows.
//!
//! # How the two halves are linked
//! Witness generation happens before `synthesize`, on halo2-base's virtual [`Context`]. A gadget
//! that needs a custom row appends the row's values to the [`CustomRegion`] and gets, for every
//! cell it must link, a virtual cell of halo2-base's copy manager (`mock_external_assigned`). An
//! input is linked by an equality in the copy manager between the caller's cell and that virtual
//! cell, a constant by a constant equality. At synthesis the custom rows are assigned first, each
//! linked virtual cell is pointed at its raw cell, and then halo2-base's own `synthesize` assigns
//! its region and imposes every equality, ours included. Nothing is copied by value alone: a
//! custom cell a circuit reads is always one of these linked cells.
//!
//! ```text
//! advice:  halo2-base columns | c0 .. c5 (equality) | c6 .. c15       fixed: halo2-base | rc0 .. rc7
//!          basic gate, lookups | Straus, Rescue and Poseidon rows, stacked in one region in the
//!                              | order the gadgets append them
//! ```

use std::sync::{Arc, Mutex};

use halo2_base::{
    halo2_proofs::{
        circuit::{Cell, Layouter, Region, Value},
        plonk::{Advice, Column, Error, Expression},
        poly::Rotation,
    },
    virtual_region::copy_constraints::SharedCopyConstraintManager,
    AssignedValue, Context, ContextCell, QuantumCell,
};

use crate::Fr;

/// Advice columns of the custom gates (cells per Straus row and per Rescue round).
pub const COLUMNS: usize = 16;
/// Fixed columns of the custom gates: the round constants of a Rescue-Prime row (two half-rounds
/// of width 4) or of a Poseidon row.
pub const FIXED_COLUMNS: usize = 8;
/// The first columns, which take part in copy constraints.
pub const EQUALITY_COLUMNS: usize = 6;
/// The first columns with copy constraints when the pair-MSM gate is configured
/// ([`crate::curve::msm`]): three more than [`EQUALITY_COLUMNS`], for its second point and scalar.
pub const MSM_EQUALITY_COLUMNS: usize = 9;

/// Which gate a custom row enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowGate {
    /// No gate: an output row read by the previous row's gate.
    None,
    /// One bit of the Straus ladder ([`crate::curve::straus`]).
    Straus,
    /// One bit of the variable-base DLEQ ladder ([`crate::curve::dleq`]).
    Dleq,
    /// Round `round` of a Rescue-Prime permutation ([`crate::hash::RescueGateChip`]).
    Rescue {
        /// The round index, which selects the round constants.
        round: usize,
    },
    /// One bit of a two-point multi-scalar multiplication ([`crate::curve::msm`]); an optional gate.
    MsmPair,
    /// Row `row` of a Poseidon permutation ([`crate::hash::PoseidonGateChip`]): selects the
    /// row's gate (two full rounds or a run of partial rounds) and its round constants; an
    /// optional gate.
    Poseidon {
        /// The row's index in the permutation's rows (the output row excluded).
        row: usize,
    },
    /// A row of the dynamic table of [`crate::table`]; an optional gate.
    TableRow,
    /// A tuple looked up in the dynamic table of [`crate::table`]; an optional gate.
    TableLookup,
    /// One bit of a GLV ladder ([`crate::curve::glv`]) whose table has key base `key`; an
    /// optional gate.
    GlvLadder {
        /// `32 (j + 1)` for the ladder whose table starts at row `j`.
        key: u64,
    },
    /// Entry `entry` of a GLV ladder's table ([`crate::curve::glv`]); an optional gate.
    GlvTable {
        /// The ladder's key base.
        key: u64,
        /// The entry's index `b1 + 2 b2 + 4 si`.
        entry: u8,
    },
}

/// The optional custom gates a circuit configures (only those its rows use, so that a circuit
/// that does not use a gate pays neither its selectors nor its equality columns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OptionalGates {
    /// The Straus ladder of [`crate::curve::straus`] (on in key files written before it was
    /// optional, when every hybrid circuit had it).
    #[serde(default = "configured_before")]
    pub straus: bool,
    /// The pair-MSM gate of [`crate::curve::msm`] (and [`MSM_EQUALITY_COLUMNS`] equality columns).
    #[serde(default)]
    pub msm_pair: bool,
    /// The Poseidon round gates of [`crate::hash::PoseidonGateChip`].
    #[serde(default)]
    pub poseidon: bool,
    /// The variable-base DLEQ ladder of [`crate::curve::dleq`].
    #[serde(default)]
    pub dleq: bool,
    /// The dynamic table of [`crate::table`] (its selectors and lookup).
    #[serde(default)]
    pub table: bool,
    /// The GLV ladder of [`crate::curve::glv`] (its gates, key column and lookup).
    #[serde(default)]
    pub glv: bool,
}

fn configured_before() -> bool {
    true
}

impl OptionalGates {
    /// Columns with equality enabled.
    pub fn equality_columns(&self) -> usize {
        if self.msm_pair {
            MSM_EQUALITY_COLUMNS
        } else {
            EQUALITY_COLUMNS
        }
    }
}

#[derive(Clone, Debug)]
struct Row {
    values: [Fr; COLUMNS],
    used: usize,
    gate: RowGate,
}

#[derive(Clone, Copy, Debug)]
struct Link {
    cell: ContextCell,
    column: usize,
    row: usize,
}

#[derive(Debug, Default)]
struct Rows {
    rows: Vec<Row>,
    /// Cells the rows use, kept as rows are appended so that counting is O(1)
    /// ([`crate::proving::cost::CellLedger`] counts around every component).
    cells: usize,
    links: Vec<Link>,
    copy_manager: Option<SharedCopyConstraintManager<Fr>>,
}

/// The custom rows of one circuit, shared by the gadgets that append to them (a cheap handle).
#[derive(Clone, Debug, Default)]
pub struct CustomRegion(Arc<Mutex<Rows>>);

impl CustomRegion {
    /// An empty region.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of rows appended so far.
    pub fn num_rows(&self) -> usize {
        self.0.lock().expect("custom rows").rows.len()
    }

    /// Number of cells assigned so far.
    pub fn num_cells(&self) -> usize {
        self.0.lock().expect("custom rows").cells
    }

    /// The optional gates the rows use.
    pub fn optional_gates(&self) -> OptionalGates {
        let rows = self.0.lock().expect("custom rows");
        OptionalGates {
            straus: rows.rows.iter().any(|r| r.gate == RowGate::Straus),
            msm_pair: rows.rows.iter().any(|r| r.gate == RowGate::MsmPair),
            poseidon: rows
                .rows
                .iter()
                .any(|r| matches!(r.gate, RowGate::Poseidon { .. })),
            dleq: rows.rows.iter().any(|r| r.gate == RowGate::Dleq),
            table: rows
                .rows
                .iter()
                .any(|r| matches!(r.gate, RowGate::TableRow | RowGate::TableLookup)),
            glv: rows
                .rows
                .iter()
                .any(|r| matches!(r.gate, RowGate::GlvLadder { .. } | RowGate::GlvTable { .. })),
        }
    }

    /// Appends a row whose columns `used` (a bit mask) hold `values`; returns its index.
    pub fn push_row(&self, gate: RowGate, values: [Fr; COLUMNS], used: usize) -> usize {
        let mut rows = self.0.lock().expect("custom rows");
        rows.rows.push(Row { values, used, gate });
        rows.cells += used.count_ones() as usize;
        rows.rows.len() - 1
    }

    /// The value at `(row, column)`.
    pub fn value(&self, row: usize, column: usize) -> Fr {
        self.0.lock().expect("custom rows").rows[row].values[column]
    }

    /// Overwrites the value at `(row, column)`: for tests that play a cheating prover.
    pub fn override_value(&self, row: usize, column: usize, value: Fr) {
        self.0.lock().expect("custom rows").rows[row].values[column] = value;
    }

    /// A virtual cell of `ctx`'s copy manager standing for the custom cell `(row, column)`,
    /// which must be in an equality column ([`EQUALITY_COLUMNS`], or [`MSM_EQUALITY_COLUMNS`] in
    /// a circuit with the pair-MSM gate).
    pub fn output(&self, ctx: &mut Context<Fr>, row: usize, column: usize) -> AssignedValue<Fr> {
        assert!(
            column < MSM_EQUALITY_COLUMNS,
            "column {column} has no equality"
        );
        let mut rows = self.0.lock().expect("custom rows");
        let value = rows.rows[row].values[column];
        let assigned = ctx
            .copy_manager
            .lock()
            .expect("copy manager")
            .mock_external_assigned(value);
        let cell = assigned.cell.expect("virtual cells have a context cell");
        rows.links.push(Link { cell, column, row });
        if rows.copy_manager.is_none() {
            rows.copy_manager = Some(ctx.copy_manager.clone());
        }
        assigned
    }

    /// Constrains the custom cell `(row, column)` equal to `input`.
    pub fn bind(
        &self,
        ctx: &mut Context<Fr>,
        input: &AssignedValue<Fr>,
        row: usize,
        column: usize,
    ) {
        let external = self.output(ctx, row, column);
        if let (Some(a), Some(b)) = (input.cell, external.cell) {
            ctx.copy_manager
                .lock()
                .expect("copy manager")
                .advice_equalities
                .push((a, b));
        }
    }

    /// Constrains the cells `(row, first_column + i)` equal to `inputs[i]`: an existing cell by a
    /// copy, a constant by a constant equality, a bare witness after loading it.
    pub fn bind_inputs(
        &self,
        ctx: &mut Context<Fr>,
        inputs: &[QuantumCell<Fr>],
        row: usize,
        first_column: usize,
    ) {
        for (i, input) in inputs.iter().enumerate() {
            match input {
                QuantumCell::Existing(cell) => self.bind(ctx, cell, row, first_column + i),
                QuantumCell::Constant(c) => self.bind_constant(ctx, *c, row, first_column + i),
                _ => {
                    let cell = ctx.load_witness(*input.value());
                    self.bind(ctx, &cell, row, first_column + i);
                }
            }
        }
    }

    /// Constrains the custom cell `(row, column)` equal to the constant `c`.
    pub fn bind_constant(&self, ctx: &mut Context<Fr>, c: Fr, row: usize, column: usize) {
        let external = self.output(ctx, row, column);
        let cell = external.cell.expect("virtual cells have a context cell");
        ctx.copy_manager
            .lock()
            .expect("copy manager")
            .constant_equalities
            .push((c, cell));
    }

    /// Assigns the rows (one region at row 0 of `advice`), lets `enable_gate` switch on each
    /// row's gate (its selector and fixed cells), and points every linked virtual cell at its
    /// raw cell. Only the first `equality_columns` columns may hold linked cells.
    pub(crate) fn assign(
        &self,
        advice: &[Column<Advice>; COLUMNS],
        equality_columns: usize,
        layouter: &mut impl Layouter<Fr>,
        mut enable_gate: impl FnMut(&mut Region<'_, Fr>, usize, RowGate) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let rows = self.0.lock().expect("custom rows");
        if rows.rows.is_empty() {
            return Ok(());
        }
        let mut equality_cells: Vec<[Option<Cell>; MSM_EQUALITY_COLUMNS]> =
            vec![[None; MSM_EQUALITY_COLUMNS]; rows.rows.len()];
        layouter.assign_region(
            || "custom gates",
            |mut region| {
                for (i, row) in rows.rows.iter().enumerate() {
                    for (j, v) in row.values.iter().enumerate() {
                        if row.used & (1 << j) != 0 {
                            let cell = region.assign_advice(advice[j], i, Value::known(*v));
                            if j < equality_columns {
                                equality_cells[i][j] = Some(cell.cell());
                            }
                        }
                    }
                    enable_gate(&mut region, i, row.gate)?;
                }
                Ok(())
            },
        )?;
        if let Some(cm) = &rows.copy_manager {
            let mut cm = cm.lock().expect("copy manager");
            for link in &rows.links {
                let cell = equality_cells[link.row][link.column].ok_or(Error::Synthesis)?;
                cm.assigned_advices.insert(link.cell, cell);
            }
        }
        Ok(())
    }
}

/// A query helper for gates: `cur(i)` and `next(i)` of the advice bank.
pub(crate) struct BankQuery<'a, 'm> {
    pub(crate) meta: &'a mut halo2_base::halo2_proofs::plonk::VirtualCells<'m, Fr>,
    pub(crate) advice: &'a [Column<Advice>; COLUMNS],
}

impl BankQuery<'_, '_> {
    pub(crate) fn cur(&mut self, i: usize) -> Expression<Fr> {
        self.meta.query_advice(self.advice[i], Rotation::cur())
    }
    pub(crate) fn next(&mut self, i: usize) -> Expression<Fr> {
        self.meta.query_advice(self.advice[i], Rotation::next())
    }
}
