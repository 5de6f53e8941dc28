import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real headless Chromium (Debian's `chromium`), driven over the DevTools protocol on a
/// pipe (`--remote-debugging-pipe`: commands in on descriptor 3, replies and events out on
/// descriptor 4, each a JSON message ended by a NUL byte). No WebSocket client is needed.
///
/// ``close()`` ends the browser; call it in a `defer`.
final class HeadlessChromium: @unchecked Sendable {
    /// Where Debian installs it.
    static let executable = "/usr/bin/chromium"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The longest wait for one reply: a bound, not a timing assertion.
    static let replyBound: Double = 60

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private var received: [UInt8] = []
    private var nextID = 1
    private let profile: URL

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts Chromium with a fresh profile in `directory`.
    init(in directory: URL) throws {
        profile = directory.appendingPathComponent("chromium-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        let arguments = [
            Self.executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
            "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let log = directory.appendingPathComponent("chromium.log").path
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        for fd in [toBrowser[0], toBrowser[1], fromBrowser[0], fromBrowser[1]] where fd > 4 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, Self.executable, &actions, &attributes, argv, environ)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        guard result == 0 else {
            Glibc.close(toBrowser[1])
            Glibc.close(fromBrowser[0])
            throw Failure(description: "cannot start chromium: \(String(cString: strerror(result)))")
        }
        pid = child
        commands = toBrowser[1]
        replies = fromBrowser[0]
        _ = try send("Browser.getVersion")
    }

    /// Closes the browser and reaps it.
    func close() {
        _ = try? send("Browser.close", bound: 5)
        Glibc.close(commands)
        Glibc.close(replies)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command (to a page's session, if given) and returns its `result`.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil, bound: Double = replyBound) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "writing to chromium failed: errno \(errno)") }
            offset += written
        }
        let deadline = Date().addingTimeInterval(bound)
        while Date() < deadline {
            guard let reply = try nextMessage(until: deadline) else { break }
            guard reply["id"] as? Int == id else { continue }  // an event, or another reply
            if let error = reply["error"] as? [String: Any] {
                throw Failure(description: "\(method) failed: \(error)")
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
        throw Failure(description: "no reply to \(method) within \(bound) s")
    }

    /// Opens `url` in a new page of `width` × `height` CSS pixels (a phone: 412 × 915 at a
    /// device scale of 2, touch) and returns it.
    func open(_ url: String, width: Int = 412, height: Int = 915, mobile: Bool = true) throws -> Page {
        let target = try send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no targetId: \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no sessionId: \(attached)") }
        let page = Page(browser: self, session: session)
        try page.send(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": mobile ? 2 : 1, "mobile": mobile])
        try page.send("Page.enable")
        try page.send("Page.navigate", ["url": url])
        return page
    }

    private func nextMessage(until deadline: Date) throws -> [String: Any]? {
        while true {
            if let end = received.firstIndex(of: 0) {
                let message = Array(received[..<end])
                received.removeSubrange(...end)
                return try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any]
            }
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            var poller = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, remaining) > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(replies, &buffer, buffer.count)
            guard count > 0 else { throw Failure(description: "chromium closed its pipe") }
            received += buffer[0..<count]
        }
    }

    /// One page (tab) of the browser.
    struct Page {
        let browser: HeadlessChromium
        let session: String

        @discardableResult
        func send(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
            try browser.send(method, parameters, session: session)
        }

        /// The value of a JavaScript expression evaluated in the page (JSON-able values).
        func evaluate(_ expression: String) throws -> Any? {
            let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
            if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression) threw: \(exception)") }
            return (result["result"] as? [String: Any])?["value"]
        }

        func number(_ expression: String) throws -> Double {
            guard let value = try evaluate(expression) as? NSNumber else {
                throw Failure(description: "\(expression) is not a number")
            }
            return value.doubleValue
        }

        /// A PNG of what the page shows.
        func screenshot() throws -> Data {
            let result = try send("Page.captureScreenshot", ["format": "png"])
            guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
                throw Failure(description: "no screenshot data")
            }
            return data
        }

        /// A turn of the mouse wheel at a point, in CSS pixels: a user zooming the map.
        func wheel(at point: (Double, Double), deltaY: Double) throws {
            try send("Input.dispatchMouseEvent", ["type": "mouseWheel", "x": point.0, "y": point.1, "deltaX": 0, "deltaY": deltaY])
        }

        /// A mouse drag from one point to another, in CSS pixels: a user panning the map.
        func drag(from start: (Double, Double), to end: (Double, Double)) throws {
            try send("Input.dispatchMouseEvent", ["type": "mousePressed", "x": start.0, "y": start.1, "button": "left", "buttons": 1, "clickCount": 1])
            for step in 1...5 {
                let f = Double(step) / 5
                try send("Input.dispatchMouseEvent", [
                    "type": "mouseMoved", "x": start.0 + (end.0 - start.0) * f, "y": start.1 + (end.1 - start.1) * f,
                    "button": "left", "buttons": 1,
                ])
            }
            try send("Input.dispatchMouseEvent", ["type": "mouseReleased", "x": end.0, "y": end.1, "button": "left", "buttons": 0, "clickCount": 1])
        }
    }
}
