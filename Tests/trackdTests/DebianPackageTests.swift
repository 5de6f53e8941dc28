import Foundation
import Testing

/// `scripts/package-deb` builds the Debian package of this machine's architecture; the package
/// passes lintian and is installed for real with apt, used, and purged again.
@Suite("The Debian package", .serialized, .timeLimit(.minutes(20)))
struct DebianPackageTests {
    static let script = Support.repository.appendingPathComponent("scripts/package-deb")

    @Test("package-deb builds trackd_VERSION_ARCH.deb that lintian passes; apt installs it, trackd works from /usr/bin, purge removes it")
    func buildInstallPurge() async throws {
        // Minutes of waiting on child processes: on a thread of its own, not on one of the few
        // threads of the cooperative pool that the in-process servers of other suites run on.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread { continuation.resume(with: Result { try Self.buildInstallPurgeBlocking() }) }.start()
        }
    }

    static func buildInstallPurgeBlocking() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The release binary .ci/run builds first, else the script builds it.
        let release = Support.repository.appendingPathComponent(".build-release/release/trackd")
        let binary = FileManager.default.isExecutableFile(atPath: release.path) ? ["--binary", release.path] : []
        let built = try Support.run(Self.script.path, ["--output", dir.path] + binary)
        #expect(built.status == 0, "\(built.stderr)")
        let deb = try #require(
            String(decoding: built.stdout, as: UTF8.self).split(separator: "\n").last.map(String.init), "\(built.stderr)")
        #expect(deb.hasSuffix(".deb") && deb.contains("trackd_"), "\(deb)")

        // What it holds.
        let contents = String(decoding: try Support.run("/usr/bin/dpkg-deb", ["--contents", deb]).stdout, as: UTF8.self)
        for path in [
            "./usr/bin/trackd", "/systemd/system/trackd@.service", "/systemd/system/trackd.service",
            "/systemd/system/trackd-live.service", "/udev/rules.d/60-trackd.rules", "./etc/trackd/trackd.toml",
            "./usr/share/man/man1/trackd.1.gz", "./usr/share/bash-completion/completions/trackd",
            "./usr/share/zsh/vendor-completions/_trackd", "./usr/share/fish/vendor_completions.d/trackd.fish",
            "./usr/share/doc/trackd/copyright", "./usr/share/doc/trackd/changelog.gz",
        ] {
            #expect(contents.contains(path), "\(path) is missing from the package")
        }
        let field = { (name: String) throws -> String in
            String(decoding: try Support.run("/usr/bin/dpkg-deb", ["--field", deb, name]).stdout, as: UTF8.self)
        }
        let depends = try field("Depends")
        for library in ["libc6", "libsqlite3-0", "libasound2", "libgps"] {
            #expect(depends.contains(library), "Depends: \(depends)")
        }
        #expect(!depends.contains("swift"), "the Swift runtime is linked in: \(depends)")
        let conffiles = String(decoding: try Support.run("/usr/bin/dpkg-deb", ["--info", deb, "conffiles"]).stdout, as: UTF8.self)
        #expect(conffiles.contains("/etc/trackd/trackd.toml"), "\(conffiles)")

        // Installed for real, used, and purged.
        let install = try Support.run("/usr/bin/apt-get", ["install", "-y", "-q", "--no-install-recommends", deb])
        #expect(install.status == 0, "\(install.stderr)")
        defer { _ = try? Support.run("/usr/bin/apt-get", ["purge", "-y", "-q", "trackd"]) }
        #expect(try Support.run("/usr/bin/trackd", ["--help"]).status == 0)
        let gpx = dir.appendingPathComponent("sample.gpx")
        let converted = try Support.run("/usr/bin/trackd", ["convert", Support.sample.path, "-o", gpx.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try Support.validateGPX(gpx).status == 0)
        let unit = try String(contentsOfFile: "/lib/systemd/system/trackd@.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/trackd record"), "\(unit)")
        let purge = try Support.run("/usr/bin/apt-get", ["purge", "-y", "-q", "trackd"])
        #expect(purge.status == 0, "\(purge.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/trackd"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/trackd/trackd.toml"))
    }
}
