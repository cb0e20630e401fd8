//! The STARK baseline: `stark-bench` built twice (without and with winterfell's `concurrent`
//! feature, which is compile-time) and run as a child per size.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::sys::run_measured;

/// One `stark-bench` JSON line (the fields the report uses).
#[derive(Clone, Debug, serde::Deserialize)]
pub struct StarkLine {
    /// Rayon threads (1 without `concurrent`).
    pub threads: usize,
    /// Whether the binary was built with `concurrent`.
    pub concurrent: bool,
    /// Trace columns.
    pub trace_width: usize,
    /// Trace rows.
    pub trace_length: usize,
    /// Key generation and signing, s (once per process).
    pub keygen_sign_s: f64,
    /// Prove wall seconds.
    pub prove_wall_s: f64,
    /// Prove CPU seconds (getrusage of the process during `prove`).
    pub prove_cpu_s: f64,
    /// Verify milliseconds.
    pub verify_ms: f64,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Conjectured security bits.
    pub conjectured_bits: u32,
    /// Proven security (list decoding) bits.
    pub proven_list_decoding_bits: u32,
    /// Proven security (unique decoding) bits.
    pub proven_unique_decoding_bits: u32,
}

/// Builds `stark-bench` in release, with or without `concurrent`, in its own target directory
/// under `target_root` (so the two builds do not overwrite each other), and returns the binary.
pub fn build(workspace: &Path, target_root: &Path, concurrent: bool) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let dir = target_root.join(if concurrent {
        "tms-report-stark-concurrent"
    } else {
        "tms-report-stark-single"
    });
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(workspace)
        .args([
            "build",
            "--release",
            "-p",
            "stark-baseline",
            "--bin",
            "stark-bench",
            "--message-format=json-render-diagnostics",
            "--target-dir",
        ])
        .arg(&dir);
    if concurrent {
        cmd.args(["--features", "concurrent"]);
    }
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building stark-bench{} failed ({})",
            if concurrent {
                " --features concurrent"
            } else {
                ""
            },
            out.status
        ));
    }
    crate::sys::built_executable(&out.stdout, "stark-bench")
}

/// Runs `bin --n n --t t --reps samples`; returns its lines and the process's peak MiB.
pub fn run(
    bin: &Path,
    n: usize,
    t: usize,
    samples: usize,
) -> Result<(Vec<StarkLine>, f64), String> {
    let child = run_measured(Command::new(bin).args([
        "--n",
        &n.to_string(),
        "--t",
        &t.to_string(),
        "--reps",
        &samples.to_string(),
    ]))?;
    let lines = child
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .map(|l| {
            serde_json::from_str::<StarkLine>(l).map_err(|e| format!("stark-bench output: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if lines.len() != samples {
        return Err(format!(
            "stark-bench printed {} results, expected {samples}",
            lines.len()
        ));
    }
    Ok((lines, child.peak_mib))
}
