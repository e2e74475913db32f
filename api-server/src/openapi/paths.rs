//! The routes of a resource in an OpenAPI v3 document (apiextensions'
//! `generateBuilder` through k8s.io/apiserver's `buildRoute`): the paths of
//! the collection, the object and its subresources, each operation with
//! upstream's description, `operationId`, tag, parameters, request body
//! and responses.

use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};
use serde_json::{Map, Value, json};

use super::{
    DELETE_OPTIONS, NAMESPACE, PATCH, SCALE, STATUS, list_kind, meta, model_name, reference,
};

/// k8s.io/apiserver `ToValidOperationID`: drops characters that are not
/// letters, `_` or (after the first) digits, capitalizing the next kept
/// one.
pub(super) fn to_valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::new();
    let mut capitalize = capitalize_first;
    for (i, c) in s.chars().enumerate() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}

/// `GetOperationIDAndTags` for an `/apis/<group>/<version>/...` path and
/// an operation name starting with a verb.
pub(super) fn operation_id_and_tag(
    verb: &str,
    rest: &str,
    group: &str,
    version: &str,
) -> (String, String) {
    // `GetOperationIDAndTags` splits the operation at the shortest of
    // its verbs it starts with (a trie's first word end), so
    // `deletecollection…` is `delete` + `Collection…`
    // (`deleteCoreV1CollectionNamespacedConfigMap`).
    let collection;
    let (verb, rest) = match verb.strip_prefix("delete") {
        Some(tail) if !tail.is_empty() => {
            collection = format!("{tail}{rest}");
            ("delete", collection.as_str())
        }
        _ => (verb, rest),
    };
    let trimmed = group.strip_suffix(".k8s.io").unwrap_or(group);
    let id = format!(
        "{verb}{}{}{}",
        to_valid_operation_id(trimmed, true),
        to_valid_operation_id(version, true),
        to_valid_operation_id(rest, true)
    );
    let tag = format!(
        "{}_{}",
        to_valid_operation_id(trimmed, false),
        to_valid_operation_id(version, false)
    );
    (id, tag)
}

/// `GetArticleForNoun(noun, " ")`.
pub(super) fn article_for(noun: &str) -> &'static str {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return " ";
    }
    match noun.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => " an ",
        _ => " a ",
    }
}

fn query_param(name: &str, description_key: &str) -> Value {
    let p = &meta()["params"][description_key];
    json!({
        "name": name,
        "in": "query",
        "description": p["description"],
        "schema": { "type": p["type"], "uniqueItems": true },
    })
}

fn path_param(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "in": "path",
        "description": description,
        "required": true,
        "schema": { "type": "string", "uniqueItems": true },
    })
}

/// The query parameters of an action's options type, sorted by name.
fn action_params(action: &str) -> Vec<Value> {
    let names: &[(&str, &str)] = match action {
        "get" => &[("resourceVersion", "resourceVersion")],
        "list" | "deletecollection" => &[
            ("allowWatchBookmarks", "allowWatchBookmarks"),
            ("continue", "continue"),
            ("fieldSelector", "fieldSelector"),
            ("labelSelector", "labelSelector"),
            ("limit", "limit"),
            ("resourceVersion", "listResourceVersion"),
            ("resourceVersionMatch", "resourceVersionMatch"),
            ("sendInitialEvents", "sendInitialEvents"),
            ("timeoutSeconds", "timeoutSeconds"),
            ("watch", "watch"),
        ],
        "post" | "put" => &[
            ("dryRun", "dryRun"),
            ("fieldManager", "fieldManager"),
            ("fieldValidation", "fieldValidation"),
        ],
        "patch" => &[
            ("dryRun", "dryRun"),
            ("fieldManager", "fieldManager"),
            ("fieldValidation", "fieldValidation"),
            ("force", "force"),
        ],
        "delete" => &[
            ("dryRun", "dryRun"),
            ("gracePeriodSeconds", "gracePeriodSeconds"),
            (
                "ignoreStoreReadErrorWithClusterBreakingPotential",
                "ignoreStoreReadErrorWithClusterBreakingPotential",
            ),
            ("orphanDependents", "orphanDependents"),
            ("propagationPolicy", "propagationPolicy"),
        ],
        _ => &[],
    };
    names.iter().map(|(n, k)| query_param(n, k)).collect()
}

fn content(types: &[&str], model: &str) -> Value {
    let mut map = Map::new();
    for t in types {
        map.insert((*t).into(), json!({ "schema": reference(model) }));
    }
    Value::Object(map)
}

const PRODUCES: [&str; 2] = ["application/json", "application/yaml"];
const PATCH_TYPES: [&str; 3] = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];

/// One resource version's builder state.
struct Builder<'a> {
    /// The group in operation ids and tags (`core` for the core group).
    id_group: &'a str,
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    namespaced: bool,
}

impl Builder<'_> {
    /// `descriptionFor`.
    fn description(&self, sub: &str, operation_verb: &str) -> String {
        let article = match operation_verb {
            "list" => " objects of kind ",
            "read" | "replace" | "patch" => " the specified ",
            "create" | "delete" => article_for(self.kind),
            _ => "",
        };
        let sub = if sub.is_empty() {
            String::new()
        } else {
            format!(" {sub} of")
        };
        match operation_verb {
            "patch" => format!("partially update{sub}{article}{}", self.kind),
            "deletecollection" => {
                let sub = if sub.is_empty() {
                    sub
                } else {
                    format!("{sub} a")
                };
                format!("delete collection of{sub} {}", self.kind)
            }
            _ => format!("{operation_verb}{sub}{article}{}", self.kind),
        }
    }

    /// One operation (`buildRoute`); `sub` is the subresource (`""`,
    /// `status`, `scale`), `response` the model returned.
    fn operation(
        &self,
        sub: &str,
        action: &str,
        operation_verb: &str,
        response: &str,
        all_namespaces: bool,
    ) -> Value {
        let mut title = String::new();
        let mut chars = sub.chars();
        if let Some(first) = chars.next() {
            title.extend(first.to_uppercase());
            title.push_str(chars.as_str());
        }
        let rest = if all_namespaces {
            format!("{}ForAllNamespaces", self.kind)
        } else {
            let namespaced = if self.namespaced { "Namespaced" } else { "" };
            format!("{namespaced}{}{title}", self.kind)
        };
        let (operation_id, tag) =
            operation_id_and_tag(operation_verb, &rest, self.id_group, self.version);
        let mut responses = Map::new();
        responses.insert(
            "200".into(),
            json!({ "description": "OK", "content": content(&PRODUCES, response) }),
        );
        match action {
            "post" => {
                responses.insert(
                    "201".into(),
                    json!({ "description": "Created", "content": content(&PRODUCES, response) }),
                );
                responses.insert(
                    "202".into(),
                    json!({ "description": "Accepted", "content": content(&PRODUCES, response) }),
                );
            }
            "delete" => {
                responses.insert(
                    "202".into(),
                    json!({ "description": "Accepted", "content": content(&PRODUCES, response) }),
                );
            }
            "put" => {
                responses.insert(
                    "201".into(),
                    json!({ "description": "Created", "content": content(&PRODUCES, response) }),
                );
            }
            _ => {}
        }
        responses.insert("401".into(), json!({ "description": "Unauthorized" }));
        let mut op = json!({
            "tags": [tag],
            "description": self.description(sub, operation_verb),
            "operationId": operation_id,
            "responses": responses,
            "x-kubernetes-action": action,
            "x-kubernetes-group-version-kind": { "group": self.group, "version": self.version, "kind": self.kind },
        });
        let body = match action {
            "post" | "put" => {
                Some(json!({ "content": content(&PRODUCES, response), "required": true }))
            }
            "patch" => Some(json!({ "content": content(&PATCH_TYPES, PATCH), "required": true })),
            "delete" => Some(json!({ "content": content(&PRODUCES, DELETE_OPTIONS) })),
            _ => None,
        };
        if let Some(body) = body {
            op["requestBody"] = body;
        }
        op
    }
}

/// A path item from its routes (method, operation, all the route's
/// parameters): parameters every route has move to the path (builder3
/// `findCommonParameters`), the others stay on their operation; both lists
/// sorted by name.
fn path_item(routes: Vec<(&str, Value, Vec<Value>)>) -> Value {
    let key = |p: &Value| (p["name"].clone(), p["in"].clone());
    let mut common: Vec<Value> = Vec::new();
    if let Some((_, _, first)) = routes.first() {
        for param in first {
            if routes
                .iter()
                .all(|(_, _, params)| params.iter().any(|q| key(q) == key(param)))
            {
                common.push(param.clone());
            }
        }
    }
    let by_name = |a: &Value, b: &Value| {
        (a["name"].as_str(), a["in"].as_str()).cmp(&(b["name"].as_str(), b["in"].as_str()))
    };
    common.sort_by(by_name);
    let mut item = Map::new();
    for (method, mut op, params) in routes {
        let mut own: Vec<Value> = params
            .into_iter()
            .filter(|p| !common.iter().any(|c| key(c) == key(p)))
            .collect();
        own.sort_by(by_name);
        if !own.is_empty() {
            op["parameters"] = Value::Array(own);
        }
        item.insert(method.into(), op);
    }
    if !common.is_empty() {
        item.insert("parameters".into(), Value::Array(common));
    }
    Value::Object(item)
}

/// A resource's routes: where it lives and what it serves.
struct Resource<'a> {
    /// `/apis/<group>/<version>` or `/api/v1`.
    prefix: String,
    builder: Builder<'a>,
    plural: &'a str,
    model: String,
    list_model: String,
    deletecollection: bool,
    /// Subresources: name, model returned, `(method, action, verb)`s.
    subresources: Vec<(&'static str, String, &'static [Route])>,
}

/// A route of a subresource: HTTP method, action, operation verb.
type Route = (&'static str, &'static str, &'static str);

const GET_PUT_PATCH: &[Route] = &[
    ("get", "get", "read"),
    ("put", "put", "replace"),
    ("patch", "patch", "patch"),
];

fn resource_paths(r: &Resource<'_>) -> Map<String, Value> {
    let b = &r.builder;
    let name_param = path_param("name", &format!("name of the {}", b.kind));
    let namespace_param = path_param(
        "namespace",
        "object name and auth scope, such as for teams and projects",
    );
    let pretty = query_param("pretty", "pretty");
    // Every route's parameters: `pretty`, the path's, its options'.
    let route = |method: &'static str,
                 sub: &str,
                 action: &str,
                 verb: &str,
                 response: &str,
                 all: bool,
                 with_name: bool| {
        let mut params = vec![pretty.clone()];
        if with_name {
            params.push(name_param.clone());
        }
        if b.namespaced && !all {
            params.push(namespace_param.clone());
        }
        params.extend(action_params(action));
        (
            method,
            b.operation(sub, action, verb, response, all),
            params,
        )
    };
    let mut out = Map::new();
    let mut root = format!("{}/{}", r.prefix, r.plural);
    if b.namespaced {
        let list_all = route("get", "", "list", "list", &r.list_model, true, false);
        out.insert(root.clone(), path_item(vec![list_all]));
        root = format!("{}/namespaces/{{namespace}}/{}", r.prefix, r.plural);
    }
    let mut collection = vec![
        route("get", "", "list", "list", &r.list_model, false, false),
        route("post", "", "post", "create", &r.model, false, false),
    ];
    if r.deletecollection {
        collection.push(route(
            "delete",
            "",
            "deletecollection",
            "deletecollection",
            STATUS,
            false,
            false,
        ));
    }
    out.insert(root.clone(), path_item(collection));
    out.insert(
        format!("{root}/{{name}}"),
        path_item(vec![
            route("get", "", "get", "read", &r.model, false, true),
            route("put", "", "put", "replace", &r.model, false, true),
            route("delete", "", "delete", "delete", STATUS, false, true),
            route("patch", "", "patch", "patch", &r.model, false, true),
        ]),
    );
    for (sub, response, methods) in &r.subresources {
        let routes = methods
            .iter()
            .map(|(method, action, verb)| route(method, sub, action, verb, response, false, true))
            .collect();
        out.insert(format!("{root}/{{name}}/{sub}"), path_item(routes));
    }
    out
}

/// The `paths` of one CRD version (upstream `generateBuilder`'s routes);
/// a core-group CRD's (group `""`) are below `/api/<version>`, with
/// kube-apiserver's operation ids (`listCoreV1NamespacedConfigMap`).
pub fn paths(
    crd: &CustomResourceDefinition,
    version: &CustomResourceDefinitionVersion,
) -> Map<String, Value> {
    let names = &crd.spec.names;
    let group = crd.spec.group.as_str();
    let model = model_name(group, &version.name, &names.kind);
    let mut subresources = Vec::new();
    let declared = version.subresources.as_ref();
    if declared.is_some_and(|s| s.status.is_some()) {
        subresources.push(("status", model.clone(), GET_PUT_PATCH));
    }
    if declared.is_some_and(|s| s.scale.is_some()) {
        subresources.push(("scale", SCALE.to_string(), GET_PUT_PATCH));
    }
    let (prefix, id_group) = if group.is_empty() {
        (format!("/api/{}", version.name), "core")
    } else {
        (format!("/apis/{group}/{}", version.name), group)
    };
    resource_paths(&Resource {
        prefix,
        builder: Builder {
            id_group,
            group,
            version: &version.name,
            kind: &names.kind,
            namespaced: crd.spec.scope == "Namespaced",
        },
        plural: &names.plural,
        list_model: model_name(group, &version.name, &list_kind(crd)),
        model,
        deletecollection: true,
        subresources,
    })
}

/// The routes kube-apiserver has for `namespaces` (no
/// `deletecollection`; `/status` get, put, patch; `/finalize` put), with
/// its operation ids (`patchCoreV1Namespace`).
pub(super) fn namespace_paths() -> Map<String, Value> {
    const FINALIZE: &[Route] = &[("put", "put", "replace")];
    resource_paths(&Resource {
        prefix: "/api/v1".into(),
        builder: Builder {
            id_group: "core",
            group: "",
            version: "v1",
            kind: "Namespace",
            namespaced: false,
        },
        plural: "namespaces",
        model: NAMESPACE.into(),
        list_model: "io.k8s.api.core.v1.NamespaceList".into(),
        deletecollection: false,
        subresources: vec![
            ("finalize", NAMESPACE.into(), FINALIZE),
            ("status", NAMESPACE.into(), GET_PUT_PATCH),
        ],
    })
}
