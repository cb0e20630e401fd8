//! The final wrapper's shape, measured before choosing: what each layout of an outer proof's
//! circuit costs on chain.
//!
//! An outer proof (`tms-aggregation`) is snark-verifier-sdk's aggregation circuit: halo2-base's
//! plain gate with `advice` columns, lookup advice columns and one fixed column, chosen by the
//! cells it needs and its `k`. Its generated verifier depends on that layout, the public inputs
//! and the multi-opening argument, not on what the circuit verifies nor (beyond a few
//! squarings) on `k`. So each layout is measured here on a **shape twin**
//! (`tms_aggregation::stand_in`): a halo2-base circuit at `k = 10` configured with the very same
//! layout (so the same gates, lookup, permutation columns and selectors), whose rows are filled
//! as the real circuit fills them and whose public inputs are a valid KZG accumulator (12 limbs
//! of `[tau]G` and `G`, points of the parameters) followed by a Schnorr ATMS statement
//! `[commitment, m, t]`. Its proof verifies natively (halo2 and the accumulator's pairing) and
//! through `AtmsCertificateVerifier` with 12 accumulator words, deployed with EIP-170 enforced.
//! The real outer proofs' gas (`docs/src/guides/evm.md`) checks the twin.
//!
//! Every layout prints `record:` and an `evm-gas` line; `cargo test -p tms-evm --test
//! wrapper_shapes -- --nocapture` (in CI).

use snark_verifier_sdk::halo2::aggregation::AggregationConfigParams;
use tms_aggregation::{
    proof_file,
    snark::accumulator_holds,
    stand_in::{stand_in, trivial_accumulator},
    ACCUMULATOR_LIMBS,
};
use tms_evm::{
    certificate::{Contracts, Deployment, GasReport, StatementKind, Trusted},
    gas_line,
    machine::Machine,
    verifier::proof_cost,
    EIP170_LIMIT,
};
use tms_gadgets::{
    message::message_to_field,
    proving::{params::kzg_params, verify_kzg, MultiOpen, Transcript},
    Fr,
};

const K: u32 = 10;
const MESSAGE: &[u8] = b"tms evm test: wrapper shape twin";
const THRESHOLD: u64 = 3;

/// One layout of the outer circuit.
#[derive(Clone, Copy, Debug)]
struct Shape {
    advice: usize,
    lookup: bool,
    open: MultiOpen,
}

impl Shape {
    fn name(&self) -> String {
        format!(
            "wrapper-twin advice={} lookup={} {}",
            self.advice,
            usize::from(self.lookup),
            self.open.name()
        )
    }

    fn layout(&self) -> AggregationConfigParams {
        AggregationConfigParams {
            degree: K,
            num_advice: self.advice,
            num_lookup_advice: usize::from(self.lookup),
            num_fixed: 1,
            lookup_bits: K as usize - 1,
        }
    }
}

/// What one layout costs on chain.
struct Measured {
    proof_bytes: usize,
    report: GasReport,
    cost: snark_verifier_sdk::snark_verifier::cost::Cost,
}

fn measure(shape: Shape) -> Measured {
    let params = kzg_params(K);
    // A valid accumulator, then `[commitment, m, t]`.
    let mut inputs = trivial_accumulator(&params);
    inputs.extend([
        Fr::from(0xc0ffee),
        message_to_field(MESSAGE),
        Fr::from(THRESHOLD),
    ]);
    let twin = stand_in(
        &params,
        shape.layout(),
        &inputs,
        Transcript::Evm,
        shape.open,
    )
    .unwrap();
    let proof = twin.proof;
    assert!(verify_kzg(
        &params,
        &twin.vk,
        &proof,
        &inputs,
        Transcript::Evm,
        shape.open
    ));
    assert!(accumulator_holds(&params, &inputs[..ACCUMULATOR_LIMBS]));
    // A proof of the other multi-opening argument does not verify here.
    let other = match shape.open {
        MultiOpen::Shplonk => MultiOpen::Gwc,
        MultiOpen::Gwc => MultiOpen::Shplonk,
    };
    assert!(!verify_kzg(
        &params,
        &twin.vk,
        &proof,
        &inputs,
        Transcript::Evm,
        other
    ));

    let contracts = Contracts::build_for(
        &params,
        &twin.vk,
        inputs.len(),
        ACCUMULATOR_LIMBS,
        shape.open,
        StatementKind::Atms,
    )
    .unwrap();
    assert_eq!(contracts.binding.proof_length, proof.len(), "{shape:?}");
    let trusted = Trusted::Atms {
        committee: inputs[ACCUMULATOR_LIMBS],
        threshold: THRESHOLD,
    };
    let carried = proof_file(&inputs[..ACCUMULATOR_LIMBS], &proof);
    let report = GasReport::measure(&contracts, &trusted, &inputs, MESSAGE, &carried).unwrap();
    // Deployable on mainnet: EIP-170 enforced, and the certificate passes there too; a changed
    // proof byte and another message are refused.
    let mut mainnet = Machine::new(true);
    let deployed = Deployment::deploy(&mut mainnet, &contracts, &trusted)
        .unwrap_or_else(|e| panic!("{shape:?} does not deploy under EIP-170: {e}"));
    assert!(
        deployed
            .verify_certificate(&mut mainnet, MESSAGE, &carried)
            .unwrap()
            .success
    );
    let mut tampered = carried.clone();
    let at = tampered.len() / 2;
    tampered[at] ^= 1;
    assert!(
        !deployed
            .verify_certificate(&mut mainnet, MESSAGE, &tampered)
            .unwrap()
            .success
    );
    assert!(
        !deployed
            .verify_certificate(&mut mainnet, b"another message", &carried)
            .unwrap()
            .success
    );
    let cost = proof_cost(
        &params,
        &twin.vk,
        inputs.len(),
        ACCUMULATOR_LIMBS,
        shape.open,
    )
    .unwrap();
    Measured {
        proof_bytes: proof.len(),
        report,
        cost,
    }
}

#[test]
fn every_wrapper_shape_is_measured_and_deploys() {
    let mut rows = vec![];
    for lookup in [true, false] {
        for advice in [1, 2, 4] {
            for open in [MultiOpen::Shplonk, MultiOpen::Gwc] {
                let shape = Shape {
                    advice,
                    lookup,
                    open,
                };
                let m = measure(shape);
                assert!(m.report.verifier_bytes <= EIP170_LIMIT);
                println!(
                    "record: {} proof_bytes={} commitments={} evaluations={} msm_terms={} \
                     pairings={} {}",
                    shape.name(),
                    m.proof_bytes,
                    m.cost.num_commitment,
                    m.cost.num_evaluation,
                    m.cost.num_msm,
                    m.cost.num_pairing,
                    m.report
                );
                println!(
                    "{}",
                    gas_line(
                        &format!("{} verifyCertificate", shape.name()),
                        m.report.certificate_call_gas,
                        m.report.verifier_bytes
                    )
                );
                rows.push((shape, m.report.certificate_call_gas));
            }
        }
    }
    // Fewer columns never cost more gas.
    for (a, gas_a) in &rows {
        for (b, gas_b) in &rows {
            if a.lookup == b.lookup && a.open == b.open && a.advice < b.advice {
                assert!(gas_a < gas_b, "{a:?}: {gas_a} against {b:?}: {gas_b}");
            }
        }
    }
}
