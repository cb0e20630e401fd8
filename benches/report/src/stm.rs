//! mithril-stm 0.13's SNARK and our circuit on its stack (`mithril-jubjub`, the Cardano backend),
//! measured through `benches/mithril-compare` (a standalone crate with its own lock file, so that
//! mithril-stm never enters the root workspace's build): built once, then run as a child per
//! sample (`--system stm|ours-cardano --child --json`), each child proving one certificate.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::sys::run_measured;
use crate::MithrilCase;

/// One `mithril-compare --json` line (the fields the report uses).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct StmLine {
    /// Distinct signatures handed to the aggregator.
    pub signers: usize,
    /// The circuit as mithril-stm reports it (degree).
    pub circuit: String,
    /// Reading or generating the (unsafe, cached) SRS, s.
    pub setup_s: f64,
    /// Key generation, s.
    pub keygen_s: f64,
    /// The whole aggregation call (collected signatures to proof), CPU s.
    pub prove_cpu_s: f64,
    /// The same, wall s.
    pub prove_wall_s: f64,
    /// Bytes of the halo2 proof.
    pub proof_bytes: usize,
    /// Bytes of the serialised `SnarkProof` (with its envelope).
    pub serialized_bytes: usize,
    /// Verification, ms (median of mithril-compare's repetitions).
    pub verify_ms: f64,
    /// The Plutus verifier's budget on the honest certificate (ours on Cardano only).
    #[serde(default)]
    pub plutus: Option<PlutusCost>,
}

/// What verifying one certificate costs a Plutus script (`mithril-compare`'s `plutus` object).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct PlutusCost {
    /// The protocol version of the evaluation.
    pub pv: u16,
    /// CPU steps.
    pub cpu: i64,
    /// Memory units.
    pub mem: i64,
    /// Script bytes (flat, CBOR-wrapped).
    pub script_bytes: usize,
}

impl PlutusCost {
    /// One table cell: CPU and memory as shares of a transaction's limits (mainnet
    /// `maxTxExecutionUnits`: 10 G steps, 16.5 M units), and the script's bytes.
    pub fn cell(&self) -> String {
        format!(
            "{:.1}% / {:.1}% ({} B, PV {})",
            100.0 * self.cpu as f64 / 1e10,
            100.0 * self.mem as f64 / 1.65e7,
            crate::render::thousands(self.script_bytes),
            self.pv
        )
    }
}

/// Builds `mithril-compare` in release in its own target directory under `target_root` and
/// returns the binary. Its first build compiles mithril-stm's midnight stack: minutes.
pub fn build(workspace: &Path, target_root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let manifest = workspace.join("benches/mithril-compare/Cargo.toml");
    let out = Command::new(&cargo)
        .current_dir(workspace)
        .args(["build", "--release", "--manifest-path"])
        .arg(&manifest)
        .args(["--message-format=json-render-diagnostics", "--target-dir"])
        .arg(target_root.join("tms-report-mithril-compare"))
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !out.status.success() {
        return Err(format!("building mithril-compare failed ({})", out.status));
    }
    crate::sys::built_executable(&out.stdout, "mithril-compare")
}

/// Runs `samples` children of `system` (`stm` or `ours-cardano`) on `case` (every child a fresh
/// process: keygen and one proof); returns their lines and the largest peak MiB among them.
pub fn run(
    bin: &Path,
    system: &str,
    case: &MithrilCase,
    samples: usize,
) -> Result<(Vec<StmLine>, f64, f64), String> {
    let mut lines = vec![];
    let (mut peak, mut wall) = (0.0f64, 0.0);
    for _ in 0..samples {
        let child = run_measured(Command::new(bin).args([
            "--quorum",
            &case.quorum.to_string(),
            "--m",
            &case.m.to_string(),
            "--phi-f",
            &case.phi_f.to_string(),
            "--parties",
            &case.parties.to_string(),
            "--depth",
            &case.depth.to_string(),
            "--stakes",
            "zipf",
            "--seed",
            &case.seed.to_string(),
            "--system",
            system,
            "--child",
            "--json",
        ]))?;
        let line = child
            .stdout
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('{'))
            .ok_or("mithril-compare printed no result")?;
        lines.push(
            serde_json::from_str::<StmLine>(line)
                .map_err(|e| format!("mithril-compare output: {e}"))?,
        );
        peak = peak.max(child.peak_mib);
        wall += child.wall_s;
    }
    Ok((lines, peak, wall))
}
