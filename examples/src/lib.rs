//! Example APIs defined with api-core.
