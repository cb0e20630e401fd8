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
//! exactly that datum, so only the script's check refuses it); `other-statement` (the honest
//! certificate and handover from a thread whose datum holds another statement);
//! `proof-word-changed` (where the verifier knows its proof's layout: a point replaced by
//! another point of the group); `hints-extra-byte`.
//! Observer: `honest`; `replayed-later-tx` (the same outputs from other inputs);
//! `copied-redeemer-other-outputs`; `hints-extra-byte`; `other-statement` (the observer of
//! another statement); `proof-word-changed`.

use ::uplc::ast::{Name, Program, Term};

use super::{
    bridge::{
        self, observer_message, thread_instance_with, thread_redeemer, ThreadLayout, ThreadState,
        ThreadToken,
    },
    evaluate, script_bytes, statement_instance,
    tx::{
        self, index_of, input, key_address, output, script_address, script_hash,
        script_reward_account, RedeemerTag, TxOutcome, TxParts, Utxo,
    },
    uplc::MsmMode,
    Entry, Error, Halo2Verifier, MessageRule, ScriptVerifier,
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
    /// How the circuit's message entries are made from the signed bytes.
    pub message: MessageRule,
}

/// What the scenarios test: a verifier and the scheme's name in the printed lines.
pub trait Subject: ScriptVerifier {
    /// The scheme's name in the printed lines.
    fn scheme(&self) -> &str;
}

impl Bridge<'_> {
    fn halo2(&self) -> Halo2Verifier<'_> {
        Halo2Verifier {
            vp: self.vp,
            vk: self.vk,
            mode: self.mode,
            message: self.message,
        }
    }
}

impl ScriptVerifier for Bridge<'_> {
    fn term(&self, n: usize) -> Term<Name> {
        self.halo2().term(n)
    }
    fn hints(&self, proof: &[u8], instance: &[Fr]) -> Vec<u8> {
        self.halo2().hints(proof, instance)
    }
    fn protocol_version(&self) -> u16 {
        self.halo2().protocol_version()
    }
    fn forms(&self) -> [&'static str; 3] {
        self.halo2().forms()
    }
    fn message_rule(&self) -> MessageRule {
        self.message
    }
}

impl Subject for Bridge<'_> {
    fn scheme(&self) -> &str {
        self.scheme
    }
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

/// Prints a case's line; `script` is the reference script's size (not in the transaction).
fn report(
    b: &dyn Subject,
    (validator, script): (&'static str, usize),
    case: &'static str,
    expected: bool,
    o: TxOutcome,
) -> Case {
    println!(
        "plutus-tx scheme={} validator={validator} case={case} accepted={} cpu={} mem={} tx_bytes={} script_bytes={script} pv={}",
        b.scheme(),
        o.accepted,
        o.cpu,
        o.mem,
        o.tx_bytes,
        b.protocol_version()
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
pub fn bare_verifier(b: &dyn Subject, proof: &[u8], instance: &[Fr]) -> super::Budget {
    bare(b, b.term(instance.len()), "honest", proof, instance)
}

/// [`bare_verifier`] for the observer's `statement`, whose parameters and thresholds are fixed
/// when the script is made ([`ScriptVerifier::term_with_fixed`]); printed as case `fixed-params`.
pub fn bare_verifier_fixed(
    b: &dyn Subject,
    statement: &[Entry],
    proof: &[u8],
    instance: &[Fr],
) -> super::Budget {
    let term = b.term_with_fixed(&super::fixed_entries(statement, b.message_rule()));
    bare(b, term, "fixed-params", proof, instance)
}

fn bare(
    b: &dyn Subject,
    term: Term<Name>,
    case: &str,
    proof: &[u8],
    instance: &[Fr],
) -> super::Budget {
    let program = Program {
        version: (1, 1, 0),
        term,
    };
    let h = b.hints(proof, instance);
    let mut args = vec![Term::byte_string(proof.to_vec()), Term::byte_string(h)];
    args.extend(instance.iter().map(super::fr_term));
    let r = evaluate(&program, args, b.protocol_version());
    println!(
        "plutus-tx scheme={} validator={} case={case} accepted={} cpu={} mem={} tx_bytes=0 script_bytes={} pv={}",
        b.scheme(),
        b.forms()[0],
        r.accepted,
        r.cpu,
        r.mem,
        script_bytes(&program).len(),
        b.protocol_version()
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

impl Thread {
    /// The toy circuits' thread (the halo2 toy and the Groth16 test circuit share its statement
    /// shape): datum `(commitment, threshold)` at epoch 7, handed over to `(36, 4)`.
    pub fn toy(commitment: Fr, threshold: u64) -> Thread {
        Thread {
            layout: ThreadLayout::commitment_message_threshold(),
            token: ThreadToken {
                policy: [7; 28],
                name: b"tms-thread".to_vec(),
            },
            genesis: ThreadState {
                statement: vec![commitment, Fr::from(threshold)],
                epoch: 7,
                payload: vec![],
            },
            next_statement: vec![Fr::from(36u64), Fr::from(4u64)],
            next_payload: vec![],
        }
    }
}

/// The message bytes the honest handover of [`state_thread_cases`] signs: the thread's token
/// and next state ([`bridge::state_thread_message`]), not its genesis statement nor the
/// verifier, so they are known before the thread's test runs: a certificate made on them ahead
/// of time (a wrapped BN254 certificate, minutes to prove) by the committee the genesis state
/// holds passes that case.
pub fn state_thread_honest_message(thread: &Thread) -> Result<Vec<u8>, Error> {
    let next = thread
        .genesis
        .next(thread.next_statement.clone(), thread.next_payload.clone());
    bridge::state_thread_message(&thread.token, &next)
}

/// Runs the state thread's cases; `certify` proves certificates under `thread.genesis`'s
/// statement. Returns every case (the caller asserts `outcome.accepted == expected`).
pub fn state_thread_cases(
    b: &dyn Subject,
    thread: &Thread,
    certify: &mut Certify,
) -> Result<(Vec<Case>, super::Budget), Error> {
    let program = bridge::state_thread_with(b, &thread.layout, &thread.token)?;
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
        let instance =
            thread_instance_with(&thread.layout, token, current, signed, b.message_rule())?;
        let h = b.hints(proof, &instance);
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
            (b.forms()[1], script.len()),
            case,
            expected,
            tx::evaluate(&t, &resolved, b.protocol_version()),
        ))
    };
    let change = output(w.alice.clone(), 48_000_000, None, None, None);
    let honest_outs = vec![
        thread_out(&address, thread_ada, true, &next),
        change.clone(),
    ];

    let message = state_thread_honest_message(thread)?;
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
    let instance = thread_instance_with(
        &thread.layout,
        token,
        &thread.genesis,
        &next,
        b.message_rule(),
    )?;
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

    // The honest certificate and handover from a thread holding another statement (its first
    // entry plus one): the script builds the instance from the datum, so the proof is refused.
    let mut other = thread.genesis.clone();
    other.statement[0] += Fr::from(1u64);
    let other_utxo = (
        input(fixed_hash("other thread"), 0),
        thread_out(&address, thread_ada, true, &other),
    );
    cases.push(run(
        "other-statement",
        false,
        &other_utxo,
        &other,
        honest_outs.clone(),
        &next,
        &proof,
        false,
    )?);
    if let Some(p) = b.tampered(&proof) {
        cases.push(run(
            "proof-word-changed",
            false,
            &genesis_utxo,
            &thread.genesis,
            honest_outs.clone(),
            &next,
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

/// `statement` with its first parameter (or, without one, its first threshold) raised by one:
/// another statement. `None` when it has neither.
fn other_statement(statement: &[Entry]) -> Option<Vec<Entry>> {
    let i = statement
        .iter()
        .position(|e| matches!(e, Entry::Param(_)))
        .or_else(|| {
            statement
                .iter()
                .position(|e| matches!(e, Entry::Threshold(_)))
        })?;
    let mut other = statement.to_vec();
    other[i] = match &statement[i] {
        Entry::Param(v) => Entry::Param(*v + Fr::from(1u64)),
        Entry::Threshold(t) => Entry::Threshold(t + 1),
        Entry::Message => return None,
    };
    Some(other)
}

/// An observer script as deployed: its bytes, its reward account, the UTxOs around it, and the
/// statement it was made for.
struct Deployed {
    script: Vec<u8>,
    account: Vec<u8>,
    world: World,
    statement: Vec<Entry>,
}

impl Deployed {
    fn observer(b: &dyn Subject, statement: &[Entry]) -> Result<Self, Error> {
        let program: Program<Name> = bridge::observer_with(b, statement)?;
        let script = script_bytes(&program);
        Ok(Deployed {
            account: script_reward_account(&script_hash(&script)),
            world: World::new(&script),
            script,
            statement: statement.to_vec(),
        })
    }
}

/// The honest observer transaction's outputs: 10 ADA to `to`, 38 back to `alice`.
fn observer_outputs(to: &[u8], alice: &[u8]) -> Vec<tx::TransactionOutput> {
    vec![
        output(to.to_vec(), 10_000_000, None, None, None),
        output(alice.to_vec(), 38_000_000, None, None, None),
    ]
}

/// The message bytes the honest case of [`observer_cases`] signs (its transaction's first input
/// and outputs, [`bridge::observer_message`]): the same for every verifier, so a certificate
/// made on them ahead of time (a wrapped BN254 certificate, minutes to prove) passes that case.
pub fn observer_honest_message() -> Vec<u8> {
    let w = World::new(&[]);
    let outputs = observer_outputs(&key_address(&key("bob")), &w.alice);
    bridge::observer_message(std::slice::from_ref(&w.funds.0), &outputs)
        .expect("a transaction with an input")
}

/// Runs the observer's cases for the statement `statement` (its message entry the
/// transaction's; the instance column is the statement's entries in order, the circuit's);
/// `certify` proves a certificate on message bytes. Besides the cases of the module's list:
/// `other-statement` (the honest transaction and certificate through the observer of another
/// statement: its first parameter, or threshold, plus one) and, where the verifier knows its
/// proof's layout, `proof-word-changed`.
pub fn observer_cases(
    b: &dyn Subject,
    statement: &[Entry],
    certify: &mut Certify,
) -> Result<Vec<Case>, Error> {
    let main = Deployed::observer(b, statement)?;
    let w = &main.world;
    let bob = key_address(&key("bob"));
    let outs = |to: &[u8]| observer_outputs(to, &w.alice);
    let run = |on: &Deployed,
               case: &'static str,
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
        let instance = statement_instance(&on.statement, &b.message_rule().fields(&m));
        let h = b.hints(proof, &instance);
        let h = if extra_hint_byte {
            with_extra_byte(&h)
        } else {
            h
        };
        let parts = TxParts {
            inputs,
            reference_inputs: vec![on.world.script_ref.clone()],
            outputs,
            withdrawals: vec![(on.account.clone(), 0)],
            redeemers: vec![(RedeemerTag::Reward, 0, bridge::observer_redeemer(proof, &h))],
            collateral: Some(funds.clone()),
            fee: 2_000_000,
        };
        let (t, resolved) = parts.build();
        Ok(report(
            b,
            (b.forms()[2], on.script.len()),
            case,
            expected,
            tx::evaluate(&t, &resolved, b.protocol_version()),
        ))
    };
    let honest_outs = outs(&bob);
    let m =
        observer_message(std::slice::from_ref(&w.funds.0), &honest_outs).ok_or(Error::Message)?;
    let proof = certify(&m);
    let mut cases = vec![
        run(
            &main,
            "honest",
            true,
            &w.funds,
            honest_outs.clone(),
            &proof,
            false,
        )?,
        run(
            &main,
            "replayed-later-tx",
            false,
            &w.other_funds,
            honest_outs.clone(),
            &proof,
            false,
        )?,
        run(
            &main,
            "copied-redeemer-other-outputs",
            false,
            &w.funds,
            outs(&w.mallory),
            &proof,
            false,
        )?,
        run(
            &main,
            "hints-extra-byte",
            false,
            &w.funds,
            honest_outs.clone(),
            &proof,
            true,
        )?,
    ];
    if let Some(other) = other_statement(statement) {
        let on = Deployed::observer(b, &other)?;
        // The funds and outputs are the same, so the message is the honest one.
        let funds = on.world.funds.clone();
        cases.push(run(
            &on,
            "other-statement",
            false,
            &funds,
            honest_outs.clone(),
            &proof,
            false,
        )?);
    }
    if let Some(p) = b.tampered(&proof) {
        cases.push(run(
            &main,
            "proof-word-changed",
            false,
            &w.funds,
            honest_outs,
            &p,
            false,
        )?);
    }
    Ok(cases)
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
    verdict_per_form(scheme, thread, observer, [bare, bare])
}

/// [`verdict`] with each form's bare verifier (the state thread's, the observer's): a verifier
/// that folds the observer's fixed statement entries in advance ([`bare_verifier_fixed`]) is
/// cheaper there.
pub fn verdict_per_form(
    scheme: &str,
    thread: &[Case],
    observer: &[Case],
    bare: [&super::Budget; 2],
) -> Result<(), String> {
    if let Some(b) = bare.iter().find(|b| !b.accepted) {
        return Err(format!(
            "the bare verifier refused the honest certificate: {b:?}"
        ));
    }
    for c in thread.iter().chain(observer) {
        if c.outcome.accepted != c.expected {
            return Err(format!("{} {}: {:?}", c.validator, c.case, c.outcome));
        }
    }
    for (honest, bare) in [thread.first(), observer.first()].into_iter().zip(bare) {
        let Some(honest) = honest else { continue };
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
