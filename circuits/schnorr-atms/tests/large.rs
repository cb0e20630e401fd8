//! The large committee of the ATMS note, one keygen / prove / verify run (ignored: minutes).
//!
//! ```sh
//! /usr/bin/time -v cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! TMS_ATMS_LARGE=1001/801 cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! ```
//! Prints a `record:` line: k, columns, cells, cells per party, keygen, prove (CPU seconds of
//! this process and wall), verify, proof bytes, and the process's peak resident memory.

use std::time::Instant;

use schnorr_atms::{example_witness, keygen, prove, setup, verify, CommitmentMode};
use tms_gadgets::{
    testing::{peak_rss_mib, process_cpu_seconds},
    Fr,
};

#[test]
#[ignore = "minutes and several GiB: see the module docs for the command"]
fn large_committee_proves_and_verifies() {
    let spec = std::env::var("TMS_ATMS_LARGE").unwrap_or_else(|_| "2001/1602".into());
    let (n, t) = spec.split_once('/').expect("n/t");
    let (n, t): (usize, usize) = (n.parse().unwrap(), t.parse().unwrap());
    let witness =
        example_witness((n, t), CommitmentMode::Flat, Fr::from(2026u64), n as u64, 4).unwrap();
    let (shape, k) = (witness.shape, witness.shape.k);
    let params = setup(k);

    let start = Instant::now();
    let keys = keygen(&params, shape).unwrap();
    let keygen_s = start.elapsed().as_secs_f64();
    let peak_keygen = peak_rss_mib();
    let (cpu0, wall0) = (process_cpu_seconds(), Instant::now());
    let proof = prove(&params, &keys, &witness).unwrap();
    let (prove_cpu, prove_wall) = (process_cpu_seconds() - cpu0, wall0.elapsed().as_secs_f64());
    let start = Instant::now();
    verify(&params, &keys, &witness.instance, &proof).unwrap();
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "record: schnorr-atms flat {n}/{t}: {} cells_per_party={} keygen_s={keygen_s:.1} prove_cpu_s={prove_cpu:.1} prove_wall_s={prove_wall:.1} verify_ms={verify_ms:.1} proof_bytes={} peak_mib_after_keygen={peak_keygen:.0} peak_mib={:.0}",
        keys.stats,
        keys.stats.advice_cells / n,
        proof.len(),
        peak_rss_mib()
    );
}
