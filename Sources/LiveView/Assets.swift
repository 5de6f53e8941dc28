import NIOCore

/// The page's files, compiled into the binary (SwiftPM's `embedInCode`): nothing is loaded
/// from elsewhere, so the page works on a trail with no network but the Pi's.
enum Assets {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    static let files: [String: File] = [
        "/": File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8"),
        "/live.js": File(bytes: PackageResources.live_js, contentType: "text/javascript; charset=utf-8"),
        "/live.css": File(bytes: PackageResources.live_css, contentType: "text/css; charset=utf-8"),
    ]

    /// Only this server's own files and event stream: no CDN, no inline script.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
