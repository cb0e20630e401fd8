//! The chain statement's constraints under MockProver, without the proofs they sit on: the
//! inner public inputs are loaded as witnesses (in the aggregation circuit they are the inner
//! proofs' instance cells) and each test changes exactly one thing of an honest chain.

use halo2_base::{AssignedValue, Context};
use mithril_snark::chain::{link_message, ChainStatement};
use rand::{Rng, SeedableRng};
use tms_aggregation::{
    chain::{inner_segment_inputs, segment_inputs, ChainNode, Link, Place},
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

    /// A registration that repeats: every epoch after the first is signed by the same keys and
    /// stakes (`d1 = d2 = ...`), so each of their certificates says `R -> R`.
    fn repeating(epochs: usize) -> Self {
        let mut chain = Self::new(epochs);
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

    /// Certificate `e`'s public inputs: its signers' digest and the link message it signs.
    fn certificate(&self, e: usize) -> Vec<Fr> {
        let link = self.link(e);
        vec![
            self.digests[e],
            link_message(link.next_registration, link.application, e as u64).unwrap(),
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

    /// A segment proof's public inputs below the root: an accumulator (any limbs: the
    /// statement ignores them), the segment of epochs `from..to` and its first epoch.
    fn segment(&self, from: usize, to: usize) -> Vec<Fr> {
        let mut public = vec![Fr::from(7); ACCUMULATOR_LIMBS];
        public.extend(inner_segment_inputs(&self.statement(from, to), from as u64));
        public
    }
}

fn load(ctx: &mut Context<Fr>, inner: &[Vec<Fr>]) -> Vec<Vec<AssignedValue<Fr>>> {
    inner
        .iter()
        .map(|public| public.iter().map(|&v| ctx.load_witness(v)).collect())
        .collect()
}

/// The root node over `inner` public inputs under MockProver; the verifier expects `claimed`.
/// (A public input that differs is reported at its instance row and at the advice cell copied
/// to it, so those tests assert the row.)
fn run(node: ChainNode, inner: Vec<Vec<Fr>>, claimed: &ChainStatement) -> MockRun<()> {
    run_exposing(node, inner, segment_inputs(claimed).to_vec())
}

/// Any node over `inner` public inputs under MockProver, the verifier expecting `claimed`.
fn run_exposing(node: ChainNode, inner: Vec<Vec<Fr>>, claimed: Vec<Fr>) -> MockRun<()> {
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

/// The root leaf over certificates of `epochs`, in that order.
fn leaf(chain: &Chain, epochs: &[usize]) -> (ChainNode, Vec<Vec<Fr>>) {
    placed_leaf(chain, epochs, 0, Place::Root)
}

fn placed_leaf(
    chain: &Chain,
    epochs: &[usize],
    first_epoch: u64,
    place: Place,
) -> (ChainNode, Vec<Vec<Fr>>) {
    (
        ChainNode::Certificates {
            links: epochs.iter().map(|&e| chain.link(e)).collect(),
            first_epoch,
            place,
        },
        epochs.iter().map(|&e| chain.certificate(e)).collect(),
    )
}

fn root_node(count: usize) -> ChainNode {
    ChainNode::Segments {
        count,
        place: Place::Root,
    }
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
    let node = ChainNode::Certificates {
        links,
        first_epoch: 0,
        place: Place::Root,
    };
    run(node, inner, &chain.statement(0, 3)).assert_rejected_only_by(Rejection::AdviceCopy);
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
    run(root_node(2), inner, &chain.statement(0, 3)).assert_satisfied();
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
    run(root_node(2), inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
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
    // The hand-over and the epochs do not follow; the root's first epoch is not 0 either.
    run(root_node(2), inner, &claimed)
        .assert_rejected_by(Rejection::AdviceCopy)
        .assert_rejected_by_copy();
}

#[test]
fn segment_counts_add_up() {
    let chain = Chain::new(3);
    let inner = vec![chain.segment(0, 2), chain.segment(2, 3)];
    let claimed = ChainStatement {
        epochs: 4,
        ..chain.statement(0, 3)
    };
    run(root_node(2), inner, &claimed).assert_rejected_by(Rejection::PublicInput(3));
}

#[test]
fn inner_inputs_of_the_wrong_shape_are_refused() {
    let chain = Chain::new(3);
    CircuitHarness::new(12).mock(|ctx, _| {
        // A segment proof where a certificate proof is expected, and a missing proof.
        let cells = load(ctx, &[chain.segment(0, 1)]);
        let (leaf, _) = leaf(&chain, &[0]);
        assert!(leaf.constrain(ctx, &cells).is_err());
        assert!(root_node(2).constrain(ctx, &cells).is_err());
        // A root's segment (no first epoch) where an inner one is expected.
        let mut root_segment = vec![Fr::from(7); ACCUMULATOR_LIMBS];
        root_segment.extend(segment_inputs(&chain.statement(0, 1)));
        let cells = load(ctx, &[root_segment]);
        assert!(root_node(1).constrain(ctx, &cells).is_err());
        ((), vec![])
    });
}

#[test]
fn a_repeated_registrations_certificate_appended_again_is_rejected() {
    let chain = Chain::repeating(3);
    let (node, inner) = leaf(&chain, &[0, 1, 2]);
    run(node, inner, &chain.statement(0, 3)).assert_satisfied();
    // Epoch 2's certificate (R -> R) appended a second time: the registrations follow, but it
    // signs for epoch 2, not 3.
    let (node, inner) = leaf(&chain, &[0, 1, 2, 2]);
    let claimed = ChainStatement {
        epochs: 4,
        ..chain.statement(0, 3)
    };
    run(node, inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn a_chain_ending_on_an_older_certificate_is_rejected() {
    let chain = Chain::repeating(3);
    // [e0, e1, e2, e1]: four epochs claimed, ending on epoch 1's stale application message.
    let (node, inner) = leaf(&chain, &[0, 1, 2, 1]);
    let claimed = ChainStatement {
        last_application: chain.applications[1],
        epochs: 4,
        ..chain.statement(0, 3)
    };
    run(node, inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn a_root_leaf_starts_at_epoch_zero() {
    let chain = Chain::repeating(3);
    // Epochs 1..3 alone, as if epoch 1's signers were the genesis: their messages bind epochs
    // 1 and 2, not 0 and 1.
    let (node, inner) = leaf(&chain, &[1, 2]);
    run(node, inner, &chain.statement(1, 3)).assert_rejected_by_copy();
}

#[test]
fn an_inner_leaf_exposes_its_first_epoch() {
    let chain = Chain::new(3);
    let (node, inner) = placed_leaf(&chain, &[1, 2], 1, Place::Inner);
    let exposed = inner_segment_inputs(&chain.statement(1, 3), 1).to_vec();
    run_exposing(node, inner, exposed).assert_satisfied();
    // Claimed at another first epoch, its messages do not bind.
    let (node, inner) = placed_leaf(&chain, &[1, 2], 2, Place::Inner);
    let exposed = inner_segment_inputs(&chain.statement(1, 3), 2).to_vec();
    run_exposing(node, inner, exposed).assert_rejected_only_by(Rejection::AdviceCopy);
}

#[test]
fn segments_out_of_their_epochs_are_rejected() {
    let chain = Chain::repeating(3);
    // Epochs 0..2 end at R, and epochs 1..2 start at R: the registrations join, the epochs do
    // not (the second segment starts at 1, not 2).
    let inner = vec![chain.segment(0, 2), chain.segment(1, 2)];
    let claimed = ChainStatement {
        last_application: chain.applications[1],
        epochs: 3,
        ..chain.statement(0, 3)
    };
    run(root_node(2), inner, &claimed).assert_rejected_only_by(Rejection::AdviceCopy);
    // A root whose first segment does not start at epoch 0.
    let inner = vec![chain.segment(1, 2), chain.segment(2, 3)];
    run(root_node(2), inner, &chain.statement(1, 3)).assert_rejected_by_copy();
}
