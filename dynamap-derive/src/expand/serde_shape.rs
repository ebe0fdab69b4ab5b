//! The shape serde's derives give a nested struct or a fieldless enum, read from the same
//! `#[serde(...)]` attributes: what `#[derive(Attribute)]` and `#[derive(Columnar)]` store,
//! so both store the names serde stores. Only `rename`, `rename_all` (enums), `default`
//! and `skip` are followed; any other serde attribute is refused, naming the derive.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::ctx::Ctxt;

/// A stored field of a struct.
pub(super) struct StoredField<'a> {
    pub(super) ident: &'a syn::Ident,
    pub(super) ty: &'a syn::Type,
    /// The name serde stores it under.
    pub(super) name: String,
    /// `#[serde(default)]`: a missing value reads as the default.
    pub(super) default: bool,
    /// An `Option`: a missing value reads as `None`.
    pub(super) optional: bool,
}

impl StoredField<'_> {
    /// Whether a missing value reads (as the default), as serde's derive reads it.
    pub(super) fn may_be_missing(&self) -> bool {
        self.default || self.optional
    }
}

pub(super) enum Shape<'a> {
    Struct {
        stored: Vec<StoredField<'a>>,
        /// `#[serde(skip)]` fields: not stored, read as their default.
        skipped: Vec<&'a syn::Ident>,
    },
    /// Each variant with the name serde stores.
    Enum(Vec<(&'a syn::Ident, String)>),
}

/// The shape of `input` for `#[derive(<derive>)]`, or `None` with the errors in `cx`.
pub(super) fn shape<'a>(cx: &mut Ctxt, input: &'a DeriveInput, derive: &str) -> Option<Shape<'a>> {
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            format!("`#[derive({derive})]` does not support generic types; leave it off and the type is stored through serde"),
        );
    }
    for item in serde_items(&input.attrs) {
        // `crate` says where serde is, not what it stores.
        let allowed = item.name == "crate"
            || matches!(&input.data, Data::Enum(_)) && item.name == "rename_all";
        if !allowed {
            unsupported(cx, &item, derive);
        }
    }
    let shape = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => Some(named_struct(cx, fields, derive)),
            _ => None,
        },
        Data::Enum(data) => fieldless_enum(cx, input, data, derive),
        Data::Union(_) => None,
    };
    if shape.is_none() && !cx.has_errors() {
        cx.error_at(
            &input.ident,
            format!(
                "`#[derive({derive})]` needs a struct with named fields or an enum without fields"
            ),
        );
    }
    shape.filter(|_| !cx.has_errors())
}

/// One `name` or `name = "value"` of a `#[serde(...)]` attribute.
struct SerdeItem {
    name: String,
    value: Option<String>,
    span: Span,
}

fn serde_items(attrs: &[syn::Attribute]) -> Vec<SerdeItem> {
    let mut items = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // Malformed serde attributes are serde's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map_or_else(String::new, ToString::to_string);
            let mut value = None;
            if meta.input.peek(syn::Token![=]) {
                let expr: syn::Expr = meta.value()?.parse()?;
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(lit),
                    ..
                }) = expr
                {
                    value = Some(lit.value());
                }
            } else if meta.input.peek(syn::token::Paren) {
                let _: TokenStream = meta.input.parse()?;
                // `rename(serialize = .., deserialize = ..)` and the like: not followed.
                value = None;
            }
            items.push(SerdeItem {
                name,
                value,
                span: meta.path.span(),
            });
            Ok(())
        });
    }
    items
}

fn unsupported(cx: &mut Ctxt, item: &SerdeItem, derive: &str) {
    cx.push(syn::Error::new(
        item.span,
        format!(
            "`#[derive({derive})]` stores the form serde's derives store by default and does not follow #[serde({})]; leave `{derive}` off and this type is stored through serde",
            item.name
        ),
    ));
}

fn named_struct<'a>(cx: &mut Ctxt, fields: &'a syn::FieldsNamed, derive: &str) -> Shape<'a> {
    let mut stored = Vec::new();
    let mut skipped = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("named fields have names");
        let mut name = ident.to_string().trim_start_matches("r#").to_owned();
        let mut default = false;
        let mut skip = false;
        for item in serde_items(&field.attrs) {
            match (item.name.as_str(), &item.value) {
                ("rename", Some(value)) => name.clone_from(value),
                ("default", None) => default = true,
                ("skip", None) => skip = true,
                _ => unsupported(cx, &item, derive),
            }
        }
        if skip {
            skipped.push(ident);
            continue;
        }
        let optional = crate::index_keys::last_segment(&field.ty).as_deref() == Some("Option");
        stored.push(StoredField {
            ident,
            ty: &field.ty,
            name,
            default,
            optional,
        });
    }
    Shape::Struct { stored, skipped }
}

fn fieldless_enum<'a>(
    cx: &mut Ctxt,
    input: &DeriveInput,
    data: &'a syn::DataEnum,
    derive: &str,
) -> Option<Shape<'a>> {
    let rename_all = serde_items(&input.attrs)
        .into_iter()
        .find(|item| item.name == "rename_all")
        .and_then(|item| item.value);
    let mut names = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_at(
                &variant.ident,
                format!("`#[derive({derive})]` on an enum needs variants without fields; leave it off and the enum is stored through serde"),
            );
            return None;
        }
        let mut name = variant.ident.to_string();
        if let Some(rule) = &rename_all {
            name = super::key_part::apply_rename_all(rule, &name);
        }
        for item in serde_items(&variant.attrs) {
            match (item.name.as_str(), &item.value) {
                ("rename", Some(value)) => name.clone_from(value),
                _ => unsupported(cx, &item, derive),
            }
        }
        names.push((&variant.ident, name));
    }
    Some(Shape::Enum(names))
}
