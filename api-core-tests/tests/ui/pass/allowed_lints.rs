use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A fixture that breaks conventions on purpose, and says so.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "bar.example.com", version = "foo", kind = "Foo", allow(kind_naming))]
pub struct FooSpec {
    /// snake_case kept for compatibility.
    #[kube(allow(json_field_names))]
    pub legacy_name: String,
}

/// Allowed for the whole type.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(allow(json_field_names))]
pub struct Legacy {
    /// a.
    pub some_field: String,
}

fn main() {
    let foo = Foo::new("x", FooSpec { legacy_name: "y".into() });
    assert_eq!(foo.metadata.name, "x");
    assert_eq!(Foo::crd().spec.versions[0].name, "foo");
}
