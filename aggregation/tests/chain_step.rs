//! The chain step's constraints under MockProver, without the proofs they sit on: the inner
//! public inputs and key digests are loaded as witnesses (in the step circuit they are the
//! verified proofs' instance cells and the digests of their witnessed keys), and each test
//! changes exactly one thing of an honest step.

use halo2_base::{AssignedValue, Context};
use mithril_snark::chain::link_message;
use rand::{Rng, SeedableRng};
use tms_aggregation::{
    chain::Link,
    chain_step::{key_digest, ChainStep, ChainWrap, STEP_INPUTS},
    Statement, ACCUMULATOR_LIMBS,
};
use tms_gadgets::{
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

/// Registration digests `d0..d4` (epoch `e` is signed by `d_e` and hands over to `d_{e+1}`),
/// application messages `a0..a3`, and the two key digests.
struct Chain {
    digests: Vec<Fr>,
    applications: Vec<Fr>,
    step_key: Fr,
    certificate_key: Fr,
}

impl Chain {
    fn new() -> Self {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(34);
        let mut draw = || Fr::from(rng.gen::<u64>());
        Self {
            digests: (0..5).map(|_| draw()).collect(),
            applications: (0..4).map(|_| draw()).collect(),
            step_key: key_digest(&[draw(), draw(), Fr::from(22)]),
            certificate_key: key_digest(&[draw(), draw(), Fr::from(12)]),
        }
    }

    /// A registration that repeats: every epoch after the first is signed by the same keys and
    /// stakes (`d1 = d2 = ...`), so each of their certificates says `R -> R`.
    fn repeating() -> Self {
        let mut chain = Self::new();
        let repeated = chain.digests[1];
        chain.digests[1..].iter_mut().for_each(|d| *d = repeated);
        chain
    }

    fn link(&self, e: usize) -> Link {
        Link {
            next_registration: self.digests[e + 1],
            application: self.applications[e],
        }
    }

    fn certificate(&self, e: usize) -> Vec<Fr> {
        let link = self.link(e);
        vec![
            self.digests[e],
            link_message(link.next_registration, link.application, e as u64).unwrap(),
        ]
    }

    /// The statement of the chain after `epochs` certificates (`[genesis, last registration,
    /// last application, epochs, step key]`); the empty chain is the base case's stand-in.
    fn statement(&self, epochs: usize) -> Vec<Fr> {
        if epochs == 0 {
            // What a stand-in proof may expose: anything with zero epochs.
            return vec![
                Fr::from(99),
                Fr::from(98),
                Fr::from(97),
                Fr::zero(),
                Fr::from(96),
            ];
        }
        vec![
            self.digests[0],
            self.digests[epochs],
            self.applications[epochs - 1],
            Fr::from(epochs as u64),
            self.step_key,
        ]
    }

    /// The previous proof's public inputs (any accumulator limbs: the statement ignores them).
    fn previous(&self, epochs: usize) -> Vec<Fr> {
        let mut public = vec![Fr::from(7); ACCUMULATOR_LIMBS];
        public.extend(self.statement(epochs));
        public
    }

    fn step(&self, e: usize) -> ChainStep {
        ChainStep {
            link: self.link(e),
            certificate_key: self.certificate_key,
            step_key: self.step_key,
        }
    }
}

/// What one step sees: the previous proof's public inputs and key digest, the certificate's.
struct Inner {
    previous: Vec<Fr>,
    previous_key: Fr,
    certificate: Vec<Fr>,
    certificate_key: Fr,
}

impl Inner {
    /// The honest step from `e` epochs to `e + 1` (the base case's stand-in proof under some
    /// other key).
    fn honest(chain: &Chain, e: usize) -> Self {
        Self {
            previous: chain.previous(e),
            previous_key: if e == 0 {
                Fr::from(1234)
            } else {
                chain.step_key
            },
            certificate: chain.certificate(e),
            certificate_key: chain.certificate_key,
        }
    }
}

fn load(ctx: &mut Context<Fr>, values: &[Fr]) -> Vec<AssignedValue<Fr>> {
    values.iter().map(|&v| ctx.load_witness(v)).collect()
}

/// The step over `inner` under MockProver; the verifier expects `claimed`.
fn run(step: ChainStep, inner: Inner, claimed: Vec<Fr>) -> MockRun<()> {
    CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let previous = load(ctx, &inner.previous);
            let previous_key = ctx.load_witness(inner.previous_key);
            let certificate = load(ctx, &inner.certificate);
            let certificate_key = ctx.load_witness(inner.certificate_key);
            let exposed = step
                .constrain_step(
                    ctx,
                    (&previous, previous_key),
                    (&certificate, certificate_key),
                )
                .expect("well-formed inner inputs");
            ((), exposed)
        },
        |_| claimed,
    )
}

#[test]
fn the_base_case_starts_the_chain_at_its_certificate() {
    let chain = Chain::new();
    run(chain.step(0), Inner::honest(&chain, 0), chain.statement(1)).assert_satisfied();
}

#[test]
fn a_step_extends_the_chain_by_one_epoch() {
    let chain = Chain::new();
    for e in 1..4 {
        run(
            chain.step(e),
            Inner::honest(&chain, e),
            chain.statement(e + 1),
        )
        .assert_satisfied();
    }
}

#[test]
fn a_previous_proof_under_another_key_is_rejected() {
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 2);
    inner.previous_key += Fr::one();
    run(chain.step(2), inner, chain.statement(3)).assert_rejected_by_copy();
}

#[test]
fn a_previous_proof_claiming_another_step_key_is_rejected() {
    // Verified under the key it claims, but that is not the verifier's: the step goes
    // through and carries the other key, which the verifier's statement does not match.
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 2);
    inner.previous[ACCUMULATOR_LIMBS + STEP_INPUTS - 1] += Fr::one();
    inner.previous_key += Fr::one();
    run(chain.step(2), inner, chain.statement(3)).assert_rejected_by(Rejection::PublicInput(4));
}

#[test]
fn a_certificate_under_another_key_is_rejected() {
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 1);
    inner.certificate_key += Fr::one();
    run(chain.step(1), inner, chain.statement(2)).assert_rejected_by(Rejection::Constant);
}

#[test]
fn a_broken_link_is_rejected() {
    // Epoch 2's certificate is signed by a registration epoch 1 did not hand over to.
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 2);
    inner.certificate[0] += Fr::one();
    run(chain.step(2), inner, chain.statement(3)).assert_rejected_by_copy();
}

#[test]
fn a_message_not_binding_the_link_is_rejected() {
    let chain = Chain::new();
    let mut step = chain.step(1);
    step.link.application += Fr::one();
    run(step, Inner::honest(&chain, 1), chain.statement(2))
        .assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
fn a_skipped_epoch_is_rejected() {
    // Epoch 3's certificate on the chain of 2 epochs: signed by d3, not the d2 handed over to.
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 2);
    inner.certificate = chain.certificate(3);
    let mut claimed = chain.statement(3);
    claimed[1] = chain.digests[4];
    claimed[2] = chain.applications[3];
    run(chain.step(3), inner, claimed).assert_rejected_by_copy();
}

#[test]
fn a_repeated_epoch_is_rejected() {
    // Epoch 1's certificate again on the chain of 2 epochs.
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 2);
    inner.certificate = chain.certificate(1);
    let mut claimed = chain.statement(3);
    claimed[1] = chain.digests[2];
    claimed[2] = chain.applications[1];
    run(chain.step(1), inner, claimed).assert_rejected_by_copy();
}

#[test]
fn a_repeated_registrations_certificate_appended_again_is_rejected() {
    // Epoch 2's certificate (R -> R) on the chain of 3 epochs: the registrations follow, but
    // it signs for epoch 2, not 3.
    let chain = Chain::repeating();
    run(chain.step(2), Inner::honest(&chain, 2), chain.statement(3)).assert_satisfied();
    let mut inner = Inner::honest(&chain, 3);
    inner.certificate = chain.certificate(2);
    let mut claimed = chain.statement(4);
    claimed[2] = chain.applications[2];
    run(chain.step(2), inner, claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn a_chain_ending_on_an_older_certificate_is_rejected() {
    // Epoch 1's certificate as the fourth: an inflated count ending on a stale message.
    let chain = Chain::repeating();
    let mut inner = Inner::honest(&chain, 3);
    inner.certificate = chain.certificate(1);
    let mut claimed = chain.statement(4);
    claimed[2] = chain.applications[1];
    run(chain.step(1), inner, claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn an_epoch_count_that_does_not_add_one_is_rejected() {
    let chain = Chain::new();
    let mut claimed = chain.statement(3);
    claimed[3] = Fr::from(4);
    run(chain.step(2), Inner::honest(&chain, 2), claimed)
        .assert_rejected_by(Rejection::PublicInput(3));
}

#[test]
fn another_genesis_is_rejected() {
    let chain = Chain::new();
    let mut claimed = chain.statement(3);
    claimed[0] += Fr::one();
    run(chain.step(2), Inner::honest(&chain, 2), claimed)
        .assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn a_wrong_base_case_is_rejected() {
    // The base case's genesis is its certificate's registration: a claim of another genesis
    // (the stand-in proof's) fails, and so does a base case that claims two epochs.
    let chain = Chain::new();
    let mut claimed = chain.statement(1);
    claimed[0] = chain.statement(0)[0];
    run(chain.step(0), Inner::honest(&chain, 0), claimed)
        .assert_rejected_by(Rejection::PublicInput(0));
    let mut claimed = chain.statement(1);
    claimed[3] = Fr::from(2);
    run(chain.step(0), Inner::honest(&chain, 0), claimed)
        .assert_rejected_by(Rejection::PublicInput(3));
}

#[test]
fn the_base_case_ignores_its_stand_in_but_not_its_certificate() {
    // Any stand-in with zero epochs serves, under any key...
    let chain = Chain::new();
    let mut inner = Inner::honest(&chain, 0);
    inner.previous_key = Fr::from(5);
    inner.previous[ACCUMULATOR_LIMBS] = Fr::from(6);
    run(chain.step(0), inner, chain.statement(1)).assert_satisfied();
    // ...but the certificate must still be the chain key's and bind its link.
    let mut inner = Inner::honest(&chain, 0);
    inner.certificate_key += Fr::one();
    run(chain.step(0), inner, chain.statement(1)).assert_rejected_by(Rejection::Constant);
}

#[test]
fn inner_inputs_of_the_wrong_shape_are_refused() {
    let chain = Chain::new();
    let step = chain.step(1);
    CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let previous = load(ctx, &chain.previous(1)[1..]);
            let key = ctx.load_witness(chain.step_key);
            let certificate = load(ctx, &chain.certificate(1));
            let refused = step
                .constrain_step(ctx, (&previous, key), (&certificate, key))
                .is_err();
            assert!(refused);
            ((), vec![])
        },
        |_| vec![],
    );
}

/// The final wrapper's statement over the last step proof's public inputs `step`; the verifier
/// expects `claimed`.
fn run_wrap(wrap: ChainWrap, step: Vec<Fr>, claimed: Vec<Fr>) -> MockRun<()> {
    CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let step = load(ctx, &step);
            let exposed = wrap
                .constrain(ctx, &[step])
                .expect("well-formed inner inputs");
            ((), exposed)
        },
        |_| claimed,
    )
}

#[test]
fn the_wrapper_exposes_the_chain_under_its_own_step_key() {
    let chain = Chain::new();
    let wrap = ChainWrap {
        step_key: chain.step_key,
    };
    for epochs in [1, 3] {
        let segment = chain.statement(epochs)[..STEP_INPUTS - 1].to_vec();
        run_wrap(wrap, chain.previous(epochs), segment).assert_satisfied();
    }
}

#[test]
fn a_step_proof_claiming_another_step_key_is_not_wrapped() {
    // A base case may witness any step key; only the wrapper ties it to the key it verified
    // the last step under.
    let chain = Chain::new();
    let wrap = ChainWrap {
        step_key: chain.step_key,
    };
    let mut step = chain.previous(3);
    *step.last_mut().unwrap() += Fr::one();
    let segment = chain.statement(3)[..STEP_INPUTS - 1].to_vec();
    run_wrap(wrap, step, segment).assert_rejected_by(Rejection::Constant);
}

#[test]
fn the_wrapper_refuses_inner_inputs_of_the_wrong_shape() {
    let chain = Chain::new();
    let wrap = ChainWrap {
        step_key: chain.step_key,
    };
    CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let short = load(ctx, &chain.previous(1)[1..]);
            let whole = load(ctx, &chain.previous(1));
            assert!(wrap.constrain(ctx, &[short]).is_err());
            assert!(wrap.constrain(ctx, &[whole.clone(), whole]).is_err());
            ((), vec![])
        },
        |_| vec![],
    );
}

/// Records the key digests a keyed statement is given, exposing nothing.
#[derive(Default)]
struct RecordKeys(std::cell::RefCell<Vec<Fr>>);

impl tms_aggregation::Statement for RecordKeys {
    fn constrain(
        &self,
        _: &mut Context<Fr>,
        _: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, tms_aggregation::AggregationError> {
        unreachable!("keyed")
    }

    fn keys_as_witness(&self) -> bool {
        true
    }

    fn constrain_keyed(
        &self,
        _: &mut Context<Fr>,
        _: &[Vec<AssignedValue<Fr>>],
        keys: &[AssignedValue<Fr>],
    ) -> Result<Vec<AssignedValue<Fr>>, tms_aggregation::AggregationError> {
        self.0.borrow_mut().extend(keys.iter().map(|k| *k.value()));
        Ok(vec![])
    }
}

/// A one-column circuit at `2^8` rows exposing one value (the cheapest proof to verify).
fn tiny_key(
    params: &halo2_base::halo2_proofs::poly::kzg::commitment::ParamsKZG<
        halo2_base::halo2_proofs::halo2curves::bn256::Bn256,
    >,
    factor: u64,
) -> halo2_base::halo2_proofs::plonk::VerifyingKey<
    halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
> {
    use halo2_base::gates::{
        circuit::{builder::BaseCircuitBuilder, CircuitBuilderStage},
        GateChip, GateInstructions,
    };
    let mut builder = BaseCircuitBuilder::<Fr>::from_stage(CircuitBuilderStage::Keygen)
        .use_k(8)
        .use_instance_columns(1);
    let ctx = builder.main(0);
    let x = ctx.load_witness(Fr::from(3));
    let y =
        GateChip::<Fr>::default().mul(ctx, x, halo2_base::QuantumCell::Constant(Fr::from(factor)));
    builder.assigned_instances = vec![vec![y]];
    builder.calculate_params(Some(9));
    halo2_base::halo2_proofs::plonk::keygen_vk(params, &builder).unwrap()
}

/// The step circuit's in-circuit key digest agrees with the native one
/// ([`tms_aggregation::snark::certificate_key_digest`]) for the key of the proof it verifies,
/// and two keys give two digests (a layout over stand-in proofs, no proving).
#[test]
fn in_circuit_key_digests_agree_with_the_native_twin() {
    use tms_aggregation::{aggregation_layout, certificate_sample, snark::certificate_key_digest};
    let params = tms_gadgets::proving::params::kzg_params(8);
    let keys = [tiny_key(&params, 5), tiny_key(&params, 7)];
    let native: Vec<Fr> = keys
        .iter()
        .map(|vk| certificate_key_digest(&params, vk, 1))
        .collect();
    assert_ne!(native[0], native[1], "another key, another digest");
    let record = RecordKeys::default();
    let samples = keys
        .iter()
        .map(|vk| certificate_sample(&params, vk, 1))
        .collect();
    aggregation_layout(&params, 21, samples, &record).unwrap();
    assert_eq!(*record.0.borrow(), native);
}
