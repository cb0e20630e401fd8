//! The dynamic table (`tms_gadgets::table`): tuples of the table are found, and one-change
//! negatives: a tuple outside the table, the all-zero tuple (the padding row is not in the
//! table), a table row whose cells are not the circuit's cells or constants.

use halo2_base::{halo2_proofs::halo2curves::ff::Field, QuantumCell};
use tms_gadgets::{
    bank::CustomRegion,
    table::{TableChip, TABLE_COLUMNS},
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

const K: u32 = 8;

/// Three table rows `(i, 10 i + 1, .., 10 i + 4)`, the first column a constant, the others
/// witnesses; then lookups of `wanted`; `edit` may tamper with the region afterwards (it gets
/// the first table row's index).
fn run(wanted: &[[Fr; TABLE_COLUMNS]], edit: impl FnOnce(&CustomRegion, usize)) -> MockRun<()> {
    CircuitHarness::new(K).mock_custom(|ctx, _range, region| {
        let chip = TableChip::new(region.clone());
        let rows: Vec<[QuantumCell<Fr>; TABLE_COLUMNS]> = (0..3u64)
            .map(|i| {
                std::array::from_fn(|c| {
                    if c == 0 {
                        QuantumCell::Constant(Fr::from(i))
                    } else {
                        QuantumCell::Existing(ctx.load_witness(Fr::from(10 * i + c as u64)))
                    }
                })
            })
            .collect();
        let first = chip.load_table(ctx, &rows);
        let mut public = vec![];
        for tuple in wanted {
            let cells = chip.lookup(ctx, *tuple);
            public.push(cells[1]);
        }
        edit(region, first);
        ((), public)
    })
}

fn row(i: u64) -> [Fr; TABLE_COLUMNS] {
    std::array::from_fn(|c| Fr::from(if c == 0 { i } else { 10 * i + c as u64 }))
}

#[test]
fn tuples_of_the_table_are_found() {
    run(&[row(2), row(0), row(2), row(1)], |_, _| {}).assert_satisfied();
}

#[test]
fn tuple_outside_the_table_is_rejected() {
    // Row 1's number with row 2's values: every element is in some row, the tuple in none.
    let mut mixed = row(2);
    mixed[0] = Fr::ONE;
    run(&[row(0), mixed], |_, _| {}).assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn zero_tuple_is_rejected() {
    // The all-zero row after the table (the input of every row without a lookup) is not a row
    // of the table.
    run(&[row(0), [Fr::ZERO; TABLE_COLUMNS]], |_, _| {})
        .assert_rejected_only_by(Rejection::TableLookup);
}

#[test]
fn table_row_other_than_its_cells_is_rejected() {
    // The prover puts row 1's values with a changed witness column into the table and looks
    // that tuple up: the lookup holds, the copy to the circuit's cell does not.
    let mut forged = row(1);
    forged[3] = Fr::from(99);
    run(&[forged], |region, first| {
        region.override_value(first + 1, 3, Fr::from(99))
    })
    .assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn table_row_other_than_its_constant_is_rejected() {
    let mut forged = row(1);
    forged[0] = Fr::from(7);
    let run = run(&[forged], |region, first| {
        region.override_value(first + 1, 0, Fr::from(7))
    });
    // The constant equality (reported on both of its cells); the lookup holds.
    run.assert_rejected_by(Rejection::Constant);
    assert!(run
        .rejections()
        .iter()
        .all(|r| matches!(r, Rejection::Constant | Rejection::AdviceCopy)));
}
