//! A real keygen / SHPLONK prove / verify round trip through the shared harness.

use halo2_base::{gates::RangeChip, Context};
use tms_gadgets::{
    hash::{NativeHash, Poseidon, PoseidonChip},
    merkle::{AssignedMerklePath, MerkleChip, MerkleTree},
    testing::{CircuitHarness, Synthesis},
    Fr,
};

/// A tree of `n` Poseidon leaves, its root, and the circuit proving that leaf `index` is under
/// it (public: the root).
fn membership(n: u64, index: usize) -> (Fr, impl Synthesis<()>) {
    let leaves: Vec<Fr> = (0..n)
        .map(|i| Poseidon.hash_leaf(&[Fr::from(i)]).unwrap())
        .collect();
    let tree = MerkleTree::new(Poseidon, leaves).unwrap();
    let path = tree.path(index).unwrap();
    let leaf = tree.leaves()[index];
    let circuit = move |ctx: &mut Context<Fr>, range: &RangeChip<Fr>| {
        let merkle = MerkleChip::new(PoseidonChip::new(), range);
        let leaf = ctx.load_witness(leaf);
        let path = AssignedMerklePath::load(ctx, &path);
        ((), vec![merkle.compute_root(ctx, leaf, &path)])
    };
    (tree.root(), circuit)
}

#[test]
fn merkle_membership_proves_and_verifies_and_a_wrong_root_fails() {
    let (root, circuit) = membership(8, 5);
    let harness = CircuitHarness::new(13);
    let ok = harness.prove_and_verify(&circuit);
    assert!(ok.verified);
    assert_eq!(ok.public_values, vec![root]);
    println!(
        "{} proof {} bytes vk {}",
        ok.stats,
        ok.proof.len(),
        ok.vk_fingerprint
    );
    let bad = harness.prove_and_verify_with_public(&circuit, |_| vec![root + Fr::one()]);
    assert!(
        !bad.verified,
        "the verifier accepted a root the witness does not lead to"
    );
    assert_eq!(
        ok.vk_fingerprint, bad.vk_fingerprint,
        "keygen is deterministic"
    );
}

#[test]
fn parameters_imported_from_a_snarkjs_ptau_prove_and_verify() {
    // tests/vectors/pot10_tms_test.ptau: `snarkjs powersoftau new bn128 10` plus one contribution
    // (snarkjs 0.7.6, `powersoftau verify` passed). Test data only: its entropy is public.
    let bytes = include_bytes!("../../tests/vectors/pot10_tms_test.ptau");
    let params = tms_gadgets::proving::params::params_from_ptau(bytes, 10).unwrap();
    let (_, circuit) = membership(4, 2);
    let harness = CircuitHarness::new(10).with_params(params);
    assert!(harness.prove_and_verify(&circuit).verified);
    assert!(
        !harness
            .prove_and_verify_with_public(circuit, |_| vec![Fr::one()])
            .verified
    );
}

#[test]
fn malformed_ptau_files_are_refused() {
    use tms_gadgets::{proving::params::params_from_ptau, GadgetError};
    let bytes = include_bytes!("../../tests/vectors/pot10_tms_test.ptau");
    let err = |b: &[u8], k| match params_from_ptau(b, k) {
        Err(GadgetError::MalformedPtau(m)) => m,
        other => panic!("expected MalformedPtau, got {:?}", other.map(|_| ())),
    };
    assert!(err(b"nope", 10).contains("magic"));
    assert!(err(bytes, 11).contains("2^10 powers"));
    assert!(err(&bytes[..5000], 10).contains("truncated"));
    // Flip a byte inside tau^1 G1 (section 2 starts after the 12-byte file header, the 56-byte
    // header section and its 12-byte section header).
    let mut tampered = bytes.to_vec();
    tampered[12 + 56 + 12 + 64 + 7] ^= 1;
    let msg = err(&tampered, 10);
    assert!(
        msg.contains("not on the curve") || msg.contains("disagree"),
        "{msg}"
    );
}

/// `tms setup --halo2` makes smaller insecure test parameters afresh from their seed instead of
/// cutting the larger file down (no Lagrange basis FFT over curve points): it relies on both
/// giving the same bytes, which this pins.
#[test]
fn insecure_test_parameters_cut_down_equal_those_made_at_the_smaller_size() {
    use halo2_base::halo2_proofs::{
        halo2curves::bn256::Bn256,
        poly::{commitment::Params, kzg::commitment::ParamsKZG},
    };
    use tms_gadgets::proving::params::insecure_test_params;
    let bytes = |p: &ParamsKZG<Bn256>| {
        let mut out = vec![];
        p.write(&mut out).unwrap();
        out
    };
    let mut cut = insecure_test_params(12);
    cut.downsize(10);
    assert_eq!(bytes(&cut), bytes(&insecure_test_params(10)));
}
