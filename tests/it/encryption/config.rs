//! The attribute actions the derives give a table.

use dynamap::{Entity, Error};
use dynamap_encryption::{Action, TableEncryption};

use super::{Clinic, encryption};

#[test]
fn actions_follow_the_fields() {
    let actions = encryption("clinic").attribute_actions().expect("actions");
    let of = |name: &str| actions.get(name).copied();
    assert_eq!(of("PK"), Some(Action::SignOnly));
    assert_eq!(of("SK"), Some(Action::SignOnly));
    assert_eq!(of("diagnosis"), Some(Action::Encrypt));
    assert_eq!(of("notes"), Some(Action::Encrypt));
    assert_eq!(of("insurer"), Some(Action::SignOnly));
    for plain in [
        "_type",
        "GSI1PK",
        "GSI1SK",
        "ward",
        "visits",
        "version",
        "beds",
        "_owner_pk",
    ] {
        assert_eq!(of(plain), Some(Action::Plain), "{plain}");
    }
}

/// A second entity storing `diagnosis` in the clear.
#[derive(Entity)]
#[dynamap(table = Clinic, entity = "Leaflet", pk = "LEAFLET#{id}", sk = "LEAFLET")]
struct Leaflet {
    id: String,
    diagnosis: String,
}

#[test]
fn one_attribute_with_two_actions_is_refused_naming_both_entities() {
    let error = TableEncryption::<Clinic>::new("clinic")
        .entity::<super::Patient>()
        .entity::<Leaflet>()
        .attribute_actions()
        .expect_err("conflict");
    let Error::InvalidSetting { reason, .. } = &error else {
        panic!("{error:?}")
    };
    assert!(
        reason.contains("`diagnosis`")
            && reason.contains("`Patient`")
            && reason.contains("`Leaflet`"),
        "{reason}"
    );
}
