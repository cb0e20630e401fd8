//! One measured run and its markdown table row.

use std::time::Duration;

use crate::usage::Timing;

/// Timings of one run's phases.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// One-time public setup: SRS generation or loading (stands in for a ceremony file).
    pub setup: Timing,
    /// One-time key generation (proving and verifying keys of the circuit).
    pub keygen: Timing,
    /// One proof, from the collected signatures to the proof bytes.
    pub prove: Timing,
    /// One verification (median of repeated runs).
    pub verify: Duration,
}

/// What one system measured on one certificate.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The system's name.
    pub system: &'static str,
    /// Circuit size as the system reports it (rows, degree).
    pub circuit: String,
    /// Number of distinct signatures handed to the prover.
    pub signers: usize,
    /// Phase timings.
    pub timings: Timings,
    /// Bytes of the proof itself.
    pub proof_bytes: usize,
    /// Bytes of the proof as the system serialises it for transport (with its envelope).
    pub serialized_bytes: usize,
    /// Peak resident memory during proving (VmHWM reset before the prover), if measurable.
    pub prove_peak_bytes: Option<u64>,
    /// Peak resident memory of the whole process (`ru_maxrss`).
    pub process_peak_bytes: u64,
    /// The Plutus verifier's budget on the honest certificate, where the system has one.
    pub plutus: Option<PlutusCost>,
}

/// A Plutus transaction's execution limits (mainnet protocol parameters `maxTxExecutionUnits`).
pub const TX_CPU_STEPS: i64 = 10_000_000_000;
/// See [`TX_CPU_STEPS`].
pub const TX_MEMORY_UNITS: i64 = 16_500_000;

/// What verifying one certificate costs a Plutus script (evaluated offline with `uplc`).
#[derive(Clone, Copy, Debug)]
pub struct PlutusCost {
    /// The protocol version the budget was evaluated at.
    pub pv: u16,
    /// CPU steps spent.
    pub cpu: i64,
    /// Memory units spent.
    pub mem: i64,
    /// Bytes of the script (flat, CBOR-wrapped).
    pub script_bytes: usize,
}

impl PlutusCost {
    /// CPU steps as a percentage of one transaction's limit.
    pub fn cpu_percent(&self) -> f64 {
        100.0 * self.cpu as f64 / TX_CPU_STEPS as f64
    }

    /// Memory units as a percentage of one transaction's limit.
    pub fn mem_percent(&self) -> f64 {
        100.0 * self.mem as f64 / TX_MEMORY_UNITS as f64
    }

    fn cell(&self) -> String {
        format!(
            "{:.1}% / {:.1}% ({} B, PV {})",
            self.cpu_percent(),
            self.mem_percent(),
            self.script_bytes,
            self.pv
        )
    }
}

/// The markdown table header matching [`Measurement::row`].
pub const HEADER: &str = "| system | k | m | phi_f | parties | stakes | depth | signers | circuit | setup s | keygen s (CPU-s) | prove CPU-s | prove wall s | proof B (serialised) | verify ms | prove peak MiB | process peak MiB | Plutus CPU / mem of a tx (script) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

fn mib(bytes: u64) -> String {
    format!("{:.0}", bytes as f64 / (1024.0 * 1024.0))
}

impl Measurement {
    /// One markdown table row, the certificate's parameters taken from `config`.
    pub fn row(&self, config: &crate::Config) -> String {
        let t = &self.timings;
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.1} ({:.1}) | {:.1} | {:.1} | {} ({}) | {:.1} | {} | {} | {} |",
            self.system,
            config.quorum,
            config.m,
            config.phi_f,
            config.parties,
            config.stakes.name(),
            config.depth,
            self.signers,
            self.circuit,
            t.setup.wall.as_secs_f64(),
            t.keygen.wall.as_secs_f64(),
            t.keygen.cpu.as_secs_f64(),
            t.prove.cpu.as_secs_f64(),
            t.prove.wall.as_secs_f64(),
            self.proof_bytes,
            self.serialized_bytes,
            t.verify.as_secs_f64() * 1e3,
            self.prove_peak_bytes.map(mib).unwrap_or_else(|| "-".into()),
            mib(self.process_peak_bytes),
            self.plutus.map_or("-".to_string(), |p| p.cell()),
        )
    }

    /// The same measurement as one JSON object on one line (`--json`), for tools such as
    /// `tms-report` that read it back: times in seconds (verify in milliseconds), memory in MiB.
    pub fn json(&self, config: &crate::Config) -> String {
        let t = &self.timings;
        let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        let text = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        format!(
            "{{\"system\":\"{}\",\"quorum\":{},\"m\":{},\"phi_f\":{},\"parties\":{},\"stakes\":\"{}\",\"depth\":{},\"seed\":{},\"signers\":{},\"circuit\":\"{}\",\"setup_s\":{},\"keygen_s\":{},\"keygen_cpu_s\":{},\"prove_cpu_s\":{},\"prove_wall_s\":{},\"proof_bytes\":{},\"serialized_bytes\":{},\"verify_ms\":{},\"prove_peak_mib\":{},\"process_peak_mib\":{},\"plutus\":{}}}",
            text(self.system),
            config.quorum,
            config.m,
            config.phi_f,
            config.parties,
            config.stakes.name(),
            config.depth,
            config.seed,
            self.signers,
            text(&self.circuit),
            t.setup.wall.as_secs_f64(),
            t.keygen.wall.as_secs_f64(),
            t.keygen.cpu.as_secs_f64(),
            t.prove.cpu.as_secs_f64(),
            t.prove.wall.as_secs_f64(),
            self.proof_bytes,
            self.serialized_bytes,
            t.verify.as_secs_f64() * 1e3,
            self.prove_peak_bytes.map_or("null".to_string(), |b| mib(b).to_string()),
            mib(self.process_peak_bytes),
            self.plutus.map_or("null".to_string(), |p| format!(
                "{{\"pv\":{},\"cpu\":{},\"mem\":{},\"script_bytes\":{}}}",
                p.pv, p.cpu, p.mem, p.script_bytes
            )),
        )
    }
}
