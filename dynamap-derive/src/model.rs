//! The checked model of a `#[derive(Entity)]` input: what `check` builds from the parsed
//! attributes and every expander reads. Plain data, depending on no other stage.

use proc_macro2::{Span, TokenStream};
use syn::{Ident, LitStr, Path, Type, Visibility};

use crate::key_format::KeyFormatAttr;
use crate::template::Template;

pub(crate) struct EntityModel<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) table: Path,
    pub(crate) entity_name: String,
    /// Earlier entity names that still read.
    pub(crate) aliases: Vec<String>,
    /// The table's partition key: a template, or a field's own attribute (`field(x)`).
    pub(crate) pk: IndexKey,
    /// The table's sort key, as `pk`.
    pub(crate) sk: Option<IndexKey>,
    pub(crate) indexes: Vec<IndexModel>,
    /// Items kept in sync with the entity, in the same table.
    pub(crate) lookups: Vec<LookupModel>,
    pub(crate) fields: Vec<FieldModel<'a>>,
    /// `event_rows(...)`: stored as multi-event rows.
    pub(crate) event_rows: Option<EventRowsModel>,
    /// `schema_version = N` with how each older version reads.
    pub(crate) schema: Option<SchemaModel>,
    /// `const_attr(name, value)`: attributes with a fixed value.
    pub(crate) constants: Vec<(syn::LitStr, String)>,
    /// Key parts computed from fields: `computed(...)` and `shard(...)`.
    pub(crate) computed: Vec<ComputedPart>,
    /// `key_format(...)`: how this entity's key parts are written, over the table's.
    pub(crate) key_format: Option<KeyFormatAttr>,
}

/// A key part that is no field but a function of fields, rendered wherever its hole is.
pub(crate) struct ComputedPart {
    pub(crate) name: Ident,
    pub(crate) ty: Type,
    pub(crate) how: Computation,
    /// The fields it is computed from, in argument order.
    pub(crate) fields: Vec<Ident>,
}

pub(crate) enum Computation {
    /// `function(&field, ...)`.
    Function(syn::ExprPath),
    /// A stable hash of the fields' key-part text, modulo the shard count.
    Shard(u16),
}

impl ComputedPart {
    /// The shard count of a `shard(...)` part.
    pub(crate) fn shards(&self) -> Option<u16> {
        match self.how {
            Computation::Shard(count) => Some(count),
            Computation::Function(_) => None,
        }
    }
}

/// What a template's hole names: a field, or a computed part.
#[derive(Clone, Copy)]
pub(crate) enum Hole<'m> {
    Field(&'m FieldModel<'m>),
    Computed(&'m ComputedPart),
}

/// An entity's schema version and its upgrades, one per older version, in version order.
pub(crate) struct SchemaModel {
    pub(crate) current: u32,
    pub(crate) upgrades: Vec<(u32, Upgrade)>,
}

/// How items of one older schema version read.
pub(crate) enum Upgrade {
    /// Deserialized as this type, then converted with `Into`.
    Via(syn::Type),
    /// Read by this function from the stored item.
    With(syn::Path),
}

pub(crate) struct IndexModel {
    pub(crate) name: LitStr,
    pub(crate) pk: IndexKey,
    pub(crate) sk: Option<IndexKey>,
    /// `local_index(...)`: a local secondary index, keyed on the entity's own `pk`.
    pub(crate) local: bool,
}

/// One key of an index or of the table: rendered from a template, or a field's own
/// attribute.
#[derive(Clone)]
pub(crate) enum IndexKey {
    Template(Template),
    Field(FieldKey),
}

/// `field(score)`: the index key attribute is the field's own attribute; `fields(a, b)`: the
/// key's attributes are these fields' own, in key order (a multi-attribute key).
#[derive(Clone)]
pub(crate) struct FieldKey {
    /// The `field(...)`/`fields(...)` tokens, for spans.
    pub(crate) path: Path,
    pub(crate) fields: Vec<Ident>,
}

impl IndexKey {
    pub(crate) fn template(&self) -> Option<&Template> {
        match self {
            IndexKey::Template(template) => Some(template),
            IndexKey::Field(_) => None,
        }
    }

    /// The key as written: the template's text, or `field(x)` / `fields(x, y)`.
    pub(crate) fn describe(&self) -> String {
        match self {
            IndexKey::Template(template) => template.text(),
            IndexKey::Field(key) => {
                let names: Vec<String> = key.fields.iter().map(ToString::to_string).collect();
                format!(
                    "{}({})",
                    if key.fields.len() == 1 {
                        "field"
                    } else {
                        "fields"
                    },
                    names.join(", ")
                )
            }
        }
    }
}

impl EntityModel<'_> {
    /// The primary key's templates (not its attribute keys), partition key first.
    pub(crate) fn primary_templates(&self) -> impl Iterator<Item = &Template> {
        std::iter::once(&self.pk)
            .chain(self.sk.as_ref())
            .filter_map(IndexKey::template)
    }

    /// The field whose own attribute is the table's partition key (`pk`) or sort key.
    pub(crate) fn primary_field(&self, pk: bool) -> Option<&FieldModel<'_>> {
        let key = if pk { Some(&self.pk) } else { self.sk.as_ref() };
        match key? {
            IndexKey::Field(key) => key.fields.first().and_then(|f| self.field(&f.to_string())),
            IndexKey::Template(_) => None,
        }
    }
}

impl IndexModel {
    /// The index's key templates (not its attribute keys).
    pub(crate) fn templates(&self) -> impl Iterator<Item = &Template> {
        std::iter::once(&self.pk)
            .chain(self.sk.as_ref())
            .filter_map(IndexKey::template)
    }
}

/// A `lookup(...)` item: always rendered from templates.
pub(crate) struct LookupModel {
    pub(crate) name: LitStr,
    pub(crate) pk: Template,
    pub(crate) sk: Option<Template>,
}

impl LookupModel {
    pub(crate) fn templates(&self) -> impl Iterator<Item = &Template> {
        std::iter::once(&self.pk).chain(self.sk.as_ref())
    }
}

pub(crate) struct FieldModel<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// The `T` of an `Option<T>` field.
    pub(crate) option_inner: Option<&'a Type>,
    pub(crate) attribute: String,
    /// Where the attribute name comes from: the `rename` literal, or the field's name.
    pub(crate) attribute_span: Span,
    pub(crate) skip: bool,
    pub(crate) with: Option<Path>,
    /// The optimistic-locking version field.
    pub(crate) version: bool,
    /// `#[dynamap(compress)]`: stored compressed in one binary attribute.
    pub(crate) compressed: Option<Compressed>,
    /// `#[dynamap(ttl)]`: stored as epoch seconds (through `with`) in the TTL attribute.
    pub(crate) ttl: bool,
    /// `#[dynamap(default)]` (`Some(None)`) or `#[dynamap(default = "f")]` (`Some(Some(f))`).
    pub(crate) default: Option<Option<Path>>,
    /// `#[dynamap(created_at)]`.
    pub(crate) created_at: bool,
    /// `#[dynamap(updated_at)]`.
    pub(crate) updated_at: bool,
    /// Written as a `HashSet`/`BTreeSet` (or an `Option` of one): empty sets are left out of
    /// the item, so a missing attribute reads as an empty set. Known from the type's last
    /// path segment; a set behind a type alias is read through `Attribute::when_missing`.
    pub(crate) set: bool,
    /// `#[dynamap(list)]`: a set stored as a list (through `with = dynamap::codec::as_list`).
    pub(crate) list: bool,
    /// `key_format(...)`: how this field's key parts are written, over the entity's.
    pub(crate) key_format: Option<KeyFormatAttr>,
    /// `encrypt` / `sign_only`.
    pub(crate) protection: Protection,
}

impl EntityModel<'_> {
    pub(crate) fn field(&self, name: &str) -> Option<&FieldModel<'_>> {
        self.fields.iter().find(|f| f.ident == name)
    }

    pub(crate) fn computed(&self, name: &str) -> Option<&ComputedPart> {
        self.computed.iter().find(|c| c.name == name)
    }

    /// The format the hole `name` is written in: an expression of type
    /// `dynamap::key::KeyFormat`, usable in constants. The table's, then the entity's
    /// choices, then the field's.
    pub(crate) fn key_format(&self, name: &str) -> TokenStream {
        let table = &self.table;
        let mut format = quote::quote!(<#table as ::dynamap::__private::Table>::KEY_FORMAT);
        if let Some(entity) = &self.key_format {
            format = entity.apply(format);
        }
        if let Some(field) = self.field(name).and_then(|f| f.key_format.as_ref()) {
            format = field.apply(format);
        }
        format
    }

    /// What the hole `name` stands for.
    pub(crate) fn hole(&self, name: &str) -> Option<Hole<'_>> {
        match self.field(name) {
            Some(field) => Some(Hole::Field(field)),
            None => self.computed(name).map(Hole::Computed),
        }
    }
}

/// A compressed field's `Compression` settings and its codec-feature check.
pub(crate) struct Compressed {
    pub(crate) settings: TokenStream,
    pub(crate) check: TokenStream,
    /// `format = "..."` other than `"auto"`: the user chose how it is stored.
    pub(crate) format_chosen: bool,
}

/// `event_rows(...)`: the row cap and the field holding each event's time.
pub(crate) struct EventRowsModel {
    pub(crate) cap: Option<proc_macro2::Literal>,
    /// The field whose value is the event's time, and its type's span.
    pub(crate) time: Option<(Ident, TokenStream)>,
}

/// What the SDK does with a field's attribute. Unmarked fields are left alone (the SDK's
/// `DO_NOTHING`), so that updates, which the SDK refuses on signed attributes, keep working
/// on them; a field whose integrity matters says `sign_only`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protection {
    /// Neither encrypted nor signed.
    Plain,
    /// `sign_only`: readable by DynamoDB, tampering detected.
    SignOnly,
    /// `encrypt`: encrypted and signed.
    Encrypted,
}
