//! The CustomResourceDefinition model: the controller-gen corpus round-trips
//! through it without loss, YAML export style, and `merge`.

use std::collections::BTreeMap;

use api_core::ObjectMeta;
use api_core::crd::{
    CrdError, CustomResourceColumnDefinition, CustomResourceConversion, CustomResourceDefinition,
    CustomResourceDefinitionNames, CustomResourceDefinitionSpec, CustomResourceDefinitionVersion,
    CustomResourceSubresourceScale, CustomResourceSubresourceStatus, CustomResourceSubresources,
    CustomResourceValidation, MergeError, SelectableField, ServiceReference, WebhookClientConfig,
    WebhookConversion, from_yaml_stream, merge, to_yaml_stream, yaml_to_json,
};
use proptest::prelude::*;
use serde_json::{Value, json};

#[path = "common/shared.rs"]
mod shared;

/// Every file of the corpus's `controller-tools/`.
const CORPUS_FILES: [&str; 8] = [
    "bar.example.com_foos.yaml",
    "plural.example.com_testquotas.yaml",
    "testdata.kubebuilder.io_enums.yaml",
    "testdata.kubebuilder.io_externaldocs.yaml",
    "testdata.kubebuilder.io_immutabletypes.yaml",
    "testdata.kubebuilder.io_jobs.yaml",
    "testdata.kubebuilder.io_oneofs.yaml",
    "testdata.kubebuilder.io_versionedresources.yaml",
];

/// The files of `CORPUS_FILES` with their text, read once at run time from
/// `../shared/corpus`; `None` (after a note on stderr) when it is absent.
fn corpus() -> Option<&'static [(&'static str, String)]> {
    static CORPUS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    if let Some(files) = CORPUS.get() {
        return Some(files);
    }
    if !shared::corpus_present() {
        return None;
    }
    Some(CORPUS.get_or_init(|| {
        CORPUS_FILES
            .iter()
            .map(|name| {
                let text = shared::corpus_file(&format!("controller-tools/{name}"))
                    .expect("the corpus is present");
                (*name, text)
            })
            .collect()
    }))
}

/// Returns from the test when the corpus is absent; else the corpus.
macro_rules! corpus_or_skip {
    () => {
        match corpus() {
            Some(files) => files,
            None => return,
        }
    };
}

/// Files whose controller-gen text `to_yaml` reproduces byte for byte: the
/// others have long descriptions that go-yaml wraps as plain scalars (we
/// write `>-`) or CEL rules that go-yaml single-quotes (we double-quote).
const BYTE_IDENTICAL: [&str; 3] = [
    "bar.example.com_foos.yaml",
    "plural.example.com_testquotas.yaml",
    "testdata.kubebuilder.io_versionedresources.yaml",
];

fn corpus_file(name: &str) -> &'static str {
    corpus()
        .expect("the test checked that the corpus is present")
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| text.as_str())
        .unwrap_or_else(|| panic!("{name} is not in the corpus"))
}

fn corpus_crd(name: &str) -> CustomResourceDefinition {
    CustomResourceDefinition::from_yaml(corpus_file(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn only_doc(text: &str) -> Value {
    let mut docs = yaml_to_json(text).unwrap();
    assert_eq!(docs.len(), 1, "expected one document");
    docs.remove(0)
}

#[test]
fn corpus_is_complete() {
    if corpus().is_none() {
        return;
    }
    let dir = shared::corpus_dir().join("controller-tools");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    on_disk.sort();
    assert_eq!(
        on_disk, CORPUS_FILES,
        "add new corpus files to CORPUS_FILES"
    );
}

#[test]
fn corpus_parses_without_loss() {
    for (name, text) in corpus_or_skip!() {
        let crd =
            CustomResourceDefinition::from_yaml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            crd.to_json(),
            only_doc(text),
            "{name}: the model lost or changed something"
        );
        assert!(name.starts_with(&format!("{}_", crd.spec.group)), "{name}");
        assert_eq!(
            crd.name(),
            format!("{}.{}", crd.spec.names.plural, crd.spec.group)
        );
        assert!(crd.storage_version().is_some(), "{name}");
    }
}

#[test]
fn corpus_through_json_text() {
    for (name, text) in corpus_or_skip!() {
        let crd = CustomResourceDefinition::from_yaml(text).unwrap();
        let pretty = crd.to_json_pretty();
        assert_eq!(
            CustomResourceDefinition::from_json(&pretty).unwrap(),
            crd,
            "{name}"
        );
        let parsed: Value = serde_json::from_str(&pretty).unwrap();
        assert_eq!(parsed, crd.to_json(), "{name}");
    }
}

/// Keys under which the corpus legitimately holds booleans and numbers.
const BOOL_KEYS: [&str; 9] = [
    "served",
    "storage",
    "nullable",
    "uniqueItems",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-embedded-resource",
];
const NUMBER_KEYS: [&str; 9] = [
    "multipleOf",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
];

fn check_scalar_types(value: &Value, key: &str, path: &str, file: &str) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                // Under `properties`, keys are field names, not keywords.
                let child_key = if key == "properties" { "" } else { k };
                check_scalar_types(v, child_key, &format!("{path}.{k}"), file);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                check_scalar_types(v, key, &format!("{path}[{i}]"), file);
            }
        }
        Value::Bool(_) => assert!(BOOL_KEYS.contains(&key), "{file}: bool at {path}"),
        Value::Number(_) => assert!(NUMBER_KEYS.contains(&key), "{file}: number at {path}"),
        Value::Null => panic!("{file}: null at {path}"),
        Value::String(_) => {}
    }
}

#[test]
fn corpus_strings_stay_strings() {
    for (name, text) in corpus_or_skip!() {
        check_scalar_types(&only_doc(text), "", "", name);
    }
    let foo = only_doc(corpus_file("bar.example.com_foos.yaml"));
    assert_eq!(
        foo["metadata"]["annotations"]["controller-gen.kubebuilder.io/version"],
        json!("(devel)")
    );
    let field = &foo["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["defaultedString"];
    assert_eq!(field["default"], json!("fooDefaultString"));
    assert_eq!(field["example"], json!("fooExampleString"));
    let rules = only_doc(corpus_file("testdata.kubebuilder.io_immutabletypes.yaml")).to_string();
    assert!(rules.contains(r#""rule":"!has(oldSelf.optionalString) || has(self.optionalString)""#));
}

#[test]
fn to_yaml_reads_back_to_the_same_json() {
    for (name, text) in corpus_or_skip!() {
        let crd = CustomResourceDefinition::from_yaml(text).unwrap();
        let yaml = crd.to_yaml();
        assert!(
            yaml.starts_with("---\napiVersion: apiextensions.k8s.io/v1\n"),
            "{name}"
        );
        assert_eq!(only_doc(&yaml), only_doc(text), "{name}");
        let again = CustomResourceDefinition::from_yaml(&yaml).unwrap();
        assert_eq!(again, crd, "{name}");
        assert_eq!(again.to_yaml(), yaml, "{name}: to_yaml is not stable");
    }
}

#[test]
fn to_yaml_matches_controller_gen_byte_for_byte() {
    corpus_or_skip!();
    for name in BYTE_IDENTICAL {
        let text = corpus_file(name);
        assert_eq!(corpus_crd(name).to_yaml(), text, "{name}");
    }
}

#[test]
fn to_yaml_excerpt_of_foos() {
    corpus_or_skip!();
    let yaml = corpus_crd("bar.example.com_foos.yaml").to_yaml();
    let head: Vec<&str> = yaml.lines().take(24).collect();
    assert_eq!(
        head,
        [
            "---",
            "apiVersion: apiextensions.k8s.io/v1",
            "kind: CustomResourceDefinition",
            "metadata:",
            "  annotations:",
            "    controller-gen.kubebuilder.io/version: (devel)",
            "  name: foos.bar.example.com",
            "spec:",
            "  group: bar.example.com",
            "  names:",
            "    kind: Foo",
            "    listKind: FooList",
            "    plural: foos",
            "    singular: foo",
            "  scope: Namespaced",
            "  versions:",
            "  - name: foo",
            "    schema:",
            "      openAPIV3Schema:",
            "        properties:",
            "          apiVersion:",
            "            description: |-",
            "              APIVersion defines the versioned schema of this representation of an object.",
            "              Servers should convert recognized schemas to the latest internal value, and",
        ]
    );
}

fn minimal(kind: &str, plural: &str, group: &str) -> CustomResourceDefinition {
    CustomResourceDefinition {
        metadata: ObjectMeta::named(format!("{plural}.{group}")),
        spec: CustomResourceDefinitionSpec {
            group: group.into(),
            names: CustomResourceDefinitionNames::for_kind(kind, plural),
            scope: "Namespaced".into(),
            versions: vec![CustomResourceDefinitionVersion {
                schema: Some(CustomResourceValidation::new(json!({"type": "object"}))),
                ..CustomResourceDefinitionVersion::new("v1", true, true)
            }],
            ..Default::default()
        },
    }
}

fn full() -> CustomResourceDefinition {
    let mut crd = minimal("Widget", "widgets", "example.com");
    crd.metadata.annotations = BTreeMap::from([("a".to_string(), "b".to_string())]);
    crd.metadata.labels = BTreeMap::from([("app".to_string(), "widgets".to_string())]);
    crd.spec.scope = "Cluster".into();
    crd.spec.names.short_names = vec!["wd".into()];
    crd.spec.names.categories = vec!["all".into()];
    crd.spec.preserve_unknown_fields = Some(false);
    crd.spec.conversion = Some(CustomResourceConversion {
        strategy: "Webhook".into(),
        webhook: Some(WebhookConversion {
            client_config: Some(WebhookClientConfig {
                url: None,
                service: Some(ServiceReference {
                    namespace: "system".into(),
                    name: "webhook".into(),
                    path: Some("/convert".into()),
                    port: Some(9443),
                }),
                ca_bundle: Some("Y2E=".into()),
            }),
            conversion_review_versions: vec!["v1".into()],
        }),
    });
    let v = &mut crd.spec.versions[0];
    v.deprecated = true;
    v.deprecation_warning = Some("use v2".into());
    v.subresources = Some(CustomResourceSubresources {
        status: Some(CustomResourceSubresourceStatus {}),
        scale: Some(CustomResourceSubresourceScale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: Some(".status.selector".into()),
        }),
    });
    v.additional_printer_columns = vec![
        CustomResourceColumnDefinition {
            name: "Replicas".into(),
            type_: "integer".into(),
            format: Some("int32".into()),
            description: Some("desired replicas".into()),
            priority: 1,
            json_path: ".spec.replicas".into(),
        },
        CustomResourceColumnDefinition {
            name: "Age".into(),
            type_: "date".into(),
            json_path: ".metadata.creationTimestamp".into(),
            ..Default::default()
        },
    ];
    v.selectable_fields = vec![SelectableField {
        json_path: ".spec.color".into(),
    }];
    crd
}

#[test]
fn every_field_has_its_kubernetes_name() {
    let crd = full();
    assert_eq!(
        crd.to_json(),
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {
                "name": "widgets.example.com",
                "annotations": {"a": "b"},
                "labels": {"app": "widgets"}
            },
            "spec": {
                "group": "example.com",
                "names": {
                    "kind": "Widget",
                    "listKind": "WidgetList",
                    "plural": "widgets",
                    "singular": "widget",
                    "shortNames": ["wd"],
                    "categories": ["all"]
                },
                "scope": "Cluster",
                "preserveUnknownFields": false,
                "conversion": {
                    "strategy": "Webhook",
                    "webhook": {
                        "clientConfig": {
                            "service": {
                                "namespace": "system",
                                "name": "webhook",
                                "path": "/convert",
                                "port": 9443
                            },
                            "caBundle": "Y2E="
                        },
                        "conversionReviewVersions": ["v1"]
                    }
                },
                "versions": [{
                    "name": "v1",
                    "served": true,
                    "storage": true,
                    "deprecated": true,
                    "deprecationWarning": "use v2",
                    "schema": {"openAPIV3Schema": {"type": "object"}},
                    "subresources": {
                        "status": {},
                        "scale": {
                            "specReplicasPath": ".spec.replicas",
                            "statusReplicasPath": ".status.replicas",
                            "labelSelectorPath": ".status.selector"
                        }
                    },
                    "additionalPrinterColumns": [
                        {
                            "name": "Replicas",
                            "type": "integer",
                            "format": "int32",
                            "description": "desired replicas",
                            "priority": 1,
                            "jsonPath": ".spec.replicas"
                        },
                        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
                    ],
                    "selectableFields": [{"jsonPath": ".spec.color"}]
                }]
            }
        })
    );
    assert_eq!(
        CustomResourceDefinition::from_yaml(&crd.to_yaml()).unwrap(),
        crd
    );
    assert_eq!(
        CustomResourceDefinition::from_json(&crd.to_json_pretty()).unwrap(),
        crd
    );
}

#[test]
fn url_client_config() {
    let config = WebhookClientConfig {
        url: Some("https://example.com/convert".into()),
        ..Default::default()
    };
    assert_eq!(
        serde_json::to_value(&config).unwrap(),
        json!({"url": "https://example.com/convert"})
    );
}

#[test]
fn api_version_and_kind_come_first() {
    let pretty = minimal("Foo", "foos", "example.com").to_json_pretty();
    assert!(
        pretty.starts_with(
            "{\n  \"apiVersion\": \"apiextensions.k8s.io/v1\",\n  \"kind\": \"CustomResourceDefinition\",\n  \"metadata\""
        ),
        "{pretty}"
    );
}

#[test]
fn api_version_and_kind_are_checked() {
    let mut v = minimal("Foo", "foos", "example.com").to_json();
    v["kind"] = json!("Deployment");
    let err = CustomResourceDefinition::from_json(&v.to_string()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("CustomResourceDefinition") && msg.contains("Deployment"),
        "{msg}"
    );

    let mut v = minimal("Foo", "foos", "example.com").to_json();
    v["apiVersion"] = json!("apiextensions.k8s.io/v1beta1");
    let msg = CustomResourceDefinition::from_json(&v.to_string())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("apiextensions.k8s.io/v1beta1"), "{msg}");

    let yaml = minimal("Foo", "foos", "example.com")
        .to_yaml()
        .replace("kind: CustomResourceDefinition", "kind: Foo");
    let msg = CustomResourceDefinition::from_yaml(&yaml)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("\"Foo\""), "{msg}");

    // Missing apiVersion and kind are accepted; status is ignored.
    let mut v = minimal("Foo", "foos", "example.com").to_json();
    let obj = v.as_object_mut().unwrap();
    obj.remove("apiVersion");
    obj.remove("kind");
    obj.insert("status".into(), json!({"storedVersions": ["v1"]}));
    assert_eq!(
        CustomResourceDefinition::from_json(&v.to_string()).unwrap(),
        minimal("Foo", "foos", "example.com")
    );
}

#[test]
fn empty_lists_maps_and_false_flags_are_not_emitted() {
    let mut crd = minimal("Foo", "foos", "example.com");
    crd.spec.names.list_kind.clear();
    crd.spec.names.singular.clear();
    crd.spec
        .versions
        .push(CustomResourceDefinitionVersion::new("v2", false, false));
    let json = serde_json::to_string(&crd).unwrap();
    for absent in [
        "shortNames",
        "categories",
        "listKind",
        "singular",
        "annotations",
        "labels",
        "additionalPrinterColumns",
        "selectableFields",
        "deprecated",
        "deprecationWarning",
        "subresources",
        "conversion",
        "preserveUnknownFields",
        "priority",
        "[]",
        "{}",
        "null",
    ] {
        assert!(!json.contains(absent), "{absent} in {json}");
    }
    // served and storage are always written, even when false.
    assert_eq!(
        crd.to_json()["spec"]["versions"][1],
        json!({"name": "v2", "served": false, "storage": false})
    );
    let yaml = crd.to_yaml();
    assert!(!yaml.contains("[]") && !yaml.contains("{}"), "{yaml}");
    assert!(
        yaml.contains("  - name: v2\n    served: false\n    storage: false\n"),
        "{yaml}"
    );

    // The empty status subresource is `{}`, the only empty map written.
    let mut v = CustomResourceDefinitionVersion::new("v1", true, true);
    v.subresources = Some(CustomResourceSubresources {
        status: Some(CustomResourceSubresourceStatus {}),
        scale: None,
    });
    assert_eq!(
        serde_json::to_value(&v).unwrap(),
        json!({"name": "v1", "served": true, "storage": true, "subresources": {"status": {}}})
    );
}

#[test]
fn keys_are_sorted_at_every_level() {
    let mut crd = full();
    crd.spec.versions[0].schema = Some(CustomResourceValidation::new(json!({
        "type": "object",
        "required": ["zeta"],
        "properties": {
            "zeta": {"type": "string", "description": "z"},
            "alpha": {"type": "object", "properties": {"v10": {"type": "string"}, "v2": {"type": "string"}, "Beta": {"type": "string"}}},
        }
    })));
    let yaml = crd.to_yaml();
    let keys_at = |indent: usize| -> Vec<String> {
        yaml.lines()
            .filter(|l| l.len() > indent && l[..indent].trim().is_empty())
            .map(|l| &l[indent..])
            .filter(|l| !l.starts_with(' ') && !l.starts_with('-'))
            .filter_map(|l| l.split(':').next())
            .map(str::to_string)
            .collect()
    };
    assert!(yaml.starts_with("---\n"));
    assert_eq!(keys_at(0), ["apiVersion", "kind", "metadata", "spec"]);
    assert_eq!(keys_at(2)[..2], ["annotations", "labels"]);
    let spec_keys: Vec<String> = yaml
        .split("\nspec:\n")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && !l.starts_with("  -"))
        .map(|l| l.trim().split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(
        spec_keys,
        [
            "conversion",
            "group",
            "names",
            "preserveUnknownFields",
            "scope",
            "versions"
        ]
    );
    // The position of a whole line.
    let pos = |needle: &str| {
        yaml.find(&format!("\n{needle}"))
            .unwrap_or_else(|| panic!("{needle} in {yaml}"))
    };
    // Schema keys: sorted, digit runs by value as sigs.k8s.io/yaml sorts them.
    assert!(pos("              Beta:") < pos("              v2:"));
    assert!(pos("              v2:") < pos("              v10:"));
    assert!(pos("          alpha:") < pos("          zeta:"));
    assert!(pos("        properties:") < pos("        required:"));
    assert!(pos("        required:") < pos("        type: object"));
    // Version keys.
    let version_keys = [
        "  - additionalPrinterColumns:",
        "    deprecated: true",
        "    deprecationWarning:",
        "    name: v1",
        "    schema:",
        "    selectableFields:",
        "    served: true",
        "    storage: true",
        "    subresources:",
    ];
    for pair in version_keys.windows(2) {
        assert!(pos(pair[0]) < pos(pair[1]), "{pair:?}");
    }
    assert!(yaml.contains("      scale:\n        labelSelectorPath: .status.selector\n        specReplicasPath: .spec.replicas\n        statusReplicasPath: .status.replicas\n      status: {}\n"), "{yaml}");
}

#[test]
fn ambiguous_strings_are_quoted() {
    let ambiguous = [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "Yes",
        "NO",
        "true",
        "False",
        "null",
        "~",
        "1.0",
        "1",
        "0755",
        "1e3",
        "0x1F",
        ".inf",
        "-.inf",
        ".nan",
        "2024-01-01",
        "2024-01-01T00:00:00Z",
        "12:30",
        "1_000",
        "",
        " lead",
        "trail ",
        "- x",
        "a: b",
        "#x",
        "!tag",
        "&anchor",
        "*alias",
        "@at",
        "`tick",
        "[x]",
        "{x}",
        "'q'",
        "\"q\"",
        "%",
        "<<",
    ];
    let mut crd = minimal("Foo", "foos", "example.com");
    crd.spec.names.short_names = vec!["yes".into(), "on".into()];
    crd.spec.names.categories = vec!["1.0".into(), "2024-01-01".into()];
    crd.metadata.annotations = ambiguous
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("k{i:02}"), s.to_string()))
        .collect();
    crd.spec.versions[0].schema = Some(CustomResourceValidation::new(json!({
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": &ambiguous[..], "default": "on"}},
    })));
    let yaml = crd.to_yaml();
    for line in [
        "    - \"yes\"",
        "    - \"on\"",
        "    - \"1.0\"",
        "    - \"2024-01-01\"",
        "            default: \"on\"",
        "            - \"yes\"",
        "            - \"no\"",
        "            - \"off\"",
        "            - \"null\"",
        "            - \"~\"",
        "            - \"0755\"",
        "            - \"12:30\"",
        "            - \"\"",
    ] {
        assert!(
            yaml.lines().any(|l| l == line),
            "missing `{line}` in\n{yaml}"
        );
    }
    // Untyped reads (what kubectl does) give the strings back, not bools,
    // numbers, nulls or dates.
    let back = only_doc(&yaml);
    assert_eq!(back, crd.to_json());
    let answer = &back["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["answer"];
    assert_eq!(answer["enum"], json!(&ambiguous[..]));
    assert_eq!(CustomResourceDefinition::from_yaml(&yaml).unwrap(), crd);
}

#[test]
fn unquoted_yaml_11_scalars_are_typed_in_untyped_reads() {
    // What a YAML 1.1 reader (sigs.k8s.io/yaml) does too; typed fields keep strings.
    let docs = yaml_to_json("a: yes\nb: on\nc: 0755\nd: 2024-01-01\ne: ~\nf: 1.0\n").unwrap();
    assert_eq!(
        docs,
        [json!({"a": true, "b": true, "c": 493, "d": "2024-01-01", "e": null, "f": 1.0})]
    );
    let yaml = "spec:\n  group: example.com\n  names: {kind: Foo, plural: foos, shortNames: [yes, 1.0]}\n  scope: Namespaced\n";
    let crd = CustomResourceDefinition::from_yaml(yaml).unwrap();
    assert_eq!(crd.spec.names.short_names, ["yes", "1.0"]);
}

#[test]
fn multi_line_strings_are_literal_blocks() {
    let mut crd = minimal("Foo", "foos", "example.com");
    crd.spec.versions[0].schema = Some(CustomResourceValidation::new(json!({
        "type": "object",
        "description": "First line.\nSecond line: with a colon.\n  Indented third.",
    })));
    let yaml = crd.to_yaml();
    assert!(
        yaml.contains("        description: |-\n          First line.\n          Second line: with a colon.\n            Indented third.\n"),
        "{yaml}"
    );
    assert_eq!(CustomResourceDefinition::from_yaml(&yaml).unwrap(), crd);
}

#[test]
fn yaml_stream() {
    corpus_or_skip!();
    let a = corpus_crd("bar.example.com_foos.yaml");
    let b = corpus_crd("testdata.kubebuilder.io_jobs.yaml");
    let stream = to_yaml_stream(&[a.clone(), b.clone()]);
    assert!(stream.starts_with("---\n"));
    assert_eq!(stream, format!("{}{}", a.to_yaml(), b.to_yaml()));
    assert_eq!(stream.lines().filter(|l| *l == "---").count(), 2);
    assert_eq!(yaml_to_json(&stream).unwrap(), [a.to_json(), b.to_json()]);
    assert_eq!(from_yaml_stream(&stream).unwrap(), [a, b]);
    assert_eq!(to_yaml_stream(&[]), "");
    assert_eq!(
        CustomResourceDefinition::from_yaml(&stream),
        Err(CrdError::DocumentCount(2))
    );
    assert_eq!(
        CustomResourceDefinition::from_yaml("---\n"),
        Err(CrdError::DocumentCount(0))
    );
}

#[test]
fn garbage_is_an_error() {
    let garbage = [
        "",
        "foo",
        "- a\n- b\n",
        "spec: [",
        "spec:\n  group: 1\n  names: 2\n",
        "apiVersion: v1\nkind: Pod\nspec: {}\n",
        "\u{0}\u{1}\u{2}",
        "a: b\n a: c\n",
        "spec:\n  group: g\n  names: {kind: K, plural: ks}\n  scope: Namespaced\n  versions: [{name: v1, served: maybe}]\n",
        "{{{{{{{{",
        "key: &a [*a]",
    ];
    for text in garbage {
        let err = CustomResourceDefinition::from_yaml(text).unwrap_err();
        assert!(!err.to_string().is_empty());
        assert!(
            CustomResourceDefinition::from_json(text).is_err(),
            "{text:?}"
        );
    }
    for text in ["spec: [", "{{{{{{{{", "a: b\n a: c\n", "a: 1\na: 2\n"] {
        let err = yaml_to_json(text).unwrap_err();
        assert!(matches!(err, CrdError::Yaml(_)), "{err:?}");
    }
    let err: Box<dyn std::error::Error> =
        Box::new(CustomResourceDefinition::from_json("{").unwrap_err());
    assert!(err.to_string().starts_with("invalid CRD JSON"), "{err}");
    // Deep nesting is refused, not a stack overflow.
    let deep = format!("spec: {}", "[".repeat(10_000));
    assert!(CustomResourceDefinition::from_yaml(&deep).is_err());
    assert!(yaml_to_json(&"- ".repeat(10_000)).is_err());
    // Up to the limit, on a default 2 MiB test thread.
    for depth in [63, 64, 65, 200] {
        let flow = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert_eq!(yaml_to_json(&flow).is_ok(), depth <= 64, "{depth}");
        let block: String = (0..depth)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        assert_eq!(yaml_to_json(&block).is_ok(), depth <= 64, "{depth}");
    }
}

fn single_version(crd: &CustomResourceDefinition, index: usize) -> CustomResourceDefinition {
    let mut one = crd.clone();
    one.spec.versions = vec![crd.spec.versions[index].clone()];
    one
}

#[test]
fn merge_rebuilds_versionedresources() {
    corpus_or_skip!();
    let whole = corpus_crd("testdata.kubebuilder.io_versionedresources.yaml");
    assert_eq!(whole.spec.versions.len(), 2);
    let beta1 = single_version(&whole, 0);
    let beta2 = single_version(&whole, 1);
    assert_eq!(merge([beta1.clone(), beta2.clone()]).unwrap(), whole);
    // Input order does not matter: versions are sorted by name.
    let merged = merge([beta2, beta1]).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(
        merged.to_yaml(),
        corpus_file("testdata.kubebuilder.io_versionedresources.yaml")
    );
    // A single CRD merges to itself.
    assert_eq!(merge([whole.clone()]).unwrap(), whole);
}

#[test]
fn merge_sorts_versions_by_name() {
    let mut a = minimal("Foo", "foos", "example.com");
    a.spec.versions[0].name = "v2".into();
    let mut b = minimal("Foo", "foos", "example.com");
    b.spec.versions = vec![
        CustomResourceDefinitionVersion::new("v1beta1", true, false),
        CustomResourceDefinitionVersion::new("v1", true, false),
    ];
    let merged = merge([a, b]).unwrap();
    let names: Vec<&str> = merged
        .spec
        .versions
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(names, ["v1", "v1beta1", "v2"]);
    assert_eq!(merged.storage_version().unwrap().name, "v2");
}

#[test]
fn merge_keeps_conversion_and_preserve_unknown_fields() {
    let whole = full();
    let mut other = minimal("Widget", "widgets", "example.com");
    other.metadata = whole.metadata.clone();
    other.spec.scope = "Cluster".into();
    other.spec.names = whole.spec.names.clone();
    other.spec.versions = vec![CustomResourceDefinitionVersion::new("v2", true, false)];
    let merged = merge([other.clone(), whole.clone()]).unwrap();
    assert_eq!(merged.spec.conversion, whole.spec.conversion);
    assert_eq!(merged.spec.preserve_unknown_fields, Some(false));
    assert_eq!(merged.spec.versions.len(), 2);

    other.spec.preserve_unknown_fields = Some(true);
    assert_eq!(
        merge([whole.clone(), other.clone()]),
        Err(MergeError::PreserveUnknownFieldsMismatch {
            expected: false,
            found: true
        })
    );
    other.spec.preserve_unknown_fields = None;
    other.spec.conversion = Some(CustomResourceConversion {
        strategy: "None".into(),
        webhook: None,
    });
    let err = merge([whole, other]).unwrap_err();
    assert!(
        matches!(err, MergeError::ConversionMismatch { .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains(r#"{"strategy":"None"}"#) && msg.contains("Webhook"),
        "{msg}"
    );
}

fn merge_err(a: CustomResourceDefinition, b: CustomResourceDefinition) -> (MergeError, String) {
    let err = merge([a, b]).unwrap_err();
    let msg = err.to_string();
    (err, msg)
}

#[test]
fn merge_errors_name_both_values() {
    let base = || minimal("Foo", "foos", "example.com");
    let other_version = || {
        let mut c = base();
        c.spec.versions = vec![CustomResourceDefinitionVersion::new("v2", true, false)];
        c
    };

    let err = merge(Vec::new()).unwrap_err();
    assert_eq!(err, MergeError::Empty);
    assert_eq!(err.to_string(), "cannot merge CRDs: no CRDs given");

    let mut b = other_version();
    b.spec.group = "other.com".into();
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::GroupMismatch {
            expected: "example.com".into(),
            found: "other.com".into()
        }
    );
    assert_eq!(
        msg,
        r#"cannot merge CRDs: spec.group differs: "example.com" vs "other.com""#
    );

    let mut b = other_version();
    b.spec.names.kind = "Bar".into();
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::KindMismatch {
            expected: "Foo".into(),
            found: "Bar".into()
        }
    );
    assert_eq!(
        msg,
        r#"cannot merge CRDs: spec.names.kind differs: "Foo" vs "Bar""#
    );

    let mut b = other_version();
    b.spec.scope = "Cluster".into();
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::ScopeMismatch {
            expected: "Namespaced".into(),
            found: "Cluster".into()
        }
    );
    assert_eq!(
        msg,
        r#"cannot merge CRDs: spec.scope differs: "Namespaced" vs "Cluster""#
    );

    let mut b = other_version();
    b.spec.names.plural = "fooes".into();
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::NamesMismatch {
            field: "plural",
            expected: "foos".into(),
            found: "fooes".into()
        }
    );
    assert_eq!(
        msg,
        "cannot merge CRDs: spec.names.plural differs: foos vs fooes"
    );

    let mut b = other_version();
    b.spec.names.singular = "fu".into();
    let (err, _) = merge_err(base(), b);
    assert!(matches!(
        err,
        MergeError::NamesMismatch {
            field: "singular",
            ..
        }
    ));

    let mut b = other_version();
    b.spec.names.list_kind = "FooItems".into();
    let (err, msg) = merge_err(base(), b);
    assert!(matches!(
        err,
        MergeError::NamesMismatch {
            field: "listKind",
            ..
        }
    ));
    assert!(msg.contains("FooList vs FooItems"), "{msg}");

    let mut b = other_version();
    b.spec.names.short_names = vec!["fo".into(), "f".into()];
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::NamesMismatch {
            field: "shortNames",
            expected: "[]".into(),
            found: "[fo, f]".into()
        }
    );
    assert_eq!(
        msg,
        "cannot merge CRDs: spec.names.shortNames differs: [] vs [fo, f]"
    );

    let mut b = other_version();
    b.spec.names.categories = vec!["all".into()];
    let (err, msg) = merge_err(base(), b);
    assert!(matches!(
        err,
        MergeError::NamesMismatch {
            field: "categories",
            ..
        }
    ));
    assert!(msg.contains("[] vs [all]"), "{msg}");

    let mut b = other_version();
    b.metadata.name = "foo.example.com".into();
    let (err, msg) = merge_err(base(), b);
    assert_eq!(
        err,
        MergeError::NameMismatch {
            expected: "foos.example.com".into(),
            found: "foo.example.com".into()
        }
    );
    assert_eq!(
        msg,
        r#"cannot merge CRDs: metadata.name differs: "foos.example.com" vs "foo.example.com""#
    );

    let mut b = other_version();
    b.metadata.annotations.insert(
        "controller-gen.kubebuilder.io/version".into(),
        "v0.16.0".into(),
    );
    let (err, msg) = merge_err(base(), b);
    assert!(matches!(
        err,
        MergeError::MetadataMismatch {
            field: "annotations",
            ..
        }
    ));
    assert_eq!(
        msg,
        "cannot merge CRDs: metadata.annotations differ: {} vs {controller-gen.kubebuilder.io/version: v0.16.0}"
    );

    let mut a = base();
    a.metadata.labels.insert("app".into(), "a".into());
    let mut b = other_version();
    b.metadata.labels.insert("app".into(), "b".into());
    let (err, msg) = merge_err(a, b);
    assert_eq!(
        err,
        MergeError::MetadataMismatch {
            field: "labels",
            expected: "{app: a}".into(),
            found: "{app: b}".into()
        }
    );
    assert!(msg.contains("{app: a} vs {app: b}"), "{msg}");

    let mut b = other_version();
    b.metadata.namespace = "default".into();
    let (err, msg) = merge_err(base(), b);
    assert!(matches!(
        err,
        MergeError::MetadataMismatch {
            field: "metadata",
            ..
        }
    ));
    assert!(msg.contains(r#""namespace":"default""#), "{msg}");

    let (err, msg) = merge_err(base(), base());
    assert_eq!(err, MergeError::DuplicateVersion("v1".into()));
    assert_eq!(
        msg,
        r#"cannot merge CRDs: version "v1" is defined more than once"#
    );

    let mut a = base();
    a.spec.versions[0].storage = false;
    let (err, msg) = merge_err(a, other_version());
    assert_eq!(err, MergeError::NoStorageVersion);
    assert_eq!(
        msg,
        "cannot merge CRDs: no version is marked as the storage version"
    );

    let mut b = other_version();
    b.spec.versions[0].storage = true;
    let (err, msg) = merge_err(b, base());
    assert_eq!(
        err,
        MergeError::MultipleStorageVersions(vec!["v1".into(), "v2".into()])
    );
    assert_eq!(
        msg,
        "cannot merge CRDs: exactly one version must be the storage version, found 2: v1, v2"
    );

    let boxed: Box<dyn std::error::Error> = Box::new(MergeError::NoStorageVersion);
    assert!(boxed.to_string().contains("storage"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_strings_round_trip_through_yaml(
        description in any::<String>(),
        values in proptest::collection::vec("[ -~]{0,12}|yes|no|on|off|null|~|[0-9.:eE+-]{1,10}", 0..6),
        short in "[a-z]{1,5}",
    ) {
        let mut crd = minimal("Foo", "foos", "example.com");
        crd.spec.names.short_names = vec![short];
        crd.metadata.annotations = values.iter().enumerate().map(|(i, v)| (format!("a{i}"), v.clone())).collect();
        crd.spec.versions[0].deprecation_warning = Some(description.clone());
        crd.spec.versions[0].schema = Some(CustomResourceValidation::new(json!({
            "type": "object",
            "description": description,
            "properties": {"x": {"type": "string", "enum": values}},
        })));
        let yaml = crd.to_yaml();
        prop_assert_eq!(only_doc(&yaml), crd.to_json(), "{}", yaml);
        prop_assert_eq!(CustomResourceDefinition::from_yaml(&yaml).unwrap(), crd);
    }

    #[test]
    fn parsing_never_panics(text in any::<String>()) {
        let _ = CustomResourceDefinition::from_yaml(&text);
        let _ = CustomResourceDefinition::from_json(&text);
        let _ = yaml_to_json(&text);
        let _ = from_yaml_stream(&text);
    }

    #[test]
    fn parsing_mangled_corpus_never_panics(cut in 0usize..2000, junk in "[\\[\\]{}:\\-#&*!|>'\" \n]{0,8}") {
        if corpus().is_none() {
            return Ok(());
        }
        let text = corpus_file("bar.example.com_foos.yaml");
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mangled = format!("{}{}{}", &text[..at], junk, &text[at..]);
        if let Ok(crd) = CustomResourceDefinition::from_yaml(&mangled) {
            prop_assert_eq!(CustomResourceDefinition::from_yaml(&crd.to_yaml()).unwrap(), crd);
        }
    }
}

fn nested_schema(levels: usize) -> Value {
    (0..levels).fold(
        json!({"type": "string"}),
        |inner, _| json!({"type": "object", "properties": {"x": inner}}),
    )
}

#[test]
fn deep_schemas_parse_up_to_the_depth_limit() {
    // A pod template inside a CronJob nests about 35 levels; 28 schema
    // levels are 62 YAML levels.
    let mut crd = minimal("Foo", "foos", "example.com");
    crd.spec.versions[0].schema = Some(CustomResourceValidation::new(nested_schema(28)));
    let yaml = crd.to_yaml();
    assert_eq!(CustomResourceDefinition::from_yaml(&yaml).unwrap(), crd);
    assert_eq!(only_doc(&yaml), crd.to_json());

    // Deeper documents are refused with an error, not a stack overflow.
    crd.spec.versions[0].schema = Some(CustomResourceValidation::new(nested_schema(40)));
    let err = CustomResourceDefinition::from_yaml(&crd.to_yaml()).unwrap_err();
    assert!(matches!(err, CrdError::Yaml(_)), "{err:?}");
    assert!(err.to_string().contains("budget breached"), "{err}");
}

#[test]
fn yaml_errors_are_one_line_with_a_position() {
    let err = CustomResourceDefinition::from_yaml("spec:\n  group: [\n").unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("invalid CRD YAML: "), "{msg}");
    assert!(msg.contains("line "), "{msg}");
    assert!(!msg.contains('\n'), "{msg}");
    let msg = CustomResourceDefinition::from_yaml("spec:\n  group: g\n")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("names"), "{msg}");
}
