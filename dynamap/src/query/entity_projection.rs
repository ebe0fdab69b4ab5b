//! [`EntityProjection`]: a struct of some of an entity's fields, which a query reads
//! instead of the whole entity.

use crate::codec::Item;
use crate::query::Decode;
use crate::sealed::{EntityProjectionSeal, Sealed};
use crate::{Entity, Error, Result};

/// Some of an entity's fields, read by [`Query::project_as`](super::Query::project_as):
/// the query asks DynamoDB for these fields' attributes only (plus the keys and the entity
/// type), and each item decodes into this type. Derived, never implemented by hand:
///
/// ```
/// use dynamap::{Entity, EntityProjection, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Issue", pk = "REPO#{owner}#{repo}", sk = "ISSUE#{number}")]
/// struct Issue {
///     owner: String,
///     repo: String,
///     number: u64,
///     title: String,
///     body: String,
///     assignee: Option<String>,
/// }
///
/// /// What an issue list shows.
/// #[derive(EntityProjection, Debug)]
/// #[dynamap(entity = Issue)]
/// struct IssueRow {
///     number: u64,
///     title: String,
///     assignee: Option<String>,
/// }
///
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// // Reads `number`, `title` and `assignee` (and the keys), not `body`.
/// let rows: Vec<IssueRow> = db
///     .query(Issue::partition("dynamap", "dynamap"))
///     .project_as::<IssueRow>()
///     .all()
///     .await?;
/// # Ok(()) }
/// ```
///
/// The derive checks each field against the entity when it compiles: a field the entity
/// does not have, or of another type, is an error at that field. A field the item lacks
/// decodes as the entity's would: `None` for an `Option`, the default of a field with
/// `#[dynamap(default)]`, and for a field of the primary key templates, the value the key
/// holds. Items of an older schema version read through the entity's upgrade, which sees
/// only the projected attributes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a projection of an entity",
    label = "expected a struct with `#[derive(dynamap::EntityProjection)]`",
    note = "declare the fields to read in a struct with `#[derive(dynamap::EntityProjection)]` and `#[dynamap(entity = YourEntity)]`"
)]
pub trait EntityProjection: Decode + Sealed<EntityProjectionSeal> {
    /// The entity whose fields these are.
    type Entity: Entity;

    /// Appends the attributes the fields are stored in, in field order.
    fn attribute_names(out: &mut Vec<&'static str>);
}

/// What `#[derive(EntityProjection)]` reads through: every field of the entity decoded on
/// its own, so a projection takes the ones it declares and the others may be missing. Not
/// public API; `#[derive(Entity)]` implements it.
#[doc(hidden)]
pub trait EntityFields: Entity {
    /// One [`Field`] per field of the entity, named as the entity's fields. One type for
    /// both the attributes and the values, so that a projection naming a field the entity
    /// lacks gets one error, not one per use.
    type Fields;

    /// Every field unread: its attributes, for the projection expression.
    const FIELDS: Self::Fields;

    /// Decodes each field of `item` on its own. Fails only for the item as a whole: another
    /// entity type, a newer schema version, an older one whose upgrade fails, or a primary
    /// key that does not match the templates.
    ///
    /// # Errors
    ///
    /// As [`Entity::from_item`], for the item as a whole.
    fn read_fields(item: Item) -> Result<Self::Fields>;
}

/// One field of [`EntityFields::Fields`]. Not public API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Field<T> {
    /// The attribute the field is stored in; none for a skipped field.
    pub attributes: &'static [&'static str],
    /// The decoded value, or why there is none.
    pub value: Result<T>,
}

impl<T> Field<T> {
    /// A field not read (yet): reading it would find its attribute missing.
    pub const fn unread(entity: &'static str, attributes: &'static [&'static str]) -> Self {
        let attribute = match attributes {
            [first, ..] => *first,
            [] => "",
        };
        Field {
            attributes,
            value: Err(Error::MissingAttribute {
                entity,
                attribute,
                item: None,
            }),
        }
    }
}
