//! The circuit every custom-gate circuit runs in: halo2-base's [`BaseCircuitBuilder`] beside the
//! bank of [`crate::bank`], and the registry that configures the bank's gates.
//!
//! halo2-base lays everything on one generic gate `a + b * c = d`, about 90 cells per bit of a
//! Grumpkin scalar multiplication, 2,247 per Rescue-Prime permutation and 2,214 per Poseidon
//! permutation. The bank's gates do the same work in 16 cells per bit
//! ([`crate::curve::straus`]), 180 cells per Rescue-Prime permutation
//! ([`crate::hash::RescueGateChip`]) and 183 per Poseidon permutation
//! ([`crate::hash::PoseidonGateChip`], two gates), and the rest of a circuit (curve checks, range
//! checks, counting, Merkle logic) stays on halo2-base. [`crate::bank`] explains how the two
//! halves' cells are linked.
//!
//! # The gate registry
//! [`CustomConfig::configure`] is the one place that knows every gate. The Rescue gate exists
//! in every hybrid circuit; the Straus ladder, the GLV ladder and its lookup
//! ([`crate::curve::glv`]), the pair-MSM gate ([`crate::curve::msm`], with three more equality
//! columns c6 .. c8), the Poseidon gates, the variable-base DLEQ ladder of [`crate::curve::dleq`]
//! and the dynamic table of [`crate::table`] are [`OptionalGates`], configured only in circuits
//! whose rows use them (read from the laid-out rows), so that adding a gate to the bank changes
//! no other circuit's keys or proof size. Every gate has degree at most 5 with its selector (the
//! lookups too), which makes the circuit's degree 5 (the extended domain is 4x; the permutation argument then chunks 3 columns
//! per product). Rescue and Poseidon rows share the fixed round-constant columns: each row
//! assigns its own.

use halo2_base::{
    gates::{
        circuit::{
            builder::BaseCircuitBuilder, BaseCircuitParams, BaseConfig, CircuitBuilderStage,
        },
        flex_gate::MultiPhaseThreadBreakPoints,
    },
    halo2_proofs::{
        circuit::{Layouter, Region, SimpleFloorPlanner},
        plonk::{Advice, Circuit, Column, ConstraintSystem, Error, Fixed, Selector},
    },
};

use crate::{
    bank::{CustomRegion, OptionalGates, RowGate, COLUMNS, FIXED_COLUMNS},
    curve::{dleq, glv, msm, straus},
    hash::{
        poseidon_gate::{self, PoseidonSelectors},
        rescue_gate,
    },
    table::{self, TableSelectors},
    Fr,
};

/// The custom columns, selectors and round-constant columns.
#[derive(Clone, Debug)]
pub struct CustomConfig {
    /// The advice bank.
    pub advice: [Column<Advice>; COLUMNS],
    q_straus: Option<Selector>,
    q_dleq: Option<Selector>,
    q_rescue: Selector,
    q_msm_pair: Option<Selector>,
    q_poseidon: Option<PoseidonSelectors>,
    q_table: Option<TableSelectors>,
    q_glv: Option<glv::GlvSelectors>,
    round_constants: [Column<Fixed>; FIXED_COLUMNS],
    equality_columns: usize,
}

impl CustomConfig {
    /// Allocates the columns and creates the Rescue gate, and the `optional` ones.
    pub fn configure(meta: &mut ConstraintSystem<Fr>, optional: OptionalGates) -> Self {
        let advice: [Column<Advice>; COLUMNS] = std::array::from_fn(|_| meta.advice_column());
        let equality_columns = optional.equality_columns();
        for col in &advice[..equality_columns] {
            meta.enable_equality(*col);
        }
        let round_constants = std::array::from_fn(|_| meta.fixed_column());
        let q_straus = optional.straus.then(|| {
            let q = meta.selector();
            straus::create_gate(meta, q, &advice);
            q
        });
        let q_rescue = meta.selector();
        let q_dleq = optional.dleq.then(|| {
            let q = meta.selector();
            dleq::create_gate(meta, q, &advice);
            q
        });
        rescue_gate::create_gate(meta, q_rescue, &advice, &round_constants);
        let q_msm_pair = optional.msm_pair.then(|| {
            let q = meta.selector();
            msm::create_gate(meta, q, &advice);
            q
        });
        let q_poseidon = optional
            .poseidon
            .then(|| poseidon_gate::create_gates(meta, &advice, &round_constants));
        let q_table = optional.table.then(|| table::configure(meta, &advice));
        let q_glv = optional
            .glv
            .then(|| glv::configure(meta, &advice, &round_constants));
        Self {
            advice,
            q_straus,
            q_dleq,
            q_rescue,
            q_msm_pair,
            q_poseidon,
            q_table,
            q_glv,
            round_constants,
            equality_columns,
        }
    }

    /// Switches on the gate of custom row `row`: its selector and, for hash rounds, its round
    /// constants.
    fn enable(&self, region: &mut Region<'_, Fr>, row: usize, gate: RowGate) -> Result<(), Error> {
        match gate {
            RowGate::None => {}
            RowGate::Straus => self
                .q_straus
                .expect("the Straus gate is configured when its rows exist")
                .enable(region, row)?,
            RowGate::MsmPair => self
                .q_msm_pair
                .expect("the pair-MSM gate is configured when its rows exist")
                .enable(region, row)?,
            RowGate::Dleq => self
                .q_dleq
                .expect("a DLEQ row needs the DLEQ gate configured")
                .enable(region, row)?,
            RowGate::TableRow | RowGate::TableLookup => {
                let q = self
                    .q_table
                    .expect("the table's lookup is configured when its rows exist");
                let selector = if gate == RowGate::TableRow {
                    q.row
                } else {
                    q.lookup
                };
                selector.enable(region, row)?
            }
            RowGate::GlvLadder { .. } | RowGate::GlvTable { .. } => {
                let q = self
                    .q_glv
                    .expect("the GLV gates are configured when their rows exist");
                match gate {
                    RowGate::GlvLadder { .. } => q.ladder.enable(region, row)?,
                    RowGate::GlvTable { entry, .. } if entry & 3 != 0 => {
                        q.add.enable(region, row)?
                    }
                    _ => {}
                }
                for (column, value) in glv::row_fixed(gate) {
                    region.assign_fixed(self.round_constants[column], row, value);
                }
            }
            RowGate::Rescue { round } => {
                self.q_rescue.enable(region, row)?;
                for (col, c) in self
                    .round_constants
                    .iter()
                    .zip(rescue_gate::round_constants(round))
                {
                    region.assign_fixed(*col, row, *c);
                }
            }
            RowGate::Poseidon { row: poseidon_row } => {
                let (gate, constants) = poseidon_gate::row_constants(poseidon_row);
                self.q_poseidon
                    .as_ref()
                    .expect("the Poseidon gates are configured when their rows exist")
                    .0[gate]
                    .enable(region, row)?;
                for (col, c) in self.round_constants.iter().zip(constants) {
                    region.assign_fixed(*col, row, c);
                }
            }
        }
        Ok(())
    }
}

/// Column configuration of a [`HybridCircuit`]: halo2-base's, and whether the custom gates exist.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct HybridParams {
    /// halo2-base's columns.
    pub base: BaseCircuitParams,
    /// Whether the circuit has the custom columns and gates.
    pub custom_gates: bool,
    /// The optional custom gates (none in key files written before they existed).
    #[serde(default)]
    pub optional_gates: OptionalGates,
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
    /// An empty circuit of `2^k` rows at `stage` with the custom gates: one instance column,
    /// range lookups of `k - 1` bits (the certificate circuits' choice).
    pub fn new(stage: CircuitBuilderStage, k: u32) -> Self {
        Self {
            builder: BaseCircuitBuilder::from_stage(stage)
                .use_k(k as usize)
                .use_lookup_bits(k as usize - 1)
                .use_instance_columns(1),
            custom: CustomRegion::new(),
            custom_gates: true,
        }
    }

    /// An empty prover circuit with the configuration and break points keygen chose.
    pub fn prover(params: &HybridParams, break_points: MultiPhaseThreadBreakPoints) -> Self {
        Self {
            builder: BaseCircuitBuilder::prover(params.base.clone(), break_points),
            custom: CustomRegion::new(),
            custom_gates: params.custom_gates,
        }
    }

    /// The column configuration, after [`BaseCircuitBuilder::calculate_params`] or `use_params`.
    pub fn params(&self) -> HybridParams {
        HybridParams {
            base: self.builder.config_params.clone(),
            custom_gates: self.custom_gates,
            optional_gates: self.custom.optional_gates(),
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
            .then(|| CustomConfig::configure(meta, params.optional_gates));
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
        // Called by keygen_vk, keygen_pk and the prover: each call is timed.
        crate::timing::phase("assign: custom-gate bank", || match &config.custom {
            Some(custom) => self.custom.assign(
                &custom.advice,
                custom.equality_columns,
                &mut layouter,
                |region, row, gate| custom.enable(region, row, gate),
            ),
            None => {
                assert_eq!(
                    self.custom.num_rows(),
                    0,
                    "custom rows were appended to a circuit configured without custom gates"
                );
                Ok(())
            }
        })?;
        crate::timing::phase("assign: halo2-base columns", || {
            self.builder.synthesize(config.base, layouter)
        })
    }
}
