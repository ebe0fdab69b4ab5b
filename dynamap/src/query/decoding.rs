//! What a query's items decode into: an enum of the table, a projection, and what it does
//! with entity types the enum does not know.

use std::marker::PhantomData;

use super::{Decode, Query, UnknownEntity};
use crate::expr::Condition;

impl<T: Decode, S> Query<T, S> {
    /// Reads every item of the partition, of any entity type, decoding each into the enum
    /// `U` by its entity-type attribute. Sort key conditions still apply.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Game", pk = "GAME#{game}", sk = "INFO")]
    /// # struct Game { game: String }
    /// #[derive(dynamap::EntityEnum, Debug)]
    /// enum GameItem { Game(Game), Score(Score) }
    /// let everything = db.query(Score::partition("chess")).decode_as::<GameItem>().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn decode_as<U: Decode<Table = T::Table>>(self) -> Query<U, S> {
        self.retarget()
    }

    /// The same query, its items decoded as `U` (an enum of the table, a projection, the
    /// items as `Result`s): everything else, the filter included, carries over.
    pub(super) fn retarget<U>(self) -> Query<U, S> {
        Query {
            db: self.db,
            entity: self.entity,
            partition: self.partition,
            index_name: self.index_name,
            sort_template: self.sort_template,
            sort: self.sort,
            filter: self.filter.map(Condition::retype),
            projection: self.projection,
            descending: self.descending,
            limit: self.limit,
            first: self.first,
            last: self.last,
            consistent: self.consistent,
            after: self.after,
            unknown: self.unknown,
            include_expired: self.include_expired,
            groups: self.groups,
            fan_out: self.fan_out,
            marker: PhantomData,
        }
    }

    /// What a mixed query does with items of entity types its enum does not know.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Game", pk = "GAME#{game}", sk = "INFO")]
    /// # struct Game { game: String }
    /// # #[derive(dynamap::EntityEnum, Debug)] enum GameItem { Game(Game), Score(Score) }
    /// use dynamap::query::UnknownEntity;
    /// let strict = db.query(Score::partition("chess")).decode_as::<GameItem>().on_unknown(UnknownEntity::Error).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn on_unknown(mut self, policy: UnknownEntity) -> Self {
        self.unknown = policy;
        self
    }
}
