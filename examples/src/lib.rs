//! Example APIs defined with api-core, and the `crdgen` binary that prints
//! their CustomResourceDefinitions.

pub mod memcached;
