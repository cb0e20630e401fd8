//! SNARK-Mithril proving at the quorums of the design notes (m = 10,000, phi_f = 0.2, registration
//! tree of depth 13, the mithril-stm anchor's setting).
//!
//! `cargo bench -p mithril-snark --bench mithril` runs quorum 3 with 64 parties. Larger runs:
//! `TMS_MITHRIL_SIZES=256/32,1024/256 cargo bench -p mithril-snark --bench mithril` (`parties/quorum`).
//! Each size prints a `record:` line (k, columns, advice and lookup cells, custom rows, signer
//! and index slots, keygen, prove CPU seconds of this process and wall seconds, verify, proof
//! bytes, peak memory so far) before criterion times `prove`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mithril_snark::{example_certificate, measure_round_trip, prove, setup, Parameters, PhiF};
use tms_gadgets::testing::sizes_from_env;

/// At most this many halo2-base advice columns beside the custom gates' 16.
const BASE_COLUMNS: usize = 8;
/// Registration tree depth (mainnet: about 3,000 pools).
const DEPTH: usize = 13;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("mithril_prove");
    group.sample_size(10);
    for (parties, quorum) in sizes_from_env("TMS_MITHRIL_SIZES", "64/3") {
        let params = Parameters::new(10_000, quorum as u64, PhiF::new(1, 5).unwrap()).unwrap();
        let example = example_certificate(params, parties, Some(DEPTH), 7, false).unwrap();
        let witness = example.witness(BASE_COLUMNS).unwrap();
        let kzg = setup(witness.shape.k);
        let m = measure_round_trip(&kzg, &witness).unwrap();
        println!(
            "{}",
            m.record(&format!("mithril parties={parties} quorum={quorum}"))
        );
        let keys = m.keys;
        group.bench_function(
            BenchmarkId::new("quorum", format!("{quorum}_of_{parties}_parties")),
            |b| b.iter(|| prove(&kzg, &keys, &witness).unwrap()),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
