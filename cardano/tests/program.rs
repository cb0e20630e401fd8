//! The verifier program, run natively, agrees with midnight-proofs on the toy circuit: honest
//! accepted; every single-bit change of the proof at a sample of positions, another public input,
//! and a truncated or extended proof refused by both.

use group::Curve;
use tms_cardano::{
    backend,
    plutus::{
        native::NativeMachine,
        program::{run, Shape},
    },
    toy::ToyCircuit,
};

#[test]
fn native_program_agrees_with_midnight() {
    let params = backend::kzg_params(6);
    let (circuit, pi) = ToyCircuit::new(5, 3, backend::Fr::from(99u64));
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let proof = backend::prove(&params, &pk, circuit, &[&pi], 1).unwrap();
    let vp = backend::verifier_params(&params);
    let s_g2 = vp.s_g2().to_affine();
    let shape = Shape {
        instance_lens: vec![3],
    };
    let native = |proof: &[u8], pi: &[backend::Fr]| {
        let mut m = NativeMachine::new(proof, &[pi], s_g2);
        run(&mut m, &vk, &shape);
        m.ok
    };
    assert!(backend::verify(&vp, &vk, &proof, &[&pi]));
    assert!(native(&proof, &pi));
    for pos in (0..proof.len()).step_by(37).chain([proof.len() - 1]) {
        let mut bad = proof.clone();
        bad[pos] ^= 1 << (pos % 8);
        assert!(
            !backend::verify(&vp, &vk, &bad, &[&pi]),
            "midnight accepted a change at {pos}"
        );
        assert!(!native(&bad, &pi), "program accepted a change at {pos}");
    }
    let mut other = pi.clone();
    other[0] += backend::Fr::from(1u64);
    assert!(!native(&proof, &other));
    assert!(!native(&proof[..proof.len() - 1], &pi));
    let mut long = proof.clone();
    long.push(0);
    assert!(!native(&long, &pi));
}

/// The multi-phase path (a second-phase column and a challenge in a gate) agrees too.
#[test]
fn native_program_agrees_on_phases() {
    use tms_cardano::toy::ToyPhasesCircuit;
    let params = backend::kzg_params(6);
    let (pk, vk) = backend::keygen(&params, &ToyPhasesCircuit::default()).unwrap();
    assert_eq!(vk.cs().num_challenges(), 1);
    let (a, b) = (backend::Fr::from(3u64), backend::Fr::from(4u64));
    let circuit = ToyPhasesCircuit {
        a: midnight_proofs::circuit::Value::known(a),
        b: midnight_proofs::circuit::Value::known(b),
    };
    let pi = vec![a];
    let proof = backend::prove(&params, &pk, circuit, &[&pi], 3).unwrap();
    let vp = backend::verifier_params(&params);
    assert!(backend::verify(&vp, &vk, &proof, &[&pi]));
    let s_g2 = vp.s_g2().to_affine();
    let native = |proof: &[u8], pi: &[backend::Fr]| {
        let mut m = NativeMachine::new(proof, &[pi], s_g2);
        run(
            &mut m,
            &vk,
            &Shape {
                instance_lens: vec![1],
            },
        );
        m.ok
    };
    assert!(native(&proof, &pi));
    let mut bad = proof.clone();
    bad[proof.len() - 100] ^= 4;
    assert!(!native(&bad, &pi));
    assert!(!native(&proof, &[b]));
}
