//! `MithrilBatchVerifier`: an aggregation of N SNARK-Mithril certificates under one
//! registration, verified from the registration the contract trusts and the N message bytes.
//!
//! The contract's logic does not depend on what the proof verifies, only on the verifier's
//! public inputs, so CI checks it on a **stand-in** (`tms_aggregation::stand_in`, as
//! `wrapper_shapes.rs` does): a halo2-base circuit at `k = 10` with the final wrapper's layout
//! (one advice column and its lookup) whose public inputs are a valid accumulator and the batch
//! statement `[registration, m_1, registration, m_2, registration, m_3]`; its proof verifies
//! natively. The honest batch is accepted; messages swapped, one message changed, too few and
//! too many messages, another registration and another proof length are refused; a statement is
//! consumed once; the contract refuses a verifier with an odd statement or none. The real
//! aggregation of N certificates through the final wrapper is the ignored
//! `aggregated_mithril_certificates_through_the_final_wrapper` in `aggregation.rs`.
//!
//! Needs `npm ci --prefix evm/solc` (README set-up; `.ci/run` does it).

mod common;

use common::construction_refused;
use snark_verifier_sdk::halo2::aggregation::AggregationConfigParams;
use tms_aggregation::{
    proof_file,
    stand_in::{stand_in, trivial_accumulator},
    ACCUMULATOR_LIMBS,
};
use tms_evm::{
    certificate::{is_error, Contracts, Deployment, StatementKind, Trusted},
    gas_line,
    machine::Machine,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, verify_kzg, MultiOpen, Transcript},
    Fr,
};

const K: u32 = 10;
const REGISTRATION: u64 = 0x5eed;

/// The final wrapper's layout at `K`.
fn final_wrapper_layout() -> AggregationConfigParams {
    AggregationConfigParams {
        degree: K,
        num_advice: 1,
        num_lookup_advice: 1,
        num_fixed: 1,
        lookup_bits: K as usize - 1,
    }
}

fn messages(count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| format!("tms evm test: batch message {i}").into_bytes())
        .collect()
}

/// A stand-in proof of the accumulator and `statement`, and the contracts tied to its verifier.
/// Returns the contracts and the proof as the contract takes it (accumulator words in front).
fn stand_in_contracts(statement: &[Fr]) -> (Contracts, Vec<u8>) {
    let params = kzg_params(K);
    let accumulator = trivial_accumulator(&params);
    let inputs = [accumulator.as_slice(), statement].concat();
    let twin = stand_in(
        &params,
        final_wrapper_layout(),
        &inputs,
        Transcript::Evm,
        MultiOpen::Shplonk,
    )
    .unwrap();
    assert!(verify_kzg(
        &params,
        &twin.vk,
        &twin.proof,
        &inputs,
        Transcript::Evm,
        MultiOpen::Shplonk
    ));
    let contracts = Contracts::build_with_accumulator(
        &params,
        &twin.vk,
        inputs.len(),
        ACCUMULATOR_LIMBS,
        StatementKind::MithrilBatch,
    )
    .unwrap();
    (contracts, proof_file(&accumulator, &twin.proof))
}

#[test]
fn a_batch_of_mithril_certificates_is_verified_from_the_registration_and_the_messages() {
    const N: usize = 3;
    let registration = Fr::from(REGISTRATION);
    let honest = messages(N);
    let statement: Vec<Fr> = honest
        .iter()
        .flat_map(|m| [registration, message_to_field(m)])
        .collect();
    let (contracts, proof) = stand_in_contracts(&statement);
    let trusted = Trusted::MithrilBatch {
        registration,
        certificates: N,
    };
    assert_eq!(
        contracts.binding.num_instances,
        ACCUMULATOR_LIMBS + trusted.statement_words()
    );
    let other_registration = Trusted::MithrilBatch {
        registration: registration + Fr::from(1),
        certificates: N,
    };
    let mut machine = Machine::new(true);
    let deployment = Deployment::deploy(&mut machine, &contracts, &trusted).unwrap();
    let other = Deployment::deploy(&mut machine, &contracts, &other_registration).unwrap();
    let mut verify = |deployment: &Deployment, messages: &[Vec<u8>], proof: &[u8]| {
        deployment
            .verify_certificates(&mut machine, messages, proof)
            .unwrap()
    };
    let accepted = verify(&deployment, &honest, &proof);
    assert!(accepted.success, "the honest batch was refused");
    println!(
        "{}",
        gas_line(
            &format!("mithril-batch-stand-in n={N} verifyCertificates"),
            accepted.gas,
            contracts.verifier.runtime.len()
        )
    );

    // One change each.
    let mut swapped = honest.clone();
    swapped.swap(0, 2);
    let mut changed = honest.clone();
    changed[1].push(b'!');
    for (what, batch) in [
        ("messages swapped", &swapped),
        ("one message changed", &changed),
    ] {
        let call = verify(&deployment, batch, &proof);
        assert!(
            !call.success && is_error(&call.output, "ProofRejected()"),
            "{what} was accepted"
        );
    }
    for count in [N - 1, N + 1, 0] {
        let call = verify(&deployment, &messages(count), &proof);
        assert!(
            !call.success && is_error(&call.output, "WrongCount(uint256,uint256)"),
            "{count} messages were accepted"
        );
    }
    for length in [proof.len() - 1, proof.len() + 32] {
        let mut resized = proof.clone();
        resized.resize(length, 0);
        let call = verify(&deployment, &honest, &resized);
        assert!(
            !call.success && is_error(&call.output, "WrongProofLength(uint256,uint256)"),
            "a proof of {length} bytes was accepted"
        );
    }
    let call = verify(&other, &honest, &proof);
    assert!(
        !call.success,
        "another registration's contract accepted the batch"
    );

    // Replay protection keys on the statement: the same messages once.
    let first = deployment
        .consume_certificates(&mut machine, &honest, &proof)
        .unwrap();
    assert!(first.success, "the first batch is consumed");
    let again = deployment
        .consume_certificates(&mut machine, &honest, &proof)
        .unwrap();
    assert!(!again.success && is_error(&again.output, "AlreadyConsumed(bytes32)"));
}

#[test]
fn the_batch_contract_refuses_a_verifier_with_an_odd_statement_or_none() {
    let trusted = Trusted::MithrilBatch {
        registration: Fr::from(REGISTRATION),
        certificates: 1,
    };
    for statement in [vec![Fr::from(1), Fr::from(2), Fr::from(3)], vec![]] {
        let (contracts, _) = stand_in_contracts(&statement);
        let mut machine = Machine::new(true);
        let verifier = machine
            .deploy(contracts.verifier.creation.clone())
            .unwrap()
            .address;
        assert!(
            construction_refused(
                &mut machine,
                &contracts,
                &trusted,
                verifier,
                "LayoutMismatch(uint256,uint256)"
            ),
            "a batch contract over {} statement words",
            statement.len()
        );
    }
}
