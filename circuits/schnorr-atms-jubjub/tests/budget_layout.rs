//! The layout behind the Plutus budget of the generated verifier: the verifying key's columns
//! (each commitment costs the script a G1 uncompression and an MSM term) and the rows per slot.
//! The budget itself is measured by `tests/plutus.rs` (CI, every case). The column breakdown is
//! ignored (keygen): `cargo test -p schnorr-atms-jubjub --test budget_layout -- --ignored
//! --nocapture`.

use schnorr_atms_jubjub::{
    prover::{layout_stats, min_k},
    AtmsCircuit, AtmsShape, CommitmentMode,
};
use tms_cardano::backend;

/// Rows of the flat 6- and 7-member layouts at k = 13 (the difference is one slot), from
/// midnight-proofs' cost model: the figure the per-slot work is measured by.
#[test]
fn rows_per_slot() {
    let rows = |n| {
        let shape = AtmsShape {
            n,
            mode: CommitmentMode::Flat,
            k: 13,
        };
        layout_stats(&shape).rows
    };
    let (six, seven) = (rows(6), rows(7));
    println!(
        "layout: flat n = 6: {six} rows; n = 7: {seven} rows; one slot: {} rows",
        seven - six
    );
    assert!(seven > six);
}

#[test]
#[ignore = "keygen at k = 13: seconds; prints the key's columns"]
fn columns_of_the_6_member_flat_key() {
    let mut shape = AtmsShape {
        n: 6,
        mode: CommitmentMode::Flat,
        k: 10,
    };
    shape.k = min_k(&shape);
    let params = backend::kzg_params(shape.k);
    let (_, vk) = backend::keygen(&params, &AtmsCircuit::for_keygen(shape)).unwrap();
    let cs = vk.cs();
    println!(
        "layout: k = {}, advice = {}, fixed (selectors included) = {}, permutation columns = {}, \
         lookups = {}, max degree = {}",
        shape.k,
        cs.num_advice_columns(),
        cs.num_fixed_columns(),
        cs.permutation().get_columns().len(),
        cs.lookups().len(),
        cs.degree(),
    );
    let kinds: Vec<String> = cs
        .permutation()
        .get_columns()
        .iter()
        .map(|c| format!("{:?}", c.column_type()))
        .collect();
    println!("layout: permutation columns: {}", kinds.join(", "));
}
