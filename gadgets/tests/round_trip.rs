//! A real keygen / SHPLONK prove / verify round trip through the shared harness.

use tms_gadgets::{
    hash::{NativeHash, Poseidon, PoseidonChip},
    merkle::{AssignedMerklePath, MerkleChip, MerkleTree},
    testing::CircuitHarness,
    Fr,
};

#[test]
fn merkle_membership_proves_and_verifies_and_a_wrong_root_fails() {
    let leaves: Vec<Fr> = (0..8u64)
        .map(|i| Poseidon.hash_leaf(&[Fr::from(i)]).unwrap())
        .collect();
    let tree = MerkleTree::new(Poseidon, leaves).unwrap();
    let path = tree.path(5).unwrap();
    let leaf = tree.leaves()[5];
    let circuit = |ctx: &mut halo2_base::Context<Fr>, range: &halo2_base::gates::RangeChip<Fr>| {
        let merkle = MerkleChip::new(PoseidonChip::new(), range);
        let leaf = ctx.load_witness(leaf);
        let path = AssignedMerklePath::load(ctx, &path);
        ((), vec![merkle.compute_root(ctx, leaf, &path)])
    };
    let harness = CircuitHarness::new(13);
    let ok = harness.prove_and_verify(circuit);
    assert!(ok.verified);
    assert_eq!(ok.public_values, vec![tree.root()]);
    println!(
        "{} proof {} bytes vk {}",
        ok.stats,
        ok.proof.len(),
        ok.vk_fingerprint
    );
    let bad = harness.prove_and_verify_with_public(circuit, |_| vec![tree.root() + Fr::one()]);
    assert!(
        !bad.verified,
        "the verifier accepted a root the witness does not lead to"
    );
    assert_eq!(
        ok.vk_fingerprint, bad.vk_fingerprint,
        "keygen is deterministic"
    );
}
