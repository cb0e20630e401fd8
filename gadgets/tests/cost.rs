//! The cell ledger (`tms_gadgets::proving::cost`): charges add up by name and, with "other",
//! to the statistics' totals.

use halo2_base::gates::RangeInstructions;
use tms_gadgets::{
    hash::{rescue_gate::permutation_rows, HashInstructions, RescueGateChip},
    proving::cost::{CellLedger, OTHER},
    testing::CircuitHarness,
    Fr,
};

#[test]
fn charges_accumulate_and_sum_to_the_totals() {
    let (components, stats) = CircuitHarness::new(10).measure_custom(|ctx, range, custom| {
        let mut ledger = CellLedger::new(range, custom);
        let hasher = RescueGateChip::new(custom.clone());
        let x = ctx.load_witness(Fr::from(3));
        for _ in 0..2 {
            ledger.charge("range", ctx, |ctx| range.range_check(ctx, x, 20));
        }
        ledger.charge("hash", ctx, |ctx| hasher.hash_leaf(ctx, &[x, x]));
        ledger.into_components()
    });
    let stats = stats.with_components(components);
    let names: Vec<&str> = stats.components.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["range", "hash", OTHER]);
    assert!(stats.components_sum_to_totals());
    let (range, hash) = (&stats.components[0], &stats.components[1]);
    assert!(range.lookup_cells > 0 && range.lookup_cells % 2 == 0);
    assert!(hash.advice_cells >= permutation_rows());
    assert_eq!(hash.lookup_cells, 0);
    assert!(stats.components[2].advice_cells > 0, "the witness x");
}
