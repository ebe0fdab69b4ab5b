//! `key_format(...)` on a table, an entity or a field: how key parts are written. Each
//! level sets only the choices it names; the others come from the level around it (the
//! field's from the entity's, the entity's from the table's `Table::KEY_FORMAT`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{LitChar, LitInt, LitStr};

/// The choices one `key_format(...)` names.
#[derive(Default, Clone)]
pub(crate) struct KeyFormatAttr {
    /// `escaped` (true) or `verbatim` (false).
    escaped: Option<bool>,
    /// `lowercase` (true) or `keep_case` (false).
    lowercase: Option<bool>,
    /// `numbers = "ordered" | "plain"` or `padded(width = N, pad = 'c')`: the
    /// `dynamap::key::Numbers` value.
    numbers: Option<TokenStream>,
}

const KEYS: &str = "`escaped`, `verbatim`, `lowercase`, `keep_case`, `numbers = \"ordered\"`, `numbers = \"plain\"`, `padded(width = N, pad = '0')`";

impl KeyFormatAttr {
    pub(crate) fn parse(meta: &ParseNestedMeta<'_>) -> syn::Result<Self> {
        let mut out = KeyFormatAttr::default();
        meta.parse_nested_meta(|choice| {
            let twice = |what: &str| choice.error(format!("`key_format` sets {what} twice"));
            if choice.path.is_ident("escaped") || choice.path.is_ident("verbatim") {
                if out.escaped.is_some() {
                    return Err(twice("escaping"));
                }
                out.escaped = Some(choice.path.is_ident("escaped"));
            } else if choice.path.is_ident("lowercase") || choice.path.is_ident("keep_case") {
                if out.lowercase.is_some() {
                    return Err(twice("the case"));
                }
                out.lowercase = Some(choice.path.is_ident("lowercase"));
            } else if choice.path.is_ident("numbers") || choice.path.is_ident("padded") {
                if out.numbers.is_some() {
                    return Err(twice("the number form"));
                }
                out.numbers = Some(if choice.path.is_ident("numbers") {
                    parse_numbers(&choice)?
                } else {
                    parse_padded(&choice)?
                });
            } else {
                return Err(choice.error(format!("unknown key format choice; expected {KEYS}")));
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// `base` (an expression of type `dynamap::key::KeyFormat`, usable in constants) with
    /// this attribute's choices applied.
    pub(crate) fn apply(&self, base: TokenStream) -> TokenStream {
        let mut format = base;
        if let Some(escaped) = self.escaped {
            format = quote!(#format.with_escaping(#escaped));
        }
        if let Some(lowercase) = self.lowercase {
            format = quote!(#format.with_lowercase(#lowercase));
        }
        if let Some(numbers) = &self.numbers {
            format = quote!(#format.numbers(#numbers));
        }
        format
    }
}

/// `numbers = "ordered"` or `numbers = "plain"`.
fn parse_numbers(meta: &ParseNestedMeta<'_>) -> syn::Result<TokenStream> {
    let value: LitStr = meta.value()?.parse()?;
    match value.value().as_str() {
        "ordered" => Ok(quote!(::dynamap::__private::Numbers::Ordered)),
        "plain" => Ok(quote!(::dynamap::__private::Numbers::Plain)),
        _ => Err(syn::Error::new(
            value.span(),
            "`numbers` is \"ordered\" or \"plain\"; for a width and pad character write `padded(width = 4, pad = '0')`",
        )),
    }
}

/// `padded(width = N)` or `padded(width = N, pad = 'c')` (pad `'0'` by default).
fn parse_padded(meta: &ParseNestedMeta<'_>) -> syn::Result<TokenStream> {
    let mut width: Option<u8> = None;
    let mut pad = '0';
    meta.parse_nested_meta(|arg| {
        if arg.path.is_ident("width") {
            let lit: LitInt = arg.value()?.parse()?;
            let n: u8 = lit.base10_parse()?;
            if n == 0 {
                return Err(syn::Error::new(lit.span(), "`width` is at least 1"));
            }
            width = Some(n);
        } else if arg.path.is_ident("pad") {
            let lit: LitChar = arg.value()?.parse()?;
            pad = lit.value();
            if pad == '#' || pad == '-' || pad.is_ascii_digit() && pad != '0' {
                return Err(syn::Error::new(
                    lit.span(),
                    "the pad character cannot be `#`, `-` or a digit other than `0`: the padded number would not read back",
                ));
            }
        } else {
            return Err(arg.error("`padded` takes `width = N` and `pad = 'c'`"));
        }
        Ok(())
    })?;
    let width = width.ok_or_else(|| meta.error("`padded` needs `width = N`"))?;
    Ok(quote!(::dynamap::__private::Numbers::Padded { width: #width, pad: #pad }))
}
