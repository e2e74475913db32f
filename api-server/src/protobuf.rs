//! Just enough of Kubernetes' protobuf encoding to read what kubectl sends
//! for the one built-in kind served here: `kubectl create namespace` posts
//! a `Namespace` as `application/vnd.kubernetes.protobuf` (client-go's
//! default for built-in types), with no JSON fallback for request bodies.
//!
//! The envelope (k8s.io/apimachinery `runtime/serializer/protobuf`): the
//! magic `k8s\0`, then a `runtime.Unknown` message (`typeMeta` = 1 with
//! `apiVersion` = 1 and `kind` = 2, `raw` = 2). A `Namespace` (k8s.io/api
//! `core/v1/generated.proto`) is `metadata` = 1; of its `ObjectMeta`, the
//! fields a create may carry are read: `name` = 1, `generateName` = 2,
//! `labels` = 11 and `annotations` = 12 (map entries: `key` = 1, `value` =
//! 2). Anything else is skipped by its wire type; malformed input is a 400.

use api_core::Status;
use serde_json::{Map, Value, json};

/// The media type.
pub const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

const MAGIC: &[u8] = b"k8s\0";

/// A field of a message: its number and its payload.
enum Field<'a> {
    /// A varint (its value is never needed here).
    Varint,
    Bytes(&'a [u8]),
}

fn bad(what: &str) -> Status {
    Status::bad_request(format!("the protobuf body is malformed: {what}"))
}

fn varint(input: &mut &[u8]) -> Result<u64, Status> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = input.split_first().ok_or_else(|| bad("truncated varint"))?;
        *input = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(bad("varint too long"))
}

/// The fields of a message, in order.
fn fields(mut input: &[u8]) -> Result<Vec<(u64, Field<'_>)>, Status> {
    let mut out = Vec::new();
    while !input.is_empty() {
        let tag = varint(&mut input)?;
        let (number, wire) = (tag >> 3, tag & 7);
        let field = match wire {
            0 => {
                varint(&mut input)?;
                Field::Varint
            }
            1 | 5 => {
                let n = if wire == 1 { 8 } else { 4 };
                if input.len() < n {
                    return Err(bad("truncated fixed-width field"));
                }
                input = &input[n..];
                continue;
            }
            2 => {
                let len = usize::try_from(varint(&mut input)?).map_err(|_| bad("length"))?;
                if input.len() < len {
                    return Err(bad("truncated length-delimited field"));
                }
                let (bytes, rest) = input.split_at(len);
                input = rest;
                Field::Bytes(bytes)
            }
            _ => return Err(bad("unknown wire type")),
        };
        out.push((number, field));
    }
    Ok(out)
}

fn string(bytes: &[u8]) -> Result<String, Status> {
    String::from_utf8(bytes.to_vec()).map_err(|_| bad("a string is not UTF-8"))
}

fn map_entry(bytes: &[u8]) -> Result<(String, String), Status> {
    let (mut key, mut value) = (String::new(), String::new());
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Bytes(b)) => key = string(b)?,
            (2, Field::Bytes(b)) => value = string(b)?,
            _ => {}
        }
    }
    Ok((key, value))
}

fn object_meta(bytes: &[u8]) -> Result<Value, Status> {
    let mut meta = Map::new();
    let (mut labels, mut annotations) = (Map::new(), Map::new());
    for (n, f) in fields(bytes)? {
        match (n, f) {
            (1, Field::Bytes(b)) => {
                meta.insert("name".into(), string(b)?.into());
            }
            (2, Field::Bytes(b)) => {
                meta.insert("generateName".into(), string(b)?.into());
            }
            (3, Field::Bytes(b)) => {
                meta.insert("namespace".into(), string(b)?.into());
            }
            (11, Field::Bytes(b)) => {
                let (k, v) = map_entry(b)?;
                labels.insert(k, v.into());
            }
            (12, Field::Bytes(b)) => {
                let (k, v) = map_entry(b)?;
                annotations.insert(k, v.into());
            }
            _ => {}
        }
    }
    if !labels.is_empty() {
        meta.insert("labels".into(), labels.into());
    }
    if !annotations.is_empty() {
        meta.insert("annotations".into(), annotations.into());
    }
    Ok(Value::Object(meta))
}

/// The `runtime.Unknown` envelope: `(apiVersion, kind, raw)`.
fn envelope(body: &[u8]) -> Result<(String, String, &[u8]), Status> {
    let unknown = body
        .strip_prefix(MAGIC)
        .ok_or_else(|| bad("no k8s magic prefix"))?;
    let (mut api_version, mut kind, mut raw) = (String::new(), String::new(), None);
    for (n, f) in fields(unknown)? {
        match (n, f) {
            (1, Field::Bytes(type_meta)) => {
                for (m, g) in fields(type_meta)? {
                    match (m, g) {
                        (1, Field::Bytes(b)) => api_version = string(b)?,
                        (2, Field::Bytes(b)) => kind = string(b)?,
                        _ => {}
                    }
                }
            }
            (2, Field::Bytes(b)) => raw = Some(b),
            _ => {}
        }
    }
    Ok((api_version, kind, raw.unwrap_or_default()))
}

/// A `v1` `Namespace` sent as protobuf (what `kubectl create namespace`
/// sends), as JSON: its metadata (a new namespace's spec and status are
/// the server's).
pub fn namespace(body: &[u8]) -> Result<Value, Status> {
    let (api_version, kind, raw) = envelope(body)?;
    if (api_version.as_str(), kind.as_str()) != ("v1", "Namespace") {
        return Err(Status::bad_request(format!(
            "only v1 Namespace is read from protobuf, not {api_version} {kind}"
        )));
    }
    let mut metadata = json!({});
    for (n, f) in fields(raw)? {
        if let (1, Field::Bytes(b)) = (n, f) {
            metadata = object_meta(b)?;
        }
    }
    Ok(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": metadata}))
}

/// An object of `kind` sent as protobuf (what kubectl sends for the
/// built-in kinds it creates: namespaces and the RBAC kinds), as JSON;
/// 415 for a kind this server does not read from protobuf.
pub fn object(kind: &api_core::registry::KindInfo, body: &[u8]) -> Result<Value, Status> {
    match (kind.group.as_str(), kind.kind.as_str()) {
        ("", "Namespace") => namespace(body),
        (crate::rbac::GROUP_NAME, _) => rbac_object(body),
        _ => Err(Status::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ])),
    }
}

/// An `authorization.k8s.io/v1` `SelfSubjectAccessReview` or
/// `SelfSubjectRulesReview` sent as protobuf (what `kubectl auth can-i`
/// sends), as JSON: the spec's resource and non-resource attributes, or
/// the namespace.
pub fn self_review(body: &[u8]) -> Result<Value, Status> {
    let (api_version, kind, raw) = envelope(body)?;
    if api_version != "authorization.k8s.io/v1" {
        return Err(Status::bad_request(format!(
            "{api_version} {kind} is not read from protobuf"
        )));
    }
    let mut spec = json!({});
    for (n, f) in fields(raw)? {
        let (2, Field::Bytes(spec_bytes)) = (n, f) else {
            continue;
        };
        for (m, g) in fields(spec_bytes)? {
            match (kind.as_str(), m, g) {
                ("SelfSubjectAccessReview", 1, Field::Bytes(b)) => {
                    let names = [
                        "namespace",
                        "verb",
                        "group",
                        "version",
                        "resource",
                        "subresource",
                        "name",
                    ];
                    spec["resourceAttributes"] = strings(b, &names)?;
                }
                ("SelfSubjectAccessReview", 2, Field::Bytes(b)) => {
                    spec["nonResourceAttributes"] = strings(b, &["path", "verb"])?;
                }
                ("SelfSubjectRulesReview", 1, Field::Bytes(b)) => {
                    spec["namespace"] = json!(string(b)?);
                }
                _ => {}
            }
        }
    }
    Ok(json!({"apiVersion": api_version, "kind": kind, "spec": spec}))
}

/// A message of string fields 1, 2, ... named by `names` (others are
/// skipped).
fn strings(bytes: &[u8], names: &[&str]) -> Result<Value, Status> {
    let mut out = serde_json::Map::new();
    for (n, f) in fields(bytes)? {
        let index = usize::try_from(n).unwrap_or(usize::MAX).wrapping_sub(1);
        if let (Some(name), Field::Bytes(b)) = (names.get(index), f) {
            out.insert((*name).to_string(), json!(string(b)?));
        }
    }
    Ok(Value::Object(out))
}

/// A `rbac.authorization.k8s.io/v1` `Role`, `ClusterRole`, `RoleBinding`
/// or `ClusterRoleBinding` sent as protobuf (what `kubectl create role`,
/// `clusterrole`, `rolebinding` and `clusterrolebinding` send), as JSON.
/// Of an aggregation rule's selectors only `matchLabels` is read.
pub fn rbac_object(body: &[u8]) -> Result<Value, Status> {
    let (api_version, kind, raw) = envelope(body)?;
    if api_version != "rbac.authorization.k8s.io/v1" {
        return Err(Status::bad_request(format!(
            "{api_version} {kind} is not read from protobuf"
        )));
    }
    let mut object = json!({"apiVersion": api_version, "kind": kind});
    let binding = kind.ends_with("Binding");
    let (mut rules, mut subjects, mut selectors) = (Vec::new(), Vec::new(), Vec::new());
    for (n, f) in fields(raw)? {
        let Field::Bytes(b) = f else { continue };
        match (n, binding) {
            (1, _) => object["metadata"] = object_meta(b)?,
            (2, false) => rules.push(repeated_strings(
                b,
                &[
                    "verbs",
                    "apiGroups",
                    "resources",
                    "resourceNames",
                    "nonResourceURLs",
                ],
            )?),
            (3, false) => {
                for (m, g) in fields(b)? {
                    if let (1, Field::Bytes(selector)) = (m, g) {
                        let mut labels = Map::new();
                        for (k, h) in fields(selector)? {
                            if let (1, Field::Bytes(entry)) = (k, h) {
                                let (key, value) = map_entry(entry)?;
                                labels.insert(key, value.into());
                            }
                        }
                        selectors.push(json!({"matchLabels": labels}));
                    }
                }
            }
            (2, true) => subjects.push(strings(b, &["kind", "apiGroup", "name", "namespace"])?),
            (3, true) => object["roleRef"] = strings(b, &["apiGroup", "kind", "name"])?,
            _ => {}
        }
    }
    if binding {
        object["subjects"] = subjects.into();
    } else {
        object["rules"] = rules.into();
        if !selectors.is_empty() {
            object["aggregationRule"] = json!({"clusterRoleSelectors": selectors});
        }
    }
    Ok(object)
}

/// A message of repeated string fields 1, 2, ... named by `names`.
fn repeated_strings(bytes: &[u8], names: &[&str]) -> Result<Value, Status> {
    let mut out = Map::new();
    for (n, f) in fields(bytes)? {
        let index = usize::try_from(n).unwrap_or(usize::MAX).wrapping_sub(1);
        if let (Some(name), Field::Bytes(b)) = (names.get(index), f) {
            let list = out
                .entry((*name).to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(items) = list {
                items.push(string(b)?.into());
            }
        }
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len_field(number: u8, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![(number << 3) | 2];
        let mut len = payload.len();
        loop {
            let byte = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
        out.extend_from_slice(payload);
        out
    }

    /// What client-go writes for `kubectl create namespace demo` (built
    /// from the field numbers of the upstream .proto files).
    fn encoded(name: &str, labels: &[(&str, &str)]) -> Vec<u8> {
        let mut meta = len_field(1, name.as_bytes());
        for (k, v) in labels {
            let entry = [len_field(1, k.as_bytes()), len_field(2, v.as_bytes())].concat();
            meta.extend(len_field(11, &entry));
        }
        // A creationTimestamp (8, an empty Time message) and a varint
        // field (generation = 7) are skipped.
        meta.extend(len_field(8, &[]));
        meta.extend([7 << 3, 5]);
        let namespace = [len_field(1, &meta), len_field(2, &[]), len_field(3, &[])].concat();
        let type_meta = [len_field(1, b"v1"), len_field(2, b"Namespace")].concat();
        let unknown = [
            len_field(1, &type_meta),
            len_field(2, &namespace),
            len_field(3, b""),
            len_field(4, b""),
        ]
        .concat();
        [MAGIC, &unknown].concat()
    }

    #[test]
    fn reads_a_namespace() {
        let value = namespace(&encoded("demo", &[("team", "a")])).unwrap();
        assert_eq!(
            value,
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "demo", "labels": {"team": "a"}}})
        );
    }

    #[test]
    fn malformed_input_is_a_400_never_a_panic() {
        let good = encoded("demo", &[]);
        for cut in 0..good.len() {
            if let Err(status) = namespace(&good[..cut]) {
                assert_eq!(status.code, 400);
            }
        }
        assert_eq!(namespace(b"k8s\0\xff\xff\xff").unwrap_err().code, 400);
        assert_eq!(namespace(b"{}").unwrap_err().code, 400);
    }

    fn envelope_of(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
        let type_meta = [
            len_field(1, api_version.as_bytes()),
            len_field(2, kind.as_bytes()),
        ]
        .concat();
        [MAGIC.to_vec(), len_field(1, &type_meta), len_field(2, raw)].concat()
    }

    /// What `kubectl create role r -n demo --verb=get,list
    /// --resource=memcacheds.cache.example.com --resource-name=mc1` and
    /// `create rolebinding b --role=r --user=carol` send (field numbers of
    /// k8s.io/api/rbac/v1/generated.proto).
    #[test]
    fn rbac_objects() {
        let meta = [len_field(1, b"r"), len_field(3, b"demo")].concat();
        let rule = [
            len_field(1, b"get"),
            len_field(1, b"list"),
            len_field(2, b"cache.example.com"),
            len_field(3, b"memcacheds"),
            len_field(4, b"mc1"),
        ]
        .concat();
        let role = [len_field(1, &meta), len_field(2, &rule)].concat();
        let json =
            rbac_object(&envelope_of("rbac.authorization.k8s.io/v1", "Role", &role)).unwrap();
        assert_eq!(
            json,
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                   "metadata": {"name": "r", "namespace": "demo"},
                   "rules": [{"verbs": ["get", "list"], "apiGroups": ["cache.example.com"],
                              "resources": ["memcacheds"], "resourceNames": ["mc1"]}]})
        );
        let subject = [
            len_field(1, b"User"),
            len_field(2, b"rbac.authorization.k8s.io"),
            len_field(3, b"carol"),
        ]
        .concat();
        let role_ref = [
            len_field(1, b"rbac.authorization.k8s.io"),
            len_field(2, b"Role"),
            len_field(3, b"r"),
        ]
        .concat();
        let binding = [
            len_field(1, &len_field(1, b"b")),
            len_field(2, &subject),
            len_field(3, &role_ref),
        ]
        .concat();
        let json = rbac_object(&envelope_of(
            "rbac.authorization.k8s.io/v1",
            "RoleBinding",
            &binding,
        ))
        .unwrap();
        assert_eq!(
            json["subjects"],
            json!([{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "carol"}])
        );
        assert_eq!(
            json["roleRef"],
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"})
        );
        // Another group, truncated input: 400s, no panic.
        assert_eq!(
            rbac_object(&envelope_of("v1", "Namespace", &[]))
                .unwrap_err()
                .code,
            400
        );
        let mut cut = envelope_of("rbac.authorization.k8s.io/v1", "Role", &role);
        cut.truncate(cut.len() - 3);
        assert_eq!(rbac_object(&cut).unwrap_err().code, 400);
    }
}
