//! The query builder's reading options: direction, page size, first/last N, expired items,
//! consistency, and resuming after a cursor.

use super::{Cursor, Decode, Query};

impl<T: Decode, S> Query<T, S> {
    /// Newest (greatest sort key) first.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let highest_first = db.query(Score::partition("chess")).descending().limit(10).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn descending(mut self) -> Self {
        self.descending = true;
        self
    }

    /// The direction the query reads in: `first`/`last` decide it, or `descending`.
    pub(super) fn reads_descending(&self) -> bool {
        match (self.first, self.last) {
            (Some(_), _) => false,
            (None, Some(_)) => true,
            (None, None) => self.descending,
        }
    }

    /// The most items a page holds (and, for `all` and `stream`, the most in total): the
    /// one of `limit`, `first` and `last` that was given (validation refuses several).
    pub(super) fn page_limit(&self) -> Option<usize> {
        self.first.or(self.last).or(self.limit)
    }

    /// At most `n` items per page (and in total, for [`all`](Query::all) and
    /// [`stream`](Query::stream)): items returned, after filtering, not items read.
    ///
    /// [`first(n)`](Query::first) and [`last(n)`](Query::last) set the page size
    /// themselves, so a query with `limit` and either of them fails when sent, with
    /// [`Error::Unsupported`](crate::Error::Unsupported) and before any request, in whichever
    /// order they were called: `limit(3).last(5)` and `last(5).limit(3)` are both refused
    /// rather than one silently overriding the other (write `last(3)`). Calling `limit` again
    /// replaces the earlier value.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let page = db.query(Score::partition("chess")).limit(25).send().await?;
    /// # Ok(()) }
    /// ```
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// The `n` items with the smallest sort keys, smallest first: pages of `n` (at most `n`
    /// in total for [`all`](Query::all) and [`stream`](Query::stream)), each cursor going on
    /// with the next smallest. It sets both the order and the page size, so a query that
    /// also has [`descending`](Query::descending), [`limit`](Query::limit) or
    /// [`last`](Query::last), called before or after it, fails when sent with
    /// [`Error::Unsupported`](crate::Error::Unsupported), before any request. Calling
    /// `first` again replaces the earlier `n`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let bottom_three = db.query(Score::partition("chess")).first(3).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn first(mut self, n: usize) -> Self {
        self.first = Some(n);
        self
    }

    /// The `n` items with the greatest sort keys, greatest first (a top-N): pages of `n` (at
    /// most `n` in total for [`all`](Query::all) and [`stream`](Query::stream)), each cursor
    /// going on with the next greatest. It sets both the order and the page size, so a query
    /// that also has [`descending`](Query::descending), [`limit`](Query::limit) or
    /// [`first`](Query::first), called before or after it, fails when sent with
    /// [`Error::Unsupported`](crate::Error::Unsupported), before any request. Calling `last`
    /// again replaces the earlier `n`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let top_three = db.query(Score::partition("chess")).last(3).all().await?; // greatest first
    /// # Ok(()) }
    /// ```
    pub fn last(mut self, n: usize) -> Self {
        self.last = Some(n);
        self
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet,
    /// which queries hide by default (on tables with a TTL attribute).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let all = db.query(Score::partition("chess")).include_expired().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Strongly consistent reads. The table and its local indexes offer them; on a global
    /// index the query fails before sending.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let fresh = db.query(Score::partition("chess")).consistent().all().await?;
    /// # Ok(()) }
    /// ```
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Resumes after the page that returned `cursor`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let page = db.query(Score::partition("chess")).limit(10).send().await?;
    /// if let Some(cursor) = page.cursor {
    ///     let next = db.query(Score::partition("chess")).limit(10).after(cursor).send().await?;
    /// }
    /// # Ok(()) }
    /// ```
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.after = Some(cursor);
        self
    }
}
