//! The readiness check: one real `ListTables` call over a plain socket.
//!
//! The JVM opens its port before DynamoDB Local can serve requests, so an open port proves
//! little; a `200` to a real request proves the server is usable. Blocking std I/O keeps the
//! launcher free of any async runtime, so it works from sync code and from inside any runtime.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// How long one attempt may take; a server still starting up is simply asked again.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// The status line never comes close to this; it bounds the read from a misbehaving peer.
const MAX_STATUS_LINE: usize = 1024;

/// Sends `ListTables` to DynamoDB Local on `port` and returns the HTTP status code.
pub(super) fn list_tables_status(port: u16) -> io::Result<u16> {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&addr, ATTEMPT_TIMEOUT)?;
    stream.set_read_timeout(Some(ATTEMPT_TIMEOUT))?;
    stream.set_write_timeout(Some(ATTEMPT_TIMEOUT))?;
    stream.write_all(request(port).as_bytes())?;
    let line = read_status_line(&mut stream)?;
    parse_status_line(&line).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not an HTTP status line: {line:?}"),
        )
    })
}

/// DynamoDB Local checks that a request is signed but not the signature itself, so a fixed
/// dummy `Authorization` header is enough.
fn request(port: u16) -> String {
    format!(
        "POST / HTTP/1.1\r\n\
         Host: 127.0.0.1:{port}\r\n\
         Content-Type: application/x-amz-json-1.0\r\n\
         X-Amz-Target: DynamoDB_20120810.ListTables\r\n\
         Authorization: AWS4-HMAC-SHA256 \
         Credential=dynamap/20200101/us-east-1/dynamodb/aws4_request, \
         SignedHeaders=host, Signature=0\r\n\
         Content-Length: 2\r\n\
         Connection: close\r\n\
         \r\n\
         {{}}"
    )
}

fn read_status_line(stream: &mut impl Read) -> io::Result<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 256];
    while !buf.contains(&b'\n') && buf.len() < MAX_STATUS_LINE {
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let end = buf.iter().position(|&b| b == b'\n').unwrap_or(buf.len());
    Ok(String::from_utf8_lossy(&buf[..end]).trim_end().to_owned())
}

/// The code in a line like `HTTP/1.1 200 OK`.
fn parse_status_line(line: &str) -> Option<u16> {
    let mut parts = line.split_whitespace();
    let version = parts.next()?;
    let code = parts.next()?;
    if !version.starts_with("HTTP/") || code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    code.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_lines() {
        assert_eq!(parse_status_line("HTTP/1.1 200 OK"), Some(200));
        assert_eq!(parse_status_line("HTTP/1.1 400 Bad Request"), Some(400));
        assert_eq!(parse_status_line("HTTP/1.0 503"), Some(503));
    }

    #[test]
    fn rejects_other_lines() {
        for line in [
            "",
            "HTTP/1.1",
            "SSH-2.0-OpenSSH 200",
            "HTTP/1.1 20 OK",
            "HTTP/1.1 2000 OK",
            "HTTP/1.1 +20 OK",
        ] {
            assert_eq!(parse_status_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn reads_only_the_first_line() -> io::Result<()> {
        let mut response: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
        assert_eq!(read_status_line(&mut response)?, "HTTP/1.1 200 OK");
        let mut cut: &[u8] = b"HTTP/1.1 5";
        assert_eq!(read_status_line(&mut cut)?, "HTTP/1.1 5");
        Ok(())
    }

    #[test]
    fn request_is_a_complete_list_tables_call() {
        let request = request(8000);
        let (head, body) = request.split_once("\r\n\r\n").unwrap_or_default();
        assert!(head.starts_with("POST / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"));
        assert!(head.contains("\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"));
        let authorization = "\r\nAuthorization: AWS4-HMAC-SHA256 \
            Credential=dynamap/20200101/us-east-1/dynamodb/aws4_request, \
            SignedHeaders=host, Signature=0\r\n";
        assert!(head.contains(authorization));
        assert!(head.contains("\r\nContent-Length: 2\r\nConnection: close"));
        assert_eq!(body, "{}");
    }
}
