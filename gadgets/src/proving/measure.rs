//! One timed round trip (keygen, a proof, its verification) for any circuit, and the `record:`
//! line every benchmark prints: keygen apart from proving, prove CPU and wall seconds, verify
//! time, proof bytes, peak memory.

use std::time::Instant;

use halo2_base::halo2_proofs::plonk::Circuit;
use serde::{de::DeserializeOwned, Serialize};

use super::{
    keys::{CircuitKeys, KeyedShape},
    stats::{peak_rss_mib, process_cpu_seconds},
};
use crate::Fr;

/// What one round trip cost.
pub struct MeasuredRoundTrip<S, C: Circuit<Fr>> {
    /// The keys.
    pub keys: CircuitKeys<S, C>,
    /// The proof.
    pub proof: Vec<u8>,
    /// Keygen wall seconds.
    pub keygen_s: f64,
    /// Prove CPU seconds of this process (all threads).
    pub prove_cpu_s: f64,
    /// Prove wall seconds.
    pub prove_wall_s: f64,
    /// Verify milliseconds.
    pub verify_ms: f64,
    /// Peak resident memory after keygen, MiB.
    pub peak_after_keygen_mib: f64,
}

impl<S: KeyedShape, C: Circuit<Fr>> MeasuredRoundTrip<S, C>
where
    C::Params: Serialize + DeserializeOwned + Clone,
{
    /// The `record:` line of the benchmarks (peak memory read now).
    pub fn record(&self, label: &str) -> String {
        format!(
            "record: {label}: {} {} keygen_s={:.1} prove_cpu_s={:.1} prove_wall_s={:.1} verify_ms={:.1} proof_bytes={} peak_mib_after_keygen={:.0} peak_mib={:.0}",
            self.keys.stats,
            self.keys.shape.record_detail(&self.keys.stats),
            self.keygen_s,
            self.prove_cpu_s,
            self.prove_wall_s,
            self.verify_ms,
            self.proof.len(),
            self.peak_after_keygen_mib,
            peak_rss_mib()
        )
    }
}

/// Runs `keygen`, `prove` and `verify` once, timing each (prove in CPU and wall seconds).
pub fn measure_round_trip<S, C: Circuit<Fr>, E>(
    keygen: impl FnOnce() -> Result<CircuitKeys<S, C>, E>,
    prove: impl FnOnce(&CircuitKeys<S, C>) -> Result<Vec<u8>, E>,
    verify: impl FnOnce(&CircuitKeys<S, C>, &[u8]) -> Result<(), E>,
) -> Result<MeasuredRoundTrip<S, C>, E> {
    let start = Instant::now();
    let keys = keygen()?;
    let keygen_s = start.elapsed().as_secs_f64();
    let peak_after_keygen_mib = peak_rss_mib();
    let (cpu0, wall0) = (process_cpu_seconds(), Instant::now());
    let proof = prove(&keys)?;
    let (prove_cpu_s, prove_wall_s) = (process_cpu_seconds() - cpu0, wall0.elapsed().as_secs_f64());
    let start = Instant::now();
    verify(&keys, &proof)?;
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(MeasuredRoundTrip {
        keys,
        proof,
        keygen_s,
        prove_cpu_s,
        prove_wall_s,
        verify_ms,
        peak_after_keygen_mib,
    })
}
