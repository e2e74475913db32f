//! §5.7: `ValidateCustomResourceDefinition` over the JSON of an
//! `apiextensions.k8s.io/v1` CustomResourceDefinition.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::validation::names::{is_dns1035_label, is_dns1123_subdomain, name_is_dns_subdomain};
use crate::validation::{ErrorList, FieldError, FieldPath};

use super::node::{Items, Node};
use super::rules::{convertible, resolve_field_path};
use super::{SchemaCheckOptions, bounded, check_schema_node};

type Obj = Map<String, Value>;

const PRINTER_COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const PRINTER_COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";
const MAX_SELECTABLE_FIELDS: i64 = 8;
const API_APPROVAL_ANNOTATION: &str = "api-approved.kubernetes.io";

fn get<'a>(m: Option<&'a Obj>, key: &str) -> Option<&'a Value> {
    m?.get(key).filter(|v| !v.is_null())
}

fn as_str<'a>(v: Option<&'a Value>, p: &FieldPath<'_>, errs: &mut ErrorList) -> Option<&'a str> {
    match v? {
        Value::String(s) => Some(s),
        other => {
            errs.push(FieldError::type_invalid(
                p,
                bounded(other),
                "must be a string",
            ));
            None
        }
    }
}

fn as_bool(v: Option<&Value>, p: &FieldPath<'_>, errs: &mut ErrorList) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        other => {
            errs.push(FieldError::type_invalid(
                p,
                bounded(other),
                "must be a boolean",
            ));
            None
        }
    }
}

fn as_i64(v: Option<&Value>, p: &FieldPath<'_>, errs: &mut ErrorList) -> Option<i64> {
    let v = v?;
    match v.as_i64() {
        Some(i) => Some(i),
        None => {
            errs.push(FieldError::type_invalid(
                p,
                bounded(v),
                "must be an integer",
            ));
            None
        }
    }
}

fn as_obj<'a>(v: Option<&'a Value>, p: &FieldPath<'_>, errs: &mut ErrorList) -> Option<&'a Obj> {
    match v? {
        Value::Object(m) => Some(m),
        other => {
            errs.push(FieldError::type_invalid(
                p,
                bounded(other),
                "must be an object",
            ));
            None
        }
    }
}

fn as_arr<'a>(v: Option<&'a Value>, p: &FieldPath<'_>, errs: &mut ErrorList) -> &'a [Value] {
    match v {
        None => &[],
        Some(Value::Array(a)) => a,
        Some(other) => {
            errs.push(FieldError::type_invalid(
                p,
                bounded(other),
                "must be an array",
            ));
            &[]
        }
    }
}

/// A list of strings; entries of other types are reported and skipped.
fn as_strings<'a>(
    v: Option<&'a Value>,
    p: &FieldPath<'_>,
    errs: &mut ErrorList,
) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for (i, x) in as_arr(v, p, errs).iter().enumerate() {
        if let Some(s) = as_str(Some(x), &p.index(i), errs) {
            out.push((i, s));
        }
    }
    out
}

/// Checks a whole CRD; see [`super::check_crd`].
pub(super) fn check(crd: &Value) -> ErrorList {
    let mut errs = ErrorList::new();
    let Value::Object(root) = crd else {
        errs.push(FieldError::type_invalid(
            &FieldPath::new(""),
            bounded(crd),
            "must be a CustomResourceDefinition object",
        ));
        return errs;
    };
    let root = Some(root);
    let e = &mut errs;

    let api_version_p = FieldPath::new("apiVersion");
    if let Some(av) = as_str(get(root, "apiVersion"), &api_version_p, e)
        && av != "apiextensions.k8s.io/v1"
    {
        e.push(FieldError::not_supported(
            &api_version_p,
            av,
            &["apiextensions.k8s.io/v1"],
        ));
    }
    let kind_p = FieldPath::new("kind");
    if let Some(k) = as_str(get(root, "kind"), &kind_p, e)
        && k != "CustomResourceDefinition"
    {
        e.push(FieldError::not_supported(
            &kind_p,
            k,
            &["CustomResourceDefinition"],
        ));
    }

    let meta_p = FieldPath::new("metadata");
    let spec_p = FieldPath::new("spec");
    let status_p = FieldPath::new("status");
    let meta = as_obj(get(root, "metadata"), &meta_p, e);
    let spec = as_obj(get(root, "spec"), &spec_p, e);
    let status = as_obj(get(root, "status"), &status_p, e);

    let names_p = spec_p.child("names");
    let names = as_obj(get(spec, "names"), &names_p, e);
    let plural = as_str(
        get(names, "plural"),
        &names_p.child("plural"),
        &mut ErrorList::new(),
    )
    .unwrap_or("");
    let group = as_str(get(spec, "group"), &spec_p.child("group"), e).unwrap_or("");

    object_meta(meta, &meta_p, &format!("{plural}.{group}"), e);
    spec_checks(spec, &spec_p, names, e);

    // ValidateCustomResourceDefinitionStatus
    let accepted_p = status_p.child("acceptedNames");
    if let Some(accepted) = as_obj(get(status, "acceptedNames"), &accepted_p, e) {
        names_checks(
            &Names::read(Some(accepted), &accepted_p, false, e),
            &accepted_p,
            e,
        );
    }
    stored_versions(status, &status_p, spec, &spec_p, e);
    api_approval(meta, group, e);
    let puf_p = spec_p.child("preserveUnknownFields");
    if as_bool(
        get(spec, "preserveUnknownFields"),
        &puf_p,
        &mut ErrorList::new(),
    ) == Some(true)
    {
        e.push(FieldError::invalid(
            &puf_p,
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    errs
}

/// The name rules of `ValidateObjectMeta` with the CRD's name function.
fn object_meta(meta: Option<&Obj>, p: &FieldPath<'_>, required_name: &str, e: &mut ErrorList) {
    let name_p = p.child("name");
    let gen_p = p.child("generateName");
    let name = as_str(get(meta, "name"), &name_p, e).unwrap_or("");
    let generate = as_str(get(meta, "generateName"), &gen_p, e).unwrap_or("");
    let name_fn = |n: &str, prefix: bool| {
        let mut msgs = name_is_dns_subdomain(n, prefix);
        if n != required_name {
            msgs.push(r#"must be spec.names.plural+"."+spec.group"#.to_string());
        }
        msgs
    };
    if !generate.is_empty() {
        for m in name_fn(generate, true) {
            e.push(FieldError::invalid(&gen_p, generate, m));
        }
    }
    if name.is_empty() {
        if generate.is_empty() {
            e.push(FieldError::required(
                &name_p,
                "name or generateName is required",
            ));
        }
    } else {
        for m in name_fn(name, false) {
            e.push(FieldError::invalid(&name_p, name, m));
        }
    }
    let ns_p = p.child("namespace");
    if as_str(get(meta, "namespace"), &ns_p, e).is_some_and(|ns| !ns.is_empty()) {
        e.push(FieldError::forbidden(&ns_p, "not allowed on this type"));
    }
}

struct Names<'a> {
    plural: &'a str,
    singular: String,
    kind: &'a str,
    list_kind: String,
    short_names: Vec<(usize, &'a str)>,
    categories: Vec<(usize, &'a str)>,
}

impl<'a> Names<'a> {
    /// Reads names; `defaults` applies v1 defaulting of singular and listKind.
    fn read(m: Option<&'a Obj>, p: &FieldPath<'_>, defaults: bool, e: &mut ErrorList) -> Self {
        let plural = as_str(get(m, "plural"), &p.child("plural"), e).unwrap_or("");
        let kind = as_str(get(m, "kind"), &p.child("kind"), e).unwrap_or("");
        let mut singular = as_str(get(m, "singular"), &p.child("singular"), e)
            .unwrap_or("")
            .to_string();
        let mut list_kind = as_str(get(m, "listKind"), &p.child("listKind"), e)
            .unwrap_or("")
            .to_string();
        if defaults {
            if singular.is_empty() {
                singular = kind.to_lowercase();
            }
            if list_kind.is_empty() && !kind.is_empty() {
                list_kind = format!("{kind}List");
            }
        }
        Names {
            plural,
            singular,
            kind,
            list_kind,
            short_names: as_strings(get(m, "shortNames"), &p.child("shortNames"), e),
            categories: as_strings(get(m, "categories"), &p.child("categories"), e),
        }
    }
}

/// `ValidateCustomResourceDefinitionNames`.
fn names_checks(n: &Names<'_>, p: &FieldPath<'_>, e: &mut ErrorList) {
    let dns = |v: &str| is_dns1035_label(v).join(",");
    if !n.plural.is_empty() && !dns(n.plural).is_empty() {
        e.push(FieldError::invalid(
            &p.child("plural"),
            n.plural,
            dns(n.plural),
        ));
    }
    if !n.singular.is_empty() && !dns(&n.singular).is_empty() {
        e.push(FieldError::invalid(
            &p.child("singular"),
            n.singular.as_str(),
            dns(&n.singular),
        ));
    }
    for (key, v) in [("kind", n.kind), ("listKind", n.list_kind.as_str())] {
        let msg = dns(&v.to_lowercase());
        if !v.is_empty() && !msg.is_empty() {
            e.push(FieldError::invalid(
                &p.child(key),
                v,
                format!("may have mixed case, but should otherwise match: {msg}"),
            ));
        }
    }
    let sp = p.child("shortNames");
    for (i, s) in &n.short_names {
        let msg = dns(s);
        if !msg.is_empty() {
            e.push(FieldError::invalid(&sp.index(*i), *s, msg));
        }
    }
    if !n.kind.is_empty() && n.kind == n.list_kind {
        e.push(FieldError::invalid(
            &p.child("listKind"),
            n.list_kind.as_str(),
            "kind and listKind may not be the same",
        ));
    }
    let cp = p.child("categories");
    for (i, s) in &n.categories {
        let msg = dns(s);
        if !msg.is_empty() {
            e.push(FieldError::invalid(&cp.index(*i), *s, msg));
        }
    }
}

/// One version's schema, decoded once: errors and the root node.
struct VersionSchema<'a> {
    errs: ErrorList,
    node: Option<Box<Node<'a>>>,
}

fn spec_checks(spec: Option<&Obj>, p: &FieldPath<'_>, names: Option<&Obj>, e: &mut ErrorList) {
    // group
    let group_p = p.child("group");
    let group = as_str(get(spec, "group"), &group_p, &mut ErrorList::new()).unwrap_or("");
    if group.is_empty() {
        e.push(FieldError::required(&group_p, ""));
    } else {
        let errs = is_dns1123_subdomain(group);
        if !errs.is_empty() {
            e.push(FieldError::invalid(&group_p, group, errs.join(",")));
        } else if group.split('.').count() < 2 {
            e.push(FieldError::invalid(
                &group_p,
                group,
                "should be a domain with at least one dot",
            ));
        }
    }

    // scope
    let scope_p = p.child("scope");
    match as_str(get(spec, "scope"), &scope_p, e).unwrap_or("") {
        "" => e.push(FieldError::required(&scope_p, "")),
        "Cluster" | "Namespaced" => {}
        other => e.push(FieldError::not_supported(
            &scope_p,
            other,
            &["Cluster", "Namespaced"],
        )),
    }

    let versions_p = p.child("versions");
    let versions_value = get(spec, "versions");
    let versions = as_arr(versions_value, &versions_p, e);
    let preserve_unknown = as_bool(
        get(spec, "preserveUnknownFields"),
        &p.child("preserveUnknownFields"),
        e,
    ) == Some(true);

    // Decode every version and its schema once.
    let mut vobjs: Vec<Option<&Obj>> = Vec::new();
    let mut schemas: Vec<Option<VersionSchema<'_>>> = Vec::new();
    for (i, v) in versions.iter().enumerate() {
        let vp = versions_p.index(i);
        let vm = as_obj(Some(v), &vp, e);
        vobjs.push(vm);
        let schema_p = vp.child("schema");
        let schema = as_obj(get(vm, "schema"), &schema_p, e);
        let oas_p = schema_p.child("openAPIV3Schema");
        let subresources = get(vm, "subresources").and_then(Value::as_object);
        let status_subresource = get(subresources, "status").is_some();
        schemas.push(get(schema, "openAPIV3Schema").map(|s| {
            let (errs, node) =
                check_schema_node(s, &SchemaCheckOptions { status_subresource }, &oas_p);
            VersionSchema { errs, node }
        }));
    }

    // requireOpenAPISchema
    for (i, s) in schemas.iter().enumerate() {
        if s.is_none() {
            let vp = versions_p.index(i);
            let sp = vp.child("schema");
            e.push(FieldError::required(&sp.child("openAPIV3Schema"), ""));
        }
    }
    // defaults need pruning
    let has_defaults = schemas
        .iter()
        .flatten()
        .any(|s| s.node.as_deref().is_some_and(schema_has_defaults));
    if has_defaults && preserve_unknown {
        e.push(FieldError::invalid(
            &p.child("preserveUnknownFields"),
            true,
            "must be false in order to use defaults in the schema",
        ));
    }

    let mut storage_count = 0;
    let mut seen = HashSet::new();
    let mut unique = true;
    let mut version_names = Vec::new();
    for (i, (vm, schema)) in vobjs.iter().zip(schemas.iter_mut()).enumerate() {
        let vp = versions_p.index(i);
        let name = as_str(get(*vm, "name"), &vp.child("name"), e).unwrap_or("");
        let storage = as_bool(get(*vm, "storage"), &vp.child("storage"), e).unwrap_or(false);
        as_bool(get(*vm, "served"), &vp.child("served"), e);
        version_names.push((name, storage));
        if storage {
            storage_count += 1;
        }
        if !seen.insert(name) {
            unique = false;
        }
        let dns = is_dns1035_label(name);
        if !dns.is_empty() {
            e.push(FieldError::invalid(&vp.child("name"), name, dns.join(",")));
        }
        version_checks(*vm, &vp, schema.as_mut(), e);
    }
    if !unique {
        e.push(FieldError::invalid(
            &versions_p,
            versions_value.map_or(Value::Null, bounded),
            "must contain unique version names",
        ));
    }
    if storage_count != 1 {
        e.push(FieldError::invalid(
            &versions_p,
            versions_value.map_or(Value::Array(Vec::new()), bounded),
            "must have exactly one version marked as storage version",
        ));
    }

    // names
    let names_p = p.child("names");
    let n = Names::read(names, &names_p, true, e);
    for (key, v) in [
        ("plural", n.plural),
        ("singular", n.singular.as_str()),
        ("kind", n.kind),
        ("listKind", n.list_kind.as_str()),
    ] {
        if v.is_empty() {
            e.push(FieldError::required(&names_p.child(key), ""));
        }
    }
    names_checks(&n, &names_p, e);

    conversion(spec, p, preserve_unknown, e);
}

fn schema_has_defaults(n: &Node<'_>) -> bool {
    if n.default.is_some() {
        return true;
    }
    let items = match &n.items {
        Some(Items::One(s)) => schema_has_defaults(s),
        Some(Items::Many(v)) => v.iter().any(|s| schema_has_defaults(s)),
        None => false,
    };
    let named = |list: &Option<Vec<(&str, Box<Node<'_>>)>>| {
        list.as_ref()
            .is_some_and(|l| l.iter().any(|(_, s)| schema_has_defaults(s)))
    };
    items
        || n.all_of
            .iter()
            .chain(&n.any_of)
            .chain(&n.one_of)
            .any(|s| schema_has_defaults(s))
        || n.not.as_deref().is_some_and(schema_has_defaults)
        || n.properties.iter().any(|(_, s)| schema_has_defaults(s))
        || n.additional_schema().is_some_and(schema_has_defaults)
        || named(&n.pattern_properties)
        || named(&n.definitions)
        || n.additional_items
            .as_ref()
            .and_then(|a| a.schema())
            .is_some_and(schema_has_defaults)
        || n.dependencies.as_ref().is_some_and(|d| {
            d.iter()
                .flat_map(|(_, s)| s)
                .any(|s| schema_has_defaults(s))
        })
}

/// `validateCustomResourceDefinitionVersion`.
fn version_checks(
    vm: Option<&Obj>,
    vp: &FieldPath<'_>,
    schema: Option<&mut VersionSchema<'_>>,
    e: &mut ErrorList,
) {
    let deprecated = as_bool(get(vm, "deprecated"), &vp.child("deprecated"), e).unwrap_or(false);
    let dw_p = vp.child("deprecationWarning");
    let warning = as_str(get(vm, "deprecationWarning"), &dw_p, e);
    for msg in deprecation_warning(deprecated, warning) {
        e.push(FieldError::invalid(&dw_p, warning.unwrap_or(""), msg));
    }

    if let Some(s) = schema.as_deref() {
        e.extend(s.errs.iter().cloned());
    }

    // subresources
    let sub_p = vp.child("subresources");
    let subresources = as_obj(get(vm, "subresources"), &sub_p, e);
    as_obj(get(subresources, "status"), &sub_p.child("status"), e);
    let scale_p = sub_p.child("scale");
    if let Some(scale) = as_obj(get(subresources, "scale"), &scale_p, e) {
        scale_checks(scale, &scale_p, e);
    }

    // additionalPrinterColumns
    let cols_p = vp.child("additionalPrinterColumns");
    for (i, c) in as_arr(get(vm, "additionalPrinterColumns"), &cols_p, e)
        .iter()
        .enumerate()
    {
        let cp = cols_p.index(i);
        let col = as_obj(Some(c), &cp, e);
        printer_column(col, &cp, e);
    }

    // selectableFields
    let sf_p = vp.child("selectableFields");
    let fields = as_arr(get(vm, "selectableFields"), &sf_p, e);
    if !fields.is_empty() {
        match schema.as_deref() {
            None => e.push(FieldError::invalid(
                &sf_p,
                "",
                "may only be set when `version.schema.openAPIV3Schema` is not included",
            )),
            Some(VersionSchema {
                node: Some(root), ..
            }) => match convertible(root) {
                Ok(()) => selectable_fields(fields, root, &sf_p, e),
                Err(msg) => {
                    let sp = vp.child("schema");
                    e.push(FieldError::invalid(&sp.child("openAPIV3Schema"), "", msg));
                }
            },
            Some(_) => {}
        }
    }
}

/// `validateDeprecationWarning`.
fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else { return Vec::new() };
    if !deprecated {
        return vec!["can only be set for deprecated versions".to_string()];
    }
    let mut out = Vec::new();
    if w.len() > 256 {
        out.push("must be <= 256 characters long".to_string());
    }
    if w.is_empty() {
        out.push("must not be an empty string".to_string());
    }
    if let Some((i, _)) = w.char_indices().find(|&(_, c)| !is_print(c)) {
        out.push(format!(
            "must only contain printable UTF-8 characters; non-printable character found at index {i}"
        ));
    }
    out
}

/// Go's `unicode.IsPrint`, without Unicode tables: graphic characters and
/// the ASCII space, no controls, format characters, private use or
/// non-characters.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let n = c as u32;
    !(c.is_control()
        || c.is_whitespace()
        || matches!(n, 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E)
        || matches!(n, 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0xFEFF)
        || matches!(n, 0xFFF9..=0xFFFB | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
        || (n & 0xFFFE) == 0xFFFE
        || matches!(n, 0xFDD0..=0xFDEF | 0xE0001 | 0xE0020..=0xE007F))
}

/// `validateSimpleJSONPath`.
fn simple_json_path(s: &str, p: &FieldPath<'_>, e: &mut ErrorList) -> bool {
    if s.is_empty() {
        e.push(FieldError::invalid(p, s, "must not be empty"));
        false
    } else if !s.starts_with('.') {
        e.push(FieldError::invalid(
            p,
            s,
            "must be a simple json path starting with .",
        ));
        false
    } else {
        true
    }
}

fn scale_checks(scale: &Obj, p: &FieldPath<'_>, e: &mut ErrorList) {
    let m = Some(scale);
    for (key, prefix, detail) in [
        (
            "specReplicasPath",
            ".spec.",
            "should be a json path under .spec",
        ),
        (
            "statusReplicasPath",
            ".status.",
            "should be a json path under .status",
        ),
    ] {
        let kp = p.child(key);
        let v = as_str(get(m, key), &kp, e).unwrap_or("");
        if v.is_empty() {
            e.push(FieldError::required(&kp, ""));
        } else if simple_json_path(v, &kp, e) && !v.starts_with(prefix) {
            e.push(FieldError::invalid(&kp, v, detail));
        }
    }
    let lp = p.child("labelSelectorPath");
    if let Some(v) = as_str(get(m, "labelSelectorPath"), &lp, e).filter(|v| !v.is_empty())
        && simple_json_path(v, &lp, e)
        && !v.starts_with(".spec.")
        && !v.starts_with(".status.")
    {
        e.push(FieldError::invalid(
            &lp,
            v,
            "should be a json path under either .spec or .status",
        ));
    }
}

/// `ValidateCustomResourceColumnDefinition`.
fn printer_column(col: Option<&Obj>, p: &FieldPath<'_>, e: &mut ErrorList) {
    let name_p = p.child("name");
    if as_str(get(col, "name"), &name_p, e)
        .unwrap_or("")
        .is_empty()
    {
        e.push(FieldError::required(&name_p, ""));
    }
    let type_p = p.child("type");
    let ty = as_str(get(col, "type"), &type_p, e).unwrap_or("");
    let type_detail = format!("must be one of {PRINTER_COLUMN_TYPES}");
    if ty.is_empty() {
        e.push(FieldError::required(&type_p, type_detail));
    } else if !PRINTER_COLUMN_TYPES.split(',').any(|t| t == ty) {
        e.push(FieldError::invalid(&type_p, ty, type_detail));
    }
    let format_p = p.child("format");
    let format = as_str(get(col, "format"), &format_p, e).unwrap_or("");
    if !format.is_empty() && !PRINTER_COLUMN_FORMATS.split(',').any(|f| f == format) {
        e.push(FieldError::invalid(
            &format_p,
            format,
            format!("must be one of {PRINTER_COLUMN_FORMATS}"),
        ));
    }
    // Go reports the internal field name `JSONPath`.
    let json_p = p.child("JSONPath");
    let jp = as_str(get(col, "jsonPath"), &p.child("jsonPath"), e).unwrap_or("");
    if jp.is_empty() {
        e.push(FieldError::required(&json_p, ""));
    } else {
        simple_json_path(jp, &json_p, e);
    }
    as_i64(get(col, "priority"), &p.child("priority"), e);
}

/// `ValidateCustomResourceSelectableFields`.
fn selectable_fields(fields: &[Value], root: &Node<'_>, p: &FieldPath<'_>, e: &mut ErrorList) {
    let mut unique = HashSet::new();
    for (i, f) in fields.iter().enumerate() {
        let ip = p.index(i);
        let jp_p = ip.child("jsonPath");
        let obj = as_obj(Some(f), &ip, e);
        let jp = as_str(get(obj, "jsonPath"), &jp_p, e).unwrap_or("");
        if jp.is_empty() {
            e.push(FieldError::required(&jp_p, ""));
            continue;
        }
        let resolved = match resolve_field_path(jp, root, false) {
            Ok(r) => r,
            Err(err) => {
                e.push(FieldError::invalid(
                    &jp_p,
                    jp,
                    format!("is an invalid path: {err}"),
                ));
                continue;
            }
        };
        if resolved.root == "metadata" {
            e.push(FieldError::invalid(
                &jp_p,
                jp,
                "must not point to fields in metadata",
            ));
        }
        if !resolved
            .schema
            .is_some_and(|s| matches!(s.ty(), "string" | "boolean" | "integer"))
        {
            e.push(FieldError::invalid(
                &jp_p,
                jp,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if !unique.insert(resolved.rendered) {
            e.push(FieldError::duplicate(&jp_p, jp));
        }
    }
    let count = unique.len() as i64;
    if count > MAX_SELECTABLE_FIELDS {
        e.push(FieldError::too_many(p, count, MAX_SELECTABLE_FIELDS));
    }
}

/// `validateCustomResourceConversion` (v1 JSON: `webhook.clientConfig` and
/// `webhook.conversionReviewVersions`, reported with Go's internal names).
fn conversion(spec: Option<&Obj>, p: &FieldPath<'_>, preserve_unknown: bool, e: &mut ErrorList) {
    let cp = p.child("conversion");
    let Some(conv) = as_obj(get(spec, "conversion"), &cp, e) else {
        return; // defaulted to strategy None
    };
    let conv = Some(conv);
    let strategy_p = cp.child("strategy");
    let strategy = as_str(get(conv, "strategy"), &strategy_p, e).unwrap_or("");
    let webhook_p = cp.child("webhook");
    let webhook = as_obj(get(conv, "webhook"), &webhook_p, e);
    let client_config = as_obj(
        get(webhook, "clientConfig"),
        &webhook_p.child("clientConfig"),
        e,
    );
    let crv_p = cp.child("conversionReviewVersions");
    let review_versions = as_strings(
        get(webhook, "conversionReviewVersions"),
        &webhook_p.child("conversionReviewVersions"),
        e,
    );

    if strategy != "None" && preserve_unknown {
        e.push(FieldError::invalid(
            &strategy_p,
            strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    match strategy {
        "" => e.push(FieldError::required(&strategy_p, "")),
        "None" | "Webhook" => {}
        other => e.push(FieldError::not_supported(
            &strategy_p,
            other,
            &["None", "Webhook"],
        )),
    }
    let wcc_p = cp.child("webhookClientConfig");
    if strategy == "Webhook" {
        match client_config {
            None => e.push(FieldError::required(
                &wcc_p,
                "required when strategy is set to Webhook",
            )),
            Some(cc) => {
                let cc = Some(cc);
                let url_p = wcc_p.child("url");
                let service_p = wcc_p.child("service");
                let url = as_str(get(cc, "url"), &url_p, e);
                let service = as_obj(get(cc, "service"), &service_p, e);
                match (url, service) {
                    (Some(u), None) => webhook_url(u, &url_p, e),
                    (None, Some(s)) => webhook_service(s, &service_p, e),
                    _ => e.push(FieldError::required(
                        &wcc_p,
                        "exactly one of url or service is required",
                    )),
                }
            }
        }
        conversion_review_versions(&review_versions, &crv_p, e);
    } else {
        if client_config.is_some() {
            e.push(FieldError::forbidden(
                &wcc_p,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            e.push(FieldError::forbidden(
                &crv_p,
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

fn conversion_review_versions(versions: &[(usize, &str)], p: &FieldPath<'_>, e: &mut ErrorList) {
    if versions.is_empty() {
        e.push(FieldError::required(p, ""));
        return;
    }
    let mut seen = HashSet::new();
    let mut accepted = false;
    for (i, v) in versions {
        let ip = p.index(*i);
        if !seen.insert(*v) {
            e.push(FieldError::invalid(&ip, *v, "duplicate version"));
            continue;
        }
        for msg in is_dns1035_label(v) {
            e.push(FieldError::invalid(&ip, *v, msg));
        }
        if *v == "v1" || *v == "v1beta1" {
            accepted = true;
        }
    }
    if !accepted {
        let list: Vec<&str> = versions.iter().map(|(_, v)| *v).collect();
        e.push(FieldError::invalid(
            p,
            list,
            "must include at least one of v1, v1beta1",
        ));
    }
}

/// `webhook.ValidateWebhookURL` with https forced.
fn webhook_url(url: &str, p: &FieldPath<'_>, e: &mut ErrorList) {
    const FORM: &str = "; desired format: https://host[/path]";
    if url.chars().any(|c| c.is_control() || c == ' ') {
        e.push(FieldError::required(
            p,
            format!("url must be a valid URL: parse {url:?}: invalid character in URL{FORM}"),
        ));
        return;
    }
    let (rest, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (scheme, host, user) = match rest.split_once("://") {
        Some((scheme, after)) => {
            let authority = after.split('/').next().unwrap_or("");
            match authority.rsplit_once('@') {
                Some((user, host)) => (scheme, host, Some(user)),
                None => (scheme, authority, None),
            }
        }
        None => ("", "", None),
    };
    if scheme != "https" {
        e.push(FieldError::invalid(
            p,
            scheme,
            format!("'https' is the only allowed URL scheme{FORM}"),
        ));
    }
    if host.is_empty() {
        e.push(FieldError::invalid(
            p,
            host,
            format!("host must be specified{FORM}"),
        ));
    }
    if let Some(user) = user {
        e.push(FieldError::invalid(
            p,
            user,
            "user information is not permitted in the URL",
        ));
    }
    if !fragment.is_empty() {
        e.push(FieldError::invalid(
            p,
            fragment,
            "fragments are not permitted in the URL",
        ));
    }
    if !query.is_empty() {
        e.push(FieldError::invalid(
            p,
            query,
            "query parameters are not permitted in the URL",
        ));
    }
}

/// `webhook.ValidateWebhookService` (the port defaults to 443).
fn webhook_service(s: &Obj, p: &FieldPath<'_>, e: &mut ErrorList) {
    let m = Some(s);
    let name_p = p.child("name");
    if as_str(get(m, "name"), &name_p, e).unwrap_or("").is_empty() {
        e.push(FieldError::required(&name_p, "service name is required"));
    }
    let ns_p = p.child("namespace");
    if as_str(get(m, "namespace"), &ns_p, e)
        .unwrap_or("")
        .is_empty()
    {
        e.push(FieldError::required(&ns_p, "service namespace is required"));
    }
    let port_p = p.child("port");
    let port = as_i64(get(m, "port"), &port_p, e).unwrap_or(443);
    if !(1..=65535).contains(&port) {
        e.push(FieldError::invalid(
            &port_p,
            port,
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let path_p = p.child("path");
    let Some(path) = as_str(get(m, "path"), &path_p, e) else {
        return;
    };
    if path.is_empty() || path == "/" {
        return;
    }
    if path == "//" {
        e.push(FieldError::invalid(
            &path_p,
            path,
            "segment[0] may not be empty",
        ));
        return;
    }
    if !path.starts_with('/') {
        e.push(FieldError::invalid(&path_p, path, "must start with a '/'"));
    }
    let mut check = path.get(1..).unwrap_or("");
    if let Some(stripped) = check.strip_suffix('/') {
        check = stripped;
    }
    for (i, step) in check.split('/').enumerate() {
        if step.is_empty() {
            e.push(FieldError::invalid(
                &path_p,
                path,
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for failure in is_dns1123_subdomain(step) {
            e.push(FieldError::invalid(
                &path_p,
                path,
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
}

/// `ValidateCustomResourceDefinitionStoredVersions`, when the CRD carries
/// `status.storedVersions` (the apiserver fills it in on create).
fn stored_versions(
    status: Option<&Obj>,
    status_p: &FieldPath<'_>,
    spec: Option<&Obj>,
    spec_p: &FieldPath<'_>,
    e: &mut ErrorList,
) {
    let p = status_p.child("storedVersions");
    let Some(raw) = get(status, "storedVersions") else {
        return;
    };
    let stored = as_strings(Some(raw), &p, e);
    if stored.is_empty() {
        e.push(FieldError::invalid(
            &p,
            Value::Array(Vec::new()),
            "must have at least one stored version",
        ));
        return;
    }
    let mut quiet = ErrorList::new();
    let versions_p = spec_p.child("versions");
    let mut names = Vec::new();
    for (i, v) in as_arr(get(spec, "versions"), &versions_p, &mut quiet)
        .iter()
        .enumerate()
    {
        let vp = versions_p.index(i);
        let vm = as_obj(Some(v), &vp, &mut quiet);
        let name = as_str(get(vm, "name"), &vp, &mut quiet).unwrap_or("");
        let storage = as_bool(get(vm, "storage"), &vp, &mut quiet).unwrap_or(false);
        names.push(name);
        if storage && !stored.iter().any(|(_, s)| *s == name) {
            e.push(FieldError::invalid(
                &p,
                bounded(raw),
                format!("must have the storage version {name}"),
            ));
        }
    }
    for (i, s) in &stored {
        if !names.contains(s) {
            e.push(FieldError::invalid(
                &p.index(*i),
                *s,
                format!(
                    "missing from spec.versions; {s} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {s} and removes {s} from status.storedVersions"
                ),
            ));
        }
    }
}

/// `validateAPIApproval` for a new CRD.
fn api_approval(meta: Option<&Obj>, group: &str, e: &mut ErrorList) {
    let protected = ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|g| group == *g || group.ends_with(&format!(".{g}")));
    if !protected {
        return;
    }
    let meta_p = FieldPath::new("metadata");
    let ann_p = meta_p.child("annotations");
    let p = ann_p.key(API_APPROVAL_ANNOTATION);
    let annotations = get(meta, "annotations").and_then(Value::as_object);
    let value = get(annotations, API_APPROVAL_ANNOTATION)
        .and_then(Value::as_str)
        .unwrap_or("");
    if value.is_empty() {
        e.push(FieldError::required(
            &p,
            format!(
                "protected groups must have approval annotation {API_APPROVAL_ANNOTATION:?}, see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        ));
    } else if !value.starts_with("unapproved") && !is_request_uri(value) {
        e.push(FieldError::invalid(
            &p,
            value,
            format!(
                "protected groups must have approval annotation {API_APPROVAL_ANNOTATION:?} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111"
            ),
        ));
    }
}

/// Roughly Go's `url.ParseRequestURI`: an absolute URI or an absolute path.
fn is_request_uri(s: &str) -> bool {
    if s.starts_with('/') {
        return !s.contains(char::is_whitespace);
    }
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
}
