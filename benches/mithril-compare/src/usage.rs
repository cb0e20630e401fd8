//! Process resource accounting: CPU time from `getrusage`, peak resident memory from
//! `/proc/self/status` (`VmHWM`, resettable through `/proc/self/clear_refs`) and `ru_maxrss`.

use std::time::{Duration, Instant};

/// User plus system CPU time consumed so far by every thread of this process.
pub fn process_cpu() -> Duration {
    let usage = rusage(libc::RUSAGE_SELF);
    timeval(usage.ru_utime) + timeval(usage.ru_stime)
}

/// Peak resident set size of this process since it started, in bytes (`ru_maxrss`).
pub fn process_peak_rss_bytes() -> u64 {
    // Linux reports ru_maxrss in KiB.
    (rusage(libc::RUSAGE_SELF).ru_maxrss as u64) * 1024
}

/// Resets the kernel's peak-RSS mark (`VmHWM`) of this process to its current RSS, so that a
/// later [`vm_hwm_bytes`] reads the peak of one phase. Returns false where the kernel refuses.
pub fn reset_vm_hwm() -> bool {
    std::fs::write("/proc/self/clear_refs", b"5").is_ok()
}

/// The kernel's peak-RSS mark (`VmHWM`) of this process, in bytes, if `/proc` reports it.
pub fn vm_hwm_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Wall and CPU time of one phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Elapsed wall-clock time.
    pub wall: Duration,
    /// Process CPU time (user + system, every thread) spent in the phase.
    pub cpu: Duration,
}

/// Runs `f`, measuring its wall time and the CPU time the whole process spent meanwhile.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Timing) {
    let cpu_before = process_cpu();
    let start = Instant::now();
    let value = f();
    let wall = start.elapsed();
    let cpu = process_cpu().saturating_sub(cpu_before);
    (value, Timing { wall, cpu })
}

fn rusage(who: libc::c_int) -> libc::rusage {
    // SAFETY: getrusage only writes into the zero-initialised struct we hand it.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    }
}

fn timeval(tv: libc::timeval) -> Duration {
    Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64)
}
