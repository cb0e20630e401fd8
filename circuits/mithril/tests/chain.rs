//! Certificate chains, natively: an honest chain of four epochs verifies, and each one-change
//! variant a light client must refuse is refused with its reason.

use mithril_snark::{
    chain::{chain_statement, link_message, verify_chain, ChainLink, ChainStatement},
    example_certificate_on, MithrilError, Parameters, PhiF, Registration,
};
use tms_gadgets::Fr;

const EPOCHS: usize = 4;

fn parameters() -> Parameters {
    Parameters::new(40, 3, PhiF::new(7, 10).unwrap()).unwrap()
}

/// The registration of epoch `e` (its keys and stakes come from the seed alone).
fn registration(seed: u64) -> Registration {
    example_certificate_on(parameters(), 5, None, seed, false, None)
        .unwrap()
        .registration
}

/// Epoch `epoch`'s link: signed by the registration of `signer_seed`, handing over to `next`.
fn link(signer_seed: u64, next: Fr, application: Fr, epoch: u64) -> ChainLink {
    let message = link_message(next, application, epoch).unwrap();
    let ex =
        example_certificate_on(parameters(), 5, None, signer_seed, false, Some(message)).unwrap();
    ChainLink {
        signers: ex.registration.commitment(),
        next_registration: next,
        application,
        epoch,
        certificate: ex.certificate,
    }
}

/// Epochs 0..EPOCHS signed by the registrations of seeds 100, 101, ...; each hands over to the
/// next seed's registration.
fn honest() -> (ChainStatement, Vec<ChainLink>) {
    let links: Vec<ChainLink> = (0..EPOCHS as u64)
        .map(|e| {
            let next = registration(101 + e).commitment().digest();
            link(100 + e, next, Fr::from(1000 + e), e)
        })
        .collect();
    let statement = ChainStatement {
        genesis: registration(100).commitment().digest(),
        last_registration: registration(100 + EPOCHS as u64).commitment().digest(),
        last_application: Fr::from(1000 + EPOCHS as u64 - 1),
        epochs: EPOCHS,
    };
    (statement, links)
}

#[test]
fn an_honest_chain_shows_its_statement() {
    let (statement, links) = honest();
    assert_eq!(
        chain_statement(statement.genesis, &links).unwrap(),
        statement
    );
    verify_chain(&statement, &links).unwrap();
}

#[test]
fn a_certificate_signed_by_another_registration_is_refused() {
    let (statement, mut links) = honest();
    // Epoch 2 re-signed, on the same link message, by a registration epoch 1 did not name.
    let (next, application) = (links[2].next_registration, links[2].application);
    links[2] = link(999, next, application, 2);
    assert!(matches!(
        verify_chain(&statement, &links),
        Err(MithrilError::ChainSignedByOther { epoch: 2 })
    ));
}

#[test]
fn a_broken_link_is_refused() {
    let (statement, mut links) = honest();
    // Epoch 1 claims to hand over elsewhere: its certificate does not sign that message.
    links[1].next_registration = registration(999).commitment().digest();
    assert!(matches!(
        verify_chain(&statement, &links),
        Err(MithrilError::ChainCertificate { epoch: 1, .. })
    ));
    // Another application message under the same certificate, likewise.
    let (statement, mut links) = honest();
    links[3].application += Fr::from(1u64);
    assert!(matches!(
        verify_chain(&statement, &links),
        Err(MithrilError::ChainCertificate { epoch: 3, .. })
    ));
}

#[test]
fn a_reordered_chain_is_refused() {
    let (statement, mut links) = honest();
    links.swap(1, 2);
    assert!(matches!(
        verify_chain(&statement, &links),
        Err(MithrilError::ChainSignedByOther { epoch: 1 })
    ));
}

#[test]
fn a_truncated_chain_claimed_complete_is_refused() {
    let (statement, links) = honest();
    // The first three epochs verify on their own...
    let shorter = chain_statement(statement.genesis, &links[..EPOCHS - 1]).unwrap();
    assert_eq!(shorter.epochs, EPOCHS - 1);
    // ...but not as the four-epoch chain, nor as a chain ending where the full one does.
    assert!(matches!(
        verify_chain(&statement, &links[..EPOCHS - 1]),
        Err(MithrilError::ChainStatement("number of epochs"))
    ));
    let claimed_end = ChainStatement {
        epochs: EPOCHS - 1,
        ..statement
    };
    assert!(matches!(
        verify_chain(&claimed_end, &links[..EPOCHS - 1]),
        Err(MithrilError::ChainStatement("last registration digest"))
    ));
    // Another genesis, another last message: refused too.
    let other_genesis = ChainStatement {
        genesis: registration(999).commitment().digest(),
        ..statement
    };
    assert!(matches!(
        verify_chain(&other_genesis, &links),
        Err(MithrilError::ChainSignedByOther { epoch: 0 })
    ));
    let other_message = ChainStatement {
        last_application: Fr::from(7u64),
        ..statement
    };
    assert!(matches!(
        verify_chain(&other_message, &links),
        Err(MithrilError::ChainStatement("last application message"))
    ));
    assert!(matches!(
        verify_chain(&statement, &[]),
        Err(MithrilError::EmptyChain)
    ));
}

/// A registration that repeats (epochs 1 and 2 signed by the same keys and stakes, each handing
/// over to itself): epoch 1's certificate says `R -> R`, so without the epoch in its message it
/// could be appended again, or end the chain with its stale application message.
fn repeated_registration() -> (Fr, Vec<ChainLink>) {
    let same = registration(101).commitment().digest();
    let links = vec![
        link(100, same, Fr::from(1000u64), 0),
        link(101, same, Fr::from(1001u64), 1),
        link(101, same, Fr::from(1002u64), 2),
    ];
    (registration(100).commitment().digest(), links)
}

#[test]
fn a_repeated_registrations_certificate_appended_again_is_refused() {
    let (genesis, links) = repeated_registration();
    assert_eq!(chain_statement(genesis, &links).unwrap().epochs, 3);
    // Epoch 2's certificate appended a second time, as epoch 3.
    let mut appended = links.clone();
    appended.push(links[2].clone());
    assert!(matches!(
        chain_statement(genesis, &appended),
        Err(MithrilError::ChainEpoch {
            epoch: 3,
            signed: 2
        })
    ));
    // Relabelled as epoch 3, its certificate no longer verifies.
    appended[3].epoch = 3;
    assert!(matches!(
        chain_statement(genesis, &appended),
        Err(MithrilError::ChainCertificate { epoch: 3, .. })
    ));
}

#[test]
fn a_chain_ending_on_an_older_certificate_is_refused() {
    let (genesis, links) = repeated_registration();
    // [e0, e1, e2, e1]: four epochs claimed, ending on epoch 1's stale application message.
    let mut stale = links.clone();
    stale.push(links[1].clone());
    let claimed = ChainStatement {
        genesis,
        last_registration: links[1].next_registration,
        last_application: links[1].application,
        epochs: 4,
    };
    assert!(matches!(
        verify_chain(&claimed, &stale),
        Err(MithrilError::ChainEpoch {
            epoch: 3,
            signed: 1
        })
    ));
}
