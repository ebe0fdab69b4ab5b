//! Parsing `#[dynamap(...)]` attributes. Every problem is recorded in the context and
//! parsing goes on, so one build shows every mistake.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Path, Token};

use crate::compress::CompressAttr;
use crate::ctx::Ctxt;
use crate::key_format::KeyFormatAttr;

mod entity_options;

pub(crate) use entity_options::{ComputedAttr, EventRowsAttr, ShardAttr, UpgradeAttr};
use entity_options::{
    parse_computed, parse_const_attr, parse_event_rows, parse_shard, parse_upgrade,
};

/// `#[dynamap(...)]` on a `#[derive(Table)]` type.
#[derive(Default)]
pub(crate) struct TableAttrs {
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    /// `pk_type = "N"`: the partition key attribute's DynamoDB type (default `S`).
    pub(crate) pk_type: Option<LitStr>,
    /// `sk_type = "N"`: the sort key attribute's DynamoDB type (default `S`).
    pub(crate) sk_type: Option<LitStr>,
    pub(crate) entity_type: Option<LitStr>,
    pub(crate) ttl: Option<LitStr>,
    pub(crate) indexes: Vec<TableIndex>,
    /// `key_format(...)`: how every entity's key parts are written.
    pub(crate) key_format: Option<KeyFormatAttr>,
    pub(crate) given: Given,
}

/// `index(name = "...", pk = "...", sk = "...", projection = "...", include("a", "b"))`
/// on a table. A multi-attribute key lists its attributes: `sk("status", "number")`, with
/// `sk_type("S", "N")`.
pub(crate) struct TableIndex {
    pub(crate) path: Path,
    pub(crate) name: Option<LitStr>,
    /// The partition key attribute, or several in key order.
    pub(crate) pk: Option<Vec<LitStr>>,
    /// The sort key attribute, or several in key order.
    pub(crate) sk: Option<Vec<LitStr>>,
    /// `pk_type = "N"` / `pk_type("S", "N")`: the partition key attributes' DynamoDB types
    /// (default `S`).
    pub(crate) pk_type: Option<Vec<LitStr>>,
    /// `sk_type = "N"` / `sk_type("S", "N")`: the sort key attributes' DynamoDB types.
    pub(crate) sk_type: Option<Vec<LitStr>>,
    pub(crate) projection: Option<LitStr>,
    pub(crate) include: Option<Vec<LitStr>>,
    /// `local_index(...)`: a local secondary index, on the table's partition key.
    pub(crate) local: bool,
    pub(crate) given: Given,
}

/// `#[dynamap(...)]` on a `#[derive(Entity)]` struct.
#[derive(Default)]
pub(crate) struct EntityAttrs {
    pub(crate) table: Option<Path>,
    pub(crate) entity: Option<LitStr>,
    /// A template, or `field(x)`: the field's own attribute is the table's key attribute.
    pub(crate) pk: Option<KeySpec>,
    pub(crate) sk: Option<KeySpec>,
    pub(crate) indexes: Vec<EntityIndex>,
    /// `lookup(name = "...", pk = "...", sk = "...")`: items kept in sync with the entity.
    pub(crate) lookups: Vec<EntityIndex>,
    /// `event_rows` or `event_rows(cap = N, time = "field")`: several events per
    /// (partition, sort key) row.
    pub(crate) event_rows: Option<EventRowsAttr>,
    /// `alias = "OldName"`, any number of times: earlier entity names still read.
    pub(crate) aliases: Vec<LitStr>,
    /// `const_attr(name = "...", value = "...")`, any number of times: an attribute with a
    /// fixed value, written on every write and checked on every whole read.
    pub(crate) constants: Vec<(LitStr, LitStr)>,
    /// `schema_version = N`: the shape items are written in now.
    pub(crate) schema_version: Option<syn::LitInt>,
    /// `upgrade(from = N, via = OldShape)` or `upgrade(from = N, with = "path::to_fn")`.
    pub(crate) upgrades: Vec<UpgradeAttr>,
    /// `computed(day: Date = day_of(created_at), ...)`: key parts computed from fields.
    pub(crate) computed: Vec<ComputedAttr>,
    /// `shard(of(id), count = 4)`: the key part `{shard}`, a stable hash of fields.
    pub(crate) shard: Option<ShardAttr>,
    /// `key_format(...)`: this entity's key parts, overriding the table's choices.
    pub(crate) key_format: Option<KeyFormatAttr>,
    pub(crate) given: Given,
}

/// `index(name = "...", pk = "...", sk = "...")` on an entity: the templates of one of the
/// table's indexes.
pub(crate) struct EntityIndex {
    pub(crate) path: Path,
    pub(crate) name: Option<LitStr>,
    pub(crate) pk: Option<KeySpec>,
    pub(crate) sk: Option<KeySpec>,
    /// `local_index(...)`: the templates of one of the table's local indexes.
    pub(crate) local: bool,
    pub(crate) given: Given,
}

/// An index key: a template (`"CITY#{city}"`), a field's own attribute (`field(score)`), or
/// the fields whose attributes make a multi-attribute key (`fields(status, number)`).
pub(crate) enum KeySpec {
    Template(LitStr),
    Fields {
        /// The `field`/`fields` path, for messages.
        path: Path,
        fields: Vec<syn::Ident>,
    },
}

/// `#[dynamap(...)]` on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) rename: Option<LitStr>,
    pub(crate) skip: Option<Path>,
    pub(crate) with: Option<LitStr>,
    pub(crate) version: Option<Path>,
    pub(crate) compress: Option<CompressAttr>,
    pub(crate) ttl: Option<Path>,
    /// `default` (`Default::default()`) or `default = "path::to_fn"`: what a missing
    /// attribute reads as.
    pub(crate) default: Option<DefaultAttr>,
    /// `created_at`: set when the item is created, kept by later writes.
    pub(crate) created_at: Option<Path>,
    /// `updated_at`: set by every write.
    pub(crate) updated_at: Option<Path>,
    /// `list`: a set stored as a list (`L`), as before native sets.
    pub(crate) list: Option<Path>,
    /// `key_format(...)`: this field's key parts, overriding the entity's choices.
    pub(crate) key_format: Option<KeyFormatAttr>,
    /// `encrypt` / `sign_only`: what the Database Encryption SDK does with the attribute.
    pub(crate) protection: crate::protection::ProtectionAttrs,
}

/// `default` or `default = "path::to_fn"` on a field.
pub(crate) struct DefaultAttr {
    pub(crate) function: Option<Path>,
}

/// `#[dynamap(rename = "...")]` on an enum variant deriving `KeyPart`.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub(crate) rename: Option<LitStr>,
}

/// The keys written in one attribute list, even those with a malformed value: a key given
/// with a bad value is reported once, for its value, and not again as missing.
#[derive(Default)]
pub(crate) struct Given(Vec<String>);

impl Given {
    fn record(&mut self, path: &Path) {
        self.0.push(path_name(path));
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|k| k == key)
    }
}

const TABLE_KEYS: &str = "`pk`, `sk`, `pk_type`, `sk_type`, `entity_type`, `ttl`, `index`, `local_index`, `key_format`, `crate`";
const TABLE_INDEX_KEYS: &str = "`name`, `pk`, `sk`, `pk_type`, `sk_type`, `projection`, `include`";
const ENTITY_KEYS: &str = "`table`, `entity`, `alias`, `pk`, `sk`, `index`, `local_index`, `lookup`, `computed`, `shard`, `event_rows`, `const_attr`, `schema_version`, `upgrade`, `key_format`, `crate`";
const ENTITY_INDEX_KEYS: &str = "`name`, `pk`, `sk`";
const FIELD_KEYS: &str = "`rename`, `skip`, `with`, `default`, `version`, `compress`, `ttl`, `created_at`, `updated_at`, `list`, `key_format`, `encrypt`, `sign_only`";
const VARIANT_KEYS: &str = "`rename`";

impl TableAttrs {
    pub(crate) fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = TableAttrs::default();
        for_each_meta(cx, attrs, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk_type") {
                set_once(cx, &mut out.pk_type, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk_type") {
                set_once(cx, &mut out.sk_type, meta, parse_str(meta)?);
            } else if meta.path.is_ident("entity_type") {
                set_once(cx, &mut out.entity_type, meta, parse_str(meta)?);
            } else if meta.path.is_ident("ttl") {
                set_once(cx, &mut out.ttl, meta, parse_str(meta)?);
            } else if meta.path.is_ident("index") {
                out.indexes.push(TableIndex::parse(cx, meta, false)?);
            } else if meta.path.is_ident("local_index") {
                out.indexes.push(TableIndex::parse(cx, meta, true)?);
            } else if meta.path.is_ident("key_format") {
                set_once(cx, &mut out.key_format, meta, KeyFormatAttr::parse(meta)?);
            } else if meta.path.is_ident("crate") {
                parse_str(meta)?; // read by `crate_path`
            } else {
                unknown(meta, TABLE_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

impl TableIndex {
    fn parse(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>, local: bool) -> syn::Result<Self> {
        let mut out = TableIndex {
            path: meta.path.clone(),
            name: None,
            pk: None,
            sk: None,
            pk_type: None,
            sk_type: None,
            projection: None,
            include: None,
            local,
            given: Given::default(),
        };
        nested(cx, meta, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("name") {
                set_once(cx, &mut out.name, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str_or_list(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str_or_list(meta)?);
            } else if meta.path.is_ident("pk_type") {
                set_once(cx, &mut out.pk_type, meta, parse_str_or_list(meta)?);
            } else if meta.path.is_ident("sk_type") {
                set_once(cx, &mut out.sk_type, meta, parse_str_or_list(meta)?);
            } else if meta.path.is_ident("projection") {
                set_once(cx, &mut out.projection, meta, parse_str(meta)?);
            } else if meta.path.is_ident("include") {
                let content;
                syn::parenthesized!(content in meta.input);
                let names = content.parse_terminated(|input| input.parse::<LitStr>(), Token![,])?;
                set_once(cx, &mut out.include, meta, names.into_iter().collect());
            } else {
                unknown(meta, TABLE_INDEX_KEYS)?;
            }
            Ok(())
        })?;
        Ok(out)
    }
}

impl EntityAttrs {
    pub(crate) fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = EntityAttrs::default();
        for_each_meta(cx, attrs, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("table") {
                set_once(cx, &mut out.table, meta, parse_table(meta)?);
            } else if meta.path.is_ident("entity") {
                set_once(cx, &mut out.entity, meta, parse_str(meta)?);
            } else if meta.path.is_ident("alias") {
                out.aliases.push(parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_key_spec(meta, true)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_key_spec(meta, true)?);
            } else if meta.path.is_ident("index") {
                out.indexes.push(EntityIndex::parse(cx, meta, false)?);
            } else if meta.path.is_ident("local_index") {
                out.indexes.push(EntityIndex::parse(cx, meta, true)?);
            } else if meta.path.is_ident("lookup") {
                out.lookups.push(EntityIndex::parse(cx, meta, false)?);
            } else if meta.path.is_ident("computed") {
                nested(cx, meta, |_, part| {
                    out.computed.push(parse_computed(part)?);
                    Ok(())
                })?;
            } else if meta.path.is_ident("shard") {
                let shard = parse_shard(cx, meta)?;
                set_once(cx, &mut out.shard, meta, shard);
            } else if meta.path.is_ident("event_rows") {
                set_once(cx, &mut out.event_rows, meta, parse_event_rows(meta)?);
            } else if meta.path.is_ident("const_attr") {
                out.constants.push(parse_const_attr(cx, meta)?);
            } else if meta.path.is_ident("schema_version") {
                set_once(cx, &mut out.schema_version, meta, meta.value()?.parse()?);
            } else if meta.path.is_ident("upgrade") {
                out.upgrades.push(parse_upgrade(meta)?);
            } else if meta.path.is_ident("key_format") {
                set_once(cx, &mut out.key_format, meta, KeyFormatAttr::parse(meta)?);
            } else if meta.path.is_ident("crate") {
                parse_str(meta)?; // read by `crate_path`
            } else {
                unknown(meta, ENTITY_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

impl EntityIndex {
    fn parse(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>, local: bool) -> syn::Result<Self> {
        let mut out = EntityIndex {
            path: meta.path.clone(),
            name: None,
            pk: None,
            sk: None,
            local,
            given: Given::default(),
        };
        nested(cx, meta, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("name") {
                set_once(cx, &mut out.name, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_key_spec(meta, false)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_key_spec(meta, false)?);
            } else {
                unknown(meta, ENTITY_INDEX_KEYS)?;
            }
            Ok(())
        })?;
        Ok(out)
    }
}

impl FieldAttrs {
    pub(crate) fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = FieldAttrs::default();
        for_each_meta(cx, attrs, |cx, meta| {
            if meta.path.is_ident("rename") {
                set_once(cx, &mut out.rename, meta, parse_str(meta)?);
            } else if meta.path.is_ident("skip") {
                set_once(cx, &mut out.skip, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("with") {
                set_once(cx, &mut out.with, meta, parse_str(meta)?);
            } else if meta.path.is_ident("version") {
                set_once(cx, &mut out.version, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("compress") {
                set_once(cx, &mut out.compress, meta, CompressAttr::parse(meta)?);
            } else if meta.path.is_ident("ttl") {
                set_once(cx, &mut out.ttl, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("default") {
                set_once(cx, &mut out.default, meta, parse_default(meta)?);
            } else if meta.path.is_ident("created_at") {
                set_once(cx, &mut out.created_at, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("updated_at") {
                set_once(cx, &mut out.updated_at, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("list") {
                set_once(cx, &mut out.list, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("key_format") {
                set_once(cx, &mut out.key_format, meta, KeyFormatAttr::parse(meta)?);
            } else if meta.path.is_ident("encrypt") {
                set_once(cx, &mut out.protection.encrypt, meta, parse_flag(meta)?);
            } else if meta.path.is_ident("sign_only") {
                set_once(cx, &mut out.protection.sign_only, meta, parse_flag(meta)?);
            } else {
                unknown(meta, FIELD_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

impl VariantAttrs {
    pub(crate) fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = VariantAttrs::default();
        for_each_meta(cx, attrs, |cx, meta| {
            if meta.path.is_ident("rename") {
                set_once(cx, &mut out.rename, meta, parse_str(meta)?);
            } else {
                unknown(meta, VARIANT_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

/// Runs `f` on every item of every `#[dynamap(...)]` attribute.
fn for_each_meta(
    cx: &mut Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&mut Ctxt, &ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamap")) {
        let parsed = attr.parse_nested_meta(|meta| recover(cx, &meta, &mut f));
        if let Err(err) = parsed {
            cx.push(err);
        }
    }
}

/// Runs `f` on every item inside `meta(...)`.
fn nested(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    mut f: impl FnMut(&mut Ctxt, &ParseNestedMeta<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| recover(cx, &inner, &mut f))
}

/// Runs `f` on one item. When the item is malformed, records the error and skips to the
/// next `,`, so the items after it are still read: one bad value gives one error, not a
/// parse error at the next token and "missing" errors for everything after it.
fn recover(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    f: &mut impl FnMut(&mut Ctxt, &ParseNestedMeta<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    if let Err(err) = f(cx, meta) {
        cx.push(err);
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            meta.input.parse::<proc_macro2::TokenTree>()?;
        }
    }
    Ok(())
}

fn parse_str(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    let name = path_name(&meta.path);
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse()
    } else {
        Err(value.error(format!("`{name}` takes a string: `{name} = \"...\"`")))
    }
}

/// `key = "A"`, or a list `key("A", "B")`.
fn parse_str_or_list(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<LitStr>> {
    if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let names = content.parse_terminated(|input| input.parse::<LitStr>(), Token![,])?;
        return Ok(names.into_iter().collect());
    }
    let name = path_name(&meta.path);
    let value = meta.value().map_err(|_| {
        meta.error(format!(
            "`{name}` takes a string or a list of strings: `{name} = \"...\"` or `{name}(\"a\", \"b\")`"
        ))
    })?;
    if value.peek(LitStr) {
        value.parse().map(|lit| vec![lit])
    } else {
        Err(value.error(format!(
            "`{name}` takes a string or a list of strings: `{name} = \"...\"` or `{name}(\"a\", \"b\")`"
        )))
    }
}

/// A key template (`pk = "CITY#{city}"`), a field's own attribute (`sk = field(score)`), or
/// the fields of a multi-attribute key (`sk = fields(status, number)`, not on the table's
/// own key: `primary`).
fn parse_key_spec(meta: &ParseNestedMeta<'_>, primary: bool) -> syn::Result<KeySpec> {
    let name = path_name(&meta.path);
    let value = meta.value()?;
    if value.peek(LitStr) {
        return value.parse().map(KeySpec::Template);
    }
    let expected = || {
        if primary {
            format!(
                "`{name}` takes a template or a field: `{name} = \"PREFIX#{{field}}\"` or `{name} = field(user_id)`"
            )
        } else {
            format!(
                "`{name}` takes a template or fields: `{name} = \"PREFIX#{{field}}\"`, `{name} = field(score)` or `{name} = fields(status, number)`"
            )
        }
    };
    let path: Path = value.parse().map_err(|_| value.error(expected()))?;
    let single = path.is_ident("field");
    if !single && !path.is_ident("fields") {
        return Err(syn::Error::new_spanned(&path, expected()));
    }
    let content;
    syn::parenthesized!(content in value);
    let fields: Vec<syn::Ident> = content
        .parse_terminated(|input| input.parse::<syn::Ident>(), Token![,])?
        .into_iter()
        .collect();
    if single && fields.len() != 1 {
        return Err(syn::Error::new_spanned(
            &path,
            "`field(...)` takes one field name; a multi-attribute key lists its fields with `fields(a, b)`",
        ));
    }
    if fields.is_empty() {
        return Err(syn::Error::new_spanned(
            &path,
            "`fields(...)` names at least one field",
        ));
    }
    Ok(KeySpec::Fields { path, fields })
}

/// `default` alone, or `default = "path::to_fn"`.
fn parse_default(meta: &ParseNestedMeta<'_>) -> syn::Result<DefaultAttr> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(DefaultAttr { function: None });
    }
    let lit = parse_str(meta)?;
    let function = lit.parse::<Path>().map_err(|_| {
        syn::Error::new_spanned(
            &lit,
            "`default` takes the path of a function returning the field's value, like \"defaults::points\"",
        )
    })?;
    Ok(DefaultAttr {
        function: Some(function),
    })
}

/// A flag like `skip`, which takes no value.
fn parse_flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        Ok(meta.path.clone())
    } else {
        let name = path_name(&meta.path);
        Err(meta.error(format!("`{name}` takes no value: write `{name}` alone")))
    }
}

/// The table type of `table = App`.
fn parse_table(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        return Err(value.error("`table` takes the table type itself, not a string: `table = App`"));
    }
    value.parse()
}

/// Stores `value` in `slot`, or records a duplicate-attribute error at the second one.
fn set_once<T>(cx: &mut Ctxt, slot: &mut Option<T>, meta: &ParseNestedMeta<'_>, value: T) {
    if slot.is_some() {
        let name = path_name(&meta.path);
        cx.error_at(&meta.path, format!("duplicate dynamap attribute `{name}`"));
    } else {
        *slot = Some(value);
    }
}

/// The error for an unknown attribute; [`recover`] then skips its value, so parsing goes on.
fn unknown(meta: &ParseNestedMeta<'_>, expected: &str) -> syn::Result<()> {
    let name = path_name(&meta.path);
    Err(syn::Error::new_spanned(
        &meta.path,
        format!("unknown dynamap attribute `{name}`; expected one of {expected}"),
    ))
}

fn path_name(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
