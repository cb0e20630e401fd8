//! `tms-report`: measures every threshold-multisignature circuit of the workspace and the STARK
//! baseline at shared committee sizes and writes `benches/REPORT.md` with SVG charts.
//!
//! ```sh
//! cargo run --release -p tms-report -- [--sizes 8,16,32,64] [--systems schnorr,schnorr-merkle,bls,stark]
//!                                      [--quick | --samples R] [--out FILE] [--charts DIR]
//!                                      [--results FILE] [--render-only]
//! ```
//!
//! Each (system, size) point runs in its own child process: SNARKs through this binary's
//! hidden `__snark` subcommand, the STARK through `stark-bench` built once without and once with
//! winterfell's `concurrent` feature. A child's peak memory is read with `wait4`, so it is that
//! run's own. See `benches/report/README.md`.

mod charts;
mod render;
mod snark;
mod stark;
mod sys;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use sys::{median, Machine};

/// A measured system (one line in every chart).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// The STARK baseline, winterfell without `concurrent`: one thread.
    StarkSingle,
    /// The STARK baseline with winterfell's `concurrent` feature (rayon).
    StarkConcurrent,
    /// Schnorr ATMS, flat commitment (every member has a slot).
    SchnorrFlat,
    /// Schnorr ATMS, Merkle commitment with t signer slots.
    SchnorrMerkle,
    /// BLS ATMS, membership strategy chosen by the cost model.
    Bls,
}

impl System {
    /// Every system, in run order.
    pub const ALL: [System; 5] = [
        System::StarkSingle,
        System::StarkConcurrent,
        System::SchnorrFlat,
        System::SchnorrMerkle,
        System::Bls,
    ];

    /// Short name (flags, JSON, progress lines).
    pub fn key(self) -> &'static str {
        match self {
            System::StarkSingle => "stark-single",
            System::StarkConcurrent => "stark-concurrent",
            System::SchnorrFlat => "schnorr-flat",
            System::SchnorrMerkle => "schnorr-merkle",
            System::Bls => "bls",
        }
    }

    /// Name in tables and chart legends.
    pub fn label(self) -> &'static str {
        match self {
            System::StarkSingle => "STARK baseline, 1 thread",
            System::StarkConcurrent => "STARK baseline, concurrent",
            System::SchnorrFlat => "Schnorr ATMS, flat",
            System::SchnorrMerkle => "Schnorr ATMS, Merkle",
            System::Bls => "BLS ATMS, chosen strategy",
        }
    }

    /// Whether this is a Halo2 circuit (measured through `__snark`).
    pub fn is_snark(self) -> bool {
        !matches!(self, System::StarkSingle | System::StarkConcurrent)
    }

    fn from_key(key: &str) -> Option<System> {
        System::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// One measured (system, size) point.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// The system.
    pub system: System,
    /// Committee size N.
    pub n: usize,
    /// Threshold t (= number of signers).
    pub t: usize,
    /// Prover threads.
    pub threads: usize,
    /// Prove wall seconds per sample.
    pub prove_wall_s: Vec<f64>,
    /// Prove CPU seconds per sample.
    pub prove_cpu_s: Vec<f64>,
    /// Verify ms per sample.
    pub verify_ms: Vec<f64>,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// Peak resident memory of the child process (whole run), MiB.
    pub peak_mib: f64,
    /// One-time work before proving (SNARK: SRS load + keygen; STARK: key generation and
    /// signing), s.
    pub one_time_s: f64,
    /// Circuit or trace shape.
    pub shape: String,
    /// Security of the proof.
    pub security: String,
    /// Wall seconds of the whole child process.
    pub child_wall_s: f64,
}

impl Point {
    /// Median prove wall seconds.
    pub fn prove_wall(&self) -> f64 {
        median(&self.prove_wall_s)
    }
    /// Median prove CPU seconds.
    pub fn prove_cpu(&self) -> f64 {
        median(&self.prove_cpu_s)
    }
    /// Median verify ms.
    pub fn verify(&self) -> f64 {
        median(&self.verify_ms)
    }
}

/// Everything one run measured (also written as JSON so the report can be re-rendered).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Results {
    /// The command line.
    pub command: String,
    /// Start, UTC.
    pub started: String,
    /// Wall seconds of the whole run.
    pub total_s: f64,
    /// The machine.
    pub machine: Machine,
    /// Load averages at the end.
    pub load_end: String,
    /// Commit of the checkout.
    pub commit: String,
    /// Tracked files that differed from the commit at the start.
    pub dirty_files: usize,
    /// Samples per point.
    pub samples: usize,
    /// Sizes asked for.
    pub sizes: Vec<usize>,
    /// Systems asked for.
    pub systems: Vec<System>,
    /// The measured points.
    pub points: Vec<Point>,
    /// Points that failed, with the reason.
    pub failures: Vec<String>,
}

const USAGE: &str = "\
usage: tms-report [--sizes 8,16,32,64] [--systems schnorr,schnorr-merkle,bls,stark]
                  [--quick | --samples R] [--out FILE] [--charts DIR] [--results FILE]
                  [--render-only]

  --sizes       committee sizes N (t = N/2 sign); default 8,16,32,64
  --systems     any of schnorr (= schnorr-flat), schnorr-merkle, bls, stark (= stark-single and
                stark-concurrent), stark-single, stark-concurrent, all; default all
  --quick       one sample per point (same as --samples 1)
  --samples R   proofs per point, median reported; default 3
  --out         the report; default benches/REPORT.md
  --charts      directory of the SVG charts; default benches/report
  --results     raw results (JSON); default benches/report/results.json
  --render-only re-render the report and charts from --results without measuring";

struct Options {
    sizes: Vec<usize>,
    systems: Vec<System>,
    samples: usize,
    out: PathBuf,
    charts: PathBuf,
    results: PathBuf,
    render_only: bool,
}

fn parse_list<T>(
    value: &str,
    item: impl Fn(&str) -> Result<Vec<T>, String>,
) -> Result<Vec<T>, String> {
    let mut all = vec![];
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        all.extend(item(part)?);
    }
    if all.is_empty() {
        return Err(format!("empty list {value:?}"));
    }
    Ok(all)
}

fn parse_options(args: &[String], root: &Path) -> Result<Options, String> {
    let mut o = Options {
        sizes: vec![8, 16, 32, 64],
        systems: System::ALL.to_vec(),
        samples: 3,
        out: root.join("benches/REPORT.md"),
        charts: root.join("benches/report"),
        results: root.join("benches/report/results.json"),
        render_only: false,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--quick" => o.samples = 1,
            "--render-only" => o.render_only = true,
            "--samples" => {
                let v = value()?;
                o.samples = v
                    .parse()
                    .ok()
                    .filter(|s| (1..=100).contains(s))
                    .ok_or_else(|| format!("--samples {v}: expected a number in 1..=100"))?;
            }
            "--sizes" => {
                o.sizes = parse_list(&value()?, |s| {
                    s.parse::<usize>()
                        .ok()
                        .filter(|n| (4..=4096).contains(n))
                        .map(|n| vec![n])
                        .ok_or_else(|| {
                            format!("--sizes: {s:?} is not a committee size in 4..=4096")
                        })
                })?;
                o.sizes.sort_unstable();
                o.sizes.dedup();
            }
            "--systems" => {
                o.systems = parse_list(&value()?, |s| {
                    match s {
                    "all" => Ok(System::ALL.to_vec()),
                    "schnorr" => Ok(vec![System::SchnorrFlat]),
                    "stark" => Ok(vec![System::StarkSingle, System::StarkConcurrent]),
                    _ => System::from_key(s).map(|s| vec![s]).ok_or_else(|| {
                        format!("--systems: unknown system {s:?} (schnorr, schnorr-merkle, bls, stark, stark-single, stark-concurrent, all)")
                    }),
                }
                })?;
                o.systems.sort_unstable();
                o.systems.dedup();
            }
            "--out" => o.out = value()?.into(),
            "--charts" => o.charts = value()?.into(),
            "--results" => o.results = value()?.into(),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if o.systems.iter().any(|s| !s.is_snark()) {
        for &n in &o.sizes {
            stark_baseline::check_parameters(n, n / 2)
                .map_err(|e| format!("--sizes: the STARK cannot take N = {n}: {e}"))?;
        }
    }
    Ok(o)
}

/// The hidden child mode: `__snark SYSTEM N SAMPLES`, one JSON line on stdout.
fn snark_child(args: &[String]) -> Result<(), String> {
    let [system, n, samples] = args else {
        return Err("usage: tms-report __snark SYSTEM N SAMPLES".into());
    };
    let system = System::from_key(system)
        .filter(|s| s.is_snark())
        .ok_or_else(|| format!("__snark: not a SNARK system: {system}"))?;
    let n: usize = n.parse().map_err(|_| format!("__snark: bad N {n}"))?;
    let samples: usize = samples
        .parse()
        .map_err(|_| format!("__snark: bad sample count {samples}"))?;
    let run = snark::measure(system, n, samples)?;
    println!(
        "{}",
        serde_json::to_string(&run).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// SNARK security statement (the same for every circuit: KZG over BN254, test SRS).
pub const SNARK_SECURITY: &str = "KZG/BN254, ~100 bits; insecure test SRS";

fn measure_snark(system: System, n: usize, samples: usize) -> Result<Point, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let child = sys::run_measured(Command::new(exe).args([
        "__snark",
        system.key(),
        &n.to_string(),
        &samples.to_string(),
    ]))?;
    let line = child
        .stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or("the measuring child printed no result")?;
    let run: snark::SnarkRun =
        serde_json::from_str(line).map_err(|e| format!("child output: {e}"))?;
    Ok(Point {
        system,
        n,
        t: run.t,
        threads: run.threads,
        prove_wall_s: run.prove_wall_s,
        prove_cpu_s: run.prove_cpu_s,
        verify_ms: run.verify_ms,
        proof_bytes: run.proof_bytes,
        peak_mib: child.peak_mib,
        one_time_s: run.setup_s + run.keygen_s,
        shape: format!(
            "{}; k={}, {} advice + {} lookup cells, {} advice / {} lookup / {} fixed cols; keygen peak {:.0} MiB",
            run.variant,
            run.k,
            render::thousands(run.advice_cells),
            render::thousands(run.lookup_cells),
            run.advice_columns,
            run.lookup_columns,
            run.fixed_columns,
            run.peak_after_keygen_mib
        ),
        security: SNARK_SECURITY.into(),
        child_wall_s: child.wall_s,
    })
}

fn measure_stark(
    system: System,
    bin: &Path,
    n: usize,
    samples: usize,
    started: Instant,
) -> Result<Point, String> {
    let t = n / 2;
    let (lines, peak_mib) = stark::run(bin, n, t, samples)?;
    let first = &lines[0];
    if first.concurrent != (system == System::StarkConcurrent) {
        return Err(format!(
            "{} is not the {} build",
            bin.display(),
            system.key()
        ));
    }
    Ok(Point {
        system,
        n,
        t,
        threads: first.threads,
        prove_wall_s: lines.iter().map(|l| l.prove_wall_s).collect(),
        prove_cpu_s: lines.iter().map(|l| l.prove_cpu_s).collect(),
        verify_ms: lines.iter().map(|l| l.verify_ms).collect(),
        proof_bytes: first.proof_bytes,
        peak_mib,
        one_time_s: first.keygen_sign_s,
        shape: format!(
            "trace {} cols x {} rows",
            first.trace_width,
            render::thousands(first.trace_length)
        ),
        security: format!(
            "{} bits conjectured, {} proven (list dec.), {} (unique dec.)",
            first.conjectured_bits,
            first.proven_list_decoding_bits,
            first.proven_unique_decoding_bits
        ),
        child_wall_s: started.elapsed().as_secs_f64(),
    })
}

fn save(results: &Results, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let json = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    std::fs::write(path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))
}

fn run(args: &[String]) -> Result<bool, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let o = match parse_options(args, &root) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return Ok(true);
        }
        Err(e) => return Err(format!("{e} (tms-report --help for usage)")),
    };
    if o.render_only {
        let text = std::fs::read_to_string(&o.results)
            .map_err(|e| format!("{}: {e}", o.results.display()))?;
        let results: Results =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", o.results.display()))?;
        render::write_all(&results, &o.out, &o.charts, &root)?;
        return Ok(results.failures.is_empty());
    }

    let clock = Instant::now();
    let (commit, dirty_files) = sys::git_state(&root);
    let mut results = Results {
        command: std::iter::once("tms-report".to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        started: sys::utc_now(),
        total_s: 0.0,
        machine: Machine::read(),
        load_end: String::new(),
        commit,
        dirty_files,
        samples: o.samples,
        sizes: o.sizes.clone(),
        systems: o.systems.clone(),
        points: vec![],
        failures: vec![],
    };
    eprintln!(
        "tms-report: {} system(s) x {} size(s), {} sample(s) per point; machine {} ({} CPUs), load {}",
        o.systems.len(),
        o.sizes.len(),
        o.samples,
        results.machine.cpu,
        results.machine.cpus,
        results.machine.load
    );

    // The STARK binaries, built before anything is timed.
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let target_root = exe
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| root.join("target"), Path::to_path_buf);
    let mut stark_bins = std::collections::HashMap::new();
    for system in [System::StarkSingle, System::StarkConcurrent] {
        if o.systems.contains(&system) {
            let concurrent = system == System::StarkConcurrent;
            eprintln!(
                "tms-report: building stark-bench{}",
                if concurrent {
                    " --features concurrent"
                } else {
                    ""
                }
            );
            stark_bins.insert(system, stark::build(&root, &target_root, concurrent)?);
        }
    }

    let total = o.systems.len() * o.sizes.len();
    let mut done = 0;
    for &system in &o.systems {
        for &n in &o.sizes {
            done += 1;
            eprintln!(
                "[{done}/{total}] {} N={n} t={} ({} sample(s)), {:.0} s into the run",
                system.key(),
                n / 2,
                o.samples,
                clock.elapsed().as_secs_f64()
            );
            let point_clock = Instant::now();
            let point = if system.is_snark() {
                measure_snark(system, n, o.samples)
            } else {
                measure_stark(system, &stark_bins[&system], n, o.samples, point_clock)
            };
            match point {
                Ok(p) => {
                    eprintln!(
                        "[{done}/{total}] {} N={n}: prove {:.2} s wall / {:.2} s CPU, verify {:.2} ms, {} B, peak {:.0} MiB ({:.0} s)",
                        system.key(),
                        p.prove_wall(),
                        p.prove_cpu(),
                        p.verify(),
                        p.proof_bytes,
                        p.peak_mib,
                        point_clock.elapsed().as_secs_f64()
                    );
                    results.points.push(p);
                }
                Err(e) => {
                    eprintln!("[{done}/{total}] {} N={n} FAILED: {e}", system.key());
                    results
                        .failures
                        .push(format!("{} N={n}: {e}", system.key()));
                }
            }
            results.total_s = clock.elapsed().as_secs_f64();
            save(&results, &o.results)?;
        }
    }
    results.load_end = sys::load_average();
    results.total_s = clock.elapsed().as_secs_f64();
    save(&results, &o.results)?;
    render::write_all(&results, &o.out, &o.charts, &root)?;
    eprintln!(
        "tms-report: wrote {} and the charts in {} ({:.0} s)",
        o.out.display(),
        o.charts.display(),
        results.total_s
    );
    Ok(results.failures.is_empty())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("__snark") {
        return match snark_child(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tms-report __snark: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("tms-report: some points failed (listed in the report)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("tms-report: {e}");
            ExitCode::from(2)
        }
    }
}
