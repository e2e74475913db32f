//! The `Status` kind (placeholder, being written).
/// placeholder
#[derive(Debug)]
pub struct Status;
/// placeholder
#[derive(Debug)]
pub enum StatusReason {}
