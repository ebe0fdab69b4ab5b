//! The physical table: key attribute names, indexes, the entity-type and TTL attributes.

use crate::key_format::KeyFormat;

/// A physical DynamoDB table layout, usually declared with `#[derive(Table)]`:
///
/// ```
/// use dynamap::Table;
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", ttl = "expires_at",
///           index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
/// struct App;
///
/// assert_eq!(App::SCHEMA.pk, "PK");
/// assert_eq!(App::SCHEMA.entity_type, "_type");
/// assert_eq!(App::SCHEMA.indexes[0].name, "GSI1");
/// ```
///
/// The table's *name* is not part of the layout: it is given to [`Db::new`](crate::Db::new),
/// so one layout serves every stage and every test table.
pub trait Table: 'static {
    /// The layout.
    const SCHEMA: TableSchema;

    /// How the parts of every entity's keys are written, unless an entity or field says
    /// otherwise: `#[dynamap(key_format(...))]` (see [`KeyFormat`]). dynamap's own escaped,
    /// order-preserving form by default.
    const KEY_FORMAT: KeyFormat = KeyFormat::ESCAPED;
}

/// The layout of a table. Key attributes, the table's own and its indexes', are strings
/// (`S`) unless declared otherwise (`pk_type = "N"`, `sk_type = "B"`), so that an entity can
/// map a key straight to one of its fields (`sk = field(score)`), as tables written by
/// other mappers often do.
///
/// # Examples
///
/// ```
/// use dynamap::Table;
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", ttl = "expires_at")]
/// struct App;
///
/// let schema = App::SCHEMA;
/// assert_eq!((schema.pk, schema.sk, schema.ttl), ("PK", Some("SK"), Some("expires_at")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableSchema {
    /// The Rust type that declared the layout, for messages.
    pub type_name: &'static str,
    /// The partition key attribute.
    pub pk: &'static str,
    /// The sort key attribute, if the table has one.
    pub sk: Option<&'static str>,
    /// The DynamoDB type of the partition key attribute (`S` unless declared with
    /// `pk_type`).
    pub pk_type: ScalarType,
    /// The DynamoDB type of the sort key attribute (`S` unless declared with `sk_type`;
    /// meaningless without a sort key).
    pub sk_type: ScalarType,
    /// The attribute holding each item's entity type (default `_type`).
    pub entity_type: &'static str,
    /// The attribute DynamoDB's time to live reads, if TTL is enabled.
    pub ttl: Option<&'static str>,
    /// The secondary indexes, global and local.
    pub indexes: &'static [IndexSchema],
}

/// A secondary index: global (its own partition key) or [local](Self::local) (the
/// table's partition key, a sort key of its own).
///
/// Its partition key and its sort key are each one attribute or, in a *multi-attribute*
/// key, up to four: `pk`/`sk` name the first and `pk_more`/`sk_more` the others, in key
/// order. The attributes of a multi-attribute key are plain item attributes (an entity's
/// own fields, `fields(repo, status)`), never rendered templates.
///
/// # Examples
///
/// ```
/// use dynamap::Table;
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
///           local_index(name = "ByDate", sk = "LSI1SK"))]
/// struct App;
///
/// let gsi = App::SCHEMA.index("GSI1").unwrap();
/// assert!(!gsi.local && gsi.pk == "GSI1PK");
/// let lsi = App::SCHEMA.index("ByDate").unwrap();
/// assert!(lsi.local && lsi.pk == "PK"); // a local index keeps the table's partition key
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexSchema {
    /// The index name.
    pub name: &'static str,
    /// The index's partition key attribute (the first, in a multi-attribute key).
    pub pk: &'static str,
    /// The index's sort key attribute (the first, in a multi-attribute key), if it has one.
    pub sk: Option<&'static str>,
    /// The DynamoDB type of the partition key attribute.
    pub pk_type: ScalarType,
    /// The DynamoDB type of the sort key attribute.
    pub sk_type: ScalarType,
    /// The partition key attributes after the first, in a multi-attribute key (empty
    /// otherwise).
    pub pk_more: &'static [KeyAttributeSchema],
    /// The sort key attributes after the first, in a multi-attribute key (empty otherwise).
    pub sk_more: &'static [KeyAttributeSchema],
    /// Which attributes the index holds.
    pub projection: Projection,
    /// A local secondary index: keyed on the table's partition key (`pk` names it) and a
    /// sort key of its own. Unlike a global one it offers strongly consistent reads and
    /// shares the table's capacity; it is created with the table and only then.
    pub local: bool,
}

/// One attribute of a multi-attribute index key, after the first.
///
/// # Examples
///
/// ```
/// use dynamap::Table;
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", index(name = "ByStatus", pk = "repo", sk("status", "number"), sk_type("S", "N")))]
/// struct App;
///
/// let index = App::SCHEMA.index("ByStatus").unwrap();
/// assert_eq!(index.sk_more[0].name, "number");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeyAttributeSchema {
    /// The attribute name.
    pub name: &'static str,
    /// Its DynamoDB type.
    pub kind: ScalarType,
}

/// The attribute holding an item's schema version (a number), written on every write of an
/// entity that declares `#[dynamap(schema_version = N)]`. An item without it counts as
/// version 1: the shape before versions were declared.
pub const SCHEMA_VERSION_ATTRIBUTE: &str = "_schema";

/// At most four attributes make one multi-attribute index key, as in DynamoDB.
pub const MAX_KEY_ATTRIBUTES: usize = 4;

impl IndexSchema {
    /// Every partition key attribute with its type, in key order.
    pub fn pk_attributes(&self) -> impl Iterator<Item = (&'static str, ScalarType)> + '_ {
        std::iter::once((self.pk, self.pk_type))
            .chain(self.pk_more.iter().map(|a| (a.name, a.kind)))
    }

    /// Every sort key attribute with its type, in key order (none without a sort key).
    pub fn sk_attributes(&self) -> impl Iterator<Item = (&'static str, ScalarType)> + '_ {
        self.sk
            .map(|sk| (sk, self.sk_type))
            .into_iter()
            .chain(self.sk_more.iter().map(|a| (a.name, a.kind)))
    }

    /// True when the partition key or the sort key has more than one attribute.
    pub const fn is_multi_attribute(&self) -> bool {
        !self.pk_more.is_empty() || !self.sk_more.is_empty()
    }

    /// How many attributes the partition key has.
    pub const fn pk_len(&self) -> usize {
        1 + self.pk_more.len()
    }

    /// How many attributes the sort key has (0 without one).
    pub const fn sk_len(&self) -> usize {
        match self.sk {
            Some(_) => 1 + self.sk_more.len(),
            None => 0,
        }
    }

    /// The `n`th partition key attribute's name and type (`""` past the end), usable in
    /// constants (compile-time layout checks).
    #[doc(hidden)]
    pub const fn pk_at(&self, n: usize) -> (&'static str, ScalarType) {
        match n {
            0 => (self.pk, self.pk_type),
            _ if n <= self.pk_more.len() => (self.pk_more[n - 1].name, self.pk_more[n - 1].kind),
            _ => ("", ScalarType::String),
        }
    }

    /// The `n`th sort key attribute's name and type (`""` past the end), usable in
    /// constants.
    #[doc(hidden)]
    pub const fn sk_at(&self, n: usize) -> (&'static str, ScalarType) {
        match (n, self.sk) {
            (_, None) => ("", ScalarType::String),
            (0, Some(sk)) => (sk, self.sk_type),
            _ if n <= self.sk_more.len() => (self.sk_more[n - 1].name, self.sk_more[n - 1].kind),
            _ => ("", ScalarType::String),
        }
    }
}

/// The type of a key attribute, as DynamoDB declares it (`AttributeDefinitions`).
///
/// # Examples
///
/// ```
/// use dynamap::{ScalarType, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "LB_PK", sk = "score", sk_type = "N"))]
/// struct App;
///
/// assert_eq!(App::SCHEMA.index("Leaderboard").unwrap().sk_type, ScalarType::Number);
/// assert_eq!(ScalarType::Number.code(), "N");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScalarType {
    /// `S`: a string. Every template-rendered key is one.
    #[default]
    String,
    /// `N`: a number, such as a leaderboard score, so that `ADD` and `SET` keep the index
    /// in order.
    Number,
    /// `B`: binary.
    Binary,
}

impl ScalarType {
    /// DynamoDB's code for the type: `S`, `N` or `B`.
    pub const fn code(self) -> &'static str {
        match self {
            ScalarType::String => "S",
            ScalarType::Number => "N",
            ScalarType::Binary => "B",
        }
    }

    /// Equality usable in constants (compile-time layout checks).
    #[doc(hidden)]
    pub const fn is(self, other: ScalarType) -> bool {
        self as u8 == other as u8
    }
}

/// Which attributes a secondary index holds besides its keys.
///
/// Typed reads tell entities apart by the entity-type attribute (and filter on it), so an
/// index always holds it too: [`Db::create_table`](crate::Db::create_table) creates
/// `KeysOnly` as DynamoDB's `INCLUDE` of that one attribute, and adds it to `Include`'s list.
///
/// # Examples
///
/// ```
/// use dynamap::{Projection, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", index(name = "Names", pk = "GSI1PK", include("name")))]
/// struct App;
///
/// assert_eq!(App::SCHEMA.index("Names").unwrap().projection, Projection::Include(&["name"]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Projection {
    /// Every attribute (the default).
    #[default]
    All,
    /// Only the table's and the index's key attributes, and the entity type.
    KeysOnly,
    /// The keys, the entity type and the listed attributes.
    Include(&'static [&'static str]),
}

impl TableSchema {
    /// The index called `name`, if the table has one.
    pub const fn index(&self, name: &str) -> Option<&IndexSchema> {
        let mut i = 0;
        while i < self.indexes.len() {
            if str_eq(self.indexes[i].name, name) {
                return Some(&self.indexes[i]);
            }
            i += 1;
        }
        None
    }

    /// True when `attribute` is one the table itself manages: a table or index key
    /// attribute, the entity-type attribute, the schema-version attribute. Fields cannot be
    /// stored under these names.
    pub const fn is_reserved_attribute(&self, attribute: &str) -> bool {
        if str_eq(self.pk, attribute)
            || str_eq(self.entity_type, attribute)
            || str_eq(SCHEMA_VERSION_ATTRIBUTE, attribute)
        {
            return true;
        }
        if let Some(sk) = self.sk
            && str_eq(sk, attribute)
        {
            return true;
        }
        let mut i = 0;
        while i < self.indexes.len() {
            if self.indexes[i].has_key_attribute(attribute) {
                return true;
            }
            i += 1;
        }
        false
    }
}

impl TableSchema {
    /// True when `attribute` is a key attribute of one of the table's multi-attribute
    /// indexes: an entity may store a field under it only by mapping that index.
    pub const fn is_multi_attribute_key(&self, attribute: &str) -> bool {
        self.multi_attribute_index_of(attribute).is_some()
    }

    /// The first of the table's multi-attribute indexes that has `attribute` among its key
    /// attributes.
    pub(crate) const fn multi_attribute_index_of(&self, attribute: &str) -> Option<&IndexSchema> {
        let mut i = 0;
        while i < self.indexes.len() {
            let index = &self.indexes[i];
            if index.is_multi_attribute() && index.has_key_attribute(attribute) {
                return Some(index);
            }
            i += 1;
        }
        None
    }
}

impl IndexSchema {
    /// True when `attribute` is one of the index's key attributes. Usable in constants.
    const fn has_key_attribute(&self, attribute: &str) -> bool {
        if str_eq(self.pk, attribute) {
            return true;
        }
        if let Some(sk) = self.sk
            && str_eq(sk, attribute)
        {
            return true;
        }
        let mut j = 0;
        while j < self.pk_more.len() {
            if str_eq(self.pk_more[j].name, attribute) {
                return true;
            }
            j += 1;
        }
        j = 0;
        while j < self.sk_more.len() {
            if str_eq(self.sk_more[j].name, attribute) {
                return true;
            }
            j += 1;
        }
        false
    }
}

/// `a == b`, usable in constants, so generated code and `check_encryption!` can check
/// layouts at compile time.
#[doc(hidden)]
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Layouts for unit tests: string keys named as most single-table designs name them.
#[cfg(test)]
impl TableSchema {
    /// Table `type_name` keyed by `PK` and `SK`, with entity type `_type`, no TTL, and
    /// `indexes`.
    pub(crate) const fn for_tests(
        type_name: &'static str,
        indexes: &'static [IndexSchema],
    ) -> Self {
        TableSchema {
            type_name,
            pk: "PK",
            sk: Some("SK"),
            pk_type: ScalarType::String,
            sk_type: ScalarType::String,
            entity_type: "_type",
            ttl: None,
            indexes,
        }
    }
}

#[cfg(test)]
impl IndexSchema {
    /// A global index `name` of the string key attributes `pk` and `sk`, projecting all.
    pub(crate) const fn for_tests(name: &'static str, pk: &'static str, sk: &'static str) -> Self {
        IndexSchema {
            name,
            pk,
            sk: Some(sk),
            pk_type: ScalarType::String,
            sk_type: ScalarType::String,
            pk_more: &[],
            sk_more: &[],
            projection: Projection::All,
            local: false,
        }
    }
}
