//! The entity's description for the model charts (`dynamap::model`): its key templates per
//! index, lookups, computed parts and stored fields, emitted as one constant of plain data
//! (no generated code), so the per-entity expansion stays small.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Computation, EntityModel, IndexKey};

/// The `DESCRIPTION` constant of the `Entity` impl.
pub(crate) fn description(model: &EntityModel<'_>) -> TokenStream {
    let entity = &model.entity_name;
    let key = |index: &str, pk: &IndexKey, sk: Option<&IndexKey>, local: bool| {
        let pk = parts(pk);
        let sk = sk.map(parts).unwrap_or_default();
        quote!(::dynamap::__private::KeyDescription { index: #index, pk: &[#(#pk),*], sk: &[#(#sk),*], local: #local })
    };
    let mut keys = vec![key("", &model.pk, model.sk.as_ref(), false)];
    keys.extend(
        model
            .indexes
            .iter()
            .map(|i| key(&i.name.value(), &i.pk, i.sk.as_ref(), i.local)),
    );
    let lookups = model.lookups.iter().map(|l| {
        let (name, pk) = (l.name.value(), l.pk.text());
        let sk = l.sk.as_ref().map(crate::template::Template::text).into_iter();
        quote!(::dynamap::__private::KeyDescription { index: #name, pk: &[#pk], sk: &[#(#sk),*], local: false })
    });
    let stored = model.fields.iter().filter(|f| !f.skip);
    let fields = stored.clone().map(|f| {
        let (name, attribute) = (f.ident.to_string(), &f.attribute);
        let ty = type_text(f.ty);
        quote!((#name, #attribute, #ty))
    });
    let ttl = option(stored.clone().find(|f| f.ttl).map(|f| f.attribute.clone()));
    let computed = model.computed.iter().map(|c| {
        let name = c.name.to_string();
        let from = c.fields.iter().map(ToString::to_string);
        let how = match &c.how {
            Computation::Shard(count) => format!("shard({count})"),
            Computation::Function(path) => type_text(path),
        };
        quote!((#name, #how, &[#(#from),*]))
    });
    quote! {
        const DESCRIPTION: ::dynamap::__private::EntityDescription = ::dynamap::__private::EntityDescription {
            entity: #entity,
            keys: &[#(#keys),*],
            lookups: &[#(#lookups),*],
            fields: &[#(#fields),*],
            ttl: #ttl,
            computed: &[#(#computed),*],
        };
    }
}

/// A key as its attributes' values: a template's text, or `{field}` for each attribute of a
/// key that is fields' own attributes (`field(x)`, `fields(a, b)`).
fn parts(key: &IndexKey) -> Vec<String> {
    match key {
        IndexKey::Template(template) => vec![template.text()],
        IndexKey::Field(key) => key.fields.iter().map(|f| format!("{{{f}}}")).collect(),
    }
}

fn option(text: Option<String>) -> TokenStream {
    match text {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// Tokens as a reader writes them: `Option<String>`, not `Option < String >`.
fn type_text(tokens: &impl quote::ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let glue = c == ' '
            && (matches!(next, Some('<' | '>' | ',' | ':' | ')' | ']'))
                || matches!(out.chars().last(), Some('<' | ':' | '(' | '[' | '&')));
        if !glue {
            out.push(c);
        }
    }
    out
}
