//! The sixty-field entity with nested values, twice: once with `#[derive(Attribute)]` on
//! its nested type (direct conversions), once with only serde derives on it (the serde
//! fallback), as a user who never heard of `Attribute` writes it.

// The derive's per-field attribute names and key builders, which the benchmark never calls.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::{Attribute, Entity};
use serde::{Deserialize, Serialize};

use crate::hand::{
    HandError, check_type, float, key, n, parse_n, read_strings, s, strings, take_bool, take_list,
    take_map, take_n, take_opt_s, take_s,
};
use crate::{Bench, Item};

/// An address with direct conversions.
#[derive(Attribute, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(crate) struct Address {
    street: String,
    city: String,
    zip: String,
    floor: i32,
}

/// The same address with only serde derives: stored through the serde fallback.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(crate) struct SerdeAddress {
    street: String,
    city: String,
    zip: String,
    floor: i32,
}

/// An address's hand-written conversions, the same for both.
trait HandAddress: Sized {
    fn to_hand(&self) -> AttributeValue;
    fn from_hand(value: AttributeValue) -> Result<Self, HandError>;
}

macro_rules! hand_address {
    ($($address:ident),*) => {$(
        impl HandAddress for $address {
            fn to_hand(&self) -> AttributeValue {
                let mut map = Item::with_capacity(4);
                map.insert("street".to_owned(), s(&self.street));
                map.insert("city".to_owned(), s(&self.city));
                map.insert("zip".to_owned(), s(&self.zip));
                map.insert("floor".to_owned(), n(self.floor));
                AttributeValue::M(map)
            }

            fn from_hand(value: AttributeValue) -> Result<Self, HandError> {
                let AttributeValue::M(mut map) = value else {
                    return Err(HandError("address", "not a map"));
                };
                Ok($address {
                    street: take_s(&mut map, "street")?,
                    city: take_s(&mut map, "city")?,
                    zip: take_s(&mut map, "zip")?,
                    floor: take_n(&mut map, "floor")?,
                })
            }
        }
    )*};
}

hand_address!(Address, SerdeAddress);

/// Declares a sixty-field entity with the scalar fields listed (strings, integers, floats,
/// flags) and ten nested ones, and writes its hand-written conversions: one line per field,
/// as a user would write them (the macro only saves typing them out).
macro_rules! profile {
    (
        $profile:ident, $entity:literal, $address:ident, $sample:ident, $to_hand:ident, $from_hand:ident;
        strings: [$($s:ident),*],
        integers: [$($i:ident),*],
        floats: [$($f:ident),*],
        flags: [$($b:ident),*] $(,)?
    ) => {
        #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
        #[dynamap(table = Bench, entity = $entity, pk = "PROFILE#{id}", sk = "PROFILE")]
        pub(crate) struct $profile {
            id: String,
            $($s: String,)*
            $($i: i64,)*
            $($f: f64,)*
            $($b: bool,)*
            nickname: Option<String>,
            last_login: Option<i64>,
            home: $address,
            addresses: Vec<$address>,
            scores: HashMap<String, i64>,
            tags: Vec<String>,
            ratings: Vec<f64>,
            settings: BTreeMap<String, bool>,
            friends: Vec<String>,
        }

        pub(crate) fn $sample(i: usize) -> $profile {
            let mut k = i;
            let mut next = || { k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); k };
            $profile {
                id: format!("user-{i:08}"),
                $($s: format!("{}-{}", stringify!($s), next() % 1000),)*
                $($i: (next() % 1_000_000) as i64,)*
                $($f: (next() % 10_000) as f64 / 7.0,)*
                $($b: next() % 2 == 0,)*
                nickname: i.is_multiple_of(3).then(|| format!("nick-{i}")),
                last_login: i.is_multiple_of(2).then_some(1_700_000_000 + i as i64),
                home: $address { street: format!("Main St {}", i % 100), city: "Berlin".into(), zip: "10115".into(), floor: (i % 9) as i32 },
                addresses: (0..3).map(|j| $address { street: format!("Side St {j}"), city: "Hamburg".into(), zip: format!("2{j:04}"), floor: j }).collect(),
                scores: (0..4).map(|j| (format!("game-{j}"), (next() % 5000) as i64)).collect(),
                tags: (0..5).map(|j| format!("tag-{j}")).collect(),
                ratings: (0..6).map(|j| j as f64 * 0.5 + (i % 3) as f64).collect(),
                settings: [("dark_mode", true), ("emails", false), ("beta", i.is_multiple_of(2))].into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
                friends: (0..8).map(|j| format!("user-{:08}", (i + j) % 1000)).collect(),
            }
        }

        pub(crate) fn $to_hand(p: &$profile) -> Item {
            let mut item = Item::with_capacity(64);
            item.insert("PK".to_owned(), key("PROFILE#", &p.id));
            item.insert("SK".to_owned(), s("PROFILE"));
            item.insert("_type".to_owned(), s($entity));
            item.insert("id".to_owned(), s(&p.id));
            $(item.insert(stringify!($s).to_owned(), s(&p.$s));)*
            $(item.insert(stringify!($i).to_owned(), n(p.$i));)*
            $(item.insert(stringify!($f).to_owned(), float(p.$f));)*
            $(item.insert(stringify!($b).to_owned(), AttributeValue::Bool(p.$b));)*
            if let Some(nickname) = &p.nickname {
                item.insert("nickname".to_owned(), s(nickname));
            }
            if let Some(last_login) = p.last_login {
                item.insert("last_login".to_owned(), n(last_login));
            }
            item.insert("home".to_owned(), p.home.to_hand());
            item.insert("addresses".to_owned(), AttributeValue::L(p.addresses.iter().map(HandAddress::to_hand).collect()));
            item.insert("scores".to_owned(), AttributeValue::M(p.scores.iter().map(|(k, v)| (k.clone(), n(*v))).collect()));
            item.insert("tags".to_owned(), strings(&p.tags));
            item.insert("ratings".to_owned(), AttributeValue::L(p.ratings.iter().map(|r| float(*r)).collect()));
            item.insert("settings".to_owned(), AttributeValue::M(p.settings.iter().map(|(k, v)| (k.clone(), AttributeValue::Bool(*v))).collect()));
            item.insert("friends".to_owned(), strings(&p.friends));
            item
        }

        pub(crate) fn $from_hand(mut item: Item) -> Result<$profile, HandError> {
            check_type(&item, $entity)?;
            Ok($profile {
                id: take_s(&mut item, "id")?,
                $($s: take_s(&mut item, stringify!($s))?,)*
                $($i: take_n(&mut item, stringify!($i))?,)*
                $($f: take_n(&mut item, stringify!($f))?,)*
                $($b: take_bool(&mut item, stringify!($b))?,)*
                nickname: take_opt_s(&mut item, "nickname")?,
                last_login: match item.remove("last_login") {
                    None | Some(AttributeValue::Null(_)) => None,
                    Some(value) => Some(parse_n(&value, "last_login")?),
                },
                home: $address::from_hand(item.remove("home").ok_or(HandError("home", "missing"))?)?,
                addresses: take_list(&mut item, "addresses")?.into_iter().map($address::from_hand).collect::<Result<_, _>>()?,
                scores: take_map(&mut item, "scores")?.into_iter().map(|(k, v)| Ok((k, parse_n(&v, "scores")?))).collect::<Result<_, HandError>>()?,
                tags: read_strings(take_list(&mut item, "tags")?, "tags")?,
                ratings: take_list(&mut item, "ratings")?.iter().map(|v| parse_n(v, "ratings")).collect::<Result<_, _>>()?,
                settings: take_map(&mut item, "settings")?.into_iter().map(|(k, v)| match v {
                    AttributeValue::Bool(b) => Ok((k, b)),
                    _ => Err(HandError("settings", "not a boolean")),
                }).collect::<Result<_, _>>()?,
                friends: read_strings(take_list(&mut item, "friends")?, "friends")?,
            })
        }
    };
}

/// Declares one sixty-field entity: the same fields for both.
macro_rules! sixty_fields {
    ($($entity:tt)*) => {
        profile! {
            $($entity)*
            strings: [first_name, last_name, email, phone, company, title, department, country, region,
                      language, timezone, currency, avatar_url, bio, website, referrer, plan, status,
                      theme, locale, motto],
            integers: [age, logins, posts, comments, likes, followers, following, credits, level,
                       experience, streak, warnings, invites, uploads, downloads],
            floats: [balance, rating, karma, latitude, longitude],
            flags: [verified, premium, admin, banned, newsletter, two_factor, public_profile,
                    searchable, archived],
        }
    };
}

sixty_fields!(Profile, "Profile", Address, profile, profile_to_item, profile_from_item;);
sixty_fields!(
    SerdeProfile, "SerdeProfile", SerdeAddress, serde_profile, serde_profile_to_item,
    serde_profile_from_item;
);
