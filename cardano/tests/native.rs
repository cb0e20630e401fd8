//! The backend natively: keygen, prove and verify the toy circuit; a changed proof byte, a
//! changed public input and trailing bytes are refused.

use tms_cardano::{backend, toy::ToyCircuit};

#[test]
fn toy_proves_and_verifies() {
    let params = backend::kzg_params(6);
    let (circuit, pi) = ToyCircuit::new(5, 3, backend::Fr::from(99u64));
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let proof = backend::prove(&params, &pk, circuit, &[&pi], 1).unwrap();
    let vp = backend::verifier_params(&params);
    assert!(backend::verify(&vp, &vk, &proof, &[&pi]));

    let mut bad = proof.clone();
    bad[proof.len() / 2] ^= 1;
    assert!(!backend::verify(&vp, &vk, &bad, &[&pi]));
    let mut other = pi.clone();
    other[1] += backend::Fr::from(1u64);
    assert!(!backend::verify(&vp, &vk, &proof, &[&other]));
    let mut long = proof.clone();
    long.push(0);
    assert!(!backend::verify(&vp, &vk, &long, &[&pi]));

    // The witness outside the lookup's range cannot be proved.
    let (c16, pi16) = ToyCircuit::new(16, 3, backend::Fr::from(99u64));
    let refused = backend::prove(&params, &pk, c16, &[&pi16], 1);
    assert!(refused.is_err() || !backend::verify(&vp, &vk, &refused.unwrap(), &[&pi16]));

    // A threshold above w: w - t is outside the table.
    let (c6, pi6) = ToyCircuit::new(5, 6, backend::Fr::from(99u64));
    let refused = backend::prove(&params, &pk, c6, &[&pi6], 1);
    assert!(refused.is_err() || !backend::verify(&vp, &vk, &refused.unwrap(), &[&pi6]));

    let vk2 = backend::vk_from_bytes::<ToyCircuit>(&backend::vk_to_bytes(&vk), ()).unwrap();
    assert_eq!(vk2.transcript_repr(), vk.transcript_repr());
}
