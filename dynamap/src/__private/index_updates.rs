//! The index keys an update derives, rendered by library code rather than by code the
//! derive writes per entity and field: the derive describes each index key as constant
//! template [`Segment`]s and each hole once, as an [`UpdateHole`] whose functions are
//! generic over the hole's *type* only, so every entity of a crate with a `String` or a
//! `u32` hole shares one copy of them. What it must still write per entity is small: the
//! table of holes, and the closure that reads the primary key's parts. The same tables
//! give an update that creates its item the index keys rendered from the primary key alone
//! ([`created_index_keys`]).
//!
//! The rules are those of `Entity::derived_key_changes`: a key is rendered when the update
//! touches any of its fields; removing an optional field of a sparse index removes its keys;
//! a key whose fields are only partly set is a gap, named in the one error.

use std::any::Any;

use crate::codec::{AttributeError, AttributeValue, Item};
use crate::derived::{DerivedChange, UpdatedValues};
use crate::error::IncompleteKey;
use crate::key::{KeyFormat, KeyPart, KeyWriter, Segment};
use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
use crate::table::TableSchema;
use crate::{Error, Result};

/// A hole's value, of the hole's type, whichever that is.
pub type HoleValue = Box<dyn Any>;

/// Reads a hole's new value from an update: `None` when the update removes it.
pub type ReadHole = fn(&UpdatedValues<'_>, &'static str, &'static str) -> Result<Option<HoleValue>>;

/// Appends a hole's value (of the type the function was made for) to a key.
pub type WriteHole = fn(&mut KeyWriter, &'static str, &dyn Any, KeyFormat);

/// One hole of an entity's index templates: its name, and where its value comes from.
#[derive(Clone, Copy)]
pub struct UpdateHole {
    /// The hole's name in the templates (the field's).
    pub name: &'static str,
    /// The field's attribute, which the update sets.
    pub attribute: &'static str,
    /// For a field of the primary key templates: its place among the key's fields, whose
    /// value is read from the item's key (it never changes). `None` for other fields.
    pub key_part: Option<usize>,
    /// Reads the field's new value (other fields).
    pub read: ReadHole,
    /// Writes the value into a key.
    pub write: WriteHole,
}

/// The keys of one index rendered together: each key on its own, or both of a sparse
/// index's (one of whose fields is optional), which are written or removed together.
pub struct IndexUpdate {
    /// The index's name.
    pub index: &'static str,
    /// The keys, as an error names them ("index `GSI1`'s keys").
    pub key: &'static str,
    /// The templates' text, for errors.
    pub templates: &'static str,
    /// `(attribute, field)` of the fields an update can set (not the primary key's).
    pub fields: &'static [(&'static str, &'static str)],
    /// `(attribute, field)` of its optional fields.
    pub optional: &'static [(&'static str, &'static str)],
    /// The names of the holes the keys are rendered from, each once, in the order they are
    /// read (an error is the first one's).
    pub holes: &'static [&'static str],
    /// The partition key's template, when the group renders it.
    pub pk: Option<&'static [Segment]>,
    /// The sort key's template, when the group renders it.
    pub sk: Option<&'static [Segment]>,
}

/// The primary key's field values, parsed from the item's key once, when first needed.
pub type KeyParts<'a> = &'a mut dyn FnMut() -> Result<Vec<HoleValue>>;

/// Pushes the changes of `groups` onto `changes`, and the keys an update leaves half-set
/// onto `gaps` (see the module's documentation).
///
/// # Errors
///
/// Fails when a value the update sets does not decode, when the item's key does not parse,
/// or when a key does not render.
#[allow(clippy::too_many_arguments)]
pub fn index_updates(
    entity: &'static str,
    schema: &TableSchema,
    values: &UpdatedValues<'_>,
    holes: &[UpdateHole],
    groups: &[IndexUpdate],
    key_parts: KeyParts<'_>,
    changes: &mut Vec<DerivedChange>,
    gaps: &mut Vec<IncompleteKey>,
) -> Result<()> {
    let mut parts: Option<Vec<HoleValue>> = None;
    for group in groups {
        let (true, Some(index)) = (values.touches_any(group.fields), schema.index(group.index))
        else {
            continue;
        };
        let keys = [
            group
                .pk
                .map(|template| (index.pk, template, MAX_PARTITION_KEY_BYTES)),
            group
                .sk
                .and_then(|template| Some((index.sk?, template, MAX_SORT_KEY_BYTES))),
        ];
        // Removing an optional field takes the item out of the sparse index, whatever the
        // other fields are; setting needs them all to render.
        if values.removes_any(group.optional) {
            changes.extend(
                keys.iter()
                    .flatten()
                    .map(|(attribute, ..)| DerivedChange::Remove(attribute)),
            );
            continue;
        }
        if !values.touches_all(group.fields) {
            // Every half-set key is named in one error, not the first alone.
            gaps.push(UpdatedValues::gap(
                group.key.into(),
                group.templates,
                group.fields,
                values,
            ));
            continue;
        }
        let group_holes = group.holes.iter().filter_map(|name| hole(holes, name));
        if parts.is_none() && group_holes.clone().any(|h| h.key_part.is_some()) {
            parts = Some(key_parts()?);
        }
        let mut read: Vec<(&'static str, HoleValue)> = Vec::with_capacity(group.holes.len());
        let mut complete = true;
        for hole in group_holes.filter(|h| h.key_part.is_none()) {
            match (hole.read)(values, entity, hole.attribute)? {
                Some(value) => read.push((hole.name, value)),
                None => complete = false,
            }
        }
        if !complete {
            continue;
        }
        let parts: Vec<&dyn Any> = parts.iter().flatten().map(|part| &**part).collect();
        let values = Values {
            holes,
            parts: &parts,
            read: &read,
        };
        for (attribute, template, limit) in keys.into_iter().flatten() {
            let key = render(entity, attribute, limit, template, &values)?;
            changes.push(DerivedChange::Set(attribute, AttributeValue::S(key)));
        }
    }
    Ok(())
}

/// Inserts into `item` the index keys of `groups` that an update creating its item writes
/// from the primary key alone (`Entity::created_attributes`): each key of an index that is
/// not sparse whose holes are all fields of the primary key, `parts` their values in
/// `UpdateHole::key_part` order. A local index's partition key is the table's own, which
/// the key sets.
///
/// # Errors
///
/// Fails when a key does not render (too long).
pub fn created_index_keys(
    entity: &'static str,
    schema: &TableSchema,
    holes: &[UpdateHole],
    groups: &[IndexUpdate],
    parts: &[&dyn Any],
    item: &mut Item,
) -> Result<()> {
    let values = Values {
        holes,
        parts,
        read: &[],
    };
    for group in groups.iter().filter(|group| group.optional.is_empty()) {
        let Some(index) = schema.index(group.index) else {
            continue;
        };
        let from_key = group
            .holes
            .iter()
            .all(|name| hole(holes, name).is_some_and(|h| h.key_part.is_some()));
        if !from_key {
            continue;
        }
        let keys = [
            group
                .pk
                .filter(|_| !index.local)
                .map(|template| (index.pk, template, MAX_PARTITION_KEY_BYTES)),
            group
                .sk
                .and_then(|template| Some((index.sk?, template, MAX_SORT_KEY_BYTES))),
        ];
        for (attribute, template, limit) in keys.into_iter().flatten() {
            let key = render(entity, attribute, limit, template, &values)?;
            item.insert(attribute.to_owned(), AttributeValue::S(key));
        }
    }
    Ok(())
}

fn hole<'h>(holes: &'h [UpdateHole], name: &str) -> Option<&'h UpdateHole> {
    holes.iter().find(|h| h.name == name)
}

/// The values of a group's holes: the key's parts, and the fields the update sets.
struct Values<'a> {
    holes: &'a [UpdateHole],
    parts: &'a [&'a dyn Any],
    read: &'a [(&'static str, HoleValue)],
}

impl Values<'_> {
    /// The hole `name`, and its value.
    fn get(&self, name: &str) -> Option<(&UpdateHole, &dyn Any)> {
        let hole = hole(self.holes, name)?;
        let value = match hole.key_part {
            Some(i) => *self.parts.get(i)?,
            None => &*self.read.iter().find(|(n, _)| *n == name)?.1,
        };
        Some((hole, value))
    }
}

/// `template` rendered into key attribute `attribute` from the holes' values.
fn render(
    entity: &'static str,
    attribute: &'static str,
    limit: usize,
    template: &[Segment],
    values: &Values<'_>,
) -> Result<String> {
    let capacity = template.iter().map(|s| match s {
        Segment::Literal(text) => text.len(),
        Segment::Hole(..) => 16,
    });
    let mut writer = KeyWriter::with_capacity(entity, attribute, limit, capacity.sum());
    for segment in template {
        match *segment {
            Segment::Literal(text) => writer.literal(text),
            Segment::Hole(name, format) => match values.get(name) {
                Some((hole, value)) => (hole.write)(&mut writer, name, value, format),
                // The derive describes every hole it renders: not reached.
                _ => {
                    return Err(Error::Unsupported {
                        operation: "UpdateItem",
                        reason: format!("{entity} has no value for the key hole `{name}`"),
                    });
                }
            },
        }
    }
    Ok(writer.finish()?)
}

/// [`ReadHole`] of a field of type `T`, whose value `decode` converts (the field's own
/// conversion, as `from_item` reads it).
///
/// # Errors
///
/// As [`UpdatedValues::decode_with`].
#[inline(never)]
pub fn read_hole<T: Any>(
    values: &UpdatedValues<'_>,
    entity: &'static str,
    attribute: &'static str,
    decode: fn(AttributeValue) -> std::result::Result<T, AttributeError>,
) -> Result<Option<HoleValue>> {
    Ok(values
        .decode_with(entity, attribute, decode)?
        .map(|value| Box::new(value) as HoleValue))
}

/// The [`ReadHole`] of a primary-key field, whose value is read from the key instead.
///
/// # Errors
///
/// None.
pub fn read_nothing(
    _: &UpdatedValues<'_>,
    _: &'static str,
    _: &'static str,
) -> Result<Option<HoleValue>> {
    Ok(None)
}

/// [`WriteHole`] of a hole of type `T`.
pub fn write_hole<T: KeyPart + Any>(
    writer: &mut KeyWriter,
    name: &'static str,
    value: &dyn Any,
    format: KeyFormat,
) {
    if let Some(value) = value.downcast_ref::<T>() {
        writer.part_as::<T, T>(name, value, format);
    }
}

#[cfg(test)]
mod tests;
