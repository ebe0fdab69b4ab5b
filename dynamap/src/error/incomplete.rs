//! [`IncompleteKey`]: one key an update sets some, not all, of the fields of; the payload
//! of [`Error::IncompleteKeyUpdate`](super::Error::IncompleteKeyUpdate), which names every
//! such key of one update at once.

use super::Error;

/// One key an update leaves half-set: it sets some of the fields the key is rendered from,
/// not all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct IncompleteKey {
    /// Which key: ``index `GSI1`'s sort key``, ``lookup `email`'s key``.
    pub key: String,
    /// The key's template (templates, for an index's two keys, joined by ` / `).
    pub template: &'static str,
    /// The fields of the template the update leaves out.
    pub missing: Vec<&'static str>,
}

impl IncompleteKey {
    pub(crate) fn new(key: String, template: &'static str, missing: Vec<&'static str>) -> Self {
        IncompleteKey {
            key,
            template,
            missing,
        }
    }
}

impl Error {
    /// The error naming every key in `keys` (at least one) and every field they miss.
    pub(crate) fn incomplete_keys(entity: &'static str, keys: Vec<IncompleteKey>) -> Error {
        let mut missing: Vec<&'static str> = Vec::new();
        for field in keys.iter().flat_map(|k| &k.missing) {
            if !missing.contains(field) {
                missing.push(field);
            }
        }
        let (key, template) = keys
            .first()
            .map(|k| (k.key.clone(), k.template))
            .unwrap_or_default();
        Error::IncompleteKeyUpdate {
            entity,
            key,
            template,
            missing,
            keys,
        }
    }

    /// `self` and `other` as one error when both leave keys half-set, else the first error.
    pub(crate) fn merge_incomplete(self, other: Option<Error>) -> Error {
        match (self, other) {
            (
                Error::IncompleteKeyUpdate { entity, keys, .. },
                Some(Error::IncompleteKeyUpdate { keys: more, .. }),
            ) => Error::incomplete_keys(entity, keys.into_iter().chain(more).collect()),
            (first, _) => first,
        }
    }
}

/// ``index `GSI1`'s keys ("A" / "B"), lookup `spot`'s key ("C")``, for messages.
pub(super) fn describe(keys: &[IncompleteKey]) -> String {
    keys.iter()
        .map(|k| format!("{} ({:?})", k.key, k.template))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `` `a`, `b` ``, for messages.
pub(super) fn fields(fields: &[&'static str]) -> String {
    fields
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_and_every_missing_field_is_named_once() {
        let gsi1 = IncompleteKey::new(
            "index `GSI1`'s keys".into(),
            "CITY#{city} / AT#{building}#{floor}",
            vec!["city", "building"],
        );
        let gsi2 = IncompleteKey::new(
            "index `GSI2`'s sort key".into(),
            "ROOM#{room}#{building}",
            vec!["room", "building"],
        );
        let lookup =
            IncompleteKey::new("lookup `spot`'s key".into(), "SPOT#{aisle}", vec!["aisle"]);
        let err = Error::incomplete_keys("Shelf", vec![gsi1, gsi2])
            .merge_incomplete(Some(Error::incomplete_keys("Shelf", vec![lookup])));
        let Error::IncompleteKeyUpdate {
            key, missing, keys, ..
        } = &err
        else {
            panic!("{err:?}")
        };
        assert_eq!(key, "index `GSI1`'s keys");
        assert_eq!(missing, &["city", "building", "room", "aisle"]);
        assert_eq!(keys.len(), 3);
        assert_eq!(
            err.to_string(),
            "an update of `Shelf` changes index `GSI1`'s keys (\"CITY#{city} / AT#{building}#{floor}\"), \
             index `GSI2`'s sort key (\"ROOM#{room}#{building}\"), lookup `spot`'s key (\"SPOT#{aisle}\") \
             but does not set `city`, `building`, `room`, `aisle`; set every field of each template in the \
             same update, or put the whole entity"
        );
    }
}
