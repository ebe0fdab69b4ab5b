//! What `#[derive(Entity)]` tells the model charts about an entity: plain constant data,
//! read by `model::Model`. Not public API.

/// An entity's keys, lookups, stored fields and computed key parts, as declared.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityDescription {
    /// The entity type (`ENTITY_TYPE`).
    pub entity: &'static str,
    /// The table's primary key (index `""`) first, then each index the entity declares.
    pub keys: &'static [KeyDescription],
    /// The lookup items kept in sync with the entity (`index` is the lookup's name).
    pub lookups: &'static [KeyDescription],
    /// `(field, attribute, Rust type)` of every stored field, in declaration order.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
    /// The attribute of the `#[dynamap(ttl)]` field.
    pub ttl: Option<&'static str>,
    /// `(part, how, fields)` of each computed key part: `shard(N)` or the function's path.
    pub computed: &'static [(&'static str, &'static str, &'static [&'static str])],
}

/// One key of an entity: a template's text, or `{field}` for each attribute of a key made
/// of fields' own attributes, per key attribute in key order.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyDescription {
    /// The index (`""` for the table's primary key), or the lookup's name.
    pub index: &'static str,
    /// The partition key's values, one per attribute.
    pub pk: &'static [&'static str],
    /// The sort key's values, one per attribute (empty without a sort key).
    pub sk: &'static [&'static str],
    /// A local secondary index.
    pub local: bool,
}

impl EntityDescription {
    /// Nothing declared (an entity implemented by hand).
    pub const NONE: EntityDescription = EntityDescription {
        entity: "",
        keys: &[],
        lookups: &[],
        fields: &[],
        ttl: None,
        computed: &[],
    };
}
