//! Parsing `#[dynamap(...)]` attributes. Every problem is recorded in the context and
//! parsing goes on, so one build shows every mistake.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Path, Token};

use crate::ctx::Ctxt;

/// `#[dynamap(...)]` on a `#[derive(Table)]` type.
#[derive(Default)]
pub(crate) struct TableAttrs {
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) entity_type: Option<LitStr>,
    pub(crate) ttl: Option<LitStr>,
    pub(crate) indexes: Vec<TableIndex>,
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
}

/// `#[dynamap(...)]` on a `#[derive(Entity)]` struct.
#[derive(Default)]
pub(crate) struct EntityAttrs {
    pub(crate) table: Option<Path>,
    pub(crate) entity: Option<LitStr>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) indexes: Vec<EntityIndex>,
}

/// `index(name = "...", pk = "...", sk = "...")` on an entity: the templates of one of the
/// table's indexes.
pub(crate) struct EntityIndex {
    pub(crate) path: Path,
    pub(crate) name: Option<LitStr>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
}

/// `#[dynamap(...)]` on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) rename: Option<LitStr>,
    pub(crate) skip: Option<Path>,
    pub(crate) with: Option<LitStr>,
}

/// `#[dynamap(rename = "...")]` on an enum variant deriving `KeyPart`.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub(crate) rename: Option<LitStr>,
}

const TABLE_KEYS: &str = "`pk`, `sk`, `entity_type`, `ttl`, `index`";
const TABLE_INDEX_KEYS: &str = "`name`, `pk`, `sk`, `projection`, `include`";
const ENTITY_KEYS: &str = "`table`, `entity`, `pk`, `sk`, `index`";
const ENTITY_INDEX_KEYS: &str = "`name`, `pk`, `sk`";
const FIELD_KEYS: &str = "`rename`, `skip`, `with`";
const VARIANT_KEYS: &str = "`rename`";

impl TableAttrs {
    pub(crate) fn parse(cx: &mut Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = TableAttrs::default();
        for_each_meta(cx, attrs, |cx, meta| {
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
                unknown(cx, meta, TABLE_KEYS)?;
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
        };
        nested(cx, meta, |cx, meta| {
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
                unknown(cx, meta, TABLE_INDEX_KEYS)?;
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
            if meta.path.is_ident("table") {
                let path: Path = meta.value()?.parse()?;
                set_once(cx, &mut out.table, meta, path);
            } else if meta.path.is_ident("entity") {
                set_once(cx, &mut out.entity, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("index") {
                out.indexes.push(EntityIndex::parse(cx, meta)?);
            } else {
                unknown(cx, meta, ENTITY_KEYS)?;
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
        };
        nested(cx, meta, |cx, meta| {
            if meta.path.is_ident("name") {
                set_once(cx, &mut out.name, meta, parse_str(meta)?);
            } else if meta.path.is_ident("pk") {
                set_once(cx, &mut out.pk, meta, parse_str(meta)?);
            } else if meta.path.is_ident("sk") {
                set_once(cx, &mut out.sk, meta, parse_str(meta)?);
            } else {
                unknown(cx, meta, ENTITY_INDEX_KEYS)?;
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
                set_once(cx, &mut out.skip, meta, meta.path.clone());
            } else if meta.path.is_ident("with") {
                set_once(cx, &mut out.with, meta, parse_str(meta)?);
            } else {
                unknown(cx, meta, FIELD_KEYS)?;
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
                unknown(cx, meta, VARIANT_KEYS)?;
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
        let mut errors = Vec::new();
        let parsed = attr.parse_nested_meta(|meta| {
            f(cx, &meta).or_else(|e| {
                errors.push(e);
                Ok(())
            })
        });
        if let Err(err) = parsed {
            cx.push(err);
        }
        errors.into_iter().for_each(|e| cx.push(e));
    }
}

/// Runs `f` on every item inside `meta(...)`.
fn nested(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    mut f: impl FnMut(&mut Ctxt, &ParseNestedMeta<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| f(cx, &inner))
}

fn parse_str(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    meta.value()?.parse()
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

/// Records an unknown-attribute error and skips the attribute's value, so parsing goes on.
fn unknown(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>, expected: &str) -> syn::Result<()> {
    let name = path_name(&meta.path);
    cx.error_at(
        &meta.path,
        format!("unknown dynamap attribute `{name}`; expected one of {expected}"),
    );
    if meta.input.peek(Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

fn path_name(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
