//! Native Merkle trees, their in-circuit twins, and one-change negative tests.

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    halo2_proofs::halo2curves::ff::PrimeField,
    AssignedValue, Context,
};
use rand::{seq::index::sample, Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tms_gadgets::{
    hash::{HashInstructions, NativeHash, Poseidon, PoseidonChip, RescueChip, RescuePrime},
    merkle::{AssignedMerklePath, MerkleChip, MerklePath, MerkleTree},
    testing::{override_cell, CircuitHarness, Rejection},
    Fr, GadgetError,
};

fn random_leaves(n: usize, seed: u64) -> Vec<Fr> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| Fr::from_u128(rng.gen())).collect()
}

fn tree<H: NativeHash + Default>(n: usize, depth: usize) -> MerkleTree<H> {
    let leaves: Vec<Fr> = random_leaves(n, 3)
        .iter()
        .map(|x| H::default().hash_leaf(&[*x]).unwrap())
        .collect();
    MerkleTree::with_depth(H::default(), leaves, depth).unwrap()
}

#[test]
fn native_paths_and_batch_proofs_verify() {
    let t = tree::<Poseidon>(11, 4);
    for i in 0..16 {
        let path = t.path(i).unwrap();
        assert!(path.verify(&Poseidon, t.leaves()[i], t.root()));
        assert!(!path.verify(&Poseidon, t.leaves()[i] + Fr::one(), t.root()));
    }
    for indices in [
        vec![0],
        vec![0, 1],
        vec![3, 4, 5, 15],
        (0..16).collect::<Vec<_>>(),
        vec![2, 9],
    ] {
        let proof = t.batch_proof(&indices).unwrap();
        let leaves: Vec<Fr> = indices.iter().map(|i| t.leaves()[*i]).collect();
        assert_eq!(proof.compute_root(&Poseidon, &leaves).unwrap(), t.root());
        let mut wrong = leaves.clone();
        wrong[0] += Fr::one();
        assert_ne!(proof.compute_root(&Poseidon, &wrong).unwrap(), t.root());
    }
    // Sharing upper nodes: 16 leaves need no extra node, a pair of siblings needs depth - 1.
    assert!(t
        .batch_proof(&(0..16).collect::<Vec<_>>())
        .unwrap()
        .nodes
        .is_empty());
    assert_eq!(t.batch_proof(&[6, 7]).unwrap().nodes.len(), 3);
}

#[test]
fn native_errors_name_the_problem() {
    assert_eq!(
        MerkleTree::new(Poseidon, vec![]).unwrap_err(),
        GadgetError::NoLeaves
    );
    assert_eq!(
        MerkleTree::with_depth(Poseidon, vec![Fr::one(); 5], 2).unwrap_err(),
        GadgetError::TooManyLeaves {
            leaves: 5,
            depth: 2
        }
    );
    let t = tree::<Poseidon>(4, 2);
    assert_eq!(
        t.path(4).unwrap_err(),
        GadgetError::IndexOutOfRange {
            index: 4,
            capacity: 4
        }
    );
    assert_eq!(
        t.batch_proof(&[1, 1]).unwrap_err(),
        GadgetError::IndicesNotIncreasing { position: 1 }
    );
    assert_eq!(
        t.batch_proof(&[2, 1]).unwrap_err(),
        GadgetError::IndicesNotIncreasing { position: 1 }
    );
    let mut proof = t.batch_proof(&[1]).unwrap();
    proof.nodes.pop();
    assert!(matches!(
        proof.compute_root(&Poseidon, &[t.leaves()[1]]),
        Err(GadgetError::MalformedBatchProof(_))
    ));
    assert_eq!(
        MerkleTree::new(Poseidon, vec![Fr::one(); 5])
            .unwrap()
            .depth(),
        3
    );
}

/// Lays out membership of `leaf` at `path` and exposes [root]; the test harness compares the
/// exposed root to the tree's.
fn membership(
    ctx: &mut Context<Fr>,
    range: &RangeChip<Fr>,
    chip: impl HashInstructions,
    leaf: Fr,
    path: &MerklePath,
) -> (AssignedMerklePath, Vec<AssignedValue<Fr>>) {
    let merkle = MerkleChip::new(chip, range);
    let leaf = ctx.load_witness(leaf);
    let path = AssignedMerklePath::load(ctx, path);
    let root = merkle.compute_root(ctx, leaf, &path);
    (path, vec![root])
}

fn path_agrees<H: HashInstructions + Default>() {
    let t = tree::<H::Native>(13, 4);
    for i in [0, 5, 12, 15] {
        let path = t.path(i).unwrap();
        let run = CircuitHarness::new(14)
            .mock(|ctx, range| membership(ctx, range, H::default(), t.leaves()[i], &path));
        run.assert_satisfied();
        assert_eq!(run.public_values, vec![t.root()]);
    }
}

#[test]
fn poseidon_path_circuit_agrees_with_native() {
    path_agrees::<PoseidonChip>();
}

#[test]
fn rescue_path_circuit_agrees_with_native() {
    path_agrees::<RescueChip>();
}

#[test]
fn depth_11_poseidon_path_cost() {
    let t = tree::<Poseidon>(2048, 11);
    let path = t.path(1234).unwrap();
    let harness = CircuitHarness::new(16);
    let (_, stats) = harness
        .measure(|ctx, range| membership(ctx, range, PoseidonChip::new(), t.leaves()[1234], &path));
    println!("depth-11 Poseidon Merkle path: {stats}");
    assert!(stats.advice_cells <= 26_000, "{}", stats.advice_cells);
    let run = harness
        .mock(|ctx, range| membership(ctx, range, PoseidonChip::new(), t.leaves()[1234], &path));
    run.assert_satisfied();
    assert_eq!(run.public_values, vec![t.root()]);
}

/// Mock-runs a membership proof of the tree's leaf `claimed_leaf` at `path`, against the true root.
fn run_against_root(
    t: &MerkleTree<Poseidon>,
    leaf: Fr,
    path: &MerklePath,
) -> tms_gadgets::testing::MockRun<()> {
    let root = t.root();
    CircuitHarness::new(14).mock_with_public(
        |ctx, range| {
            let (_, out) = membership(ctx, range, PoseidonChip::new(), leaf, path);
            ((), out)
        },
        |_| vec![root],
    )
}

#[test]
fn wrong_sibling_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    let mut path = t.path(6).unwrap();
    path.siblings[2] += Fr::one();
    run_against_root(&t, t.leaves()[6], &path).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn flipped_index_bit_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    let mut path = t.path(6).unwrap();
    path.index ^= 1 << 2;
    run_against_root(&t, t.leaves()[6], &path).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn swapped_leaf_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    let path = t.path(6).unwrap();
    run_against_root(&t, t.leaves()[7], &path).assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn wrong_root_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    let path = t.path(6).unwrap();
    run_against_root(&t, t.leaves()[6], &path).assert_satisfied();
    let run = CircuitHarness::new(14).mock_with_public(
        |ctx, range| {
            let (_, out) = membership(ctx, range, PoseidonChip::new(), t.leaves()[6], &path);
            ((), out)
        },
        |_| vec![t.root() + Fr::one()],
    );
    run.assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn index_beyond_the_tree_is_rejected() {
    // A cheating prover claims index 2^depth + 6: its low bits select leaf 6's path, but `depth`
    // bits cannot recompose it: halo2-base's num_to_bits constrains the recomposed sum equal to
    // the index with a copy constraint, which fails.
    let t = tree::<Poseidon>(16, 4);
    let mut path = t.path(6).unwrap();
    path.index += 16;
    run_against_root(&t, t.leaves()[6], &path).assert_rejected_by(Rejection::AdviceCopy);
}

#[test]
fn tampered_index_cell_is_rejected() {
    // Overwriting the loaded index cell breaks the copy into the recomposition.
    let t = tree::<Poseidon>(16, 4);
    let path = t.path(6).unwrap();
    let run = CircuitHarness::new(14).mock(|ctx, range| {
        let (assigned, out) = membership(ctx, range, PoseidonChip::new(), t.leaves()[6], &path);
        override_cell(ctx, &assigned.index, Fr::from(7));
        ((), out)
    });
    run.assert_rejected_by(Rejection::AdviceCopy);
}

/// Lays out a batch over `indices` (given to the circuit as is), all roots constrained equal to
/// one public root.
fn batch_run(t: &MerkleTree<Poseidon>, indices: &[usize]) -> tms_gadgets::testing::MockRun<()> {
    let paths: Vec<MerklePath> = indices.iter().map(|i| t.path(*i).unwrap()).collect();
    CircuitHarness::new(15).mock(|ctx, range| {
        let merkle = MerkleChip::new(PoseidonChip::new(), range);
        let leaves = ctx.assign_witnesses(indices.iter().map(|i| t.leaves()[*i]));
        let paths: Vec<_> = paths
            .iter()
            .map(|p| AssignedMerklePath::load(ctx, p))
            .collect();
        let roots = merkle.compute_batch_roots(ctx, &leaves, &paths);
        let root = ctx.load_witness(t.root());
        for r in &roots {
            ctx.constrain_equal(r, &root);
        }
        ((), vec![root])
    })
}

#[test]
fn batch_with_increasing_indices_is_accepted() {
    let t = tree::<Poseidon>(16, 4);
    let run = batch_run(&t, &[1, 2, 9, 15]);
    run.assert_satisfied();
    assert_eq!(run.public_values, vec![t.root()]);
}

#[test]
fn batch_with_repeated_index_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    batch_run(&t, &[1, 9, 9, 15]).assert_rejected_by(Rejection::Lookup);
}

#[test]
fn batch_with_decreasing_indices_is_rejected() {
    let t = tree::<Poseidon>(16, 4);
    batch_run(&t, &[1, 9, 2, 15]).assert_rejected_by(Rejection::Lookup);
}

fn root_of_all_agrees<H: HashInstructions + Default>() {
    let t = tree::<H::Native>(6, 3);
    let run = CircuitHarness::new(15).mock(|ctx, range| {
        let merkle = MerkleChip::new(H::default(), range);
        let leaves = ctx.assign_witnesses(t.leaves().iter().copied());
        ((), vec![merkle.compute_root_of_all(ctx, &leaves)])
    });
    run.assert_satisfied();
    assert_eq!(run.public_values, vec![t.root()]);
}

#[test]
fn root_of_all_leaves_agrees_with_native() {
    root_of_all_agrees::<PoseidonChip>();
    root_of_all_agrees::<RescueChip>();
}

#[test]
fn root_of_all_with_one_leaf_changed_is_rejected() {
    let t = tree::<Poseidon>(8, 3);
    let root = t.root();
    let run = CircuitHarness::new(15).mock_with_public(
        |ctx, range| {
            let merkle = MerkleChip::new(PoseidonChip::new(), range);
            let mut leaves = t.leaves().to_vec();
            leaves[5] += Fr::one();
            let leaves = ctx.assign_witnesses(leaves);
            ((), vec![merkle.compute_root_of_all(ctx, &leaves)])
        },
        |_| vec![root],
    );
    run.assert_rejected_by(Rejection::PublicInput(0));
}

#[test]
fn random_paths_agree_between_hashes_and_native() {
    // Random indices in a deeper tree, Rescue-Prime paths: the native and in-circuit roots agree.
    let t = tree::<RescuePrime>(100, 7);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for i in sample(&mut rng, 100, 3).into_iter() {
        let path = t.path(i).unwrap();
        let run = CircuitHarness::new(15)
            .mock(|ctx, range| membership(ctx, range, RescueChip::new(), t.leaves()[i], &path));
        run.assert_satisfied();
        assert_eq!(run.public_values, vec![t.root()]);
    }
}

#[test]
fn index_bits_are_constrained_bits() {
    // The bit decomposition itself: a gate enforces bit * (bit - 1) = 0 through halo2-base's
    // num_to_bits; a recomposed index of 6 with depth 4 gives bits 0,1,1,0.
    let run = CircuitHarness::new(10).mock(|ctx, range| {
        let x = ctx.load_witness(Fr::from(6));
        let bits = range.gate().num_to_bits(ctx, x, 4);
        ((), bits)
    });
    run.assert_satisfied();
    assert_eq!(
        run.public_values,
        vec![Fr::zero(), Fr::one(), Fr::one(), Fr::zero()]
    );
}
