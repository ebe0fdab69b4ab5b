//! Derive macros for dynamap. Use them through the `dynamap` crate, which re-exports them
//! and documents their attributes.

mod attr;
mod check;
mod compress;
mod ctx;
mod event_rows;
mod evolution;
mod expand;
mod field_storage;
mod index_keys;
mod model;
mod names;
mod template;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Implements `dynamap::Table`. See `dynamap::Table`.
#[proc_macro_derive(Table, attributes(dynamap))]
pub fn derive_table(input: TokenStream) -> TokenStream {
    expand::expand_table(&parse_macro_input!(input as DeriveInput)).into()
}

/// Implements `dynamap::Entity`. See `dynamap::Entity`.
#[proc_macro_derive(Entity, attributes(dynamap))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    expand::expand_entity(&parse_macro_input!(input as DeriveInput)).into()
}

/// Implements `dynamap::query::Decode` for an enum of entities. See `dynamap::query`.
#[proc_macro_derive(EntityEnum)]
pub fn derive_entity_enum(input: TokenStream) -> TokenStream {
    expand::expand_entity_enum(&parse_macro_input!(input as DeriveInput)).into()
}

/// Implements `dynamap::Attribute` for a nested struct or a fieldless enum. See
/// `dynamap::Attribute`.
#[proc_macro_derive(Attribute, attributes(serde))]
pub fn derive_attribute(input: TokenStream) -> TokenStream {
    expand::expand_attribute(&parse_macro_input!(input as DeriveInput)).into()
}

/// Implements `dynamap::codec::Columnar` for the element type of a compressed list: a
/// struct with named fields or a fieldless enum. See `dynamap::codec::Columnar`.
#[proc_macro_derive(Columnar, attributes(serde))]
pub fn derive_columnar(input: TokenStream) -> TokenStream {
    expand::expand_columnar(&parse_macro_input!(input as DeriveInput)).into()
}

/// Implements `dynamap::KeyPart`. See `dynamap::KeyPart`.
#[proc_macro_derive(KeyPart, attributes(dynamap))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    expand::expand_key_part(&parse_macro_input!(input as DeriveInput)).into()
}
