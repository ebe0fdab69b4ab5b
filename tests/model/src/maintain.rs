//! Model (c).
