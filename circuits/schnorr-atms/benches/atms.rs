//! Schnorr ATMS proving at the sizes of the ATMS note, flat commitment, both verification modes
//! side by side (per-signature ladders and the batch MSM).
//!
//! `cargo bench -p schnorr-atms --bench atms` runs 6/3 and 9/6. `TMS_ATMS_VERIFICATION=batch` (or
//! `per-signature`) runs one mode only. Larger sizes are long on a
//! 2-core machine: `TMS_ATMS_SIZES=21/14,42/28,102/72 cargo bench -p schnorr-atms --bench atms`
//! (2001/1602 likewise, once it fits in memory). Each size prints a `record:` line with k,
//! columns, advice and lookup cells, cells per party, keygen, prove CPU seconds (this process,
//! all threads) and wall seconds, verify, proof bytes and the process's peak memory so far.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use schnorr_atms::{measure_round_trip, prove, setup, CommitmentMode, Verification};
use tms_gadgets::{testing::sizes_from_env, Fr};

/// At most this many halo2-base advice columns beside the custom gates' 16.
const BASE_COLUMNS: usize = 4;

fn bench(c: &mut Criterion) {
    let modes = match std::env::var("TMS_ATMS_VERIFICATION").as_deref() {
        Ok("batch") => vec![Verification::Batch],
        Ok("per-signature") => vec![Verification::PerSignature],
        Ok("both") | Err(_) => vec![Verification::PerSignature, Verification::Batch],
        Ok(other) => panic!("TMS_ATMS_VERIFICATION={other}: use per-signature, batch or both"),
    };
    let mut group = c.benchmark_group("schnorr_atms_flat_prove");
    group.sample_size(10);
    for (n, t) in sizes_from_env("TMS_ATMS_SIZES", "6/3,9/6") {
        for &verification in &modes {
            // The smallest k that holds the custom rows with at most BASE_COLUMNS base columns.
            let witness = schnorr_atms::example_witness(
                (n, t),
                CommitmentMode::Flat,
                verification,
                Fr::from(7u64),
                n as u64,
                BASE_COLUMNS,
            )
            .unwrap();
            let params = setup(witness.shape.k);
            let m = measure_round_trip(&params, &witness).unwrap();
            let label = format!("schnorr-atms flat {verification:?} {n}/{t}");
            println!("{}", m.record(&label));
            let keys = m.keys;
            let id = BenchmarkId::new(format!("{verification:?}"), format!("{n}_{t}"));
            group.bench_function(id, |b| b.iter(|| prove(&params, &keys, &witness).unwrap()));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
