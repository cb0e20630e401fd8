//! Mithril certificate chains, as a light client follows them: epoch `e`'s certificate is
//! signed by the stake registered for epoch `e` and its message binds the next epoch's
//! registration digest, an application message (for example a state root) and the epoch itself,
//! counted from the genesis registration (epoch 0):
//!
//! ```text
//! message_e = Poseidon_leaf(CHAIN_LINK, digest(registration_{e+1}), application_e, e)
//! ```
//!
//! so a verifier that trusts the genesis registration's digest learns, certificate by
//! certificate, which registration signs next. The epoch makes each certificate mean one place in
//! the chain: when a registration repeats (unchanged keys and stakes), its certificate for epoch
//! `e` cannot be appended again at `e + 1`, nor end a chain at another length. [`verify_chain`] checks a chain against the
//! statement a recursive proof of it exposes ([`ChainStatement`]: genesis digest, last
//! registration digest, last application message, number of epochs), refusing a certificate
//! signed by another registration than the chain's, a broken link, a reordered chain and a chain
//! shorter or longer than claimed.

use crate::{
    native::{params::Tag, registration::RegistrationCommitment, stm},
    Certificate, MithrilError,
};
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    Fr,
};

/// The message epoch `epoch`'s certificate of a chain signs (epochs counted from the genesis
/// registration, which signs epoch 0): the next registration's digest, the epoch's application
/// message and the epoch, hashed with the chain-link tag.
pub fn link_message(
    next_registration: Fr,
    application: Fr,
    epoch: u64,
) -> Result<Fr, MithrilError> {
    Ok(Poseidon.hash_leaf(&[
        Tag::ChainLink.value(),
        next_registration,
        application,
        Fr::from(epoch),
    ])?)
}

/// One epoch of a chain.
#[derive(Clone, Debug)]
pub struct ChainLink {
    /// The registration that signs this epoch's certificate.
    pub signers: RegistrationCommitment,
    /// The digest of the registration that signs the next epoch.
    pub next_registration: Fr,
    /// This epoch's application message.
    pub application: Fr,
    /// The epoch the certificate signs for (0 for the genesis registration's).
    pub epoch: u64,
    /// The certificate on [`link_message`]`(next_registration, application, epoch)`.
    pub certificate: Certificate,
}

impl ChainLink {
    /// The message this link's certificate signs.
    pub fn message(&self) -> Result<Fr, MithrilError> {
        link_message(self.next_registration, self.application, self.epoch)
    }
}

/// What a chain of certificates shows, and what a proof of the chain exposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStatement {
    /// The digest of the registration the verifier trusts (epoch 0's signers).
    pub genesis: Fr,
    /// The digest of the registration the last certificate hands over to.
    pub last_registration: Fr,
    /// The last certificate's application message.
    pub last_application: Fr,
    /// The number of certificates (epochs).
    pub epochs: usize,
}

/// The statement `links` shows from `genesis`, after checking every link: certificate `e` is
/// signed by `genesis` (e = 0) or by the registration certificate `e - 1` handed over to, is for
/// epoch `e`, and verifies on its link message.
pub fn chain_statement(genesis: Fr, links: &[ChainLink]) -> Result<ChainStatement, MithrilError> {
    let last = links.last().ok_or(MithrilError::EmptyChain)?;
    let mut expected = genesis;
    for (epoch, link) in links.iter().enumerate() {
        if link.signers.digest() != expected {
            return Err(MithrilError::ChainSignedByOther { epoch });
        }
        if link.epoch != epoch as u64 {
            return Err(MithrilError::ChainEpoch {
                epoch,
                signed: link.epoch,
            });
        }
        stm::verify(&link.signers, link.message()?, &link.certificate).map_err(|e| {
            MithrilError::ChainCertificate {
                epoch,
                reason: Box::new(e),
            }
        })?;
        expected = link.next_registration;
    }
    Ok(ChainStatement {
        genesis,
        last_registration: last.next_registration,
        last_application: last.application,
        epochs: links.len(),
    })
}

/// Checks that `links` show exactly `claimed`: every link (see [`chain_statement`]) from
/// `claimed.genesis`, and the chain's end, last application message and length as claimed.
pub fn verify_chain(claimed: &ChainStatement, links: &[ChainLink]) -> Result<(), MithrilError> {
    let shown = chain_statement(claimed.genesis, links)?;
    let differs = if shown.epochs != claimed.epochs {
        Some("number of epochs")
    } else if shown.last_registration != claimed.last_registration {
        Some("last registration digest")
    } else if shown.last_application != claimed.last_application {
        Some("last application message")
    } else {
        None
    };
    match differs {
        Some(field) => Err(MithrilError::ChainStatement(field)),
        None => Ok(()),
    }
}
