//! Aggregation proofs on chain (`tms-aggregation`): N SNARK-Mithril certificates in one proof (also
//! through the final wrapper and `MithrilBatchVerifier`),
//! and a Mithril certificate chain of 8 epochs in one proof, each proved, verified natively (the
//! halo2 proof and the deferred pairing of its accumulator) and by its generated Solidity
//! verifier in revm; the chain root also through `ChainVerifier` (its statement built from the
//! trusted genesis, one-change statements and other proof lengths refused). Minutes and several
//! GiB each, so ignored; run one with
//! `cargo test --release -p tms-evm --test aggregation -- --ignored --nocapture NAME`
//! (`aggregate_mithril_certificates`, `aggregated_mithril_certificates_through_the_final_wrapper`,
//! `mithril_chain_of_eight_epochs_on_chain`, `mithril_chain_extended_one_epoch_at_a_time`). The
//! smallest, `a_corrupted_inner_proof_is_refused_natively_and_on_chain` (one `x * x = y` proof
//! aggregated at k = 16), runs in CI.
//!
//! Environment: `TMS_AGG_N` (default `2,4`) and `TMS_AGG_K` (default 22) for the first;
//! `TMS_CHAIN_SHAPE` (`per_leaf,per_node,levels`, default `2,2,2`) and `TMS_CHAIN_K` (default
//! 22) for the second; `TMS_AGG_LAYOUT=1` prints the aggregation layouts without proving;
//! `TMS_BATCH_N` (default 2) and `TMS_WRAP_K` (default: the one-column `k`) for the wrapped
//! aggregation.

use std::time::Instant;

use halo2_base::{
    gates::{
        circuit::{builder::BaseCircuitBuilder, CircuitBuilderStage},
        GateChip, GateInstructions,
    },
    halo2_proofs::{
        halo2curves::{
            bn256::{Bn256, Fr, G1Affine, G1},
            group::{Curve, GroupEncoding},
        },
        plonk::{keygen_pk, keygen_vk, VerifyingKey},
        poly::kzg::commitment::ParamsKZG,
    },
};
use mithril_snark::{
    chain::{chain_statement, link_message, ChainLink},
    Example, MithrilKeys, MithrilShape, MithrilWitness, Parameters,
};
use snark_verifier_sdk::snark_verifier::system::halo2::{compile, Config};
use tms_aggregation::{
    aggregation_keygen, aggregation_layout, aggregation_prove, aggregation_verify,
    certificate_snark,
    chain::{prove_chain, segment_inputs, verify_chain_proof, ChainCertificate, ChainShape, Link},
    proof_file,
    snark::accumulator_holds,
    ExposeAll, Snark, ACCUMULATOR_LIMBS,
};
use tms_evm::{
    certificate::{is_error, Contracts, Deployment, StatementKind, Trusted},
    gas_line,
    machine::Machine,
    verifier::calldata,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{
        params::kzg_params,
        prove_shplonk,
        stats::{peak_rss_mib, process_cpu_seconds},
        verify_shplonk, Transcript,
    },
};

const PARTIES: usize = 10;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Epoch `e`'s application message bytes (signed as `keccak256(bytes) mod r`, which is what
/// `ChainVerifier` builds).
fn application(e: usize) -> Vec<u8> {
    format!("tms evm test: chain epoch {e}").into_bytes()
}

/// Preprod certificates of `epochs` consecutive epochs (registration `e` drawn from seed `e`,
/// ten parties), epoch `e` signing the link to registration `e + 1` and application message
/// [`application`]`(e)`; all laid out in one shape (five signer slots), so one key proves them.
struct Epochs {
    examples: Vec<Example>,
    links: Vec<Link>,
    shape: MithrilShape,
}

/// A preprod certificate of registration `seed` (ten parties) on `message` (a random one if
/// `None`).
fn draw(seed: usize, message: Option<Fr>) -> Example {
    mithril_snark::example_certificate_on(
        Parameters::PREPROD,
        PARTIES,
        None,
        seed as u64,
        false,
        message,
    )
    .unwrap()
}

/// The one shape that proves every certificate of `examples` (drawn by [`draw`]): as `tms keygen
/// --scheme mithril` lays it out, one signer slot per index slot.
fn shape_of(examples: &[Example]) -> MithrilShape {
    let probe = MithrilShape {
        signer_slots: Parameters::PREPROD.k() as usize,
        ..examples[0].witness(4).unwrap().shape
    };
    MithrilShape {
        k: mithril_snark::min_k(&probe, 4).unwrap(),
        ..probe
    }
}

fn epochs(count: usize) -> Epochs {
    let digests: Vec<Fr> = (0..=count)
        .map(|e| draw(e, None).registration.commitment().digest())
        .collect();
    let links: Vec<Link> = (0..count)
        .map(|e| Link {
            next_registration: digests[e + 1],
            application: message_to_field(&application(e)),
        })
        .collect();
    let examples: Vec<Example> = links
        .iter()
        .enumerate()
        .map(|(e, link)| {
            let message = link_message(link.next_registration, link.application, e as u64).unwrap();
            draw(e, Some(message))
        })
        .collect();
    let shape = shape_of(&examples);
    Epochs {
        examples,
        links,
        shape,
    }
}

impl Epochs {
    /// The native chain verifier's view (each certificate with its signers and link), and the
    /// genesis digest it trusts.
    fn native(&self) -> (Vec<ChainLink>, Fr) {
        let links = self
            .examples
            .iter()
            .zip(&self.links)
            .enumerate()
            .map(|(epoch, (ex, link))| ChainLink {
                signers: ex.registration.commitment(),
                next_registration: link.next_registration,
                application: link.application,
                epoch: epoch as u64,
                certificate: ex.certificate.clone(),
            })
            .collect();
        (links, self.examples[0].registration.commitment().digest())
    }
}

/// Each certificate proved in the Poseidon transcript, as snarks.
fn certificate_snarks(
    params: &ParamsKZG<Bn256>,
    keys: &MithrilKeys,
    epochs: &Epochs,
) -> Vec<(Vec<Fr>, Snark)> {
    snarks_of(params, keys, epochs.shape, &epochs.examples)
}

/// Each of `examples` proved in `shape` in the Poseidon transcript, as snarks.
fn snarks_of(
    params: &ParamsKZG<Bn256>,
    keys: &MithrilKeys,
    shape: MithrilShape,
    examples: &[Example],
) -> Vec<(Vec<Fr>, Snark)> {
    examples
        .iter()
        .map(|ex| {
            let witness = MithrilWitness::new(shape, ex.instance(), &ex.certificate).unwrap();
            let proof =
                mithril_snark::prove_with_transcript(params, keys, &witness, Transcript::Poseidon)
                    .unwrap();
            let public = ex.instance().to_public_inputs();
            let snark = certificate_snark(params, keys.vk(), &public, proof).unwrap();
            (public, snark)
        })
        .collect()
}

/// Deploys the aggregation proof's generated verifier (EIP-170 lifted, its size reported) and
/// returns the contracts and its gas on the honest proof, after checking that a changed
/// statement input is refused.
fn gas_on_chain(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    public_inputs: &[Fr],
    proof: &[u8],
    kind: StatementKind,
) -> (Contracts, u64) {
    let contracts =
        Contracts::build_with_accumulator(params, vk, public_inputs.len(), ACCUMULATOR_LIMBS, kind)
            .unwrap();
    let mut machine = Machine::new(false);
    let deployed = machine.deploy(contracts.verifier.creation.clone()).unwrap();
    let call = machine
        .call(deployed.address, calldata(public_inputs, proof))
        .unwrap();
    assert!(
        call.success,
        "the verifier refused the honest aggregation proof"
    );
    let mut other = public_inputs.to_vec();
    *other.last_mut().unwrap() += Fr::one();
    let refused = machine
        .call(deployed.address, calldata(&other, proof))
        .unwrap();
    assert!(!refused.success, "a changed statement input was accepted");
    (contracts, call.gas)
}

/// A chain root proof (`public_inputs`: accumulator, then the chain's four words; EVM transcript)
/// on chain: its generated verifier (gas, a changed input refused), then through `ChainVerifier`
/// deployed for the genesis (with EIP-170 enforced when `mainnet`): the honest end of the chain
/// accepted; another last registration, message, epoch count, proof length and genesis refused.
/// Prints `evm-gas` lines labelled `path`.
fn chain_root_on_chain(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    (chain, genesis, statement): (&Epochs, Fr, &mithril_snark::chain::ChainStatement),
    (public_inputs, proof): (&[Fr], &[u8]),
    path: &str,
    mainnet: bool,
) {
    let epochs = statement.epochs as u64;
    let (contracts, gas) = gas_on_chain(params, vk, public_inputs, proof, StatementKind::Chain);
    println!(
        "record: {path} verifier_bytes={} gas={gas}",
        contracts.verifier.runtime.len()
    );
    println!(
        "{}",
        gas_line(
            &format!("{path} epochs={epochs} verifier"),
            gas,
            contracts.verifier.runtime.len()
        )
    );

    // Through ChainVerifier: the proof file (accumulator words, then the proof) and the claimed
    // end of the chain; the genesis is the contract's.
    assert_eq!(contracts.binding.proof_length, proof.len());
    let accumulator = &public_inputs[..ACCUMULATOR_LIMBS];
    let carried = proof_file(accumulator, proof);
    let message = application(chain.links.len() - 1);
    assert_eq!(message_to_field(&message), statement.last_application);
    let mut machine = Machine::new(mainnet);
    let trusted = Trusted::Chain { genesis };
    let deployment = Deployment::deploy(&mut machine, &contracts, &trusted).unwrap();
    let other_genesis = Trusted::Chain {
        genesis: genesis + Fr::one(),
    };
    let other = Deployment::deploy(&mut machine, &contracts, &other_genesis).unwrap();
    let mut verify_chain =
        |deployment: &Deployment, last: Fr, message: &[u8], epochs: u64, proof: &[u8]| {
            deployment
                .verify_chain(&mut machine, &last, message, epochs, proof)
                .unwrap()
        };
    let last = statement.last_registration;
    let honest = verify_chain(&deployment, last, &message, epochs, &carried);
    assert!(
        honest.success,
        "ChainVerifier refused the honest chain proof"
    );
    let mut other_message = message.clone();
    other_message.push(b'!');
    for (what, call) in [
        (
            "another last registration",
            verify_chain(&deployment, last + Fr::one(), &message, epochs, &carried),
        ),
        (
            "another message",
            verify_chain(&deployment, last, &other_message, epochs, &carried),
        ),
        (
            "fewer epochs",
            verify_chain(&deployment, last, &message, epochs - 1, &carried),
        ),
    ] {
        assert!(
            !call.success && is_error(&call.output, "ProofRejected()"),
            "{what} was accepted"
        );
    }
    let longer = [carried.as_slice(), &[0u8; 32]].concat();
    let call = verify_chain(&deployment, last, &message, epochs, &longer);
    assert!(!call.success && is_error(&call.output, "WrongProofLength(uint256,uint256)"));
    let call = verify_chain(&other, last, &message, epochs, &carried);
    assert!(!call.success, "another genesis was accepted");
    println!(
        "record: {path} verifyChain gas={} chain_verifier_deploy_gas={}",
        honest.gas, deployment.wrapper_gas
    );
    println!(
        "{}",
        gas_line(
            &format!("{path} epochs={epochs} verifyChain"),
            honest.gas,
            contracts.verifier.runtime.len()
        )
    );
}

#[test]
#[ignore = "aggregation proofs: minutes and GiB"]
fn aggregate_mithril_certificates() {
    let sizes: Vec<usize> = std::env::var("TMS_AGG_N")
        .unwrap_or_else(|_| "2,4".into())
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    let k = env_or("TMS_AGG_K", 22u32);
    let layout_only = std::env::var("TMS_AGG_LAYOUT").is_ok();
    let all = epochs(*sizes.iter().max().unwrap());
    let inner_params = kzg_params(all.shape.k);
    let keys = mithril_snark::keygen(&inner_params, all.shape).unwrap();
    let cpu = process_cpu_seconds();
    let snarks = certificate_snarks(&inner_params, &keys, &all);
    println!(
        "record: mithril preprod inner shape={:?} {} inner_prove_cpu_s_each={:.1}",
        all.shape,
        keys.stats,
        (process_cpu_seconds() - cpu) / snarks.len() as f64
    );
    let params = kzg_params(k);
    for n in sizes {
        let chosen: Vec<Snark> = snarks[..n].iter().map(|(_, s)| s.clone()).collect();
        if layout_only {
            let (config, cells) = aggregation_layout(&params, k, chosen, &ExposeAll).unwrap();
            println!("record: aggregate n={n} k={k} advice_cells={cells} config={config:?}");
            continue;
        }
        let cpu = process_cpu_seconds();
        let agg = aggregation_keygen(&params, k, chosen.clone(), &ExposeAll).unwrap();
        let keygen_cpu = process_cpu_seconds() - cpu;
        let (cpu, wall) = (process_cpu_seconds(), Instant::now());
        let (public_inputs, proof) =
            aggregation_prove(&params, &agg, chosen, &ExposeAll, Transcript::Evm).unwrap();
        let (prove_cpu, prove_wall) = (process_cpu_seconds() - cpu, wall.elapsed());
        let expected: Vec<Fr> = snarks[..n].iter().flat_map(|(p, _)| p.clone()).collect();
        assert_eq!(&public_inputs[ACCUMULATOR_LIMBS..], &expected[..]);
        let wall = Instant::now();
        assert!(aggregation_verify(
            &params,
            agg.vk(),
            &public_inputs,
            &proof,
            Transcript::Evm
        ));
        let verify = wall.elapsed();
        println!(
            "record: aggregate n={n} k={k} advice_cells={} config={:?} keygen_cpu_s={keygen_cpu:.1} \
             prove_cpu_s={prove_cpu:.1} prove_wall_s={:.1} peak_rss_mib={:.0} proof_bytes={} \
             native_verify_ms={:.1}",
            agg.advice_cells,
            agg.config,
            prove_wall.as_secs_f64(),
            peak_rss_mib(),
            proof.len(),
            verify.as_secs_f64() * 1e3,
        );
        let (contracts, gas) = gas_on_chain(
            &params,
            agg.vk(),
            &public_inputs,
            &proof,
            StatementKind::MithrilBatch,
        );
        println!(
            "record: aggregate n={n} verifier_bytes={} gas={gas}",
            contracts.verifier.runtime.len()
        );
        println!(
            "{}",
            gas_line(
                &format!("aggregate-mithril-x{n} verifier"),
                gas,
                contracts.verifier.runtime.len()
            )
        );
    }
}

/// N SNARK-Mithril certificates of one registration (`TMS_BATCH_N`, default 2; message `i` is
/// [`batch_message`]`(i)`) aggregated in the Poseidon transcript at `TMS_AGG_K` (default 22),
/// that aggregation proof through the final wrapper (one advice column at the `k` it needs,
/// EVM transcript), verified natively and through `MithrilBatchVerifier` deployed **with
/// EIP-170 enforced**: the honest batch accepted; messages swapped, one message changed and
/// another registration refused. Half an hour and about 17 GiB:
/// `cargo test --release -p tms-evm --test aggregation -- --ignored --nocapture aggregated_mithril`.
#[test]
#[ignore = "an aggregation proof and its final wrapper: half an hour and ~17 GiB"]
fn aggregated_mithril_certificates_through_the_final_wrapper() {
    use tms_aggregation::{node_snark, one_column_k, ExposeStatements};
    let n = env_or("TMS_BATCH_N", 2usize);
    let k = env_or("TMS_AGG_K", 22u32);
    let messages: Vec<Vec<u8>> = (0..n).map(batch_message).collect();
    let examples: Vec<Example> = messages
        .iter()
        .map(|m| draw(0, Some(message_to_field(m))))
        .collect();
    let registration = examples[0].registration.commitment().digest();
    let shape = shape_of(&examples);
    let inner_params = kzg_params(shape.k);
    let keys = mithril_snark::keygen(&inner_params, shape).unwrap();
    let snarks = snarks_of(&inner_params, &keys, shape, &examples);
    let statement: Vec<Fr> = snarks.iter().flat_map(|(p, _)| p.clone()).collect();
    let expected: Vec<Fr> = messages
        .iter()
        .flat_map(|m| [registration, message_to_field(m)])
        .collect();
    assert_eq!(
        statement, expected,
        "[registration, m_i] for each certificate"
    );

    // The aggregation of N, in the Poseidon transcript (the wrapper verifies it in-circuit).
    let params = kzg_params(k);
    let chosen: Vec<Snark> = snarks.into_iter().map(|(_, s)| s).collect();
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    let agg = aggregation_keygen(&params, k, chosen.clone(), &ExposeAll).unwrap();
    let keygen_cpu = process_cpu_seconds() - cpu;
    let cpu = process_cpu_seconds();
    let (agg_public, agg_proof) =
        aggregation_prove(&params, &agg, chosen, &ExposeAll, Transcript::Poseidon).unwrap();
    println!(
        "record: batch aggregate n={n} k={k} advice_cells={} config={:?} keygen_cpu_s={keygen_cpu:.0} \
         prove_cpu_s={:.0} wall_s={:.0} peak_rss_mib={:.0}",
        agg.advice_cells,
        agg.config,
        process_cpu_seconds() - cpu,
        wall.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
    assert_eq!(&agg_public[ACCUMULATOR_LIMBS..], &statement[..]);
    let agg_vk = agg.vk().clone();
    drop(agg);
    let node = node_snark(&params, &agg_vk, &agg_public, agg_proof).unwrap();

    // The final wrapper over it.
    let (_, cells) = aggregation_layout(&params, k, vec![node.clone()], &ExposeStatements).unwrap();
    let wrap_k = env_or("TMS_WRAP_K", one_column_k(cells));
    let wrap_params = kzg_params(wrap_k);
    println!("layout: batch wrapper n={n} advice_cells={cells} k={wrap_k}");
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    let wrap =
        aggregation_keygen(&wrap_params, wrap_k, vec![node.clone()], &ExposeStatements).unwrap();
    let keygen_cpu = process_cpu_seconds() - cpu;
    let (cpu, wall_prove) = (process_cpu_seconds(), Instant::now());
    let (public_inputs, proof) = aggregation_prove(
        &wrap_params,
        &wrap,
        vec![node],
        &ExposeStatements,
        Transcript::Evm,
    )
    .unwrap();
    println!(
        "record: batch wrapper n={n} k={wrap_k} advice_cells={} config={:?} \
         keygen_cpu_s={keygen_cpu:.0} keygen_wall_s={:.0} prove_cpu_s={:.0} prove_wall_s={:.0} \
         peak_rss_mib={:.0} proof_bytes={}",
        wrap.advice_cells,
        wrap.config,
        wall.elapsed().as_secs_f64() - wall_prove.elapsed().as_secs_f64(),
        process_cpu_seconds() - cpu,
        wall_prove.elapsed().as_secs_f64(),
        peak_rss_mib(),
        proof.len()
    );
    assert_eq!(&public_inputs[ACCUMULATOR_LIMBS..], &statement[..]);
    assert!(aggregation_verify(
        &wrap_params,
        wrap.vk(),
        &public_inputs,
        &proof,
        Transcript::Evm
    ));
    let mut other = public_inputs.clone();
    other[ACCUMULATOR_LIMBS + 1] += Fr::one();
    assert!(
        !aggregation_verify(&wrap_params, wrap.vk(), &other, &proof, Transcript::Evm),
        "another first message verified natively"
    );

    // On chain, EIP-170 enforced: the contract builds the statement from its registration and
    // the message bytes.
    let contracts = Contracts::build_with_accumulator(
        &wrap_params,
        wrap.vk(),
        public_inputs.len(),
        ACCUMULATOR_LIMBS,
        StatementKind::MithrilBatch,
    )
    .unwrap();
    let carried = proof_file(&public_inputs[..ACCUMULATOR_LIMBS], &proof);
    let trusted = Trusted::MithrilBatch {
        registration,
        certificates: n,
    };
    let mut mainnet = Machine::new(true);
    let deployment = Deployment::deploy(&mut mainnet, &contracts, &trusted)
        .expect("the final wrapper's verifier deploys under EIP-170");
    let honest = deployment
        .verify_certificates(&mut mainnet, &messages, &carried)
        .unwrap();
    assert!(
        honest.success,
        "MithrilBatchVerifier refused the honest batch"
    );
    let mut swapped = messages.clone();
    swapped.reverse();
    let mut changed = messages.clone();
    changed[0].push(b'!');
    for (what, batch) in [
        ("messages swapped", &swapped),
        ("a message changed", &changed),
    ] {
        let call = deployment
            .verify_certificates(&mut mainnet, batch, &carried)
            .unwrap();
        assert!(
            !call.success && is_error(&call.output, "ProofRejected()"),
            "{what} was accepted"
        );
    }
    let other_registration = Trusted::MithrilBatch {
        registration: registration + Fr::one(),
        certificates: n,
    };
    let other = Deployment::deploy(&mut mainnet, &contracts, &other_registration).unwrap();
    let call = other
        .verify_certificates(&mut mainnet, &messages, &carried)
        .unwrap();
    assert!(
        !call.success,
        "another registration's contract accepted the batch"
    );
    let verifier_bytes = contracts.verifier.runtime.len();
    println!(
        "record: batch wrapper n={n} verifier_bytes={verifier_bytes} verify_certificates_gas={}",
        honest.gas
    );
    println!(
        "{}",
        gas_line(
            &format!("aggregate-mithril-x{n}-wrapped verifyCertificates"),
            honest.gas,
            verifier_bytes
        )
    );
}

/// Message `i` of [`aggregated_mithril_certificates_through_the_final_wrapper`]'s batch.
fn batch_message(i: usize) -> Vec<u8> {
    format!("tms evm test: batch message {i}").into_bytes()
}

#[test]
#[ignore = "a tree of aggregation proofs: many minutes and GiB"]
fn mithril_chain_of_eight_epochs_on_chain() {
    let numbers: Vec<usize> = std::env::var("TMS_CHAIN_SHAPE")
        .unwrap_or_else(|_| "2,2,2".into())
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    let shape = ChainShape {
        per_leaf: numbers[0],
        per_node: numbers[1],
        levels: numbers[2],
        k: env_or("TMS_CHAIN_K", 22u32),
    };
    let chain = epochs(shape.epochs());
    let inner_params = kzg_params(chain.shape.k);
    let keys = mithril_snark::keygen(&inner_params, chain.shape).unwrap();
    let snarks = certificate_snarks(&inner_params, &keys, &chain);
    // The native chain verifier's view: the statement from the trusted genesis digest.
    let (native, genesis) = chain.native();
    let statement = chain_statement(genesis, &native).unwrap();
    assert_eq!(statement.epochs, shape.epochs());

    let params = kzg_params(shape.k);
    let certificates = snarks
        .into_iter()
        .zip(&chain.links)
        .map(|((_, snark), link)| ChainCertificate { snark, link: *link })
        .collect();
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    let (chain_keys, proved) = prove_chain(
        &params,
        shape,
        (&inner_params, keys.vk()),
        certificates,
        None,
        Transcript::Evm,
        &mut |level, index, count| {
            println!(
                "record: chain level {level} node {} of {count} starts: wall_s={:.0} cpu_s={:.0} \
                 peak_rss_mib={:.0}",
                index + 1,
                wall.elapsed().as_secs_f64(),
                process_cpu_seconds() - cpu,
                peak_rss_mib()
            )
        },
    )
    .unwrap();
    let (total_cpu, total_wall) = (process_cpu_seconds() - cpu, wall.elapsed());
    let root = chain_keys.levels.last().unwrap();
    assert_eq!(
        &proved.public_inputs[ACCUMULATOR_LIMBS..],
        &segment_inputs(&statement)[..]
    );
    let accumulator = &proved.public_inputs[..ACCUMULATOR_LIMBS];
    let wall = Instant::now();
    assert!(verify_chain_proof(
        &params,
        root.vk(),
        &statement,
        accumulator,
        &proved.proof,
        Transcript::Evm
    ));
    let verify = wall.elapsed();
    // One change at a time to the claimed statement is refused.
    for changed in [
        mithril_snark::chain::ChainStatement {
            genesis: statement.genesis + Fr::one(),
            ..statement
        },
        mithril_snark::chain::ChainStatement {
            last_registration: statement.last_registration + Fr::one(),
            ..statement
        },
        mithril_snark::chain::ChainStatement {
            last_application: statement.last_application + Fr::one(),
            ..statement
        },
        mithril_snark::chain::ChainStatement {
            epochs: statement.epochs - 1,
            ..statement
        },
    ] {
        assert!(!verify_chain_proof(
            &params,
            root.vk(),
            &changed,
            accumulator,
            &proved.proof,
            Transcript::Evm
        ));
    }
    let cells: Vec<usize> = chain_keys.levels.iter().map(|l| l.advice_cells).collect();
    let configs: Vec<_> = chain_keys.levels.iter().map(|l| l.config).collect();
    println!(
        "record: chain epochs={} shape={shape:?} level_advice_cells={cells:?} \
         level_configs={configs:?} total_cpu_s={total_cpu:.1} total_wall_s={:.1} \
         per_epoch_cpu_s={:.1} peak_rss_mib={:.0} root_proof_bytes={} native_verify_ms={:.1}",
        shape.epochs(),
        total_wall.as_secs_f64(),
        total_cpu / shape.epochs() as f64,
        peak_rss_mib(),
        proved.proof.len(),
        verify.as_secs_f64() * 1e3,
    );
    chain_root_on_chain(
        &params,
        root.vk(),
        (&chain, genesis, &statement),
        (&proved.public_inputs, &proved.proof),
        "chain-root",
        false,
    );
}

/// A Mithril chain of 3 epochs built incrementally (`tms_aggregation::chain_step`): the base
/// case over the first certificate, then two extensions by one epoch each, every step proof
/// verifying the previous one under the step key (a witness of the circuit, bound by its digest
/// in the statement). The verifier checks the last proof from the genesis digest, the last
/// registration digest, the last application message, the epoch count and its own key; each
/// one-change statement and a proof of the 2-epoch chain claimed as 3 epochs are refused.
/// Step keygen and three step proofs at k = 22 (`TMS_STEP_K`): an hour of CPU and about 14 GiB:
/// `cargo test --release -p tms-evm --test aggregation -- --ignored --nocapture mithril_chain_extended`.
#[test]
#[ignore = "three recursive step proofs: an hour of CPU and GiB"]
fn mithril_chain_extended_one_epoch_at_a_time() {
    use tms_aggregation::{
        chain_step::{
            chain_wrap_cells, chain_wrap_keygen, extend_chain, step_keygen, verify_extended_chain,
            wrap_chain,
        },
        one_column_k,
    };
    const EPOCHS: usize = 3;
    let chain = epochs(EPOCHS);
    let inner_params = kzg_params(chain.shape.k);
    let keys = mithril_snark::keygen(&inner_params, chain.shape).unwrap();
    let snarks = certificate_snarks(&inner_params, &keys, &chain);
    let (native, genesis) = chain.native();

    let k = env_or("TMS_STEP_K", 22u32);
    let params = kzg_params(k);
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    let step_keys = step_keygen(&params, k, (&inner_params, keys.vk())).unwrap();
    println!(
        "record: chain step keygen k={k} advice_cells={} config={:?} cpu_s={:.0} wall_s={:.0} \
         peak_rss_mib={:.0}",
        step_keys.keys.advice_cells,
        step_keys.keys.config,
        process_cpu_seconds() - cpu,
        wall.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
    let mut last: Option<(Vec<Fr>, Vec<u8>)> = None;
    for (e, (_, snark)) in snarks.into_iter().enumerate() {
        let (cpu, wall) = (process_cpu_seconds(), Instant::now());
        let certificate = ChainCertificate {
            snark,
            link: chain.links[e],
        };
        let previous = last
            .as_ref()
            .map(|(p, proof)| (p.as_slice(), proof.clone()));
        let (public_inputs, proof) =
            extend_chain(&params, &step_keys, previous, certificate).unwrap();
        println!(
            "record: chain step epoch={} cpu_s={:.0} wall_s={:.0} peak_rss_mib={:.0} proof_bytes={}",
            e + 1,
            process_cpu_seconds() - cpu,
            wall.elapsed().as_secs_f64(),
            peak_rss_mib(),
            proof.len()
        );
        let statement = chain_statement(genesis, &native[..=e]).unwrap();
        let accumulator = &public_inputs[..ACCUMULATOR_LIMBS];
        assert!(
            verify_extended_chain(
                &params,
                step_keys.keys.vk(),
                &statement,
                accumulator,
                &proof
            ),
            "epoch {e}"
        );
        last = Some((public_inputs, proof));
    }
    let (public_inputs, proof) = last.unwrap();
    let accumulator = &public_inputs[..ACCUMULATOR_LIMBS];
    let statement = chain_statement(genesis, &native).unwrap();
    assert_eq!(statement.epochs, EPOCHS);
    let verifies = |s: &mithril_snark::chain::ChainStatement| {
        verify_extended_chain(&params, step_keys.keys.vk(), s, accumulator, &proof)
    };
    assert!(verifies(&statement));
    let one_change = |change: &dyn Fn(&mut mithril_snark::chain::ChainStatement)| {
        let mut other = statement;
        change(&mut other);
        other
    };
    for (what, other) in [
        ("genesis", one_change(&|s| s.genesis += Fr::one())),
        (
            "last registration",
            one_change(&|s| s.last_registration += Fr::one()),
        ),
        (
            "last message",
            one_change(&|s| s.last_application += Fr::one()),
        ),
        ("epochs", one_change(&|s| s.epochs += 1)),
        ("epochs", one_change(&|s| s.epochs -= 1)),
    ] {
        assert!(!verifies(&other), "another {what}");
    }
    // The step key is the verifier's own: the same public inputs with another key digest fail.
    let mut claimed = public_inputs.clone();
    *claimed.last_mut().unwrap() += Fr::one();
    assert!(!aggregation_verify(
        &params,
        step_keys.keys.vk(),
        &claimed,
        &proof,
        Transcript::Poseidon
    ));

    // On chain: the final wrapper verifies the last step proof under the step key (a constant
    // of it) and exposes the chain's four words, which `ChainVerifier` takes as from a tree.
    let step_vk = step_keys.keys.vk().clone();
    drop(step_keys);
    let cells = chain_wrap_cells(&params, k, (&params, &step_vk)).unwrap();
    let wrap_k = env_or("TMS_WRAP_K", one_column_k(cells));
    let wrap_params = kzg_params(wrap_k);
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    let wrap_keys = chain_wrap_keygen(&wrap_params, wrap_k, (&params, &step_vk)).unwrap();
    let keygen_cpu = process_cpu_seconds() - cpu;
    let (cpu, wall_prove) = (process_cpu_seconds(), Instant::now());
    let (wrapped, wrapped_proof) = wrap_chain(
        &wrap_params,
        &wrap_keys,
        (&params, &step_vk),
        (&public_inputs, proof),
        Transcript::Evm,
    )
    .unwrap();
    println!(
        "record: chain wrap k={wrap_k} advice_cells={} config={:?} keygen_cpu_s={keygen_cpu:.0} \
         keygen_wall_s={:.0} prove_cpu_s={:.0} prove_wall_s={:.0} peak_rss_mib={:.0} \
         proof_bytes={}",
        wrap_keys.advice_cells,
        wrap_keys.config,
        wall.elapsed().as_secs_f64() - wall_prove.elapsed().as_secs_f64(),
        process_cpu_seconds() - cpu,
        wall_prove.elapsed().as_secs_f64(),
        peak_rss_mib(),
        wrapped_proof.len()
    );
    assert_eq!(
        &wrapped[ACCUMULATOR_LIMBS..],
        &segment_inputs(&statement)[..]
    );
    let accumulator = &wrapped[..ACCUMULATOR_LIMBS];
    let verifies = |s: &mithril_snark::chain::ChainStatement| {
        verify_chain_proof(
            &wrap_params,
            wrap_keys.vk(),
            s,
            accumulator,
            &wrapped_proof,
            Transcript::Evm,
        )
    };
    assert!(verifies(&statement));
    for changed in [
        one_change(&|s| s.genesis += Fr::one()),
        one_change(&|s| s.last_registration += Fr::one()),
        one_change(&|s| s.last_application += Fr::one()),
        one_change(&|s| s.epochs -= 1),
    ] {
        assert!(!verifies(&changed));
    }
    chain_root_on_chain(
        &wrap_params,
        wrap_keys.vk(),
        (&chain, genesis, &statement),
        (&wrapped, &wrapped_proof),
        "chain-extended-wrapped",
        true,
    );
}

/// k of the inner circuit of [`a_corrupted_inner_proof_is_refused_natively_and_on_chain`].
const SQUARE_K: u32 = 8;
/// k of its aggregation circuit: 2,172,508 advice cells in 34 advice columns (at k = 18:
/// 2,122,147 in 9); few rows keep the parameters small.
const SQUARE_AGGREGATION_K: u32 = 16;

/// The inner circuit `x * x = y`, `y` public, on halo2-base's plain gate (one advice column, no
/// lookup): the cheapest proof to verify in an aggregation circuit. Keygen's builder if `keys`
/// is `None`, else the prover's with keygen's layout.
fn square(x: Fr, keys: Option<&BaseCircuitBuilder<Fr>>) -> (BaseCircuitBuilder<Fr>, Fr) {
    let mut builder = match keys {
        None => BaseCircuitBuilder::from_stage(CircuitBuilderStage::Keygen)
            .use_k(SQUARE_K as usize)
            .use_instance_columns(1),
        Some(keygen) => {
            BaseCircuitBuilder::prover(keygen.config_params.clone(), keygen.break_points())
        }
    };
    let ctx = builder.main(0);
    let x = ctx.load_witness(x);
    let y = GateChip::default().mul(ctx, x, x);
    builder.assigned_instances[0].push(y);
    if keys.is_none() {
        builder.calculate_params(Some(9));
    }
    let value = *y.value();
    (builder, value)
}

/// `proof` with its last point (SHPLONK's final opening witness, the last thing the Poseidon
/// transcript reads) moved by the generator: every check but the final pairing still holds.
fn corrupt_final_opening(proof: &[u8]) -> Vec<u8> {
    let mut bytes = proof.to_vec();
    let at = bytes.len() - 32;
    let mut repr = <G1Affine as GroupEncoding>::Repr::default();
    repr.as_mut().copy_from_slice(&bytes[at..]);
    let w = Option::<G1Affine>::from(G1Affine::from_bytes(&repr)).expect("a point");
    let moved = (G1::from(w) + G1Affine::generator()).to_affine();
    bytes[at..].copy_from_slice(moved.to_bytes().as_ref());
    bytes
}

/// Runs in CI (issue 51: the deferred pairing's checks, `accumulator_holds` and the generated
/// verifier's accumulator, are guarded by no other test).
#[test]
fn a_corrupted_inner_proof_is_refused_natively_and_on_chain() {
    // The inner proof, honest and corrupted.
    let inner_params = kzg_params(SQUARE_K);
    let (keygen, _) = square(Fr::from(3), None);
    let vk = keygen_vk(&inner_params, &keygen).unwrap();
    let pk = keygen_pk(&inner_params, vk, &keygen).unwrap();
    let (circuit, y) = square(Fr::from(3), Some(&keygen));
    let public = vec![y];
    let proof = prove_shplonk(&inner_params, &pk, circuit, &public, Transcript::Poseidon).unwrap();
    let honest = certificate_snark(&inner_params, pk.get_vk(), &public, proof.clone()).unwrap();
    let bad_proof = corrupt_final_opening(&proof);
    assert!(!verify_shplonk(
        &inner_params,
        pk.get_vk(),
        &bad_proof,
        &public,
        Transcript::Poseidon
    ));
    // `certificate_snark` refuses it; a prover that skips that check builds the snark itself.
    assert!(certificate_snark(&inner_params, pk.get_vk(), &public, bad_proof.clone()).is_err());
    let protocol = compile(
        &inner_params,
        pk.get_vk(),
        Config::kzg().with_num_instance(vec![1]),
    );
    let corrupted = Snark::new(protocol, vec![public.clone()], bad_proof);

    // One aggregation key; each proof in the EVM transcript.
    let params = kzg_params(SQUARE_AGGREGATION_K);
    let cpu = process_cpu_seconds();
    let agg = aggregation_keygen(
        &params,
        SQUARE_AGGREGATION_K,
        vec![honest.clone()],
        &ExposeAll,
    )
    .unwrap();
    let prove = |snark: Snark| {
        aggregation_prove(&params, &agg, vec![snark], &ExposeAll, Transcript::Evm).unwrap()
    };
    let (honest_inputs, honest_proof) = prove(honest);
    let (bad_inputs, bad_proof) = prove(corrupted);
    println!(
        "record: aggregation of one square proof k={SQUARE_AGGREGATION_K} advice_cells={} \
         config={:?} keygen_and_two_proofs_cpu_s={:.1} peak_rss_mib={:.0}",
        agg.advice_cells,
        agg.config,
        process_cpu_seconds() - cpu,
        peak_rss_mib()
    );
    assert_eq!(&bad_inputs[ACCUMULATOR_LIMBS..], &public[..]);

    // Natively: the outer proof of the corrupted inner proof is a valid halo2 proof; only its
    // accumulator (the inner proof's deferred pairing) fails.
    for (inputs, proof, holds) in [
        (&honest_inputs, &honest_proof, true),
        (&bad_inputs, &bad_proof, false),
    ] {
        assert!(verify_shplonk(
            &params,
            agg.vk(),
            proof,
            inputs,
            Transcript::Evm
        ));
        assert_eq!(
            accumulator_holds(&params, &inputs[..ACCUMULATOR_LIMBS]),
            holds
        );
        assert_eq!(
            aggregation_verify(&params, agg.vk(), inputs, proof, Transcript::Evm),
            holds,
            "the native verifier (accumulator_holds)"
        );
    }

    // On chain: the generated verifier folds the accumulator limbs into its pairing check.
    let contracts = Contracts::build_with_accumulator(
        &params,
        agg.vk(),
        bad_inputs.len(),
        ACCUMULATOR_LIMBS,
        StatementKind::Unbound,
    )
    .unwrap();
    let mut machine = Machine::new(false);
    let deployed = machine.deploy(contracts.verifier.creation.clone()).unwrap();
    let mut call = |inputs: &[Fr], proof: &[u8]| {
        machine
            .call(deployed.address, calldata(inputs, proof))
            .unwrap()
            .success
    };
    assert!(
        call(&honest_inputs, &honest_proof),
        "the honest aggregation"
    );
    assert!(
        !call(&bad_inputs, &bad_proof),
        "the generated verifier accepted the accumulator of a corrupted inner proof"
    );
}
