//! The documents a Kubernetes-compatible API server serves for custom
//! resources, built without any HTTP: discovery (legacy and aggregated),
//! `meta.k8s.io/v1` tables for `kubectl get`, the JSONPath subset of
//! `additionalPrinterColumns`, and OpenAPI v3 for `kubectl explain` and
//! `kubectl apply`'s field validation.
//!
//! Every behaviour follows an upstream Kubernetes source, cited in the
//! module and item docs; the tests translate upstream test tables where
//! there are some.

#![warn(missing_docs)]

pub mod apiextensions;
pub mod audit;
pub mod authn;
#[cfg(feature = "k8s-openapi")]
pub mod builtin;
mod catalog;
pub mod discovery;
pub mod gc;
pub mod jsonpath;
pub mod kubeconfig;
pub mod limits;
pub mod listen;
pub mod namespaces;
pub mod negotiation;
pub mod openapi;
mod params;
pub mod protobuf;
pub mod rbac;
pub mod rbac_store;
mod request_info;
mod scale;
pub mod served;
pub mod server;
pub mod table;
pub mod tls;
pub mod version;

pub use server::{ApiServer, Controllers, ServerBuilder};
