import Foundation
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// A full file system under the database: reading pages keeps working, writes answer 503 with a
/// clear page, nothing crashes, and service recovers by itself once there is room again.
/// Uses a small tmpfs, which needs root (as on the project's machines and in CI).
@Suite(.serialized, .enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly"))
struct StorageFaultTests {
    static let canMount: Bool = {
        let probe = NSTemporaryDirectory() + "herald-mount-probe-\(getpid())"
        mkdir(probe, 0o700)
        defer { rmdir(probe) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) == 0 else { return false }
        return run("/bin/umount", [probe]) == 0
    }()

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
    func fullDiskRefusesWritesWith503AndRecovers() throws {
        let mountPoint = try makeTemporaryDirectory()
        #expect(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", mountPoint]) == 0)
        defer {
            Self.run("/bin/umount", [mountPoint])
            removeDirectory(mountPoint)
        }
        let data = mountPoint + "/data"
        let filler = mountPoint + "/filler"
        do {
            let app = try TestApp { $0.dataDirectory = data }
            let slug = try app.firstSlug()
            let reader = app.client()
            _ = try reader.register("diskfull")
            let token = try reader.formToken(on: "/articles/\(slug)")

            // Fill every remaining byte.
            let handle = try #require(
                FileHandle(forWritingAtPath: filler)
                    ?? {
                        guard FileManager.default.createFile(atPath: filler, contents: nil) else { return nil }
                        return FileHandle(forWritingAtPath: filler)
                    }())
            let chunk = Data(count: 64 * 1024)
            while (try? handle.write(contentsOf: chunk)) != nil {}
            var small = Data(count: 512)
            while (try? handle.write(contentsOf: small)) != nil { small = Data(count: 512) }
            try? handle.close()

            let refused = try reader.post("/articles/\(slug)/like", form: [("csrf_token", token)])
            #expect(refused.status == 503)
            #expect(refused["Retry-After"] != nil)
            #expect(refused.text.contains("try again"))
            #expect(try reader.get("/articles/\(slug)").status == 200, "reading still works")
            #expect(try reader.get("/").status == 200)
            #expect(try reader.get("/healthz").status == 200)

            // Room again: the same request now succeeds, without a restart.
            try FileManager.default.removeItem(atPath: filler)
            let accepted = try reader.post("/articles/\(slug)/like", form: [("csrf_token", token)])
            #expect(accepted.status == 303)
            #expect(try reader.likeCount(slug) == 1)
            #expect(try app.app.database.integrityCheck() == "ok")
        }
    }
}
