//! Long one-shot measurements, ignored by default.
//!
//! ```text
//! TMS_MITHRIL_SIZES=256/32 cargo test --release -p mithril-snark --test large -- --ignored --nocapture measure_quorums
//! cargo test --release -p mithril-snark --test large -- --ignored --nocapture mainnet
//! cargo test -p mithril-snark --test large -- --ignored --nocapture mainnet_layout
//! ```
//! `TMS_MITHRIL_BASE_COLUMNS` (default 16) caps the halo2-base advice columns (a lower k with more
//! columns). Each prints the `record:` line of [`mithril_snark::MeasuredRoundTrip::record`]
//! (`parties/quorum` pairs; m = 10,000, phi_f = 0.2, tree depth 13, uniform stakes).
//! `mainnet` uses `Parameters::MAINNET` (k = 1944, m = 16948, phi_f = 0.2) with 3,000 parties
//! of skewed (Zipf-like) stake at depth 13: measured here at k = 18, 52 signer slots, about
//! 2 minutes of keygen and 2.5 of proving, 2.8 GiB peak (see the README), before the signer
//! table, with which `mainnet_layout` lays the same shape out at k = 17.

use mithril_snark::{
    example_certificate, layout_stats, measure_round_trip, min_k, setup, MithrilShape, Parameters,
    PhiF,
};
use tms_gadgets::testing::sizes_from_env;

/// halo2-base advice columns beside the custom 16 (override: `TMS_MITHRIL_BASE_COLUMNS`).
fn base_columns() -> usize {
    std::env::var("TMS_MITHRIL_BASE_COLUMNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}
const DEPTH: usize = 13;

#[test]
#[ignore = "long: minutes per size"]
fn measure_quorums() {
    for (parties, quorum) in sizes_from_env("TMS_MITHRIL_SIZES", "256/32") {
        let params = Parameters::new(10_000, quorum as u64, PhiF::new(1, 5).unwrap()).unwrap();
        let example = example_certificate(params, parties, Some(DEPTH), 7, false).unwrap();
        let witness = example.witness(base_columns()).unwrap();
        let kzg = setup(witness.shape.k);
        let m = measure_round_trip(&kzg, &witness).unwrap();
        println!(
            "{}",
            m.record(&format!("mithril parties={parties} quorum={quorum}"))
        );
    }
}

#[test]
#[ignore = "mainnet parameters: about 5 minutes and 3 GiB"]
fn mainnet() {
    let example = example_certificate(Parameters::MAINNET, 3000, Some(DEPTH), 7, true).unwrap();
    let witness = example.witness(base_columns()).unwrap();
    println!(
        "mainnet: {} signer slots, {} index slots, k = {}",
        witness.shape.signer_slots, witness.shape.index_slots, witness.shape.k
    );
    let kzg = setup(witness.shape.k);
    let m = measure_round_trip(&kzg, &witness).unwrap();
    println!("{}", m.record("mithril mainnet"));
}

/// The mainnet shape's layout without keygen or proving (seconds): 52 signer slots (what the
/// `mainnet` certificate needs), 1,944 index slots, depth 13, the smallest k for
/// [`base_columns`].
#[test]
#[ignore = "lays out the mainnet shape: about a minute"]
fn mainnet_layout() {
    let probe = MithrilShape {
        signer_slots: 52,
        index_slots: Parameters::MAINNET.k() as usize,
        depth: DEPTH,
        k: 20,
    };
    let shape = MithrilShape {
        k: min_k(&probe, base_columns()).unwrap(),
        ..probe
    };
    println!("mainnet layout: {}", layout_stats(&shape).unwrap());
}
