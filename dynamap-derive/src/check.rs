//! Turns a parsed `#[derive(Entity)]` input into a checked model, recording every rule it
//! breaks.

use std::collections::BTreeMap;

use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, LitStr, Path, PathArguments, Type};

use crate::attr::{EntityAttrs, EntityIndex, FieldAttrs, KeySpec};
use crate::computed::{check_computed_uses, computed_parts};
use crate::ctx::Ctxt;
use crate::event_rows::event_rows_model;
use crate::evolution::{aliases, check_defaults, check_timestamps, constants, schema_model};
use crate::field_storage::{check_key_use, check_ttl, field_storage};
use crate::index_keys::{
    check_field_key, check_key_part_type, check_primary_field_keys, index_key, lookup_model,
};
use crate::model::{ComputedPart, EntityModel, FieldModel, IndexKey, IndexModel, LookupModel};
use crate::template::Template;

pub(crate) fn entity_model<'a>(cx: &mut Ctxt, input: &'a DeriveInput) -> Option<EntityModel<'a>> {
    let attrs = EntityAttrs::parse(cx, &input.attrs);
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(Entity)]` does not support generic types",
        );
    }
    let fields = named_fields(cx, input);
    // Without named fields every hole would be reported as naming no field: noise.
    let has_fields = fields.is_some();
    let fields: Vec<FieldModel<'_>> = fields
        .map(|f| f.iter().filter_map(|f| field_model(cx, f)).collect())
        .unwrap_or_default();
    check_attribute_names(cx, &fields);

    if attrs.table.is_none() && !attrs.given.contains("table") {
        cx.error_at(&input.ident, "entity needs a table: add `#[dynamap(table = MyTable)]`, naming a type that derives `Table`");
    }
    if attrs.pk.is_none() && !attrs.given.contains("pk") {
        cx.error_at(
            &input.ident,
            "entity needs a partition key template: add `#[dynamap(pk = \"PREFIX#{field}\")]`",
        );
    }
    let pk = attrs.pk.as_ref().and_then(|spec| primary_key(cx, spec));
    let sk = match attrs.sk.as_ref() {
        None => Some(None),
        Some(spec) => primary_key(cx, spec).map(Some),
    };
    let entity_name = attrs
        .entity
        .as_ref()
        .map_or_else(|| input.ident.to_string(), LitStr::value);
    if entity_name.is_empty()
        && let Some(lit) = &attrs.entity
    {
        cx.error_at(lit, "entity name cannot be empty");
    }

    let indexes = index_models(cx, &attrs.indexes, "index", "GSI1", pk.as_ref());
    let lookups = index_models(cx, &attrs.lookups, "lookup", "by_location", None)
        .into_iter()
        .filter_map(|lookup| lookup_model(cx, lookup))
        .collect::<Vec<_>>();
    check_method_clashes(cx, &indexes, &lookups);
    let aliases = aliases(cx, &attrs, &entity_name);
    let constants = constants(cx, &attrs, &fields);
    let schema = schema_model(cx, &attrs);
    check_timestamps(cx, &fields);
    check_version(cx, &fields);
    check_ttl(cx, &fields);
    let event_rows = attrs
        .event_rows
        .as_ref()
        .and_then(|attr| event_rows_model(cx, attr, &attrs, &fields));

    let computed = computed_parts(cx, &attrs, &fields);
    let model_fields = &fields;
    if has_fields {
        let primary_keys: Vec<&IndexKey> = pk.iter().chain(sk.iter().flatten()).collect();
        let primary: Vec<&Template> = primary_keys
            .iter()
            .filter_map(|key| key.template())
            .collect();
        check_primary_field_keys(cx, &primary_keys, &primary, model_fields, &lookups);
        let others: Vec<&Template> = indexes
            .iter()
            .flat_map(IndexModel::templates)
            .chain(lookups.iter().flat_map(LookupModel::templates))
            .collect();
        check_computed_uses(cx, &computed, &primary, &others);
        for field in model_fields.iter().filter(|f| f.key_format.is_some()) {
            let name = field.ident.to_string();
            let name = name.trim_start_matches("r#");
            if !primary
                .iter()
                .chain(&others)
                .flat_map(|t| t.holes())
                .any(|h| h == name)
            {
                cx.error_at(
                    field.ident,
                    format!("`key_format` on `{name}`, which no key template uses: it would change nothing"),
                );
            }
        }
        for template in &primary {
            check_holes(cx, template, model_fields, &computed, false);
        }
        for index in &indexes {
            for template in index.templates() {
                check_holes(cx, template, model_fields, &computed, true);
            }
            for key in std::iter::once(&index.pk).chain(index.sk.as_ref()) {
                if let IndexKey::Field(key) = key {
                    check_field_key(cx, key, model_fields);
                }
            }
        }
        // A lookup item must always exist, so its fields cannot be optional.
        for lookup in &lookups {
            for template in lookup.templates() {
                check_holes(cx, template, model_fields, &computed, false);
            }
        }
        check_defaults(cx, primary.iter().copied(), model_fields);
        check_protected_keys(
            cx,
            &primary_keys,
            &indexes,
            &lookups,
            model_fields,
            &computed,
        );
    }

    let table = attrs.table?;
    let key_format = attrs.key_format;
    let pk = pk?;
    let sk = sk?;
    if cx.has_errors() {
        return None;
    }
    Some(EntityModel {
        ident: &input.ident,
        vis: &input.vis,
        table,
        entity_name,
        aliases,
        pk,
        sk,
        indexes,
        lookups,
        fields,
        event_rows,
        schema,
        constants,
        computed,
        key_format,
    })
}

/// No key DynamoDB reads may come from an encrypted field (`protection.rs`).
fn check_protected_keys(
    cx: &mut Ctxt,
    primary: &[&IndexKey],
    indexes: &[IndexModel],
    lookups: &[LookupModel],
    fields: &[FieldModel<'_>],
    computed: &[ComputedPart],
) {
    let index_keys = indexes
        .iter()
        .flat_map(|index| std::iter::once(&index.pk).chain(index.sk.as_ref()));
    let keys = primary.iter().copied().chain(index_keys);
    let lookup_templates = lookups.iter().flat_map(LookupModel::templates);
    let mut templates: Vec<&Template> = lookup_templates.collect();
    for key in keys {
        match key {
            IndexKey::Field(key) => crate::protection::check_field_key(cx, key, fields),
            key => templates.extend(key.template()),
        }
    }
    for template in templates {
        crate::protection::check_key_template(cx, template, fields, computed);
    }
}

fn named_fields<'a>(
    cx: &mut Ctxt,
    input: &'a DeriveInput,
) -> Option<&'a syn::punctuated::Punctuated<syn::Field, syn::Token![,]>> {
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => Some(&named.named),
            _ => {
                cx.error_at(
                    &input.ident,
                    "`#[derive(Entity)]` needs a struct with named fields",
                );
                None
            }
        },
        Data::Enum(_) => {
            cx.error_at(
                &input.ident,
                "`#[derive(Entity)]` needs a struct with named fields; to gather several entities in one enum, derive `EntityEnum`",
            );
            None
        }
        Data::Union(_) => {
            cx.error_at(
                &input.ident,
                "`#[derive(Entity)]` needs a struct with named fields",
            );
            None
        }
    }
}

fn field_model<'a>(cx: &mut Ctxt, field: &'a syn::Field) -> Option<FieldModel<'a>> {
    let attrs = FieldAttrs::parse(cx, &field.attrs);
    let ident = field.ident.as_ref()?;
    let attribute = match &attrs.rename {
        Some(lit) if lit.value().is_empty() => {
            cx.error_at(lit, "attribute name cannot be empty");
            String::new()
        }
        Some(lit) => lit.value(),
        None => ident.to_string().trim_start_matches("r#").to_owned(),
    };
    let with = attrs
        .with
        .as_ref()
        .and_then(|lit| match lit.parse::<Path>() {
            Ok(path) => Some(path),
            Err(_) => {
                cx.error_at(
                    lit,
                    "`with` takes the path of a module, like \"dynamap::codec::timestamp\"",
                );
                None
            }
        });
    let option_inner = option_inner(&field.ty);
    let (compressed, ttl_with) = field_storage(cx, &attrs, option_inner);
    let ttl = ttl_with.is_some();
    let with = with.or(ttl_with);
    let set = is_set_type(option_inner.unwrap_or(&field.ty));
    let with = match &attrs.list {
        Some(list) if !set => {
            cx.error_at(list, "`list` keeps a `HashSet` or `BTreeSet` field stored as a list (`L`); this field is not a set");
            with
        }
        Some(list) if with.is_some() || compressed.is_some() => {
            cx.error_at(
                list,
                "`list` chooses how the set is stored, as `with` and `compress` do; give only one",
            );
            with
        }
        // Serde writes any set as a list, and reads lists and sets.
        Some(_) => Some(syn::parse_quote!(::dynamap::codec::as_list)),
        None => with,
    };
    if let (Some(skip), Some(_)) = (&attrs.skip, &attrs.with) {
        cx.error_at(
            skip,
            "a skipped field is not stored, so `with` does not apply",
        );
    }
    if let (Some(skip), Some(_)) = (&attrs.skip, &attrs.default) {
        cx.error_at(
            skip,
            "a skipped field always reads as `Default::default()`, so `default` does not apply",
        );
    }
    Some(FieldModel {
        ident,
        ty: &field.ty,
        option_inner,
        attribute,
        attribute_span: attrs
            .rename
            .as_ref()
            .map_or_else(|| ident.span(), LitStr::span),
        skip: attrs.skip.is_some(),
        with,
        version: attrs.version.is_some(),
        compressed,
        ttl,
        default: attrs
            .default
            .as_ref()
            .map(|default| default.function.clone()),
        created_at: attrs.created_at.is_some(),
        updated_at: attrs.updated_at.is_some(),
        set,
        list: attrs.list.is_some(),
        key_format: attrs.key_format,
        protection: crate::protection::protection(
            cx,
            &attrs.protection,
            &[
                (&attrs.skip, "skipped: it is not stored"),
                (&attrs.version, "the version: conditions compare it"),
                (&attrs.ttl, "the TTL: DynamoDB reads it to expire items"),
                (
                    &attrs.created_at,
                    "`created_at`: writes keep it with a condition on it",
                ),
            ],
        ),
    })
}

/// `HashSet<..>` or `BTreeSet<..>`, by the last segment of the type's path.
fn is_set_type(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    path.qself.is_none()
        && path
            .path
            .segments
            .last()
            .is_some_and(|last| last.ident == "HashSet" || last.ident == "BTreeSet")
}

/// Two fields stored under the same attribute name would overwrite each other.
fn check_attribute_names(cx: &mut Ctxt, fields: &[FieldModel<'_>]) {
    let mut seen: BTreeMap<&str, &Ident> = BTreeMap::new();
    for field in fields.iter().filter(|f| !f.skip) {
        if let Some(first) = seen.insert(&field.attribute, field.ident) {
            cx.error_at(
                field.ident,
                format!(
                    "field `{}` is stored as attribute `{}`, like field `{first}`",
                    field.ident, field.attribute
                ),
            );
        }
    }
}

fn check_holes(
    cx: &mut Ctxt,
    template: &Template,
    fields: &[FieldModel<'_>],
    computed: &[ComputedPart],
    optional_allowed: bool,
) {
    for hole in template.holes() {
        let name = hole.strip_prefix("r#").unwrap_or(hole);
        match fields.iter().find(|f| f.ident == name) {
            // Checked where it is declared; the primary key's by `check_computed_uses`.
            None if computed.iter().any(|c| c.name == name) => {
                let part = computed.iter().filter(|c| c.name == name);
                let optional = part
                    .flat_map(|c| &c.fields)
                    .filter_map(|dep| fields.iter().find(|f| f.ident == dep))
                    .filter(|f| f.option_inner.is_some());
                for field in optional.filter(|_| !optional_allowed) {
                    cx.error_at(
                        field.ty,
                        format!("field `{}` makes the computed key part `{hole}` of a primary or lookup key, which are never left out, so it cannot be optional", field.ident),
                    );
                }
            }
            None => cx.error_at(&template.source, format!("`{{{hole}}}` in key template {:?} names no field of this struct", template.text())),
            Some(field) if field.skip => {
                cx.error_at(&template.source, format!("`{{{hole}}}` in key template {:?} names a skipped field", template.text()));
            }
            Some(field) if field.option_inner.is_some() && !optional_allowed => cx.error_at(
                field.ty,
                format!("field `{hole}` is in the primary key, so it cannot be optional (optional fields fit index templates, which make sparse indexes)"),
            ),
            Some(field) => {
                check_key_use(cx, template, field);
                check_key_part_type(cx, hole, field);
            }
        }
    }
}

/// The `T` of `Option<T>`, `std::option::Option<T>` or `core::option::Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments: Vec<_> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let is_option = matches!(
        segments
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["Option"] | ["std" | "core", "option", "Option"]
    );
    if !is_option {
        return None;
    }
    let last = path.path.segments.last()?;
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// A primary key: a template, or `field(x)` (one field: a table's key attribute is one
/// attribute). `None` when it is invalid.
fn primary_key(cx: &mut Ctxt, spec: &KeySpec) -> Option<IndexKey> {
    match spec {
        KeySpec::Fields { path, fields } if !path.is_ident("field") || fields.len() != 1 => {
            cx.error_at(
                path,
                "a table's key attribute is one attribute: map it to one field with `field(x)`, or give a template",
            );
            None
        }
        spec => index_key(cx, spec),
    }
}

/// Each index and each lookup gets a query method (`gsi1`, `by_location`): two of them
/// must not get the same one.
fn check_method_clashes(cx: &mut Ctxt, indexes: &[IndexModel], lookups: &[LookupModel]) {
    for lookup in lookups {
        let method = crate::names::lookup_method(&lookup.name.value());
        if let Some(index) = indexes
            .iter()
            .find(|index| crate::names::snake_case(&index.name.value()) == method)
        {
            cx.error_at(
                &lookup.name,
                format!(
                    "lookup {:?} and index {:?} would both make the query method `{method}`; rename one of them",
                    lookup.name.value(),
                    index.name.value()
                ),
            );
        }
    }
}

/// Checks `index(...)`, `local_index(...)` or `lookup(...)` declarations and keeps the
/// usable ones. A local index's partition key is the entity's own: `entity_pk`.
fn index_models(
    cx: &mut Ctxt,
    declared: &[EntityIndex],
    kind: &str,
    example: &str,
    entity_pk: Option<&IndexKey>,
) -> Vec<IndexModel> {
    let mut models = Vec::new();
    let mut names = Vec::new();
    for index in declared {
        if let Some(name) = &index.name {
            if names.contains(&name.value()) {
                let message = format!(
                    "duplicate {kind} {:?}: give each {kind}'s templates in one `{kind}(...)`",
                    name.value()
                );
                cx.error_at(name, message);
            }
            names.push(name.value());
        }
        if index.name.is_none() && !index.given.contains("name") {
            cx.error_at(
                &index.path,
                format!("{kind} needs a name: `{kind}(name = \"{example}\", pk = \"...\")`"),
            );
        }
        if index.local {
            if index.sk.is_none() && !index.given.contains("sk") {
                cx.error_at(
                    &index.path,
                    "local_index needs a sort key template: `sk = \"...\"`",
                );
            }
        } else if index.pk.is_none() && !index.given.contains("pk") {
            cx.error_at(
                &index.path,
                format!("{kind} needs a partition key template: `pk = \"...\"`"),
            );
        }
        let pk = match (&index.pk, entity_pk) {
            // A local index shares the table's partition key, so the entity's own template.
            (None, Some(entity_pk)) if index.local => Some(entity_pk.clone()),
            (Some(spec), Some(entity_pk)) if index.local => {
                let key = index_key(cx, spec);
                match &key {
                    Some(key) if key.describe() == entity_pk.describe() => Some(entity_pk.clone()),
                    _ => {
                        let message = format!(
                            "a local index shares the table's partition key, so its `pk` is the entity's own `{}`; leave `pk` out",
                            entity_pk.describe()
                        );
                        match spec {
                            KeySpec::Template(lit) => cx.error_at(lit, message),
                            KeySpec::Fields { path, .. } => cx.error_at(path, message),
                        }
                        None
                    }
                }
            }
            _ => index.pk.as_ref().and_then(|spec| index_key(cx, spec)),
        };
        let sk = match &index.sk {
            None => Some(None),
            Some(spec) => index_key(cx, spec).map(Some),
        };
        if let (Some(name), Some(pk), Some(sk)) = (&index.name, pk, sk) {
            models.push(IndexModel {
                name: name.clone(),
                pk,
                sk,
                local: index.local,
            });
        }
    }
    models
}

/// At most one version field, and it is stored.
fn check_version(cx: &mut Ctxt, fields: &[FieldModel<'_>]) {
    let mut versions = fields.iter().filter(|f| f.version);
    if let Some(first) = versions.next() {
        if first.skip {
            cx.error_at(first.ident, "a version field must be stored: remove `skip`");
        }
        if first.option_inner.is_some() {
            cx.error_at(
                first.ty,
                "a version field is a plain integer, not an `Option`",
            );
        }
    }
    for extra in versions {
        cx.error_at(extra.ident, "an entity has at most one `version` field");
    }
}
