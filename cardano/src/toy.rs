//! A toy circuit that exercises every part of the verifier a Plutus script must replay: two
//! gates behind selectors, a lookup into a fixed table, copy constraints and an instance column.
//!
//! Its statement has the Schnorr ATMS's shape, one instance column `[commitment, message,
//! threshold]`: the prover knows `w < 16` with `w * w = commitment` and `w >= threshold` (both
//! `w` and `w - threshold` are looked up in a 16-row table); the message is copied into an advice
//! cell. So a changed commitment, message or a stricter threshold is refused, as for the ATMS.

use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{
        Advice, Circuit, Column, ConstraintSystem, Constraints, Error, Instance, Selector,
        TableColumn,
    },
    poly::Rotation,
};

use crate::backend::Fr;

/// The toy circuit's columns.
#[derive(Clone, Debug)]
pub struct ToyConfig {
    a: Column<Advice>,
    b: Column<Advice>,
    c: Column<Advice>,
    pi: Column<Instance>,
    q_mul: Selector,
    q_add: Selector,
    q_range: Selector,
    table: TableColumn,
}

/// The toy circuit: the witness `w` and the public threshold.
#[derive(Clone, Debug, Default)]
pub struct ToyCircuit {
    /// The private value.
    pub w: Value<Fr>,
    /// The threshold (also in the instance column).
    pub t: Value<Fr>,
}

impl ToyCircuit {
    /// The circuit for `w` and threshold `t`, and its public inputs `[w * w, message, t]`.
    pub fn new(w: u64, t: u64, message: Fr) -> (Self, Vec<Fr>) {
        let (wf, tf) = (Fr::from(w), Fr::from(t));
        (
            Self {
                w: Value::known(wf),
                t: Value::known(tf),
            },
            vec![wf * wf, message, tf],
        )
    }
}

/// The size of the lookup table (`w < TABLE`).
pub const TABLE: u64 = 16;

impl Circuit<Fr> for ToyCircuit {
    type Config = ToyConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self::default()
    }

    fn configure(meta: &mut ConstraintSystem<Fr>) -> ToyConfig {
        let (a, b, c) = (
            meta.advice_column(),
            meta.advice_column(),
            meta.advice_column(),
        );
        let pi = meta.instance_column();
        for col in [a, b, c] {
            meta.enable_equality(col);
        }
        meta.enable_equality(pi);
        let (q_mul, q_add) = (meta.selector(), meta.selector());
        let q_range = meta.complex_selector();
        let table = meta.lookup_table_column();
        meta.create_gate("mul", |meta| {
            let (a, b, c) = (
                meta.query_advice(a, Rotation::cur()),
                meta.query_advice(b, Rotation::cur()),
                meta.query_advice(c, Rotation::cur()),
            );
            Constraints::with_selector(q_mul, vec![a * b - c])
        });
        // The sum lands in the next row's `a`: a rotation for the verifier to handle.
        meta.create_gate("add", |meta| {
            let (a, b, next) = (
                meta.query_advice(a, Rotation::cur()),
                meta.query_advice(b, Rotation::cur()),
                meta.query_advice(a, Rotation::next()),
            );
            Constraints::with_selector(q_add, vec![a + b - next])
        });
        meta.lookup("range", |meta| {
            let q = meta.query_selector(q_range);
            let a = meta.query_advice(a, Rotation::cur());
            vec![(q * a, table)]
        });
        ToyConfig {
            a,
            b,
            c,
            pi,
            q_mul,
            q_add,
            q_range,
            table,
        }
    }

    fn synthesize(&self, cfg: ToyConfig, mut layouter: impl Layouter<Fr>) -> Result<(), Error> {
        layouter.assign_table(
            || "range table",
            |mut t| {
                for i in 0..TABLE {
                    t.assign_cell(|| "t", cfg.table, i as usize, || Value::known(Fr::from(i)))?;
                }
                Ok(())
            },
        )?;
        let sq = layouter.assign_region(
            || "w * w, w - t + t = w",
            |mut region| {
                cfg.q_mul.enable(&mut region, 0)?;
                cfg.q_range.enable(&mut region, 0)?;
                let w = region.assign_advice(|| "w", cfg.a, 0, || self.w)?;
                w.copy_advice(|| "w", &mut region, cfg.b, 0)?;
                let sq = region.assign_advice(|| "w^2", cfg.c, 0, || self.w * self.w)?;
                cfg.q_add.enable(&mut region, 1)?;
                cfg.q_range.enable(&mut region, 1)?;
                region.assign_advice(|| "w - t", cfg.a, 1, || self.w - self.t)?;
                region.assign_advice_from_instance(|| "t", cfg.pi, 2, cfg.b, 1)?;
                w.copy_advice(|| "w", &mut region, cfg.a, 2)?;
                region.assign_advice_from_instance(|| "message", cfg.pi, 1, cfg.c, 2)?;
                Ok(sq)
            },
        )?;
        layouter.constrain_instance(sq.cell(), cfg.pi, 0)
    }
}

/// A second toy circuit for the verifier's multi-phase path: a challenge squeezed after the
/// first phase enters a gate over a second-phase column (`d = a + challenge * b`), and `a` is
/// copied to the instance column's only row.
#[derive(Clone, Debug, Default)]
pub struct ToyPhasesCircuit {
    /// The first-phase values.
    pub a: Value<Fr>,
    /// The second first-phase value.
    pub b: Value<Fr>,
}

/// The columns of [`ToyPhasesCircuit`].
#[derive(Clone, Debug)]
pub struct ToyPhasesConfig {
    a: Column<Advice>,
    b: Column<Advice>,
    d: Column<Advice>,
    pi: Column<Instance>,
    q: Selector,
    ch: midnight_proofs::plonk::Challenge,
}

impl Circuit<Fr> for ToyPhasesCircuit {
    type Config = ToyPhasesConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self::default()
    }

    fn configure(meta: &mut ConstraintSystem<Fr>) -> ToyPhasesConfig {
        use midnight_proofs::plonk::{FirstPhase, SecondPhase};
        let (a, b) = (meta.advice_column(), meta.advice_column());
        let ch = meta.challenge_usable_after(FirstPhase);
        let d = meta.advice_column_in(SecondPhase);
        let pi = meta.instance_column();
        meta.enable_equality(a);
        meta.enable_equality(pi);
        let q = meta.selector();
        meta.create_gate("d = a + ch * b", |meta| {
            let (a, b, d) = (
                meta.query_advice(a, Rotation::cur()),
                meta.query_advice(b, Rotation::cur()),
                meta.query_advice(d, Rotation::cur()),
            );
            let c = meta.query_challenge(ch);
            Constraints::with_selector(q, vec![d - (a + c * b)])
        });
        ToyPhasesConfig { a, b, d, pi, q, ch }
    }

    fn synthesize(
        &self,
        cfg: ToyPhasesConfig,
        mut layouter: impl Layouter<Fr>,
    ) -> Result<(), Error> {
        let ch = layouter.get_challenge(cfg.ch);
        let a = layouter.assign_region(
            || "phases",
            |mut region| {
                cfg.q.enable(&mut region, 0)?;
                let a = region.assign_advice(|| "a", cfg.a, 0, || self.a)?;
                region.assign_advice(|| "b", cfg.b, 0, || self.b)?;
                region.assign_advice(|| "d", cfg.d, 0, || self.a + ch * self.b)?;
                Ok(a)
            },
        )?;
        layouter.constrain_instance(a.cell(), cfg.pi, 0)
    }
}
