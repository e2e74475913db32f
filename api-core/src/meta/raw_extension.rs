//! `RawExtension`: embedded JSON that the API does not describe (Go's
//! `k8s.io/apimachinery/pkg/runtime.RawExtension`).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api_type::ApiType;
use crate::facts::{Kind, TypeFacts};
use crate::validation::{ErrorList, FieldError, FieldPath};

/// Arbitrary JSON embedded in an object (runtime `RawExtension`): a
/// plugin's configuration, an embedded object of a kind the API does not
/// know. The JSON is the value itself, kept as it was decoded and written
/// back unchanged.
///
/// The schema is controller-gen's for `runtime.RawExtension`:
/// `type: object` with `x-kubernetes-preserve-unknown-fields: true`, so the
/// apiserver neither prunes nor checks what is inside.
///
/// **Non-object values.** Go's `RawExtension` holds any JSON bytes, and so
/// does this type: decoding accepts a string, a number, a list or `null`
/// (`null` is Go's empty `RawExtension`, and writes back as `null`; in an
/// `Option<RawExtension>` it is `None`). The schema says `object`,
/// though, and the apiserver rejects anything else in a custom resource,
/// so [`ApiType::validate`] reports a value that is neither an object nor
/// `null` as the apiserver would (`spec.config in body must be of type
/// object: "string"`).
///
/// ```
/// use api_core::RawExtension;
/// use serde_json::json;
///
/// let raw: RawExtension = serde_json::from_str(r#"{"kind":"PluginA","aOption":"foo"}"#).unwrap();
/// assert_eq!(raw.as_value()["aOption"], "foo");
/// assert_eq!(serde_json::to_value(&raw).unwrap(), json!({"kind": "PluginA", "aOption": "foo"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawExtension(pub Value);

impl RawExtension {
    /// The extension holding `value`.
    pub fn new(value: Value) -> Self {
        RawExtension(value)
    }

    /// The extension holding `object` serialised to JSON.
    pub fn from_object<T: Serialize + ?Sized>(object: &T) -> Result<Self, serde_json::Error> {
        serde_json::to_value(object).map(RawExtension)
    }

    /// The JSON decoded as a `T` (the typed object Go keeps beside the
    /// bytes).
    pub fn to_object<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.0)
    }

    /// The JSON.
    pub fn as_value(&self) -> &Value {
        &self.0
    }

    /// The JSON, taken out.
    pub fn into_value(self) -> Value {
        self.0
    }
}

impl From<Value> for RawExtension {
    fn from(value: Value) -> Self {
        RawExtension(value)
    }
}

impl From<RawExtension> for Value {
    fn from(raw: RawExtension) -> Self {
        raw.0
    }
}

impl JsonSchema for RawExtension {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("RawExtension")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "object", "x-kubernetes-preserve-unknown-fields": true })
    }
}

impl ApiType for RawExtension {
    /// Any JSON: printer-column paths may go anywhere below it.
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::Any, 0);

    /// A value that is neither an object nor `null` is a type error, as the
    /// apiserver's schema validation reports it.
    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        let found = match &self.0 {
            Value::Object(_) | Value::Null => return,
            Value::Bool(_) => "boolean",
            Value::Number(n)
                if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) =>
            {
                "integer"
            }
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
        };
        // The apiserver shows the value's type as the value.
        errors.push(FieldError::type_invalid(
            path,
            found,
            format!("{path} in body must be of type object: \"{found}\""),
        ));
    }
}
