//! The parts of an entity's `#[dynamap(...)]` that have settings of their own: computed key
//! parts and shards, constant attributes, event rows and schema upgrades.

use syn::meta::ParseNestedMeta;
use syn::{LitStr, Path, Token};

use super::{nested, parse_str, set_once, unknown};
use crate::ctx::Ctxt;

/// `name: Type = function(field, ...)` inside `computed(...)`.
pub(crate) struct ComputedAttr {
    pub(crate) name: syn::Ident,
    pub(crate) ty: syn::Type,
    pub(crate) function: syn::ExprPath,
    pub(crate) fields: Vec<syn::Ident>,
}

/// `shard(of(field, ...), count = N)`.
pub(crate) struct ShardAttr {
    pub(crate) path: Path,
    pub(crate) of: Vec<syn::Ident>,
    pub(crate) count: Option<syn::LitInt>,
}

/// `upgrade(from = N, via = OldShape)` / `upgrade(from = N, with = "path::to_fn")`: how items
/// stored at an older schema version read.
pub(crate) struct UpgradeAttr {
    pub(crate) path: Path,
    pub(crate) from: Option<syn::LitInt>,
    /// A type that deserializes from the stored item and converts `Into` the entity.
    pub(crate) via: Option<syn::Type>,
    /// A function from the stored item to the entity.
    pub(crate) with: Option<LitStr>,
}

/// `const_attr(name = "...", value = "...")`.
pub(super) fn parse_const_attr(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<(LitStr, LitStr)> {
    let (mut name, mut value) = (None, None);
    nested(cx, meta, |cx, meta| {
        if meta.path.is_ident("name") {
            set_once(cx, &mut name, meta, parse_str(meta)?);
        } else if meta.path.is_ident("value") {
            set_once(cx, &mut value, meta, parse_str(meta)?);
        } else {
            unknown(meta, "`name`, `value`")?;
        }
        Ok(())
    })?;
    match (name, value) {
        (Some(name), Some(value)) => Ok((name, value)),
        _ => Err(meta.error(
            "`const_attr` needs a name and a value: `const_attr(name = \"__edb_v__\", value = \"1\")`",
        )),
    }
}

/// `day: Date = day_of(created_at)`: the part's name, its type, and the function computing
/// it from the fields it names.
pub(super) fn parse_computed(meta: &ParseNestedMeta<'_>) -> syn::Result<ComputedAttr> {
    let expected = "a computed key part is `name: Type = function(field, ...)`, like `day: Date = day_of(created_at)`";
    let name = meta
        .path
        .get_ident()
        .cloned()
        .ok_or_else(|| meta.error(expected))?;
    let input = meta.input;
    input
        .parse::<Token![:]>()
        .map_err(|e| syn::Error::new(e.span(), expected))?;
    let ty: syn::Type = input.parse()?;
    input
        .parse::<Token![=]>()
        .map_err(|e| syn::Error::new(e.span(), expected))?;
    let call: syn::ExprCall = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), expected))?;
    let syn::Expr::Path(function) = *call.func else {
        return Err(syn::Error::new_spanned(&call.func, expected));
    };
    let not_a_field = |arg: &syn::Expr| {
        syn::Error::new_spanned(
            arg,
            "a computed key part's function takes fields of the struct by name, like `day_of(created_at)`",
        )
    };
    let fields = call
        .args
        .iter()
        .map(|arg| match arg {
            syn::Expr::Path(p) => p.path.get_ident().cloned().ok_or_else(|| not_a_field(arg)),
            other => Err(not_a_field(other)),
        })
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(ComputedAttr {
        name,
        ty,
        function,
        fields,
    })
}

/// `shard(of(field, ...), count = N)`.
pub(super) fn parse_shard(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<ShardAttr> {
    let mut out = ShardAttr {
        path: meta.path.clone(),
        of: Vec::new(),
        count: None,
    };
    nested(cx, meta, |cx, inner| {
        if inner.path.is_ident("of") {
            let content;
            syn::parenthesized!(content in inner.input);
            let fields =
                content.parse_terminated(|input| input.parse::<syn::Ident>(), Token![,])?;
            out.of.extend(fields);
        } else if inner.path.is_ident("count") {
            set_once(cx, &mut out.count, inner, inner.value()?.parse()?);
        } else {
            unknown(inner, "`of`, `count`")?;
        }
        Ok(())
    })?;
    Ok(out)
}

/// `event_rows(cap = N, time = "field")` on an entity.
pub(crate) struct EventRowsAttr {
    pub(crate) path: Path,
    pub(crate) cap: Option<syn::LitInt>,
    pub(crate) time: Option<LitStr>,
}

/// `event_rows` alone, or with `cap = N` and `time = "field"`.
pub(super) fn parse_event_rows(meta: &ParseNestedMeta<'_>) -> syn::Result<EventRowsAttr> {
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

/// `upgrade(from = N, via = OldShape)` or `upgrade(from = N, with = "path::to_fn")`.
pub(super) fn parse_upgrade(meta: &ParseNestedMeta<'_>) -> syn::Result<UpgradeAttr> {
    let mut out = UpgradeAttr {
        path: meta.path.clone(),
        from: None,
        via: None,
        with: None,
    };
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("from") {
            out.from = Some(inner.value()?.parse()?);
        } else if inner.path.is_ident("via") {
            out.via = Some(inner.value()?.parse()?);
        } else if inner.path.is_ident("with") {
            out.with = Some(inner.value()?.parse()?);
        } else {
            unknown(&inner, "`from`, `via`, `with`")?;
        }
        Ok(())
    })?;
    Ok(out)
}
