//! The example apps' table layouts, in one place so that the apps, the `infra` example
//! (which prints their infrastructure definitions) and the tests share them.

use dynamap::Table;

/// Seed 003's sensors: one table for every entity, generic key names, one index for
/// locations (the `sensors` example).
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub struct App;

/// Seed 001's games, users and orders (the `gaming` example).
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    // The leaderboard's sort key is the `TopScore` number attribute itself (seed 001's
    // GameTitle / TopScore index), not a rendered string.
    index(name = "Leaderboard", pk = "LB_PK", sk = "TopScore", sk_type = "N"),
    index(name = "FirstName", pk = "FN_PK", sk = "FN_SK"),
    index(name = "LastName", pk = "LN_PK", sk = "LN_SK")
)]
pub struct Gaming;

/// Seed 004's timelines, which live under their reader: `USER#<follower>`, newest last in
/// sort order, expiring after a month (the `timeline` example).
#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", ttl = "expires_at")]
pub struct Social;

/// Seed 000's table, with generic key names for single-table design (the `sleep_events`
/// example).
#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub struct SleepTable;

/// Seed 002's layout, which every rolled table has (the `iot` example).
#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub struct Iot;

/// The help desk whose tickets the `maintain` example migrates.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub struct HelpDesk;
