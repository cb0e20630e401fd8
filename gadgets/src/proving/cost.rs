//! Where a circuit's cells go: the advice and lookup cells of a laid-out circuit charged to
//! named components (hashing, ladders, pairing, ...), read off the layout itself.
//!
//! A circuit's layout function runs each component inside [`CellLedger::charge`], which counts
//! the cells used before and after and charges the difference to the component's name (repeated
//! charges to one name add up). [`super::stats::CircuitStats::with_components`] then puts what no
//! component was charged with under [`OTHER`], so that the components always sum to the
//! statistics' `advice_cells` and `lookup_cells`.
//!
//! The counts are those of [`super::stats::CircuitStats::of_hybrid`]: advice cells are the
//! halo2-base context's cells plus the custom region's ([`CustomRegion::num_cells`]), lookup
//! cells those queued for the range lookup in every phase and thread. Counting only reads: the
//! layout is the same with or without a ledger.

use halo2_base::{
    gates::RangeChip, virtual_region::lookups::LookupAnyManager, AssignedValue, Context,
};

use crate::{bank::CustomRegion, hybrid::HybridCircuit, Fr};

/// The name of the cells no component was charged with.
pub const OTHER: &str = "other";

/// The cells one component of a circuit uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComponentCells {
    /// What the component is (e.g. "pairing check").
    pub name: String,
    /// Advice cells, halo2-base's and the custom gates' (as [`super::stats::CircuitStats`]).
    pub advice_cells: usize,
    /// Cells copied into the range-lookup columns.
    pub lookup_cells: usize,
}

/// Cells used so far, as [`CellLedger`] counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellCount {
    advice: usize,
    lookup: usize,
}

/// Records the cells each component of a layout uses (see the module documentation).
#[derive(Clone, Debug)]
pub struct CellLedger {
    lookups: Vec<LookupAnyManager<Fr, 1>>,
    custom: CustomRegion,
    charged: Vec<ComponentCells>,
}

impl CellLedger {
    /// A ledger for a layout whose range checks go through `range` and whose custom rows are
    /// `custom`.
    pub fn new(range: &RangeChip<Fr>, custom: &CustomRegion) -> Self {
        Self {
            lookups: range.lookup_manager().to_vec(),
            custom: custom.clone(),
            charged: Vec::new(),
        }
    }

    fn count(&self, ctx: &Context<Fr>) -> CellCount {
        CellCount {
            advice: ctx.advice.len() + self.custom.num_cells(),
            lookup: self.lookups.iter().map(|lm| lm.total_rows()).sum(),
        }
    }

    /// Runs `lay_out` on `ctx` and charges the cells it used (on `ctx`, the custom region and
    /// the range lookups) to `name`; returns what `lay_out` returns.
    pub fn charge<T>(
        &mut self,
        name: &str,
        ctx: &mut Context<Fr>,
        lay_out: impl FnOnce(&mut Context<Fr>) -> T,
    ) -> T {
        let before = self.count(ctx);
        let out = lay_out(ctx);
        let after = self.count(ctx);
        let (advice, lookup) = (after.advice - before.advice, after.lookup - before.lookup);
        match self.charged.iter_mut().find(|c| c.name == name) {
            Some(c) => {
                c.advice_cells += advice;
                c.lookup_cells += lookup;
            }
            None => self.charged.push(ComponentCells {
                name: name.to_string(),
                advice_cells: advice,
                lookup_cells: lookup,
            }),
        }
        out
    }

    /// The components charged so far, in the order of their first charge.
    pub fn components(&self) -> &[ComponentCells] {
        &self.charged
    }

    /// The components charged, in the order of their first charge.
    pub fn into_components(self) -> Vec<ComponentCells> {
        self.charged
    }
}

/// Lays out `circuit` with `synthesize` (on its main context, range chip and custom region, with
/// a fresh ledger), exposes the public cells `synthesize` returns and returns the components it
/// charged: every circuit's layout step.
pub fn lay_out_recorded(
    circuit: &mut HybridCircuit,
    synthesize: impl FnOnce(
        &mut Context<Fr>,
        &RangeChip<Fr>,
        &CustomRegion,
        &mut CellLedger,
    ) -> Vec<AssignedValue<Fr>>,
) -> Vec<ComponentCells> {
    let range = circuit.builder.range_chip();
    let mut ledger = CellLedger::new(&range, &circuit.custom);
    let publics = synthesize(
        circuit.builder.main(0),
        &range,
        &circuit.custom,
        &mut ledger,
    );
    circuit.builder.assigned_instances = vec![publics];
    ledger.into_components()
}
