//! Code that renders a template into a key value, and reads one back.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

use crate::template::{Segment, Template};

/// One hole as [`render`] writes it: the part's type, an expression of a type implementing
/// `KeyArg<that type>`, and the `KeyFormat` expression it is written in.
pub(crate) struct HoleValue {
    pub(crate) ty: Type,
    pub(crate) value: TokenStream,
    pub(crate) format: TokenStream,
}

/// An expression of type `Result<String, KeyError>` rendering `template`. `value(field)`
/// gives each hole's [`HoleValue`]. Each hole is checked with [`key_part_check`].
pub(crate) fn render(
    entity: &str,
    attribute: &TokenStream,
    limit: &TokenStream,
    template: &Template,
    mut value: impl FnMut(&str) -> HoleValue,
) -> TokenStream {
    let literal_len: usize = template
        .segments
        .iter()
        .map(|segment| match segment {
            Segment::Literal(text) => text.len(),
            Segment::Hole(_) => 0,
        })
        .sum();
    // Each hole's value is bound once, then sized and written.
    let mut bindings = Vec::new();
    let mut lengths = vec![quote!(#literal_len)];
    let steps: Vec<TokenStream> = template
        .segments
        .iter()
        .map(|segment| match segment {
            Segment::Literal(text) => quote!(__dynamap_writer.literal(#text);),
            Segment::Hole(field) => {
                let HoleValue { ty, value: expr, format } = value(field);
                let var = quote::format_ident!("__dynamap_hole_{}", bindings.len());
                let span = type_span(&ty);
                bindings.push(quote!(let #var = &#expr;));
                lengths.push(quote_spanned!(span=> ::dynamap::__private::Hole::<#ty>::NEW.len_hint(#var)));
                let check = key_part_check(&ty);
                let write = quote_spanned!(span=> ::dynamap::__private::Hole::<#ty>::NEW.write(&mut __dynamap_writer, #field, #var, #format););
                quote!(#check #write)
            }
        })
        .collect();
    quote!({
        use ::dynamap::__private::HoleStandIn as _;
        #(#bindings)*
        let mut __dynamap_writer = ::dynamap::__private::KeyWriter::with_capacity(#entity, #attribute, #limit, #(#lengths)+*);
        #(#steps)*
        __dynamap_writer.finish()
    })
}

/// Statements reading `text` (an expression of type `&str`) with `template`, binding each
/// hole to a variable `__dynamap_part_{field}` and returning early with `?` on a mismatch.
/// `ty(field)` gives each hole's type and the `KeyFormat` expression it was written in. A
/// field that occurs twice is read twice; the second reading is checked, then dropped.
pub(crate) fn parse(
    entity: &str,
    attribute: &TokenStream,
    text: &TokenStream,
    template: &Template,
    bound: &mut Vec<String>,
    mut ty: impl FnMut(&str) -> (Type, TokenStream),
) -> TokenStream {
    let source = template.text();
    let steps = template.segments.iter().map(|segment| match segment {
        Segment::Literal(text) => quote!(__dynamap_reader.literal(#text, #source)?;),
        Segment::Hole(field) => {
            let (field_ty, format) = ty(field);
            let check = key_part_check(&field_ty);
            let read = quote_spanned!(type_span(&field_ty)=> ::dynamap::__private::Hole::<#field_ty>::NEW.read(&mut __dynamap_reader, #field, #source, #format)?);
            if bound.iter().any(|b| b == field) {
                quote!(#check let _: #field_ty = #read;)
            } else {
                bound.push(field.clone());
                let var = part_var(field);
                quote!(#check let #var: #field_ty = #read;)
            }
        }
    });
    quote! {
        use ::dynamap::__private::HoleStandIn as _;
        let mut __dynamap_reader = ::dynamap::__private::KeyReader::new(#entity, #attribute, #text);
        #(#steps)*
        __dynamap_reader.finish(#source)?;
    }
}

/// The proof that a hole's type is a key part, reported at the type. Holes are rendered and
/// read through `dynamap::__private::Hole`, whose methods fall back to stand-ins that need
/// nothing of the type (so a type that is not a key part gives no error at each use); every
/// hole carries this proof beside, so no stand-in goes unnoticed. The proofs of one field
/// are alike, span included, and rustc shows identical errors once.
pub(crate) fn key_part_check(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=> ::dynamap::__private::assert_key_part::<#ty>();)
}

/// The variable a parsed part is bound to.
pub(crate) fn part_var(field: &str) -> Ident {
    quote::format_ident!("__dynamap_part_{}", field.trim_start_matches("r#"))
}

/// A span that resolves names like the macro's own tokens but points at `ty` in the
/// user's source: code that needs `ty: KeyPart` gets it, so an unsatisfied bound is
/// reported at the field's type rather than at `#[derive(Entity)]`.
pub(crate) fn type_span(ty: &Type) -> Span {
    Span::call_site().located_at(ty.span())
}
