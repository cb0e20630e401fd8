//! The transactions the bridge validators are tested in, honest and attacking, evaluated with
//! [`super::tx::evaluate`] (a node's phase two, mainnet's cost model and limits). Any circuit on
//! this backend runs them: the caller certifies message bytes (a proof under the thread's
//! current statement, or the observer's) and each case prints one line
//! `plutus-tx scheme=.. validator=.. case=.. accepted=.. cpu=.. mem=.. tx_bytes=.. script_bytes=..
//! pv=..`.
//!
//! State thread: `honest` (the handover); `replayed-later-tx` (the same certificate spending the
//! thread's next UTxO); `copied-redeemer-other-outputs` (the honest redeemer in a transaction
//! that takes ADA from the thread to another output); `next-datum-changed`;
//! `next-datum-extra-field` (the signed datum with a field appended); `token-missing`;
//! `output-elsewhere`; `epoch-not-incremented` and `threshold-zero` (each with a certificate for
//! exactly that datum, so only the script's check refuses it); `hints-extra-byte`.
//! Observer: `honest`; `replayed-later-tx` (the same outputs from other inputs);
//! `copied-redeemer-other-outputs`; `hints-extra-byte`.

use ::uplc::ast::{Name, Program, Term};

use super::{
    bridge::{
        self, observer_message, thread_instance, thread_redeemer, ThreadLayout, ThreadState,
        ThreadToken,
    },
    evaluate, hints, script_bytes,
    tx::{
        self, index_of, input, key_address, output, script_address, script_hash,
        script_reward_account, RedeemerTag, TxOutcome, TxParts, Utxo,
    },
    uplc::MsmMode,
    verifier_term, Entry, Error,
};
use crate::backend::{Fr, VerifierParams, Vk};

/// The verifying key and settings every case shares.
pub struct Bridge<'a> {
    /// The scheme's name in the printed lines.
    pub scheme: &'a str,
    /// Verifier parameters.
    pub vp: &'a VerifierParams,
    /// The certificate circuit's key.
    pub vk: &'a Vk,
    /// How the final MSM is done (and so the protocol version).
    pub mode: MsmMode,
}

/// One case's outcome.
#[derive(Clone, Debug)]
pub struct Case {
    /// The validator form.
    pub validator: &'static str,
    /// The case.
    pub case: &'static str,
    /// Whether a correct validator accepts it.
    pub expected: bool,
    /// The evaluation.
    pub outcome: TxOutcome,
}

/// A certifier: message bytes in, a proof of a certificate on them out.
pub type Certify<'c> = dyn FnMut(&[u8]) -> Vec<u8> + 'c;

fn fixed_hash(tag: &str) -> [u8; 32] {
    let h = blake2b_simd::Params::new()
        .hash_length(32)
        .hash(tag.as_bytes());
    h.as_bytes().try_into().expect("32 bytes")
}

fn key(tag: &str) -> [u8; 28] {
    fixed_hash(tag)[..28].try_into().expect("28 bytes")
}

fn pv(mode: MsmMode) -> u16 {
    super::protocol_version(mode)
}

/// Prints a case's line; `script` is the reference script's size (not in the transaction).
fn report(
    b: &Bridge,
    (validator, script): (&'static str, usize),
    case: &'static str,
    expected: bool,
    o: TxOutcome,
) -> Case {
    println!(
        "plutus-tx scheme={} validator={validator} case={case} accepted={} cpu={} mem={} tx_bytes={} script_bytes={script} pv={}",
        b.scheme,
        o.accepted,
        o.cpu,
        o.mem,
        o.tx_bytes,
        pv(b.mode)
    );
    Case {
        validator,
        case,
        expected,
        outcome: o,
    }
}

fn with_extra_byte(hints: &[u8]) -> Vec<u8> {
    let mut h = hints.to_vec();
    h.push(0);
    h
}

/// The bare verifier's budget on `proof` for `instance` (no script context): what the bridge
/// forms add to is measured against this.
pub fn bare_verifier(b: &Bridge, proof: &[u8], instance: &[Fr]) -> super::Budget {
    let f = verifier_term(
        b.vp,
        b.vk,
        &super::program::Shape {
            instance_lens: vec![instance.len()],
        },
        b.mode,
    );
    let program = Program {
        version: (1, 1, 0),
        term: f,
    };
    let (_, h) = hints(b.vp, b.vk, proof, &[instance]);
    let mut args = vec![Term::byte_string(proof.to_vec()), Term::byte_string(h)];
    args.extend(instance.iter().map(super::fr_term));
    let r = evaluate(&program, args, pv(b.mode));
    println!(
        "plutus-tx scheme={} validator=bare-verifier case=honest accepted={} cpu={} mem={} tx_bytes=0 pv={}",
        b.scheme,
        r.accepted,
        r.cpu,
        r.mem,
        pv(b.mode)
    );
    r
}

/// The UTxOs every transaction draws on: Alice's funds (two UTxOs) and a script reference.
struct World {
    alice: Vec<u8>,
    mallory: Vec<u8>,
    funds: Utxo,
    other_funds: Utxo,
    script_ref: Utxo,
}

impl World {
    fn new(script: &[u8]) -> World {
        let alice = key_address(&key("alice"));
        World {
            funds: (
                input(fixed_hash("funds"), 0),
                output(alice.clone(), 50_000_000, None, None, None),
            ),
            other_funds: (
                input(fixed_hash("other funds"), 1),
                output(alice.clone(), 50_000_000, None, None, None),
            ),
            script_ref: (
                input(fixed_hash("script"), 0),
                output(
                    key_address(&key("deployer")),
                    100_000_000,
                    None,
                    None,
                    Some(script),
                ),
            ),
            alice,
            mallory: key_address(&key("mallory")),
        }
    }
}

/// A state thread's test: its layout, token, genesis state and the next state its honest
/// handover moves to (the next statement, payload).
pub struct Thread {
    /// The datum's layout.
    pub layout: ThreadLayout,
    /// The thread token.
    pub token: ThreadToken,
    /// The state the thread holds (a certificate under its statement moves it).
    pub genesis: ThreadState,
    /// The next statement the honest handover installs.
    pub next_statement: Vec<Fr>,
    /// The next payload.
    pub next_payload: Vec<u8>,
}

/// Runs the state thread's cases; `certify` proves certificates under `thread.genesis`'s
/// statement. Returns every case (the caller asserts `outcome.accepted == expected`).
pub fn state_thread_cases(
    b: &Bridge,
    thread: &Thread,
    certify: &mut Certify,
) -> Result<(Vec<Case>, super::Budget), Error> {
    let program = bridge::state_thread(b.vp, b.vk, &thread.layout, &thread.token, b.mode)?;
    let script = script_bytes(&program);
    let hash = script_hash(&script);
    let address = script_address(&hash);
    let w = World::new(&script);
    let token = &thread.token;
    let thread_ada = 5_000_000;
    let thread_out = |addr: &[u8], ada: u64, with_token: bool, state: &ThreadState| {
        output(
            addr.to_vec(),
            ada,
            with_token.then_some((&token.policy, &token.name[..], 1)),
            Some(state.to_data()),
            None,
        )
    };
    let genesis_utxo = (
        input(fixed_hash("thread genesis"), 0),
        thread_out(&address, thread_ada, true, &thread.genesis),
    );
    let next = thread
        .genesis
        .next(thread.next_statement.clone(), thread.next_payload.clone());

    // A handover transaction spending `utxo` (state `current`) into `outs`, the thread's
    // output first, with `proof` and hints for the statement the script will build.
    let run = |case: &'static str,
               expected: bool,
               utxo: &Utxo,
               current: &ThreadState,
               outs: Vec<tx::TransactionOutput>,
               signed: &ThreadState,
               proof: &[u8],
               extra_hint_byte: bool|
     -> Result<Case, Error> {
        let instance = thread_instance(&thread.layout, token, current, signed)?;
        let (_, h) = hints(b.vp, b.vk, proof, &[&instance]);
        let h = if extra_hint_byte {
            with_extra_byte(&h)
        } else {
            h
        };
        let inputs = vec![utxo.clone(), w.funds.clone()];
        let index = index_of(&inputs, &utxo.0).unwrap_or(0);
        let parts = TxParts {
            inputs,
            reference_inputs: vec![w.script_ref.clone()],
            outputs: outs,
            withdrawals: vec![],
            redeemers: vec![(
                RedeemerTag::Spend,
                index,
                thread_redeemer(proof, &h, index.into(), 0),
            )],
            collateral: Some(w.funds.clone()),
            fee: 2_000_000,
        };
        let (t, resolved) = parts.build();
        Ok(report(
            b,
            ("state-thread", script.len()),
            case,
            expected,
            tx::evaluate(&t, &resolved, pv(b.mode)),
        ))
    };
    let change = output(w.alice.clone(), 48_000_000, None, None, None);
    let honest_outs = vec![
        thread_out(&address, thread_ada, true, &next),
        change.clone(),
    ];

    let message = bridge::state_thread_message(token, &next)?;
    let proof = certify(&message);
    let mut cases = vec![];
    // The honest certificate and next state in a transaction with other outputs.
    let attack = |case, outs| {
        run(
            case,
            false,
            &genesis_utxo,
            &thread.genesis,
            outs,
            &next,
            &proof,
            false,
        )
    };
    cases.push(run(
        "honest",
        true,
        &genesis_utxo,
        &thread.genesis,
        honest_outs.clone(),
        &next,
        &proof,
        false,
    )?);

    // The bare verifier on the same certificate, for the context's share.
    let instance = thread_instance(&thread.layout, token, &thread.genesis, &next)?;
    let bare = bare_verifier(b, &proof, &instance);

    // The thread's next UTxO (the honest transaction's output), moved again with the same
    // certificate to the state after.
    let (honest_tx, _) = TxParts {
        inputs: vec![genesis_utxo.clone(), w.funds.clone()],
        reference_inputs: vec![w.script_ref.clone()],
        outputs: honest_outs.clone(),
        fee: 2_000_000,
        ..Default::default()
    }
    .build();
    let next_utxo = (input(tx::tx_id(&honest_tx), 0), honest_outs[0].clone());
    let after = next.next(next.statement.clone(), next.payload.clone());
    cases.push(run(
        "replayed-later-tx",
        false,
        &next_utxo,
        &next,
        vec![
            thread_out(&address, thread_ada, true, &after),
            change.clone(),
        ],
        &after,
        &proof,
        false,
    )?);

    cases.push(attack(
        "copied-redeemer-other-outputs",
        vec![
            thread_out(&address, thread_ada - 2_000_000, true, &next),
            output(w.mallory.clone(), 2_000_000, None, None, None),
            change.clone(),
        ],
    )?);

    let mut changed = next.clone();
    changed.statement[0] += Fr::from(1u64);
    cases.push(run(
        "next-datum-changed",
        false,
        &genesis_utxo,
        &thread.genesis,
        vec![
            thread_out(&address, thread_ada, true, &changed),
            change.clone(),
        ],
        &changed,
        &proof,
        false,
    )?);

    // The signed fields and one more: the datum is not what was signed.
    let mut fields: Vec<_> = next
        .statement
        .iter()
        .map(|v| {
            ::uplc::ast::Data::integer(num_bigint::BigInt::from_bytes_le(
                num_bigint::Sign::Plus,
                &ff::PrimeField::to_repr(v),
            ))
        })
        .collect();
    fields.push(::uplc::ast::Data::integer(next.epoch.into()));
    fields.push(::uplc::ast::Data::bytestring(next.payload.clone()));
    fields.push(::uplc::ast::Data::integer(0.into()));
    let extra = ::uplc::ast::Data::constr(0, fields);
    cases.push(attack(
        "next-datum-extra-field",
        vec![
            output(
                address.clone(),
                thread_ada,
                Some((&token.policy, &token.name[..], 1)),
                Some(extra),
                None,
            ),
            change.clone(),
        ],
    )?);

    cases.push(attack(
        "token-missing",
        vec![
            thread_out(&address, thread_ada, false, &next),
            thread_out(&w.mallory, 2_000_000, true, &next),
            change.clone(),
        ],
    )?);

    cases.push(attack(
        "output-elsewhere",
        vec![
            thread_out(&w.mallory, thread_ada, true, &next),
            change.clone(),
        ],
    )?);

    // A certificate for exactly the datum with the epoch unchanged: only the epoch check
    // refuses it.
    let same_epoch = ThreadState {
        epoch: thread.genesis.epoch,
        ..next.clone()
    };
    let p = certify(&bridge::state_thread_message(token, &same_epoch)?);
    cases.push(run(
        "epoch-not-incremented",
        false,
        &genesis_utxo,
        &thread.genesis,
        vec![
            thread_out(&address, thread_ada, true, &same_epoch),
            change.clone(),
        ],
        &same_epoch,
        &p,
        false,
    )?);

    if let Some(&t) = thread.layout.thresholds.first() {
        let mut zero = next.clone();
        zero.statement[t] = Fr::from(0u64);
        let p = certify(&bridge::state_thread_message(token, &zero)?);
        cases.push(run(
            "threshold-zero",
            false,
            &genesis_utxo,
            &thread.genesis,
            vec![
                thread_out(&address, thread_ada, true, &zero),
                change.clone(),
            ],
            &zero,
            &p,
            false,
        )?);
    }

    cases.push(run(
        "hints-extra-byte",
        false,
        &genesis_utxo,
        &thread.genesis,
        honest_outs,
        &next,
        &proof,
        true,
    )?);
    Ok((cases, bare))
}

/// Runs the observer's cases for the statement `statement` (its message entry the
/// transaction's); `instance_of(m)` is the instance column for message field `m`, `certify`
/// proves a certificate on message bytes.
pub fn observer_cases(
    b: &Bridge,
    statement: &[Entry],
    instance_of: &dyn Fn(Fr) -> Vec<Fr>,
    certify: &mut Certify,
) -> Result<Vec<Case>, Error> {
    let program: Program<Name> = bridge::observer(b.vp, b.vk, statement, b.mode)?;
    let script = script_bytes(&program);
    let account = script_reward_account(&script_hash(&script));
    let w = World::new(&script);
    let bob = key_address(&key("bob"));
    let outs = |to: &[u8]| {
        vec![
            output(to.to_vec(), 10_000_000, None, None, None),
            output(w.alice.clone(), 38_000_000, None, None, None),
        ]
    };
    let run = |case: &'static str,
               expected: bool,
               funds: &Utxo,
               outputs: Vec<tx::TransactionOutput>,
               proof: &[u8],
               extra_hint_byte: bool|
     -> Result<Case, Error> {
        let inputs = vec![funds.clone()];
        // What the script will build: the message of this transaction.
        let refs: Vec<_> = inputs.iter().map(|u| u.0.clone()).collect();
        let m = observer_message(&refs, &outputs).ok_or(Error::Message)?;
        let instance = instance_of(bridge::message_field(&m));
        let (_, h) = hints(b.vp, b.vk, proof, &[&instance]);
        let h = if extra_hint_byte {
            with_extra_byte(&h)
        } else {
            h
        };
        let parts = TxParts {
            inputs,
            reference_inputs: vec![w.script_ref.clone()],
            outputs,
            withdrawals: vec![(account.clone(), 0)],
            redeemers: vec![(RedeemerTag::Reward, 0, bridge::observer_redeemer(proof, &h))],
            collateral: Some(funds.clone()),
            fee: 2_000_000,
        };
        let (t, resolved) = parts.build();
        Ok(report(
            b,
            ("observer", script.len()),
            case,
            expected,
            tx::evaluate(&t, &resolved, pv(b.mode)),
        ))
    };
    let honest_outs = outs(&bob);
    let m =
        observer_message(std::slice::from_ref(&w.funds.0), &honest_outs).ok_or(Error::Message)?;
    let proof = certify(&m);
    Ok(vec![
        run("honest", true, &w.funds, honest_outs.clone(), &proof, false)?,
        run(
            "replayed-later-tx",
            false,
            &w.other_funds,
            honest_outs.clone(),
            &proof,
            false,
        )?,
        run(
            "copied-redeemer-other-outputs",
            false,
            &w.funds,
            outs(&w.mallory),
            &proof,
            false,
        )?,
        run(
            "hints-extra-byte",
            false,
            &w.funds,
            honest_outs,
            &proof,
            true,
        )?,
    ])
}

/// What the tests require of a scheme's cases: each accepted exactly when it should be, the bare
/// verifier accepting, and the script context's work (each form's honest spend over the bare
/// verifier's) within 3% of a transaction's CPU steps. Prints one `plutus-tx-context` line per
/// form.
pub fn verdict(
    scheme: &str,
    thread: &[Case],
    observer: &[Case],
    bare: &super::Budget,
) -> Result<(), String> {
    if !bare.accepted {
        return Err(format!(
            "the bare verifier refused the honest certificate: {bare:?}"
        ));
    }
    for c in thread.iter().chain(observer) {
        if c.outcome.accepted != c.expected {
            return Err(format!("{} {}: {:?}", c.validator, c.case, c.outcome));
        }
    }
    for honest in [thread.first(), observer.first()].into_iter().flatten() {
        let extra = honest.outcome.cpu - bare.cpu;
        println!(
            "plutus-tx-context scheme={scheme} validator={} bare_cpu={} tx_cpu={} context_cpu={extra} percent_of_tx={:.2}",
            honest.validator,
            bare.cpu,
            honest.outcome.cpu,
            100.0 * extra as f64 / tx::MAX_TX_CPU as f64
        );
        if extra <= 0 || extra * 100 > 3 * tx::MAX_TX_CPU {
            return Err(format!(
                "{}: the context costs {extra} steps",
                honest.validator
            ));
        }
    }
    Ok(())
}
