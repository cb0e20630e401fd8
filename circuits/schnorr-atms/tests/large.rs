//! The large committee of the ATMS note, one keygen / prove / verify run (ignored: minutes).
//!
//! ```sh
//! /usr/bin/time -v cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! TMS_ATMS_LARGE=1001/801 cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! ```
//! Prints a `record:` line: k, columns, cells, cells per party, keygen, prove (CPU seconds of
//! this process and wall), verify, proof bytes, and the process's peak resident memory.

use schnorr_atms::{example_witness, measure_round_trip, setup, CommitmentMode, Verification};
use tms_gadgets::Fr;

#[test]
#[ignore = "minutes and several GiB: see the module docs for the command"]
fn large_committee_proves_and_verifies() {
    let spec = std::env::var("TMS_ATMS_LARGE").unwrap_or_else(|_| "2001/1602".into());
    let (n, t) = spec.split_once('/').expect("n/t");
    let (n, t): (usize, usize) = (n.parse().unwrap(), t.parse().unwrap());
    let witness = example_witness(
        (n, t),
        CommitmentMode::Flat,
        Verification::PerSignature,
        Fr::from(2026u64),
        n as u64,
        4,
    )
    .unwrap();
    let params = setup(witness.shape.k);

    let m = measure_round_trip(&params, &witness).unwrap();
    println!("{}", m.record(&format!("schnorr-atms flat {n}/{t}")));
}
