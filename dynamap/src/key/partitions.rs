//! Several physical partitions read as one query: a partition spread over shards
//! ([`PartitionKey::sharded`]), and a series of such logical partitions read one after the
//! other ([`PartitionKey::across`]).

use std::sync::Arc;

use super::{KeyError, KeyErrorKind, PartitionKey};
use crate::codec::AttributeValue;

/// Logical partitions in ascending order, each the values of its physical (shard)
/// partitions, in shard order.
pub(crate) type Groups = Arc<[Vec<Vec<AttributeValue>>]>;

fn refused<E>(reason: &'static str) -> KeyError {
    KeyError {
        entity: std::any::type_name::<E>(),
        attribute: "partition key",
        field: None,
        kind: KeyErrorKind::Partitions { reason },
    }
}

impl<E, S> PartitionKey<E, S> {
    /// A key whose rendering failed with `err`, or that cannot be read as one.
    fn failed(err: KeyError) -> Self {
        Self {
            values: Err(err.clone()),
            index: None,
            sort: &[],
            groups: Some(Err(err)),
            entity: std::marker::PhantomData,
        }
    }

    /// Checks that every key reads the same index with the same sort template, and returns
    /// that index and template.
    fn common(
        keys: &[Self],
    ) -> Result<(Option<&'static str>, &'static [super::Segment]), KeyError> {
        let Some(first) = keys.first() else {
            return Err(refused::<E>("no partition was given to read"));
        };
        if keys
            .iter()
            .any(|key| key.index != first.index || key.sort != first.sort)
        {
            return Err(refused::<E>(
                "partitions read as one must all be of the same table or index, with the same sort key",
            ));
        }
        Ok((first.index, first.sort))
    }

    /// The logical partitions of this key, each its physical partitions.
    fn groups(self) -> Result<Vec<Vec<Vec<AttributeValue>>>, KeyError> {
        match self.groups {
            Some(groups) => groups.map(|g| g.to_vec()),
            None => self.values.map(|values| vec![vec![values]]),
        }
    }

    fn of_groups(
        groups: Vec<Vec<Vec<AttributeValue>>>,
        index: Option<&'static str>,
        sort: &'static [super::Segment],
    ) -> Self {
        let first = groups
            .first()
            .and_then(|g| g.first())
            .cloned()
            .unwrap_or_default();
        Self {
            values: Ok(first),
            index,
            sort,
            groups: Some(Ok(groups.into())),
            entity: std::marker::PhantomData,
        }
    }

    /// One logical partition spread over physical shard partitions, read merged in sort
    /// order, ties going to the shard given first. Generated code calls it for keys with
    /// computed shard parts.
    ///
    /// No shards, or shards of different indexes or sort templates, make a key that fails
    /// with a [`KeyError`] when the query is sent.
    #[doc(hidden)]
    pub fn sharded(shards: Vec<PartitionKey<E, S>>) -> Self {
        let (index, sort) = match Self::common(&shards) {
            Ok(common) => common,
            Err(err) => return Self::failed(err),
        };
        let mut physical = Vec::with_capacity(shards.len());
        for shard in shards {
            match shard.groups() {
                Ok(groups) => physical.extend(groups.into_iter().flatten()),
                Err(err) => return Self::failed(err),
            }
        }
        Self::of_groups(vec![physical], index, sort)
    }

    /// A series of partitions read one after the other as one query, given in ascending
    /// order (days oldest first): an ascending query reads from the first, a descending
    /// one from the last, moving to the next only when the current one is used up. Each
    /// may be spread over shards, whose items are merged in sort order. The list bounds
    /// how far a read walks; one cursor resumes the whole read.
    ///
    /// Every partition must be of the same table or index: otherwise, or when none is
    /// given, the query fails with a [`KeyError`] when sent. Each page costs one Query
    /// request per shard read (see `docs/guide/queries.md`).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// use dynamap::key::PartitionKey;
    ///
    /// #[derive(Entity, Debug)]
    /// #[dynamap(table = App, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
    ///           index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}#{id}"))]
    /// struct Deal { id: String, day: String, shard: u8, created_at: i64 }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // Three days, oldest first, each spread over 4 shards.
    /// let days = ["2026-11-24", "2026-11-25", "2026-11-26"];
    /// let key = PartitionKey::across(days.map(|day| {
    ///     PartitionKey::across((0..4u8).map(|shard| Deal::gsi1(day, shard))).merged()
    /// }));
    /// // The 10 newest deals, from the last day back until the page is full.
    /// let page = db.query(key).descending().limit(10).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn across(partitions: impl IntoIterator<Item = PartitionKey<E, S>>) -> Self {
        let partitions: Vec<Self> = partitions.into_iter().collect();
        let (index, sort) = match Self::common(&partitions) {
            Ok(common) => common,
            Err(err) => return Self::failed(err),
        };
        let mut groups = Vec::with_capacity(partitions.len());
        for partition in partitions {
            match partition.groups() {
                Ok(more) => groups.extend(more),
                Err(err) => return Self::failed(err),
            }
        }
        Self::of_groups(groups, index, sort)
    }

    /// The same partitions read as one logical partition: every physical partition merged
    /// in sort order, ties going to the one given first (a partition spread over shards).
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// # #[derive(Entity, Debug)]
    /// # #[dynamap(table = App, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
    /// #           index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}#{id}"))]
    /// # struct Deal { id: String, day: String, shard: u8, created_at: i64 }
    /// use dynamap::key::PartitionKey;
    ///
    /// let today = PartitionKey::across((0..4u8).map(|shard| Deal::gsi1("2026-11-26", shard))).merged();
    /// assert_eq!(today.partitions()?.len(), 1); // one logical partition
    /// assert_eq!(today.partitions()?[0].len(), 4); // of 4 shards
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn merged(self) -> Self {
        let (index, sort) = (self.index, self.sort);
        match self.groups() {
            Ok(groups) => Self::sharded(
                groups
                    .into_iter()
                    .flatten()
                    .map(|values| Self::from_attributes(Ok(values), index, sort))
                    .collect(),
            ),
            Err(err) => Self::failed(err),
        }
    }

    /// The physical partitions this key reads: one list per logical partition, in order,
    /// each the partition key values of its shards. A single partition is one list of one.
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while rendering a key, or when the partitions cannot
    /// be read as one (none, or of different indexes).
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// use dynamap::key::PartitionKey;
    ///
    /// let both = PartitionKey::across([Reading::partition("S1"), Reading::partition("S2")]);
    /// let partitions = both.partitions()?;
    /// assert_eq!(partitions.len(), 2);
    /// assert_eq!(partitions[1][0][0].as_s().unwrap(), "SENSOR#S2");
    /// assert_eq!(both.value()?, "SENSOR#S1"); // the first physical partition
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn partitions(&self) -> Result<Vec<Vec<&[AttributeValue]>>, KeyError> {
        match &self.groups {
            Some(Ok(groups)) => Ok(groups
                .iter()
                .map(|group| group.iter().map(Vec::as_slice).collect())
                .collect()),
            Some(Err(err)) => Err(err.clone()),
            None => Ok(vec![vec![self.attribute_values()?]]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Key = PartitionKey<(), ()>;

    fn key(pk: &str) -> Key {
        Key::from_rendered(Ok(pk.to_owned()), Some("GSI1"), &[])
    }

    fn texts(key: &Key) -> Vec<Vec<String>> {
        key.partitions()
            .expect("partitions")
            .iter()
            .map(|g| {
                g.iter()
                    .map(|v| v[0].as_s().expect("text").clone())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn across_sharded_days_groups_shards_by_day() {
        let day = |d: &str| Key::sharded(vec![key(&format!("{d}#0")), key(&format!("{d}#1"))]);
        let days = Key::across([day("D1"), day("D2")]);
        assert_eq!(texts(&days), [["D1#0", "D1#1"], ["D2#0", "D2#1"]]);
        assert_eq!(days.value().expect("first"), "D1#0");
        assert_eq!(days.clone(), days);
        assert_ne!(days, Key::across([day("D1")]));
        let merged = Key::across([key("A"), key("B")]).merged();
        assert_eq!(texts(&merged), [["A", "B"]]);
    }

    #[test]
    fn no_partitions_or_mixed_indexes_fail_when_used_not_at_once() {
        let err = Key::sharded(Vec::new()).partitions().expect_err("none");
        assert!(matches!(err.kind, KeyErrorKind::Partitions { .. }));
        let table = Key::from_rendered(Ok("A".into()), None, &[]);
        let err = Key::across([key("A"), table]).value().expect_err("mixed");
        assert!(err.to_string().contains("same table or index"), "{err}");
        let broken = Key::from_rendered(Err(refused::<()>("broken")), Some("GSI1"), &[]);
        assert!(Key::across([key("A"), broken]).partitions().is_err());
    }
}
