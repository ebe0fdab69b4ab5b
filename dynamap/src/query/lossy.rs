//! Reading past items that do not decode. A query or scan made [`lossy`](Query::lossy)
//! returns each item as a `Result`: an item stored in an older shape, or corrupted, fails
//! alone with its decoding error, which names its primary key
//! ([`Error::item_key`](crate::Error::item_key)), and the others are returned. Cursors,
//! limits, filters, `all` and `stream` work as for the entity itself.

use super::{Decode, Query, Scan, UnknownEntity};
use crate::codec::Item;
use crate::key::ItemKey;
use crate::table::Table;
use crate::{Error, ErrorKind, Result};

/// An item that does not decode ([`ErrorKind::Decode`]) is an `Err` naming its key; any
/// other error still ends the read.
impl<T: Decode> Decode for std::result::Result<T, Error> {
    type Table = T::Table;
    const SINGLE_ENTITY: Option<&'static str> = T::SINGLE_ENTITY;
    const ALIASES: &'static [&'static str] = T::ALIASES;
    const ENTITY_TYPES: &'static [&'static str] = T::ENTITY_TYPES;

    fn decode(item: Item, unknown: UnknownEntity) -> Result<Option<Self>> {
        let schema = <T::Table as Table>::SCHEMA;
        // Taken before decoding consumes the item: the price of naming a failed one.
        let key = ItemKey::of(&item, schema.pk, schema.sk);
        match T::decode(item, unknown) {
            Ok(decoded) => Ok(decoded.map(Ok)),
            Err(err) if err.kind() == ErrorKind::Decode => Ok(Some(Err(err.at_item(|| key)))),
            Err(err) => Err(err),
        }
    }
}

impl<T: Decode, S> Query<T, S> {
    /// Returns each item as a `Result`, so an item that does not decode (stored in an older
    /// shape, or corrupted) fails alone, with an error naming its key, instead of failing
    /// the whole page. Everything else about the query stays as it is.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Score", pk = "GAME#{game}", sk = "SCORE#{score}#{user}")]
    /// # struct Score { game: String, score: i64, user: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let page = db.query(Score::partition("chess")).lossy().send().await?;
    /// for item in page.items {
    ///     match item {
    ///         Ok(score) => println!("{score:?}"),
    ///         Err(err) => eprintln!("skipped {:?}: {err}", err.item_key()),
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn lossy(self) -> Query<std::result::Result<T, Error>, S> {
        self.retarget()
    }
}

impl<T: Decode> Scan<T> {
    /// Returns each item as a `Result`, as [`Query::lossy`] does: an item that does not
    /// decode fails alone, with an error naming its key.
    pub fn lossy(self) -> Scan<std::result::Result<T, Error>> {
        self.retarget()
    }
}
