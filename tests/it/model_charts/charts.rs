//! The charts of every kind of key, as Markdown, and the HTML page's content.

use super::{Deal, Shop, shop_model};
use dynamap::model::Model;

fn lines(markdown: &str) -> Vec<&str> {
    markdown.lines().collect()
}

#[test]
fn entity_chart_puts_each_key_of_each_entity_in_its_attribute_column() {
    let markdown = shop_model().expect("the model").markdown();
    let expected = [
        "| Entity | PK | SK | GSI1PK | GSI1SK | owner | repo | status | number | LB_PK | score | LSI1SK |",
        "| Deal | `DEAL#{id}` | `DEAL` | `DEALS#{day}#{shard}` | `{posted_at}#{id}` |  |  |  |  |  |  |  |",
        "| Deal.brand (lookup) | `BRAND#{brand}` | `DEAL#{id}` |  |  |  |  |  |  |  |  |  |",
        // A multi-attribute key: each attribute is the field's own; a local index keeps the
        // table's partition key.
        "| Issue | `REPO#{owner}#{repo}` | `ISSUE#{number}` |  |  | `{owner}` | `{repo}` | `{status}` | `{number}` |  |  | `DATE#{opened}` |",
        // The EntityEnum's entities first, then the one added by itself.
        "| Player | `PLAYER#{name}` | `PLAYER` |  |  |  |  |  |  | `GAME#{game}` | `{score}` |  |",
    ];
    let found = lines(&markdown);
    let at = found
        .iter()
        .position(|l| *l == expected[0])
        .unwrap_or_else(|| panic!("no entity chart header in\n{markdown}"));
    assert_eq!(found[at + 1].matches("---").count(), 12);
    assert_eq!(&found[at + 2..at + 6], &expected[1..], "{markdown}");
}

#[test]
fn access_patterns_are_each_entity_on_each_of_its_indexes_with_its_key_condition() {
    let markdown = shop_model()
        .expect("the model")
        .pattern::<Deal>(Some("GSI1"), "Deals of a day")
        .markdown();
    let found = lines(&markdown);
    let expected = [
        "| Access pattern | Operation | Index | Key condition |",
        "| --- | --- | --- | --- |",
        "| Get Deal by id | GetItem | table | `PK = \"DEAL#{id}\" AND SK = \"DEAL\"` |",
        // Named by the application; a shard and a computed part are holes like fields.
        "| Deals of a day | Query | GSI1 | `GSI1PK = \"DEALS#{day}#{shard}\"` |",
        "| Find Deal by brand (lookup brand) | Query | table | `PK = \"BRAND#{brand}\" AND begins_with(SK, \"DEAL#\")` |",
        "| Query Issue by owner, repo | Query | table | `PK = \"REPO#{owner}#{repo}\" AND begins_with(SK, \"ISSUE#\")` |",
        "| Query Issue by owner, repo on ByStatus | Query | ByStatus | `owner = {owner} AND repo = {repo}` |",
        "| Query Issue by owner, repo on ByDate | Query | ByDate | `PK = \"REPO#{owner}#{repo}\" AND begins_with(LSI1SK, \"DATE#\")` |",
        "| Get Player by name | GetItem | table | `PK = \"PLAYER#{name}\" AND SK = \"PLAYER\"` |",
        "| Query Player by game on Leaderboard | Query | Leaderboard | `LB_PK = \"GAME#{game}\"` |",
    ];
    let at = found
        .iter()
        .position(|l| *l == expected[0])
        .unwrap_or_else(|| panic!("no access patterns in\n{markdown}"));
    assert_eq!(&found[at..at + expected.len()], &expected[..], "{markdown}");
}

#[test]
fn attributes_show_stored_types_ttl_and_computed_parts() {
    let markdown = shop_model().expect("the model").markdown();
    assert!(
        markdown.contains(
            "| Deal | id: `String`, brand: `String`, posted_at: `OffsetDateTime`, expires_at: `OffsetDateTime`, \
             TTL: `expires_at`, {day}: `day_of(posted_at)`, {shard}: `shard(4) of (id)` |"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("| Player | name: `String`, game: `String`, score: `u64` |"));
}

#[test]
fn html_page_is_self_contained_and_lays_items_out_by_partition_and_index() {
    let html = shop_model().expect("the model").html();
    for gone in ["<script", "src=", "href=", "url(", "@import", "http"] {
        assert!(!html.contains(gone), "the page fetches something: {gone}");
    }
    for heading in [
        "<h2>Items of table shop</h2>",
        "<h2>Index GSI1 (global secondary index)</h2>",
        "<h2>Index ByStatus (global secondary index)</h2>",
        "<h2>Index Leaderboard (global secondary index)</h2>",
        "<h2>Index ByDate (local secondary index)</h2>",
    ] {
        assert!(html.contains(heading), "{heading}");
    }
    // The deal's partition, its lookup item's, and each index's partitions hold the
    // stored key values; the multi-attribute index shows one column per attribute.
    for cell in [
        "<td class=\"key pk\" rowspan=\"1\">DEAL#D1</td>",
        "<td class=\"key pk\" rowspan=\"1\">BRAND#Acme</td>",
        "<td class=\"key pk\" rowspan=\"1\">rust-lang</td><td class=\"key pk\" rowspan=\"1\">rust</td>",
        "<td class=\"key pk\" rowspan=\"1\">GAME#chess</td><td class=\"key\">2100</td>",
        "<span class=\"entity\" style=\"background:#0073bb\">Deal.brand</span>",
    ] {
        assert!(html.contains(cell), "{cell} missing from\n{html}");
    }
    // Text is escaped.
    let odd = Model::<Shop>::new("<b>&")
        .sample(&super::Player {
            name: "<i>".into(),
            game: "g".into(),
            score: 1,
        })
        .expect("a sample")
        .html();
    assert!(odd.contains("Table &lt;b&gt;&amp;") && odd.contains("PLAYER#&lt;i&gt;"));
}

#[test]
fn items_read_from_a_table_go_to_their_entity_types() {
    let model = shop_model().expect("the model");
    let json = model.workbench_json().expect("the model");
    let mut stored = Vec::new();
    for facet in json["DataModel"][0]["TableFacets"]
        .as_array()
        .expect("facets")
    {
        stored.extend(
            facet["TableData"]
                .as_array()
                .expect("items")
                .iter()
                .cloned(),
        );
    }
    // The same items as a scan would return them, into a model without samples.
    let items = stored.iter().map(|item| {
        let item: dynamap::codec::Item = item
            .as_object()
            .expect("an item")
            .iter()
            .map(|(name, value)| (name.clone(), attribute(value)))
            .collect();
        item
    });
    let read = Model::<Shop>::new("shop")
        .entity::<super::ShopItem>()
        .entity::<super::Player>()
        .items(items);
    assert_eq!(read.workbench_json().expect("the model"), json);
    // Its Debug names the model and counts the items, without printing them.
    assert_eq!(
        format!("{read:?}"),
        format!(
            r#"Model {{ name: "shop", layout: "Shop", entities: [{}], samples: {} }}"#,
            r#""Deal", "Issue", "Player""#,
            stored.len()
        )
    );
}

/// DynamoDB JSON of the scalar types the samples hold.
fn attribute(value: &serde_json::Value) -> dynamap::codec::AttributeValue {
    use dynamap::codec::AttributeValue;
    match value.as_object().and_then(|o| o.iter().next()) {
        Some((kind, v)) if kind == "S" => AttributeValue::S(v.as_str().expect("text").into()),
        Some((kind, v)) if kind == "N" => AttributeValue::N(v.as_str().expect("text").into()),
        other => panic!("unexpected sample value {other:?}"),
    }
}
