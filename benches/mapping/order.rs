//! The ten-field entity: strings, numbers, a flag, an option and a list.

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::Entity;
use serde::{Deserialize, Serialize};

use crate::hand::{
    HandError, check_type, float, key, n, read_strings, s, strings, take_bool, take_list, take_n,
    take_opt_s, take_s,
};
use crate::{Bench, Item};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamap(table = Bench, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{id}")]
pub(crate) struct Order {
    customer: String,
    id: String,
    status: String,
    total: f64,
    items: u32,
    paid: bool,
    note: Option<String>,
    created: i64,
    currency: String,
    tags: Vec<String>,
}

pub(crate) fn order(i: usize) -> Order {
    Order {
        customer: format!("customer-{}", i % 97),
        id: format!("order-{i:08}"),
        status: ["open", "paid", "shipped"][i % 3].to_owned(),
        total: 10.0 + (i % 1000) as f64 * 0.25,
        items: (i % 12) as u32 + 1,
        paid: !i.is_multiple_of(3),
        note: i
            .is_multiple_of(4)
            .then(|| format!("leave at door {}", i % 7)),
        created: 1_700_000_000 + i as i64,
        currency: "EUR".to_owned(),
        tags: vec!["gift".to_owned(), format!("batch-{}", i % 5)],
    }
}

pub(crate) fn order_to_item(o: &Order) -> Item {
    let mut item = Item::with_capacity(13);
    item.insert("PK".to_owned(), key("CUSTOMER#", &o.customer));
    item.insert("SK".to_owned(), key("ORDER#", &o.id));
    item.insert("_type".to_owned(), s("Order"));
    item.insert("customer".to_owned(), s(&o.customer));
    item.insert("id".to_owned(), s(&o.id));
    item.insert("status".to_owned(), s(&o.status));
    item.insert("total".to_owned(), float(o.total));
    item.insert("items".to_owned(), n(o.items));
    item.insert("paid".to_owned(), AttributeValue::Bool(o.paid));
    if let Some(note) = &o.note {
        item.insert("note".to_owned(), s(note));
    }
    item.insert("created".to_owned(), n(o.created));
    item.insert("currency".to_owned(), s(&o.currency));
    item.insert("tags".to_owned(), strings(&o.tags));
    item
}

pub(crate) fn order_from_item(mut item: Item) -> Result<Order, HandError> {
    check_type(&item, "Order")?;
    Ok(Order {
        customer: take_s(&mut item, "customer")?,
        id: take_s(&mut item, "id")?,
        status: take_s(&mut item, "status")?,
        total: take_n(&mut item, "total")?,
        items: take_n(&mut item, "items")?,
        paid: take_bool(&mut item, "paid")?,
        note: take_opt_s(&mut item, "note")?,
        created: take_n(&mut item, "created")?,
        currency: take_s(&mut item, "currency")?,
        tags: read_strings(take_list(&mut item, "tags")?, "tags")?,
    })
}
