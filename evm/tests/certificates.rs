//! On-chain verification end to end: a small Schnorr ATMS and a small SNARK-Mithril
//! certificate are proved in the EVM transcript, their generated verifiers and
//! `CertificateVerifier` are compiled (solc-js) and deployed in revm, an honest certificate is
//! accepted, and four tampered ones are refused: a changed proof byte, another message, another
//! committee digest and a stronger threshold (the proof is for a lower one). The gas of each
//! verification is printed (`cargo test -p tms-evm -- --nocapture`), with the verifier's size
//! against EIP-170's limit (measured with the limit lifted: see the README's gas table).
//!
//! Needs `npm ci --prefix evm/solc` (README set-up; `.ci/run` does it).

use halo2_base::halo2_proofs::halo2curves::{bn256::Fr, ff::Field};
use mithril_snark::{Parameters, PhiF};
use schnorr_atms::{AtmsInstance, AtmsShape, CommitmentMode, Verification};
use tms_evm::{
    certificate::{Contracts, Deployment, GasReport, TrustedStatement},
    machine::Machine,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, verify_shplonk, Transcript},
};

/// What a test proved: the verifier's inputs and the statement a contract trusts. For an outer
/// proof, `public_inputs` start with the accumulator limbs and `proof` carries them in front.
struct Proved {
    params: halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
        halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
    >,
    vk: halo2_base::halo2_proofs::plonk::VerifyingKey<
        halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
    >,
    message: Vec<u8>,
    public_inputs: Vec<Fr>,
    proof: Vec<u8>,
    trusted: TrustedStatement,
}

/// Deploys the verifier pair for `proved`, checks the honest certificate and the four
/// tampered ones, and returns the gas of the honest `verifyCertificate` call.
fn check_on_chain(name: &str, proved: &Proved) -> u64 {
    let accumulator = proved.trusted.accumulator_words;
    assert!(verify_shplonk(
        &proved.params,
        &proved.vk,
        &proved.proof[accumulator * 32..],
        &proved.public_inputs,
        Transcript::Evm
    ));
    let contracts = Contracts::build_with_accumulator(
        &proved.params,
        &proved.vk,
        proved.trusted.num_instances(),
        accumulator,
    )
    .unwrap();
    // The honest certificate passes, through the generated verifier alone (the calldata
    // `tms prove --transcript evm` writes) and through CertificateVerifier. Measured with the
    // EIP-170 limit lifted: the README's gas table gives the sizes.
    let report = GasReport::measure(
        &contracts,
        &proved.trusted,
        &proved.public_inputs,
        &proved.message,
        &proved.proof,
    )
    .unwrap();
    let mut machine = Machine::new(false);
    // Whether `trusted`'s deployment accepts `message` and `proof`.
    let mut accepts = |trusted: &TrustedStatement, message: &[u8], proof: &[u8]| {
        let deployment = Deployment::deploy(&mut machine, &contracts, trusted).unwrap();
        deployment
            .verify_certificate(&mut machine, message, proof)
            .unwrap()
            .success
    };
    // The honest certificate passes here too: each refusal below is its one change's.
    assert!(accepts(&proved.trusted, &proved.message, &proved.proof));
    // A bit of a commitment (of an accumulator limb for an outer proof), of the middle, of the
    // final opening.
    for at in [31, proved.proof.len() / 2, proved.proof.len() - 1] {
        let mut tampered = proved.proof.clone();
        tampered[at] ^= 1;
        let accepted = accepts(&proved.trusted, &proved.message, &tampered);
        assert!(!accepted, "{name}: a proof with byte {at} changed");
    }
    let mut other_message = proved.message.clone();
    other_message.push(b'!');
    let accepted = accepts(&proved.trusted, &other_message, &proved.proof);
    assert!(!accepted, "{name}: another message");
    let other_committee = TrustedStatement {
        committee_digest: proved.trusted.committee_digest + Fr::ONE,
        ..proved.trusted
    };
    let accepted = accepts(&other_committee, &proved.message, &proved.proof);
    assert!(!accepted, "{name}: another committee's contract");
    if let Some(t) = proved.trusted.threshold {
        let stricter = TrustedStatement {
            threshold: Some(t + 1),
            ..proved.trusted
        };
        let accepted = accepts(&stricter, &proved.message, &proved.proof);
        assert!(
            !accepted,
            "{name}: a proof for t = {t}, a contract requiring {}",
            t + 1
        );
    }
    println!("record: {name} {report}");
    report.certificate_call_gas
}

/// Four of a committee of six sign `message` (flat commitment, at most 4 halo2-base columns).
fn four_of_six(message: &[u8]) -> schnorr_atms::AtmsWitness {
    schnorr_atms::example_witness(
        (6, 4),
        CommitmentMode::Flat,
        Verification::PerSignature,
        message_to_field(message),
        7,
        4,
    )
    .unwrap()
}

#[test]
fn schnorr_atms_certificate_on_chain() {
    const THRESHOLD: u64 = 4;
    let message = b"tms evm test: epoch 7 committee handover".to_vec();
    let witness = four_of_six(&message);
    let shape: AtmsShape = witness.shape;
    let params = kzg_params(shape.k);
    let keys = schnorr_atms::keygen(&params, shape).unwrap();
    let proof =
        schnorr_atms::prove_with_transcript(&params, &keys, &witness, Transcript::Evm).unwrap();
    // The contract's statement is the verifier's own, built from the committee commitment.
    let instance =
        AtmsInstance::from_trusted_commitment(witness.instance.commitment, &message, THRESHOLD);
    assert_eq!(instance, witness.instance);
    // A Blake2b proof is not an EVM proof.
    let blake = schnorr_atms::prove(&params, &keys, &witness).unwrap();
    assert!(!verify_shplonk(
        &params,
        keys.vk(),
        &blake,
        &instance.to_public_inputs(),
        Transcript::Evm
    ));
    let gas = check_on_chain(
        &format!("schnorr-atms 4 of 6 flat t={THRESHOLD} k={}", shape.k),
        &Proved {
            params,
            vk: keys.vk().clone(),
            message,
            public_inputs: instance.to_public_inputs(),
            proof,
            trusted: TrustedStatement {
                committee_digest: instance.commitment,
                threshold: Some(THRESHOLD),
                accumulator_words: 0,
            },
        },
    );
    assert!(gas > 21_000);
}

#[test]
fn mithril_certificate_on_chain() {
    let message = b"tms evm test: mithril epoch 7".to_vec();
    let parameters = Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap();
    let ex = mithril_snark::example_certificate_on(
        parameters,
        5,
        None,
        11,
        false,
        Some(message_to_field(&message)),
    )
    .unwrap();
    let witness = ex.witness(4).unwrap();
    let params = kzg_params(witness.shape.k);
    let keys = mithril_snark::keygen(&params, witness.shape).unwrap();
    let proof =
        mithril_snark::prove_with_transcript(&params, &keys, &witness, Transcript::Evm).unwrap();
    let instance = mithril_snark::MithrilInstance::from_trusted(&ex.registration, &message);
    check_on_chain(
        &format!("mithril m=40 k=3 circuit k={}", witness.shape.k),
        &Proved {
            params,
            vk: keys.vk().clone(),
            message,
            public_inputs: instance.to_public_inputs(),
            proof,
            trusted: TrustedStatement {
                committee_digest: instance.commitment.digest(),
                threshold: None,
                accumulator_words: 0,
            },
        },
    );
}

/// BLS ATMS 3 of 4 (threshold 2) on chain: a pairing circuit at k = 20, minutes here. Run with
/// `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture bls`.
///
/// Its statement's message input is a Poseidon digest of `H(m)` in G2, which a contract cannot
/// compute yet: the generated verifier is called with the public inputs the native verifier
/// builds (no `CertificateVerifier`), for its size and gas; another message digest is refused.
#[test]
#[ignore = "a pairing proof at k = 20: minutes"]
fn bls_atms_certificate_on_chain_gas() {
    use rand::SeedableRng;
    use tms_gadgets::{message::field_bytes, signature::bls::SecretKey};
    const THRESHOLD: u64 = 2;
    let message = b"tms evm test: BLS certificate".to_vec();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2026);
    let sks: Vec<SecretKey> = (0..4).map(|_| SecretKey::random(&mut rng)).collect();
    let members: Vec<_> = sks
        .iter()
        .map(|sk| (sk.public_key(), sk.prove_possession()))
        .collect();
    let committee = bls_atms::Committee::register(&members).unwrap();
    let signed = field_bytes(&message_to_field(&message));
    let signatures: Vec<_> = [0, 1, 3]
        .iter()
        .map(|&i| (i, sks[i].sign(&signed)))
        .collect();
    let shape = bls_atms::AtmsShape::auto(4, 3, 20);
    let witness =
        bls_atms::AtmsWitness::new(shape, &committee, &signed, &signatures, THRESHOLD).unwrap();
    let params = kzg_params(shape.k);
    let keys = bls_atms::keygen(&params, shape).unwrap();
    let proof = bls_atms::prove_with_transcript(&params, &keys, &witness, Transcript::Evm).unwrap();
    let instance =
        bls_atms::AtmsInstance::from_trusted(&shape, &committee, &message, THRESHOLD).unwrap();
    let public_inputs = instance.to_public_inputs();
    assert!(verify_shplonk(
        &params,
        keys.vk(),
        &proof,
        &public_inputs,
        Transcript::Evm
    ));
    let contracts = Contracts::build(&params, keys.vk(), public_inputs.len()).unwrap();
    let mut machine = Machine::new(false);
    let deployed = machine.deploy(contracts.verifier.creation.clone()).unwrap();
    let call = machine
        .call(
            deployed.address,
            tms_evm::verifier::calldata(&public_inputs, &proof),
        )
        .unwrap();
    assert!(call.success, "the verifier refused the honest BLS proof");
    let mut other = public_inputs.clone();
    other[1] += Fr::ONE;
    let refused = machine
        .call(
            deployed.address,
            tms_evm::verifier::calldata(&other, &proof),
        )
        .unwrap();
    assert!(!refused.success, "another message digest was accepted");
    println!(
        "record: bls-atms 3 of 4 t={THRESHOLD} {} verifier_bytes={} verifier_deploy_gas={} \
         verifier_call_gas={} evm_proof_bytes={}",
        keys.stats,
        contracts.verifier.runtime.len(),
        deployed.gas,
        call.gas,
        proof.len()
    );
}

/// A thin outer proof of a Schnorr ATMS certificate (snark-verifier-sdk's aggregation circuit
/// over the certificate proof in the Poseidon transcript): its verifier and gas, and the same
/// one-change refusals through `CertificateVerifier` (`accumulatorWords = 12`). Minutes and
/// several GiB at the outer k (default 21, `TMS_OUTER_K`):
/// `cargo test --release -p tms-evm --test certificates -- --ignored --nocapture outer`.
#[test]
#[ignore = "an aggregation proof: minutes and several GiB"]
fn schnorr_atms_outer_proof_on_chain() {
    use tms_aggregation::{
        aggregation_keygen, aggregation_prove, certificate_snark, ExposeAll, ACCUMULATOR_LIMBS,
    };
    use tms_gadgets::proving::stats::{peak_rss_mib, process_cpu_seconds};
    const THRESHOLD: u64 = 4;
    let message = b"tms evm test: outer proof of epoch 7".to_vec();
    let witness = four_of_six(&message);
    let inner_params = kzg_params(witness.shape.k);
    let keys = schnorr_atms::keygen(&inner_params, witness.shape).unwrap();
    let inner_proof =
        schnorr_atms::prove_with_transcript(&inner_params, &keys, &witness, Transcript::Poseidon)
            .unwrap();
    let inner_public = witness.instance.to_public_inputs();
    assert!(verify_shplonk(
        &inner_params,
        keys.vk(),
        &inner_proof,
        &inner_public,
        Transcript::Poseidon
    ));
    let snark = certificate_snark(&inner_params, keys.vk(), &inner_public, inner_proof).unwrap();

    let k: u32 = std::env::var("TMS_OUTER_K")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(21);
    let params = kzg_params(k);
    let cpu = process_cpu_seconds();
    let outer = aggregation_keygen(&params, k, vec![snark.clone()], &ExposeAll).unwrap();
    let keygen_cpu = process_cpu_seconds() - cpu;
    let cpu = process_cpu_seconds();
    let (public_inputs, proof) =
        aggregation_prove(&params, &outer, vec![snark], &ExposeAll, Transcript::Evm).unwrap();
    let prove_cpu = process_cpu_seconds() - cpu;
    assert_eq!(&public_inputs[ACCUMULATOR_LIMBS..], &inner_public[..]);
    println!(
        "record: outer k={k} advice_cells={} config={:?} keygen_cpu_s={keygen_cpu:.1} \
         prove_cpu_s={prove_cpu:.1} peak_rss_mib={:.0} outer_proof_bytes={}",
        outer.advice_cells,
        outer.config,
        peak_rss_mib(),
        proof.len()
    );
    // What `verifyCertificate` takes: the accumulator limbs (32-byte words), then the proof.
    let mut carried = tms_evm::verifier::calldata(&public_inputs[..ACCUMULATOR_LIMBS], &[]);
    carried.extend(&proof);
    let gas = check_on_chain(
        &format!("schnorr-atms 4 of 6 outer k={k}"),
        &Proved {
            params,
            vk: outer.pk.get_vk().clone(),
            message,
            public_inputs,
            proof: carried,
            trusted: TrustedStatement {
                committee_digest: witness.instance.commitment,
                threshold: Some(THRESHOLD),
                accumulator_words: ACCUMULATOR_LIMBS,
            },
        },
    );
    println!("record: outer verifyCertificate gas {gas}");
}
