//! The query builder's sort key conditions (`sk_eq`, `sk_prefix`, `sk_between`, ...), given
//! as typed parts of the sort key template.

use super::sort_condition::{SortCondition, SortOp, bound};
use super::{Decode, Query};
use crate::key::SortArgs;
use crate::table::{IndexSchema, Table};

impl<T: Decode, S> Query<T, S> {
    /// The sort key attributes: the table's or the index's one, or every attribute of a
    /// multi-attribute index key, in key order.
    pub(super) fn sort_attributes(&self) -> Vec<&'static str> {
        match self.index() {
            Some(index) => index.sk_attributes().map(|(name, _)| name).collect(),
            None => <T::Table as Table>::SCHEMA.sk.into_iter().collect(),
        }
    }

    pub(super) fn index(&self) -> Option<&'static IndexSchema> {
        self.index_name
            .and_then(|name| <T::Table as Table>::SCHEMA.index(name))
    }

    fn sort_on<A: SortArgs<S>>(mut self, op: SortOp, args: A) -> Self {
        let attributes = self.sort_attributes();
        let bound = bound(self.entity, &attributes, self.sort_template, &args);
        self.sort = Some(bound.map(|b| SortCondition::from_bound(op, b)));
        self
    }

    /// Sort key equals the given parts; with fewer parts than the template has, every
    /// key with those leading parts (as [`sk_prefix`](Query::sk_prefix)).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let tens = db.query(Score::partition("chess")).sk_eq(Score::sk().score(10i64)).all().await?; // every user with 10
    /// # Ok(()) }
    /// ```
    pub fn sk_eq<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Eq, parts)
    }

    /// Sort key's given parts are less than `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let negative = db.query(Score::partition("chess")).sk_lt(Score::sk().score(0i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_lt<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Lt, parts)
    }

    /// Sort key's given parts are at most `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let up_to_ten = db.query(Score::partition("chess")).sk_le(Score::sk().score(10i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_le<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Le, parts)
    }

    /// Sort key's given parts are greater than `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let above_ten = db.query(Score::partition("chess")).sk_gt(Score::sk().score(10i64)).all().await?; // not 10 itself
    /// # Ok(()) }
    /// ```
    pub fn sk_gt<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Gt, parts)
    }

    /// Sort key's given parts are at least `parts`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let from_ten = db.query(Score::partition("chess")).sk_ge(Score::sk().score(10i64).user("m")).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_ge<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Ge, parts)
    }

    /// Sort key starts with the given leading parts, ending on a segment boundary:
    /// `Sensor::gsi1_sk().building("A").floor("2")` matches floor `2` of building `A`, never
    /// floor `20`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let tens = db.query(Score::partition("chess")).sk_prefix(Score::sk().score(10i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_prefix<A: SortArgs<S>>(self, parts: A) -> Self {
        self.sort_on(SortOp::Prefix, parts)
    }

    /// `low <= sort key <= high`, both inclusive, each comparing the parts it gives.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let middle = db.query(Score::partition("chess")).sk_between(Score::sk().score(10i64), Score::sk().score(20i64)).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn sk_between<L: SortArgs<S>, H: SortArgs<S>>(mut self, low: L, high: H) -> Self {
        let attributes = self.sort_attributes();
        let low = bound(self.entity, &attributes, self.sort_template, &low);
        let high = bound(self.entity, &attributes, self.sort_template, &high);
        self.sort = Some(low.and_then(|low| high.map(|high| SortCondition::between(low, high))));
        self
    }
}
