//! What a laid-out circuit costs (cells, columns, rows) and what a run cost (CPU seconds, peak
//! memory): the figures every benchmark and measurement records beside its times.

use std::fs;

use halo2_base::{
    gates::circuit::{builder::BaseCircuitBuilder, BaseCircuitParams},
    halo2_proofs::{halo2curves::bn256::G1Affine, plonk::ProvingKey, SerdeFormat},
};
use sha3::{Digest, Sha3_256};

use super::cost::{ComponentCells, OTHER};
use crate::{
    bank::{COLUMNS, FIXED_COLUMNS},
    hybrid::HybridCircuit,
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
    /// Rows used by the custom gates ([`crate::bank`]); their cells and columns are included
    /// in `advice_cells` and `advice_columns`.
    pub custom_rows: usize,
    /// The cells by component, in layout order, [`OTHER`] last; they sum to `advice_cells` and
    /// `lookup_cells`. Empty where the layout was not recorded by a
    /// [`super::cost::CellLedger`] (see [`Self::with_components`]).
    pub components: Vec<ComponentCells>,
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
            components: Vec::new(),
        }
    }

    /// The statistics of a laid-out hybrid circuit (halo2-base's part configured by `params`).
    pub fn of_hybrid(circuit: &HybridCircuit, params: &BaseCircuitParams) -> Self {
        let mut stats = Self::of(&circuit.builder, params);
        if circuit.custom_gates {
            stats.advice_cells += circuit.custom.num_cells();
            stats.advice_columns += COLUMNS;
            stats.fixed_columns += FIXED_COLUMNS;
            stats.custom_rows = circuit.custom_rows();
        }
        stats
    }

    /// These statistics with the cells by component: `charged` (from
    /// [`super::cost::CellLedger::into_components`]) and, last, [`OTHER`] with the cells no
    /// component was charged with, so that the components sum to the totals.
    ///
    /// # Panics
    /// If `charged` holds more cells than the totals (a ledger of another layout).
    pub fn with_components(mut self, charged: Vec<ComponentCells>) -> Self {
        let rest = |total: usize, part: fn(&ComponentCells) -> usize| {
            total
                .checked_sub(charged.iter().map(part).sum())
                .expect("the components hold more cells than the circuit")
        };
        let other = ComponentCells {
            name: OTHER.to_string(),
            advice_cells: rest(self.advice_cells, |c| c.advice_cells),
            lookup_cells: rest(self.lookup_cells, |c| c.lookup_cells),
        };
        self.components = charged;
        self.components.push(other);
        self
    }

    /// Whether the components (with [`OTHER`]) sum to `advice_cells` and `lookup_cells`: true of
    /// every [`Self::with_components`].
    pub fn components_sum_to_totals(&self) -> bool {
        let sum = |part: fn(&ComponentCells) -> usize| -> usize {
            self.components.iter().map(part).sum()
        };
        sum(|c| c.advice_cells) == self.advice_cells && sum(|c| c.lookup_cells) == self.lookup_cells
    }

    /// The cells of the component `name`, if the layout charged it.
    pub fn component(&self, name: &str) -> Option<&ComponentCells> {
        self.components.iter().find(|c| c.name == name)
    }

    /// The cells by component, one `component: ` line each (not part of [`std::fmt::Display`],
    /// whose one `record:` line other tools parse).
    pub fn breakdown(&self) -> String {
        self.components
            .iter()
            .map(|c| {
                format!(
                    "component: {:?} advice_cells={} lookup_cells={}\n",
                    c.name, c.advice_cells, c.lookup_cells
                )
            })
            .collect()
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

/// SHA3-256 (hex) of a verifying key's raw bytes: pins a circuit's shape in tests.
pub fn vk_fingerprint(pk: &ProvingKey<G1Affine>) -> String {
    let bytes = pk.get_vk().to_bytes(SerdeFormat::RawBytes);
    Sha3_256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub use crate::timing::{phase, process_cpu_seconds};

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
