//! Derive macros for dynamap. Use them through the `dynamap` crate, which re-exports them
//! and documents their attributes.

mod attr;
mod check;
mod compress;
mod computed;
mod crate_path;
mod ctx;
mod event_rows;
mod evolution;
mod expand;
mod field_storage;
mod index_keys;
mod key_format;
mod model;
mod names;
mod protection;
mod template;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Implements `dynamap::Table`. See `dynamap::Table`.
#[proc_macro_derive(Table, attributes(dynamap))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_table, false)
}

/// Implements `dynamap::Entity`. See `dynamap::Entity`.
#[proc_macro_derive(Entity, attributes(dynamap))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_entity, false)
}

/// Implements `dynamap::query::Decode` for an enum of entities. See `dynamap::query`.
#[proc_macro_derive(EntityEnum, attributes(dynamap))]
pub fn derive_entity_enum(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_entity_enum, true)
}

/// Implements `dynamap::EntityProjection` (and `dynamap::query::Decode`) for a struct of
/// some of an entity's fields. See `dynamap::EntityProjection`.
#[proc_macro_derive(EntityProjection, attributes(dynamap))]
pub fn derive_entity_projection(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_entity_projection, false)
}

/// Implements `dynamap::Attribute` for a nested struct or a fieldless enum. See
/// `dynamap::Attribute`.
#[proc_macro_derive(Attribute, attributes(serde, dynamap))]
pub fn derive_attribute(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_attribute, true)
}

/// Implements `dynamap::codec::Columnar` for the element type of a compressed list: a
/// struct with named fields or a fieldless enum. See `dynamap::codec::Columnar`.
#[proc_macro_derive(Columnar, attributes(serde, dynamap))]
pub fn derive_columnar(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_columnar, true)
}

/// Implements `dynamap::KeyPart`. See `dynamap::KeyPart`.
#[proc_macro_derive(KeyPart, attributes(dynamap))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    derive(input, expand::expand_key_part, true)
}

/// Expands one derive, then points its output at `#[dynamap(crate = "...")]` when given.
/// `only_crate`: the derive takes no other container attribute.
fn derive(
    input: TokenStream,
    expand: fn(&DeriveInput) -> proc_macro2::TokenStream,
    only_crate: bool,
) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let expanded = expand(&input);
    match crate_path::crate_path(&input.attrs, only_crate) {
        Ok(Some(path)) => crate_path::rebase(expanded, &path).into(),
        Ok(None) => expanded.into(),
        Err(err) => {
            let mut out = expanded;
            out.extend(err.to_compile_error());
            out.into()
        }
    }
}
