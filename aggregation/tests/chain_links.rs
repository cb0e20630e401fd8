//! The chain statement's constraints under MockProver, without the proofs they sit on: the
//! inner public inputs are loaded as witnesses (in the aggregation circuit they are the inner
//! proofs' instance cells) and each test changes exactly one thing of an honest chain.

use halo2_base::{AssignedValue, Context};
use mithril_snark::chain::{link_message, ChainStatement};
use rand::{Rng, SeedableRng};
use tms_aggregation::{
    chain::{segment_inputs, ChainNode, Link},
    Statement, ACCUMULATOR_LIMBS,
};
use tms_gadgets::{
    testing::{CircuitHarness, MockRun, Rejection},
    Fr,
};

/// Three epochs: registration digests `d0..d3` (epoch e is signed by `d_e` and hands over to
/// `d_{e+1}`), application messages `a0..a2`.
struct Chain {
    digests: Vec<Fr>,
    applications: Vec<Fr>,
}

impl Chain {
    fn new(epochs: usize) -> Self {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(16);
        Self {
            digests: (0..=epochs).map(|_| Fr::from(rng.gen::<u64>())).collect(),
            applications: (0..epochs).map(|_| Fr::from(rng.gen::<u64>())).collect(),
        }
    }

    fn link(&self, e: usize) -> Link {
        Link {
            next_registration: self.digests[e + 1],
            application: self.applications[e],
        }
    }

    /// Certificate `e`'s public inputs: its signers' digest and the link message it signs.
    fn certificate(&self, e: usize) -> Vec<Fr> {
        let link = self.link(e);
        vec![
            self.digests[e],
            link_message(link.next_registration, link.application).unwrap(),
        ]
    }

    fn statement(&self, from: usize, to: usize) -> ChainStatement {
        ChainStatement {
            genesis: self.digests[from],
            last_registration: self.digests[to],
            last_application: self.applications[to - 1],
            epochs: to - from,
        }
    }

    /// A segment proof's public inputs: an accumulator (any limbs: the statement ignores them)
    /// and the segment of epochs `from..to`.
    fn segment(&self, from: usize, to: usize) -> Vec<Fr> {
        let mut public = vec![Fr::from(7); ACCUMULATOR_LIMBS];
        public.extend(segment_inputs(&self.statement(from, to)));
        public
    }
}

fn load(ctx: &mut Context<Fr>, inner: &[Vec<Fr>]) -> Vec<Vec<AssignedValue<Fr>>> {
    inner
        .iter()
        .map(|public| public.iter().map(|&v| ctx.load_witness(v)).collect())
        .collect()
}

/// The node over `inner` public inputs under MockProver; the verifier expects `claimed`. (A
/// public input that differs is reported at its instance row and at the advice cell copied to
/// it, so those tests assert the row.)
fn run(node: ChainNode, inner: Vec<Vec<Fr>>, claimed: &ChainStatement) -> MockRun<()> {
    let claimed = segment_inputs(claimed).to_vec();
    CircuitHarness::new(12).mock_with_public(
        |ctx, _| {
            let cells = load(ctx, &inner);
            let exposed = node
                .constrain(ctx, &cells)
                .expect("well-formed inner inputs");
            ((), exposed)
        },
        |_| claimed,
    )
}

fn leaf(chain: &Chain, epochs: &[usize]) -> (ChainNode, Vec<Vec<Fr>>) {
    (
        ChainNode::Certificates(epochs.iter().map(|&e| chain.link(e)).collect()),
        epochs.iter().map(|&e| chain.certificate(e)).collect(),
    )
}

#[test]
fn honest_leaf_exposes_the_chain_statement() {
    let chain = Chain::new(3);
    let (node, inner) = leaf(&chain, &[0, 1, 2]);
    run(node, inner, &chain.statement(0, 3)).assert_satisfied();
}

#[test]
fn certificate_message_not_binding_its_link_is_rejected() {
    let chain = Chain::new(3);
    let (_, inner) = leaf(&chain, &[0, 1, 2]);
    // The prover claims epoch 1 hands over with another application message than it signed.
    let mut links: Vec<Link> = (0..3).map(|e| chain.link(e)).collect();
    links[1].application += Fr::one();
    run(
        ChainNode::Certificates(links),
        inner,
        &chain.statement(0, 3),
    )
    .assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn certificate_signed_by_another_registration_is_rejected() {
    let chain = Chain::new(3);
    let (node, mut inner) = leaf(&chain, &[0, 1, 2]);
    // Epoch 1's certificate is signed by a registration epoch 0 did not hand over to.
    inner[1][0] += Fr::one();
    run(node, inner, &chain.statement(0, 3)).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn reordered_certificates_are_rejected() {
    let chain = Chain::new(3);
    let (node, inner) = leaf(&chain, &[0, 2, 1]);
    let claimed = ChainStatement {
        last_registration: chain.digests[2],
        last_application: chain.applications[1],
        ..chain.statement(0, 3)
    };
    run(node, inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn truncated_chain_claimed_complete_is_rejected() {
    let chain = Chain::new(3);
    let (node, inner) = leaf(&chain, &[0, 1]);
    // Two epochs proved, three claimed: the end, the last message and the count all differ.
    let whole = run(node, inner, &chain.statement(0, 3));
    for row in [1, 2, 3] {
        whole.assert_rejected_by(Rejection::PublicInput(row));
    }
    // Claiming only the count wrong is caught by the count alone.
    let (node, inner) = leaf(&chain, &[0, 1]);
    let claimed = ChainStatement {
        epochs: 3,
        ..chain.statement(0, 2)
    };
    run(node, inner, &claimed).assert_rejected_by(Rejection::PublicInput(3));
}

#[test]
fn chain_from_another_genesis_is_rejected() {
    let chain = Chain::new(3);
    let (node, inner) = leaf(&chain, &[0, 1, 2]);
    let claimed = ChainStatement {
        genesis: chain.digests[0] + Fr::one(),
        ..chain.statement(0, 3)
    };
    run(node, inner, &claimed).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn consecutive_segments_join() {
    let chain = Chain::new(3);
    let inner = vec![chain.segment(0, 2), chain.segment(2, 3)];
    run(ChainNode::Segments(2), inner, &chain.statement(0, 3)).assert_satisfied();
}

#[test]
fn segments_with_a_gap_are_rejected() {
    let chain = Chain::new(3);
    // Epochs 0..1 then 2..3: epoch 1 is missing, so the second segment starts elsewhere.
    let inner = vec![chain.segment(0, 1), chain.segment(2, 3)];
    let claimed = ChainStatement {
        epochs: 2,
        ..chain.statement(0, 3)
    };
    run(ChainNode::Segments(2), inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn reordered_segments_are_rejected() {
    let chain = Chain::new(3);
    let inner = vec![chain.segment(2, 3), chain.segment(0, 2)];
    let claimed = ChainStatement {
        genesis: chain.digests[2],
        last_registration: chain.digests[2],
        last_application: chain.applications[1],
        epochs: 3,
    };
    run(ChainNode::Segments(2), inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn segment_counts_add_up() {
    let chain = Chain::new(3);
    let inner = vec![chain.segment(0, 2), chain.segment(2, 3)];
    let claimed = ChainStatement {
        epochs: 4,
        ..chain.statement(0, 3)
    };
    run(ChainNode::Segments(2), inner, &claimed).assert_rejected_by(Rejection::PublicInput(3));
}

#[test]
fn inner_inputs_of_the_wrong_shape_are_refused() {
    let chain = Chain::new(3);
    CircuitHarness::new(12).mock(|ctx, _| {
        // A segment proof where a certificate proof is expected, and a missing proof.
        let cells = load(ctx, &[chain.segment(0, 1)]);
        let leaf = ChainNode::Certificates(vec![chain.link(0)]);
        assert!(leaf.constrain(ctx, &cells).is_err());
        let node = ChainNode::Segments(2);
        assert!(node.constrain(ctx, &cells).is_err());
        ((), vec![])
    });
}
