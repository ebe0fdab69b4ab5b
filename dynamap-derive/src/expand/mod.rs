//! Code generation, one derive per module. Generated code names only
//! `::dynamap::__private::…` and `::core::…` paths and sits in `const _: () = { … };`,
//! except the types code must be able to name (the sort key builders of multi-attribute
//! indexes), which sit beside the deriving type.

mod attribute;
mod columnar;
mod columns;
mod created_item;
mod decode;
mod description;
mod entity;
mod entity_checks;
mod entity_enum;
mod entity_fields;
mod entity_projection;
mod from_item;
mod index_updates;
mod key_changes;
mod key_part;
mod keys;
mod partition;
mod primary_key;
mod render;
mod serde_shape;
mod sort_builder;
mod stored_form;
mod table;
mod to_item;
mod write_meta;

pub(crate) use attribute::expand_attribute;
pub(crate) use columnar::expand_columnar;
pub(crate) use entity::expand_entity;
pub(crate) use entity_enum::expand_entity_enum;
pub(crate) use entity_projection::expand_entity_projection;
pub(crate) use key_part::expand_key_part;
pub(crate) use table::expand_table;
