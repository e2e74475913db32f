//! Structural schema checker (placeholder, being written).
