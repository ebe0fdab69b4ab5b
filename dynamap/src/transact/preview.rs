//! Previews of transactions: the request `send` would make, built by the same code (see
//! [`crate::preview`]).

use super::Transaction;
use crate::Result;
use crate::preview::Preview;

impl<L> Transaction<L> {
    /// The request [`send`](Transaction::send) would make, not sent (see
    /// [`crate::preview`]): every action with its item or key, condition, names and
    /// values; the `ClientRequestToken` only when [`idempotency_token`](Transaction::idempotency_token)
    /// gave one. None for an empty transaction. A transaction holding a write of an entity
    /// with lookup items first reads, for each such write, the lookups its stored item
    /// records: its preview is those reads (see [`crate::preview`]).
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending (an action's error, a limit).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # fn example(db: dynamap::Db<App>, alice: Account) -> dynamap::Result<()> {
    /// let tx = db.transaction().create(&alice).delete(Account::key("bob"));
    /// println!("{}", tx.preview()?);
    /// # Ok(()) }
    /// ```
    pub fn preview(&self) -> Result<Preview> {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        if !self.synced.is_empty() {
            let reads = self.synced.iter().map(|(_, s)| s.read_preview(&self.db));
            return Ok(Preview::lookup_reads(reads.collect::<Result<_>>()?));
        }
        crate::write::preview_actions(&self.db, self.actions.clone(), self.token.clone())
    }
}
