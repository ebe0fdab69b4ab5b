//! The data model drawn from the code (`dynamap::model::Model`): the charts of a layout with
//! every kind of key (templates, computed parts and shards, lookups, a key that is a field's
//! own attribute, multi-attribute keys, a local index, TTL), the NoSQL Workbench model
//! against a public sample and against the CreateTable request, the sensors example's chart
//! in the guide, and the HTML page in a real browser. No DynamoDB needed.

mod browser;
mod charts;
mod example;
mod guide;
mod rows;
mod workbench;

use dynamap::model::Model;
use dynamap::{Entity, EntityEnum, Table};
use time::{Date, OffsetDateTime, macros::datetime};

/// Every kind of index: a global one of templates, a multi-attribute one, one whose sort
/// key is a number attribute, a local one, and TTL.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    ttl = "expires_at",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(
        name = "ByStatus",
        pk("owner", "repo"),
        sk("status", "number"),
        sk_type("S", "N")
    ),
    index(name = "Leaderboard", pk = "LB_PK", sk = "score", sk_type = "N"),
    local_index(name = "ByDate", sk = "LSI1SK")
)]
pub(crate) struct Shop;

fn day_of(at: &OffsetDateTime) -> Date {
    at.date()
}

/// Computed parts, a shard, a lookup and a TTL.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Deal", pk = "DEAL#{id}", sk = "DEAL",
          computed(day: Date = day_of(posted_at)),
          shard(of(id), count = 4),
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{posted_at}#{id}"),
          lookup(name = "brand", pk = "BRAND#{brand}", sk = "DEAL#{id}"))]
pub(crate) struct Deal {
    pub(crate) id: String,
    pub(crate) brand: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub(crate) posted_at: OffsetDateTime,
    #[dynamap(ttl)]
    pub(crate) expires_at: OffsetDateTime,
}

/// A multi-attribute index key and a local index.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Issue", pk = "REPO#{owner}#{repo}", sk = "ISSUE#{number}",
          index(name = "ByStatus", pk = fields(owner, repo), sk = fields(status, number)),
          local_index(name = "ByDate", sk = "DATE#{opened}"))]
pub(crate) struct Issue {
    pub(crate) owner: String,
    pub(crate) repo: String,
    pub(crate) number: u32,
    pub(crate) status: String,
    pub(crate) opened: String,
}

/// An index sort key that is the field's own number attribute.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Shop, entity = "Player", pk = "PLAYER#{name}", sk = "PLAYER",
          index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score)))]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) game: String,
    pub(crate) score: u64,
}

/// Two entity types of the shop, added to a model in one call.
#[derive(EntityEnum, Debug)]
pub(crate) enum ShopItem {
    Deal(Deal),
    Issue(Issue),
}

pub(crate) fn shop_model() -> dynamap::Result<Model<Shop>> {
    Model::<Shop>::new("shop")
        .entity::<ShopItem>()
        .entity::<Player>()
        .sample(&Deal {
            id: "D1".into(),
            brand: "Acme".into(),
            posted_at: datetime!(2026-03-01 12:00 UTC),
            expires_at: datetime!(2026-04-01 00:00 UTC),
        })?
        .sample(&Issue {
            owner: "rust-lang".into(),
            repo: "rust".into(),
            number: 7,
            status: "open".into(),
            opened: "2026-01-02".into(),
        })?
        .sample(&Player {
            name: "ada".into(),
            game: "chess".into(),
            score: 2100,
        })
}
