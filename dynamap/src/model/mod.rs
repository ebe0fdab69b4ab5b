//! The data model drawn from the code, as single-table design is taught and reviewed: the
//! entity chart (each entity's key templates), the access-pattern chart (each entity on
//! each index, with its key condition) and sample items laid out by partition, as Markdown,
//! as a self-contained HTML page, and as a NoSQL Workbench data model.
//!
//! The derives know every template, index and entity type, so the charts cannot drift
//! from the code the way hand-kept ones do. Start from [`Model::new`].

mod chart;
mod html;
mod json;
mod markdown;
mod workbench;

use std::marker::PhantomData;

use crate::Result;
use crate::codec::{AttributeValue, Item};
use crate::description::EntityDescription;
use crate::entity::Entity;
use crate::query::Decode;
use crate::table::Table;
use crate::timeseries::rows::{EventRow, rows_of};
use crate::write::lookup_items::{lookup_item, record};

/// The model of one table layout `L` and the entities stored in it, with sample items.
///
/// Entities are added by type ([`entity`](Self::entity), an entity or an `EntityEnum`,
/// which adds each of its variants), sample items as values ([`sample`](Self::sample):
/// the very items a put writes, lookup items included) or as items read from a table
/// ([`items`](Self::items)). Then [`markdown`](Self::markdown), [`html`](Self::html) or
/// [`workbench_json`](Self::workbench_json) draw it. Access patterns are derived: each
/// entity on the table and on each index it declares, with the partition template and the
/// sort key's condition; [`pattern`](Self::pattern) names one.
///
/// # Examples
///
/// ```
/// use dynamap::model::Model;
/// use dynamap::{Entity, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
/// struct App;
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
///           index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}"))]
/// struct Sensor { id: String, city: String, building: String }
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
/// struct Reading { sensor_id: String, at: u64, value: f64 }
///
/// let model = Model::<App>::new("sensors")
///     .entity::<Sensor>()
///     .sample(&Reading { sensor_id: "S1".into(), at: 7, value: 0.5 })?
///     .pattern::<Reading>(None, "Latest readings of a sensor");
///
/// let markdown = model.markdown();
/// assert!(markdown.contains(
///     "| Sensor | `SENSOR#{id}` | `SENSORINFO` | `CITY#{city}` | `LOC#{building}` |"
/// ));
/// assert!(markdown.contains(
///     "| Latest readings of a sensor | Query | table | `PK = \"SENSOR#{sensor_id}\" AND begins_with(SK, \"READ#\")` |"
/// ));
/// assert!(model.html().contains("SENSOR#S1"));
/// assert_eq!(model.workbench_json()?["DataModel"][0]["TableName"], "sensors");
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct Model<L: Table> {
    name: String,
    entries: Vec<Entry>,
    layout: PhantomData<fn() -> L>,
}

/// One entity type of the model with its sample items and named patterns.
struct Entry {
    description: &'static EntityDescription,
    items: Vec<Item>,
    lookup_items: Vec<Item>,
    /// `(index or lookup, None for the table; name)`.
    names: Vec<(Option<String>, String)>,
    /// For an entity whose samples are multi-event rows: the attributes every event of a
    /// row shares (the key fields'); its other fields are maps of event id to value.
    row_shared: Option<&'static [&'static str]>,
}

/// The model's name, layout, entity types and how many sample items it holds (the items
/// themselves are in its outputs).
impl<L: Table> std::fmt::Debug for Model<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let entities: Vec<&str> = self.descriptions().map(|d| d.entity).collect();
        f.debug_struct("Model")
            .field("name", &self.name)
            .field("layout", &L::SCHEMA.type_name)
            .field("entities", &entities)
            .field("samples", &self.all_items().count())
            .finish()
    }
}

impl<L: Table> Model<L> {
    /// An empty model of layout `L`; `name` names the table in the HTML page and the NoSQL
    /// Workbench model.
    pub fn new(name: impl Into<String>) -> Self {
        Model {
            name: name.into(),
            entries: Vec::new(),
            layout: PhantomData,
        }
    }

    /// Adds an entity type, or each entity type of an `EntityEnum`, in that order. Adding
    /// one twice changes nothing.
    #[must_use]
    pub fn entity<D: Decode<Table = L>>(mut self) -> Self {
        for description in D::DESCRIPTIONS {
            self.entry(description);
        }
        self
    }

    /// Adds `entity` as a sample item, as a put stores it (with its lookup items), and its
    /// type when it is not in the model yet. Samples made by `Default`, by examples or read
    /// with a query all go here.
    ///
    /// # Errors
    ///
    /// Fails as [`Entity::to_item`] does, when a key does not render or a field does not
    /// encode.
    pub fn sample<E: Entity<Table = L>>(mut self, entity: &E) -> Result<Self> {
        let mut item = entity.to_item()?;
        let lookups = entity.lookup_keys()?;
        record(&mut item, &lookups);
        let entry = self.entry(&E::DESCRIPTION);
        for lookup in &lookups {
            entry.lookup_items.push(lookup_item::<E>(&item, lookup));
        }
        entry.items.push(item);
        Ok(self)
    }

    /// Adds `events` as the multi-event rows writing them stores (see
    /// [`timeseries::rows`](crate::timeseries::rows)), and their type when it is not in the
    /// model yet: per timestamp one row holding the events' ids and, per field, a map of
    /// event id to value; overflow rows after [`EventRow::ROW_CAP`] events. The attribute
    /// chart then shows those fields as maps, and the rows' id list and cap.
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # use dynamap::model::Model;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
    /// #[derive(Entity)]
    /// #[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}", event_rows)]
    /// struct CarEvent { car: String, at: i64, kind: String }
    ///
    /// // Two events in one millisecond: one row.
    /// let ignition = CarEvent { car: "c1".into(), at: 1_000, kind: "ignition".into() };
    /// let lock = CarEvent { car: "c1".into(), at: 1_000, kind: "door-lock".into() };
    /// let model = Model::<Iot>::new("iot").sample_rows(&[ignition, lock])?;
    /// assert!(model.markdown().contains("kind: `map<event id, String>`"));
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Fails as a write of the events into rows does before sending: with
    /// [`Error::EventRowUnsupported`](crate::Error::EventRowUnsupported), or when an event
    /// does not encode.
    pub fn sample_rows<E: EventRow<Table = L>>(mut self, events: &[E]) -> Result<Self> {
        let rows = rows_of(events, E::ROW_CAP)?;
        let entry = self.entry(&E::DESCRIPTION);
        entry.items.extend(rows);
        entry.row_shared = Some(E::WRITE.key_attributes);
        Ok(self)
    }

    /// Adds items read from a table (a scan's), each to the entity type its entity-type
    /// attribute names; items of types the model does not hold are left out.
    #[must_use]
    pub fn items(mut self, items: impl IntoIterator<Item = Item>) -> Self {
        let attribute = L::SCHEMA.entity_type;
        for item in items {
            let Some(AttributeValue::S(found)) = item.get(attribute) else {
                continue;
            };
            let found = found.clone();
            for entry in &mut self.entries {
                let entity = entry.description.entity;
                if found == entity {
                    entry.items.push(item);
                    break;
                }
                let lookup = found.strip_prefix(entity).and_then(|r| r.strip_prefix('.'));
                if lookup.is_some_and(|l| entry.description.lookups.iter().any(|k| k.index == l)) {
                    entry.lookup_items.push(item);
                    break;
                }
            }
        }
        self
    }

    /// Names the access pattern of entity `E` on `index` (`None`: on the table's own key;
    /// a lookup's name: by its lookup item) instead of the derived name.
    #[must_use]
    pub fn pattern<E: Entity<Table = L>>(mut self, index: Option<&str>, name: &str) -> Self {
        let entry = self.entry(&E::DESCRIPTION);
        entry
            .names
            .push((index.map(str::to_owned), name.to_owned()));
        self
    }

    /// The entity chart, the access-pattern chart and the attributes of each entity, as
    /// Markdown tables.
    pub fn markdown(&self) -> String {
        markdown::render(self)
    }

    /// A self-contained HTML page (no script, nothing fetched when viewed): the charts, and
    /// the sample items laid out by partition as DynamoDB's console shows them, on the
    /// table and on each index.
    pub fn html(&self) -> String {
        html::render(self)
    }

    /// The model as a NoSQL Workbench data model (its import format): the table with its
    /// global secondary indexes and billing mode as `create_table` makes it, one facet per
    /// entity type and lookup with its key templates as aliases, and the sample items.
    /// NoSQL Workbench's format has no local secondary indexes and no multi-attribute keys:
    /// those indexes are left out of it (the charts show them).
    ///
    /// # Errors
    ///
    /// Fails as [`TableDefinition::new`](crate::admin::TableDefinition::new) does for the
    /// layout.
    pub fn workbench_json(&self) -> Result<serde_json::Value> {
        workbench::render(self)
    }

    /// For an entity sampled as multi-event rows, the attributes its rows share.
    fn row_shared(&self, entity: &str) -> Option<&'static [&'static str]> {
        let entry = self.entries.iter().find(|e| e.description.entity == entity);
        entry.and_then(|e| e.row_shared)
    }

    /// The entity descriptions in the order they were added.
    fn descriptions(&self) -> impl Iterator<Item = &'static EntityDescription> + '_ {
        self.entries.iter().map(|e| e.description)
    }

    /// Every sample item, the entities' then their lookup items', in the order added.
    fn all_items(&self) -> impl Iterator<Item = &Item> + '_ {
        self.entries
            .iter()
            .flat_map(|e| e.items.iter().chain(&e.lookup_items))
    }

    fn name_of(&self, entity: &str, index: Option<&str>) -> Option<String> {
        let entry = self
            .entries
            .iter()
            .find(|e| e.description.entity == entity)?;
        entry
            .names
            .iter()
            .rev()
            .find(|(i, _)| i.as_deref() == index)
            .map(|(_, name)| name.clone())
    }

    fn entry(&mut self, description: &'static EntityDescription) -> &mut Entry {
        let at = match self
            .entries
            .iter()
            .position(|e| e.description.entity == description.entity)
        {
            Some(at) => at,
            None => {
                self.entries.push(Entry {
                    description,
                    items: Vec::new(),
                    lookup_items: Vec::new(),
                    names: Vec::new(),
                    row_shared: None,
                });
                self.entries.len() - 1
            }
        };
        &mut self.entries[at]
    }
}
