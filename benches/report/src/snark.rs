//! One SNARK system at one size, measured inside a child process (`tms-report __snark ...`) so
//! that its peak memory is its own.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::sys::{cpu_seconds, status_mib};
use crate::System;

/// halo2-base advice columns beside the Schnorr circuit's custom-gate columns (as in
/// `circuits/schnorr-atms/benches/atms.rs`).
const SCHNORR_BASE_COLUMNS: usize = 4;

/// What the child prints (one JSON line on stdout).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SnarkRun {
    /// Committee size.
    pub n: usize,
    /// Threshold (= signers).
    pub t: usize,
    /// The circuit variant: commitment mode or membership strategy.
    pub variant: String,
    /// log2 of the rows.
    pub k: u32,
    /// Advice cells (all gates, custom ones included).
    pub advice_cells: usize,
    /// Cells copied into lookup columns.
    pub lookup_cells: usize,
    /// Advice columns.
    pub advice_columns: usize,
    /// Lookup advice columns.
    pub lookup_columns: usize,
    /// Fixed columns.
    pub fixed_columns: usize,
    /// Rayon threads of the prover's pool.
    pub threads: usize,
    /// Reading (or making) the KZG parameters, s.
    pub setup_s: f64,
    /// Proving and verifying key generation, s.
    pub keygen_s: f64,
    /// Peak resident memory after keygen, MiB.
    pub peak_after_keygen_mib: f64,
    /// Prove wall seconds, one per sample.
    pub prove_wall_s: Vec<f64>,
    /// Prove CPU seconds (user + system, all threads), one per sample.
    pub prove_cpu_s: Vec<f64>,
    /// Verify milliseconds, one per sample.
    pub verify_ms: Vec<f64>,
    /// Proof bytes.
    pub proof_bytes: usize,
}

fn progress(system: System, n: usize, what: &str) {
    eprintln!("    {} N={n}: {what}", system.key());
}

/// One timed proof: (proof, wall s, CPU s).
fn timed<E: std::fmt::Debug>(
    f: impl FnOnce() -> Result<Vec<u8>, E>,
) -> Result<(Vec<u8>, f64, f64), String> {
    let (cpu0, wall0) = (cpu_seconds(), Instant::now());
    let proof = f().map_err(|e| format!("prove failed: {e:?}"))?;
    Ok((proof, wall0.elapsed().as_secs_f64(), cpu_seconds() - cpu0))
}

/// The flow both ATMS crates share: parameters, keygen, then `samples` proofs, each verified.
/// `stats` reads the circuit statistics out of the keys.
#[allow(clippy::too_many_arguments)]
fn run_flow<P, K, E: std::fmt::Debug>(
    system: System,
    (n, t, k): (usize, usize, u32),
    variant: String,
    samples: usize,
    setup: impl Fn(u32) -> P,
    keygen: impl Fn(&P) -> Result<K, E>,
    stats: impl Fn(&K) -> tms_gadgets::proving::stats::CircuitStats,
    prove: impl Fn(&P, &K) -> Result<Vec<u8>, E>,
    verify: impl Fn(&P, &K, &[u8]) -> Result<(), E>,
) -> Result<SnarkRun, String> {
    progress(system, n, &format!("setup k = {k}"));
    let start = Instant::now();
    let params = setup(k);
    let setup_s = start.elapsed().as_secs_f64();
    progress(system, n, "keygen");
    let start = Instant::now();
    let keys = keygen(&params).map_err(|e| format!("keygen failed: {e:?}"))?;
    let keygen_s = start.elapsed().as_secs_f64();
    let peak_after_keygen_mib = status_mib("VmHWM:");
    let st = stats(&keys);
    let mut run = SnarkRun {
        n,
        t,
        variant,
        k,
        advice_cells: st.advice_cells,
        lookup_cells: st.lookup_cells,
        advice_columns: st.advice_columns,
        lookup_columns: st.lookup_advice_columns,
        fixed_columns: st.fixed_columns,
        threads: rayon::current_num_threads(),
        setup_s,
        keygen_s,
        peak_after_keygen_mib,
        prove_wall_s: vec![],
        prove_cpu_s: vec![],
        verify_ms: vec![],
        proof_bytes: 0,
    };
    for i in 0..samples {
        progress(system, n, &format!("prove {}/{samples}", i + 1));
        let (proof, wall, cpu) = timed(|| prove(&params, &keys))?;
        let start = Instant::now();
        verify(&params, &keys, &proof).map_err(|e| format!("the proof does not verify: {e:?}"))?;
        run.verify_ms.push(start.elapsed().as_secs_f64() * 1e3);
        run.prove_wall_s.push(wall);
        run.prove_cpu_s.push(cpu);
        run.proof_bytes = proof.len();
    }
    Ok(run)
}

/// Measures `system` at committee size `n` with `t = n / 2` signers, `samples` proofs.
pub fn measure(system: System, n: usize, samples: usize) -> Result<SnarkRun, String> {
    let t = n / 2;
    match system {
        System::SchnorrFlat | System::SchnorrMerkle => schnorr(system, n, t, samples),
        System::Bls => bls(n, t, samples),
        _ => Err(format!("{} is not a SNARK system", system.key())),
    }
}

fn schnorr(system: System, n: usize, t: usize, samples: usize) -> Result<SnarkRun, String> {
    use schnorr_atms::{example_witness, keygen, prove, setup, verify, CommitmentMode};
    use tms_gadgets::Fr;

    let mode = if system == System::SchnorrMerkle {
        CommitmentMode::Merkle { slots: t.max(1) }
    } else {
        CommitmentMode::Flat
    };
    progress(system, n, "keys and signatures");
    let witness = example_witness(
        (n, t),
        mode,
        schnorr_atms::Verification::PerSignature,
        Fr::from(2026u64),
        n as u64,
        SCHNORR_BASE_COLUMNS,
    )
    .map_err(|e| e.to_string())?;
    let (shape, k) = (witness.shape, witness.shape.k);

    let variant = match mode {
        CommitmentMode::Flat => format!("flat, {n} slots"),
        CommitmentMode::Merkle { slots } => format!("Merkle, {slots} signer slots"),
    };
    run_flow(
        system,
        (n, t, k),
        variant,
        samples,
        setup,
        |params| keygen(params, shape),
        |keys| keys.stats.clone(),
        |params, keys| prove(params, keys, &witness),
        |params, keys, proof| verify(params, keys, &witness.instance, proof),
    )
}

/// k for about ten advice columns and at least 2^18 rows (the rule of
/// `circuits/bls-atms/benches/atms.rs`).
fn bls_k(advice_cells: usize) -> u32 {
    ((advice_cells / 10).max(1 << 18) as f64).log2().ceil() as u32
}

fn bls(n: usize, t: usize, samples: usize) -> Result<SnarkRun, String> {
    use bls_atms::{
        keygen, measure, prove, setup, verify, AtmsShape, AtmsWitness, Committee, NodeHash,
        Strategy,
    };
    use tms_gadgets::signature::bls::{SecretKey, Signature};

    let system = System::Bls;
    const MESSAGE: &[u8] = b"tms-report epoch";
    progress(
        system,
        n,
        "keys, proofs of possession, registration, signatures",
    );
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let sks: Vec<SecretKey> = (0..n).map(|_| SecretKey::random(&mut rng)).collect();
    let members: Vec<_> = sks
        .iter()
        .map(|s| (s.public_key(), s.prove_possession()))
        .collect();
    let committee = Committee::register(&members).map_err(|e| e.to_string())?;
    let signers: Vec<usize> = (0..t).collect();
    let sigma = Signature::aggregate(
        &signers
            .iter()
            .map(|&i| sks[i].sign(MESSAGE))
            .collect::<Vec<_>>(),
    );
    let capacity = n - t;
    let strategy = Strategy::cheapest(n, capacity);
    let probe = AtmsShape {
        n,
        capacity,
        strategy,
        hash: NodeHash::Poseidon,
        k: 22,
    };
    progress(system, n, &format!("layout ({strategy})"));
    let stats = measure(probe).map_err(|e| e.to_string())?;
    let shape = AtmsShape {
        k: bls_k(stats.advice_cells),
        ..probe
    };
    let witness =
        AtmsWitness::from_aggregate(shape, &committee, MESSAGE, &signers, sigma, t as u64)
            .map_err(|e| e.to_string())?;

    run_flow(
        system,
        (n, t, shape.k),
        format!("{strategy}, {capacity} non-signer slots"),
        samples,
        setup,
        |params| keygen(params, shape),
        |keys| keys.stats.clone(),
        |params, keys| prove(params, keys, &witness),
        |params, keys, proof| verify(params, keys, &witness.instance, proof),
    )
}
