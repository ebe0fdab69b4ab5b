//! Helpers shared by the example apps.

pub mod gaming;
pub mod iot;
pub mod live_rekey;
pub mod nights;
pub mod sensors;
pub mod sleep;
pub mod tables;
pub mod timeline;

use dynamap::{Db, Table};
use dynamap_local::DynamoLocal;

/// The table an example works in.
///
/// With `AWS_ENDPOINT_URL_DYNAMODB` set, the example uses that endpoint and a table named
/// `name`, created if missing and left in place afterwards so the data can be inspected.
/// Otherwise it starts DynamoDB Local (installing it on first use) and works in a fresh
/// table that disappears with the server when the example ends.
pub async fn example_db<T: Table>(name: &str) -> dynamap_local::Result<Db<T>> {
    let local = DynamoLocal::shared()?;
    if local.is_external() {
        let db = Db::new(local.client(), name);
        db.create_table().await?;
        println!(
            "using {} (table `{name}` is left in place)",
            local.endpoint()
        );
        Ok(db)
    } else {
        let db = local.fresh_db::<T>(name).await?;
        println!(
            "started DynamoDB Local at {} (table `{}`)",
            local.endpoint(),
            db.table_name()
        );
        Ok(db)
    }
}

/// A timestamp as people read it: RFC 3339 in UTC, e.g. `2020-03-01T12:35:00Z`.
pub fn rfc3339(at: time::OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .format(&time::format_description::well_known::Rfc3339)
        // RFC 3339 has no room for years outside 0000-9999; show those as `time` does.
        .unwrap_or_else(|_| at.to_string())
}
