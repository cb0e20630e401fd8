//! mithril-stm 0.13.0's registration and single signatures read into our mithril-stm mode's types
//! (`mithril_jubjub::stm`) through its public API and serde formats: points, scalars and field
//! elements serialise as tuples of their canonical bytes.

use ciborium::Value;
use mithril_jubjub::{
    native::Base,
    stm::native::{base_from_bytes, key_from_bytes, StmLeaf, StmSignature},
};
use mithril_stm::{
    Clerk, ClosedKeyRegistration, MithrilMembershipDigest, Parameters, SingleSignature,
};

type D = MithrilMembershipDigest;

/// A CBOR map's entry.
pub(crate) fn entry<'a>(value: &'a Value, name: &str) -> Result<&'a Value, String> {
    match value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| matches!(k, Value::Text(t) if t == name))
            .map(|(_, v)| v)
            .ok_or_else(|| format!("no {name} in the serialised value")),
        _ => Err(format!("{name}: not a map")),
    }
}

/// The bytes of a serde tuple of bytes.
pub(crate) fn tuple_bytes(value: &Value) -> Result<Vec<u8>, String> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::Integer(n) => u8::try_from(i128::from(*n)).map_err(|e| e.to_string()),
                _ => Err("not a byte".to_string()),
            })
            .collect(),
        _ => Err("not a tuple of bytes".into()),
    }
}

/// A serialisable value as a CBOR value.
pub(crate) fn to_value<T: serde::Serialize>(x: &T) -> Result<Value, String> {
    let mut bytes = Vec::new();
    ciborium::ser::into_writer(x, &mut bytes).map_err(|e| e.to_string())?;
    ciborium::de::from_reader(bytes.as_slice()).map_err(|e| e.to_string())
}

/// Our reading of a single signature's SNARK part: `(leaf position, signature)`.
pub(crate) fn read_signature(signature: &SingleSignature) -> Result<(usize, StmSignature), String> {
    let value = to_value(signature)?;
    let schnorr = entry(entry(&value, "snark_signature")?, "schnorr_signature")?;
    let mut bytes = tuple_bytes(entry(schnorr, "commitment_point")?)?;
    bytes.extend(tuple_bytes(entry(schnorr, "response")?)?);
    bytes.extend(tuple_bytes(entry(schnorr, "challenge")?)?);
    let signature_ours = StmSignature::from_bytes(&bytes).map_err(|e| e.to_string())?;
    Ok((signature.signer_index as usize, signature_ours))
}

/// The registration's SNARK leaves in its order (the signer indices), read through the public
/// API.
pub(crate) fn read_leaves(closed: &ClosedKeyRegistration) -> Result<Vec<StmLeaf>, String> {
    let mut leaves = Vec::new();
    for i in 0.. {
        let Ok(entry) = closed.get_registration_entry_for_index(&i) else {
            break;
        };
        let key = entry
            .get_verification_key_for_snark()
            .ok_or("a registration entry without a SNARK key")?;
        let target = entry
            .get_lottery_target_value()
            .ok_or("a registration entry without a lottery target")?;
        leaves.push(StmLeaf {
            // Its canonical bytes (x then y): serde writes the point compressed.
            key: key_from_bytes(&key.to_canonical_bytes()).map_err(|e| e.to_string())?,
            target: base_from_bytes(&tuple_bytes(&to_value(&target)?)?)
                .map_err(|e| e.to_string())?,
        });
    }
    Ok(leaves)
}

/// mithril-stm's registration root: the first 32 bytes of its SNARK aggregate verification key's
/// rigid slot (what a verifier holds).
pub(crate) fn read_root(
    parameters: &Parameters,
    closed: &ClosedKeyRegistration,
) -> Result<Base, String> {
    let clerk = Clerk::<D>::new_clerk_from_closed_key_registration(parameters, closed);
    let slot = clerk
        .compute_aggregate_verification_key()
        .to_snark_aggregate_verification_key()
        .ok_or("no SNARK aggregate verification key")?
        .to_rigid_slot_bytes()
        .map_err(|e| format!("{e:#}"))?;
    base_from_bytes(&slot[..32]).map_err(|e| e.to_string())
}
