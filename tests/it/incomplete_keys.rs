//! An update that leaves keys half-set is refused naming every one of them, indexes and
//! lookups alike, with every field to add: the caller fixes the update in one pass instead
//! of meeting the next key on each try.

use dynamap::{Entity, Error, IncompleteKey, Table};

use crate::{fresh_db, raw_item};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(name = "GSI2", pk = "GSI2PK", sk = "GSI2SK")
)]
struct Store;

/// `floor` is in three keys, each with another field.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Store, entity = "Shelf", pk = "SHELF#{id}", sk = "SHELF",
          index(name = "GSI1", pk = "CITY#{city}", sk = "AT#{building}#{floor}"),
          index(name = "GSI2", pk = "FLOOR#{floor}", sk = "ROOM#{floor}#{room}"),
          lookup(name = "spot", pk = "SPOT#{floor}#{aisle}", sk = "SPOT"))]
struct Shelf {
    id: String,
    city: String,
    building: String,
    floor: u32,
    room: String,
    aisle: String,
}

#[tokio::test]
async fn every_half_set_key_is_named_in_one_error() {
    let db = fresh_db::<Store>("incomplete_keys").await;
    let shelf = Shelf {
        id: "s1".into(),
        city: "Poznań".into(),
        building: "A".into(),
        floor: 2,
        room: "13".into(),
        aisle: "7".into(),
    };
    db.put(&shelf).await.expect("put");
    let before = raw_item(&db, "SHELF#s1", "SHELF").await;

    let err = db
        .update(Shelf::key("s1"))
        .set(Shelf::FLOOR, 3u32)
        .await
        .expect_err("three keys need more than the floor");
    let Error::IncompleteKeyUpdate {
        entity,
        missing,
        keys,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(*entity, "Shelf");
    assert_eq!(missing, &["building", "room", "aisle"], "{err}");
    let named: Vec<(&str, &[&str])> = keys
        .iter()
        .map(|k: &IncompleteKey| (k.key.as_str(), k.missing.as_slice()))
        .collect();
    assert_eq!(
        named,
        [
            ("index `GSI1`'s sort key", &["building"][..]),
            ("index `GSI2`'s sort key", &["room"][..]),
            ("lookup `spot`'s key", &["aisle"][..]),
        ]
    );
    for field in ["`building`", "`room`", "`aisle`", "GSI1", "GSI2", "spot"] {
        assert!(err.to_string().contains(field), "{field} in {err}");
    }
    assert_eq!(
        raw_item(&db, "SHELF#s1", "SHELF").await,
        before,
        "nothing sent"
    );

    // What the error names is all the update needs.
    db.update(Shelf::key("s1"))
        .set(Shelf::FLOOR, 3u32)
        .set(Shelf::BUILDING, "B")
        .set(Shelf::ROOM, "1")
        .set(Shelf::AISLE, "9")
        .await
        .expect("every key renders");
    let stored = db
        .get(Shelf::key("s1"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!((stored.floor, stored.aisle.as_str()), (3, "9"));
}
