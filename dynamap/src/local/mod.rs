//! DynamoDB Local launcher (placeholder, being written).
