//! Our column: the `mithril-snark` circuit (halo2-base with custom gates, KZG/SHPLONK over BN254),
//! through its prover API: `example_certificate`, `Example::witness`, `setup` and
//! `measure_round_trip`.
//!
//! `example_certificate` builds its own registration from the seed: the same count of parties,
//! the same depth, (m, k, phi_f) and the same stake distribution (`zipf`: party `i` holds
//! `max(1, 1,000,000 / (i + 1))`, exactly as this bench gives mithril-stm; `uniform`: stakes drawn
//! uniformly from [1, 1000] by each side's own generator). Every party signs, the lotteries are
//! played index by index until k distinct indices are won, and the witness has one signer slot per
//! distinct signer of those k indices.

use std::time::Duration;

use mithril_snark::{example_certificate, measure_round_trip, setup, Parameters, PhiF};

use crate::report::{Measurement, Timings};
use crate::stakes;
use crate::stakes::StakeDistribution;
use crate::usage::{self, timed, Timing};
use crate::Config;

/// At most this many halo2-base advice columns beside the custom gates' (as in mithril-snark's
/// own benches).
const BASE_COLUMNS: usize = 8;

/// `phi_f` as a fraction with denominator 10,000.
fn phi_f(value: f64) -> Result<PhiF, String> {
    let (num, den) = stakes::phi_f_fraction(value)?;
    PhiF::new(num, den).map_err(|e| format!("phi_f: {e}"))
}

/// Runs our circuit once on the certificate `config` describes.
pub fn run(config: &Config) -> Result<Measurement, String> {
    let parameters = Parameters::new(config.m, config.quorum, phi_f(config.phi_f)?)
        .map_err(|e| format!("parameters: {e}"))?;
    let skewed = config.stakes == StakeDistribution::Zipf;
    let (example, certificate_timing) = timed(|| {
        example_certificate(
            parameters,
            config.parties,
            Some(config.depth as usize),
            config.seed,
            skewed,
        )
    });
    let example = example.map_err(|e| format!("example certificate: {e}"))?;
    let witness = example
        .witness(BASE_COLUMNS)
        .map_err(|e| format!("witness: {e}"))?;
    eprintln!(
        "[ours] registration, signatures and certificate {:.1} s: {} signer slots, {} index slots, k = {}",
        certificate_timing.wall.as_secs_f64(),
        witness.shape.signer_slots,
        witness.shape.index_slots,
        witness.shape.k
    );

    let (kzg, setup_timing) = timed(|| setup(witness.shape.k));
    let hwm_reset = usage::reset_vm_hwm();
    let (measured, round_trip) = timed(|| measure_round_trip(&kzg, &witness));
    let round_trip_peak = if hwm_reset {
        usage::vm_hwm_bytes()
    } else {
        None
    };
    let measured = measured.map_err(|e| format!("round trip: {e}"))?;
    let prove = Timing {
        wall: Duration::from_secs_f64(measured.prove_wall_s),
        cpu: Duration::from_secs_f64(measured.prove_cpu_s),
    };
    // measure_round_trip times keygen in wall seconds only: its CPU time is the round trip's less
    // the proof's (the verification's share is milliseconds).
    let keygen = Timing {
        wall: Duration::from_secs_f64(measured.keygen_s),
        cpu: round_trip.cpu.saturating_sub(prove.cpu),
    };
    eprintln!(
        "[ours] keygen {:.1} s, prove {:.1} s wall, {:.1} CPU-s, verify {:.1} ms, peak after keygen {:.0} MiB",
        measured.keygen_s,
        measured.prove_wall_s,
        measured.prove_cpu_s,
        measured.verify_ms,
        measured.peak_after_keygen_mib
    );
    let stats = &measured.keys.stats;
    Ok(Measurement {
        system: "ours (mithril-snark)",
        circuit: format!(
            "2^{} rows, {} advice cols, {} advice cells",
            stats.k, stats.advice_columns, stats.advice_cells
        ),
        signers: witness.shape.signer_slots,
        timings: Timings {
            setup: setup_timing,
            keygen,
            prove,
            verify: Duration::from_secs_f64(measured.verify_ms / 1e3),
        },
        proof_bytes: measured.proof.len(),
        serialized_bytes: measured.proof.len(),
        // The mark covers keygen, proof and verification: an upper bound of the proof's peak.
        prove_peak_bytes: round_trip_peak,
        process_peak_bytes: usage::process_peak_rss_bytes(),
        plutus: None,
    })
}
