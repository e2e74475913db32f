//! The schema rules: `ValidateCustomResourceDefinitionOpenAPISchema` with
//! `specStandardValidatorV3` (§5.1, §5.4), `ValidateStructural` (§5.2,
//! §5.3) and the root restrictions of §5.6.

use std::collections::HashSet;

use serde_json::Value;

use crate::go_regex;
use crate::validation::{ErrorList, FieldError, FieldPath};

use super::bounded;
use super::node::{Items, Node, SchemaOrBool};

const OPENAPI_V3_TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];
const META_FIELDS: [&str; 3] = ["metadata", "kind", "apiVersion"];
const SUPPORTED_VALIDATION_REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// The state `specStandardValidatorV3` carries down the tree.
#[derive(Clone, Copy)]
pub(super) struct Ssv {
    allow_defaults: bool,
    disallow_defaults_reason: &'static str,
    inside_resource_meta: bool,
}

impl Ssv {
    pub(super) const ROOT: Ssv = Ssv {
        allow_defaults: true,
        disallow_defaults_reason: "",
        inside_resource_meta: false,
    };

    fn with_forbidden_defaults(self, reason: &'static str) -> Ssv {
        Ssv {
            allow_defaults: false,
            disallow_defaults_reason: reason,
            ..self
        }
    }

    fn with_inside_resource_meta(self) -> Ssv {
        Ssv {
            inside_resource_meta: true,
            ..self
        }
    }
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// `specStandardValidatorV3.validate`: keywords that are not supported.
#[inline(never)]
fn standard_validate(n: &Node<'_>, path: &FieldPath<'_>, ssv: Ssv, errs: &mut ErrorList) {
    if let Some(t) = n.type_
        && !t.is_empty()
        && !OPENAPI_V3_TYPES.contains(&t)
    {
        errs.push(FieldError::not_supported(
            &path.child("type"),
            t,
            &OPENAPI_V3_TYPES,
        ));
    }
    if n.default.is_some() && !ssv.allow_defaults {
        let mut detail = String::from("must not be set");
        if !ssv.disallow_defaults_reason.is_empty() {
            detail.push(' ');
            detail.push_str(ssv.disallow_defaults_reason);
        }
        errs.push(FieldError::forbidden(&path.child("default"), detail));
    }
    if n.id.is_some_and(|s| !s.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("id"),
            "id is not supported",
        ));
    }
    if n.additional_items.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("additionalItems"),
            "additionalItems is not supported",
        ));
    }
    if n.pattern_properties.as_ref().is_some_and(|p| !p.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("patternProperties"),
            "patternProperties is not supported",
        ));
    }
    if n.definitions.as_ref().is_some_and(|p| !p.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("definitions"),
            "definitions is not supported",
        ));
    }
    if n.dependencies.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("dependencies"),
            "dependencies is not supported",
        ));
    }
    if n.reference.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("$ref"),
            "$ref is not supported",
        ));
    }
    if n.type_ == Some("null") {
        errs.push(FieldError::forbidden(
            &path.child("type"),
            "type cannot be set to null, use nullable as an alternative",
        ));
    }
    if matches!(&n.items, Some(Items::Many(v)) if !v.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("items"),
            "items must be a schema object and not an array",
        ));
    }
    if ssv.inside_resource_meta && n.embedded_resource {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-embedded-resource"),
            "must not be used inside of resource meta",
        ));
    }
    // Listed as forbidden by the Kubernetes docs; Go drops them at decode.
    for key in &n.doc_forbidden {
        errs.push(FieldError::forbidden(
            &path.child(key),
            format!("{key} is not supported"),
        ));
    }
}

/// `ValidateCustomResourceDefinitionOpenAPISchema` for one node and below.
pub(super) fn openapi(
    n: &Node<'_>,
    path: &FieldPath<'_>,
    ssv: Ssv,
    is_root: bool,
    errs: &mut ErrorList,
) {
    if n.truncated {
        return;
    }
    // The recursive functions keep their frames small (deep schemas must
    // not exhaust the stack, even in debug builds): the per-node checks are
    // in helpers that are not inlined.
    standard_validate(n, path, ssv, errs);
    openapi_local(n, path, errs);

    if let Some(ap) = &n.additional_properties {
        let sub = if ssv.inside_resource_meta {
            ssv.with_forbidden_defaults("inside additionalProperties applying to object metadata")
        } else {
            ssv
        };
        if let Some(s) = ap.schema() {
            openapi(s, &path.child("additionalProperties"), sub, false, errs);
        }
    }

    let props = path.child("properties");
    for (k, p) in &n.properties {
        let mut sub = ssv;
        if (is_root || n.embedded_resource) && META_FIELDS.contains(k) {
            sub = sub.with_inside_resource_meta();
            if is_root {
                sub = sub.with_forbidden_defaults(match *k {
                    "metadata" => "in top-level metadata",
                    "kind" => "in top-level kind",
                    _ => "in top-level apiVersion",
                });
            }
        }
        openapi(p, &props.key(k), sub, false, errs);
    }

    if let Some(not) = &n.not {
        openapi(not, &path.child("not"), ssv, false, errs);
    }
    for (key, list) in [
        ("allOf", &n.all_of),
        ("oneOf", &n.one_of),
        ("anyOf", &n.any_of),
    ] {
        let p = path.child(key);
        for (i, s) in list.iter().enumerate() {
            openapi(s, &p.index(i), ssv, false, errs);
        }
    }
    if let Some(defs) = &n.definitions {
        let p = path.child("definitions");
        for (k, s) in defs {
            openapi(s, &p.key(k), ssv, false, errs);
        }
    }
    match &n.items {
        Some(Items::One(s)) => openapi(s, &path.child("items"), ssv, false, errs),
        Some(Items::Many(list)) => {
            let p = path.child("items");
            for (i, s) in list.iter().enumerate() {
                openapi(s, &p.index(i), ssv, false, errs);
            }
        }
        None => {}
    }
    if let Some(deps) = &n.dependencies {
        let p = path.child("dependencies");
        for (k, s) in deps {
            if let Some(s) = s {
                openapi(s, &p.key(k), ssv, false, errs);
            }
        }
    }

    openapi_after(n, path, errs);
}

/// The checks of `openapi` on one node before its children.
#[inline(never)]
fn openapi_local(n: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    if n.unique_items {
        errs.push(FieldError::forbidden(
            &path.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    if !n.properties.is_empty()
        && matches!(
            n.additional_properties,
            Some(SchemaOrBool::Bool(false) | SchemaOrBool::Schema(_))
        )
    {
        errs.push(FieldError::forbidden(
            &path.child("additionalProperties"),
            "additionalProperties and properties are mutual exclusive",
        ));
    }
}

/// The checks of `openapi` on one node after its children.
#[inline(never)]
fn openapi_after(n: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    if n.preserve_unknown_fields == Some(false) {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            false,
            "must be true or undefined",
        ));
    }
    list_and_map_types(n, path, errs);
    map_list_keys_map_set(n, path, errs);
    validation_rules(n, path, errs);
}

/// The `x-kubernetes-map-type`, `x-kubernetes-list-type` and
/// `x-kubernetes-list-map-keys` rules.
#[inline(never)]
fn list_and_map_types(n: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    let ty = n.ty();
    if n.map_type.is_some() && ty != "object" {
        let detail = "must be object if x-kubernetes-map-type is specified";
        errs.push(if ty.is_empty() {
            FieldError::required(&path.child("type"), detail)
        } else {
            FieldError::invalid(&path.child("type"), ty, detail)
        });
    }
    if let Some(mt) = n.map_type
        && mt != "atomic"
        && mt != "granular"
    {
        errs.push(FieldError::not_supported(
            &path.child("x-kubernetes-map-type"),
            mt,
            &["atomic", "granular"],
        ));
    }

    if n.list_type.is_some() && ty != "array" {
        let detail = "must be array if x-kubernetes-list-type is specified";
        errs.push(if ty.is_empty() {
            FieldError::required(&path.child("type"), detail)
        } else {
            FieldError::invalid(&path.child("type"), ty, detail)
        });
    } else if n.list_type == Some("set")
        && let Some(is) = n.items_schema()
    {
        let items = path.child("items");
        let detail = "must be atomic as item of a list with x-kubernetes-list-type=set";
        match is.ty() {
            "array" => {
                if let Some(lt) = is.list_type.filter(|lt| *lt != "atomic") {
                    errs.push(FieldError::invalid(
                        &items.child("x-kubernetes-list-type"),
                        lt,
                        detail,
                    ));
                }
            }
            "object" if is.map_type != Some("atomic") => {
                // Go reports the item's list type as the value here.
                errs.push(FieldError::invalid(
                    &items.child("x-kubernetes-map-type"),
                    is.list_type.map_or(Value::Null, Value::from),
                    detail,
                ));
            }
            _ => {}
        }
    }
    if let Some(lt) = n.list_type
        && !["atomic", "set", "map"].contains(&lt)
    {
        errs.push(FieldError::not_supported(
            &path.child("x-kubernetes-list-type"),
            lt,
            &["atomic", "set", "map"],
        ));
    }

    let keys = n.list_map_keys.as_deref().unwrap_or(&[]);
    if !keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        match n.list_type {
            None => errs.push(FieldError::required(
                &path.child("x-kubernetes-list-type"),
                detail,
            )),
            Some(lt) if lt != "map" => errs.push(FieldError::invalid(
                &path.child("x-kubernetes-list-type"),
                lt,
                detail,
            )),
            _ => {}
        }
    }

    if n.list_type == Some("map") {
        if keys.is_empty() {
            errs.push(FieldError::required(
                &path.child("x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        let items = path.child("items");
        match &n.items {
            None => errs.push(FieldError::required(
                &items,
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(Items::Many(_)) => errs.push(FieldError::invalid(
                &items,
                n.raw
                    .and_then(|m| m.get("items"))
                    .map_or(Value::Null, bounded),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(Items::One(is)) if is.ty() != "object" => errs.push(FieldError::invalid(
                &items.child("type"),
                is.ty(),
                "must be object if parent array's x-kubernetes-list-type is map",
            )),
            Some(Items::One(is)) => {
                let keys_value = || Value::from(keys.to_vec());
                let mut seen = HashSet::new();
                let props = items.child("properties");
                for k in keys {
                    match is.property(k) {
                        Some(s) => {
                            if matches!(s.ty(), "array" | "object") {
                                // Go reports the item type as the value here.
                                errs.push(FieldError::invalid(
                                    &props.key(k).child("type"),
                                    is.ty(),
                                    "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                ));
                            }
                        }
                        None => errs.push(FieldError::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "entries must all be names of item properties",
                        )),
                    }
                    if !seen.insert(*k) {
                        errs.push(FieldError::invalid(
                            &path.child("x-kubernetes-list-map-keys"),
                            keys_value(),
                            "must not contain duplicate entries",
                        ));
                    }
                }
            }
        }
    }
}

/// `validateMapListKeysMapSet`.
#[inline(never)]
fn map_list_keys_map_set(n: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    let Some(is) = n.items_schema() else { return };
    let Some(lt) = n.list_type else { return };
    if lt != "set" && lt != "map" {
        return;
    }
    let items = path.child("items");
    if is.nullable {
        errs.push(FieldError::forbidden(
            &items.child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt == "map" {
        let required = is.required.as_deref().unwrap_or(&[]);
        let props = items.child("properties");
        for k in n.list_map_keys.as_deref().unwrap_or(&[]) {
            let Some(p) = is.property(k) else { continue };
            let kp = props.key(k);
            if !required.contains(k) && p.default.is_none() {
                errs.push(FieldError::required(
                    &kp.child("default"),
                    "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                ));
            }
            if p.nullable {
                errs.push(FieldError::forbidden(
                    &kp.child("nullable"),
                    "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
                ));
            }
        }
    }
}

/// The basic `x-kubernetes-validations` checks (CEL is not compiled).
#[inline(never)]
fn validation_rules(n: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    let vp = path.child("x-kubernetes-validations");
    for (i, rule) in n.validations.iter().enumerate() {
        let ip = vp.index(i);
        let trimmed_rule = rule.rule.trim();
        let message = rule.message.unwrap_or("");
        let trimmed_msg = message.trim();
        if trimmed_rule.is_empty() {
            errs.push(FieldError::required(
                &ip.child("rule"),
                "rule is not specified",
            ));
        } else if !message.is_empty() && trimmed_msg.is_empty() {
            errs.push(FieldError::invalid(
                &ip.child("message"),
                message,
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_msg) {
            errs.push(FieldError::invalid(
                &ip.child("message"),
                message,
                "must not contain line breaks",
            ));
        } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
            errs.push(FieldError::required(
                &ip.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        if let Some(me) = rule.message_expression
            && !me.is_empty()
            && me.trim().is_empty()
        {
            errs.push(FieldError::required(
                &ip.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = rule.reason
            && !SUPPORTED_VALIDATION_REASONS.contains(&reason)
        {
            errs.push(FieldError::not_supported(
                &ip.child("reason"),
                reason,
                &SUPPORTED_VALIDATION_REASONS,
            ));
        }
        if let Some(fp) = rule.field_path {
            if !fp.is_empty() && fp.trim().is_empty() {
                errs.push(FieldError::invalid(
                    &ip.child("fieldPath"),
                    fp,
                    "must be non-empty if specified",
                ));
            }
            if has_newlines(fp) {
                errs.push(FieldError::invalid(
                    &ip.child("fieldPath"),
                    fp,
                    "must not contain line breaks",
                ));
            }
            if !fp.is_empty() && convertible(n).is_ok() && resolve_field_path(fp, n, true).is_err()
            {
                errs.push(FieldError::invalid(
                    &ip.child("fieldPath"),
                    fp,
                    "must be a valid path",
                ));
            }
        }
    }
}

/// A resolved field path: its rendering and the schema it points to.
pub(super) struct Resolved<'n, 'a> {
    pub root: String,
    pub rendered: String,
    pub schema: Option<&'n Node<'a>>,
}

/// `cel.ValidFieldPath`: resolves a JSON path of field (`.a`) and map
/// (`['k']`) accessors through the structural schema `schema`.
pub(super) fn resolve_field_path<'n, 'a>(
    json_path: &str,
    schema: &'n Node<'a>,
    allow_array_notation: bool,
) -> Result<Resolved<'n, 'a>, String> {
    let tokens = tokenize(json_path);
    let mut it = tokens.into_iter();
    let mut current: Option<&'n Node<'a>> = Some(schema);
    let mut root = String::new();
    let mut rendered = String::new();
    let mut step = |name: String, current: &mut Option<&'n Node<'a>>| -> Result<(), String> {
        let Some(s) = *current else {
            return Err("does not refer to a valid field".to_string());
        };
        if root.is_empty() && rendered.is_empty() {
            root = name.clone();
        }
        if !s.properties.is_empty() {
            if !rendered.is_empty() {
                rendered.push('.');
            }
            rendered.push_str(&name);
            match s.property(&name) {
                Some(p) => *current = Some(p),
                None => return Err("does not refer to a valid field".to_string()),
            }
        } else if let Some(ap) = &s.additional_properties {
            rendered.push('[');
            rendered.push_str(&name);
            rendered.push(']');
            *current = ap.schema();
        } else {
            return Err("does not refer to a valid field".to_string());
        }
        Ok(())
    };
    while let Some(tok) = it.next() {
        match tok.as_str() {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".to_string());
                }
                let Some(tok) = it.next() else {
                    return Err("unexpected end of JSON path".to_string());
                };
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                step(name, &mut current)?;
                match it.next() {
                    None => return Err("unexpected end of JSON path".to_string()),
                    Some(t) if t != "]" => return Err(format!("expected ] but got {t}")),
                    Some(_) => {}
                }
            }
            "." => {
                let Some(tok) = it.next() else {
                    return Err("unexpected end of JSON path".to_string());
                };
                step(tok, &mut current)?;
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok(Resolved {
        root,
        rendered,
        schema: current,
    })
}

/// The tokenizer of `ValidFieldPath`: `.`, `[` and `]` are tokens, and so
/// is every single-quoted string and every run of other characters.
fn tokenize(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        if b[start] == b'\'' {
            let mut end = None;
            for i in start + 1..b.len() {
                if b[i] == b'\'' && b[i - 1] != b'\\' {
                    end = Some(i);
                    break;
                }
            }
            let end = end.map_or(b.len(), |e| e + 1);
            out.push(String::from_utf8_lossy(&b[start..end]).into_owned());
            start = end;
            continue;
        }
        if matches!(b[start], b'.' | b'[' | b']') {
            out.push((b[start] as char).to_string());
            start += 1;
            continue;
        }
        let mut end = start;
        while end < b.len() && !matches!(b[end], b'.' | b'[' | b']') {
            end += 1;
        }
        out.push(String::from_utf8_lossy(&b[start..end]).into_owned());
        start = end;
    }
    out
}

fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('v') => out.push('\u{b}'),
            Some('\'') => out.push('\''),
            Some('\\') => out.push('\\'),
            Some(other) => return Err(format!("invalid escape char \\{other}")),
            None => out.push('\\'),
        }
    }
    Ok(out)
}

/// Whether `NewStructural` accepts the node and everything below it; the
/// error is Go's message for the first problem found.
pub(super) fn convertible(n: &Node<'_>) -> Result<(), &'static str> {
    if n.truncated {
        return Ok(());
    }
    if n.id.is_some_and(|s| !s.is_empty()) {
        return Err("OpenAPIV3Schema 'id' is not supported");
    }
    if n.schema_uri.is_some_and(|s| !s.is_empty()) {
        return Err("OpenAPIV3Schema 'schema' is not supported");
    }
    if n.reference.is_some_and(|s| !s.is_empty()) {
        return Err("OpenAPIV3Schema '$ref' is not supported");
    }
    if n.pattern_properties.as_ref().is_some_and(|p| !p.is_empty()) {
        return Err("OpenAPIV3Schema 'patternProperties' is not supported");
    }
    if n.dependencies.as_ref().is_some_and(|p| !p.is_empty()) {
        return Err("OpenAPIV3Schema 'dependencies' is not supported");
    }
    if n.additional_items.is_some() {
        return Err("OpenAPIV3Schema 'additionalItems' is not supported");
    }
    if n.definitions.as_ref().is_some_and(|p| !p.is_empty()) {
        return Err("OpenAPIV3Schema 'definitions' is not supported");
    }
    if let Some(not) = &n.not {
        convertible(not)?;
    }
    for s in n.all_of.iter().chain(&n.any_of).chain(&n.one_of) {
        convertible(s)?;
    }
    if n.preserve_unknown_fields == Some(false) {
        return Err(
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
        );
    }
    match &n.items {
        Some(Items::Many(v)) if !v.is_empty() => {
            return Err("OpenAPIV3Schema 'items' must be a schema, but is an array");
        }
        Some(Items::One(s)) => convertible(s)?,
        _ => {}
    }
    for (_, p) in &n.properties {
        convertible(p)?;
    }
    if let Some(s) = n.additional_schema() {
        convertible(s)?;
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

/// `ValidateStructural`: the invariants and the completeness of the
/// structural part, sorted by message as Go does.
pub(super) fn structural(root: &Node<'_>, path: &FieldPath<'_>) -> ErrorList {
    let mut errs = ErrorList::new();
    invariants(root, Level::Root, path, &mut errs);
    completeness(root, path, &mut errs);
    let mut v = errs.into_vec();
    v.sort_by_cached_key(ToString::to_string);
    v.into()
}

fn is_int_or_string_any_of(list: &[Box<Node<'_>>]) -> bool {
    let only_type = |n: &Node<'_>, t: &str| {
        n.raw
            .is_some_and(|m| m.len() == 1 && m.get("type").and_then(Value::as_str) == Some(t))
    };
    list.len() == 2 && only_type(&list[0], "integer") && only_type(&list[1], "string")
}

/// `validateStructuralInvariants`.
fn invariants(s: &Node<'_>, lvl: Level, path: &FieldPath<'_>, errs: &mut ErrorList) {
    if s.truncated {
        return;
    }
    if let Some(items) = s.items_schema() {
        invariants(items, Level::Item, &path.child("items"), errs);
    }
    let props = path.child("properties");
    for (k, p) in &s.properties {
        invariants(p, Level::Field, &props.key(k), errs);
    }
    if let Some(aps) = s.additional_schema() {
        invariants(aps, Level::Field, &path.child("additionalProperties"), errs);
    }

    invariant_checks(s, lvl, path, errs);
    let skip_any_of = is_int_or_string_any_of(&s.any_of);
    let skip_first_all_of_any_of = s
        .all_of
        .first()
        .is_some_and(|first| is_int_or_string_any_of(&first.any_of));
    value_validation(s, skip_any_of, skip_first_all_of_any_of, lvl, path, errs);
}

/// The invariants of one structural node, without its children.
#[inline(never)]
fn invariant_checks(s: &Node<'_>, lvl: Level, path: &FieldPath<'_>, errs: &mut ErrorList) {
    let ty = s.ty();
    if ty == "array" && s.items_schema().is_none() {
        errs.push(FieldError::required(
            &path.child("items"),
            "must be specified",
        ));
    }
    let props = path.child("properties");
    if s.additional_properties.is_some() && lvl == Level::Root {
        errs.push(FieldError::forbidden(
            &path.child("additionalProperties"),
            "must not be used at the root",
        ));
    }
    // validateExtensions
    if s.int_or_string && s.preserves_unknown() {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if s.int_or_string && s.embedded_resource {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-embedded-resource"),
            true,
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }

    let check_metadata = lvl == Level::Root || s.embedded_resource;
    if s.embedded_resource && ty != "object" {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        errs.push(if ty.is_empty() {
            FieldError::required(&path.child("type"), detail)
        } else {
            FieldError::invalid(&path.child("type"), ty, detail)
        });
    } else if ty.is_empty() && !s.int_or_string && !s.preserves_unknown() {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(&path.child("type"), detail));
    }
    if s.embedded_resource && s.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            &path.child("additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !ty.is_empty() && ty != "object" {
        errs.push(FieldError::invalid(
            &path.child("type"),
            ty,
            "must be object at the root",
        ));
    }
    for key in ["kind", "apiVersion"] {
        if let Some(p) = s.property(key)
            && check_metadata
            && p.ty() != "string"
            && !p.truncated
        {
            errs.push(FieldError::invalid(
                &props.key(key).child("type"),
                p.ty(),
                "must be string",
            ));
        }
    }
    if let Some(m) = s.property("metadata") {
        metadata_invariants(m, check_metadata, lvl, &props.key("metadata"), errs);
    }
    if s.embedded_resource && !s.preserves_unknown() && s.properties.is_empty() {
        errs.push(FieldError::required(
            &path.child("properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// `validateStructuralMetadataInvariants`.
fn metadata_invariants(
    m: &Node<'_>,
    check_metadata: bool,
    lvl: Level,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if m.truncated {
        return;
    }
    if check_metadata && m.ty() != "object" {
        errs.push(FieldError::invalid(
            &path.child("type"),
            m.ty(),
            "must be object",
        ));
    }
    if lvl == Level::Root {
        let names_only = !m.properties.is_empty()
            && m.properties.len() <= 2
            && m.properties
                .iter()
                .all(|(k, _)| *k == "name" || *k == "generateName")
            && !(m.properties.len() == 2 && m.properties[0].0 == m.properties[1].0);
        if !(m.properties.is_empty() || names_only) || has_more_than_type(m) {
            errs.push(FieldError::forbidden(
                path,
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
}

/// Whether a structural node specifies anything besides `type`,
/// `default` and `properties` (what the root metadata may have).
fn has_more_than_type(m: &Node<'_>) -> bool {
    let nonempty = |s: Option<&str>| s.is_some_and(|s| !s.is_empty());
    nonempty(m.description)
        || nonempty(m.title)
        || m.nullable
        || m.external_docs.is_some()
        || m.example.is_some()
        || m.preserve_unknown_fields.is_some()
        || m.embedded_resource
        || m.int_or_string
        || m.list_map_keys.as_ref().is_some_and(|k| !k.is_empty())
        || m.list_type.is_some()
        || m.map_type.is_some()
        || !m.validations.is_empty()
        || nonempty(m.format)
        || m.maximum.is_some()
        || m.exclusive_maximum
        || m.minimum.is_some()
        || m.exclusive_minimum
        || m.max_length.is_some()
        || m.min_length.is_some()
        || nonempty(m.pattern)
        || m.max_items.is_some()
        || m.min_items.is_some()
        || m.unique_items
        || m.multiple_of.is_some()
        || m.enum_.is_some_and(|e| !e.is_empty())
        || m.max_properties.is_some()
        || m.min_properties.is_some()
        || m.required.is_some()
        || !m.all_of.is_empty()
        || !m.any_of.is_empty()
        || !m.one_of.is_empty()
        || m.not.is_some()
        || m.items_schema().is_some()
        || m.additional_properties.is_some()
}

/// `validateValueValidation`: the junctors of a node and its pattern.
fn value_validation(
    v: &Node<'_>,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    lvl: Level,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if !skip_any_of {
        let p = path.child("anyOf");
        for (i, s) in v.any_of.iter().enumerate() {
            nested_value_validation(s, false, lvl, &p.index(i), errs);
        }
    }
    let p = path.child("allOf");
    for (i, s) in v.all_of.iter().enumerate() {
        nested_value_validation(
            s,
            skip_first_all_of_any_of && i == 0,
            lvl,
            &p.index(i),
            errs,
        );
    }
    let p = path.child("oneOf");
    for (i, s) in v.one_of.iter().enumerate() {
        nested_value_validation(s, false, lvl, &p.index(i), errs);
    }
    if let Some(not) = &v.not {
        nested_value_validation(not, false, lvl, &path.child("not"), errs);
    }
    pattern_check(v, path, errs);
}

#[inline(never)]
fn pattern_check(v: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    if let Some(pattern) = v.pattern.filter(|p| !p.is_empty())
        && let Err(e) = go_regex::check(pattern)
    {
        errs.push(FieldError::invalid(
            &path.child("pattern"),
            pattern,
            format!("must be a valid regular expression, but isn't: {e}"),
        ));
    }
}

/// `validateNestedValueValidation`: a schema inside a junctor.
fn nested_value_validation(
    v: &Node<'_>,
    skip_any_of: bool,
    lvl: Level,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if v.truncated {
        return;
    }
    value_validation(v, skip_any_of, false, lvl, path, errs);
    if let Some(items) = v.items_schema() {
        nested_value_validation(items, false, lvl, &path.child("items"), errs);
    }
    let props = path.child("properties");
    for (k, p) in &v.properties {
        nested_value_validation(p, false, Level::Field, &props.key(k), errs);
    }

    nested_forbidden(v, path, errs);
}

/// The keywords a schema inside a junctor must not specify.
#[inline(never)]
fn nested_forbidden(v: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    let props = path.child("properties");
    let forbid = |errs: &mut ErrorList, key: &str, detail: &str| {
        errs.push(FieldError::forbidden(&path.child(key), detail));
    };
    if !v.ty().is_empty() {
        forbid(errs, "type", "must be empty to be structural");
    }
    if matches!(
        v.additional_properties,
        Some(SchemaOrBool::Schema(_) | SchemaOrBool::Bool(true))
    ) {
        forbid(
            errs,
            "additionalProperties",
            "must be undefined to be structural",
        );
    }
    if v.default.is_some() {
        forbid(errs, "default", "must be undefined to be structural");
    }
    if v.title.is_some_and(|t| !t.is_empty()) {
        forbid(errs, "title", "must be empty to be structural");
    }
    if v.description.is_some_and(|t| !t.is_empty()) {
        forbid(errs, "description", "must be empty to be structural");
    }
    if v.nullable {
        forbid(errs, "nullable", "must be false to be structural");
    }
    if v.preserves_unknown() {
        forbid(
            errs,
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        );
    }
    if v.embedded_resource {
        forbid(
            errs,
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        );
    }
    if v.int_or_string {
        forbid(
            errs,
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        );
    }
    if v.list_map_keys.as_ref().is_some_and(|k| !k.is_empty()) {
        forbid(
            errs,
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        );
    }
    if v.list_type.is_some() {
        forbid(
            errs,
            "x-kubernetes-list-type",
            "must be undefined to be structural",
        );
    }
    if v.map_type.is_some() {
        forbid(
            errs,
            "x-kubernetes-map-type",
            "must be undefined to be structural",
        );
    }
    if !v.validations.is_empty() {
        forbid(
            errs,
            "x-kubernetes-validations",
            "must be empty to be structural",
        );
    }
    if v.property("metadata").is_some() {
        errs.push(FieldError::forbidden(
            &props.key("metadata"),
            "must not be specified in a nested context",
        ));
    }
}

#[inline(never)]
fn incomplete(s_path: &FieldPath<'_>, v_path: &FieldPath<'_>, errs: &mut ErrorList) {
    errs.push(FieldError::required(
        s_path,
        format!("because it is defined in {v_path}"),
    ));
}

/// Completeness (`complete.go`): every property or items schema named in
/// a junctor must be specified in the structural part at the same place.
/// This is checked for the junctors of every structural node.
fn completeness(s: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    if s.truncated {
        return;
    }
    junctors_completeness(s, s, path, path, errs);
    if let Some(items) = s.items_schema() {
        completeness(items, &path.child("items"), errs);
    }
    let props = path.child("properties");
    for (k, p) in &s.properties {
        completeness(p, &props.key(k), errs);
    }
    if let Some(ap) = s.additional_schema() {
        completeness(ap, &path.child("additionalProperties"), errs);
    }
}

fn junctors_completeness(
    v: &Node<'_>,
    s: &Node<'_>,
    s_path: &FieldPath<'_>,
    v_path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if let Some(not) = &v.not {
        nested_completeness(not, Some(s), s_path, &v_path.child("not"), errs);
    }
    for (key, list) in [
        ("allOf", &v.all_of),
        ("anyOf", &v.any_of),
        ("oneOf", &v.one_of),
    ] {
        let p = v_path.child(key);
        for (i, j) in list.iter().enumerate() {
            nested_completeness(j, Some(s), s_path, &p.index(i), errs);
        }
    }
}

fn nested_completeness(
    v: &Node<'_>,
    s: Option<&Node<'_>>,
    s_path: &FieldPath<'_>,
    v_path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if v.truncated {
        return;
    }
    let Some(s) = s else {
        incomplete(s_path, v_path, errs);
        return;
    };
    if s.truncated {
        return;
    }
    junctors_completeness(v, s, s_path, v_path, errs);
    if let Some(vi) = v.items_schema() {
        nested_completeness(
            vi,
            s.items_schema(),
            &s_path.child("items"),
            &v_path.child("items"),
            errs,
        );
    }
    let s_props = s_path.child("properties");
    let v_props = v_path.child("properties");
    for (k, vf) in &v.properties {
        nested_completeness(vf, s.property(k), &s_props.key(k), &v_props.key(k), errs);
    }
}

const ALLOWED_AT_ROOT_WITH_STATUS: [&str; 22] = [
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// §5.6: the root of a schema whose version has the status subresource.
pub(super) fn status_root(n: &Node<'_>, path: &FieldPath<'_>, raw: &Value, errs: &mut ErrorList) {
    let nonempty = |s: Option<&str>| s.is_some_and(|s| !s.is_empty());
    // The fields of Go's JSONSchemaProps in declaration order, with whether
    // each is set (non-zero).
    let fields: [(&str, bool); 44] = [
        ("ID", nonempty(n.id)),
        ("Schema", nonempty(n.schema_uri)),
        ("Ref", n.reference.is_some()),
        ("Description", nonempty(n.description)),
        ("Type", nonempty(n.type_)),
        ("Nullable", n.nullable),
        ("Format", nonempty(n.format)),
        ("Title", nonempty(n.title)),
        ("Default", n.default.is_some()),
        ("Maximum", n.maximum.is_some()),
        ("ExclusiveMaximum", n.exclusive_maximum),
        ("Minimum", n.minimum.is_some()),
        ("ExclusiveMinimum", n.exclusive_minimum),
        ("MaxLength", n.max_length.is_some()),
        ("MinLength", n.min_length.is_some()),
        ("Pattern", nonempty(n.pattern)),
        ("MaxItems", n.max_items.is_some()),
        ("MinItems", n.min_items.is_some()),
        ("UniqueItems", n.unique_items),
        ("MultipleOf", n.multiple_of.is_some()),
        ("Enum", n.enum_.is_some()),
        ("MaxProperties", n.max_properties.is_some()),
        ("MinProperties", n.min_properties.is_some()),
        ("Required", n.required.is_some()),
        ("Items", n.items.is_some()),
        ("AllOf", n.all_of_set),
        ("OneOf", n.one_of_set),
        ("AnyOf", n.any_of_set),
        ("Not", n.not.is_some()),
        ("Properties", n.properties_set),
        ("AdditionalProperties", n.additional_properties.is_some()),
        ("PatternProperties", n.pattern_properties.is_some()),
        ("Dependencies", n.dependencies.is_some()),
        ("AdditionalItems", n.additional_items.is_some()),
        ("Definitions", n.definitions.is_some()),
        ("ExternalDocs", n.external_docs.is_some()),
        ("Example", n.example.is_some()),
        (
            "XPreserveUnknownFields",
            n.preserve_unknown_fields.is_some(),
        ),
        ("XEmbeddedResource", n.embedded_resource),
        ("XIntOrString", n.int_or_string),
        ("XListMapKeys", n.list_map_keys.is_some()),
        ("XListType", n.list_type.is_some()),
        ("XMapType", n.map_type.is_some()),
        ("XValidations", n.validations_set),
    ];
    for (name, set) in fields {
        if !set {
            continue;
        }
        if name == "Type" {
            if n.ty() != "object" {
                errs.push(FieldError::invalid(
                    &path.child("type"),
                    n.ty(),
                    r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                ));
                break;
            }
            continue;
        }
        if !ALLOWED_AT_ROOT_WITH_STATUS.contains(&name) {
            errs.push(FieldError::invalid(
                path,
                bounded(raw),
                format!(
                    "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                    ALLOWED_AT_ROOT_WITH_STATUS.join(" ")
                ),
            ));
            break;
        }
    }
}
