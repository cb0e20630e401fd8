//! The large committee of the ATMS note, one keygen / prove / verify run (ignored: minutes).
//!
//! ```sh
//! /usr/bin/time -v cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! TMS_ATMS_LARGE=1001/801 cargo test --release -p schnorr-atms --test large -- --ignored --nocapture
//! ```
//! Prints a `record:` line: k, columns, cells, cells per party, keygen, prove (CPU seconds of
//! this process and wall), verify, proof bytes, and the process's peak resident memory.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schnorr_atms::{
    keygen, min_k, prove, setup, verify, AtmsShape, AtmsWitness, Certificate, CommitmentMode,
    Committee,
};
use tms_gadgets::{
    hash::RescuePrime,
    schnorr::SigningKey,
    testing::{peak_rss_mib, process_cpu_seconds},
    Fr,
};

#[test]
#[ignore = "minutes and several GiB: see the module docs for the command"]
fn large_committee_proves_and_verifies() {
    let spec = std::env::var("TMS_ATMS_LARGE").unwrap_or_else(|_| "2001/1602".into());
    let (n, t) = spec.split_once('/').expect("n/t");
    let (n, t): (usize, usize) = (n.parse().unwrap(), t.parse().unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let sks: Vec<SigningKey> = (0..n).map(|_| SigningKey::random(&mut rng)).collect();
    let committee = Committee::new(sks.iter().map(SigningKey::verifying_key).collect()).unwrap();
    let message = Fr::from(2026u64);
    let sigs: Vec<_> = sks[..t]
        .iter()
        .map(|sk| (sk.verifying_key(), sk.sign(&RescuePrime, message).unwrap()))
        .collect();
    let cert = Certificate::aggregate(&committee, message, &sigs).unwrap();
    let probe = AtmsShape {
        n,
        mode: CommitmentMode::Flat,
        k: 20,
    };
    let k = min_k(&probe, 4).unwrap();
    let shape = AtmsShape { k, ..probe };
    let witness = AtmsWitness::new(shape, &committee, &cert, t as u64).unwrap();
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
