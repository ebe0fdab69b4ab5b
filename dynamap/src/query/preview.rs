//! Previews of queries and scans: the first request `send` would make, built by the same
//! code (see [`crate::preview`]).

use super::page_fill::PageFill;
use super::{Decode, Query, Scan};
use crate::Result;
use crate::preview::{Preview, Request, input_of};

impl<T: Decode, S> Query<T, S> {
    /// The request [`send`](Query::send) would make first, not sent: the key condition,
    /// filter, names and values, index, `Limit` (one more than a page, to know whether
    /// more follow), projection, direction and start key (from [`after`](Query::after)).
    /// Later pages' requests differ only in their start key and limit; [`all`](Query::all)
    /// asks for the page size itself, [`count`](Query::count) for `Select: COUNT`. A query
    /// over several partitions read merged starts with one request per shard of the first
    /// partition it reads, sent together: those are its preview.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String, note: Option<String> }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let top = db.query(Score::partition("chess")).descending().limit(10);
    /// println!("{}", top.preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Those [`send`](Query::send) fails with before sending.
    pub fn preview(&self) -> Result<Preview> {
        if let Some(groups) = &self.groups {
            return self.preview_merged(groups.clone());
        }
        let prepared = self.prepare()?;
        let start = prepared.start_key(&self.db, self.after.as_ref())?;
        let limit = PageFill::<T, ()>::new(self.page_limit()).request_limit();
        let request = prepared.request(&self.db, start, limit, false);
        Ok(Preview::one(Request::Query(input_of!(request, "Query")?)))
    }
}

impl<T: Decode> Scan<T> {
    /// The request [`send`](Scan::send) would make first, not sent: the filter, names and
    /// values, index, segment (the first, or the cursor's) and start key. Later pages'
    /// requests differ only in their start key and segment.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String, city: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// println!("{}", db.scan::<Sensor>().filter(Sensor::CITY.eq("Poznań")).preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Those [`send`](Scan::send) fails with before sending.
    pub fn preview(&self) -> Result<Preview> {
        let prepared = self.prepare()?;
        let (segment, start) = match &self.after {
            Some(after) => self.resume(&prepared, after)?,
            None => (0, None),
        };
        let request = self.builder(&prepared, segment, start, false);
        Ok(Preview::one(Request::Scan(input_of!(request, "Scan")?)))
    }
}
