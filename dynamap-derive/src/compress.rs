//! `#[dynamap(compress)]` and `#[dynamap(compress(codec = "...", level = N, format = "...",
//! budget = N, uncompressed_below = N))]` on a field: parsed, checked, and turned into the
//! `Compression` settings the generated code passes to the runtime.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::{LitInt, LitStr, Path};

use crate::ctx::Ctxt;

const KEYS: &str = "`codec`, `level`, `format`, `budget`, `uncompressed_below`";

/// DynamoDB's item size limit: no single attribute can be larger.
const MAX_ITEM_BYTES: u64 = 409_600;

/// The parsed attribute.
pub(crate) struct CompressAttr {
    pub(crate) path: Path,
    codec: Option<LitStr>,
    level: Option<LitInt>,
    format: Option<LitStr>,
    budget: Option<LitInt>,
    uncompressed_below: Option<LitInt>,
}

impl CompressAttr {
    pub(crate) fn parse(meta: &ParseNestedMeta<'_>) -> syn::Result<Self> {
        let mut out = CompressAttr {
            path: meta.path.clone(),
            codec: None,
            level: None,
            format: None,
            budget: None,
            uncompressed_below: None,
        };
        if meta.input.is_empty() || meta.input.peek(syn::Token![,]) {
            return Ok(out);
        }
        meta.parse_nested_meta(|inner| {
            let slot_str = |slot: &mut Option<LitStr>| -> syn::Result<()> {
                once(&inner, slot.is_some())?;
                *slot = Some(inner.value()?.parse()?);
                Ok(())
            };
            let slot_int = |slot: &mut Option<LitInt>| -> syn::Result<()> {
                once(&inner, slot.is_some())?;
                *slot = Some(inner.value()?.parse()?);
                Ok(())
            };
            if inner.path.is_ident("codec") {
                slot_str(&mut out.codec)
            } else if inner.path.is_ident("format") {
                slot_str(&mut out.format)
            } else if inner.path.is_ident("level") {
                slot_int(&mut out.level)
            } else if inner.path.is_ident("budget") {
                slot_int(&mut out.budget)
            } else if inner.path.is_ident("uncompressed_below") {
                slot_int(&mut out.uncompressed_below)
            } else {
                Err(inner.error(format!(
                    "unknown `compress` setting; expected one of {KEYS}"
                )))
            }
        })?;
        Ok(out)
    }

    /// True when a format other than `"auto"` is given: a chosen form, which gets no note.
    pub(crate) fn format_chosen(&self) -> bool {
        self.format.as_ref().is_some_and(|f| f.value() != "auto")
    }

    /// The `Compression` value, plus a compile-time check that the codec is enabled; `None`
    /// (with errors recorded) when a setting is invalid.
    pub(crate) fn settings(&self, cx: &mut Ctxt) -> Option<(TokenStream, TokenStream)> {
        let (codec, marker) = self.codec(cx)?;
        let format = match self.format.as_ref().map(LitStr::value).as_deref() {
            None | Some("auto") => quote!(Auto),
            Some("columnar") => quote!(Columnar),
            Some("row") => quote!(Row),
            Some("json") => quote!(Json),
            Some(_) => {
                cx.error_at(
                    self.format.as_ref()?,
                    "unknown format; expected \"auto\", \"columnar\", \"row\" or \"json\"",
                );
                return None;
            }
        };
        let budget = match &self.budget {
            None => quote!(),
            Some(lit) => {
                let bytes = self.bytes(cx, lit, 1, "budget (bytes)")?;
                quote!(.budget(#bytes))
            }
        };
        let below = match &self.uncompressed_below {
            None => quote!(),
            Some(lit) => {
                let bytes = self.bytes(cx, lit, 0, "uncompressed_below (bytes)")?;
                quote!(.uncompressed_below(#bytes))
            }
        };
        let span = self
            .codec
            .as_ref()
            .map_or_else(|| self.path.segments[0].ident.span(), LitStr::span);
        let check_fn = syn::Ident::new(&marker.to_string().to_lowercase(), span);
        let span = proc_macro2::Span::call_site().located_at(span);
        let json_check = self
            .format
            .as_ref()
            .filter(|lit| lit.value() == "json")
            .map(|lit| {
                let span = proc_macro2::Span::call_site().located_at(lit.span());
                quote_spanned!(span=> const _: () = ::dynamap::__private::codec_features::json::<()>();)
            });
        let check = quote_spanned! {span=>
            // Compiles when the codec's cargo feature is on; otherwise the error names it.
            const _: () = ::dynamap::__private::codec_features::#check_fn::<()>();
            #json_check
        };
        let settings = quote! {
            ::dynamap::__private::Compression::DEFAULT
                .codec(#codec)
                .format(::dynamap::__private::Format::#format)
                #budget #below
        };
        Some((settings, check))
    }

    fn codec(&self, cx: &mut Ctxt) -> Option<(TokenStream, TokenStream)> {
        let name = self.codec.as_ref().map(LitStr::value);
        let level = |cx: &mut Ctxt, min: u64, max: u64, default: u64| match &self.level {
            None => Some(default),
            Some(lit) => self.int(cx, lit, min, max, "level"),
        };
        let out = match name.as_deref() {
            None | Some("zstd") => {
                let level = level(cx, 1, 22, 3)? as i32;
                (
                    quote!(::dynamap::__private::Codec::Zstd { level: #level }),
                    quote!(Zstd),
                )
            }
            Some("bzip2") => {
                let level = level(cx, 1, 9, 9)? as u32;
                (
                    quote!(::dynamap::__private::Codec::Bzip2 { level: #level }),
                    quote!(Bzip2),
                )
            }
            Some("gzip") => {
                let level = level(cx, 0, 9, 6)? as u32;
                (
                    quote!(::dynamap::__private::Codec::Gzip { level: #level }),
                    quote!(Gzip),
                )
            }
            Some(codec @ ("snappy" | "none")) => {
                if let Some(lit) = &self.level {
                    cx.error_at(lit, format!("codec \"{codec}\" has no levels"));
                    return None;
                }
                if codec == "snappy" {
                    (quote!(::dynamap::__private::Codec::Snappy), quote!(Snappy))
                } else {
                    (quote!(::dynamap::__private::Codec::None), quote!(None))
                }
            }
            Some(_) => {
                cx.error_at(
                    self.codec.as_ref()?,
                    "unknown codec; expected \"zstd\", \"bzip2\", \"gzip\", \"snappy\" or \"none\"",
                );
                return None;
            }
        };
        Some(out)
    }

    /// A byte count, up to the item limit, as an unsuffixed `usize` literal.
    fn bytes(
        &self,
        cx: &mut Ctxt,
        lit: &LitInt,
        min: u64,
        what: &str,
    ) -> Option<proc_macro2::Literal> {
        let n = self.int(cx, lit, min, MAX_ITEM_BYTES, what)?;
        Some(proc_macro2::Literal::u64_unsuffixed(n))
    }

    fn int(&self, cx: &mut Ctxt, lit: &LitInt, min: u64, max: u64, what: &str) -> Option<u64> {
        match lit.base10_parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                cx.error_at(lit, format!("{what} must be from {min} to {max}"));
                None
            }
        }
    }
}

fn once(meta: &ParseNestedMeta<'_>, taken: bool) -> syn::Result<()> {
    if taken {
        Err(meta.error("duplicate `compress` setting"))
    } else {
        Ok(())
    }
}
