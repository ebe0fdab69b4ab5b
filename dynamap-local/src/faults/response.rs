//! Answers made up on the client side, shaped as DynamoDB shapes its own.

use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;

/// An error answer as DynamoDB sends it: a JSON body whose `__type` ends in the code.
pub(super) fn error_response(
    status: u16,
    code: &str,
    message: &str,
) -> Result<HttpResponse, ConnectorError> {
    let body = serde_json::json!({
        "__type": format!("com.amazonaws.dynamodb.v20120810#{code}"),
        "message": message,
    })
    .to_string();
    json_response(status, body.into_bytes())
}

/// A response with a JSON body, as DynamoDB's headers have it.
pub(super) fn json_response(status: u16, body: Vec<u8>) -> Result<HttpResponse, ConnectorError> {
    let status = StatusCode::try_from(status).map_err(|e| ConnectorError::other(e.into(), None))?;
    let length = body.len();
    let mut response = HttpResponse::new(status, SdkBody::from(body));
    let headers = response.headers_mut();
    let set = |headers: &mut aws_smithy_runtime_api::http::Headers, name, value: String| {
        headers
            .try_insert(name, value)
            .map(drop)
            .map_err(|e| ConnectorError::other(e.into(), None))
    };
    set(
        headers,
        "content-type",
        "application/x-amz-json-1.0".to_owned(),
    )?;
    set(headers, "content-length", length.to_string())?;
    set(
        headers,
        "x-amzn-requestid",
        "dynamap-injected-fault".to_owned(),
    )?;
    Ok(response)
}
