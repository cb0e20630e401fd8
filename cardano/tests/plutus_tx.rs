//! The bridge validators (state thread and observer) on the toy circuit, in real Conway
//! transactions evaluated as a node's phase two does (mainnet's cost model and limits): the
//! honest handover and use accepted, every attack of `plutus::scenario` refused, the script
//! context's work within 3% of a transaction's CPU steps, and a threshold of 0 refused when a
//! script is made. Each case prints its `plutus-tx` line.

use tms_cardano::{
    backend::{self, Fr},
    plutus::{
        self,
        bridge::{self, message_field},
        scenario::{self, Bridge, Thread},
        uplc::MsmMode,
        Entry, Error, MessageRule,
    },
    toy::ToyCircuit,
};

#[test]
fn toy_plutus_tx_state_thread_and_observer() {
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (pk, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let (w, t) = (5u64, 3u64);
    let commitment = Fr::from(w * w);
    let mut seed = 10;
    // A certificate on message bytes under the statement (w * w, t).
    let mut certify = |message: &[u8]| {
        let (circuit, pi) = ToyCircuit::new(w, t, message_field(message));
        seed += 1;
        backend::prove(&params, &pk, circuit, &[&pi], seed).unwrap()
    };
    plutus::with_big_stack(|| {
        for mode in [MsmMode::Fold, MsmMode::Builtin] {
            let b = Bridge {
                scheme: "toy",
                vp: &vp,
                vk: &vk,
                mode,
                message: MessageRule::Blake2bBls12381,
            };
            let thread = Thread::toy(commitment, t);
            let (cases, bare) = scenario::state_thread_cases(&b, &thread, &mut certify).unwrap();
            let observer = scenario::observer_cases(
                &b,
                &[
                    Entry::Param(commitment),
                    Entry::Message,
                    Entry::Threshold(t),
                ],
                &mut certify,
            )
            .unwrap();
            scenario::verdict("toy", &cases, &observer, &bare).unwrap();
        }
    });
}

#[test]
fn plutus_tx_threshold_zero_refused_when_made() {
    let params = backend::kzg_params(6);
    let vp = backend::verifier_params(&params);
    let (_, vk) = backend::keygen(&params, &ToyCircuit::default()).unwrap();
    let statement = [
        Entry::Param(Fr::from(25u64)),
        Entry::Message,
        Entry::Threshold(0),
    ];
    plutus::with_big_stack(|| {
        let mode = MsmMode::Fold;
        assert_eq!(
            plutus::validator(&vp, &vk, &statement, mode).err(),
            Some(Error::ZeroThreshold)
        );
        assert_eq!(
            bridge::observer(&vp, &vk, &statement, mode).err(),
            Some(Error::ZeroThreshold)
        );
    });
}
