//! Side-by-side benchmark of one Mithril certificate proved by mithril-stm 0.13.0's non-recursive
//! SNARK and by our circuit.
//!
//! ```text
//! mithril-compare --quorum 32 [--parties 3000] [--depth 13] [--m 10000] [--phi-f 0.2]
//!                 [--stakes zipf|uniform] [--seed 1] [--system stm|ours|ours-cardano|ours-stm|both|same|all]
//!                 [--srs-dir DIR] [--srs-file FILE]
//! ```
//!
//! Systems: `stm` (mithril-stm 0.13.0's SNARK, KZG over BLS12-381), `ours` (`mithril-snark`, KZG
//! over BN254), `ours-cardano` (`mithril-jubjub`, on mithril-stm's own stack, with its Plutus
//! verifier's budget), `ours-stm` (`mithril-jubjub`'s mithril-stm mode proving mithril-stm's own
//! registration and single signatures); `both` is stm and ours, `same` stm and ours-stm (one
//! certificate: the same signers' signatures), `all` every one.
//!
//! Each system runs in its own child process (so CPU time and peak memory are its own) on the
//! same certificate: the same parameters (m, k, phi_f), stake distribution, seed and message. One
//! markdown table row per system goes to stdout, progress to stderr.
#![deny(missing_docs)]

#[cfg(test)]
mod interop;
mod ours;
mod ours_cardano;
mod ours_stm;
mod report;
mod stakes;
mod stm;
mod stm_read;
mod usage;

use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use stakes::StakeDistribution;

/// The certificate and the run's options.
#[derive(Clone, Debug)]
pub struct Config {
    /// Quorum k: the number of distinct winning lottery indices the proof shows.
    pub quorum: u64,
    /// Number of lotteries m.
    pub m: u64,
    /// phi_f in phi(w) = 1 - (1 - phi_f)^w.
    pub phi_f: f64,
    /// Registered parties.
    pub parties: usize,
    /// Depth of the registration Merkle tree.
    pub depth: u32,
    /// Stake distribution over the parties.
    pub stakes: StakeDistribution,
    /// Seed of keys, stakes and message.
    pub seed: u64,
}

/// A system the bench can measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum System {
    /// mithril-stm 0.13.0, feature `snark`.
    Stm,
    /// Our `mithril-snark` circuit (BN254).
    Ours,
    /// Our `mithril-jubjub` circuit on the midnight stack (BLS12-381), with its Plutus verifier.
    OursCardano,
    /// Our `mithril-jubjub` circuit in its mithril-stm mode, on mithril-stm's own registration
    /// and single signatures.
    OursStm,
}

impl System {
    const ALL: [System; 4] = [
        System::Stm,
        System::Ours,
        System::OursCardano,
        System::OursStm,
    ];

    fn name(self) -> &'static str {
        match self {
            System::Stm => "stm",
            System::Ours => "ours",
            System::OursCardano => "ours-cardano",
            System::OursStm => "ours-stm",
        }
    }

    fn parse(text: &str) -> Option<Vec<System>> {
        match text {
            "stm" => Some(vec![System::Stm]),
            "ours" => Some(vec![System::Ours]),
            "ours-cardano" | "cardano" => Some(vec![System::OursCardano]),
            "ours-stm" => Some(vec![System::OursStm]),
            "both" => Some(vec![System::Stm, System::Ours]),
            "same" => Some(vec![System::Stm, System::OursStm]),
            "all" => Some(System::ALL.to_vec()),
            _ => None,
        }
    }
}

struct Options {
    config: Config,
    systems: Vec<System>,
    srs_dir: PathBuf,
    srs_file: Option<PathBuf>,
    /// Set in the child processes: run the one system here and print its row only.
    child: bool,
    /// Print one JSON object per system instead of a markdown row (`--json`).
    json: bool,
}

const USAGE: &str =
    "usage: mithril-compare --quorum K [--parties N] [--depth D] [--m M] [--phi-f F] \
[--stakes zipf|uniform] [--seed S] [--system stm|ours|ours-cardano|ours-stm|both|same|all] [--srs-dir DIR] [--srs-file FILE] \
[--json]";

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut config = Config {
        quorum: 0,
        m: 10_000,
        phi_f: 0.2,
        parties: 3_000,
        depth: 13,
        stakes: StakeDistribution::Zipf,
        seed: 1,
    };
    let mut systems = System::ALL.to_vec();
    let mut srs_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("srs-cache");
    let mut srs_file = None;
    let mut child = false;
    let mut json = false;
    let mut iter = args.iter();
    while let Some(flag) = iter.next() {
        if flag == "--child" {
            child = true;
            continue;
        }
        if flag == "--json" {
            json = true;
            continue;
        }
        if flag == "-h" || flag == "--help" {
            return Err(USAGE.into());
        }
        let value = iter
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let bad = |what: &str| format!("{flag} {value}: {what}\n{USAGE}");
        match flag.as_str() {
            "--quorum" | "-k" => {
                config.quorum = value.parse().map_err(|_| bad("not an integer"))?
            }
            "--m" | "-m" => config.m = value.parse().map_err(|_| bad("not an integer"))?,
            "--phi-f" => config.phi_f = value.parse().map_err(|_| bad("not a number"))?,
            "--parties" | "-n" => {
                config.parties = value.parse().map_err(|_| bad("not an integer"))?
            }
            "--depth" => config.depth = value.parse().map_err(|_| bad("not an integer"))?,
            "--stakes" => {
                config.stakes =
                    StakeDistribution::parse(value).ok_or_else(|| bad("uniform or zipf"))?
            }
            "--seed" => config.seed = value.parse().map_err(|_| bad("not an integer"))?,
            "--system" => {
                systems = System::parse(value)
                    .ok_or_else(|| bad("stm, ours, ours-cardano, both or all"))?
            }
            "--srs-dir" => srs_dir = PathBuf::from(value),
            "--srs-file" => srs_file = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    if config.quorum == 0 {
        return Err(format!("--quorum is required\n{USAGE}"));
    }
    if config.quorum > config.m {
        return Err(format!("quorum {} exceeds m = {}", config.quorum, config.m));
    }
    if !(config.phi_f > 0.0 && config.phi_f <= 1.0) {
        return Err("phi_f must lie in (0, 1]".into());
    }
    Ok(Options {
        config,
        systems,
        srs_dir,
        srs_file,
        child,
        json,
    })
}

/// Runs one system in this process and prints its row.
fn run_here(options: &Options, system: System) -> Result<(), String> {
    let print = |measured: report::Measurement| {
        if options.json {
            measured.json(&options.config)
        } else {
            measured.row(&options.config)
        }
    };
    let row = match system {
        System::Stm => {
            // mithril-stm caches derived circuit keys under the system temporary directory; a
            // fresh directory per run makes its keygen a real one, not a cache read.
            let key_cache = options
                .srs_dir
                .join(format!("key-cache-{}", std::process::id()));
            std::fs::create_dir_all(&key_cache)
                .map_err(|e| format!("{}: {e}", key_cache.display()))?;
            // Set before any thread starts: mithril-stm reads it through std::env::temp_dir.
            std::env::set_var("TMPDIR", &key_cache);
            let source = match &options.srs_file {
                Some(file) => stm::SrsSource::File(file.clone()),
                None => stm::SrsSource::Generated(options.srs_dir.clone()),
            };
            let measured = stm::run(&options.config, &source);
            let _ = std::fs::remove_dir_all(&key_cache);
            print(measured?)
        }
        System::Ours => print(ours::run(&options.config)?),
        System::OursCardano => print(ours_cardano::run(&options.config)?),
        System::OursStm => print(ours_stm::run(&options.config)?),
    };
    println!("{row}");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let c = &options.config;
    if options.child {
        let system = options.systems[0];
        return match run_here(&options, system) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("[{}] error: {message}", system.name());
                ExitCode::FAILURE
            }
        };
    }
    eprintln!(
        "certificate: k = {}, m = {}, phi_f = {}, {} parties, {} stakes, depth {}, seed {}",
        c.quorum,
        c.m,
        c.phi_f,
        c.parties,
        c.stakes.name(),
        c.depth,
        c.seed
    );
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("cannot find this executable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rows = Vec::new();
    let mut failed = false;
    for &system in &options.systems {
        let mut child_args: Vec<String> = Vec::new();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if arg == "--system" {
                iter.next();
            } else {
                child_args.push(arg.clone());
            }
        }
        child_args.extend(["--system".into(), system.name().into(), "--child".into()]);
        let output = Command::new(&exe)
            .args(&child_args)
            .stderr(Stdio::inherit())
            .output();
        match output {
            Ok(output) if output.status.success() => {
                rows.extend(
                    String::from_utf8_lossy(&output.stdout)
                        .lines()
                        .filter(|line| line.starts_with('|') || line.starts_with('{'))
                        .map(str::to_owned),
                );
            }
            Ok(output) => {
                eprintln!("[{}] failed: {}", system.name(), output.status);
                failed = true;
            }
            Err(e) => {
                eprintln!("[{}] could not start: {e}", system.name());
                failed = true;
            }
        }
    }
    if !options.json {
        println!("{}", report::HEADER);
    }
    for row in rows {
        println!("{row}");
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
