//! One SNARK system at one size, measured inside a child process (`tms-report __snark ...`) so
//! that its peak memory is its own.

use std::time::Instant;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{proving::Transcript, Fr};

use crate::sys::{cpu_seconds, status_mib};
use crate::{MithrilCase, System};

/// halo2-base advice columns beside SNARK-Mithril's custom gates (the default of the crate's own
/// large tests, whose mainnet figure is k = 17).
const MITHRIL_BASE_COLUMNS: usize = 16;

/// What every certificate here signs.
const MESSAGE: &[u8] = b"tms-report epoch";

/// On-chain cost of one proof: the circuit's generated Solidity verifier (snark-verifier,
/// compiled by solc-js) deployed in revm and called with an EVM-transcript (Keccak) proof.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct EvmCost {
    /// Gas of one transaction calling the verifier with the proof and public inputs (21,000
    /// intrinsic gas and the calldata included).
    pub verifier_call_gas: u64,
    /// Gas of deploying the verifier.
    pub verifier_deploy_gas: u64,
    /// The verifier's deployed code, bytes (EIP-170 allows 24,576).
    pub verifier_bytes: usize,
    /// The EVM-transcript proof, bytes.
    pub evm_proof_bytes: usize,
    /// Proving it (Keccak transcript), CPU s.
    pub evm_prove_cpu_s: f64,
}

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
    /// On-chain cost, when measured.
    pub evm: Option<EvmCost>,
    /// Why `evm` is missing, if it is.
    pub evm_note: String,
    /// Cells by component, from the layout (`CircuitStats::components`).
    pub components: Vec<Component>,
}

/// The cells one component of a circuit uses (a serialisable copy of
/// `tms_gadgets::proving::cost::ComponentCells`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Component {
    /// What the component is.
    pub name: String,
    /// Advice cells (halo2-base's and the custom gates').
    pub advice_cells: usize,
    /// Cells copied into range-lookup columns.
    pub lookup_cells: usize,
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

/// How a circuit proves for the EVM: the verifier's key, the public inputs, and a prover with
/// the Keccak transcript. `None` in [`run_flow`] skips the on-chain measurement.
struct EvmFlow<'a, K, E> {
    vk: fn(&K) -> &VerifyingKey<G1Affine>,
    public_inputs: Vec<Fr>,
    /// What the key proves (the contracts' statement kind).
    kind: tms_evm::certificate::StatementKind,
    prove: TranscriptProver<'a, K, E>,
}

/// Proves with a chosen transcript.
type TranscriptProver<'a, K, E> =
    Box<dyn Fn(&ParamsKZG<Bn256>, &K, Transcript) -> Result<Vec<u8>, E> + 'a>;

/// Proves once with the EVM transcript, deploys the generated verifier in revm and calls it.
fn evm_cost<K, E: std::fmt::Debug>(
    params: &ParamsKZG<Bn256>,
    keys: &K,
    flow: &EvmFlow<K, E>,
) -> Result<EvmCost, String> {
    use tms_evm::{certificate::Contracts, machine::Machine};
    let cpu0 = cpu_seconds();
    let proof = (flow.prove)(params, keys, Transcript::Evm)
        .map_err(|e| format!("EVM-transcript prove failed: {e:?}"))?;
    let evm_prove_cpu_s = cpu_seconds() - cpu0;
    let vk = (flow.vk)(keys);
    let contracts = Contracts::build(params, vk, flow.public_inputs.len(), flow.kind)
        .map_err(|e| format!("verifier generation or solc-js (npm ci --prefix evm/solc): {e}"))?;
    let mut machine = Machine::new(false);
    let deployed = machine
        .deploy(contracts.verifier.creation.clone())
        .map_err(|e| format!("deploying the verifier: {e}"))?;
    let call = machine
        .call(
            deployed.address,
            tms_evm::verifier::calldata(&flow.public_inputs, &proof),
        )
        .map_err(|e| format!("calling the verifier: {e}"))?;
    if !call.success {
        return Err("the generated verifier rejected the honest proof".into());
    }
    Ok(EvmCost {
        verifier_call_gas: call.gas,
        verifier_deploy_gas: deployed.gas,
        verifier_bytes: contracts.verifier.runtime.len(),
        evm_proof_bytes: proof.len(),
        evm_prove_cpu_s,
    })
}

/// The flow every circuit shares: parameters, keygen, then `samples` proofs, each verified, and
/// (with `evm`) one EVM proof measured on chain. `stats` reads the circuit statistics out of the
/// keys.
#[allow(clippy::too_many_arguments)]
fn run_flow<K, E: std::fmt::Debug>(
    system: System,
    (n, t, k): (usize, usize, u32),
    variant: String,
    samples: usize,
    keygen: impl Fn(&ParamsKZG<Bn256>) -> Result<K, E>,
    stats: impl Fn(&K) -> tms_gadgets::proving::stats::CircuitStats,
    prove: impl Fn(&ParamsKZG<Bn256>, &K) -> Result<Vec<u8>, E>,
    verify: impl Fn(&ParamsKZG<Bn256>, &K, &[u8]) -> Result<(), E>,
    evm: Option<EvmFlow<K, E>>,
) -> Result<SnarkRun, String> {
    progress(system, n, &format!("setup k = {k}"));
    let start = Instant::now();
    let params = tms_gadgets::proving::params::kzg_params(k);
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
        evm: None,
        evm_note: "not measured (--no-gas)".into(),
        components: st
            .components
            .iter()
            .map(|c| Component {
                name: c.name.clone(),
                advice_cells: c.advice_cells,
                lookup_cells: c.lookup_cells,
            })
            .collect(),
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
    if let Some(flow) = evm {
        progress(system, n, "EVM proof, verifier, gas");
        match evm_cost(&params, &keys, &flow) {
            Ok(cost) => {
                run.evm = Some(cost);
                run.evm_note.clear();
            }
            Err(e) => {
                progress(system, n, &format!("no gas figure: {e}"));
                run.evm_note = e;
            }
        }
    }
    Ok(run)
}

/// Measures `system` at (N, t) (Mithril: the certificate `mithril`), `samples` proofs, and with
/// `gas` the on-chain cost of one EVM proof.
pub fn measure(
    system: System,
    (n, t): (usize, usize),
    samples: usize,
    gas: bool,
    mithril: Option<&MithrilCase>,
) -> Result<SnarkRun, String> {
    match system {
        System::SchnorrFlat | System::SchnorrMerkle => schnorr(system, n, t, samples, gas),
        System::Bls => bls(n, t, samples, gas),
        System::Mithril => mithril_snark_run(
            mithril.ok_or("a Mithril point needs its certificate")?,
            samples,
            gas,
        ),
        _ => Err(format!("{} is not one of our circuits", system.key())),
    }
}

fn schnorr(
    system: System,
    n: usize,
    t: usize,
    samples: usize,
    gas: bool,
) -> Result<SnarkRun, String> {
    use schnorr_atms::{
        example_witness, keygen, prove, prove_with_transcript, verify, CommitmentMode,
    };

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
        tms_gadgets::message::message_to_field(MESSAGE),
        n as u64,
        SCHNORR_BASE_COLUMNS,
    )
    .map_err(|e| e.to_string())?;
    let (shape, k) = (witness.shape, witness.shape.k);

    let variant = match mode {
        CommitmentMode::Flat => format!("flat, {n} slots"),
        CommitmentMode::Merkle { slots } => format!("Merkle, {slots} signer slots"),
    };
    let evm = gas.then(|| EvmFlow {
        vk: |keys: &schnorr_atms::AtmsKeys| keys.vk(),
        kind: tms_evm::certificate::StatementKind::Atms,
        public_inputs: witness.instance.to_public_inputs(),
        prove: Box::new(|params, keys, transcript| {
            prove_with_transcript(params, keys, &witness, transcript)
        }),
    });
    run_flow(
        system,
        (n, t, k),
        variant,
        samples,
        |params| keygen(params, shape),
        |keys| keys.stats.clone(),
        |params, keys| prove(params, keys, &witness),
        |params, keys, proof| verify(params, keys, &witness.instance, proof),
        evm,
    )
}

/// k for about ten advice columns and at least 2^18 rows (the rule of
/// `circuits/bls-atms/benches/atms.rs`).
fn bls_k(advice_cells: usize) -> u32 {
    ((advice_cells / 10).max(1 << 18) as f64).log2().ceil() as u32
}

fn bls(n: usize, t: usize, samples: usize, gas: bool) -> Result<SnarkRun, String> {
    use bls_atms::{
        keygen, measure, prove, prove_with_transcript, verify, AtmsShape, AtmsWitness, Committee,
        NodeHash, Strategy,
    };
    use tms_gadgets::signature::bls::{SecretKey, Signature};

    let system = System::Bls;
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
            .map(|&i| sks[i].sign(tms_gadgets::message::message_to_field(MESSAGE)))
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

    let evm = gas.then(|| EvmFlow {
        vk: |keys: &bls_atms::AtmsKeys| keys.vk(),
        kind: tms_evm::certificate::StatementKind::Atms,
        public_inputs: witness.instance.to_public_inputs(),
        prove: Box::new(|params, keys, transcript| {
            prove_with_transcript(params, keys, &witness, transcript)
        }),
    });
    run_flow(
        system,
        (n, t, shape.k),
        format!("{strategy}, {capacity} non-signer slots"),
        samples,
        |params| keygen(params, shape),
        |keys| keys.stats.clone(),
        |params, keys| prove(params, keys, &witness),
        |params, keys, proof| verify(params, keys, &witness.instance, proof),
        evm,
    )
}

/// Our SNARK-Mithril circuit on `case`: the certificate `mithril_snark::example_certificate_on`
/// builds (every party signs, lotteries played until k distinct indices are won), as
/// `benches/mithril-compare` builds it for our side, on [`MESSAGE`].
fn mithril_snark_run(case: &MithrilCase, samples: usize, gas: bool) -> Result<SnarkRun, String> {
    use mithril_snark::{
        example_certificate_on, keygen, prove, prove_with_transcript, prover::verify,
        MithrilInstance, Parameters, PhiF,
    };
    let system = System::Mithril;
    let parameters = if case.is_mainnet() {
        Parameters::MAINNET
    } else {
        let phi_f = PhiF::new((case.phi_f * 10_000.0).round() as u64, 10_000)
            .map_err(|e| format!("phi_f: {e}"))?;
        Parameters::new(case.m, case.quorum, phi_f).map_err(|e| format!("parameters: {e}"))?
    };
    progress(
        system,
        case.parties,
        "registration, signatures, certificate",
    );
    let example = example_certificate_on(
        parameters,
        case.parties,
        Some(case.depth as usize),
        case.seed,
        true,
        Some(tms_gadgets::message::message_to_field(MESSAGE)),
    )
    .map_err(|e| format!("example certificate: {e}"))?;
    let witness = example
        .witness(MITHRIL_BASE_COLUMNS)
        .map_err(|e| format!("witness: {e}"))?;
    let shape = witness.shape;
    // The verifier's statement from what it holds: the registration and the message bytes.
    let instance = MithrilInstance::from_trusted(&example.registration, MESSAGE);
    let evm = gas.then(|| EvmFlow {
        vk: |keys: &mithril_snark::MithrilKeys| keys.vk(),
        kind: tms_evm::certificate::StatementKind::Mithril,
        public_inputs: instance.to_public_inputs(),
        prove: Box::new(|params, keys, transcript| {
            prove_with_transcript(params, keys, &witness, transcript)
        }),
    });
    run_flow(
        system,
        (case.parties, case.quorum as usize, shape.k),
        format!(
            "{} signer slots, {} index slots, depth {}",
            shape.signer_slots, shape.index_slots, shape.depth
        ),
        samples,
        |params| keygen(params, shape),
        |keys| keys.stats.clone(),
        |params, keys| prove(params, keys, &witness),
        |params, keys, proof| verify(params, keys, &instance, proof),
        evm,
    )
}
