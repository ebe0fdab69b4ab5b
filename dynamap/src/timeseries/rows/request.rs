//! The requests a write is made of. Each one is a single conditional DynamoDB call whose
//! failure comes back with the row as it stood (`ReturnValuesOnConditionCheckFailure =
//! ALL_OLD`), so the caller can tell "no row", "already there" and "full" apart without
//! another read.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, ReturnValuesOnConditionCheckFailure,
};

use super::layout::{CAP, IDS, SplitEvent, create_item, row_key};
use crate::codec::Item;
use crate::expr::Placeholders;
use crate::span::Call;
use crate::span::send_in;
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// How one request went.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// It changed the row as asked.
    Done,
    /// Its condition failed; the row as it stood then (`None`: there was no row).
    Refused(Option<Item>),
    /// DynamoDB found the update invalid for the stored row (`ValidationException`): a map
    /// the update writes into is missing, or the row would grow past the item size limit.
    /// The caller reads the row to see which.
    Invalid(Error),
}

/// What a conditional write's answer means: done (its capacity recorded), refused with the
/// row as it stood (`refused_item` picks it out of the condition's failure), invalid for the
/// stored row, or an error to return.
fn answered<E>(
    call: Call,
    operation: &'static str,
    result: std::result::Result<Option<ConsumedCapacity>, SdkError<E, HttpResponse>>,
    refused_item: impl FnOnce(&E) -> Option<Option<Item>>,
) -> Result<Attempt>
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    let err = match result {
        Ok(consumed) => {
            call.done(consumed.as_ref());
            return Ok(Attempt::Done);
        }
        Err(err) => {
            call.failed();
            err
        }
    };
    if let Some(refused) = err.as_service_error().and_then(refused_item) {
        return Ok(Attempt::Refused(refused));
    }
    let invalid = err.code() == Some("ValidationException");
    let err = Error::service(operation, err);
    if invalid {
        Ok(Attempt::Invalid(err))
    } else {
        Err(err)
    }
}

/// Adds `event` to the existing row `row`: appends its id, sets its value in every field's
/// map. Refused when the row is missing, holds the id already, or is full.
pub(crate) async fn add<E: Entity>(db: &Handle, event: &SplitEvent, row: u32) -> Result<Attempt> {
    update::<E>(db, add_request::<E>(db, event, row)).await
}

/// The UpdateItem of [`add`], as sent and previewed.
pub(crate) fn add_request<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
) -> UpdateItemFluentBuilder {
    let schema = <E::Table as Table>::SCHEMA;
    let mut p = Placeholders::default();
    let pk = p.name(schema.pk);
    let ids = p.name(IDS);
    let cap = p.name(CAP);
    let id_name = p.name(event.id.as_str());
    let id = p.value(AttributeValue::S(event.id.to_string()));
    let id_list = p.value(AttributeValue::L(vec![AttributeValue::S(
        event.id.to_string(),
    )]));
    let mut sets = vec![format!("{ids} = list_append({ids}, {id_list})")];
    for (name, value) in &event.fields {
        let field = p.name(name);
        let value = p.value(value.clone());
        sets.push(format!("{field}.{id_name} = {value}"));
    }
    let condition =
        format!("attribute_exists({pk}) AND NOT contains({ids}, {id}) AND size({ids}) < {cap}");
    update_request::<E>(
        db,
        event,
        row,
        format!("SET {}", sets.join(", ")),
        condition,
        p,
    )
}

/// Adds the maps `fields` to the existing row `row`, keeping any that exist meanwhile.
/// Refused when the row is missing.
pub(crate) async fn add_maps<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
    fields: &[String],
) -> Result<Attempt> {
    let schema = <E::Table as Table>::SCHEMA;
    let mut p = Placeholders::default();
    let pk = p.name(schema.pk);
    let empty = p.value(AttributeValue::M(Item::new()));
    let sets: Vec<String> = fields
        .iter()
        .map(|name| {
            let field = p.name(name);
            format!("{field} = if_not_exists({field}, {empty})")
        })
        .collect();
    let condition = format!("attribute_exists({pk})");
    let request = update_request::<E>(
        db,
        event,
        row,
        format!("SET {}", sets.join(", ")),
        condition,
        p,
    );
    update::<E>(db, request).await
}

/// Closes row `row` to further events (its cap becomes 0), because adding `event` would take
/// it past DynamoDB's item size limit. Refused when the row is missing or holds the event.
pub(crate) async fn close<E: Entity>(db: &Handle, event: &SplitEvent, row: u32) -> Result<Attempt> {
    let schema = <E::Table as Table>::SCHEMA;
    let mut p = Placeholders::default();
    let pk = p.name(schema.pk);
    let ids = p.name(IDS);
    let cap = p.name(CAP);
    let id = p.value(AttributeValue::S(event.id.to_string()));
    let zero = p.value(AttributeValue::N("0".to_owned()));
    let condition = format!("attribute_exists({pk}) AND NOT contains({ids}, {id})");
    let request = update_request::<E>(db, event, row, format!("SET {cap} = {zero}"), condition, p);
    update::<E>(db, request).await
}

/// The UpdateItem of row `row` by `expression` on `condition`, returning the row as it
/// stood when refused.
fn update_request<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
    expression: String,
    condition: String,
    p: Placeholders,
) -> UpdateItemFluentBuilder {
    let (names, values) = p.into_parts();
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(Some(row_key::<E>(event, row)))
        .update_expression(expression)
        .condition_expression(condition)
        .set_expression_attribute_names(names)
        .set_expression_attribute_values(values)
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
}

async fn update<E: Entity>(db: &Handle, request: UpdateItemFluentBuilder) -> Result<Attempt> {
    let call = Call::new(db, "UpdateItem", E::ENTITY_TYPE, None);
    let result = send_in!(call, request);
    answered(
        call,
        "UpdateItem",
        result.map(|o| o.consumed_capacity),
        |e| match e {
            UpdateItemError::ConditionalCheckFailedException(e) => Some(e.item.clone()),
            _ => None,
        },
    )
}

/// Creates row `row` holding just `event`. Refused when the row exists.
pub(crate) async fn create<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
    cap: usize,
) -> Result<Attempt> {
    let request = create_request::<E>(db, event, row, cap)?;
    let call = Call::new(db, "PutItem", E::ENTITY_TYPE, None);
    let result = send_in!(call, request);
    answered(
        call,
        "PutItem",
        result.map(|o| o.consumed_capacity),
        |e| match e {
            PutItemError::ConditionalCheckFailedException(e) => Some(e.item.clone()),
            _ => None,
        },
    )
}

/// The PutItem of [`create`], as sent and previewed.
pub(crate) fn create_request<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
    cap: usize,
) -> Result<PutItemFluentBuilder> {
    let schema = <E::Table as Table>::SCHEMA;
    let item = create_item::<E>(event, row, cap)?;
    Ok(db
        .client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(#pk)")
        .expression_attribute_names("#pk", schema.pk)
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld))
}

/// Row `row` as stored, read consistently.
pub(crate) async fn get<E: Entity>(
    db: &Handle,
    event: &SplitEvent,
    row: u32,
) -> Result<Option<Item>> {
    let call = Call::new(db, "GetItem", E::ENTITY_TYPE, None);
    let result = send_in!(
        call,
        db.client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(row_key::<E>(event, row)))
            .consistent_read(true)
    );
    let output = call
        .end(result, |o| o.consumed_capacity())
        .map_err(|e| Error::service("GetItem", e))?;
    Ok(output.item)
}
