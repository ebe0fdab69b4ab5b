//! Parsing `#[dynamap(...)]` attributes. Every problem is recorded in the context and
//! parsing goes on, so one build shows every mistake.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Path, Token};

use crate::compress::CompressAttr;
use crate::ctx::Ctxt;

/// `#[dynamap(...)]` on a `#[derive(Table)]` type.
#[derive(Default)]
pub(crate) struct TableAttrs {
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) entity_type: Option<LitStr>,
    pub(crate) ttl: Option<LitStr>,
    pub(crate) indexes: Vec<TableIndex>,
    pub(crate) given: Given,
}

/// `index(name = "...", pk = "...", sk = "...", projection = "...", include("a", "b"))`
/// on a table.
pub(crate) struct TableIndex {
    pub(crate) path: Path,
    pub(crate) name: Option<LitStr>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) projection: Option<LitStr>,
    pub(crate) include: Option<Vec<LitStr>>,
    pub(crate) given: Given,
}

/// `#[dynamap(...)]` on a `#[derive(Entity)]` struct.
#[derive(Default)]
pub(crate) struct EntityAttrs {
    pub(crate) table: Option<Path>,
    pub(crate) entity: Option<LitStr>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) indexes: Vec<EntityIndex>,
    /// `lookup(name = "...", pk = "...", sk = "...")`: items kept in sync with the entity.
    pub(crate) lookups: Vec<EntityIndex>,
    /// `event_rows` or `event_rows(cap = N, time = "field")`: several events per
    /// (partition, sort key) row.
    pub(crate) event_rows: Option<EventRowsAttr>,
    pub(crate) given: Given,
}

/// `index(name = "...", pk = "...", sk = "...")` on an entity: the templates of one of the
/// table's indexes.
pub(crate) struct EntityIndex {
    pub(crate) path: Path,
    pub(crate) name: Option<LitStr>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) given: Given,
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

const TABLE_KEYS: &str = "`pk`, `sk`, `entity_type`, `ttl`, `index`";
const TABLE_INDEX_KEYS: &str = "`name`, `pk`, `sk`, `projection`, `include`";
const ENTITY_KEYS: &str = "`table`, `entity`, `pk`, `sk`, `index`, `lookup`, `event_rows`";
const ENTITY_INDEX_KEYS: &str = "`name`, `pk`, `sk`";
const FIELD_KEYS: &str = "`rename`, `skip`, `with`, `version`, `compress`, `ttl`";
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
            } else if meta.path.is_ident("entity_type") {
                set_once(cx, &mut out.entity_type, meta, parse_str(meta)?);
            } else if meta.path.is_ident("ttl") {
                set_once(cx, &mut out.ttl, meta, parse_str(meta)?);
            } else if meta.path.is_ident("index") {
                out.indexes.push(TableIndex::parse(cx, meta)?);
            } else {
                unknown(meta, TABLE_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

impl TableIndex {
    fn parse(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Self> {
        let mut out = TableIndex {
            path: meta.path.clone(),
            name: None,
            pk: None,
            sk: None,
            projection: None,
            include: None,
            given: Given::default(),
        };
        nested(cx, meta, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("name") {
                set_once(cx, &mut out.name, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
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
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("index") {
                out.indexes.push(EntityIndex::parse(cx, meta)?);
            } else if meta.path.is_ident("lookup") {
                out.lookups.push(EntityIndex::parse(cx, meta)?);
            } else if meta.path.is_ident("event_rows") {
                set_once(cx, &mut out.event_rows, meta, parse_event_rows(meta)?);
            } else {
                unknown(meta, ENTITY_KEYS)?;
            }
            Ok(())
        });
        out
    }
}

impl EntityIndex {
    fn parse(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Self> {
        let mut out = EntityIndex {
            path: meta.path.clone(),
            name: None,
            pk: None,
            sk: None,
            given: Given::default(),
        };
        nested(cx, meta, |cx, meta| {
            out.given.record(&meta.path);
            if meta.path.is_ident("name") {
                set_once(cx, &mut out.name, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
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

/// A flag like `skip`, which takes no value.
fn parse_flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        Ok(meta.path.clone())
    } else {
        let name = path_name(&meta.path);
        Err(meta.error(format!("`{name}` takes no value: write `{name}` alone")))
    }
}

/// `event_rows(cap = N, time = "field")` on an entity.
pub(crate) struct EventRowsAttr {
    pub(crate) path: Path,
    pub(crate) cap: Option<syn::LitInt>,
    pub(crate) time: Option<LitStr>,
}

/// `event_rows` alone, or with `cap = N` and `time = "field"`.
fn parse_event_rows(meta: &ParseNestedMeta<'_>) -> syn::Result<EventRowsAttr> {
    let mut out = EventRowsAttr {
        path: meta.path.clone(),
        cap: None,
        time: None,
    };
    if !(meta.input.is_empty() || meta.input.peek(Token![,])) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("cap") {
                out.cap = Some(inner.value()?.parse()?);
                Ok(())
            } else if inner.path.is_ident("time") {
                out.time = Some(inner.value()?.parse()?);
                Ok(())
            } else {
                Err(inner.error("unknown `event_rows` setting; expected `cap` or `time`"))
            }
        })?;
    }
    Ok(out)
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
