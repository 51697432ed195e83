import Foundation

/// A fresh directory under the system temp directory.
public func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "herald-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

public func writeFile(_ path: String, _ contents: String) throws {
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
}

public func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
