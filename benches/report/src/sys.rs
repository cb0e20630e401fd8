//! Process plumbing: running a child and reading its peak memory, CPU time, machine facts.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// What a measured child process left behind.
pub struct ChildRun {
    /// Its standard output.
    pub stdout: String,
    /// Its peak resident set (`ru_maxrss` from `wait4`, this child alone), MiB.
    pub peak_mib: f64,
    /// Wall-clock seconds from spawn to exit.
    pub wall_s: f64,
}

/// Runs `cmd` with stdout captured and stderr passed through, and reads the child's own peak
/// resident memory from `wait4` (per child, unlike `RUSAGE_CHILDREN`, which keeps the maximum
/// over every child reaped so far).
pub fn run_measured(cmd: &mut Command) -> Result<ChildRun, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut stdout)
            .map_err(|e| format!("reading the child's output: {e}"))?;
    }
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `usage` is a plain C struct that wait4 fills in; `child` is ours and not yet reaped
    // (std's `Child` does not wait on drop).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    drop(child);
    if reaped != pid {
        return Err(format!(
            "wait4 failed for {:?}: {}",
            cmd.get_program(),
            std::io::Error::last_os_error()
        ));
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        let how = if libc::WIFSIGNALED(status) {
            format!("killed by signal {}", libc::WTERMSIG(status))
        } else {
            format!("exit status {}", libc::WEXITSTATUS(status))
        };
        return Err(format!("{:?} failed ({how})", cmd.get_program()));
    }
    Ok(ChildRun {
        stdout,
        peak_mib: usage.ru_maxrss as f64 / 1024.0,
        wall_s: start.elapsed().as_secs_f64(),
    })
}

/// User + system CPU seconds of this process (all threads) so far.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return f64::NAN;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A `/proc/self/status` field in MiB (`VmHWM`, `VmRSS`).
pub fn status_mib(key: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The machine the run is on.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Machine {
    /// `/proc/cpuinfo` model name.
    pub cpu: String,
    /// Logical CPUs this process may use.
    pub cpus: usize,
    /// `MemTotal`, GiB.
    pub mem_gib: f64,
    /// `/proc/loadavg` (1, 5, 15 minutes) when read.
    pub load: String,
    /// Kernel release.
    pub kernel: String,
    /// `rustc -V`.
    pub rustc: String,
    /// `RAYON_NUM_THREADS` if set.
    pub rayon_env: Option<String>,
}

impl Machine {
    /// Reads the facts from `/proc` and the environment.
    pub fn read() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map_or("unknown".into(), |(_, v)| v.trim().to_string());
        let mem_kib = std::fs::read_to_string("/proc/meminfo")
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0);
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        Self {
            cpu,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            mem_gib: mem_kib / (1024.0 * 1024.0),
            load: load_average(),
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map_or("unknown".into(), |s| s.trim().to_string()),
            rustc: command_line(Command::new(rustc).arg("-V")).unwrap_or_else(|| "unknown".into()),
            rayon_env: std::env::var("RAYON_NUM_THREADS").ok(),
        }
    }
}

/// `/proc/loadavg`'s three load averages.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first line of a command's stdout, if it ran and succeeded.
pub fn command_line(cmd: &mut Command) -> Option<String> {
    let out = cmd.stderr(Stdio::null()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.lines().next()?.trim().to_string())
}

/// The checkout's commit and how many tracked files differ from it.
pub fn git_state(root: &Path) -> (String, usize) {
    let commit = command_line(
        Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .current_dir(root),
    )
    .unwrap_or_else(|| "unknown (no git)".into());
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .current_dir(root)
        .stderr(Stdio::null())
        .output()
        .map_or(0, |o| String::from_utf8_lossy(&o.stdout).lines().count());
    (commit, dirty)
}

/// UTC date and time now, `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3_600,
        (rem % 3_600) / 60
    )
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// The executable named `name` in the JSON messages (`--message-format=json...`) of a
/// `cargo build`.
pub fn built_executable(cargo_stdout: &[u8], name: &str) -> Result<PathBuf, String> {
    String::from_utf8_lossy(cargo_stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "compiler-artifact" && v["target"]["name"] == name)
        .find_map(|v| v["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| format!("cargo did not report the {name} executable"))
}

/// `1234567` as `1,234,567`.
pub fn thousands(v: usize) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn date_is_well_formed() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-01-01 00:00 UTC".len());
        assert!(d.starts_with("20"));
    }
}
