//! Writes of an entity with lookup items decide a lost race the same way alone and in a
//! transaction: another writer creates the owner just before the write's transaction is
//! sent and deletes it just after (injected by an SDK interceptor), so the owner reads the
//! same before and after. A write without a condition of the caller's starts over and
//! succeeds; a conditional one (create, `if_exists`) reports its failed condition.

use std::sync::Arc;

use dynamap::{Db, Error};

use crate::around_transaction::{AroundTransaction, raced_by};
use crate::models::App;
use crate::write_models::Member;
use crate::{fresh_db, raw_item};

fn member() -> Member {
    Member {
        id: "m1".into(),
        email: "m1@example.com".into(),
    }
}

/// Two handles on one table: `other`, the other writer, and the writer under test, whose
/// transactions `other` writes around once armed by [`arm`].
async fn racing_db(test: &str) -> (Db<App>, Db<App>, Arc<AroundTransaction>) {
    let other = fresh_db::<App>(test).await;
    let (db, race) = raced_by(&other);
    (other, db, race)
}

/// The other writer creates `member` just before the next transaction leaves and deletes
/// it once the answer is back, so the owner reads the same before and after.
fn arm(race: &AroundTransaction, other: &Db<App>, member: &Member) {
    race.arm(other.put(member), other.delete(Member::key(&member.id)));
}

async fn stored<L: dynamap::Table>(db: &Db<L>, member: &Member) -> (bool, bool) {
    (
        raw_item(db, &format!("MEMBER#{}", member.id), "PROFILE")
            .await
            .is_some(),
        raw_item(db, &format!("EMAIL#{}", member.email), "EMAIL")
            .await
            .is_some(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_without_a_condition_start_over_alone_and_in_transactions() {
    let (other, db, race) = racing_db("tx_race_unconditional").await;
    let member = member();
    let key = || Member::key(&member.id);

    arm(&race, &other, &member);
    db.transaction()
        .delete(key())
        .send()
        .await
        .expect("a transaction's delete without a condition");
    assert_eq!(race.sent(), 2, "sent again after the race");
    assert_eq!(stored(&db, &member).await, (false, false));

    arm(&race, &other, &member);
    db.transaction()
        .put(&member)
        .send()
        .await
        .expect("a transaction's put without a condition");
    assert_eq!(race.sent(), 2, "sent again after the race");
    assert_eq!(stored(&db, &member).await, (true, true));

    db.delete(key()).await.expect("clean up");
    arm(&race, &other, &member);
    db.put(&member).await.expect("a put without a condition");
    assert_eq!(race.sent(), 2, "sent again after the race");
    assert_eq!(stored(&db, &member).await, (true, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_writes_report_their_condition_alone_and_in_transactions() {
    let (other, db, race) = racing_db("tx_race_conditional").await;
    let member = member();

    arm(&race, &other, &member);
    let alone = db
        .create(&member)
        .await
        .expect_err("the item existed when sent");
    arm(&race, &other, &member);
    let in_transaction = db
        .transaction()
        .create(&member)
        .send()
        .await
        .expect_err("the item existed when sent");
    for err in [alone, in_transaction] {
        assert!(err.is_conditional_check_failed(), "{err:?}");
        assert!(!matches!(err, Error::Contention { .. }), "{err:?}");
    }
    assert_eq!(race.sent(), 1, "not sent again");
    assert_eq!(stored(&db, &member).await, (false, false));

    arm(&race, &other, &member);
    let err = db
        .transaction()
        .delete(db.delete(Member::key(&member.id)).if_exists())
        .send()
        .await
        .expect_err("no item to delete");
    assert!(err.is_conditional_check_failed(), "{err:?}");
}
