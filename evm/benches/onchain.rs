//! On-chain cost and the EVM transcript's prove time, per circuit and size.
//!
//! `cargo bench -p tms-evm --bench onchain` proves each certificate in both transcripts
//! (criterion, `sample_size(10)`, one `BenchmarkId` per transcript and size), then generates its
//! Solidity verifier, deploys it with the contract of `CertificateVerifier.sol` for its statement in revm and prints a `record:` line:
//! k, columns and cells, prove CPU seconds per transcript (this process, all threads), native
//! verify time, both proof sizes, the verifier's deployed size against EIP-170, deployment gas
//! and the gas of one verification (the verifier alone, and `verifyCertificate`).
//!
//! Sizes: `TMS_EVM_ATMS_SIZES` (Schnorr ATMS n/t, default `6/4,21/14`); SNARK-Mithril runs
//! m = 40, k = 3 over 5 parties (preprod-like). BLS ATMS (k = 20, a pairing: minutes per proof)
//! is measured once by the ignored test `cargo test --release -p tms-evm --test certificates --
//! --ignored --nocapture bls`. Needs `npm ci --prefix evm/solc`.

use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, Fr, G1Affine},
    plonk::VerifyingKey,
    poly::kzg::commitment::ParamsKZG,
};
use mithril_snark::{Parameters, PhiF};
use schnorr_atms::{CommitmentMode, Verification};
use tms_evm::certificate::{Contracts, GasReport, Trusted};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, stats::process_cpu_seconds, verify_shplonk, Transcript},
    testing::sizes_from_env,
};

/// At most this many halo2-base advice columns beside the custom gates' 16.
const BASE_COLUMNS: usize = 4;

const MESSAGE: &[u8] = b"tms onchain bench: epoch 7 certificate";

/// One certificate ready to measure.
struct Case<'a> {
    label: String,
    stats: String,
    params: &'a ParamsKZG<Bn256>,
    vk: &'a VerifyingKey<G1Affine>,
    public_inputs: Vec<Fr>,
    trusted: Trusted,
}

/// Proves with `prove` in both transcripts (criterion, and one CPU-timed proof each), then
/// measures the EVM proof on chain and prints the record.
fn measure(c: &mut Criterion, group: &str, case: Case, prove: impl Fn(Transcript) -> Vec<u8>) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    let mut cpu = vec![];
    let mut proofs = vec![];
    for transcript in [Transcript::Blake2b, Transcript::Evm] {
        let id = BenchmarkId::new(transcript.name(), &case.label);
        g.bench_function(id, |b| b.iter(|| prove(transcript)));
        let start = process_cpu_seconds();
        proofs.push(prove(transcript));
        cpu.push(process_cpu_seconds() - start);
    }
    g.finish();
    let evm_proof = &proofs[1];
    let start = Instant::now();
    assert!(verify_shplonk(
        case.params,
        case.vk,
        evm_proof,
        &case.public_inputs,
        Transcript::Evm
    ));
    let verify_ms = start.elapsed().as_secs_f64() * 1e3;
    let contracts = Contracts::build(
        case.params,
        case.vk,
        case.public_inputs.len(),
        case.trusted.kind(),
    )
    .expect("contracts");
    let report = GasReport::measure(
        &contracts,
        &case.trusted,
        &case.public_inputs,
        MESSAGE,
        evm_proof,
    )
    .expect("the honest certificate verifies on chain");
    println!(
        "record: {group} {} {} prove_cpu_s_blake2b={:.2} prove_cpu_s_evm={:.2} \
         evm_over_blake2b={:.3} native_verify_evm_ms={verify_ms:.1} blake2b_proof_bytes={} {report}",
        case.label,
        case.stats,
        cpu[0],
        cpu[1],
        cpu[1] / cpu[0],
        proofs[0].len(),
    );
    println!(
        "{}",
        tms_evm::gas_line(
            &format!("{group} {} verifyCertificate", case.label),
            report.certificate_call_gas,
            report.verifier_bytes
        )
    );
}

fn schnorr_atms(c: &mut Criterion) {
    for (n, t) in sizes_from_env("TMS_EVM_ATMS_SIZES", "6/4,21/14") {
        let witness = schnorr_atms::example_witness(
            (n, t),
            CommitmentMode::Flat,
            Verification::PerSignature,
            message_to_field(MESSAGE),
            n as u64,
            BASE_COLUMNS,
        )
        .expect("witness");
        let params = kzg_params(witness.shape.k);
        let keys = schnorr_atms::keygen(&params, witness.shape).expect("keygen");
        let case = Case {
            label: format!("flat_{n}_{t}"),
            stats: keys.stats.to_string(),
            params: &params,
            vk: keys.vk(),
            public_inputs: witness.instance.to_public_inputs(),
            trusted: Trusted::Atms {
                committee: witness.instance.commitment,
                threshold: t as u64,
            },
        };
        measure(c, "schnorr_atms_onchain", case, |transcript| {
            schnorr_atms::prove_with_transcript(&params, &keys, &witness, transcript)
                .expect("prove")
        });
    }
}

fn mithril(c: &mut Criterion) {
    let parameters = Parameters::new(40, 3, PhiF::new(7, 10).expect("phi")).expect("parameters");
    let ex = mithril_snark::example_certificate_on(
        parameters,
        5,
        None,
        11,
        false,
        Some(message_to_field(MESSAGE)),
    )
    .expect("certificate");
    let witness = ex.witness(BASE_COLUMNS).expect("witness");
    let params = kzg_params(witness.shape.k);
    let keys = mithril_snark::keygen(&params, witness.shape).expect("keygen");
    let instance = mithril_snark::MithrilInstance::from_trusted(&ex.registration, MESSAGE);
    let case = Case {
        label: "m40_k3_5_parties".into(),
        stats: keys.stats.to_string(),
        params: &params,
        vk: keys.vk(),
        public_inputs: instance.to_public_inputs(),
        trusted: Trusted::Mithril {
            registration: instance.commitment.digest(),
        },
    };
    measure(c, "mithril_onchain", case, |transcript| {
        mithril_snark::prove_with_transcript(&params, &keys, &witness, transcript).expect("prove")
    });
}

criterion_group!(benches, schnorr_atms, mithril);
criterion_main!(benches);
