//! Seed 001's games, users and orders: the entities of the `gaming` example, here so that
//! the `model` example draws the very types the app stores.

use dynamap::Entity;
use dynamap::model::Model;
use time::{OffsetDateTime, macros::datetime};

use crate::tables::Gaming;

/// A player, findable by first name and by last name.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Gaming,
    entity = "User",
    pk = "USER#{user_id}",
    sk = "PROFILE",
    index(name = "FirstName", pk = "FIRST#{first_name}", sk = "USER#{user_id}"),
    index(name = "LastName", pk = "LAST#{last_name}", sk = "USER#{user_id}")
)]
pub struct User {
    /// The player's id.
    pub user_id: String,
    /// First name, indexed.
    pub first_name: String,
    /// Last name, indexed.
    pub last_name: String,
    /// Where the player lives.
    pub location: String,
    /// When the player joined.
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub joined: OffsetDateTime,
}

/// A player's top score in one game; the leaderboard index orders a game's scores by the
/// `TopScore` attribute, so `increment(Score::SCORE, n)` moves the player on the board in
/// one UpdateItem, with no read.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Gaming,
    entity = "Score",
    pk = "USER#{user_id}",
    sk = "GAME#{game}",
    index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score))
)]
pub struct Score {
    /// The player.
    pub user_id: String,
    /// The game.
    pub game: String,
    /// The top score, stored as `TopScore`: the leaderboard's sort key.
    #[dynamap(rename = "TopScore")]
    pub score: i64,
}

/// A game's own record: how many matches were played (the next match's number comes from
/// it) and who moderates it. Versioned, so concurrent read-modify-writes cannot overwrite
/// each other.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Gaming, entity = "Game", pk = "GAME#{game}", sk = "GAME")]
pub struct Game {
    /// The game's name.
    pub game: String,
    /// Matches played so far.
    pub matches_played: u32,
    /// Who moderates it.
    pub moderators: Vec<String>,
    /// The optimistic-locking version.
    #[dynamap(version)]
    pub version: u64,
}

/// One match, numbered within its game.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Gaming, entity = "Match", pk = "GAME#{game}", sk = "MATCH#{number}")]
pub struct Match {
    /// The game.
    pub game: String,
    /// Its number within the game.
    pub number: u32,
    /// Who won.
    pub winner: String,
}

/// An order; two orders placed at the same second stay apart by their number.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Gaming, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{placed_at}#{number}")]
pub struct Order {
    /// Who ordered.
    pub customer: String,
    /// When.
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub placed_at: OffsetDateTime,
    /// Its number, apart from others of the same second.
    pub number: u32,
    /// The amount.
    pub total: f64,
}

/// A player, from borrowed text.
pub fn user(
    user_id: &str,
    first: &str,
    last: &str,
    location: &str,
    joined: OffsetDateTime,
) -> User {
    User {
        user_id: user_id.into(),
        first_name: first.into(),
        last_name: last.into(),
        location: location.into(),
        joined,
    }
}

/// The data model of the gaming table, with one sample of each entity.
///
/// # Errors
///
/// Fails when a sample does not encode.
pub fn model() -> dynamap::Result<Model<Gaming>> {
    let joined = datetime!(2020-01-15 09:00 UTC);
    Model::<Gaming>::new("gaming")
        .entity::<User>()
        .entity::<Score>()
        .entity::<Game>()
        .entity::<Match>()
        .entity::<Order>()
        .pattern::<Score>(Some("Leaderboard"), "Top and bottom N of a game")
        .pattern::<User>(Some("FirstName"), "Users by first name")
        .pattern::<User>(Some("LastName"), "Users by last name")
        .pattern::<Order>(None, "A customer's orders between two dates")
        .sample(&user("u1", "Ada", "Lovelace", "London", joined))?
        .sample(&Score {
            user_id: "u1".into(),
            game: "chess".into(),
            score: 2100,
        })?
        .sample(&Game {
            game: "chess".into(),
            matches_played: 1,
            moderators: vec!["u1".into()],
            version: 1,
        })?
        .sample(&Match {
            game: "chess".into(),
            number: 1,
            winner: "u1".into(),
        })?
        .sample(&Order {
            customer: "u1".into(),
            placed_at: joined,
            number: 1,
            total: 12.5,
        })
}
