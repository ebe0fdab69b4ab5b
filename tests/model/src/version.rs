//! Model (b).
