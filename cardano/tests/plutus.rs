//! The generated Plutus validator on the toy circuit (the ATMS's statement shape), evaluated
//! with `uplc` under the pinned V3 cost model: the honest certificate is accepted; a changed
//! proof byte, another message, another committee and a stricter threshold are refused. Each
//! evaluation prints one `plutus-budget` line. Then the checks only an attacker's proof reaches:
//! wrong inverse hints (an honest proof's, and the forged all-zero proof of an unsatisfiable
//! circuit that only zero "inverses" make pass) and trailing proof bytes, in both MSM modes.

use ff::PrimeField;
use num_bigint::BigInt;
use tms_cardano::{
    backend::{self, Fr},
    plutus::{self, uplc::MsmMode, Entry},
    toy::ToyCircuit,
};

fn message_to_field(bytes: &[u8]) -> Fr {
    let h = blake2b_simd::Params::new().hash_length(32).hash(bytes);
    let v = BigInt::from_bytes_be(num_bigint::Sign::Plus, h.as_bytes()) % plutus::uplc::modulus();
    let mut le = v.to_bytes_le().1;
    le.resize(32, 0);
    Fr::from_repr(le.try_into().unwrap()).unwrap()
}

#[test]
fn toy_validator_budgets() {
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let msg = b"sidechain epoch 42".to_vec();
    let (w, t) = (5u64, 3u64);
    let (circuit, pi) = ToyCircuit::new(w, t, message_to_field(&msg));
    let proof = backend::prove(&params, &pk, circuit, &[&pi], 1).unwrap();
    assert!(backend::verify(&vp, &vk, &proof, &[&pi]));
    let commitment = pi[0];

    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let scheme = format!(
                "toy/{}",
                if mode == MsmMode::Fold {
                    "pv10-fold"
                } else {
                    "pv11-msm"
                }
            );
            let make = |c: Fr, t: u64| {
                plutus::validator(
                    &vp,
                    &vk,
                    &[Entry::Param(c), Entry::Message, Entry::Threshold(t)],
                    mode,
                )
                .unwrap()
            };
            let honest_v = make(commitment, t);
            let script = plutus::script_bytes(&honest_v).len();
            let verifier = plutus::Halo2Verifier::new(&vp, &vk, mode);
            let run = |case: &str,
                       v: &uplc::ast::Program<uplc::ast::Name>,
                       m: &[u8],
                       p: &[u8],
                       stmt: &[Fr]| {
                let (b, red) = plutus::run_example(v, &verifier, m, p, stmt);
                println!(
                    "plutus-budget scheme={scheme} case={case} cpu={} mem={} script_bytes={script} tx_bytes={}",
                    b.cpu,
                    b.mem,
                    script + plutus::data_bytes(&red)
                );
                b
            };
            let honest = run("honest", &honest_v, &msg, &proof, &pi);
            assert!(honest.accepted, "honest certificate refused: {honest:?}");

            let mut bad = proof.clone();
            bad[proof.len() / 3] ^= 1;
            assert!(!run("changed-proof-byte", &honest_v, &msg, &bad, &pi).accepted);

            let other_msg = b"sidechain epoch 43".to_vec();
            let other_pi = vec![pi[0], message_to_field(&other_msg), pi[2]];
            assert!(!run("other-message", &honest_v, &other_msg, &proof, &other_pi).accepted);

            let other_c = commitment + Fr::from(1u64);
            let v = make(other_c, t);
            assert!(
                !run(
                    "other-committee",
                    &v,
                    &msg,
                    &proof,
                    &[other_c, pi[1], pi[2]]
                )
                .accepted
            );

            let v = make(commitment, t + 1);
            assert!(
                !run(
                    "stricter-threshold",
                    &v,
                    &msg,
                    &proof,
                    &[pi[0], pi[1], Fr::from(t + 1)]
                )
                .accepted
            );
        }
    });
}

/// The bare UPLC verifier and the native program agree on a sample of single-bit changes over
/// the whole proof (points and scalars), on a changed hint and on a truncated proof.
#[test]
fn uplc_verifier_agrees_with_native() {
    use tms_cardano::plutus::program::Shape;
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let (circuit, pi) = ToyCircuit::new(5, 3, Fr::from(77u64));
    let proof = backend::prove(&params, &pk, circuit, &[&pi], 2).unwrap();
    plutus::with_big_stack(|| {
        let shape = Shape {
            instance_lens: vec![3],
        };
        let f = plutus::verifier_term(&vp, &vk, &shape, MsmMode::Builtin);
        let program = uplc::ast::Program {
            version: (1, 1, 0),
            term: f,
        };
        let eval = |p: &[u8], hints: &[u8]| {
            let mut args = vec![
                uplc::ast::Term::byte_string(p.to_vec()),
                uplc::ast::Term::byte_string(hints.to_vec()),
            ];
            for v in &pi {
                args.push(uplc::ast::Term::integer(BigInt::from_bytes_le(
                    num_bigint::Sign::Plus,
                    &v.to_repr(),
                )));
            }
            plutus::evaluate(&program, args, 11).accepted
        };
        let (ok, hints) = plutus::hints(&vp, &vk, &proof, &[&pi]);
        // Two batched inverses: one at x, one in the multi-open.
        assert_eq!(hints.len(), 64);
        assert!(ok && eval(&proof, &hints));
        let mut bad_hints = hints.clone();
        bad_hints[0] ^= 1;
        assert!(!eval(&proof, &bad_hints));
        // Hints with a byte more: the script checks their length (a redeemer anyone could
        // change in the mempool otherwise).
        assert!(!eval(&proof, &[&hints[..], &[0]].concat()));
        assert!(!eval(&proof[..proof.len() - 32], &hints));
        let mut checked = 0;
        for pos in (5..proof.len()).step_by(97) {
            let mut bad = proof.clone();
            bad[pos] ^= 1 << (pos % 8);
            let (native_ok, h) = plutus::hints(&vp, &vk, &bad, &[&pi]);
            assert!(!native_ok, "native accepted a change at {pos}");
            assert!(!eval(&bad, &h), "UPLC accepted a change at {pos}");
            checked += 1;
        }
        assert!(checked >= 10);
    });
}

/// The multi-phase toy (a challenge in a gate over a second-phase column) through UPLC.
#[test]
fn uplc_verifier_on_phases() {
    use tms_cardano::{plutus::program::Shape, toy::ToyPhasesCircuit};
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (pk, vk) = backend::keygen(&params, &ToyPhasesCircuit::default()).unwrap();
    let (a, b) = (Fr::from(3u64), Fr::from(4u64));
    let circuit = ToyPhasesCircuit {
        a: midnight_proofs::circuit::Value::known(a),
        b: midnight_proofs::circuit::Value::known(b),
    };
    let proof = backend::prove(&params, &pk, circuit, &[&[a]], 3).unwrap();
    plutus::with_big_stack(|| {
        let f = plutus::verifier_term(
            &vp,
            &vk,
            &Shape {
                instance_lens: vec![1],
            },
            MsmMode::Fold,
        );
        let program = uplc::ast::Program {
            version: (1, 1, 0),
            term: f,
        };
        let eval = |p: &[u8], v: Fr| {
            let (_, hints) = plutus::hints(&vp, &vk, p, &[&[v]]);
            let args = vec![
                uplc::ast::Term::byte_string(p.to_vec()),
                uplc::ast::Term::byte_string(hints),
                uplc::ast::Term::integer(BigInt::from_bytes_le(
                    num_bigint::Sign::Plus,
                    &v.to_repr(),
                )),
            ];
            plutus::evaluate(&program, args, 10).accepted
        };
        assert!(eval(&proof, a));
        assert!(!eval(&proof, b));

        // The pinned default file is uplc 1.1.24's default V3 model (same spend), and mainnet's
        // model (what `evaluate` uses) differs from it in exactly the seven parameters README
        // names, and spends less here (a field product's `modInteger` is cheaper).
        let (_, hints) = plutus::hints(&vp, &vk, &proof, &[&[a]]);
        let args = vec![
            uplc::ast::Term::byte_string(proof.clone()),
            uplc::ast::Term::byte_string(hints),
            uplc::ast::Term::integer(BigInt::from_bytes_le(num_bigint::Sign::Plus, &a.to_repr())),
        ];
        let mainnet = plutus::evaluate(&program, args.clone(), 10);
        let mut p = program.clone();
        for t in args {
            p = p.apply_term(&t);
        }
        let p: uplc::ast::Program<uplc::ast::NamedDeBruijn> = p.try_into().unwrap();
        let budget = uplc::machine::cost_model::ExBudget {
            cpu: 1_000_000_000_000,
            mem: 10_000_000_000,
        };
        let default = p
            .clone()
            .eval_version_with_protocol(budget, &uplc::Language::PlutusV3, 10)
            .cost();
        let pinned_default = p
            .eval_as_with_protocol(
                &uplc::Language::PlutusV3,
                10,
                &plutus::uplc_default_cost_model_v3(),
                Some(&budget),
            )
            .cost();
        assert_eq!(
            (pinned_default.cpu, pinned_default.mem),
            (default.cpu, default.mem)
        );
        assert!(mainnet.accepted && mainnet.cpu < default.cpu && mainnet.mem == default.mem);
        let (mainnet_params, default_params) = (
            plutus::cost_model_v3(10),
            plutus::uplc_default_cost_model_v3(),
        );
        assert_eq!(mainnet_params.len(), 297);
        let differing: Vec<String> = uplc::machine::cost_model::ParamName::V3
            .iter()
            .zip(mainnet_params.iter().zip(&default_params))
            .filter(|(_, (m, d))| m != d)
            .map(|(name, (m, d))| format!("{name:?} {m} {d}"))
            .collect();
        assert_eq!(
            differing,
            [
                "DivideInteger_cpu_arguments_model_arguments_c11 549 960",
                "EqualsByteString_cpu_arguments_constant 24548 30623",
                "EqualsByteString_cpu_arguments_intercept 29498 28755",
                "EqualsByteString_cpu_arguments_slope 38 75",
                "ModInteger_cpu_arguments_model_arguments_c11 549 960",
                "QuotientInteger_cpu_arguments_model_arguments_c11 549 960",
                "RemainderInteger_cpu_arguments_model_arguments_c11 549 960",
            ]
        );
        // PV 11 (a projection): mainnet's parameters, then the defaults of the new builtins.
        let pv11 = plutus::cost_model_v3(11);
        assert_eq!(&pv11[..297], &mainnet_params[..]);
        assert_eq!(&pv11[297..], &default_params[297..]);
        let mut bad = proof.clone();
        bad[proof.len() - 100] ^= 4;
        assert!(!eval(&bad, a));
    });
}

/// The validator of `vk` over `statement` in `mode`, run on `(proof, hints)`.
fn validator_accepts(
    v: &uplc::ast::Program<uplc::ast::Name>,
    mode: MsmMode,
    proof: &[u8],
    hints: &[u8],
) -> bool {
    let red = plutus::redeemer(b"", proof, hints);
    plutus::evaluate(
        v,
        vec![plutus::data_arg(plutus::context(red))],
        plutus::protocol_version(mode),
    )
    .accepted
}

/// An honest toy certificate on the message [`validator_accepts`]' redeemer carries (empty):
/// the verifier's parameters, key, statement and the proof made with randomness `seed`.
fn honest_toy(seed: u64) -> (backend::VerifierParams, backend::Vk, Vec<Fr>, Vec<u8>) {
    let params = backend::kzg_params(6);
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let (circuit, pi) = ToyCircuit::new(5, 3, message_to_field(b""));
    let proof = backend::prove(&params, &pk, circuit, &[&pi], seed).unwrap();
    (backend::verifier_params(&params), vk, pi, proof)
}

/// The toy's statement as a script holds it: committee and threshold as parameters, the message
/// from the redeemer.
fn toy_statement(pi: &[Fr]) -> Vec<Entry> {
    vec![Entry::Param(pi[0]), Entry::Message, Entry::Param(pi[2])]
}

/// `hints` with hint `k` (32 bytes, little-endian) replaced by `value`.
fn with_hint(hints: &[u8], k: usize, value: Fr) -> Vec<u8> {
    let mut out = hints.to_vec();
    out[32 * k..32 * (k + 1)].copy_from_slice(&value.to_repr());
    out
}

/// An honest toy certificate with one inverse hint replaced by another value (its product with
/// the denominator is not 1) is refused by the validator in both MSM modes; the honest hints
/// pass.
#[test]
fn a_wrong_inverse_hint_is_refused() {
    use ff::Field;
    let (vp, vk, pi, proof) = honest_toy(4);
    let (ok, hints) = plutus::hints(&vp, &vk, &proof, &[&pi]);
    assert!(ok);
    // One hint per batch: at x (x^n - 1, the Lagrange denominators, x) and in the multi-open.
    assert_eq!(hints.len(), 64);
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let v = plutus::validator(&vp, &vk, &toy_statement(&pi), mode).unwrap();
            assert!(validator_accepts(&v, mode, &proof, &hints), "{mode:?}");
            for k in 0..2 {
                let mut repr = [0u8; 32];
                repr.copy_from_slice(&hints[32 * k..32 * (k + 1)]);
                let hint = Fr::from_repr(repr).unwrap();
                for wrong in [hint + Fr::ONE, hint.double(), Fr::ZERO] {
                    let bad = with_hint(&hints, k, wrong);
                    assert!(
                        !validator_accepts(&v, mode, &proof, &bad),
                        "{mode:?} hint {k}"
                    );
                }
            }
        }
    });
}

/// An honest toy certificate with a byte appended to its proof is refused by the validator in
/// both MSM modes: the program reads at fixed offsets, so only its length check sees the byte
/// (midnight-proofs refuses trailing bytes too).
#[test]
fn a_proof_with_trailing_bytes_is_refused() {
    let (vp, vk, pi, proof) = honest_toy(5);
    let (_, hints) = plutus::hints(&vp, &vk, &proof, &[&pi]);
    let mut long = proof.clone();
    long.push(0);
    assert!(!backend::verify(&vp, &vk, &long, &[&pi]));
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let v = plutus::validator(&vp, &vk, &toy_statement(&pi), mode).unwrap();
            assert!(validator_accepts(&v, mode, &proof, &hints), "{mode:?}");
            assert!(!validator_accepts(&v, mode, &long, &hints), "{mode:?}");
        }
    });
}

/// A circuit no witness satisfies: one advice column `a`, one instance column `pi`, and the gate
/// `a^2 = 7 pi` on every row, with a public input `pi` for which `7 pi` is no square (the test
/// takes the empty message's field element and checks it). It has no fixed, permuted or lookup columns: every commitment of
/// a proof is the prover's, so the all-zero proof (identity points, zero scalars) opens them
/// all, and only the vanishing argument is false.
#[derive(Clone, Debug, Default)]
struct NoSquareRoot;

impl midnight_proofs::plonk::Circuit<Fr> for NoSquareRoot {
    type Config = (
        midnight_proofs::plonk::Column<midnight_proofs::plonk::Advice>,
        midnight_proofs::plonk::Column<midnight_proofs::plonk::Instance>,
    );
    type FloorPlanner = midnight_proofs::circuit::SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self
    }

    fn configure(meta: &mut midnight_proofs::plonk::ConstraintSystem<Fr>) -> Self::Config {
        use midnight_proofs::{
            plonk::{Constraints, Expression},
            poly::Rotation,
        };
        let (a, pi) = (meta.advice_column(), meta.instance_column());
        meta.create_gate("a^2 = 7 pi", |m| {
            let a = m.query_advice(a, Rotation::cur());
            let pi = m.query_instance(pi, Rotation::cur());
            Constraints::without_selector(vec![
                a.clone() * a - Expression::Constant(Fr::from(7u64)) * pi,
            ])
        });
        (a, pi)
    }

    fn synthesize(
        &self,
        _: Self::Config,
        _: impl midnight_proofs::circuit::Layouter<Fr>,
    ) -> Result<(), midnight_proofs::plonk::Error> {
        Ok(())
    }
}

/// The bytes of the all-zero proof of `vk`: the verifier program run on a machine that, at each
/// read, writes the identity point or the scalar 0.
fn all_zero_proof(vk: &backend::Vk, shape: &tms_cardano::plutus::program::Shape) -> Vec<u8> {
    use group::{Group, GroupEncoding};
    use tms_cardano::plutus::program::{run, Machine};
    struct Writer(Vec<u8>);
    impl Machine for Writer {
        type S = ();
        type P = ();
        fn konst(&mut self, _: Fr) {}
        fn add(&mut self, _: &(), _: &()) {}
        fn sub(&mut self, _: &(), _: &()) {}
        fn mul(&mut self, _: &(), _: &()) {}
        fn inv(&mut self, _: &()) {}
        fn instance(&mut self, _: usize, _: usize) {}
        fn absorb_bytes(&mut self, _: &[u8]) {}
        fn absorb_scalar(&mut self, _: &()) {}
        fn read_point(&mut self) {
            let identity = midnight_curves::G1Projective::identity();
            self.0.extend_from_slice(identity.to_bytes().as_ref());
        }
        fn read_scalar(&mut self) {
            self.0.extend_from_slice(&[0; 32]);
        }
        fn squeeze(&mut self) {}
        fn const_point(&mut self, _: &midnight_curves::G1Projective) {}
        fn end_of_proof(&mut self) {}
        fn pairing_check(&mut self, _: &(), _: &[((), ())]) {}
    }
    let mut w = Writer(vec![]);
    run(&mut w, vk, shape);
    w.0
}

/// A forged proof of a false statement that only wrong inverse hints make pass: the all-zero
/// proof of [`NoSquareRoot`]. With the true inverses the multi-open's value is the vanishing
/// argument's nonzero `h(x)` and the pairing fails; with hint 0 at x (every Lagrange value and
/// `1 / (x^n - 1)` then 0) or hint 0 in the multi-open (`f(x3)` then 0) every claimed value is 0
/// and the pairing of identities holds. The validator refuses both in both MSM modes (its check
/// `a h = 1 mod r`); the native program and midnight-proofs refuse the proof too.
#[test]
fn a_forged_proof_that_only_wrong_hints_pass_is_refused() {
    use ff::Field;
    use tms_cardano::plutus::{native::NativeMachine, program::Shape};
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (_, vk) = backend::keygen(&params, &NoSquareRoot).unwrap();
    let cs = vk.cs();
    assert_eq!(
        (
            cs.num_fixed_columns(),
            cs.permutation().get_columns().len(),
            cs.lookups().len()
        ),
        (0, 0, 0),
        "only the prover's commitments"
    );
    let shape = Shape {
        instance_lens: vec![1],
    };
    let proof = all_zero_proof(&vk, &shape);
    // The redeemer's (empty) message as the public input: 7 pi is no square, so the statement
    // is false.
    let pi = [message_to_field(b"")];
    assert!(bool::from((Fr::from(7u64) * pi[0]).sqrt().is_none()));
    assert!(!backend::verify(&vp, &vk, &proof, &[&pi]));
    let s_g2 = {
        use group::Curve;
        vp.s_g2().to_affine()
    };
    let mut native = NativeMachine::new(&proof, &[&pi], s_g2);
    tms_cardano::plutus::program::run(&mut native, &vk, &shape);
    assert!(!native.ok, "the native program refuses the forgery");
    let (ok, hints) = plutus::hints(&vp, &vk, &proof, &[&pi]);
    assert!(!ok);
    assert_eq!(hints.len(), 64);
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let v = plutus::validator(&vp, &vk, &[Entry::Message], mode).unwrap();
            // The true inverses: refused by the pairing.
            assert!(!validator_accepts(&v, mode, &proof, &hints), "{mode:?}");
            // A zero "inverse" in either batch: refused by the hint's check alone.
            for k in 0..2 {
                let zero = with_hint(&hints, k, Fr::ZERO);
                assert!(
                    !validator_accepts(&v, mode, &proof, &zero),
                    "{mode:?} hint {k}"
                );
            }
        }
    });
}
