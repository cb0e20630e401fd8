//! `benches/REPORT.md` from the measured results.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use naive_baselines::{NaiveRun, Scheme};

use crate::charts::{self, Series, CHARTS};
use crate::sys::median;
pub use crate::sys::thousands;
use crate::{Point, Results, System};

/// Seconds or milliseconds with three significant figures at most two decimals.
fn num(v: f64) -> String {
    if !v.is_finite() {
        "-".into()
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn samples(v: &[f64]) -> String {
    if v.len() <= 1 {
        return v.first().map_or("-".into(), |x| num(*x));
    }
    format!(
        "{} ({})",
        num(median(v)),
        v.iter().map(|x| num(*x)).collect::<Vec<_>>().join(", ")
    )
}

fn what(system: System) -> &'static str {
    match system {
        System::StarkConcurrent => {
            "the same prover and sizes as the line above, `stark-bench` built with winterfell's \
             `concurrent` feature (rayon)."
        }
        System::StarkSingle => {
            "`benches/stark-baseline`: t-of-N Lamport+ signatures under a Merkle root of the keys, \
             proved with winterfell 0.13 (Rescue-Prime `Rp64_256`, 64-bit field with a quadratic \
             extension, 30 queries, blowup 8, 16 grinding bits, Blake3-256). One 1,024-row slot \
             per key, N padded to a power of two; the cost depends on the padded N, not on t. \
             Measured by its own `stark-bench` binary (release), one process per size."
        }
        System::SchnorrFlat => {
            "`circuits/schnorr-atms`, flat commitment (the sidechains-zk construction): the \
             commitment is one Rescue-Prime sponge over all N keys, and every member has a slot \
             (signature or disabled), so the cost depends on N, not on t. Schnorr on Grumpkin, \
             challenges with Rescue-Prime; k is the smallest that holds the custom-gate rows with \
             at most 4 halo2-base advice columns."
        }
        System::SchnorrMerkle => {
            "`circuits/schnorr-atms`, Merkle commitment (the ATMS paper's relation): t signer \
             slots, each with a Rescue-Prime Merkle path, leaf indices strictly increasing. Same \
             k rule as the flat mode."
        }
        System::Bls => {
            "`circuits/bls-atms`: N - t = N/2 non-signer slots, the membership strategy chosen by \
             the crate's cost model (`Strategy::cheapest`), our Poseidon, avk = ivk - sum of \
             non-signer keys and one BN254 pairing check e(avk, H(m)) = e(g1, sigma) with sigma \
             checked in G2. The pairing (about 4.1 M advice cells) is a fixed cost at every \
             size. k gives about ten advice columns (at least 2^18 rows), the rule of the \
             crate's own bench."
        }
        System::Mithril => {
            "`circuits/mithril`: one Mithril stake-based certificate (registration Merkle paths, \
             lottery eligibility phi(stake) per index, k distinct indices, the signatures), \
             halo2-base with custom gates, KZG/SHPLONK over BN254. The certificate is built by \
             `mithril_snark::example_certificate_on` (every party signs, lotteries are played \
             until k distinct indices are won, one signer slot per distinct signer); at most 16 \
             halo2-base advice columns beside the custom gates. The verifier's public inputs come \
             from the registration and the message bytes."
        }
        System::MithrilStm => {
            "mithril-stm 0.13.0 with feature `snark` (midnight-proofs, KZG over BLS12-381), run \
             by `benches/mithril-compare` (a standalone crate, outside the root workspace) on the \
             same parameters: m, k, phi_f, 3,000 parties with the same Zipf stakes, depth 13, \
             seed. Prove is its whole aggregation call (it re-verifies the collected signatures \
             and re-plays their lotteries besides the halo2 prover); one child process per \
             sample; its SRS is an unsafe one the bench generates and caches. See that crate's \
             README."
        }
        System::MithrilOursStm => {
            "`mithril_jubjub::stm`: our circuit for **mithril-stm 0.13's relation** (its \
             registration tree, leaf and message domain tags, lottery targets and unique Schnorr \
             signatures on Jubjub) on the Cardano backend (midnight-circuits' chips, \
             midnight-proofs, KZG over BLS12-381), run by `benches/mithril-compare --system \
             ours-stm` on **mithril-stm's own certificate**: the registration mithril-stm closes \
             and its signers' single signatures, from the same seed as the mithril-stm row (the \
             same keys, stakes, targets, message and commitment points, hence the same lottery \
             wins; only mithril-stm's Schnorr nonces, drawn from the OS, differ). Prove counts as \
             mithril-stm's does: from the collected signatures (reading them, the aggregation, \
             the witness, the proof)."
        }
        System::MithrilCardano => {
            "`circuits/mithril-jubjub`: the relation of SNARK-Mithril on mithril-stm's own stack \
             (midnight-circuits' chips, midnight-proofs, KZG over BLS12-381, Jubjub unique \
             signatures, Poseidon), run by `benches/mithril-compare --system ours-cardano` on \
             mithril-stm's very stakes and message bytes (each side its own keys). Prove counts \
             as mithril-stm's does: from the collected signatures (aggregation, witness, proof). \
             The Plutus column is its generated verifier (`tms_cardano::plutus`, registration \
             digest a script parameter, message bytes and proof in the redeemer) evaluated \
             offline with `uplc` at protocol version 11 (builtin MSM; a projection: mainnet's \
             PV 10 cost model, `uplc`'s defaults for PV 11's new builtins); a changed proof byte \
             is refused."
        }
    }
}

fn relative(from_dir: &Path, to: &Path) -> String {
    match to.strip_prefix(from_dir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => to.display().to_string(),
    }
}

/// The EVM verification gas of a point, or why there is none.
fn gas(p: &Point) -> String {
    if !p.system.is_snark() {
        return "n/a".into();
    }
    match &p.evm {
        Some(e) => thousands(e.verifier_call_gas as usize),
        None if p.evm_note.is_empty() => "-".into(),
        None => format!("not measured: {}", p.evm_note),
    }
}

fn combined_row(out: &mut String, p: &Point) {
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {} |",
        p.system.label(),
        p.n,
        p.t,
        p.threads,
        num(p.prove_wall()),
        num(p.prove_cpu()),
        num(p.verify()),
        thousands(p.proof_bytes),
        p.peak_mib,
        gas(p)
    );
}

/// Mithril certificates: ours and mithril-stm on the same parameters, and the ratio.
fn mithril_section(s: &mut String, r: &Results) {
    let pts: Vec<&Point> = r.points.iter().filter(|p| p.system.is_mithril()).collect();
    if pts.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Mithril certificates (medians)\n");
    let _ = writeln!(
        s,
        "| certificate | system | signatures | prove wall s | prove CPU s | verify ms | proof bytes | peak MiB | EVM verify gas | Plutus verify: CPU / mem of a tx (script) | ours / mithril-stm prove CPU |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
    for case in &r.mithril {
        let of = |system: System| {
            pts.iter()
                .find(|p| p.system == system && p.mithril.as_ref() == Some(case))
        };
        let ratio = |ours: &Point| match of(System::MithrilStm) {
            Some(m) if m.prove_cpu() > 0.0 => format!("{:.3}", ours.prove_cpu() / m.prove_cpu()),
            _ => "-".into(),
        };
        // The pair on one certificate first (mithril-stm's signatures), then our own relation.
        for system in [
            System::MithrilStm,
            System::MithrilOursStm,
            System::Mithril,
            System::MithrilCardano,
        ] {
            if let Some(p) = of(system) {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} | {} | {:.0} | {} | {} | {} |",
                    case.describe(),
                    system.label(),
                    if system.on_stm_signatures() {
                        "mithril-stm's"
                    } else {
                        "its own keys'"
                    },
                    num(p.prove_wall()),
                    num(p.prove_cpu()),
                    num(p.verify()),
                    thousands(p.proof_bytes),
                    p.peak_mib,
                    gas(p),
                    p.plutus
                        .map_or_else(|| "n/a".to_string(), |cost| cost.cell()),
                    if system == System::MithrilStm {
                        String::new()
                    } else if system.on_stm_signatures() {
                        format!("**{}**", ratio(p))
                    } else {
                        ratio(p)
                    }
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\n**The same certificate.** mithril-stm 0.13 SNARK and SNARK-Mithril, mithril-stm mode \
         (ours) prove **mithril-stm's relation on the very same certificate**: the registration \
         mithril-stm closed (keys, stakes and lottery targets from one seed) and the same \
         signers' single signatures, read through mithril-stm's public API and serde formats; \
         the ratio in bold is between them. The other two rows prove tms's own relation (our \
         domain tags and our unique signatures: Grumpkin on BN254, Jubjub on Cardano) on \
         certificates of the same stakes, parameters and message bytes, signed by each system's \
         own keys.\n"
    );
    let _ = writeln!(
        s,
        "mithril-stm's prove is its whole aggregation call, ours from the collected signatures \
         too. Proofs over BLS12-381 (mithril-stm, and ours on Cardano) verify in a Plutus script \
         with its BLS12-381 builtins; our BN254 proof in an EVM with its pairing precompile. \
         mithril-stm has no Plutus verifier. Our mithril-stm mode's Plutus verifier signs \
         `blake2b-256` of the bytes the script holds, which these certificates' random messages \
         are not: its budget (9.40 G CPU steps at PV 10, 94.0% of a transaction; our own \
         mode's 9.39 G) is measured by `cargo test -p mithril-jubjub --test stm_plutus`, not \
         here (n/a).\n"
    );
    // Measured by `benches/mithril-compare --system same` (one process per system, not by this
    // generator): kept verbatim with the run each figure comes from.
    s.push_str(SAME_CERTIFICATE);
}

/// The Schnorr ATMS on Cardano beside sidechains-zk's atms-halo2, with its run.
const CARDANO_SCHNORR: &str = include_str!("../cardano-schnorr.md");

/// Cardano through Groth16 over BLS12-381: Plutus budgets and the wrap's cost, with their runs.
const CARDANO_GROTH16: &str = include_str!("../cardano-groth16.md");

/// The rows on the same certificate (mithril-stm's own signatures), with their runs.
const SAME_CERTIFICATE: &str = include_str!("../same-certificate.md");

/// On-chain cost of every Halo2 point whose gas was measured.
fn onchain_section(s: &mut String, r: &Results) {
    let pts: Vec<&Point> = r.points.iter().filter(|p| p.system.is_snark()).collect();
    if pts.is_empty() {
        return;
    }
    let _ = writeln!(s, "## On-chain verification (EVM)\n");
    if !r.gas {
        let _ = writeln!(s, "Not measured in this run (`--no-gas`).\n");
        return;
    }
    let _ = writeln!(
        s,
        "Each Halo2 point proved once more with the Keccak (EVM) transcript; snark-verifier 0.2.7 \
         generated the circuit's Solidity verifier, solc-js compiled it, and revm (Cancun rules, \
         EIP-170 lifted so that larger verifiers are measured too) deployed it and ran one \
         verification transaction. The STARK and mithril-stm have no EVM verifier here (n/a in \
         the tables above).\n"
    );
    let _ = writeln!(
        s,
        "| system | point | verify gas (one transaction) | deploy gas | verifier bytes (EIP-170: 24,576) | EVM proof bytes | EVM prove CPU s |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|");
    for p in &pts {
        let point = match &p.mithril {
            Some(c) => c.describe(),
            None => format!("{} of {}", p.t, thousands(p.n)),
        };
        match &p.evm {
            Some(e) => {
                let _ = writeln!(
                    s,
                    "| {} | {point} | {} | {} | {}{} | {} | {} |",
                    p.system.label(),
                    thousands(e.verifier_call_gas as usize),
                    thousands(e.verifier_deploy_gas as usize),
                    thousands(e.verifier_bytes),
                    if e.verifier_bytes > 24_576 {
                        " (over)"
                    } else {
                        ""
                    },
                    thousands(e.evm_proof_bytes),
                    num(e.evm_prove_cpu_s)
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "| {} | {point} | not measured: {} | | | | |",
                    p.system.label(),
                    p.evm_note
                );
            }
        }
    }
    if pts
        .iter()
        .any(|p| p.evm.as_ref().is_some_and(|e| e.verifier_bytes > 24_576))
    {
        let _ = writeln!(
            s,
            "\nA verifier marked (over) is larger than EIP-170's 24,576-byte limit on contract \
             code: measured here with the limit lifted, but mainnet would refuse to deploy it. \
             On chain such a certificate goes through an outer proof (snark-verifier's \
             aggregation circuit over the certificate proof, `tms-aggregation`), whose verifier \
             fits; see the guide's `docs/src/guides/evm.md`."
        );
    }
    let _ = writeln!(s);
}

/// The (N, t) points of the t-of-N systems and the baselines, in order.
fn sizes_of(r: &Results) -> Vec<(usize, usize)> {
    let mut sizes: Vec<(usize, usize)> = r
        .points
        .iter()
        .filter(|p| !p.system.is_mithril())
        .map(|p| (p.n, p.t))
        .chain(r.naive.iter().map(|b| (b.n, b.t)))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// What a proof buys: the naive certificates beside the proofs, in bytes and verify time.
fn naive_section(s: &mut String, r: &Results, chart_dir: &Path, report_dir: &Path) {
    if r.naive.is_empty() {
        return;
    }
    let schemes: Vec<Scheme> = Scheme::ALL
        .into_iter()
        .filter(|sc| r.naive.iter().any(|b| b.scheme == *sc))
        .collect();
    let systems: Vec<System> = System::ALL
        .into_iter()
        .filter(|sy| !sy.is_mithril() && r.points.iter().any(|p| p.system == *sy))
        .collect();
    let baseline = |sc: Scheme, n: usize, t: usize| {
        r.naive
            .iter()
            .find(|b| b.scheme == sc && b.n == n && b.t == t)
    };
    let proof = |sy: System, n: usize, t: usize| {
        r.points
            .iter()
            .find(|p| p.system == sy && p.n == n && p.t == t)
    };
    let _ = writeln!(s, "## What a proof buys: the naive certificates\n");
    let _ = writeln!(
        s,
        "Without a proof a t-of-N certificate is a signer bitmap (ceil(N/8) bytes) and the t \
         signatures, and the verifier, who holds the N public keys, checks each (BLS aggregate: \
         sums the t signer keys and checks one pairing equation). `benches/naive-baselines` \
         measures each scheme in this process, single-threaded, from the certificate's bytes \
         (median of the run's samples).\n"
    );
    let _ = writeln!(
        s,
        "| baseline | one signature, bytes | one public key, bytes | distinct key pairs behind the t signatures |"
    );
    let _ = writeln!(s, "|---|---|---|---|");
    for &sc in &schemes {
        let runs: Vec<_> = r.naive.iter().filter(|b| b.scheme == sc).collect();
        let pooled = runs.iter().any(|b| b.distinct_signers < b.t);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            sc.label(),
            thousands(runs[0].signature_bytes),
            thousands(runs[0].public_key_bytes),
            if pooled {
                format!(
                    "a pool of {} (signing is slow); every one of the t signatures is verified",
                    runs.iter().map(|b| b.distinct_signers).max().unwrap_or(0)
                )
            } else {
                "t".into()
            }
        );
    }
    let _ = writeln!(s);
    for (title, unit, of_proof, of_naive) in [
        (
            "Certificate size",
            "bytes",
            (|p: &Point| thousands(p.proof_bytes)) as fn(&Point) -> String,
            (|b: &NaiveRun| thousands(b.certificate_bytes)) as fn(&NaiveRun) -> String,
        ),
        (
            "Verify time",
            "ms",
            |p: &Point| num(p.verify()),
            |b: &NaiveRun| num(median(&b.verify_ms)),
        ),
    ] {
        let _ = writeln!(s, "### {title} ({unit}): proofs and naive certificates\n");
        let mut header = String::from("| t of N |");
        let mut rule = String::from("|---|");
        for sy in &systems {
            let _ = write!(header, " {} |", sy.label());
            rule.push_str("---|");
        }
        for sc in &schemes {
            let _ = write!(header, " naive: {} |", sc.label());
            rule.push_str("---|");
        }
        let _ = writeln!(s, "{header}\n{rule}");
        for (n, t) in sizes_of(r) {
            let mut row = format!("| {t} of {} |", thousands(n));
            for &sy in &systems {
                let _ = write!(row, " {} |", proof(sy, n, t).map_or("".into(), of_proof));
            }
            for &sc in &schemes {
                let _ = write!(row, " {} |", baseline(sc, n, t).map_or("".into(), of_naive));
            }
            let _ = writeln!(s, "{row}");
        }
        let _ = writeln!(s);
    }
    // Where a proof starts to pay in bytes: the first measured size at which the smallest
    // proof of the run is smaller than the naive certificate.
    let _ = writeln!(s, "Where a proof starts to pay in bytes, in this run:\n");
    for &sc in &schemes {
        let first = sizes_of(r).into_iter().find_map(|(n, t)| {
            let naive = baseline(sc, n, t)?;
            let best = systems
                .iter()
                .filter_map(|&sy| proof(sy, n, t))
                .min_by_key(|p| p.proof_bytes)?;
            (best.proof_bytes < naive.certificate_bytes).then(|| {
                format!(
                    "from {t} of {} ({}: {} B against {} B)",
                    thousands(n),
                    best.system.label(),
                    thousands(best.proof_bytes),
                    thousands(naive.certificate_bytes)
                )
            })
        });
        let _ = writeln!(
            s,
            "- {}: {}",
            sc.label(),
            first.unwrap_or_else(|| "at none of the measured sizes".into())
        );
    }
    let _ = writeln!(s);
    for file in [charts::SIZE_VS_NAIVE, charts::VERIFY_VS_NAIVE] {
        let path = relative(report_dir, &chart_dir.join(file));
        let _ = writeln!(s, "![{file}]({path})\n");
    }
}

/// The largest point of each of our circuits with a cost breakdown.
fn breakdown_points(r: &Results) -> Vec<&Point> {
    System::ALL
        .into_iter()
        .filter(|sy| sy.is_snark())
        .filter_map(|sy| {
            r.points
                .iter()
                .filter(|p| p.system == sy && !p.components.is_empty())
                .max_by_key(|p| (p.mithril.as_ref().map_or(0, |c| c.quorum), p.n, p.t))
        })
        .collect()
}

fn point_name(p: &Point) -> String {
    match &p.mithril {
        Some(c) => c.describe(),
        None => format!("{} of {}", p.t, thousands(p.n)),
    }
}

/// Cells by component of each circuit at its largest point.
fn breakdown_section(s: &mut String, r: &Results, chart_dir: &Path, report_dir: &Path) {
    let pts = breakdown_points(r);
    if pts.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Where the cells go: cost breakdown per circuit\n");
    let _ = writeln!(
        s,
        "Advice cells (halo2-base's and the custom gates') and range-lookup cells of each \
         component, read off the layout by `tms_gadgets::proving::cost::CellLedger` (every \
         component's cells counted before and after it is laid out; what no component was \
         charged with is \"other\", so the rows sum to the circuit's totals). Each circuit at \
         its largest point of this run.\n"
    );
    for p in pts {
        let total: usize = p.components.iter().map(|c| c.advice_cells).sum();
        let _ = writeln!(s, "### {}, {}\n", p.system.label(), point_name(p));
        let _ = writeln!(s, "| component | advice cells | share | lookup cells |");
        let _ = writeln!(s, "|---|---|---|---|");
        for c in &p.components {
            let _ = writeln!(
                s,
                "| {} | {} | {:.1} % | {} |",
                c.name,
                thousands(c.advice_cells),
                100.0 * c.advice_cells as f64 / total.max(1) as f64,
                thousands(c.lookup_cells)
            );
        }
        let path = relative(
            report_dir,
            &chart_dir.join(charts::breakdown_file(p.system)),
        );
        let _ = writeln!(s, "\n![cells by component]({path})\n");
    }
}

/// The report's Markdown.
pub fn markdown(r: &Results, chart_dir: &Path, report_dir: &Path) -> String {
    let mut s = String::new();
    let m = &r.machine;
    let systems: Vec<System> = System::ALL
        .into_iter()
        .filter(|s| r.systems.contains(s))
        .collect();
    let threads_of = |system: System| {
        r.points
            .iter()
            .find(|p| p.system == system)
            .map(|p| p.threads)
    };
    let snark_threads = systems
        .iter()
        .filter(|s| s.is_snark())
        .find_map(|s| threads_of(*s));

    let _ = writeln!(s, "# Comparative benchmark report\n");
    let _ = writeln!(
        s,
        "Generated by `cargo run --release -p tms-report --{}` ({}), started {}, took {:.0} min. \
         Every measured figure below (times, sizes, memory, cells, security bits of the STARK) comes from that run; nothing is copied from elsewhere. \
         `benches/report/README.md` says how the tool measures. Raw results: \
         `benches/report/results.json`.\n",
        r.command.strip_prefix("tms-report").unwrap_or(&r.command),
        if r.samples == 1 {
            "one sample per point".to_string()
        } else {
            format!("{} samples per point, medians", r.samples)
        },
        r.started,
        r.total_s / 60.0
    );
    if !r.updates.is_empty() {
        let _ = writeln!(
            s,
            "**Updated since** (`--update`): the points each update names were measured by that \
             run, which replaced the same system's point at the same size; ratios between systems \
             are taken within one run where the table says so.\n"
        );
        for u in &r.updates {
            let _ = writeln!(
                s,
                "- `cargo run --release -p tms-report --{}`, started {}, took {:.0} min, commit {}{}, \
                 load {} at the start and {} at the end: {}.",
                u.command.strip_prefix("tms-report").unwrap_or(&u.command),
                u.started,
                u.total_s / 60.0,
                u.commit,
                if u.dirty_files > 0 {
                    format!(" with {} changed file(s)", u.dirty_files)
                } else {
                    String::new()
                },
                u.load,
                if u.load_end.is_empty() { "-" } else { &u.load_end },
                u.points.join("; ")
            );
        }
        let _ = writeln!(s);
    }

    if r.command.split_whitespace().any(|a| a == "--quick") {
        let _ = writeln!(
            s,
            "> **A development run (`--quick`)**: one sample per point and the small sizes. The \
             release report comes from `cargo run --release -p tms-report` (3 samples, N up to \
             2,048, every Mithril certificate), which takes hours on this machine.\n"
        );
    }
    let _ = writeln!(s, "## Machine and settings\n");
    let _ = writeln!(s, "| | |\n|---|---|");
    let _ = writeln!(
        s,
        "| machine | {}, {} logical CPUs available, {:.1} GiB RAM, Linux {} |",
        m.cpu, m.cpus, m.mem_gib, m.kernel
    );
    let _ = writeln!(
        s,
        "| load average (1, 5, 15 min) | {} at the start, {} at the end |",
        m.load,
        if r.load_end.is_empty() {
            "-"
        } else {
            &r.load_end
        }
    );
    let _ = writeln!(
        s,
        "| toolchain | {}, release profile (`lto = \"thin\"`) |",
        m.rustc
    );
    let _ = writeln!(
        s,
        "| checkout | commit `{}`{} |",
        r.commit,
        if r.dirty_files > 0 {
            format!(
                " with {} tracked file(s) modified in the working tree at the start (work in progress of other engineers)",
                r.dirty_files
            )
        } else {
            ", clean".to_string()
        }
    );
    let list = |v: &[usize]| {
        v.iter()
            .map(|n| thousands(*n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "| sizes | Schnorr ATMS and the STARK: committee size N = {}; threshold t = N/2, and exactly t members sign |",
        list(&r.sizes)
    );
    if systems.contains(&System::Bls) {
        let _ = writeln!(
            s,
            "| BLS ATMS sizes | N = {}, t = N/2 |",
            list(&r.bls_sizes)
        );
    }
    if !r.extra_points.is_empty() {
        let _ = writeln!(
            s,
            "| further points | {} |",
            r.extra_points
                .iter()
                .map(|(sys, n, t)| format!("{} {t} of {}", sys.label(), thousands(*n)))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    if systems.iter().any(|s| s.is_mithril()) {
        let _ = writeln!(
            s,
            "| Mithril certificates | {} (mithril-stm: all but mainnet) |",
            r.mithril
                .iter()
                .map(|c| c.describe())
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    let _ = writeln!(
        s,
        "| samples | {} proof(s) per point in one process (key generation once; mithril-stm: one process per sample); points of N >= {} and Mithril mainnet: one; tables give the median and, with several samples, each sample |",
        r.samples,
        thousands(r.one_sample_from)
    );
    let _ = writeln!(
        s,
        "| EVM gas | {} |",
        if r.gas {
            "one more proof per Halo2 point with the Keccak (EVM) transcript, its snark-verifier Solidity verifier compiled by solc-js and called in revm"
        } else {
            "not measured in this run (`--no-gas`)"
        }
    );
    let _ = writeln!(
        s,
        "| `RAYON_NUM_THREADS` | {} |\n",
        m.rayon_env.as_deref().unwrap_or("unset")
    );

    let _ = writeln!(s, "### Threads: which runs are single-threaded\n");
    if let Some(t) = snark_threads {
        let _ = writeln!(
            s,
            "- Our Halo2 circuits (Schnorr ATMS, BLS ATMS, SNARK-Mithril) and mithril-stm (midnight-proofs): the default rayon pool, **{t} thread(s)** (one per available CPU unless `RAYON_NUM_THREADS` is set). Multi-threaded."
        );
    }
    if systems.contains(&System::StarkSingle) {
        let _ = writeln!(
            s,
            "- STARK baseline, 1 thread: `stark-bench` built **without** winterfell's `concurrent` feature: **single-threaded**."
        );
    }
    if let Some(t) = threads_of(System::StarkConcurrent) {
        let _ = writeln!(
            s,
            "- STARK baseline, concurrent: `stark-bench` built **with** `--features concurrent` (winterfell's rayon backend): **{t} thread(s)**."
        );
    }
    let _ = writeln!(
        s,
        "- Prove CPU seconds are user + system time of the measuring process during proving, summed over its threads; with one thread they are close to the wall time, with several they show the total work.\n"
    );

    let _ = writeln!(s, "### Security levels\n");
    let _ = writeln!(
        s,
        "- **Halo2 circuits**: KZG commitments (SHPLONK multi-opening) over BN254. BN254's \
         security is about **100 bits** after the TNFS attacks on its pairing target group \
         (Kim-Barbulescu 2016; Barbulescu-Duquesne 2019 estimate roughly 100-103 bits), not the \
         128 it was designed for. **The KZG parameters used here are insecure test parameters**: \
         made from a fixed public seed (`tms_gadgets::proving::params::INSECURE_SEED`), so anyone can \
         forge proofs under them; they are cached under `params/`. Production use needs an SRS \
         from a powers-of-tau ceremony. Times and sizes do not depend on which SRS is used."
    );
    if systems.contains(&System::MithrilStm) {
        let _ = writeln!(
            s,
            "- **mithril-stm**: KZG over BLS12-381 (about 117-120 bits after the same TNFS \
             attacks), with an insecure SRS generated by `benches/mithril-compare` (seed 42) \
             because its ceremony file cannot be downloaded here."
        );
    }
    if systems.contains(&System::MithrilCardano) || systems.contains(&System::MithrilOursStm) {
        let _ = writeln!(
            s,
            "- **SNARK-Mithril on Cardano and its mithril-stm mode**: KZG over BLS12-381 as mithril-stm's, with the Cardano \
             backend's insecure test parameters (a fixed public seed, cached under `params/`); \
             production imports Midnight's ceremony file (`tms setup --backend cardano --srs`)."
        );
    }
    let stark_sec = r
        .points
        .iter()
        .find(|p| p.system.is_stark())
        .map(|p| p.security.clone());
    if let Some(sec) = stark_sec {
        let _ = writeln!(
            s,
            "- **STARK baseline**: {sec}, as printed by `stark-bench` (winterfell 0.13's estimates; \
             conjectured security is capped by Blake3-256's 128-bit collision resistance). The \
             figures of every point are in its table."
        );
    }
    let _ = writeln!(s);

    let _ = writeln!(s, "### Systems\n");
    for &system in &systems {
        let _ = writeln!(s, "- **{}**: {}", system.label(), what(system));
    }
    let _ = writeln!(s);

    let _ = writeln!(s, "## Combined table (medians)\n");
    let _ = writeln!(
        s,
        "| system | N | t | threads | prove wall s | prove CPU s | verify ms | proof bytes | peak MiB | EVM verify gas |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    let mut sorted: Vec<&Point> = r.points.iter().filter(|p| !p.system.is_mithril()).collect();
    sorted.sort_by_key(|p| (p.n, p.t, p.system));
    for p in sorted {
        combined_row(&mut s, p);
    }
    let _ = writeln!(s);
    // Measured beside sidechains-zk, which builds only outside this repository: kept verbatim
    // with the run it comes from.
    s.push_str(CARDANO_SCHNORR);
    // Measured by the Groth16 wrapper's tests and one end-to-end run: kept verbatim.
    s.push_str(CARDANO_GROTH16);
    mithril_section(&mut s, r);
    onchain_section(&mut s, r);

    let _ = writeln!(s, "## Charts\n");
    let _ = writeln!(
        s,
        "One line per t-of-N system (Mithril certificates are in their own table above); x = \
         committee size N on a log2 scale, y on a log scale; points off t = N/2 (such as \
         2001/1602) are drawn at their N.\n"
    );
    for c in &CHARTS {
        let path = relative(report_dir, &chart_dir.join(c.file));
        let _ = writeln!(s, "![{}]({path})\n", c.title);
    }

    naive_section(&mut s, r, chart_dir, report_dir);
    breakdown_section(&mut s, r, chart_dir, report_dir);

    let _ = writeln!(s, "## Per system\n");
    for &system in &systems {
        let pts: Vec<&Point> = r.points.iter().filter(|p| p.system == system).collect();
        let _ = writeln!(s, "### {}\n", system.label());
        if pts.is_empty() {
            let _ = writeln!(s, "No point was measured (see the failures below).\n");
            continue;
        }
        let _ = writeln!(
            s,
            "Threads: {}. Security: {}.\n",
            pts[0].threads, pts[0].security
        );
        let _ = writeln!(
            s,
            "| {} | shape | one-time s | prove wall s | prove CPU s | verify ms | proof bytes | peak MiB | process s |",
            if system.is_mithril() { "certificate" } else { "t of N" }
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
        for p in pts {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {:.0} | {} |",
                match &p.mithril {
                    Some(c) => c.describe(),
                    None => format!("{} of {}", p.t, thousands(p.n)),
                },
                p.shape,
                num(p.one_time_s),
                samples(&p.prove_wall_s),
                samples(&p.prove_cpu_s),
                samples(&p.verify_ms),
                thousands(p.proof_bytes),
                p.peak_mib,
                num(p.child_wall_s)
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{}\n",
            if system.is_snark() {
                "One-time = reading the KZG parameters (made and cached on first use) plus proving and verifying key generation; it is not in the prove time. Shape: variant, k, cells, columns, and the peak resident memory after keygen."
            } else if system.is_compare() {
                "One-time = reading (or generating) the SRS plus key generation, per process. Peak memory is the largest of the sample processes."
            } else {
                "One-time = Lamport+ key generation and signing, not in the prove time."
            }
        );
    }

    let _ = writeln!(s, "## Notes\n");
    let _ = writeln!(
        s,
        "- This run shared the machine with other work (builds and tests of other engineers): \
         load average {} at the start and {} at the end on {} logical CPUs. Wall times are \
         inflated by that load and multi-threaded runs gain less than they would on an idle \
         machine; compare CPU seconds and ratios within this run, and treat absolute times as \
         figures of this machine under this load.",
        m.load,
        if r.load_end.is_empty() {
            "-"
        } else {
            &r.load_end
        },
        m.cpus
    );
    let ratios: Vec<f64> = r
        .points
        .iter()
        .filter(|p| p.threads > 1 && p.prove_wall() > 0.0)
        .map(|p| p.prove_cpu() / p.prove_wall())
        .collect();
    if !ratios.is_empty() {
        let (lo, hi) = ratios
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(*x), b.max(*x)));
        let _ = writeln!(
            s,
            "- Prove CPU time / wall time of the multi-threaded points ranged from {lo:.2} to \
             {hi:.2}: while proving they got about that many cores' worth of CPU, whatever their \
             thread count. A ratio near 1 with 2 threads means the other core was busy with other \
             work, so the concurrent STARK and the Halo2 provers gained little over one thread \
             in this run; on an idle machine the ratio approaches the thread count."
        );
    }
    let _ = writeln!(
        s,
        "- Peak memory is the measuring child process's maximum resident set (`ru_maxrss` from \
         `wait4`), one process per point: for the Halo2 circuits it covers the KZG parameters, \
         keygen, the proofs and verifications; for the STARK, key generation, the proofs and \
         verifications."
    );
    let _ = writeln!(
        s,
        "- Verify times of a few milliseconds are sensitive to scheduling on a loaded machine."
    );
    let _ = writeln!(
        s,
        "- Sizes larger than these run with `--sizes` (for example `--sizes 8,16,32,64,128,256 \
         --systems stark,schnorr`)."
    );
    let bls: Vec<&Point> = r
        .points
        .iter()
        .filter(|p| p.system == System::Bls)
        .collect();
    if !bls.is_empty() {
        let cpu = bls.iter().map(|p| p.prove_cpu());
        let (lo, hi) = cpu.fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
        let peak = bls.iter().map(|p| p.peak_mib).fold(0.0f64, f64::max);
        let _ = writeln!(
            s,
            "- Each BLS ATMS proof cost {} to {} CPU seconds and up to {peak:.0} MiB in this run \
             whatever N: the in-circuit pairing dominates, which is what limits the BLS sizes \
             of one run on this machine.",
            num(lo),
            num(hi)
        );
    }
    if !r.failures.is_empty() {
        let _ = writeln!(s, "\n### Failures\n");
        for f in &r.failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

/// Writes the report and every chart.
pub fn write_all(r: &Results, out: &Path, chart_dir: &Path, root: &Path) -> Result<(), String> {
    std::fs::create_dir_all(chart_dir).map_err(|e| format!("{}: {e}", chart_dir.display()))?;
    let by_size: Vec<Point> = r
        .points
        .iter()
        .filter(|p| !p.system.is_mithril())
        .cloned()
        .collect();
    for c in &CHARTS {
        charts::draw(c, &by_size, chart_dir)?;
    }
    if !r.naive.is_empty() {
        for (file, title, y_label, proof_value, naive_value) in [
            (
                charts::SIZE_VS_NAIVE,
                "Certificate size: proofs (solid) and naive certificates (dashed)",
                "bytes",
                (|p: &Point| p.proof_bytes as f64) as fn(&Point) -> f64,
                (|b: &NaiveRun| b.certificate_bytes as f64) as fn(&NaiveRun) -> f64,
            ),
            (
                charts::VERIFY_VS_NAIVE,
                "Verify time: proofs (solid) and naive certificates (dashed)",
                "milliseconds",
                Point::verify,
                |b: &NaiveRun| median(&b.verify_ms),
            ),
        ] {
            let mut series: Vec<Series> = System::ALL
                .into_iter()
                .filter(|sy| !sy.is_mithril())
                .map(|sy| Series {
                    label: sy.label().into(),
                    color: charts::color(sy),
                    dashed: false,
                    points: by_size
                        .iter()
                        .filter(|p| p.system == sy)
                        .map(|p| (p.n as f64, proof_value(p)))
                        .collect(),
                })
                .collect();
            series.extend(Scheme::ALL.into_iter().enumerate().map(|(i, sc)| {
                Series {
                    label: format!("naive: {}", sc.label()),
                    color: charts::naive_color(i),
                    dashed: true,
                    points: r
                        .naive
                        .iter()
                        .filter(|b| b.scheme == sc)
                        .map(|b| (b.n as f64, naive_value(b)))
                        .collect(),
                }
            }));
            charts::draw_lines(&chart_dir.join(file), title, y_label, &series)?;
        }
    }
    for p in breakdown_points(r) {
        charts::draw_breakdown(
            &chart_dir.join(charts::breakdown_file(p.system)),
            &format!(
                "{}, {}: advice cells by component",
                p.system.label(),
                point_name(p)
            ),
            &p.components,
        )?;
    }
    let report_dir = out
        .parent()
        .map_or_else(|| root.to_path_buf(), PathBuf::from);
    std::fs::create_dir_all(&report_dir).map_err(|e| format!("{}: {e}", report_dir.display()))?;
    let text = markdown(r, chart_dir, &report_dir);
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(4_399_256), "4,399,256");
    }
}
