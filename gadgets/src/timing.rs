//! Timing what the provers do: CPU seconds of the process and the phase log
//! (`RUST_LOG=tms::phase=debug`). It imports nothing from this crate, so every layer may use it.

use std::fs;

/// User + system CPU seconds of this process so far (all threads), from `/proc/self/stat`; 0 where
/// that file does not exist. Benchmarks quote CPU seconds: wall time on a shared machine is noise.
pub fn process_cpu_seconds() -> f64 {
    let stat = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|v| v.parse().unwrap_or(0.0))
        .collect();
    let ticks = |i: usize| fields.get(i).copied().unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Runs `f` as one phase of keygen or proving and logs its wall and CPU seconds (debug level,
/// target `tms::phase`: `RUST_LOG=tms::phase=debug`). CPU over wall is the phase's parallelism:
/// about 1 for a serial phase whatever the threads (`RAYON_NUM_THREADS`).
pub fn phase<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if !tracing::enabled!(target: "tms::phase", tracing::Level::DEBUG) {
        return f();
    }
    let (start, cpu) = (std::time::Instant::now(), process_cpu_seconds());
    let out = f();
    let (wall, cpu) = (start.elapsed().as_secs_f64(), process_cpu_seconds() - cpu);
    tracing::debug!(
        target: "tms::phase",
        phase = name,
        wall_s = format!("{wall:.3}"),
        cpu_s = format!("{cpu:.2}"),
        threads = format!("{:.2}", cpu / wall.max(1e-9)),
        "phase"
    );
    out
}
