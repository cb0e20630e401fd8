//! `tms-report`: measures every threshold-multisignature circuit of the workspace and the STARK
//! baseline at shared committee sizes and writes `benches/REPORT.md` with SVG charts.
//!
//! ```sh
//! cargo run --release -p tms-report -- [--quick | --samples R] [--systems ...] [--sizes ...]
//!                                      [--bls-sizes ...] [--points ...] [--mithril ...]
//!                                      [--no-gas] [--out FILE] [--charts DIR]
//!                                      [--results FILE] [--render-only]
//! ```
//!
//! Each (system, size) point runs in its own child process: the Halo2 circuits through this
//! binary's hidden `__snark` subcommand, the STARK through `stark-bench` built once without and
//! once with winterfell's `concurrent` feature, mithril-stm through `benches/mithril-compare`. A
//! child's peak memory is read with `wait4`, so it is that run's own. See
//! `benches/report/README.md`.

mod charts;
mod render;
mod snark;
mod stark;
mod stm;
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
    /// Our SNARK-Mithril circuit (`circuits/mithril`).
    Mithril,
    /// mithril-stm 0.13's SNARK (through `benches/mithril-compare`).
    MithrilStm,
    /// Our SNARK-Mithril on mithril-stm's stack, the Cardano backend (`circuits/mithril-jubjub`,
    /// through `benches/mithril-compare`), with its Plutus verifier's budget.
    MithrilCardano,
    /// Our mithril-stm mode (`mithril_jubjub::stm`, the Cardano backend) proving mithril-stm's
    /// own certificate: its registration and its signers' single signatures (through
    /// `benches/mithril-compare --system ours-stm`).
    MithrilOursStm,
}

impl System {
    /// Every system, in run order.
    pub const ALL: [System; 9] = [
        System::StarkSingle,
        System::StarkConcurrent,
        System::SchnorrFlat,
        System::SchnorrMerkle,
        System::Bls,
        System::Mithril,
        System::MithrilStm,
        System::MithrilCardano,
        System::MithrilOursStm,
    ];

    /// Short name (flags, JSON, progress lines).
    pub fn key(self) -> &'static str {
        match self {
            System::StarkSingle => "stark-single",
            System::StarkConcurrent => "stark-concurrent",
            System::SchnorrFlat => "schnorr-flat",
            System::SchnorrMerkle => "schnorr-merkle",
            System::Bls => "bls",
            System::Mithril => "mithril",
            System::MithrilStm => "mithril-stm",
            System::MithrilCardano => "mithril-cardano",
            System::MithrilOursStm => "mithril-ours-stm",
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
            System::Mithril => "SNARK-Mithril (ours)",
            System::MithrilStm => "mithril-stm 0.13 SNARK",
            System::MithrilCardano => "SNARK-Mithril on Cardano (ours)",
            System::MithrilOursStm => "SNARK-Mithril, mithril-stm mode (ours)",
        }
    }

    /// Whether this is one of our Halo2 circuits (measured through `__snark`).
    pub fn is_snark(self) -> bool {
        !matches!(
            self,
            System::StarkSingle
                | System::StarkConcurrent
                | System::MithrilStm
                | System::MithrilCardano
                | System::MithrilOursStm
        )
    }

    /// Whether this is the STARK baseline (either build).
    pub fn is_stark(self) -> bool {
        matches!(self, System::StarkSingle | System::StarkConcurrent)
    }

    /// Whether its points are Mithril certificates (a quorum of lottery indices, not t of N).
    pub fn is_mithril(self) -> bool {
        matches!(
            self,
            System::Mithril | System::MithrilStm | System::MithrilCardano | System::MithrilOursStm
        )
    }

    /// Whether it is measured through `benches/mithril-compare` (one child per sample).
    pub fn is_compare(self) -> bool {
        matches!(
            self,
            System::MithrilStm | System::MithrilCardano | System::MithrilOursStm
        )
    }

    /// Whether it proves mithril-stm's own certificate (its registration and signatures), not
    /// one its own keys signed.
    pub fn on_stm_signatures(self) -> bool {
        matches!(self, System::MithrilStm | System::MithrilOursStm)
    }

    fn from_key(key: &str) -> Option<System> {
        System::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// A Mithril certificate's parameters (the same for both Mithril systems of a run).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MithrilCase {
    /// How `--mithril` names it: the quorum, or `mainnet`.
    pub name: String,
    /// Quorum k: distinct winning lottery indices.
    pub quorum: u64,
    /// Lotteries m.
    pub m: u64,
    /// phi_f (0.2 in every case here).
    pub phi_f: f64,
    /// Registered parties (Zipf stakes: party i holds max(1, 1,000,000 / (i + 1))).
    pub parties: usize,
    /// Registration tree depth.
    pub depth: u32,
    /// Seed of keys and stakes.
    pub seed: u64,
}

impl MithrilCase {
    /// `mainnet` (k = 1944, m = 16,948) or a quorum with m = 10,000 (the parameters of
    /// `benches/mithril-compare`); phi_f = 0.2, 3,000 parties, depth 13, seed 1.
    pub fn parse(name: &str) -> Result<Self, String> {
        let (quorum, m) = if name == "mainnet" {
            let p = mithril_snark::Parameters::MAINNET;
            (p.k(), p.m())
        } else {
            let k = name
                .parse::<u64>()
                .ok()
                .filter(|k| (1..=2000).contains(k))
                .ok_or_else(|| {
                    format!("--mithril: {name:?} is neither mainnet nor a quorum in 1..=2000")
                })?;
            (k, 10_000)
        };
        Ok(Self {
            name: name.into(),
            quorum,
            m,
            phi_f: 0.2,
            parties: 3_000,
            depth: 13,
            seed: 1,
        })
    }

    /// Whether this is mainnet's parameter set (measured for our circuit only).
    pub fn is_mainnet(&self) -> bool {
        self.name == "mainnet"
    }

    /// One line for tables.
    pub fn describe(&self) -> String {
        format!(
            "{}k = {} of m = {}, phi_f = {}, {} parties (Zipf stakes), depth {}",
            if self.is_mainnet() { "mainnet: " } else { "" },
            render::thousands(self.quorum as usize),
            render::thousands(self.m as usize),
            self.phi_f,
            render::thousands(self.parties),
            self.depth
        )
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
    /// The Mithril certificate (Mithril systems only; `n` is then its parties, `t` its quorum).
    #[serde(default)]
    pub mithril: Option<MithrilCase>,
    /// On-chain cost of this circuit's proof (our Halo2 circuits), when measured.
    #[serde(default)]
    pub evm: Option<snark::EvmCost>,
    /// Why `evm` is missing, if it is.
    #[serde(default)]
    pub evm_note: String,
    /// Cells by component (our Halo2 circuits), from the layout.
    #[serde(default)]
    pub components: Vec<snark::Component>,
    /// The Plutus verifier's budget (SNARK-Mithril on Cardano), when measured.
    #[serde(default)]
    pub plutus: Option<stm::PlutusCost>,
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
    /// Sizes asked for (Schnorr ATMS and the STARK; t = N/2).
    pub sizes: Vec<usize>,
    /// BLS ATMS sizes (t = N/2).
    #[serde(default)]
    pub bls_sizes: Vec<usize>,
    /// Extra (system, N, t) points.
    #[serde(default)]
    pub extra_points: Vec<(System, usize, usize)>,
    /// Mithril certificates.
    #[serde(default)]
    pub mithril: Vec<MithrilCase>,
    /// Points of at least this N (and Mithril mainnet) ran one sample.
    #[serde(default)]
    pub one_sample_from: usize,
    /// Whether the EVM gas of each Halo2 proof was measured.
    #[serde(default)]
    pub gas: bool,
    /// The naive baselines asked for.
    #[serde(default)]
    pub naive_schemes: Vec<naive_baselines::Scheme>,
    /// Systems asked for.
    pub systems: Vec<System>,
    /// The measured points.
    pub points: Vec<Point>,
    /// The naive baselines (no proof: t signatures and a bitmap), at every t-of-N point.
    #[serde(default)]
    pub naive: Vec<naive_baselines::NaiveRun>,
    /// Points that failed, with the reason.
    pub failures: Vec<String>,
    /// Later runs that re-measured some points into these results (`--update`), oldest first.
    #[serde(default)]
    pub updates: Vec<Update>,
}

/// A later run that replaced or added some points (`tms-report --update`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Update {
    /// Its command line.
    pub command: String,
    /// Its start, UTC.
    pub started: String,
    /// Its wall seconds.
    pub total_s: f64,
    /// Load averages at its start and end.
    pub load: String,
    /// Load averages at its end.
    pub load_end: String,
    /// Its commit and the tracked files that differed from it.
    pub commit: String,
    /// Tracked files that differed from the commit at its start.
    pub dirty_files: usize,
    /// What it measured: `system` or `system certificate`/`system t of N`, one per point.
    pub points: Vec<String>,
}

impl Point {
    /// What identifies a point across runs: system, size and Mithril certificate.
    fn same_point(&self, other: &Point) -> bool {
        self.system == other.system
            && self.n == other.n
            && self.t == other.t
            && self.mithril == other.mithril
    }

    /// One short line naming the point.
    pub fn describe(&self) -> String {
        match &self.mithril {
            Some(case) => format!("{} ({})", self.system.label(), case.describe()),
            None => format!("{} {} of {}", self.system.label(), self.t, self.n),
        }
    }
}

impl Results {
    /// `old` with the points of `update` merged in (a point of the same system and size replaced,
    /// new ones added), its systems and Mithril certificates added, and the update recorded.
    fn merged(old: &Results, update: &Results) -> Results {
        let mut out = old.clone();
        // A re-measured point takes the old one's place, so tables keep their order.
        for new in &update.points {
            match out.points.iter_mut().find(|p| p.same_point(new)) {
                Some(slot) => *slot = new.clone(),
                None => out.points.push(new.clone()),
            }
        }
        out.naive.retain(|r| {
            !update
                .naive
                .iter()
                .any(|u| (u.scheme, u.n, u.t) == (r.scheme, r.n, r.t))
        });
        out.naive.extend(update.naive.iter().cloned());
        for system in &update.systems {
            if !out.systems.contains(system) {
                out.systems.push(*system);
            }
        }
        out.systems.sort_unstable();
        for case in &update.mithril {
            if !out.mithril.contains(case) {
                out.mithril.push(case.clone());
            }
        }
        out.failures.extend(update.failures.iter().cloned());
        out.updates.push(Update {
            command: update.command.clone(),
            started: update.started.clone(),
            total_s: update.total_s,
            load: update.machine.load.clone(),
            load_end: update.load_end.clone(),
            commit: update.commit.clone(),
            dirty_files: update.dirty_files,
            points: update.points.iter().map(Point::describe).collect(),
        });
        out
    }
}

const USAGE: &str = "\
usage: tms-report [--quick | --samples R] [--systems LIST] [--sizes LIST] [--bls-sizes LIST]
                  [--points LIST] [--mithril LIST] [--no-gas] [--naive LIST] [--out FILE]
                  [--charts DIR]
                  [--results FILE] [--render-only]

  --samples R   proofs per point, median reported; default 3 (points of N >= 2,000 and Mithril
                mainnet: one)
  --quick       development run: one sample, and unless given the small defaults below
  --systems     any of schnorr (= schnorr-flat), schnorr-merkle, bls, mithril, mithril-stm,
                mithril-cardano, mithril-ours-stm, stark (= stark-single and stark-concurrent),
                stark-single, stark-concurrent, all; default all
  --sizes       committee sizes N of Schnorr ATMS and the STARK (t = N/2 sign);
                default 8,16,...,2048 (--quick: 8,16,32,64)
  --bls-sizes   committee sizes of BLS ATMS (t = N/2); default 8,2048 (--quick: 8)
  --points      extra SYSTEM:N/T points; default schnorr-flat:2001/1602,bls:2001/1602
                (--quick: none); `none` for none
  --mithril     Mithril certificates: quorums (m = 10,000) and/or mainnet (ours on BN254 only);
                default 32,256,mainnet (--quick: 32)
  --no-gas      skip the EVM verification gas of each Halo2 proof (it needs
                `npm ci --prefix evm/solc` and one more proof per point)
  --naive LIST  naive baselines (t signatures and a bitmap, no proof) at every t-of-N point:
                schnorr-grumpkin, bls-bn254-individual, bls-bn254-aggregate, lamport-plus,
                wots-plus, merkle-wots, slh-dsa-sha2-128s, all or none; default all
  --out         the report; default benches/REPORT.md
  --charts      directory of the SVG charts; default benches/report
  --results     raw results (JSON); default benches/report/results.json
  --render-only re-render the report and charts from --results without measuring
  --update      measure only the asked systems and points and merge them into --results: a
                point of the same system and size replaces the old one, every other point is
                kept, and the report names the update (its command, date, commit and load)";

/// Points of at least this committee size run one sample (the issue's "one is enough for the
/// largest"): minutes per proof on this machine.
const ONE_SAMPLE_FROM: usize = 2_000;

struct Options {
    sizes: Vec<usize>,
    bls_sizes: Vec<usize>,
    points: Vec<(System, usize, usize)>,
    mithril: Vec<MithrilCase>,
    naive: Vec<naive_baselines::Scheme>,
    systems: Vec<System>,
    samples: usize,
    gas: bool,
    out: PathBuf,
    charts: PathBuf,
    results: PathBuf,
    render_only: bool,
    update: bool,
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

fn parse_sizes(flag: &str, value: &str) -> Result<Vec<usize>, String> {
    let mut sizes = parse_list(value, |s| {
        s.parse::<usize>()
            .ok()
            .filter(|n| (4..=4096).contains(n))
            .map(|n| vec![n])
            .ok_or_else(|| format!("{flag}: {s:?} is not a committee size in 4..=4096"))
    })?;
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

fn parse_systems(value: &str) -> Result<Vec<System>, String> {
    let mut systems = parse_list(value, |s| match s {
        "all" => Ok(System::ALL.to_vec()),
        "schnorr" => Ok(vec![System::SchnorrFlat]),
        "stark" => Ok(vec![System::StarkSingle, System::StarkConcurrent]),
        _ => System::from_key(s).map(|s| vec![s]).ok_or_else(|| {
            format!(
                "--systems: unknown system {s:?} (schnorr, schnorr-merkle, bls, mithril, \
                 mithril-stm, mithril-cardano, mithril-ours-stm, stark, stark-single, \
                 stark-concurrent, all)"
            )
        }),
    })?;
    systems.sort_unstable();
    systems.dedup();
    Ok(systems)
}

/// `SYSTEM:N/T`, for the ATMS circuits and the STARK.
fn parse_point(text: &str) -> Result<Vec<(System, usize, usize)>, String> {
    let bad = || format!("--points: {text:?} is not SYSTEM:N/T (for example bls:2001/1602)");
    let (system, size) = text.split_once(':').ok_or_else(bad)?;
    let system = System::from_key(system)
        .filter(|s| !s.is_mithril())
        .ok_or_else(bad)?;
    let (n, t) = size.split_once('/').ok_or_else(bad)?;
    let (n, t): (usize, usize) = (n.parse().map_err(|_| bad())?, t.parse().map_err(|_| bad())?);
    if !(4..=4096).contains(&n) || t == 0 || t > n {
        return Err(format!(
            "--points: {text:?}: need 4 <= N <= 4096 and 1 <= t <= N"
        ));
    }
    Ok(vec![(system, n, t)])
}

fn parse_options(args: &[String], root: &Path) -> Result<Options, String> {
    let (mut sizes, mut bls_sizes, mut points, mut mithril) = (None, None, None, None);
    let mut o = Options {
        sizes: vec![],
        bls_sizes: vec![],
        points: vec![],
        mithril: vec![],
        naive: naive_baselines::Scheme::ALL.to_vec(),
        systems: System::ALL.to_vec(),
        samples: 3,
        gas: true,
        out: root.join("benches/REPORT.md"),
        charts: root.join("benches/report"),
        results: root.join("benches/report/results.json"),
        render_only: false,
        update: false,
    };
    let mut quick = false;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--quick" => {
                quick = true;
                o.samples = 1;
            }
            "--render-only" => o.render_only = true,
            "--update" => o.update = true,
            "--no-gas" => o.gas = false,
            "--samples" => {
                let v = value()?;
                o.samples = v
                    .parse()
                    .ok()
                    .filter(|s| (1..=100).contains(s))
                    .ok_or_else(|| format!("--samples {v}: expected a number in 1..=100"))?;
            }
            "--sizes" => sizes = Some(parse_sizes(flag, &value()?)?),
            "--bls-sizes" => bls_sizes = Some(parse_sizes(flag, &value()?)?),
            "--points" => {
                let v = value()?;
                points = Some(if v == "none" {
                    vec![]
                } else {
                    parse_list(&v, parse_point)?
                });
            }
            "--mithril" => {
                mithril = Some(parse_list(&value()?, |s| Ok(vec![MithrilCase::parse(s)?]))?)
            }
            "--systems" => o.systems = parse_systems(&value()?)?,
            "--naive" => {
                let v = value()?;
                o.naive = if v == "none" {
                    vec![]
                } else {
                    parse_list(&v, |s| match s {
                        "all" => Ok(naive_baselines::Scheme::ALL.to_vec()),
                        _ => naive_baselines::Scheme::from_key(s)
                            .map(|s| vec![s])
                            .ok_or_else(|| format!("--naive: unknown baseline {s:?}")),
                    })?
                };
            }
            "--out" => o.out = value()?.into(),
            "--charts" => o.charts = value()?.into(),
            "--results" => o.results = value()?.into(),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    o.sizes = sizes.unwrap_or_else(|| {
        if quick {
            vec![8, 16, 32, 64]
        } else {
            (3..=11).map(|e| 1usize << e).collect()
        }
    });
    o.bls_sizes = bls_sizes.unwrap_or_else(|| if quick { vec![8] } else { vec![8, 2048] });
    o.points = match points {
        Some(p) => p,
        None if quick => vec![],
        None => vec![(System::SchnorrFlat, 2001, 1602), (System::Bls, 2001, 1602)],
    };
    o.mithril = match mithril {
        Some(m) => m,
        None if quick => vec![MithrilCase::parse("32")?],
        None => ["32", "256", "mainnet"]
            .into_iter()
            .map(MithrilCase::parse)
            .collect::<Result<_, _>>()?,
    };
    if o.systems.iter().any(|s| s.is_stark()) {
        let stark_points = o
            .points
            .iter()
            .filter(|p| p.0.is_stark())
            .map(|p| (p.1, p.2));
        for (n, t) in o.sizes.iter().map(|&n| (n, n / 2)).chain(stark_points) {
            stark_baseline::check_parameters(n, t)
                .map_err(|e| format!("the STARK cannot take N = {n}, t = {t}: {e}"))?;
        }
    }
    Ok(o)
}

/// One point to measure.
struct Job {
    system: System,
    n: usize,
    t: usize,
    samples: usize,
    mithril: Option<MithrilCase>,
}

/// Every point of the run, in run order: by system, then size.
fn jobs(o: &Options) -> Vec<Job> {
    let samples_for = |n: usize| {
        if n >= ONE_SAMPLE_FROM {
            1
        } else {
            o.samples
        }
    };
    let mut jobs = vec![];
    for &system in &o.systems {
        if system.is_mithril() {
            for case in &o.mithril {
                if system.is_compare() && case.is_mainnet() {
                    continue;
                }
                jobs.push(Job {
                    system,
                    n: case.parties,
                    t: case.quorum as usize,
                    samples: if case.is_mainnet() { 1 } else { o.samples },
                    mithril: Some(case.clone()),
                });
            }
            continue;
        }
        let grid = if system == System::Bls {
            &o.bls_sizes
        } else {
            &o.sizes
        };
        let mut sizes: Vec<(usize, usize)> = grid.iter().map(|&n| (n, n / 2)).collect();
        sizes.extend(
            o.points
                .iter()
                .filter(|p| p.0 == system)
                .map(|p| (p.1, p.2)),
        );
        sizes.sort_unstable();
        sizes.dedup();
        for (n, t) in sizes {
            jobs.push(Job {
                system,
                n,
                t,
                samples: samples_for(n),
                mithril: None,
            });
        }
    }
    jobs
}

/// The hidden child mode: `__snark SYSTEM N T SAMPLES gas|no-gas [MITHRIL]`, one JSON line on
/// stdout.
fn snark_child(args: &[String]) -> Result<(), String> {
    let usage = "usage: tms-report __snark SYSTEM N T SAMPLES gas|no-gas [MITHRIL]";
    let (system, n, t, samples, gas, mithril) = match args {
        [a, b, c, d, e] => (a, b, c, d, e, None),
        [a, b, c, d, e, f] => (a, b, c, d, e, Some(MithrilCase::parse(f)?)),
        _ => return Err(usage.into()),
    };
    let system = System::from_key(system)
        .filter(|s| s.is_snark())
        .ok_or_else(|| format!("__snark: not one of our circuits: {system}"))?;
    let n: usize = n.parse().map_err(|_| format!("__snark: bad N {n}"))?;
    let t: usize = t.parse().map_err(|_| format!("__snark: bad t {t}"))?;
    let samples: usize = samples
        .parse()
        .map_err(|_| format!("__snark: bad sample count {samples}"))?;
    let gas = match gas.as_str() {
        "gas" => true,
        "no-gas" => false,
        _ => return Err(usage.into()),
    };
    let run = snark::measure(system, (n, t), samples, gas, mithril.as_ref())?;
    println!(
        "{}",
        serde_json::to_string(&run).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// SNARK security statement (the same for every circuit: KZG over BN254, test SRS).
pub const SNARK_SECURITY: &str = "KZG/BN254, ~100 bits; insecure test SRS";

fn measure_snark(job: &Job, gas: bool) -> Result<Point, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args([
        "__snark",
        job.system.key(),
        &job.n.to_string(),
        &job.t.to_string(),
        &job.samples.to_string(),
        if gas { "gas" } else { "no-gas" },
    ]);
    if let Some(case) = &job.mithril {
        cmd.arg(&case.name);
    }
    let child = sys::run_measured(&mut cmd)?;
    let line = child
        .stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or("the measuring child printed no result")?;
    let run: snark::SnarkRun =
        serde_json::from_str(line).map_err(|e| format!("child output: {e}"))?;
    Ok(Point {
        system: job.system,
        n: job.n,
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
        mithril: job.mithril.clone(),
        evm: run.evm,
        evm_note: run.evm_note,
        components: run.components,
        plutus: None,
    })
}

fn measure_stark(
    system: System,
    bin: &Path,
    (n, t): (usize, usize),
    samples: usize,
    started: Instant,
) -> Result<Point, String> {
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
        mithril: None,
        evm: None,
        evm_note: "a STARK: no EVM verifier here".into(),
        components: vec![],
        plutus: None,
    })
}

/// mithril-stm's security statement (its SNARK: KZG over BLS12-381, an unsafe SRS here).
pub const STM_SECURITY: &str =
    "KZG/BLS12-381, ~117-120 bits; insecure SRS generated by the bench (seed 42)";

/// Our Cardano backend's security statement (KZG over BLS12-381, test parameters).
pub const CARDANO_SECURITY: &str =
    "KZG/BLS12-381, ~117-120 bits; insecure test SRS (`tms_cardano::backend::INSECURE_SEED`)";

/// A point of mithril-stm or of our Cardano circuit, both run by `benches/mithril-compare`.
fn measure_compare(bin: &Path, job: &Job) -> Result<Point, String> {
    let case = job
        .mithril
        .as_ref()
        .ok_or("a mithril-compare point needs its certificate")?;
    let compare_system = match job.system {
        System::MithrilStm => "stm",
        System::MithrilOursStm => "ours-stm",
        _ => "ours-cardano",
    };
    let (lines, peak_mib, wall_s) = stm::run(bin, compare_system, case, job.samples)?;
    let first = &lines[0];
    Ok(Point {
        system: job.system,
        n: job.n,
        t: job.t,
        threads: rayon::current_num_threads(),
        prove_wall_s: lines.iter().map(|l| l.prove_wall_s).collect(),
        prove_cpu_s: lines.iter().map(|l| l.prove_cpu_s).collect(),
        verify_ms: lines.iter().map(|l| l.verify_ms).collect(),
        proof_bytes: first.proof_bytes,
        peak_mib,
        one_time_s: first.setup_s + first.keygen_s,
        shape: if job.system == System::MithrilStm {
            format!(
                "{}; {} signatures aggregated; serialised proof {} B",
                first.circuit,
                first.signers,
                render::thousands(first.serialized_bytes)
            )
        } else {
            first.circuit.clone()
        },
        security: if job.system == System::MithrilStm {
            STM_SECURITY
        } else {
            CARDANO_SECURITY
        }
        .into(),
        child_wall_s: wall_s,
        mithril: Some(case.clone()),
        evm: None,
        evm_note: "no EVM verifier for BLS12-381 KZG here".into(),
        components: vec![],
        plutus: first.plutus,
    })
}

/// The naive baselines at every t-of-N point of the run (in this process: single-threaded
/// verification, milliseconds per certificate).
fn measure_naive(o: &Options, jobs: &[Job], results: &mut Results) {
    let mut sizes: Vec<(usize, usize)> = jobs
        .iter()
        .filter(|j| j.mithril.is_none())
        .map(|j| (j.n, j.t))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    for &scheme in &o.naive {
        for &(n, t) in &sizes {
            let clock = Instant::now();
            match naive_baselines::measure(scheme, n, t, o.samples, n as u64) {
                Ok(run) => {
                    eprintln!(
                        "naive {} {t} of {n}: {} B, verify {:.2} ms ({:.1} s)",
                        scheme.key(),
                        run.certificate_bytes,
                        median(&run.verify_ms),
                        clock.elapsed().as_secs_f64()
                    );
                    results.naive.push(run);
                }
                Err(e) => {
                    eprintln!("naive {} {t} of {n} FAILED: {e}", scheme.key());
                    results
                        .failures
                        .push(format!("naive {} {t} of {n}: {e}", scheme.key()));
                }
            }
        }
    }
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
        bls_sizes: o.bls_sizes.clone(),
        extra_points: o.points.clone(),
        mithril: o.mithril.clone(),
        one_sample_from: ONE_SAMPLE_FROM,
        gas: o.gas,
        naive_schemes: o.naive.clone(),
        systems: o.systems.clone(),
        points: vec![],
        naive: vec![],
        failures: vec![],
        updates: vec![],
    };
    // With --update, the results this run merges into (read before anything is written there).
    let base = if o.update {
        let text = std::fs::read_to_string(&o.results)
            .map_err(|e| format!("--update: {}: {e}", o.results.display()))?;
        Some(
            serde_json::from_str::<Results>(&text)
                .map_err(|e| format!("--update: {}: {e}", o.results.display()))?,
        )
    } else {
        None
    };
    let save_run = |results: &Results| match &base {
        Some(base) => save(&Results::merged(base, results), &o.results),
        None => save(results, &o.results),
    };
    let jobs = jobs(&o);
    eprintln!(
        "tms-report: {} point(s) of {} system(s), {} sample(s) per point; machine {} ({} CPUs), load {}",
        jobs.len(),
        o.systems.len(),
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

    let stm_bin = if o.systems.iter().any(|s| s.is_compare()) {
        eprintln!("tms-report: building benches/mithril-compare (mithril-stm, mithril-jubjub)");
        Some(stm::build(&root, &target_root)?)
    } else {
        None
    };

    let total = jobs.len();
    for (done, job) in jobs.iter().enumerate() {
        let done = done + 1;
        let (system, n, t) = (job.system, job.n, job.t);
        let what = match &job.mithril {
            Some(case) => format!("{} {}", system.key(), case.describe()),
            None => format!("{} N={n} t={t}", system.key()),
        };
        eprintln!(
            "[{done}/{total}] {what} ({} sample(s)), {:.0} s into the run",
            job.samples,
            clock.elapsed().as_secs_f64()
        );
        let point_clock = Instant::now();
        let point = if system.is_snark() {
            measure_snark(job, o.gas)
        } else if system.is_compare() {
            measure_compare(stm_bin.as_deref().expect("built above"), job)
        } else {
            measure_stark(
                system,
                &stark_bins[&system],
                (n, t),
                job.samples,
                point_clock,
            )
        };
        match point {
            Ok(p) => {
                eprintln!(
                    "[{done}/{total}] {what}: prove {:.2} s wall / {:.2} s CPU, verify {:.2} ms, {} B, peak {:.0} MiB{} ({:.0} s)",
                    p.prove_wall(),
                    p.prove_cpu(),
                    p.verify(),
                    p.proof_bytes,
                    p.peak_mib,
                    p.evm
                        .as_ref()
                        .map_or(String::new(), |e| format!(", EVM verify {} gas", e.verifier_call_gas)),
                    point_clock.elapsed().as_secs_f64()
                );
                results.points.push(p);
            }
            Err(e) => {
                eprintln!("[{done}/{total}] {what} FAILED: {e}");
                results.failures.push(format!("{what}: {e}"));
            }
        }
        results.total_s = clock.elapsed().as_secs_f64();
        save_run(&results)?;
    }
    measure_naive(&o, &jobs, &mut results);
    save_run(&results)?;
    results.load_end = sys::load_average();
    results.total_s = clock.elapsed().as_secs_f64();
    save_run(&results)?;
    let run_s = results.total_s;
    let results = match &base {
        Some(base) => Results::merged(base, &results),
        None => results,
    };
    render::write_all(&results, &o.out, &o.charts, &root)?;
    eprintln!(
        "tms-report: wrote {} and the charts in {} ({:.0} s)",
        o.out.display(),
        o.charts.display(),
        run_s
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed results of the last release run.
    fn committed() -> Results {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("results.json");
        let text = std::fs::read_to_string(&path).expect("benches/report/results.json");
        serde_json::from_str(&text).expect("the committed results parse")
    }

    #[test]
    fn an_update_replaces_its_points_keeps_the_rest_and_is_named() {
        let mut old = committed();
        // The Cardano point below must be new to `old`.
        old.points.retain(|p| p.system != System::MithrilCardano);
        let stm = old
            .points
            .iter()
            .find(|p| p.system == System::MithrilStm)
            .expect("the release run measured mithril-stm")
            .clone();
        let mut remeasured = stm.clone();
        remeasured.prove_cpu_s = vec![1234.5];
        let mut cardano = stm.clone();
        cardano.system = System::MithrilCardano;
        cardano.plutus = Some(stm::PlutusCost {
            pv: 11,
            cpu: 6_500_000_000,
            mem: 1_260_000,
            script_bytes: 11_933,
        });
        let mut update = old.clone();
        update.command = "tms-report --update --systems mithril-stm,mithril-cardano".into();
        update.systems = vec![System::MithrilStm, System::MithrilCardano];
        update.points = vec![remeasured, cardano];
        update.naive = vec![];
        update.failures = vec![];

        let merged = Results::merged(&old, &update);
        assert_eq!(merged.points.len(), old.points.len() + 1);
        let stm_points: Vec<&Point> = merged
            .points
            .iter()
            .filter(|p| p.same_point(&stm))
            .collect();
        assert_eq!(stm_points.len(), 1, "the old point is replaced, not kept");
        assert_eq!(stm_points[0].prove_cpu_s, vec![1234.5]);
        for p in old.points.iter().filter(|p| !p.same_point(&stm)) {
            assert!(merged
                .points
                .iter()
                .any(|q| q.same_point(p) && q.prove_cpu_s == p.prove_cpu_s));
        }
        assert!(merged.systems.contains(&System::MithrilCardano));
        assert_eq!(merged.updates.len(), old.updates.len() + 1);

        let text = render::markdown(&merged, Path::new("benches/report"), Path::new("benches"));
        assert!(text.contains("**Updated since**"));
        assert!(text.contains("--update --systems mithril-stm,mithril-cardano"));
        assert!(text.contains("| SNARK-Mithril on Cardano (ours) |"));
        assert!(text.contains("65.0% / 7.6% (11,933 B, PV 11)"));
    }
}
