//! Previews of transactions: the request `send` would make, built by the same code (see
//! [`crate::preview`]).

use super::Transaction;
use crate::Result;

impl<L> Transaction<L> {
    /// The request [`send`](Transaction::send) would make, not sent (see
    /// [`crate::preview`]): every action with its item or key, condition, names and
    /// values; the `ClientRequestToken` only when [`idempotency_token`](Transaction::idempotency_token)
    /// gave one. None for an empty transaction.
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending (an action's error, a limit), and
    /// [`Error::Unsupported`](crate::Error::Unsupported) when an action is of an entity with lookup items, whose
    /// actions depend on what is stored.
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
    pub fn preview(&self) -> Result<crate::preview::Preview> {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        if let Some((index, _)) = self.synced.first() {
            let entity = self.actions.get(*index).map_or("", |a| a.entity);
            return Err(crate::preview::lookups_unsupported(
                "TransactWriteItems",
                entity,
            ));
        }
        crate::write::preview_actions(&self.db, self.actions.clone(), self.token.clone())
    }
}
