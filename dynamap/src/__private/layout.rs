//! Compile-time checks that an entity fits its table's layout.
//!
//! The `Entity` derive cannot see the table's `#[dynamap(...)]` (it may live in another
//! module or crate), so it checks the entity against `<Table>::SCHEMA` in constants. Each
//! check is a trait, implemented only for `Fits<true>`, whose constant the derive names for
//! `Fits<{ condition }>`: a layout mismatch is then a trait error whose message (from
//! `on_unimplemented`) says what is wrong and how to fix it, reported at the attribute the
//! derive spans it to, rather than a panic during constant evaluation.
//!
//! One check is a panic: [`unmapped_index_key`], whose message names the index concerned
//! and the key attributes to map, which a trait's message, fixed per trait, cannot.
//!
//! The conditions below are true when the check does not apply (an index the table lacks
//! is reported once, by [`IndexOfTable`], not again by every check of that index).

use crate::table::{IndexSchema, ScalarType, TableSchema, str_eq};

/// The verdict of one layout condition, as a type.
pub struct Fits<const OK: bool>;

/// What every check's impl requires: implemented by `Fits<true>` only. (A blanket impl
/// over it, marked `do_not_recommend`, makes a failed check one error with the check's own
/// message, without a note about `Fits<false>`.)
pub trait Holds {}
impl Holds for Fits<true> {}

// Each check is a trait implemented for `Fits<true>` only; the derive names its constant
// `OK`, so the check fails, with the trait's message, exactly when the condition is false.

/// The entity has an `sk` template and its table a sort key.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` has no sort key, so this entity cannot have an `sk` template",
    label = "remove `sk`, or give the table a sort key with `sk = \"SK\"`"
)]
pub trait TableSortKeyAllowed<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableSortKeyAllowed<Table> for F {}

/// The entity has no `sk` template and its table no sort key.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` has a sort key, so this entity needs an `sk` template",
    label = "add `sk = \"...\"` to this entity's #[dynamap(...)]"
)]
pub trait TableSortKeyRequired<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableSortKeyRequired<Table> for F {}

/// The entity's `index(name = ...)` names an index of its table.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` has no index of this name",
    label = "not an index of `{Table}`",
    note = "an entity's `index(name = ...)` names an index declared in its table's #[dynamap(index(...))]"
)]
pub trait IndexOfTable<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexOfTable<Table> for F {}

/// An entity's `local_index(...)` names a local index of its table.
#[diagnostic::on_unimplemented(
    message = "this index of table `{Table}` is a global secondary index",
    label = "declare its templates with `index(name = ..., pk = ..., sk = ...)`"
)]
pub trait IndexIsLocal<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexIsLocal<Table> for F {}

/// An entity's `index(...)` names a global index of its table.
#[diagnostic::on_unimplemented(
    message = "this index of table `{Table}` is a local secondary index",
    label = "declare its sort key template with `local_index(name = ..., sk = ...)`"
)]
pub trait IndexIsGlobal<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexIsGlobal<Table> for F {}

/// An index the entity gives an `sk` has a sort key.
#[diagnostic::on_unimplemented(
    message = "this index of table `{Table}` has no sort key, so the entity cannot give it an `sk`",
    label = "remove this `sk`, or give the table's index a sort key"
)]
pub trait IndexSortKeyAllowed<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexSortKeyAllowed<Table> for F {}

/// An index the entity gives no `sk` has no sort key.
#[diagnostic::on_unimplemented(
    message = "this index of table `{Table}` has a sort key, so the entity needs an `sk` for it",
    label = "add `sk = \"...\"` (or `sk = field(...)`) to this index"
)]
pub trait IndexSortKeyRequired<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexSortKeyRequired<Table> for F {}

/// An index key is made of as many attributes as the entity gives it fields.
#[diagnostic::on_unimplemented(
    message = "this key of an index of table `{Table}` is made of another number of attributes",
    label = "list one field per key attribute, in key order, with `fields(...)`"
)]
pub trait IndexKeyArity<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexKeyArity<Table> for F {}

/// An index key an entity fills from a template is one string attribute.
#[diagnostic::on_unimplemented(
    message = "this key of an index of table `{Table}` is not a string attribute, so a template cannot fill it",
    label = "map the key to a field with `field(...)`"
)]
pub trait IndexKeyIsString<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexKeyIsString<Table> for F {}

/// A field mapped to an index key attribute is stored under that attribute's name.
#[diagnostic::on_unimplemented(
    message = "this field is stored under another name than the attribute of table `{Table}`'s index key it is mapped to",
    label = "rename the field with #[dynamap(rename = \"...\")] to the key attribute's name"
)]
pub trait IndexKeyAttributeName<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexKeyAttributeName<Table> for F {}

/// A field mapped to an index key attribute has the attribute's declared type.
#[diagnostic::on_unimplemented(
    message = "this field's type is not the type the attribute of table `{Table}`'s index key is declared with",
    label = "the table declares the attribute's type with `pk_type`/`sk_type`"
)]
pub trait IndexKeyAttributeType<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> IndexKeyAttributeType<Table> for F {}

/// A primary key template renders a string, so the table's key attribute is one.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` declares this key attribute a number or a binary, and a template renders a string",
    label = "map the key to a field of that type with `field(...)`, or declare the attribute a string"
)]
pub trait TableKeyIsString<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableKeyIsString<Table> for F {}

/// A field mapped to the table's key attribute (`pk = field(x)`) is stored under that
/// attribute's name.
#[diagnostic::on_unimplemented(
    message = "this field is stored under another name than table `{Table}`'s key attribute it is mapped to",
    label = "rename the field with #[dynamap(rename = \"...\")] to the key attribute's name"
)]
pub trait TableKeyAttributeName<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableKeyAttributeName<Table> for F {}

/// A field mapped to the table's key attribute has the attribute's declared type.
#[diagnostic::on_unimplemented(
    message = "this field's type is not the type table `{Table}` declares for the key attribute it is mapped to",
    label = "the table declares its key attributes' types with `pk_type`/`sk_type` (\"S\" by default): a number field needs \"N\", a `Binary` \"B\", a `String` \"S\""
)]
pub trait TableKeyAttributeType<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableKeyAttributeType<Table> for F {}

/// A `const_attr` is not named as an attribute the table uses for keys or the entity type.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` uses this attribute name for keys or the entity type",
    label = "give the constant attribute another name"
)]
pub trait AttributeFreeForConstants<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> AttributeFreeForConstants<Table> for F {}

/// A field is not stored under a name the table uses for keys or the entity type.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` uses this attribute name for keys or the entity type",
    label = "store the field under another name with #[dynamap(rename = \"...\")]"
)]
pub trait AttributeFreeForFields<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> AttributeFreeForFields<Table> for F {}

/// A TTL field's table declares a TTL attribute.
#[diagnostic::on_unimplemented(
    message = "table `{Table}` declares no TTL attribute",
    label = "add `ttl = \"...\"` to the table's #[dynamap(...)], naming this field's attribute"
)]
pub trait TableHasTtl<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TableHasTtl<Table> for F {}

/// A TTL field is stored under the table's TTL attribute.
#[diagnostic::on_unimplemented(
    message = "the TTL attribute of table `{Table}` has another name than this field's",
    label = "name the field after the table's TTL attribute, or use #[dynamap(rename = \"...\")]"
)]
pub trait TtlAttributeName<Table> {
    /// Named by the derive; exists only when the check passes.
    const OK: () = ();
}
#[diagnostic::do_not_recommend]
impl<Table, F: Holds> TtlAttributeName<Table> for F {}

/// Which key of an index a check is about.
#[derive(Clone, Copy)]
pub enum Part {
    /// The partition key.
    Pk,
    /// The sort key.
    Sk,
}

const fn key_len(index: &IndexSchema, part: Part) -> usize {
    match part {
        Part::Pk => index.pk_len(),
        Part::Sk => index.sk_len(),
    }
}

const fn key_at(index: &IndexSchema, part: Part, n: usize) -> (&'static str, ScalarType) {
    match part {
        Part::Pk => index.pk_at(n),
        Part::Sk => index.sk_at(n),
    }
}

/// True when the table has an index `name`.
pub const fn has_index(schema: &TableSchema, name: &str) -> bool {
    schema.index(name).is_some()
}

/// True when index `name` is local exactly when `local` (or does not exist).
pub const fn index_is_local(schema: &TableSchema, name: &str, local: bool) -> bool {
    match schema.index(name) {
        Some(index) => index.local == local,
        None => true,
    }
}

/// True when index `name` has a sort key exactly when `entity_has_sk` (or does not exist).
pub const fn index_sort_key_fits(schema: &TableSchema, name: &str, entity_has_sk: bool) -> bool {
    match schema.index(name) {
        Some(index) => index.sk.is_some() == entity_has_sk,
        None => true,
    }
}

/// True when the `part` key of index `name` has `attributes` attributes (or does not exist).
pub const fn index_key_len_is(
    schema: &TableSchema,
    name: &str,
    part: Part,
    attributes: usize,
) -> bool {
    match schema.index(name) {
        // An `sk` the index does not have is `IndexSortKeyAllowed`'s to report.
        Some(index) if matches!(part, Part::Pk) || index.sk.is_some() => {
            key_len(index, part) == attributes
        }
        _ => true,
    }
}

/// True when attribute `n` of the `part` key of index `name` is a string (or does not
/// exist).
pub const fn index_key_is_string_at(
    schema: &TableSchema,
    name: &str,
    part: Part,
    n: usize,
) -> bool {
    match schema.index(name) {
        Some(index) if n < key_len(index, part) => key_at(index, part, n).1.is(ScalarType::String),
        _ => true,
    }
}

/// True when attribute `n` of the `part` key of index `name` is called `attribute` (or
/// does not exist).
pub const fn index_key_name_is(
    schema: &TableSchema,
    name: &str,
    part: Part,
    n: usize,
    attribute: &str,
) -> bool {
    match schema.index(name) {
        Some(index) if n < key_len(index, part) => str_eq(key_at(index, part, n).0, attribute),
        _ => true,
    }
}

/// True when attribute `n` of the `part` key of index `name` has type `kind` (or does not
/// exist).
pub const fn index_key_type_is(
    schema: &TableSchema,
    name: &str,
    part: Part,
    n: usize,
    kind: ScalarType,
) -> bool {
    match schema.index(name) {
        Some(index) if n < key_len(index, part) => key_at(index, part, n).1.is(kind),
        _ => true,
    }
}

/// True when the table's TTL attribute is `attribute` (or the table has none: that is
/// [`TableHasTtl`]'s to report).
pub const fn ttl_attribute_is(schema: &TableSchema, attribute: &str) -> bool {
    match schema.ttl {
        Some(ttl) => str_eq(ttl, attribute),
        None => true,
    }
}

/// Why a field may not be stored under `attribute`: it is a key attribute of one of the
/// table's multi-attribute indexes, which the entity does not map (otherwise its items would
/// land in the index unqueryable and untyped). Empty when the field may be stored there.
///
/// The derive checks every field its entity does not map to an index key with it, and
/// panics with the message in a constant spanned at the field: one error per field, naming
/// the index, its table and the fix. (A trait error could not name the index.)
pub const fn unmapped_index_key(
    schema: &TableSchema,
    entity: &str,
    field: &str,
    attribute: &str,
) -> Message {
    let Some(index) = schema.multi_attribute_index_of(attribute) else {
        return Message::new();
    };
    let mut message = Message::new()
        .push("field `")
        .push(field)
        .push("` is stored under \"")
        .push(attribute)
        .push("\", a key attribute of the multi-attribute index \"")
        .push(index.name)
        .push("\" of table `")
        .push(schema.type_name)
        .push("`, which entity `")
        .push(entity)
        .push("` does not map\nmap the index on the entity, naming the fields stored under its key attributes: index(name = \"")
        .push(index.name)
        .push("\", pk = fields(");
    message = message.push_key(index, Part::Pk).push(")");
    if index.sk.is_some() {
        message = message
            .push(", sk = fields(")
            .push_key(index, Part::Sk)
            .push(")");
    }
    message.push(")\nor store the field under another name with #[dynamap(rename = \"...\")]")
}

/// The most bytes a [`Message`] holds; what does not fit is cut.
const MESSAGE_CAPACITY: usize = 1024;

/// A diagnostic built in a constant from a table's layout (see [`unmapped_index_key`]).
pub struct Message {
    bytes: [u8; MESSAGE_CAPACITY],
    len: usize,
}

impl Message {
    const fn new() -> Self {
        Message {
            bytes: [0; MESSAGE_CAPACITY],
            len: 0,
        }
    }

    /// Appends `text`, cut where the capacity ends.
    const fn push(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < MESSAGE_CAPACITY {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    /// Appends the names of the `part` key's attributes of `index`, separated by `, `.
    const fn push_key(mut self, index: &IndexSchema, part: Part) -> Self {
        let mut n = 0;
        while n < key_len(index, part) {
            if n > 0 {
                self = self.push(", ");
            }
            self = self.push(key_at(index, part, n).0);
            n += 1;
        }
        self
    }

    /// True when there is nothing to report.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The text, up to the last whole character if it was cut.
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.bytes.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(err) => match core::str::from_utf8(text.split_at(err.valid_up_to()).0) {
                Ok(text) => text,
                Err(_) => "",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::KeyAttributeSchema;

    const BY_STATUS: IndexSchema = IndexSchema {
        pk_more: &[KeyAttributeSchema {
            name: "repo",
            kind: ScalarType::String,
        }],
        sk_more: &[KeyAttributeSchema {
            name: "number",
            kind: ScalarType::Number,
        }],
        ..IndexSchema::for_tests("IssuesByStatus", "owner", "status")
    };

    const HUB: TableSchema = TableSchema::for_tests("Hub", &[BY_STATUS]);

    #[test]
    fn a_multi_attribute_key_attribute_names_the_index_and_the_fix() {
        let message = unmapped_index_key(&HUB, "Comment", "owner", "owner");
        assert_eq!(
            message.as_str(),
            "field `owner` is stored under \"owner\", a key attribute of the multi-attribute \
             index \"IssuesByStatus\" of table `Hub`, which entity `Comment` does not map\n\
             map the index on the entity, naming the fields stored under its key attributes: \
             index(name = \"IssuesByStatus\", pk = fields(owner, repo), sk = fields(status, \
             number))\nor store the field under another name with #[dynamap(rename = \"...\")]"
        );
        assert!(!unmapped_index_key(&HUB, "Comment", "n", "number").is_empty());
    }

    #[test]
    fn other_attributes_pass() {
        assert!(unmapped_index_key(&HUB, "Comment", "body", "body").is_empty());
        assert!(unmapped_index_key(&HUB, "Comment", "pk", "PK").is_empty());
        assert_eq!(
            unmapped_index_key(&HUB, "Comment", "body", "body").as_str(),
            ""
        );
    }

    #[test]
    fn a_message_too_long_is_cut_at_a_character() {
        let long = "é".repeat(MESSAGE_CAPACITY);
        let message = Message::new().push("x").push(&long);
        assert_eq!(message.len, MESSAGE_CAPACITY);
        assert_eq!(message.as_str().len(), MESSAGE_CAPACITY - 1);
        assert!(message.as_str().starts_with("xé"));
    }
}
