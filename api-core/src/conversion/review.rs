//! `ConversionReview` (apiextensions.k8s.io/v1) and the webhook handler.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Versions;
use crate::api_type::ApiType;
use crate::resource::CustomResourceExt;
use crate::status::Status;

/// What the apiserver sends to, and expects back from, a conversion
/// webhook: `apiVersion: apiextensions.k8s.io/v1`, `kind:
/// ConversionReview`, with a `request` going in and a `response` coming
/// back.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversionReview {
    /// `apiextensions.k8s.io/v1` (the response repeats the request's).
    #[serde(default)]
    pub api_version: String,
    /// `ConversionReview`.
    #[serde(default)]
    pub kind: String,
    /// The objects to convert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<ConversionRequest>,
    /// The converted objects, or why they could not be converted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<ConversionResponse>,
}

/// The objects to convert and the version to convert them to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversionRequest {
    /// Identifies this exchange; the response repeats it.
    #[serde(default)]
    pub uid: String,
    /// The `apiVersion` to convert to (`group/version`).
    #[serde(rename = "desiredAPIVersion", default)]
    pub desired_api_version: String,
    /// The objects, each in its own version.
    #[serde(default)]
    pub objects: Vec<Value>,
}

/// The converted objects, in the request's order, and the outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversionResponse {
    /// The request's `uid`.
    pub uid: String,
    /// The objects in the desired version (empty on failure).
    #[serde(default)]
    pub converted_objects: Vec<Value>,
    /// `status: Success`, or `Failure` with a message.
    pub result: Status,
}

impl ConversionReview {
    /// The `apiVersion` of the review this library speaks.
    pub const API_VERSION: &'static str = "apiextensions.k8s.io/v1";
    /// The `kind` of a review.
    pub const KIND: &'static str = "ConversionReview";

    /// A request to convert `objects` to `desired_api_version`.
    pub fn request(
        uid: impl Into<String>,
        desired_api_version: impl Into<String>,
        objects: Vec<Value>,
    ) -> Self {
        ConversionReview {
            api_version: Self::API_VERSION.into(),
            kind: Self::KIND.into(),
            request: Some(ConversionRequest {
                uid: uid.into(),
                desired_api_version: desired_api_version.into(),
                objects,
            }),
            response: None,
        }
    }
}

/// `metadata` without the parts a conversion may change.
fn fixed_metadata(obj: &Value) -> Value {
    let mut meta = obj.get("metadata").cloned().unwrap_or(Value::Null);
    if let Some(m) = meta.as_object_mut() {
        m.remove("labels");
        m.remove("annotations");
    }
    meta
}

impl<H> Versions<H>
where
    H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
{
    fn convert_all(&self, request: &ConversionRequest) -> Result<Vec<Value>, String> {
        request
            .objects
            .iter()
            .enumerate()
            .map(|(i, obj)| {
                let converted = self
                    .convert(obj.clone(), &request.desired_api_version)
                    .map_err(|e| format!("objects[{i}]: {e}"))?;
                // The apiserver rejects a response that changes metadata
                // other than labels and annotations; say so here, where
                // the conversion that did it is known.
                if fixed_metadata(obj) != fixed_metadata(&converted) {
                    return Err(format!(
                        "objects[{i}]: the conversion to {} changed metadata other than labels and annotations",
                        request.desired_api_version
                    ));
                }
                Ok(converted)
            })
            .collect()
    }

    /// Answers a `ConversionReview` as a conversion webhook: every object
    /// is converted to `desiredAPIVersion` through the hub (without
    /// defaulting: the apiserver defaults after converting). Any failure
    /// makes the whole response a `Failure` with a message naming the
    /// object, as the apiserver requires all or nothing.
    ///
    /// Serve it from any HTTP framework: decode the body, call this,
    /// encode the result (or use [`review_json`](Self::review_json)).
    pub fn review(&self, review: ConversionReview) -> ConversionReview {
        let api_version = if review.api_version.is_empty() {
            ConversionReview::API_VERSION.to_string()
        } else {
            review.api_version
        };
        let response = match &review.request {
            None => ConversionResponse {
                uid: String::new(),
                converted_objects: Vec::new(),
                result: Status::failure(
                    crate::status::StatusReason::BadRequest,
                    "the ConversionReview has no request",
                ),
            },
            Some(request) => match self.convert_all(request) {
                Ok(converted_objects) => ConversionResponse {
                    uid: request.uid.clone(),
                    converted_objects,
                    result: Status::success(),
                },
                Err(message) => ConversionResponse {
                    uid: request.uid.clone(),
                    converted_objects: Vec::new(),
                    result: Status {
                        status: Status::FAILURE.into(),
                        message,
                        ..Status::default()
                    },
                },
            },
        };
        ConversionReview {
            api_version,
            kind: ConversionReview::KIND.into(),
            request: None,
            response: Some(response),
        }
    }

    /// [`review`](Self::review) on a request body: the response body to
    /// send with HTTP 200, or, for a body that is not a `ConversionReview`
    /// with a request, a 400 `Status` to send with its `code`.
    pub fn review_json(&self, body: &[u8]) -> Result<Vec<u8>, Status> {
        let review: ConversionReview = serde_json::from_slice(body)
            .map_err(|e| Status::bad_request(format!("the body is not a ConversionReview: {e}")))?;
        if review.kind != ConversionReview::KIND || review.request.is_none() {
            return Err(Status::bad_request(format!(
                "expected a ConversionReview with a request, got kind {:?}",
                review.kind
            )));
        }
        serde_json::to_vec(&self.review(review)).map_err(Status::internal_error)
    }
}
