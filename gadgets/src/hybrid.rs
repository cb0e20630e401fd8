//! Custom gates beside halo2-base's columns: one circuit that holds a [`BaseCircuitBuilder`]
//! and a bank of [`COLUMNS`] advice columns with two specialised gates.
//!
//! halo2-base lays everything on one generic gate `a + b * c = d`, about 90 cells per bit of a
//! Grumpkin scalar multiplication and 2,247 per Rescue-Prime permutation. The two gates here do
//! the same work in 16 cells per bit ([`crate::straus`]) and 180 cells per permutation
//! ([`crate::hash::RescueGateChip`]), and the rest of a circuit (curve checks, range checks,
//! counting, Merkle logic) stays on halo2-base.
//!
//! # How the two halves are linked
//! Witness generation happens before `synthesize`, on halo2-base's virtual [`Context`]. A gadget
//! that needs a custom row appends the row's values to the [`CustomRegion`] and gets, for every
//! cell it must link, a virtual cell of halo2-base's copy manager (`mock_external_assigned`). An
//! input is linked by an equality in the copy manager between the caller's cell and that virtual
//! cell, a constant by a constant equality. In [`HybridCircuit::synthesize`] the custom rows are
//! assigned first, each linked virtual cell is pointed at its raw cell, and then halo2-base's own
//! `synthesize` assigns its region and imposes every equality, ours included. Nothing is copied
//! by value alone: a custom cell a circuit reads is always one of these linked cells.
//!
//! ```text
//! advice:  halo2-base columns | c0 .. c5 (equality) | c6 .. c15       fixed: halo2-base | rc0 .. rc7
//!          basic gate, lookups | Straus rows ... then Rescue rows, stacked in one region
//! ```
//! A third gate, the variable-base DLEQ ladder of [`crate::dleq`], is configured only in circuits
//! that lay out DLEQ rows ([`HybridParams::dleq_gate`], read from the rows), so that the keys of
//! circuits without it do not change.
//!
//! Both gates have degree at most 5 with their selector, which makes the circuit's degree 5 (the
//! extended domain is 4x; the permutation argument then chunks 3 columns per product).

use std::sync::{Arc, Mutex};

use halo2_base::{
    gates::circuit::{builder::BaseCircuitBuilder, BaseCircuitParams, BaseConfig},
    halo2_proofs::{
        circuit::{Cell, Layouter, SimpleFloorPlanner, Value},
        halo2curves::{ff::Field, CurveAffine},
        plonk::{Advice, Circuit, Column, ConstraintSystem, Error, Expression, Fixed, Selector},
        poly::Rotation,
    },
    virtual_region::copy_constraints::SharedCopyConstraintManager,
    AssignedValue, Context, ContextCell,
};

use crate::{
    ecc::GrumpkinAffine,
    hash::rescue::{RescueField, WIDTH},
    Fr,
};

/// Advice columns of the custom gates (cells per Straus row and per Rescue round).
pub const COLUMNS: usize = 16;
/// Fixed columns of the custom gates (the Rescue round constants).
pub const FIXED_COLUMNS: usize = 2 * WIDTH;
/// The first columns, which take part in copy constraints.
pub const EQUALITY_COLUMNS: usize = 6;

/// Which gate a custom row enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowGate {
    /// No gate: an output row read by the previous row's gate.
    None,
    /// One bit of the Straus ladder ([`crate::straus`]).
    Straus,
    /// One bit of the variable-base DLEQ ladder ([`crate::dleq`]).
    Dleq,
    /// Round `round` of a Rescue-Prime permutation ([`crate::hash::RescueGateChip`]).
    Rescue {
        /// The round index, which selects the round constants.
        round: usize,
    },
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

    /// Whether a row of the DLEQ ladder ([`crate::dleq`]) was appended: only then does the
    /// circuit configure that gate (so circuits without it keep their keys).
    pub fn uses_dleq(&self) -> bool {
        let rows = self.0.lock().expect("custom rows");
        rows.rows.iter().any(|r| r.gate == RowGate::Dleq)
    }

    /// Number of cells assigned so far.
    pub fn num_cells(&self) -> usize {
        let rows = self.0.lock().expect("custom rows");
        rows.rows.iter().map(|r| r.used.count_ones() as usize).sum()
    }

    /// Appends a row whose columns `used` (a bit mask) hold `values`; returns its index.
    pub fn push_row(&self, gate: RowGate, values: [Fr; COLUMNS], used: usize) -> usize {
        let mut rows = self.0.lock().expect("custom rows");
        rows.rows.push(Row { values, used, gate });
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
    /// which must be in an equality column.
    pub fn output(&self, ctx: &mut Context<Fr>, row: usize, column: usize) -> AssignedValue<Fr> {
        assert!(column < EQUALITY_COLUMNS, "column {column} has no equality");
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

    /// Assigns the rows (one region at row 0 of the custom columns) and points every linked
    /// virtual cell at its raw cell.
    fn assign(&self, config: &CustomConfig, layouter: &mut impl Layouter<Fr>) -> Result<(), Error> {
        let rows = self.0.lock().expect("custom rows");
        if rows.rows.is_empty() {
            return Ok(());
        }
        let params = Fr::rescue_params();
        let mut equality_cells: Vec<[Option<Cell>; EQUALITY_COLUMNS]> =
            vec![[None; EQUALITY_COLUMNS]; rows.rows.len()];
        layouter.assign_region(
            || "custom gates",
            |mut region| {
                for (i, row) in rows.rows.iter().enumerate() {
                    for (j, v) in row.values.iter().enumerate() {
                        if row.used & (1 << j) != 0 {
                            let cell = region.assign_advice(config.advice[j], i, Value::known(*v));
                            if j < EQUALITY_COLUMNS {
                                equality_cells[i][j] = Some(cell.cell());
                            }
                        }
                    }
                    match row.gate {
                        RowGate::None => {}
                        RowGate::Straus => config.q_straus.enable(&mut region, i)?,
                        RowGate::Dleq => config
                            .q_dleq
                            .expect("a DLEQ row needs the DLEQ gate configured")
                            .enable(&mut region, i)?,
                        RowGate::Rescue { round } => {
                            config.q_rescue.enable(&mut region, i)?;
                            let rc = &params.round_constants[round * 2 * WIDTH..];
                            for (col, c) in config.round_constants.iter().zip(rc) {
                                region.assign_fixed(*col, i, *c);
                            }
                        }
                    }
                }
                Ok(())
            },
        )?;
        if let Some(cm) = &rows.copy_manager {
            let mut cm = cm.lock().expect("copy manager");
            for link in &rows.links {
                let cell = equality_cells[link.row][link.column]
                    .expect("a linked custom cell is assigned");
                cm.assigned_advices.insert(link.cell, cell);
            }
        }
        Ok(())
    }
}

/// The custom columns, selectors and round-constant columns.
#[derive(Clone, Debug)]
pub struct CustomConfig {
    /// The advice bank.
    pub advice: [Column<Advice>; COLUMNS],
    q_straus: Selector,
    q_dleq: Option<Selector>,
    q_rescue: Selector,
    round_constants: [Column<Fixed>; 2 * WIDTH],
}

impl CustomConfig {
    /// Allocates the columns and creates the gates (the DLEQ gate only if `dleq`).
    pub fn configure(meta: &mut ConstraintSystem<Fr>, dleq: bool) -> Self {
        let advice: [Column<Advice>; COLUMNS] = std::array::from_fn(|_| meta.advice_column());
        for col in &advice[..EQUALITY_COLUMNS] {
            meta.enable_equality(*col);
        }
        let round_constants = std::array::from_fn(|_| meta.fixed_column());
        let q_straus = meta.selector();
        let q_rescue = meta.selector();
        crate::straus::create_gate(meta, q_straus, &advice);
        let q_dleq = dleq.then(|| {
            let q = meta.selector();
            crate::dleq::create_gate(meta, q, &advice);
            q
        });
        crate::hash::rescue_gate::create_gate(meta, q_rescue, &advice, &round_constants);
        Self {
            advice,
            q_straus,
            q_dleq,
            q_rescue,
            round_constants,
        }
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

/// Column configuration of a [`HybridCircuit`]: halo2-base's, and whether the custom gates exist.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct HybridParams {
    /// halo2-base's columns.
    pub base: BaseCircuitParams,
    /// Whether the circuit has the custom columns and gates.
    pub custom_gates: bool,
    /// Whether it also has the DLEQ gate ([`crate::dleq`]); set from the laid-out rows.
    #[serde(default)]
    pub dleq_gate: bool,
}

/// Configuration of a [`HybridCircuit`].
#[derive(Clone, Debug)]
pub struct HybridConfig {
    /// halo2-base's configuration.
    pub base: BaseConfig<Fr>,
    /// The custom gates, if the parameters ask for them.
    pub custom: Option<CustomConfig>,
}

/// A halo2-base circuit plus the custom rows of [`CustomRegion`].
#[derive(Clone, Debug)]
pub struct HybridCircuit {
    /// halo2-base's builder.
    pub builder: BaseCircuitBuilder<Fr>,
    /// The custom rows.
    pub custom: CustomRegion,
    /// Whether the custom columns are configured (even if no row is used).
    pub custom_gates: bool,
}

impl HybridCircuit {
    /// The column configuration, after [`BaseCircuitBuilder::calculate_params`] or `use_params`.
    pub fn params(&self) -> HybridParams {
        HybridParams {
            base: self.builder.config_params.clone(),
            custom_gates: self.custom_gates,
            dleq_gate: self.custom_gates && self.custom.uses_dleq(),
        }
    }

    /// Rows the custom region needs, blinding rows excluded.
    pub fn custom_rows(&self) -> usize {
        self.custom.num_rows()
    }
}

impl Circuit<Fr> for HybridCircuit {
    type Config = HybridConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = HybridParams;

    fn params(&self) -> Self::Params {
        HybridCircuit::params(self)
    }

    fn without_witnesses(&self) -> Self {
        unimplemented!("as halo2-base's builder: keygen uses the witness-carrying circuit")
    }

    fn configure_with_params(
        meta: &mut ConstraintSystem<Fr>,
        params: HybridParams,
    ) -> HybridConfig {
        let base = BaseConfig::configure(meta, params.base);
        let custom = params
            .custom_gates
            .then(|| CustomConfig::configure(meta, params.dleq_gate));
        HybridConfig { base, custom }
    }

    fn configure(_: &mut ConstraintSystem<Fr>) -> HybridConfig {
        unreachable!("HybridCircuit is configured with its parameters")
    }

    fn synthesize(
        &self,
        config: HybridConfig,
        mut layouter: impl Layouter<Fr>,
    ) -> Result<(), Error> {
        match &config.custom {
            Some(custom) => self.custom.assign(custom, &mut layouter)?,
            None => assert_eq!(
                self.custom.num_rows(),
                0,
                "custom rows were appended to a circuit configured without custom gates"
            ),
        }
        self.builder.synthesize(config.base, layouter)
    }
}

/// The coordinates of a non-identity point.
pub(crate) fn xy(p: &GrumpkinAffine) -> (Fr, Fr) {
    let c = p.coordinates().expect("not the identity");
    (*c.x(), *c.y())
}

/// `x^(1/5)`, the inverse of the Rescue S-box.
pub(crate) fn fifth_root(x: Fr) -> Fr {
    let alpha_inv = Fr::rescue_params().alpha_inv.to_u64_digits();
    x.pow_vartime(&alpha_inv)
}
