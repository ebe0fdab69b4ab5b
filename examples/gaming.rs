//! Seed 001's data models in one table: per-game leaderboards (top and bottom N through an
//! index whose sort key is the score itself, a number, so concurrent atomic increments keep
//! it in order), users found by first and by last name through two more indexes, and a
//! customer's orders between two dates with counts and pages. Matches are numbered from a
//! per-game counter and moderators added by concurrent callers, through the built-in retry
//! loops (`transact_retry`, `modify`) instead of hand-written ones.
//!
//! ```text
//! cargo run --example gaming
//! ```
//!
//! starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it writes to table
//! `gaming` at that endpoint and leaves it there to inspect.

use example_support::example_db;
use example_support::gaming::{Game, Match, Order, Score, User, user};
use example_support::tables::Gaming;
use time::macros::datetime;

fn board(scores: &[Score]) -> String {
    scores
        .iter()
        .map(|s| format!("{} {}", s.user_id, s.score))
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = example_db::<Gaming>("gaming").await?;

    let users = [
        user(
            "mza",
            "Matt",
            "Wood",
            "Cambridge",
            datetime!(2011-07-04 00:00 UTC),
        ),
        user(
            "jeffbarr",
            "Jeff",
            "Barr",
            "Seattle",
            datetime!(2012-01-20 00:00 UTC),
        ),
        user(
            "werner",
            "Werner",
            "Vogels",
            "Worldwide",
            datetime!(2011-05-15 00:00 UTC),
        ),
        user(
            "mattfox",
            "Matt",
            "Fox",
            "Seattle",
            datetime!(2012-02-01 00:00 UTC),
        ),
    ];
    for u in &users {
        db.put(u).await?;
    }
    let scores = [
        ("mza", 1200),
        ("jeffbarr", 870),
        ("werner", 2400),
        ("mattfox", -35),
    ];
    for (user_id, score) in scores {
        db.put(&Score {
            user_id: user_id.into(),
            game: "space-invaders".into(),
            score,
        })
        .await?;
        db.put(&Score {
            user_id: user_id.into(),
            game: "tetris".into(),
            score: score / 2 + 7,
        })
        .await?;
    }

    let leaderboard = || db.query(Score::leaderboard("space-invaders"));
    println!(
        "space-invaders top 3: {}",
        board(&leaderboard().last(3).send().await?.items)
    );
    println!(
        "space-invaders bottom 2: {}",
        board(&leaderboard().first(2).send().await?.items)
    );
    println!(
        "space-invaders scores above 1000: {}",
        leaderboard().sk_gt(1000i64).count().await?
    );
    println!(
        "tetris top 1: {}",
        board(
            &db.query(Score::leaderboard("tetris"))
                .last(1)
                .send()
                .await?
                .items
        )
    );

    // A tournament: twelve players, 120 score updates sent at once. Each is an atomic
    // `ADD` on the number the index sorts by, so none is lost and the board is right.
    for n in 1..=12 {
        db.put(&Score {
            user_id: format!("p{n:02}"),
            game: "meteor-blasters".into(),
            score: 0,
        })
        .await?;
    }
    let mut updates = Vec::new();
    for n in 1..=12i64 {
        for _ in 0..10 {
            let db = db.clone();
            updates.push(tokio::spawn(async move {
                db.update(Score::key(format!("p{n:02}"), "meteor-blasters"))
                    .increment(Score::SCORE, 5 * n)
                    .await
            }));
        }
    }
    let sent = updates.len();
    for update in updates {
        update.await??;
    }
    let top = db
        .query(Score::leaderboard("meteor-blasters"))
        .last(10)
        .send()
        .await?
        .items;
    println!(
        "meteor-blasters top 10 after {sent} concurrent increments: {}",
        board(&top)
    );

    record_matches(&db).await?;

    let names = |found: Vec<User>| {
        found
            .into_iter()
            .map(|u| format!("{} {} ({})", u.first_name, u.last_name, u.user_id))
            .collect::<Vec<_>>()
    };
    println!(
        "first name Matt: {:?}",
        names(db.query(User::first_name("Matt")).all().await?)
    );
    println!(
        "last name Vogels: {:?}",
        names(db.query(User::last_name("Vogels")).all().await?)
    );

    let orders = [
        ("100", datetime!(2012-05-16 09:00:10 UTC), 1, 25.00),
        ("101", datetime!(2012-05-15 15:00:11 UTC), 1, 35.00),
        ("101", datetime!(2012-05-16 12:00:10 UTC), 2, 100.00),
        ("102", datetime!(2012-03-20 18:23:10 UTC), 1, 20.00),
        ("102", datetime!(2012-03-20 18:23:10 UTC), 2, 120.00),
    ];
    for (customer, placed_at, number, total) in orders {
        db.put(&Order {
            customer: customer.into(),
            placed_at,
            number,
            total,
        })
        .await?;
    }
    for n in 3..=12 {
        let placed_at = datetime!(2012-04-01 10:00 UTC) + time::Duration::days(n.into());
        db.put(&Order {
            customer: "102".into(),
            placed_at,
            number: n,
            total: f64::from(n) * 10.0,
        })
        .await?;
    }
    let in_april = || {
        db.query(Order::partition("102")).sk_between(
            (datetime!(2012-04-01 00:00 UTC),),
            (datetime!(2012-04-30 23:59:59 UTC),),
        )
    };
    println!(
        "customer 102 orders in April 2012: {}",
        in_april().count().await?
    );
    let mut cursor = None;
    let mut page_number = 1;
    loop {
        let mut query = in_april().limit(4);
        if let Some(c) = cursor.take() {
            query = query.after(c);
        }
        let page = query.send().await?;
        let line: Vec<String> = page
            .items
            .iter()
            .map(|o| format!("#{} {} {:.2}", o.number, o.placed_at.date(), o.total))
            .collect();
        println!("  page {page_number}: {}", line.join(", "));
        match page.cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
        page_number += 1;
    }
    let same_second = db
        .query(Order::partition("102"))
        .sk_prefix(Order::sk().placed_at(datetime!(2012-03-20 18:23:10 UTC)))
        .all()
        .await?;
    println!(
        "customer 102 orders at 2012-03-20 18:23:10: {} (kept apart by order number)",
        same_second.len()
    );
    println!(
        "customer 101 orders before 2012-05-16: {}",
        db.query(Order::partition("101"))
            .sk_lt(Order::sk().placed_at(datetime!(2012-05-16 00:00 UTC)))
            .count()
            .await?
    );
    Ok(())
}

/// Twenty match results arrive at once. Each takes the next number from the game's counter
/// and creates the match in one transaction; a caller that read a counter someone else
/// moved on builds its transaction again (`transact_retry`). Five moderators are added at
/// once to the game's list, each through `modify`, which reads, changes and saves under the
/// version, and retries on a conflict.
async fn record_matches(db: &dynamap::Db<Gaming>) -> dynamap::Result<()> {
    let game = "meteor-blasters";
    let mut record = Game {
        game: game.into(),
        matches_played: 0,
        moderators: Vec::new(),
        version: 0,
    };
    db.save(&mut record).await?;
    let policy = dynamap::retry::RetryPolicy::default().max_attempts(100);
    let results: Vec<_> = (1..=20)
        .map(|n| {
            let db = db.clone();
            tokio::spawn(async move {
                let db = &db;
                let winner = &format!("p{:02}", n % 12 + 1);
                db.transact_retry_with(policy, || async move {
                    let mut record = db
                        .get(Game::key(game))
                        .consistent()
                        .await?
                        .expect("saved above");
                    record.matches_played += 1;
                    let played = Match {
                        game: game.into(),
                        number: record.matches_played,
                        winner: winner.clone(),
                    };
                    Ok(db.transaction().put(&record).create(&played))
                })
                .await
            })
        })
        .collect();
    for result in results {
        result.await.expect("task runs")?;
    }
    let moderators: Vec<_> = ["ada", "grace", "linus", "barbara", "ken"]
        .into_iter()
        .map(|name| {
            let db = db.clone();
            tokio::spawn(async move {
                db.modify_with(Game::key(game), policy, |g| g.moderators.push(name.into()))
                    .await
            })
        })
        .collect();
    for added in moderators {
        added.await.expect("task runs")?;
    }
    let record = db
        .get(Game::key(game))
        .consistent()
        .await?
        .expect("saved above");
    let matches = db.query(Match::partition(game)).all().await?;
    let numbered: Vec<u32> = matches.iter().map(|m| m.number).collect();
    println!(
        "{game} matches recorded concurrently: {} (numbered 1 to {} without gaps: {}), moderators: {}",
        matches.len(),
        record.matches_played,
        numbered == (1..=record.matches_played).collect::<Vec<_>>(),
        record.moderators.len()
    );
    Ok(())
}
